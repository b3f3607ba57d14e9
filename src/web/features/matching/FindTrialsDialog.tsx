import { Link } from '@tanstack/react-router';
import { Check, Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { CandidateTrialMatch } from '../../../contract/matching';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button } from '../../components/ui';
import { EvidenceRow } from './EvidenceDialog';
import { CLASS_LABELS, CLASS_TONES, percent } from './format';
import { useAddToTrial, useCandidateMatch, useCandidateTrials } from './queries';

/** Reasons shown before "Why" is opened. */
const REASONS_SHOWN = 3;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One trial's criterion-by-criterion evidence, read when "Why" is opened (the matcher's evidence for this person). */
function TrialEvidence({ trialId, candidateId }: { trialId: string; candidateId: string }) {
  const query = useCandidateMatch(trialId, candidateId);
  if (query.isPending) return <Spinner label="Loading the evidence" />;
  if (query.isError) return <ErrorCard title="Could not load the evidence" error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <ul>
      {query.data.evidence.map((item) => (
        <EvidenceRow key={item.criterionId} item={item} />
      ))}
    </ul>
  );
}

function TrialItem({ candidateId, candidateName, trial }: { candidateId: string; candidateName: string; trial: CandidateTrialMatch }) {
  const add = useAddToTrial();
  const [why, setWhy] = useState(false);
  const said = trial.matchClass === 'excluded' ? trial.blockers : trial.reasons;
  return (
    <li className="grid gap-2 rounded-md border border-slate-200 px-3 py-2">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 break-words text-sm font-medium text-slate-900">{trial.title}</p>
        <span className="flex flex-wrap gap-1">
          <Badge tone={CLASS_TONES[trial.matchClass]}>{CLASS_LABELS[trial.matchClass]}</Badge>
          {trial.llmFlagged > 0 && <Badge tone="amber">Check notes</Badge>}
        </span>
      </div>
      <p className="text-xs text-slate-700">
        Score {percent(trial.score)} · {count(trial.metCount, 'criterion', 'criteria')} met
        {trial.notMetCount > 0 ? `, ${trial.notMetCount.toLocaleString('en-US')} not met` : ''}
        {trial.unknownCount > 0 ? `, ${trial.unknownCount.toLocaleString('en-US')} not known yet` : ''}
      </p>
      {said.length > 0 && (
        <ul
          className="grid list-disc gap-0.5 pl-5 text-sm text-slate-800"
          aria-label={trial.matchClass === 'excluded' ? 'Why it rules them out' : 'Why it fits'}
        >
          {said.slice(0, REASONS_SHOWN).map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      <details className="text-sm" onToggle={(event) => setWhy(event.currentTarget.open)}>
        <summary className="cursor-pointer font-medium text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          Why: every criterion<span className="sr-only"> of {trial.title}</span>
        </summary>
        {why && <TrialEvidence trialId={trial.trialId} candidateId={candidateId} />}
      </details>
      <div className="flex flex-wrap items-center gap-3">
        {trial.inTrial ? (
          <span className="inline-flex items-center gap-1 text-sm font-medium text-green-900">
            <Check aria-hidden="true" className="h-4 w-4" />
            In this trial
          </span>
        ) : (
          trial.matchClass !== 'excluded' && (
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Add to trial: ${trial.title}`}
              disabled={add.isPending}
              onClick={() =>
                add.mutate(
                  { trialId: trial.trialId, candidateIds: [candidateId] },
                  { onSuccess: () => toast.success(`${candidateName} added to ${trial.title}`) },
                )
              }
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              {add.isPending ? 'Adding…' : 'Add to trial'}
            </Button>
          )
        )}
        <Link
          to="/trial-matcher/$id"
          params={{ id: trial.trialId }}
          search={{ candidate: candidateId }}
          className="text-sm font-medium text-blue-800 underline-offset-4 hover:underline"
        >
          Open in the trial matcher<span className="sr-only"> for {trial.title}</span>
        </Link>
      </div>
    </li>
  );
}

/** The ranked list, loaded with the dialog (FindTrialsButton.tsx), so the candidate page's first JavaScript stays in budget. */
export default function RankedTrials({ candidateId, candidateName }: { candidateId: string; candidateName: string }) {
  const query = useCandidateTrials(candidateId, { enabled: true });
  if (query.isPending) return <Spinner label="Matching against every recruiting trial" />;
  if (query.isError) return <ErrorCard title="Could not match this person against the trials" error={query.error} onRetry={() => void query.refetch()} />;
  const { trials, counts } = query.data;
  if (trials.length === 0) return <p className="text-sm text-slate-700">No recruiting trial has criteria to match against yet.</p>;
  const fitting = trials.filter((trial) => trial.matchClass !== 'excluded');
  const excluded = trials.filter((trial) => trial.matchClass === 'excluded');
  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-800" aria-live="polite">
        {count(counts.total, 'recruiting trial', 'recruiting trials')}: {counts.likely.toLocaleString('en-US')} likely,{' '}
        {counts.possible.toLocaleString('en-US')} possibly eligible, {counts.excluded.toLocaleString('en-US')} ruled out on what is known.
      </p>
      {fitting.length ? (
        <ul className="grid gap-2" aria-label="Trials that may fit, best first">
          {fitting.map((trial) => (
            <TrialItem key={trial.trialId} candidateId={candidateId} candidateName={candidateName} trial={trial} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">Every recruiting trial rules this person out on what is known.</p>
      )}
      {excluded.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
            {count(excluded.length, 'trial rules', 'trials rule')} them out
          </summary>
          <ul className="mt-2 grid gap-2" aria-label="Trials that rule this person out">
            {excluded.map((trial) => (
              <TrialItem key={trial.trialId} candidateId={candidateId} candidateName={candidateName} trial={trial} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
