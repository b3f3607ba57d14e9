import type {
  AnswerPredicate,
  CriterionCoverage,
  CriterionOutcome,
  FormStatus,
  Language,
  Question,
  QuestionType,
  StudyBlock,
} from '../../../contract/prescreen-forms';
import { ApiRequestError } from '../../lib/api';

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  yes_no: 'Yes / no',
  number: 'Number',
  single_choice: 'Single choice',
  multiple_choice: 'Multiple choice',
  date: 'Date',
  text: 'Free text',
};

export const FORM_STATUS_LABELS: Record<FormStatus, string> = { draft: 'Draft', published: 'Published', archived: 'Archived' };
export const FORM_STATUS_TONES: Record<FormStatus, 'slate' | 'blue' | 'green' | 'amber'> = { draft: 'blue', published: 'green', archived: 'slate' };

export const LANGUAGE_LABELS: Record<Language, string> = { en: 'English', es: 'Spanish' };

export const OUTCOME_LABELS: Record<CriterionOutcome, string> = { met: 'Met', not_met: 'Not met', review: 'Needs review' };

export type PredicateOp = AnswerPredicate['op'];

export const OP_LABELS: Record<PredicateOp, string> = {
  is_yes: 'answer is yes',
  is_no: 'answer is no',
  lt: 'less than',
  lte: 'at most',
  gt: 'more than',
  gte: 'at least',
  eq: 'equal to',
  neq: 'not equal to',
  between: 'between (inclusive)',
  in: 'is one of',
  age_lt: 'age (years) less than',
  age_gte: 'age (years) at least',
  answered: 'any answer',
};

/** The tests that fit each question type (the server refuses others on save). */
export const OPS_BY_TYPE: Record<QuestionType, PredicateOp[]> = {
  yes_no: ['is_yes', 'is_no', 'answered'],
  number: ['lt', 'lte', 'gt', 'gte', 'eq', 'neq', 'between', 'answered'],
  date: ['age_lt', 'age_gte', 'lt', 'lte', 'gt', 'gte', 'between', 'answered'],
  single_choice: ['in', 'answered'],
  multiple_choice: ['in', 'answered'],
  text: ['answered'],
};

/** A fresh predicate of an op, keeping what fits from the previous one. */
export function predicateFor(op: PredicateOp, previous: AnswerPredicate | undefined, question: Question): AnswerPredicate {
  const oldValue = previous && 'value' in previous ? previous.value : undefined;
  switch (op) {
    case 'is_yes':
    case 'is_no':
    case 'answered':
      return { op };
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'eq':
    case 'neq':
      return { op, value: oldValue ?? '' };
    case 'between':
      return { op, value: oldValue ?? '', upper: previous && 'upper' in previous ? previous.upper : '' };
    case 'age_lt':
    case 'age_gte':
      return { op, value: typeof oldValue === 'number' ? oldValue : 18 };
    case 'in':
      return { op, values: previous && 'values' in previous ? previous.values : [question.options?.[0]?.value ?? ''].filter(Boolean) };
  }
}

const formatValue = (value: number | string) => (value === '' ? '…' : String(value));

/** "age at least 18 → Met, otherwise Not met". */
export function predicateInWords(predicate: AnswerPredicate, question: Question): string {
  const unit = question.unit ? ` ${question.unit}` : '';
  switch (predicate.op) {
    case 'is_yes':
      return 'Answer is yes';
    case 'is_no':
      return 'Answer is no';
    case 'answered':
      return 'Any answer';
    case 'between':
      return `Answer between ${formatValue(predicate.value)} and ${formatValue(predicate.upper)}${unit}`;
    case 'in': {
      const labels = predicate.values.map((value) => question.options?.find((option) => option.value === value)?.label.en ?? value);
      return `Answer is ${labels.join(' or ') || '…'}`;
    }
    case 'age_lt':
      return `Age under ${predicate.value}`;
    case 'age_gte':
      return `Age ${predicate.value} or over`;
    default:
      return `Answer ${OP_LABELS[predicate.op]} ${formatValue(predicate.value)}${unit}`;
  }
}

let counter = 0;
export const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(++counter).toString(36)}`;

export function newQuestion(): Question {
  return {
    id: newId('question'),
    type: 'yes_no',
    wording: { phone: { en: '', es: '' }, chat: { en: '', es: '' } },
    required: true,
    criterionLinks: [],
    source: 'manual',
  };
}

export function newBlock(): StudyBlock {
  return { id: newId('block'), title: { en: '', es: '' }, questions: [newQuestion()] };
}

export function move<T>(items: T[], index: number, direction: -1 | 1): T[] {
  const target = index + direction;
  if (target < 0 || target >= items.length) return items;
  const next = [...items];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

const toNumber = (value: unknown) => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
};

function cleanText(text: { en: string; es?: string }) {
  const es = text.es?.trim();
  return es ? { en: text.en.trim(), es } : { en: text.en.trim() };
}

/** The blocks as the API wants them: trimmed wording, numbers as numbers, no empty Spanish. */
export function normalizeBlocks(blocks: StudyBlock[]): StudyBlock[] {
  return blocks.map((block) => ({
    id: block.id,
    title: cleanText(block.title),
    questions: block.questions.map((question) => {
      const choice = question.type === 'single_choice' || question.type === 'multiple_choice';
      const numeric = question.type === 'number';
      const out: Question = {
        id: question.id,
        type: question.type,
        wording: { phone: cleanText(question.wording.phone), chat: cleanText(question.wording.chat) },
        required: question.required,
        criterionLinks: question.criterionLinks.map((link) => {
          let when = link.when;
          if (numeric && 'value' in when) when = { ...when, value: toNumber(when.value) } as AnswerPredicate;
          if (numeric && when.op === 'between') when = { ...when, upper: toNumber(when.upper) as number };
          return { criterionId: link.criterionId, when, then: link.then, ...(link.otherwise ? { otherwise: link.otherwise } : {}) };
        }),
      };
      if (question.unit?.trim()) out.unit = question.unit.trim();
      if (choice) out.options = (question.options ?? []).map((option) => ({ value: option.value.trim(), label: cleanText(option.label) }));
      if (question.source) out.source = question.source;
      // Staff-only (site_review) items stay staff-only when the form is edited and saved.
      if (question.audience) out.audience = question.audience;
      return out;
    }),
  }));
}

/** Problems to fix before the server sees the blocks, by a readable place. */
export function localProblems(blocks: StudyBlock[]): string[] {
  const problems: string[] = [];
  if (blocks.length === 0) problems.push('Add at least one block.');
  blocks.forEach((block, b) => {
    const where = `Block ${b + 1}`;
    if (!block.title.en.trim()) problems.push(`${where}: enter the English title.`);
    block.questions.forEach((question, q) => {
      const at = `${where}, question ${q + 1}`;
      if (!question.wording.chat.en.trim()) problems.push(`${at}: enter the English chat wording.`);
      if (!question.wording.phone.en.trim()) problems.push(`${at}: enter the English phone wording.`);
      if (question.type === 'single_choice' || question.type === 'multiple_choice') {
        const options = question.options ?? [];
        if (options.length < 2) problems.push(`${at}: a choice question needs at least two options.`);
        if (options.some((option) => !option.value.trim() || !option.label.en.trim())) problems.push(`${at}: every option needs a value and an English label.`);
      }
      question.criterionLinks.forEach((link, l) => {
        if (!link.criterionId) problems.push(`${at}, link ${l + 1}: choose a criterion.`);
        const when = link.when;
        if ('value' in when && (when.value === '' || (question.type === 'number' && !Number.isFinite(Number(when.value)))))
          problems.push(`${at}, link ${l + 1}: enter the value to compare with.`);
        if (when.op === 'between' && (when.upper === '' || (question.type === 'number' && !Number.isFinite(Number(when.upper)))))
          problems.push(`${at}, link ${l + 1}: enter the upper value.`);
        if (when.op === 'in' && when.values.length === 0) problems.push(`${at}, link ${l + 1}: choose at least one option.`);
      });
    });
  });
  return problems;
}

/** Criteria of the trial that no question of these blocks links to (live, before saving). */
export function uncoveredCriteria(criteria: CriterionCoverage[], blocks: StudyBlock[]): CriterionCoverage[] {
  const linked = new Set(blocks.flatMap((block) => block.questions.flatMap((question) => question.criterionLinks.map((link) => link.criterionId))));
  return criteria.filter((criterion) => !linked.has(criterion.criterionId));
}

/** "Inclusion 2" / "Exclusion 1": the criterion's number within its kind, in the trial's order. */
export function criterionLabels(criteria: CriterionCoverage[]): Map<string, string> {
  const counts = { inclusion: 0, exclusion: 0 };
  const labels = new Map<string, string>();
  for (const criterion of criteria) {
    counts[criterion.kind] += 1;
    labels.set(criterion.criterionId, `${criterion.kind === 'inclusion' ? 'Inclusion' : 'Exclusion'} ${counts[criterion.kind]}`);
  }
  return labels;
}

/**
 * A patient question the generator could not put in Spanish (a term with no Spanish name, decision 223) whose
 * Spanish wording staff have not written yet: Spanish speakers would read it in English.
 */
export const spanishWordingMissing = (question: Question) =>
  question.audience !== 'site' && Boolean(question.needsSpanish) && !(question.wording.chat.es?.trim() && question.wording.phone.es?.trim());

/** The wording in a language, falling back to English. */
export const say = (text: { en: string; es?: string }, language: Language) => (language === 'es' && text.es?.trim() ? text.es : text.en);

/** The server's messages of a failed request: the headline and each detail (path: message). */
export function serverProblems(error: unknown): { message: string; details: string[] } {
  if (!(error instanceof ApiRequestError)) return { message: error instanceof Error ? error.message : 'Something went wrong', details: [] };
  const details = (error.body as { error?: { details?: Array<{ path?: string; message: string }> } } | undefined)?.error?.details ?? [];
  return {
    message: error.message,
    details: details
      .map((detail) => detail.message)
      .filter((message, index, all) => message && all.indexOf(message) === index && !error.message.endsWith(message)),
  };
}
