import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import type { AiRecommendation, PrescreenResult } from '../../../contract/prescreen';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Label, PageHeader, Select, SubmitButton } from '../../components/ui';
import { errorMessage } from '../../lib/utils';
import { useCandidateQuery } from '../candidates/queries';
import { usePrescreenFormQuery } from '../prescreen-forms/queries';
import { RecommendationBadge } from '../prescreen/components';
import { RECOMMENDATION_LABELS } from '../prescreen/format';
import { useDecide } from '../prescreen/queries';
import { GuidedForm } from '../prescreen/GuidedForm';
import { useCreateSampleCandidate, useDemoSamplesQuery } from './queries';
import { RecommendationCard } from './RecommendationCard';
import { demoSamplesState } from './DemoSamplesState';

const STEPS = [
  { title: 'Pick a trial and a candidate', explain: 'Each trial has a published prescreen form, generated from its eligibility criteria.' },
  { title: 'Answer the prescreen', explain: 'Staff (or the chat and voice agents) ask the form’s questions in plain words, in English or Spanish.' },
  { title: 'See the AI recommendation', explain: 'The engine checks every answer against the criteria and explains its recommendation.' },
  { title: 'Review as a coordinator', explain: 'A person always decides: approve, reject, or override the AI with a reason.' },
] as const;

function StepHeader({ index }: { index: number }) {
  return (
    <ol className="grid gap-2 sm:grid-cols-4" aria-label="Steps">
      {STEPS.map((step, position) => (
        <li
          key={step.title}
          aria-current={position === index ? 'step' : undefined}
          className={
            position === index ? 'rounded-md border-2 border-blue-700 bg-blue-50 p-2 text-sm' : 'rounded-md border border-slate-200 p-2 text-sm text-slate-700'
          }
        >
          <span className="font-semibold">
            {position + 1}. {step.title}
          </span>
        </li>
      ))}
    </ol>
  );
}

function AnswerStep({ formId, candidateId, onRecorded }: { formId: string; candidateId: string; onRecorded: (result: PrescreenResult) => void }) {
  const form = usePrescreenFormQuery(formId);
  const person = useCandidateQuery(candidateId);
  if (form.isPending || person.isPending) return <Spinner label="Loading the form" />;
  if (form.isError) return <ErrorCard title="Could not load the form" error={form.error} onRetry={() => void form.refetch()} />;
  if (person.isError) return <ErrorCard title="Could not load the sample candidate" error={person.error} onRetry={() => void person.refetch()} />;
  return <GuidedForm form={form.data} candidateId={candidateId} initialLanguage="en" known={person.data} onRecorded={onRecorded} />;
}

function ReviewStep({ result, onDecided }: { result: PrescreenResult; onDecided: (result: PrescreenResult) => void }) {
  const decide = useDecide();
  const [choice, setChoice] = useState<'agree' | AiRecommendation>('agree');
  const [reason, setReason] = useState('');
  const approve =
    choice === 'agree' ? result.aiRecommendation === 'PASS' || result.aiRecommendation === 'POTENTIAL' : choice === 'PASS' || choice === 'POTENTIAL';
  const needsReason = choice !== 'agree' || !approve;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your decision</CardTitle>
        <CardDescription>Agree with the AI, or hold another recommendation (an override) and say why.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            decide.mutate(
              {
                resultId: result.id,
                decision: approve ? 'approve' : 'reject',
                reason: reason.trim() || undefined,
                ...(choice !== 'agree' ? { overrideRecommendation: choice } : {}),
              },
              { onSuccess: onDecided },
            );
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="demo-decision">Recommendation you hold</Label>
            <Select id="demo-decision" value={choice} onChange={(event) => setChoice(event.target.value as 'agree' | AiRecommendation)}>
              <option value="agree">Agree with the AI ({RECOMMENDATION_LABELS[result.aiRecommendation]})</option>
              {(['PASS', 'POTENTIAL', 'INCONCLUSIVE', 'FAIL'] as const)
                .filter((value) => value !== result.aiRecommendation)
                .map((value) => (
                  <option key={value} value={value}>
                    Override: {RECOMMENDATION_LABELS[value]}
                  </option>
                ))}
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="demo-reason">Reason{needsReason ? '' : ' (optional)'}</Label>
            <textarea
              id="demo-reason"
              required={needsReason}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className="min-h-20 rounded-md border border-slate-400 px-3 py-2 text-sm"
            />
          </div>
          {decide.isError && <FormError>{errorMessage(decide.error)}</FormError>}
          <div>
            <SubmitButton pending={decide.isPending} pendingLabel="Saving…">
              {approve ? 'Approve' : 'Reject'}
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** /admin/demo/prescreen: a guided prescreen and review on the demo data, one step at a time. */
export function PrescreenDemoPage() {
  const samples = useDemoSamplesQuery();
  const sample = useCreateSampleCandidate();
  const [trialId, setTrialId] = useState('');
  const [candidate, setCandidate] = useState<{ id: string; name: string; formId: string } | null>(null);
  const [result, setResult] = useState<PrescreenResult | null>(null);
  const [decided, setDecided] = useState<PrescreenResult | null>(null);
  const step = decided ? 3 : result ? 2 : candidate ? 1 : 0;

  let body;
  const waiting = demoSamplesState(samples);
  if (waiting || !samples.data) body = waiting;
  else {
    const trials = samples.data.trials.filter((item) => item.formId && item.status === 'recruiting');
    const chosen = trialId || trials[0]?.id || '';
    if (trials.length === 0) body = <EmptyState title="No recruiting demo trial has a published form">Reset the demo data to make them again.</EmptyState>;
    else if (step === 0) {
      body = (
        <Card>
          <CardHeader>
            <CardTitle>Pick a trial</CardTitle>
            <CardDescription>A new sample candidate is made for the trial, so the demo data stays as it is.</CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="grid gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                const trial = trials.find((item) => item.id === chosen)!;
                sample.mutate(chosen, { onSuccess: (made) => setCandidate({ id: made.candidateId, name: made.name, formId: trial.formId! }) });
              }}
            >
              <div className="grid gap-1.5">
                <Label htmlFor="demo-trial">Trial</Label>
                <Select id="demo-trial" value={chosen} onChange={(event) => setTrialId(event.target.value)}>
                  {trials.map((item) => (
                    <option key={item.id} value={item.id}>
                      {item.title}
                    </option>
                  ))}
                </Select>
              </div>
              {sample.isError && <FormError>{errorMessage(sample.error)}</FormError>}
              <div>
                <SubmitButton pending={sample.isPending} pendingLabel="Making a sample candidate…">
                  Use a sample candidate
                </SubmitButton>
              </div>
            </form>
          </CardContent>
        </Card>
      );
    } else if (step === 1 && candidate) {
      body = (
        <div className="grid gap-3">
          <p className="text-sm text-slate-700">Prescreening {candidate.name}. Some answers come from the record; the rest are up to you.</p>
          <AnswerStep formId={candidate.formId} candidateId={candidate.id} onRecorded={setResult} />
        </div>
      );
    } else if (step === 2 && result) {
      body = (
        <div className="grid gap-4">
          <RecommendationCard result={result} />
          <ReviewStep result={result} onDecided={setDecided} />
        </div>
      );
    } else if (decided) {
      body = (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-700" /> Reviewed
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm text-slate-800">
            <p role="status" data-testid="demo-decision">
              {decided.decision?.decision === 'approve' ? 'Approved' : 'Rejected'}
              {decided.decision?.overrideRecommendation ? (
                <>
                  {' '}
                  with an override: AI <RecommendationBadge recommendation={decided.aiRecommendation} /> →{' '}
                  <RecommendationBadge recommendation={decided.decision.overrideRecommendation} />
                </>
              ) : (
                ' in agreement with the AI.'
              )}
            </p>
            <p>The decision, its reason and who made it are kept on the result; an approved candidate can be booked for a screening visit next.</p>
            <div>
              <Button
                variant="secondary"
                onClick={() => {
                  setCandidate(null);
                  setResult(null);
                  setDecided(null);
                  sample.reset();
                }}
              >
                Start again
              </Button>
            </div>
          </CardContent>
        </Card>
      );
    }
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Prescreen demo" description="From answers to the AI recommendation and a coordinator’s review, on sample data." />
      <StepHeader index={step} />
      <p className="text-sm text-slate-800" data-testid="demo-step-explain">
        Step {step + 1}: {STEPS[step].explain}
      </p>
      {body}
    </div>
  );
}
