import { Link, useNavigate } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { knownAnswerOf, type KnownCandidate, type Language, type PrescreenForm, type Question } from '../../../contract/prescreen-forms';
import type { PrescreenAnswerInput, PrescreenResult } from '../../../contract/prescreen';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import {
  Badge,
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  EmptyState,
  FieldError,
  Input,
  Label,
  PageHeader,
  SubmitButton,
} from '../../components/ui';
import { FormError } from '../../components/FormError';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage } from '../../lib/utils';
import { candidateName } from '../candidates/format';
import { useCandidateQuery } from '../candidates/queries';
import { LANGUAGE_LABELS, say, serverProblems } from '../prescreen-forms/format';
import { usePrescreenFormQuery, usePrescreenFormsQuery } from '../prescreen-forms/queries';
import { useRunPrescreen } from './queries';

type AnswerDraft = string | string[];

const textareaClass =
  'flex min-h-20 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

const isEmpty = (value: AnswerDraft | undefined) => value === undefined || (Array.isArray(value) ? false : value.trim() === '');

function toInput(question: Question, value: AnswerDraft | undefined): PrescreenAnswerInput {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return { questionId: question.id, value: null };
  return { questionId: question.id, value: typeof value === 'string' ? value.trim() : value };
}

/** A known answer as the form's draft value (yes/no as 'yes'/'no', numbers as text). */
function toDraft(question: Question, value: unknown): AnswerDraft | undefined {
  if (value === null || value === undefined) return undefined;
  if (question.type === 'yes_no') return value === true ? 'yes' : value === false ? 'no' : undefined;
  if (question.type === 'multiple_choice') return Array.isArray(value) ? value.map(String) : [String(value)];
  return String(value);
}

/** Answers the candidate's record already gives (date of birth, sex, custom fields), and where each comes from. */
function knownAnswers(blocks: PrescreenForm['blocks'], known: KnownCandidate | undefined) {
  const answers: Record<string, AnswerDraft> = {};
  const from: Record<string, string> = {};
  if (!known) return { answers, from };
  for (const question of blocks.flatMap((block) => block.questions)) {
    const found = knownAnswerOf(question, known);
    const draft = found ? toDraft(question, found.value) : undefined;
    if (found && draft !== undefined) {
      answers[question.id] = draft;
      from[question.id] = found.from;
    }
  }
  return { answers, from };
}

function QuestionInput({
  question,
  language,
  value,
  error,
  onChange,
  fromRecord,
}: {
  question: Question;
  language: Language;
  value: AnswerDraft | undefined;
  error?: string;
  onChange: (next: AnswerDraft) => void;
  fromRecord?: string;
}) {
  const id = `answer-${question.id}`;
  const label = say(question.wording.chat, language);
  const recordNote = fromRecord && (
    <p className="text-xs text-slate-700" data-testid={`from-record-${question.id}`}>
      <Badge tone="blue">From the record</Badge> <span className="ml-1">({fromRecord}; change it if the candidate says otherwise)</span>
    </p>
  );
  const errorId = `${id}-error`;
  const described = error ? { 'aria-describedby': errorId, 'aria-invalid': true as const } : {};
  const optional = !question.required && <span className="ml-1 font-normal text-slate-700">(optional)</span>;
  const errorText = <FieldError id={errorId}>{error}</FieldError>;
  const yesNo = question.type === 'yes_no';
  if (yesNo || question.type === 'single_choice' || question.type === 'multiple_choice') {
    const options = yesNo
      ? [
          { value: 'yes', label: language === 'es' ? 'Sí' : 'Yes' },
          { value: 'no', label: 'No' },
        ]
      : (question.options ?? []).map((option) => ({ value: option.value, label: say(option.label, language) }));
    const multiple = question.type === 'multiple_choice';
    const selected = Array.isArray(value) ? value : [];
    return (
      <fieldset className="grid gap-2" {...described} data-question={question.id}>
        <legend className="mb-1 text-sm font-medium text-slate-900">
          {label}
          {optional}
        </legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {options.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={id}
                className="h-4 w-4 accent-blue-700"
                checked={multiple ? selected.includes(option.value) : value === option.value}
                onChange={(event) =>
                  onChange(multiple ? (event.target.checked ? [...selected, option.value] : selected.filter((item) => item !== option.value)) : option.value)
                }
              />
              {option.label}
            </label>
          ))}
        </div>
        {recordNote}
        {errorText}
      </fieldset>
    );
  }
  return (
    <div className="grid gap-1.5" data-question={question.id}>
      <Label htmlFor={id}>
        {label}
        {optional}
      </Label>
      {question.type === 'text' ? (
        <textarea
          id={id}
          className={textareaClass}
          maxLength={5000}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
          {...described}
        />
      ) : (
        <div className="flex items-center gap-2">
          <Input
            id={id}
            className="max-w-xs"
            type={question.type === 'date' ? 'date' : 'text'}
            inputMode={question.type === 'number' ? 'decimal' : undefined}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value)}
            {...described}
          />
          {question.unit && <span className="text-sm text-slate-700">{question.unit}</span>}
        </div>
      )}
      {recordNote}
      {errorText}
    </div>
  );
}

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
          toast.success(`Prescreen recorded: ${result.aiRecommendation}`);
          void navigate({ to: '/prescreen/results', search: { candidateId } });
        },
        onError: (error) => setServerError(serverProblems(error)),
      },
    );
  };

  if (!block) return <EmptyState title="This form has no questions" />;

  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-700" data-testid="step">
            Step {step + 1} of {blocks.length} · {form.name} (version {form.version})
          </p>
          <fieldset className="flex items-center gap-3">
            <legend className="sr-only">Language of the questions</legend>
            {(['en', 'es'] as const).map((value) => (
              <label key={value} className="flex items-center gap-1.5 text-sm text-slate-800">
                <input type="radio" name="run-language" className="h-4 w-4 accent-blue-700" checked={language === value} onChange={() => setLanguage(value)} />
                {LANGUAGE_LABELS[value]}
              </label>
            ))}
          </fieldset>
        </div>
        <div
          role="progressbar"
          aria-label="Prescreen progress"
          aria-valuemin={1}
          aria-valuemax={blocks.length}
          aria-valuenow={step + 1}
          className="h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full rounded-full bg-blue-700" style={{ width: `${((step + 1) / blocks.length) * 100}%` }} />
        </div>
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none" lang={language}>
          {say(block.title, language)}
        </h2>
      </CardHeader>
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
          {serverError && (
            <FormError lang="en">
              <p className="font-semibold">The prescreen was not recorded</p>
              <p>{serverError.message}</p>
              {serverError.details.length > 0 && (
                <ul className="list-disc pl-5">
                  {serverError.details.map((detail) => (
                    <li key={detail}>{detail}</li>
                  ))}
                </ul>
              )}
            </FormError>
          )}
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

/** A published form of the candidate's organization: the candidate's own trials first. */
function FormPicker({ organizationId, trialIds, onPick }: { organizationId: string; trialIds: string[]; onPick: (formId: string) => void }) {
  const query = usePrescreenFormsQuery();
  const [formId, setFormId] = useState('');
  const forms = useMemo(() => {
    const published = (query.data?.prescreenForms ?? []).filter((form) => form.status === 'published' && form.organizationId === organizationId);
    return [...published.filter((form) => trialIds.includes(form.trialId)), ...published.filter((form) => !trialIds.includes(form.trialId))];
  }, [query.data, organizationId, trialIds]);
  if (query.isPending) return <Spinner label="Loading published forms" />;
  if (query.isError) return <ErrorCard title="Could not load prescreen forms" error={query.error} onRetry={() => void query.refetch()} />;
  if (forms.length === 0) {
    return (
      <EmptyState title="No published prescreen form">
        <p>Publish a form for one of your trials first.</p>
        <Link to="/admin/prescreen-forms" className={cn(buttonClass('secondary'), 'mt-3')}>
          Go to prescreen forms
        </Link>
      </EmptyState>
    );
  }
  const chosen = formId || forms[0].id;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose a form</CardTitle>
        <CardDescription>Only published forms can be run. The candidate is linked to the form’s trial if they are not already.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            onPick(chosen);
          }}
        >
          <fieldset className="grid gap-2">
            <legend className="sr-only">Published forms</legend>
            {forms.map((form) => (
              <label
                key={form.id}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-md border p-3',
                  chosen === form.id ? 'border-blue-700 bg-blue-50' : 'border-slate-200',
                )}
              >
                <input type="radio" name="form" className="mt-1 h-4 w-4 accent-blue-700" checked={chosen === form.id} onChange={() => setFormId(form.id)} />
                <span className="grid gap-0.5">
                  <span className="font-medium text-slate-900">{form.name}</span>
                  <span className="text-sm text-slate-700">
                    {form.trialTitle} · version {form.version} · {form.questionCount} questions
                  </span>
                  {trialIds.includes(form.trialId) && (
                    <span>
                      <Badge tone="green">Candidate’s trial</Badge>
                    </span>
                  )}
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit">Start prescreen</Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** /candidates/$id/prescreen: staff ask a published form's questions and record the answers. */
export function RunPrescreenPage({ candidateId }: { candidateId: string }) {
  const candidateQuery = useCandidateQuery(candidateId);
  const [formId, setFormId] = useState<string | undefined>();
  const formQuery = usePrescreenFormQuery(formId);

  let body;
  if (candidateQuery.isPending) body = <Spinner label="Loading candidate" />;
  else if (candidateQuery.isError) {
    const notFound = candidateQuery.error instanceof ApiRequestError && candidateQuery.error.status === 404;
    body = (
      <ErrorCard
        title={notFound ? 'This candidate does not exist' : 'Could not load this candidate'}
        message={notFound ? 'They may have been deleted.' : errorMessage(candidateQuery.error)}
        onRetry={notFound ? undefined : () => void candidateQuery.refetch()}
      />
    );
  } else if (!formId) body = <FormPicker organizationId={candidateQuery.data.organizationId} trialIds={candidateQuery.data.trialIds} onPick={setFormId} />;
  else if (formQuery.isPending) body = <Spinner label="Loading the form" />;
  else if (formQuery.isError) body = <ErrorCard title="Could not load the form" error={formQuery.error} onRetry={() => void formQuery.refetch()} />;
  else
    body = (
      <GuidedForm
        key={formQuery.data.id}
        form={formQuery.data}
        candidateId={candidateId}
        initialLanguage={candidateQuery.data.preferredLanguage === 'es' ? 'es' : 'en'}
        known={candidateQuery.data}
      />
    );

  const candidate = candidateQuery.data;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Run prescreen"
        description={
          candidate ? `Ask ${candidateName(candidate)} the questions and record the answers. The AI recommendation follows from the form’s rules.` : undefined
        }
        actions={
          <>
            {formId && (
              <Button variant="secondary" onClick={() => setFormId(undefined)}>
                Choose another form
              </Button>
            )}
            <Link to="/candidates/$id" params={{ id: candidateId }} className={buttonClass('secondary')}>
              Back to candidate
            </Link>
          </>
        }
      />
      {body}
    </div>
  );
}
