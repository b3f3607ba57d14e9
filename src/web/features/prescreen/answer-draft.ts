import { knownAnswerOf, type KnownCandidate, type PrescreenForm, type Question } from '../../../contract/prescreen-forms';
import type { PrescreenAnswerInput } from '../../../contract/prescreen';

/** An answer as the form holds it: text (numbers and dates too, 'yes'/'no') or the options ticked. */
export type AnswerDraft = string | string[];

/** Nothing answered yet (a ticked-nothing list counts as an answer). */
export const isEmpty = (value: AnswerDraft | undefined) => value === undefined || (Array.isArray(value) ? false : value.trim() === '');

/** A draft answer as the API takes it: blank is null, text trimmed. */
export function toInput(question: Question, value: AnswerDraft | undefined): PrescreenAnswerInput {
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
export function knownAnswers(blocks: PrescreenForm['blocks'], known: KnownCandidate | undefined) {
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
