import { Link } from '@tanstack/react-router';
import { Check, Plus } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import type { CandidateStatus } from '../../../contract/candidates';
import type { OtherTrialMatches } from '../../../contract/matching';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui';
import { CANDIDATE_STATUS_LABELS, plural } from '../candidates/format';
import { MATCH_CLASS_LABELS, RE_MATCH_STATUSES } from './format';
import { useAddToTrial } from '../matching/queries';
import { useOtherTrialsQuery } from './queries';

type OtherTrial = OtherTrialMatches['trials'][number];

/** Shown reasons per trial: the key criteria met, the first few. */
const REASONS_SHOWN = 4;

function OtherTrialItem({ candidateId, trial }: { candidateId: string; trial: OtherTrial }) {
  const add = useAddToTrial();
  const matchClass = trial.matchClass === 'possible' ? 'possible' : 'likely';
  return (
    <li className="grid gap-2 rounded-md border border-slate-200 px-3 py-2">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="text-sm font-medium text-slate-900">{trial.title}</p>
        <span className="flex flex-wrap gap-1">
          <Badge tone={matchClass === 'likely' ? 'green' : 'blue'}>{MATCH_CLASS_LABELS[matchClass]}</Badge>
          {trial.llmFlagged > 0 && (
            <Badge tone="amber" title="A language model judged criteria not met from the notes: check them">
              Check notes
            </Badge>
          )}
        </span>
      </div>
      <p className="text-xs text-slate-700">
        {plural(trial.metCount, 'criterion', 'criteria')} met
        {trial.unknownCount > 0 ? `, ${plural(trial.unknownCount, 'criterion', 'criteria')} not known yet` : ''}
      </p>
      {trial.reasons.length > 0 && (
        <ul className="grid list-disc gap-0.5 pl-5 text-sm text-slate-800" aria-label="Key criteria met">
          {trial.reasons.slice(0, REASONS_SHOWN).map((reason, index) => (
            <li key={index}>{reason}</li>
          ))}
          {trial.reasons.length > REASONS_SHOWN && <li className="list-none text-slate-700">and {plural(trial.reasons.length - REASONS_SHOWN, 'more')}</li>}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {/* The matcher's page reads `candidate` to open this candidate's evidence. */}
        <Link
          to="/trial-matcher/$id"
          params={{ id: trial.trialId }}
          search={{ candidate: candidateId }}
          className="text-sm font-medium text-blue-800 underline-offset-4 hover:underline"
        >
          See the evidence<span className="sr-only"> for {trial.title}</span>
        </Link>
        {trial.inTrial ? (
          <span className="inline-flex items-center gap-1 text-sm font-medium text-green-900">
            <Check aria-hidden="true" className="h-4 w-4" />
            In this trial
          </span>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            aria-label={`Add to trial: ${trial.title}`}
            disabled={add.isPending}
            onClick={() => add.mutate({ trialId: trial.trialId, candidateIds: [candidateId] }, { onSuccess: () => toast.success(`Added to ${trial.title}`) })}
          >
            <Plus aria-hidden="true" className="h-4 w-4" />
            {add.isPending ? 'Adding…' : 'Add to trial'}
          </Button>
        )}
      </div>
    </li>
  );
}

/** Re-matching: the organization's other recruiting trials the candidate's known facts do not rule out. */
export function AlsoFitsCard({ candidateId, status }: { candidateId: string; status: CandidateStatus }) {
  const query = useOtherTrialsQuery(candidateId);
  const headingId = useId();
  let body;
  if (query.isPending) body = <Spinner label="Looking for other trials" />;
  else if (query.isError) body = <ErrorCard title="Could not look for other trials" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.trials.length === 0) body = <p className="text-sm text-slate-700">No other recruiting trial fits on what is known.</p>;
  else
    body = (
      <ul className="grid gap-2" aria-label="Trials this candidate may fit">
        {query.data.trials.map((trial) => (
          <OtherTrialItem key={trial.trialId} candidateId={candidateId} trial={trial} />
        ))}
      </ul>
    );
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>Other trials this candidate may fit</CardTitle>
        <CardDescription>Recruiting trials whose criteria do not rule the candidate out on the facts known.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {RE_MATCH_STATUSES.has(status) && (
          <p className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
            Status: {CANDIDATE_STATUS_LABELS[status].toLowerCase()}. One trial did not work out; another may still suit them.
          </p>
        )}
        {body}
      </CardContent>
    </Card>
  );
}
