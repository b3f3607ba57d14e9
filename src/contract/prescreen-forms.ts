import { z } from '@hono/zod-openapi';

/**
 * The definition of a prescreen form: study blocks of questions, each question linked to trial criteria
 * with the rule that turns an answer into a criterion evaluation. Shared by the form builder, the engine
 * (server/features/prescreen/engine.ts), the voice and chat agents, and the web.
 */

export const LANGUAGES = ['en', 'es'] as const;
export const LanguageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof LanguageSchema>;

/** Text in each language; English is required, others fall back to it. */
export const LocalizedTextSchema = z
  .object({ en: z.string().trim().min(1, 'Enter the English wording'), es: z.string().trim().optional() })
  .openapi('LocalizedText');
export type LocalizedText = z.infer<typeof LocalizedTextSchema>;

export const QUESTION_TYPES = ['yes_no', 'number', 'single_choice', 'multiple_choice', 'date', 'text'] as const;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/** A test on one answer. `value`/`upper` are numbers for number questions, ISO dates for date questions. */
export const AnswerPredicateSchema = z
  .discriminatedUnion('op', [
    z.object({ op: z.literal('is_yes') }),
    z.object({ op: z.literal('is_no') }),
    z.object({ op: z.enum(['lt', 'lte', 'gt', 'gte', 'eq', 'neq']), value: z.union([z.number(), z.string()]) }),
    z.object({ op: z.literal('between'), value: z.union([z.number(), z.string()]), upper: z.union([z.number(), z.string()]) }),
    /** For choice questions: the answer (or any of a multiple-choice answer's values) is one of `values`. */
    z.object({ op: z.literal('in'), values: z.array(z.string()).min(1) }),
    /** Age in whole years from a date-of-birth answer, compared like a number. */
    z.object({ op: z.enum(['age_lt', 'age_gte']), value: z.number() }),
    /** Any answer at all (free text): the evaluation is decided by `then`, usually 'review'. */
    z.object({ op: z.literal('answered') }),
  ])
  .openapi('AnswerPredicate');
export type AnswerPredicate = z.infer<typeof AnswerPredicateSchema>;

/**
 * What an answer says about a criterion, in the criterion's own terms: 'met' means the criterion's text is
 * true of the person (for an exclusion, that it applies to them), 'not_met' that it is false, 'review' that
 * a person must judge (borderline values, free text).
 */
export const CriterionOutcomeSchema = z.enum(['met', 'not_met', 'review']);
export type CriterionOutcome = z.infer<typeof CriterionOutcomeSchema>;

export const CriterionLinkSchema = z
  .object({
    criterionId: z.string().min(1),
    when: AnswerPredicateSchema,
    then: CriterionOutcomeSchema,
    /** The outcome when the answer exists but `when` does not hold; omitted: the answer decides nothing. */
    otherwise: CriterionOutcomeSchema.optional(),
  })
  .openapi('CriterionLink');
export type CriterionLink = z.infer<typeof CriterionLinkSchema>;

export const ChoiceOptionSchema = z.object({ value: z.string().trim().min(1), label: LocalizedTextSchema });

export const QuestionSchema = z
  .object({
    id: z.string().min(1),
    type: QuestionTypeSchema,
    /** How the voice agent asks it, and how the chat agent writes it. */
    wording: z.object({ phone: LocalizedTextSchema, chat: LocalizedTextSchema }),
    unit: z.string().trim().max(40).optional(),
    options: z.array(ChoiceOptionSchema).optional(),
    required: z.boolean().default(true),
    criterionLinks: z.array(CriterionLinkSchema).default([]),
  })
  .superRefine((question, ctx) => {
    const choice = question.type === 'single_choice' || question.type === 'multiple_choice';
    if (choice && (!question.options || question.options.length < 2)) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'A choice question needs at least two options' });
    }
  })
  .openapi('PrescreenQuestion');
export type Question = z.infer<typeof QuestionSchema>;

export const StudyBlockSchema = z
  .object({ id: z.string().min(1), title: LocalizedTextSchema, questions: z.array(QuestionSchema) })
  .openapi('StudyBlock');
export type StudyBlock = z.infer<typeof StudyBlockSchema>;

export const FORM_STATUSES = ['draft', 'published', 'archived'] as const;
export const FormStatusSchema = z.enum(FORM_STATUSES);
