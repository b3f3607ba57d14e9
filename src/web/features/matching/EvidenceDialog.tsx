import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import type { CriterionEvidence } from '../../../contract/matching';
import { Dialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass } from '../../components/ui';
import { CLASS_LABELS, CLASS_TONES, FACT_SOURCE_LABELS, OUTCOME_LABELS, OUTCOME_TONES, percent } from './format';
import { FormError } from '../../components/FormError';
import { apiProblem } from '../../lib/form-errors';
import { useAddToTrial, useCandidateMatch, useLlmJudge } from './queries';
import { datesInTextInWords } from '../../lib/date-words';

const VERDICT_LABELS = { met: 'Meets', not_met: 'Does not meet', unknown: 'Cannot tell' } as const;

/** `llm` evidence: the model's advice on a criterion the rules left unknown, with the note sentences it cited. */
function LlmAdvice({ llm }: { llm: NonNullable<CriterionEvidence['llm']> }) {
  return (
    <div className="grid gap-1 rounded-md border border-violet-200 bg-violet-50 px-3 py-2 text-sm" data-testid="llm-evidence">
      <p className="text-slate-900">
        <span className="font-medium">
          Language model ({llm.model}): {VERDICT_LABELS[llm.verdict]}.
        </span>{' '}
        {llm.explanation}
      </p>
      {llm.sentences.map((sentence) => (
        <blockquote key={sentence.id} className="border-l-2 border-violet-300 pl-3 italic text-slate-800">
          “{sentence.text}”<span className="not-italic text-slate-700"> — clinical note, sentence {sentence.id}</span>
        </blockquote>
      ))}
      <p className="text-xs text-slate-700">Advice only: it never excludes anyone. A person checks the notes.</p>
    </div>
  );
}

/** One criterion's evidence: the outcome, the reason, and the quoted source (the matcher's dialog and a person's trials share it). */
export function EvidenceRow({ item }: { item: CriterionEvidence }) {
  return (
    <li className="grid gap-1 border-b border-slate-100 py-2.5 last:border-0">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={OUTCOME_TONES[item.outcome]}>{OUTCOME_LABELS[item.outcome]}</Badge>
        <span className="text-xs font-medium uppercase tracking-wide text-slate-700">{item.kind}</span>
        {item.key && <span className="text-xs text-slate-700">key fact</span>}
      </div>
      <p className="text-sm text-slate-900">{item.text}</p>
      <p className="text-sm text-slate-700">{datesInTextInWords(item.reason)}</p>
      {item.fact?.sourceText && (
        <blockquote className="border-l-2 border-slate-300 pl-3 text-sm italic text-slate-800">
          “{item.fact.sourceText}”<span className="not-italic text-slate-700"> — {FACT_SOURCE_LABELS[item.fact.source] ?? item.fact.source}</span>
        </blockquote>
      )}
      {item.llm && <LlmAdvice llm={item.llm} />}
    </li>
  );
}

/** One candidate against the trial, criterion by criterion: what decided each, and from which source. */
export function EvidenceDialog({
  trialId,
  candidateId,
  llmJudge = false,
  onClose,
}: {
  trialId: string;
  candidateId: string | undefined;
  /** A language model may judge the unknown criteria against the notes (decision 097). */
  llmJudge?: boolean;
  onClose: () => void;
}) {
  const query = useCandidateMatch(trialId, candidateId);
  const add = useAddToTrial();
  const judge = useLlmJudge(trialId);
  const match = query.data;
  const name = match ? `${match.candidate.firstName} ${match.candidate.lastName}`.trim() : 'Candidate';
  const notMet = match?.evidence.filter((item) => item.outcome === 'not_met') ?? [];
  const rest = match?.evidence.filter((item) => item.outcome !== 'not_met') ?? [];
  return (
    <Dialog
      open={Boolean(candidateId)}
      onOpenChange={(open) => !open && onClose()}
      title={`Why: ${name}`}
      description="Each criterion against what is known of the candidate, with the source that decided it."
    >
      {query.isPending ? (
        <Spinner label="Loading the evidence" />
      ) : query.isError ? (
        <ErrorCard title="Could not load the evidence" error={query.error} onRetry={() => void query.refetch()} />
      ) : match ? (
        <div className="grid gap-4">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={CLASS_TONES[match.matchClass]}>{CLASS_LABELS[match.matchClass]}</Badge>
            <span className="text-sm text-slate-700">Chance of eligibility {percent(match.score)}</span>
            {match.inTrial && <Badge tone="blue">In this trial</Badge>}
            {match.llmFlagged > 0 && <Badge tone="amber">Language model: {match.llmFlagged} not met, check the notes</Badge>}
          </div>
          <p className="text-sm text-slate-800" data-testid="match-summary">
            {match.summary}
          </p>
          {llmJudge && match.evidence.some((item) => item.outcome === 'unknown') && (
            <div className="grid gap-2">
              <div>
                <Button variant="secondary" size="sm" disabled={judge.isPending} onClick={() => judge.mutate(match.candidate.id)}>
                  {judge.isPending ? 'Asking the language model…' : 'Ask the language model about the unknown criteria'}
                </Button>
              </div>
              <p className="text-xs text-slate-700">It reads this candidate’s clinical notes. Its answers are advice shown beside each criterion.</p>
              <FormError>{judge.isError ? apiProblem(judge.error).message : null}</FormError>
            </div>
          )}
          {notMet.length > 0 && (
            <section aria-labelledby="evidence-not-met">
              <h3 id="evidence-not-met" className="text-sm font-semibold text-slate-900">
                Why excluded
              </h3>
              <ul>
                {notMet.map((item) => (
                  <EvidenceRow key={item.criterionId} item={item} />
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="evidence-all">
            <h3 id="evidence-all" className="text-sm font-semibold text-slate-900">
              {notMet.length ? 'Other criteria' : 'Criteria'}
            </h3>
            <ul>
              {rest.map((item) => (
                <EvidenceRow key={item.criterionId} item={item} />
              ))}
            </ul>
          </section>
          <div className="flex flex-wrap justify-end gap-2">
            <Link to="/candidates/$id" params={{ id: match.candidate.id }} className={buttonClass('secondary')}>
              Open candidate
            </Link>
            {!match.inTrial && (
              <Button
                disabled={add.isPending}
                onClick={() =>
                  add.mutate(
                    { trialId, candidateIds: [match.candidate.id] },
                    {
                      onSuccess: () => {
                        toast.success(`${name} added to ${match.trialTitle}`);
                        void query.refetch();
                      },
                    },
                  )
                }
              >
                {add.isPending ? 'Adding…' : 'Add to trial'}
              </Button>
            )}
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
