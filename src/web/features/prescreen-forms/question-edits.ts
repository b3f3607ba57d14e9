import type { Question, QuestionType } from '../../../contract/prescreen-forms';
import { OPS_BY_TYPE, predicateFor } from './format';

const isChoice = (type: QuestionType) => type === 'single_choice' || type === 'multiple_choice';

/**
 * The question with another answer type: a new choice question gets Yes and No as options, a unit stays only on a
 * number, and links whose test no longer fits become "any answer → needs review" for a person to adjust.
 */
export function withType(question: Question, type: QuestionType): Question {
  const becomesChoice = isChoice(type);
  const options =
    becomesChoice && (question.options ?? []).length < 2
      ? [
          { value: 'yes', label: { en: 'Yes', es: 'Sí' } },
          { value: 'no', label: { en: 'No', es: 'No' } },
        ]
      : question.options;
  const criterionLinks = question.criterionLinks.map((link) =>
    OPS_BY_TYPE[type].includes(link.when.op) ? link : { ...link, when: { op: 'answered' as const }, then: 'review' as const, otherwise: undefined },
  );
  return { ...question, type, options: becomesChoice ? options : undefined, unit: type === 'number' ? question.unit : undefined, criterionLinks };
}

/** The question with a new, unfilled criterion link: its type's first test, met when it holds (not met otherwise, for yes/no). */
export function withNewLink(question: Question): Question {
  const op = OPS_BY_TYPE[question.type][0];
  return {
    ...question,
    criterionLinks: [
      ...question.criterionLinks,
      {
        criterionId: '',
        when: predicateFor(op, undefined, question),
        then: 'met',
        otherwise: question.type === 'yes_no' ? 'not_met' : undefined,
      },
    ],
  };
}

/** The question with one wording (a channel's, in a language) replaced. */
export const withWording = (question: Question, channel: 'phone' | 'chat', language: 'en' | 'es', value: string): Question => ({
  ...question,
  wording: { ...question.wording, [channel]: { ...question.wording[channel], [language]: value } },
});

/** Whether the question's answers are picked from options. */
export const hasOptions = (question: Question) => isChoice(question.type);
