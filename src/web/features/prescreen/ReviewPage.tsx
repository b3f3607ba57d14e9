import { Link, useRouter } from '@tanstack/react-router';
import { Check, ClipboardList, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  AI_RECOMMENDATION_VALUES,
  DecisionBodySchema,
  type AiRecommendation,
  type CriterionEvaluationDto,
  type PrescreenResult,
  type PrescreenReview,
} from '../../../contract/prescreen';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Field, Select } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage, formatDateTime } from '../../lib/utils';
import { maxLengthOf } from '../../lib/limits';
import { CandidateStatusBadge } from '../candidates/components';
import { candidateName } from '../candidates/format';
import { serverProblems } from '../prescreen-forms/format';
import { RecommendationBadge, ReviewStatusBadge } from './components';
import { answerInWords, EVALUATION_LABELS, evaluationTone, RECOMMENDATION_LABELS, SOURCE_TYPE_LABELS } from './format';
import { useDecide, usePrescreenReviewQuery } from './queries';
import { whenInWords } from '../../../contract/when-words';
import { BOOKING_STATUS_LABELS } from '../../../contract/words';
import { datesInTextInWords } from '../../lib/date-words';
import { humanizeCode } from '../../lib/words';

const BookingCard = lazy(() => import('./BookingCard').then((module) => ({ default: module.BookingCard })));

const textareaClass =
  'flex min-h-20 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

const TONE_CLASSES = {
  good: 'border-green-300 bg-green-50',
  bad: 'border-red-300 bg-red-50',
  open: 'border-amber-300 bg-amber-50',
  unknown: 'border-slate-200 bg-white',
} as const;
const STATUS_BADGE_CLASSES = {
  good: 'bg-green-100 text-green-900',
  bad: 'bg-red-100 text-red-900',
  open: 'bg-amber-100 text-amber-950',
  unknown: 'bg-slate-100 text-slate-800',
} as const;

function EvaluationItem({
  evaluation,
  questionText,
  onShowAnswer,
}: {
  evaluation: CriterionEvaluationDto;
  questionText: (id: string) => string;
  onShowAnswer: (questionId: string) => void;
}) {
  const tone = evaluationTone(evaluation.kind, evaluation.status, evaluation.disqualifying);
  return (
    <li className={cn('grid gap-2 rounded-md border px-3 py-2', TONE_CLASSES[tone])} data-testid="evaluation">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="whitespace-pre-line text-sm font-medium text-slate-900">{evaluation.text}</p>
        <span
          className={cn('inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_BADGE_CLASSES[tone])}
          data-testid="evaluation-status"
        >
          {EVALUATION_LABELS[evaluation.status] ?? evaluation.status}
        </span>
      </div>
      <p className="text-sm text-slate-800">{datesInTextInWords(evaluation.reason)}</p>
      {evaluation.decidingQuestionId && (
        <p className="text-sm text-slate-900">
          <span className="font-medium">Decided by: </span>
          <button
            type="button"
            className="text-left text-blue-800 underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-blue-700"
            onClick={() => onShowAnswer(evaluation.decidingQuestionId!)}
          >
            {questionText(evaluation.decidingQuestionId)}
          </button>{' '}
          <mark className="rounded bg-yellow-200 px-1 font-semibold text-slate-900">{answerInWords({ value: evaluation.decidingAnswer })}</mark>
        </p>
      )}
      <div className="flex flex-wrap gap-2 text-xs">
        {evaluation.conflict && <Badge tone="amber">Conflicting answers</Badge>}
        {evaluation.disqualifying && <Badge tone="amber">Disqualifying</Badge>}
        {!evaluation.covered && <Badge>Not asked by the form</Badge>}
        {evaluation.outcomes.length > 1 && <span className="text-slate-700">{evaluation.outcomes.length} answers spoke to this criterion</span>}
      </div>
    </li>
  );
}

function ResultDetail({ result, focusedAnswer, onShowAnswer }: { result: PrescreenResult; focusedAnswer: string | null; onShowAnswer: (id: string) => void }) {
  const deciding = new Set(result.evaluations.map((evaluation) => evaluation.decidingQuestionId).filter(Boolean) as string[]);
  const questionText = (id: string) => result.answers.find((answer) => answer.questionId === id)?.question ?? id;
  // The answers list is long (every question of the form): collapsed, it shows the deciding answers only.
  const [showAll, setShowAll] = useState(false);
  const answersOpen = showAll || focusedAnswer !== null;
  const shownAnswers = answersOpen ? result.answers : result.answers.filter((answer) => deciding.has(answer.questionId));
  useEffect(() => {
    if (focusedAnswer) document.getElementById(`answer-${focusedAnswer}`)?.focus();
  }, [focusedAnswer]);
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <section aria-labelledby="criteria-heading" className="grid content-start gap-4">
        <h2 id="criteria-heading" className="text-lg font-semibold text-slate-900">
          Criteria
        </h2>
        {(['inclusion', 'exclusion'] as const).map((kind) => {
          const items = result.evaluations.filter((evaluation) => evaluation.kind === kind);
          return (
            <section key={kind} aria-labelledby={`eval-${kind}`} className="grid gap-2">
              <h3 id={`eval-${kind}`} className="font-semibold text-slate-900">
                {kind === 'inclusion' ? 'Inclusion criteria' : 'Exclusion criteria'} <span className="font-normal text-slate-700">({items.length})</span>
              </h3>
              {items.length === 0 ? (
                <p className="text-sm text-slate-700">None.</p>
              ) : (
                <ol className="grid gap-2">
                  {items.map((evaluation) => (
                    <EvaluationItem key={evaluation.criterionId} evaluation={evaluation} questionText={questionText} onShowAnswer={onShowAnswer} />
                  ))}
                </ol>
              )}
            </section>
          );
        })}
      </section>
      <section aria-labelledby="answers-heading" className="grid content-start gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="answers-heading" className="text-lg font-semibold text-slate-900">
            Answers {answersOpen ? `(${result.answers.length})` : `(${shownAnswers.length} deciding of ${result.answers.length})`}
          </h2>
          {result.answers.length > shownAnswers.length || answersOpen ? (
            <Button variant="ghost" size="sm" aria-expanded={answersOpen} aria-controls="answers-list" onClick={() => setShowAll(!answersOpen)}>
              {answersOpen ? 'Show deciding answers only' : `Show all ${result.answers.length} answers`}
            </Button>
          ) : null}
        </div>
        <ol id="answers-list" className="grid gap-2">
          {shownAnswers.map((answer) => {
            const isDeciding = deciding.has(answer.questionId);
            return (
              <li
                key={answer.questionId}
                id={`answer-${answer.questionId}`}
                tabIndex={-1}
                data-deciding={isDeciding || undefined}
                className={cn(
                  'grid gap-1 rounded-md border bg-white px-3 py-2 focus:outline-2 focus:outline-blue-700',
                  isDeciding ? 'border-yellow-400' : 'border-slate-200',
                  focusedAnswer === answer.questionId && 'ring-2 ring-blue-700',
                )}
              >
                <p className="text-sm text-slate-800">{answer.question}</p>
                <p className="text-sm font-semibold text-slate-900">
                  {isDeciding ? <mark className="rounded bg-yellow-200 px-1">{answerInWords(answer)}</mark> : answerInWords(answer)}
                  {isDeciding && <span className="ml-2 text-xs font-normal text-slate-700">Deciding answer</span>}
                </p>
                {answer.evidence && (
                  <blockquote className="border-l-4 border-slate-300 pl-3 text-sm italic text-slate-800">
                    <span className="sr-only">Evidence: </span>“{answer.evidence}”
                  </blockquote>
                )}
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

function DecisionCard({ result }: { result: PrescreenResult }) {
  const decide = useDecide();
  const [reason, setReason] = useState('');
  const [override, setOverride] = useState<AiRecommendation | ''>('');
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const submit = (decision: 'approve' | 'reject') => {
    setServerError(null);
    if (decision === 'reject' && !reason.trim()) return setError('Give a reason to reject');
    if (override && !reason.trim()) return setError('Give a reason to override the AI recommendation');
    setError(null);
    decide.mutate(
      { resultId: result.id, decision, reason: reason.trim() || undefined, overrideRecommendation: override || undefined },
      {
        onSuccess: () => {
          toast.success(decision === 'approve' ? 'Prescreen approved' : 'Prescreen rejected');
          setReason('');
          setOverride('');
        },
        onError: (failure) => setServerError(serverProblems(failure).message),
      },
    );
  };
  const current = result.decision;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Decision</CardTitle>
        <CardDescription>
          {current ? (
            <>
              {current.decision === 'approve' ? 'Approved' : 'Rejected'} by {current.decidedByName ?? 'someone'} on {formatDateTime(current.decidedAt)}
              {current.overrideRecommendation ? `, overriding the AI recommendation with ${current.overrideRecommendation}` : ''}. A new decision replaces it;
              the history keeps both.
            </>
          ) : (
            'Approve to book a screening visit, or reject with a reason.'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" noValidate onSubmit={(event) => event.preventDefault()}>
          <Field label="Reason" error={error ?? undefined} hint="Required to reject or to override the AI recommendation.">
            <textarea
              className={textareaClass}
              maxLength={maxLengthOf(DecisionBodySchema.shape.reason)}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          </Field>
          <Field label="Override the AI recommendation (optional)">
            <Select value={override} onChange={(event) => setOverride(event.target.value as AiRecommendation | '')}>
              <option value="">Keep {RECOMMENDATION_LABELS[result.aiRecommendation]}</option>
              {AI_RECOMMENDATION_VALUES.filter((value) => value !== result.aiRecommendation).map((value) => (
                <option key={value} value={value}>
                  {RECOMMENDATION_LABELS[value]}
                </option>
              ))}
            </Select>
          </Field>
          <FormError>{serverError}</FormError>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => submit('approve')} disabled={decide.isPending}>
              <Check aria-hidden="true" className="h-4 w-4" />
              Approve
            </Button>
            <Button variant="danger" onClick={() => submit('reject')} disabled={decide.isPending}>
              <X aria-hidden="true" className="h-4 w-4" />
              Reject
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function HistoryCard({ review }: { review: PrescreenReview }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Bookings and decisions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <section aria-labelledby="bookings-heading" className="grid gap-2">
          <h3 id="bookings-heading" className="font-semibold text-slate-900">
            Bookings
          </h3>
          {review.bookings.length === 0 ? (
            <p className="text-sm text-slate-700">No visits booked.</p>
          ) : (
            <ul className="grid gap-2" data-testid="bookings">
              {review.bookings.map((booking) => (
                <li key={booking.id} className="rounded-md border border-slate-200 px-3 py-2 text-sm">
                  <p className="font-medium text-slate-900">
                    {[booking.siteName, booking.siteCity].filter(Boolean).join(', ')}: {whenInWords(booking.startsAt, booking.siteTimeZone)}
                  </p>
                  <p className="text-slate-700">
                    {booking.durationMinutes} minutes · {BOOKING_STATUS_LABELS[booking.status]} · confirmation text{' '}
                    {humanizeCode(booking.confirmationSms).toLowerCase()}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="decisions-heading" className="grid gap-2">
          <h3 id="decisions-heading" className="font-semibold text-slate-900">
            Decisions
          </h3>
          {review.decisions.length === 0 ? (
            <p className="text-sm text-slate-700">No decisions yet.</p>
          ) : (
            <ul className="grid gap-2" data-testid="decisions">
              {review.decisions.map((decision) => (
                <li
                  key={`${decision.resultId}-${decision.decidedAt}`}
                  className={cn('rounded-md border px-3 py-2 text-sm', decision.current ? 'border-slate-300' : 'border-slate-200 text-slate-700')}
                >
                  <p className="font-medium text-slate-900">
                    {decision.decision === 'approve' ? 'Approved' : 'Rejected'}
                    {decision.overrideRecommendation ? ` (override: ${decision.overrideRecommendation})` : ''} {!decision.current && <Badge>Replaced</Badge>}
                  </p>
                  <p className="text-slate-700">
                    {decision.decidedByName ?? 'Unknown'} · {formatDateTime(decision.decidedAt)}
                  </p>
                  {(decision.reason || decision.overrideReason) && <p className="mt-1 text-slate-900">{decision.reason ?? decision.overrideReason}</p>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/** /prescreen/results?candidateId=: everything a reviewer needs about one candidate. */
export function ReviewPage({ candidateId }: { candidateId: string }) {
  const query = usePrescreenReviewQuery(candidateId);
  const [resultId, setResultId] = useState<string | null>(null);
  const [focusedAnswer, setFocusedAnswer] = useState<string | null>(null);
  const router = useRouter();
  const name = query.data ? candidateName(query.data.candidate) : undefined;
  const shownName = useRef(name);
  useEffect(() => {
    if (name && shownName.current !== name) void router.invalidate();
    shownName.current = name;
  }, [name, router]);

  const back = (
    <Link to="/prescreen/results" search={{}} className={buttonClass('secondary')}>
      All results
    </Link>
  );

  if (query.isPending) return <Spinner label="Loading the review" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <div className="grid gap-4">
        <h1 className="text-2xl font-semibold text-slate-900">Prescreen review</h1>
        <ErrorCard
          title={notFound ? 'This candidate does not exist' : 'Could not load the review'}
          message={notFound ? 'They may have been deleted, or belong to another organization.' : errorMessage(query.error)}
          onRetry={notFound ? undefined : () => void query.refetch()}
        />
        <div>{back}</div>
      </div>
    );
  }
  const review = query.data;
  const result = review.results.find((item) => item.id === resultId) ?? review.results[0];

  const showAnswer = (questionId: string) => {
    setFocusedAnswer(questionId);
    document.getElementById(`answer-${questionId}`)?.focus();
  };

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Prescreen review: {name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <CandidateStatusBadge status={review.candidate.status} />
            {review.candidate.doNotContact && <span className="font-medium text-red-800">Do not contact</span>}
            <span>{review.results.length === 1 ? '1 prescreen' : `${review.results.length} prescreens`}</span>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/candidates/$id" params={{ id: candidateId }} className={buttonClass('secondary')}>
            Candidate profile
          </Link>
          <Link to="/candidates/$id/prescreen" params={{ id: candidateId }} className={buttonClass('secondary')}>
            <ClipboardList aria-hidden="true" className="h-4 w-4" />
            Run prescreen
          </Link>
          {back}
        </div>
      </div>

      {!result ? (
        <EmptyState title="No prescreen results for this candidate">
          <p>Run a prescreen from here or from the candidate’s page.</p>
        </EmptyState>
      ) : (
        <>
          {review.results.length > 1 && (
            <Field label="Prescreen result" className="max-w-xl">
              <Select value={result.id} onChange={(event) => setResultId(event.target.value)}>
                {review.results.map((item, index) => (
                  <option key={item.id} value={item.id}>
                    {formatDateTime(item.createdAt)} · {item.trial.shortTitle} · {RECOMMENDATION_LABELS[item.aiRecommendation]}
                    {index === 0 ? ' (newest)' : ''}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <div className="grid gap-6 lg:grid-cols-3">
            <Card className="lg:order-1 lg:col-span-2">
              <CardHeader>
                <CardTitle>AI recommendation</CardTitle>
                <CardDescription>
                  {result.trial.shortTitle} · {SOURCE_TYPE_LABELS[result.sourceType]} prescreen · form version {result.formVersion} ·{' '}
                  {formatDateTime(result.createdAt)}
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-3">
                <div className="flex flex-wrap items-center gap-3">
                  <RecommendationBadge recommendation={result.aiRecommendation} className="px-3 py-1 text-base" />
                  <ReviewStatusBadge status={result.reviewStatus} />
                  {result.decision?.overrideRecommendation && (
                    <span className="text-sm text-slate-800">
                      Reviewer holds <span className="font-semibold">{RECOMMENDATION_LABELS[result.decision.overrideRecommendation]}</span>
                    </span>
                  )}
                </div>
                <h3 className="text-sm font-semibold text-slate-900">Why</h3>
                <ul className="list-disc pl-5 text-sm text-slate-900" data-testid="ai-reasons">
                  {result.aiReasons.map((reason) => (
                    <li key={reason}>{datesInTextInWords(reason)}</li>
                  ))}
                </ul>
              </CardContent>
            </Card>
            {/* The decision is what the reviewer came for: first on a phone, beside the recommendation on a wide screen. */}
            <div className="order-first grid content-start gap-6 lg:order-2">
              <DecisionCard key={`${result.id}-decision`} result={result} />
            </div>
          </div>
          <ResultDetail result={result} focusedAnswer={focusedAnswer} onShowAnswer={showAnswer} />
          <div className="grid gap-6 lg:grid-cols-2">
            {result.reviewStatus === 'approved' ? (
              <Suspense fallback={<Spinner label="Loading the booking form" />}>
                <BookingCard key={`${result.id}-booking`} result={result} review={review} />
              </Suspense>
            ) : (
              <Card>
                <CardHeader>
                  <CardTitle>Book a visit</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-slate-700">Approve the prescreen before booking a screening visit.</p>
                </CardContent>
              </Card>
            )}
            <HistoryCard review={review} />
          </div>
        </>
      )}
    </div>
  );
}
