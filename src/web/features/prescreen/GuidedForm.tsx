import { useNavigate } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { toast } from 'sonner';
import type { KnownCandidate, Language, PrescreenForm } from '../../../contract/prescreen-forms';
import type { PrescreenResult } from '../../../contract/prescreen';
import { Button, Card, CardContent, CardHeader, EmptyState, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { LANGUAGE_LABELS, say, serverProblems } from '../prescreen-forms/format';
import { RECOMMENDATION_LABELS } from './format';
import { useRunPrescreen } from './queries';
import { isEmpty, knownAnswers, toInput, type AnswerDraft } from './answer-draft';
import { QuestionInput } from './QuestionInput';

/** The form, block by block. `onRecorded` replaces the default (a toast and the candidate's results) after submitting. */
export function GuidedForm({
  form,
  candidateId,
  initialLanguage,
  known,
  onRecorded,
}: {
  form: PrescreenForm;
  candidateId: string;
  initialLanguage: Language;
  known?: KnownCandidate;
  onRecorded?: (result: PrescreenResult) => void;
}) {
  const blocks = form.blocks.filter((block) => block.questions.length > 0);
  const [step, setStep] = useState(0);
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const prefilled = useMemo(() => knownAnswers(form.blocks, known), [form.blocks, known]);
  const [answers, setAnswers] = useState<Record<string, AnswerDraft>>(() => prefilled.answers);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<{ message: string; details: string[] } | null>(null);
  const run = useRunPrescreen();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const block = blocks[step];
  const last = step === blocks.length - 1;

  useEffect(() => {
    headingRef.current?.focus();
  }, [step]);

  const check = () => {
    const next: Record<string, string> = {};
    for (const question of block.questions) {
      const value = answers[question.id];
      if (question.required && isEmpty(value)) next[question.id] = 'Answer this question';
      else if (question.type === 'number' && typeof value === 'string' && value.trim() && !Number.isFinite(Number(value.trim())))
        next[question.id] = 'Enter a number';
    }
    setErrors(next);
    const first = Object.keys(next)[0];
    if (first)
      (document.querySelector(`[data-question="${CSS.escape(first)}"] input, [data-question="${CSS.escape(first)}"] textarea`) as HTMLElement | null)?.focus();
    return !first;
  };

  const submit = () => {
    if (!check()) return;
    setServerError(null);
    const payload = blocks.flatMap((item) => item.questions.map((question) => toInput(question, answers[question.id])));
    run.mutate(
      { candidateId, formId: form.id, answers: payload },
      {
        onSuccess: (result) => {
          if (onRecorded) return onRecorded(result);
          toast.success(`Prescreen recorded: ${RECOMMENDATION_LABELS[result.aiRecommendation]}`);
          void navigate({ to: '/prescreen/results', search: { candidateId } });
        },
        onError: (error) => setServerError(serverProblems(error)),
      },
    );
  };

  if (!block) return <EmptyState title="This form has no questions" />;

  return (
    <Card>
      <GuidedFormHeader
        form={form}
        step={step}
        stepCount={blocks.length}
        title={block.title}
        language={language}
        onLanguage={setLanguage}
        headingRef={headingRef}
      />
      <CardContent>
        <form
          noValidate
          className="grid gap-6"
          lang={language}
          onSubmit={(event) => {
            event.preventDefault();
            if (last) submit();
            else if (check()) setStep(step + 1);
          }}
        >
          {block.questions.map((question) => (
            <QuestionInput
              key={question.id}
              question={question}
              language={language}
              value={answers[question.id]}
              error={errors[question.id]}
              fromRecord={
                prefilled.from[question.id] && JSON.stringify(answers[question.id]) === JSON.stringify(prefilled.answers[question.id])
                  ? prefilled.from[question.id]
                  : undefined
              }
              onChange={(next) => {
                setAnswers((current) => ({ ...current, [question.id]: next }));
                if (errors[question.id]) setErrors((current) => ({ ...current, [question.id]: '' }));
              }}
            />
          ))}
          {serverError && <NotRecordedError problem={serverError} />}
          <div className="flex flex-wrap justify-between gap-2" lang="en">
            <Button variant="secondary" disabled={step === 0} onClick={() => setStep(step - 1)}>
              <ChevronLeft aria-hidden="true" className="h-4 w-4" />
              Back
            </Button>
            {last ? (
              <SubmitButton pending={run.isPending} pendingLabel="Submitting…" icon={<Send aria-hidden="true" className="h-4 w-4" />}>
                Submit prescreen
              </SubmitButton>
            ) : (
              <Button type="submit">
                Next
                <ChevronRight aria-hidden="true" className="h-4 w-4" />
              </Button>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

interface GuidedFormHeaderProps {
  form: PrescreenForm;
  step: number;
  stepCount: number;
  title: PrescreenForm['blocks'][number]['title'];
  language: Language;
  onLanguage: (language: Language) => void;
  /** The block's heading takes the focus on each step. */
  headingRef: RefObject<HTMLHeadingElement | null>;
}

/** Where the person is in the form (step, progress bar), the language of the questions, and the block's title. */
function GuidedFormHeader({ form, step, stepCount, title, language, onLanguage, headingRef }: GuidedFormHeaderProps) {
  return (
    <CardHeader className="gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700" data-testid="step">
          Step {step + 1} of {stepCount} · {form.name} (version {form.version})
        </p>
        <fieldset className="flex items-center gap-3">
          <legend className="sr-only">Language of the questions</legend>
          {(['en', 'es'] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5 text-sm text-slate-800">
              <input type="radio" name="run-language" className="h-4 w-4 accent-blue-700" checked={language === value} onChange={() => onLanguage(value)} />
              {LANGUAGE_LABELS[value]}
            </label>
          ))}
        </fieldset>
      </div>
      <div
        role="progressbar"
        aria-label="Prescreen progress"
        aria-valuemin={1}
        aria-valuemax={stepCount}
        aria-valuenow={step + 1}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-blue-700" style={{ width: `${((step + 1) / stepCount) * 100}%` }} />
      </div>
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none" lang={language}>
        {say(title, language)}
      </h2>
    </CardHeader>
  );
}

/** The server refused the answers: its reason and details, in English. */
function NotRecordedError({ problem }: { problem: { message: string; details: string[] } }) {
  return (
    <FormError lang="en">
      <p className="font-semibold">The prescreen was not recorded</p>
      <p>{problem.message}</p>
      {problem.details.length > 0 && (
        <ul className="list-disc pl-5">
          {problem.details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </FormError>
  );
}
