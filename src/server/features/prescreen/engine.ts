import type { AnswerPredicate, CriterionOutcome, Question, QuestionType, StudyBlock } from '../../../contract/prescreen-forms';

/**
 * The prescreen engine: answers + a form version's study blocks + the trial's criteria -> per-criterion
 * evaluations and an AI recommendation (PASS, FAIL, INCONCLUSIVE, POTENTIAL) with reasons.
 * Pure and deterministic: no I/O, no clock (the caller passes `today`). The rules are in docs/prescreen-engine.md.
 */

export type CriterionKind = 'inclusion' | 'exclusion';
export type Recommendation = 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'POTENTIAL';
export type EvaluationStatus = 'met' | 'not_met' | 'unknown' | 'review';
/** A normalized answer value: boolean (yes_no), number, option value, option values, ISO date, text; null = no answer. */
export type AnswerValue = boolean | number | string | string[] | null;

export interface EngineCriterion {
  id: string;
  kind: CriterionKind;
  text: string;
}

export interface RawAnswer {
  questionId: string;
  value: unknown;
  evidence?: string | null;
}

export interface NormalizedAnswer {
  questionId: string;
  /** The question's (English, chat) wording, so a result reads on its own. */
  question: string;
  type: QuestionType;
  value: AnswerValue;
  evidence?: string;
}

export interface LinkOutcome {
  questionId: string;
  outcome: CriterionOutcome;
}

export interface CriterionEvaluation {
  criterionId: string;
  kind: CriterionKind;
  text: string;
  status: EvaluationStatus;
  /** Whether any question of the form is linked to the criterion. */
  covered: boolean;
  /** Answers disagree (one says met, another not met); the disqualifying side counts for the recommendation. */
  conflict: boolean;
  /** For this criterion, the answers rule the person out (exclusion met, inclusion not met, or a conflict). */
  disqualifying: boolean;
  decidingQuestionId: string | null;
  decidingAnswer: AnswerValue;
  reason: string;
  /** Every linked, answered question and what its answer said. */
  outcomes: LinkOutcome[];
}

export interface EngineInput {
  blocks: StudyBlock[];
  criteria: EngineCriterion[];
  answers: RawAnswer[];
  /** ISO date (YYYY-MM-DD) ages are computed at. */
  today: string;
}

export interface EngineOutput {
  answers: NormalizedAnswer[];
  evaluations: CriterionEvaluation[];
  recommendation: Recommendation;
  reasons: string[];
}

export interface AnswerIssue {
  questionId: string;
  /** Index of the answer in the input list. */
  index: number;
  message: string;
}

export class PrescreenInputError extends Error {
  constructor(readonly issues: AnswerIssue[]) {
    super(issues.map((issue) => issue.message).join('; '));
  }
}

// ---- answers ----

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function questionWording(question: Question): string {
  return question.wording?.chat?.en ?? question.wording?.phone?.en ?? question.id;
}

export function questionIndex(blocks: StudyBlock[]): Map<string, Question> {
  const index = new Map<string, Question>();
  for (const block of blocks) for (const question of block.questions) index.set(question.id, question);
  return index;
}

type Normalized = { ok: true; value: AnswerValue } | { ok: false; message: string };

/** One raw value in the question's type; null, undefined and blank text mean "no answer". */
function normalizeValue(question: Question, raw: unknown): Normalized {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: null };
  const options = (question.options ?? []).map((option) => option.value);
  switch (question.type) {
    case 'yes_no': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (typeof raw === 'string') {
        const text = raw.trim().toLowerCase();
        if (text === 'yes' || text === 'true') return { ok: true, value: true };
        if (text === 'no' || text === 'false') return { ok: true, value: false };
      }
      return { ok: false, message: 'expected yes or no (true/false)' };
    }
    case 'number': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: raw };
      if (typeof raw === 'string' && NUMERIC.test(raw.trim())) return { ok: true, value: Number(raw.trim()) };
      return { ok: false, message: 'expected a number' };
    }
    case 'single_choice': {
      if (typeof raw === 'string' && options.includes(raw)) return { ok: true, value: raw };
      return { ok: false, message: `expected one of: ${options.join(', ')}` };
    }
    case 'multiple_choice': {
      if (Array.isArray(raw) && raw.every((item) => typeof item === 'string' && options.includes(item)))
        return { ok: true, value: [...new Set(raw as string[])] };
      return { ok: false, message: `expected a list of: ${options.join(', ')}` };
    }
    case 'date': {
      if (isIsoDate(raw)) return { ok: true, value: raw };
      return { ok: false, message: 'expected a date as YYYY-MM-DD' };
    }
    case 'text': {
      if (typeof raw === 'string') return raw.length > 5000 ? { ok: false, message: 'text longer than 5000 characters' } : { ok: true, value: raw.trim() };
      return { ok: false, message: 'expected text' };
    }
  }
}

/**
 * Checks and normalizes answers against the form's questions. Unknown question ids, repeated questions and
 * values of the wrong type are issues (the API answers them with a 400 naming the question).
 */
export function normalizeAnswers(blocks: StudyBlock[], answers: RawAnswer[]): { answers: NormalizedAnswer[]; issues: AnswerIssue[] } {
  const questions = questionIndex(blocks);
  const seen = new Set<string>();
  const issues: AnswerIssue[] = [];
  const normalized: NormalizedAnswer[] = [];
  answers.forEach((answer, index) => {
    const question = questions.get(answer.questionId);
    if (!question) {
      issues.push({ questionId: answer.questionId, index, message: `Question ${answer.questionId}: not a question of this form version` });
      return;
    }
    if (seen.has(answer.questionId)) {
      issues.push({ questionId: answer.questionId, index, message: `Question ${answer.questionId}: answered more than once` });
      return;
    }
    seen.add(answer.questionId);
    const result = normalizeValue(question, answer.value);
    if (!result.ok) {
      issues.push({ questionId: answer.questionId, index, message: `Question ${answer.questionId} (${question.type}): ${result.message}` });
      return;
    }
    const evidence = typeof answer.evidence === 'string' && answer.evidence.trim() ? answer.evidence.trim() : undefined;
    normalized.push({
      questionId: question.id,
      question: questionWording(question),
      type: question.type,
      value: result.value,
      ...(evidence ? { evidence } : {}),
    });
  });
  return { answers: normalized, issues };
}

// ---- predicates ----

/** Whole years between an ISO birth date and an ISO `today`. */
export function ageInYears(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** true / false, or null when the rule cannot apply to this kind of answer (a form mistake: needs a person). */
export function testPredicate(predicate: AnswerPredicate, type: QuestionType, value: Exclude<AnswerValue, null>, today: string): boolean | null {
  switch (predicate.op) {
    case 'answered':
      return true;
    case 'is_yes':
    case 'is_no':
      return typeof value === 'boolean' ? value === (predicate.op === 'is_yes') : null;
    case 'in': {
      if (Array.isArray(value)) return value.some((item) => predicate.values.includes(item));
      if (typeof value === 'string') return predicate.values.includes(value);
      if (typeof value === 'boolean') return predicate.values.map((item) => item.toLowerCase()).includes(value ? 'yes' : 'no');
      return null;
    }
    case 'age_lt':
    case 'age_gte': {
      if (type !== 'date' || typeof value !== 'string') return null;
      const age = ageInYears(value, today);
      return predicate.op === 'age_lt' ? age < predicate.value : age >= predicate.value;
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'eq':
    case 'neq':
    case 'between': {
      const bounds = predicate.op === 'between' ? [predicate.value, predicate.upper] : [predicate.value];
      let left: number | string;
      let right: Array<number | string>;
      if (typeof value === 'number') {
        const numbers = bounds.map((bound) => (typeof bound === 'number' ? bound : NUMERIC.test(bound.trim()) ? Number(bound) : NaN));
        if (numbers.some(Number.isNaN)) return null;
        left = value;
        right = numbers;
      } else if (type === 'date' && typeof value === 'string') {
        if (!bounds.every(isIsoDate)) return null;
        left = value;
        right = bounds as string[];
      } else if ((predicate.op === 'eq' || predicate.op === 'neq') && typeof value === 'string') {
        left = value;
        right = bounds.map(String);
      } else return null;
      switch (predicate.op) {
        case 'lt':
          return left < right[0];
        case 'lte':
          return left <= right[0];
        case 'gt':
          return left > right[0];
        case 'gte':
          return left >= right[0];
        case 'eq':
          return left === right[0];
        case 'neq':
          return left !== right[0];
        case 'between':
          return left >= right[0] && left <= right[1];
      }
    }
  }
}

// ---- evaluation ----

export function formatValue(value: AnswerValue): string {
  if (value === null) return 'no answer';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  return String(value);
}

const outcomeWords = (outcome: CriterionOutcome) => (outcome === 'not_met' ? 'not met' : outcome);
const quote = (text: string, max = 120) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
const label = (criterion: EngineCriterion) => `${criterion.kind === 'inclusion' ? 'Inclusion' : 'Exclusion'} ${quote(criterion.text)}`;

interface Link {
  question: Question;
  when: AnswerPredicate;
  then: CriterionOutcome;
  otherwise?: CriterionOutcome;
}

function evaluateCriterion(criterion: EngineCriterion, links: Link[], answers: Map<string, NormalizedAnswer>, today: string): CriterionEvaluation {
  const base = { criterionId: criterion.id, kind: criterion.kind, text: criterion.text, covered: links.length > 0, conflict: false, disqualifying: false };
  const outcomes: Array<LinkOutcome & { answer: NormalizedAnswer; note?: string }> = [];
  for (const link of links) {
    const answer = answers.get(link.question.id);
    if (!answer || answer.value === null) continue;
    const holds = testPredicate(link.when, link.question.type, answer.value, today);
    if (holds === null)
      outcomes.push({
        questionId: answer.questionId,
        outcome: 'review',
        answer,
        note: `the rule (${link.when.op}) does not fit a ${link.question.type} answer`,
      });
    else if (holds) outcomes.push({ questionId: answer.questionId, outcome: link.then, answer });
    else if (link.otherwise) outcomes.push({ questionId: answer.questionId, outcome: link.otherwise, answer });
  }
  const plain = outcomes.map(({ questionId, outcome }) => ({ questionId, outcome }));
  if (outcomes.length === 0) {
    const reason =
      links.length === 0
        ? 'No question of the form covers this criterion'
        : `Not decided: no answer to ${[...new Set(links.map((link) => quote(questionWording(link.question), 80)))].join(', ')} settles it`;
    return { ...base, status: 'unknown', decidingQuestionId: null, decidingAnswer: null, reason, outcomes: plain };
  }
  const against: CriterionOutcome = criterion.kind === 'inclusion' ? 'not_met' : 'met';
  const forIt: CriterionOutcome = criterion.kind === 'inclusion' ? 'met' : 'not_met';
  const disqualifying = outcomes.find((outcome) => outcome.outcome === against);
  // Several links on ONE answer are one compound rule (an age range is two bounds on a date of birth): a
  // failing bound rules the person out. Only answers to different questions can conflict.
  const qualifying = disqualifying
    ? outcomes.find((outcome) => outcome.outcome === forIt && outcome.questionId !== disqualifying.questionId)
    : outcomes.find((outcome) => outcome.outcome === forIt);
  const review = outcomes.find((outcome) => outcome.outcome === 'review');
  // The question's words, never its id ("criterion-13"): these reasons are shown to coordinators.
  const asked = (questionId: string) => {
    const question = links.find((link) => link.question.id === questionId)?.question;
    return question ? quote(questionWording(question), 80) : 'a question';
  };
  const said = (outcome: (typeof outcomes)[number]) => `${asked(outcome.questionId)} answered ${quote(formatValue(outcome.answer.value), 60)}`;
  if (disqualifying && qualifying) {
    return {
      ...base,
      conflict: true,
      disqualifying: true,
      status: 'review',
      decidingQuestionId: disqualifying.questionId,
      decidingAnswer: disqualifying.answer.value,
      reason: `Conflicting answers: ${said(disqualifying)} says ${outcomeWords(against)}, ${said(qualifying)} says ${outcomeWords(forIt)}; counted as ${outcomeWords(against)} until reviewed`,
      outcomes: plain,
    };
  }
  if (disqualifying) {
    return {
      ...base,
      disqualifying: true,
      status: against,
      decidingQuestionId: disqualifying.questionId,
      decidingAnswer: disqualifying.answer.value,
      reason: `${criterion.kind === 'inclusion' ? 'Not met' : 'Applies'}: ${said(disqualifying)}`,
      outcomes: plain,
    };
  }
  if (review) {
    return {
      ...base,
      status: 'review',
      decidingQuestionId: review.questionId,
      decidingAnswer: review.answer.value,
      reason: `Needs review: ${said(review)}${review.note ? ` (${review.note})` : ''}`,
      outcomes: plain,
    };
  }
  const first = qualifying ?? outcomes.find((outcome) => outcome.outcome === forIt)!;
  return {
    ...base,
    status: forIt,
    decidingQuestionId: first.questionId,
    decidingAnswer: first.answer.value,
    reason: `${criterion.kind === 'inclusion' ? 'Met' : 'Does not apply'}: ${said(first)}`,
    outcomes: plain,
  };
}

/** The engine. Throws PrescreenInputError when an answer does not fit the form (validate first at the API). */
export function evaluatePrescreen(input: EngineInput): EngineOutput {
  const { answers, issues } = normalizeAnswers(input.blocks, input.answers);
  if (issues.length) throw new PrescreenInputError(issues);
  const byQuestion = new Map(answers.map((answer) => [answer.questionId, answer]));

  const linksByCriterion = new Map<string, Link[]>();
  const questions: Question[] = input.blocks.flatMap((block) => block.questions);
  for (const question of questions) {
    for (const link of question.criterionLinks ?? []) {
      linksByCriterion.set(link.criterionId, [
        ...(linksByCriterion.get(link.criterionId) ?? []),
        { question, when: link.when, then: link.then, otherwise: link.otherwise },
      ]);
    }
  }
  const evaluations = input.criteria.map((criterion) => evaluateCriterion(criterion, linksByCriterion.get(criterion.id) ?? [], byQuestion, input.today));
  const criteria = new Map(input.criteria.map((criterion) => [criterion.id, criterion]));
  const wording = new Map(questions.map((question) => [question.id, questionWording(question)]));
  const answerText = (evaluation: CriterionEvaluation) =>
    `${quote(wording.get(evaluation.decidingQuestionId ?? '') ?? '', 80)} answered ${quote(formatValue(evaluation.decidingAnswer), 60)}`;

  // 1. FAIL: anything disqualifies (an exclusion met, an inclusion not met, or a conflict resolved that way).
  const failing = evaluations.filter((evaluation) => evaluation.disqualifying);
  if (failing.length) {
    return {
      answers,
      evaluations,
      recommendation: 'FAIL',
      reasons: failing.map((evaluation) => {
        const criterion = criteria.get(evaluation.criterionId)!;
        const verdict = evaluation.conflict ? 'has conflicting answers, counted against' : criterion.kind === 'inclusion' ? 'is not met' : 'applies';
        return `${label(criterion)} ${verdict}: ${answerText(evaluation)}`;
      }),
    };
  }

  const covered = evaluations.filter((evaluation) => evaluation.covered);
  const unknown = covered.filter((evaluation) => evaluation.status === 'unknown');
  const uncovered = evaluations.filter((evaluation) => !evaluation.covered);
  const required = questions.filter((question) => question.required !== false);
  const requiredAnswered = required.filter((question) => (byQuestion.get(question.id)?.value ?? null) !== null);
  const uncoveredNote = uncovered.length
    ? [`${uncovered.length} ${uncovered.length === 1 ? 'criterion is' : 'criteria are'} not asked by the form; check at the screening visit`]
    : [];

  // 2. INCONCLUSIVE: too little to judge.
  const inconclusive: string[] = [];
  if (covered.length === 0) inconclusive.push('No question of the form is linked to a criterion');
  else if (unknown.length * 2 >= covered.length)
    inconclusive.push(`${unknown.length} of ${covered.length} criteria the form asks about have no deciding answer`);
  if (required.length > 0 && requiredAnswered.length === 0) inconclusive.push('None of the required questions was answered');
  if (inconclusive.length) return { answers, evaluations, recommendation: 'INCONCLUSIVE', reasons: [...inconclusive, ...uncoveredNote] };

  // 3. PASS: every covered criterion is satisfied and nothing needs review.
  const open = covered.filter((evaluation) => evaluation.status === 'review' || evaluation.status === 'unknown');
  if (open.length === 0) {
    return { answers, evaluations, recommendation: 'PASS', reasons: [`All ${covered.length} criteria the form asks about are satisfied`, ...uncoveredNote] };
  }

  // 4. POTENTIAL: nothing disqualifies, but a person must look.
  return {
    answers,
    evaluations,
    recommendation: 'POTENTIAL',
    reasons: [
      ...open.map((evaluation) => {
        const criterion = criteria.get(evaluation.criterionId)!;
        return evaluation.status === 'review' ? `${label(criterion)} needs review: ${answerText(evaluation)}` : `${label(criterion)} is not answered yet`;
      }),
      ...uncoveredNote,
    ],
  };
}
