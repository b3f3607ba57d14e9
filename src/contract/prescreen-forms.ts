import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema as OrganizationIds, TimestampSchema } from './common';

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
    /**
     * Where the question came from: the generator reading a criterion's rule, the generator falling back to
     * a criterion's own text (a reviewer should check those links), or a person. Omitted: unknown/manual.
     */
    source: z.enum(['rule', 'criterion_text', 'manual']).optional(),
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
export type FormStatus = z.infer<typeof FormStatusSchema>;

// ---- forms (API shapes) ----

export const StudyBlockListSchema = z.array(StudyBlockSchema).max(50);

/** One version of a form's blocks; results keep the version they were asked with. */
export const PrescreenFormVersionSummarySchema = z
  .object({ id: z.string(), version: z.number().int(), createdAt: TimestampSchema, resultCount: z.number().int() })
  .openapi('PrescreenFormVersionSummary');
export type PrescreenFormVersionSummary = z.infer<typeof PrescreenFormVersionSummarySchema>;

/** Which questions of the current version decide each criterion of the trial, in the trial's order. */
export const CriterionCoverageSchema = z
  .object({ criterionId: z.string(), kind: z.enum(['inclusion', 'exclusion']), text: z.string(), questionIds: z.array(z.string()) })
  .openapi('PrescreenCriterionCoverage');
export type CriterionCoverage = z.infer<typeof CriterionCoverageSchema>;

const formFields = {
  id: z.string(),
  organizationId: z.string(),
  trialId: z.string(),
  trialTitle: z.string(),
  name: z.string(),
  status: FormStatusSchema,
  /** The current version's number. */
  version: z.number().int(),
  versions: z.array(PrescreenFormVersionSummarySchema),
  /** Criteria of the trial that no question of the current version links to. */
  uncoveredCriterionIds: z.array(z.string()),
  publishedAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
};

export const PrescreenFormSchema = z
  .object({ ...formFields, blocks: z.array(StudyBlockSchema), criteriaCoverage: z.array(CriterionCoverageSchema) })
  .openapi('PrescreenForm');
export type PrescreenForm = z.infer<typeof PrescreenFormSchema>;

/** A form in a list: no blocks, the number of questions of the current version instead. */
export const PrescreenFormSummarySchema = z.object({ ...formFields, questionCount: z.number().int() }).openapi('PrescreenFormSummary');
export type PrescreenFormSummary = z.infer<typeof PrescreenFormSummarySchema>;

export const PrescreenFormListSchema = z
  .object({ prescreenForms: z.array(PrescreenFormSummarySchema), total: z.number().int() })
  .openapi('PrescreenFormList');
export type PrescreenFormList = z.infer<typeof PrescreenFormListSchema>;

export const ListPrescreenFormsQuerySchema = z.object({
  organizationIds: OrganizationIds,
  orgs: OrganizationIds,
  trialId: z.string().optional(),
});

const formName = z.string().trim().min(1, 'Enter a name').max(200);

/** A new form of a trial (in the trial's organization). `blocks` omitted: an empty draft. */
export const CreatePrescreenFormSchema = z
  .object({ trialId: z.string().min(1), name: formName, blocks: StudyBlockListSchema.optional(), status: FormStatusSchema.optional() })
  .openapi('CreatePrescreenForm');
export type CreatePrescreenFormInput = z.infer<typeof CreatePrescreenFormSchema>;

/**
 * Any subset. `blocks` replaces the current version's blocks, or, when results point at the current
 * version, becomes a new version. `status: 'published'` checks the form is complete.
 */
export const UpdatePrescreenFormSchema = z
  .object({ name: formName.optional(), blocks: StudyBlockListSchema.optional(), status: FormStatusSchema.optional() })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: 'Nothing to update' })
  .openapi('UpdatePrescreenForm');
export type UpdatePrescreenFormInput = z.infer<typeof UpdatePrescreenFormSchema>;

export const GenerateStudyBlocksRequestSchema = z.object({ trialId: z.string().min(1) }).openapi('GenerateStudyBlocksRequest');
export const GenerateStudyBlocksResponseSchema = z
  .object({ blocks: z.array(StudyBlockSchema), uncoveredCriterionIds: z.array(z.string()) })
  .openapi('GenerateStudyBlocksResponse');
export type GenerateStudyBlocksResponse = z.infer<typeof GenerateStudyBlocksResponseSchema>;

/** Either blocks being edited, or a saved form (its current version). */
export const DetectDuplicatesRequestSchema = z
  .object({ blocks: StudyBlockListSchema.optional(), formId: z.string().min(1).optional() })
  .refine((value) => (value.blocks === undefined) !== (value.formId === undefined), { message: 'Give either blocks or formId', path: ['blocks'] })
  .openapi('DetectDuplicatesRequest');
export type DetectDuplicatesRequest = z.infer<typeof DetectDuplicatesRequestSchema>;

export const DuplicatePairSchema = z
  .object({
    questionA: z.string(),
    questionB: z.string(),
    blockA: z.string(),
    blockB: z.string(),
    /** 0..1; pairs below 0.6 are not reported. */
    score: z.number().min(0).max(1),
    reason: z.string(),
  })
  .openapi('DuplicatePair');
export type DuplicatePair = z.infer<typeof DuplicatePairSchema>;

export const DetectDuplicatesResponseSchema = z.object({ pairs: z.array(DuplicatePairSchema) }).openapi('DetectDuplicatesResponse');
export type DetectDuplicatesResponse = z.infer<typeof DetectDuplicatesResponseSchema>;

export const DeduplicationChoiceSchema = z.object({ keep: z.string().min(1), remove: z.string().min(1) });
export type DeduplicationChoice = z.infer<typeof DeduplicationChoiceSchema>;

export const ApplyDeduplicationRequestSchema = z
  .object({ blocks: StudyBlockListSchema, pairs: z.array(DeduplicationChoiceSchema).max(500) })
  .openapi('ApplyDeduplicationRequest');
export type ApplyDeduplicationRequest = z.infer<typeof ApplyDeduplicationRequestSchema>;

/** The merged blocks; `notes` says which links could not be carried over as they were (kept as 'review'). */
export const ApplyDeduplicationResponseSchema = z
  .object({ blocks: z.array(StudyBlockSchema), notes: z.array(z.string()) })
  .openapi('ApplyDeduplicationResponse');
export type ApplyDeduplicationResponse = z.infer<typeof ApplyDeduplicationResponseSchema>;
