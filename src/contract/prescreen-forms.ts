import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema as OrganizationIds, TimestampSchema, IdFilterSchema } from './common';

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
    /**
     * The candidate field this question asks for (its answer updates the candidate; a manual prescreen
     * pre-fills it from the record). Omitted: inferred (candidateFieldOf), e.g. a date question deciding age.
     */
    candidateField: z.enum(['dateOfBirth', 'sex', 'preferredLanguage', 'email', 'phone']).optional(),
    /**
     * Who answers it: the patient (omitted, the default) or site staff ('site': a `site_review` item such as
     * an imaging finding, a lab value a patient would not know, the investigator's judgement). The chat and
     * voice agents never ask site items; staff record them on the result.
     */
    audience: z.enum(['patient', 'site']).optional(),
    /**
     * The generator knows no Spanish name for a term the question asks about, so it wrote no Spanish wording (a
     * Spanish question never names an English term, decision 223): staff add it before publishing; until then a
     * Spanish speaker reads the question in English.
     */
    needsSpanish: z.literal(true).optional(),
  })
  .superRefine((question, ctx) => {
    const choice = question.type === 'single_choice' || question.type === 'multiple_choice';
    if (choice && (!question.options || question.options.length < 2)) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'A choice question needs at least two options' });
    }
  })
  .openapi('PrescreenQuestion');
export type Question = z.infer<typeof QuestionSchema>;

/** The questions a patient is asked (chat, voice, public forms): every question but the site_review items. */
export const patientQuestions = (blocks: Array<{ questions: Question[] }>): Question[] =>
  blocks.flatMap((block) => block.questions).filter((question) => question.audience !== 'site');

export const StudyBlockSchema = z.object({ id: z.string().min(1), title: LocalizedTextSchema, questions: z.array(QuestionSchema) }).openapi('StudyBlock');
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
  /** The trial's short name (the brief title when shorter; contract/trial-name.ts). */
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

export const PrescreenFormListSchema = z.object({ prescreenForms: z.array(PrescreenFormSummarySchema), total: z.number().int() }).openapi('PrescreenFormList');
export type PrescreenFormList = z.infer<typeof PrescreenFormListSchema>;

export const ListPrescreenFormsQuerySchema = z.object({
  organizationIds: OrganizationIds,
  orgs: OrganizationIds,
  trialId: IdFilterSchema.optional(),
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

// ---- questions that ask for something the candidate record holds ----

export type CandidateProfileField = NonNullable<Question['candidateField']>;

const SEX_VALUES: Record<string, 'female' | 'male' | 'other'> = {
  female: 'female',
  f: 'female',
  woman: 'female',
  mujer: 'female',
  femenino: 'female',
  male: 'male',
  m: 'male',
  man: 'male',
  hombre: 'male',
  masculino: 'male',
  other: 'other',
  nonbinary: 'other',
  'non-binary': 'other',
  otro: 'other',
};
const sexOfOption = (value: string) => SEX_VALUES[value.trim().toLowerCase()] ?? null;

/** Which candidate field a question asks for: its `candidateField`, else read from its type, rules and wording. */
export function candidateFieldOf(question: Question): CandidateProfileField | null {
  if (question.candidateField) return question.candidateField;
  const wording = `${question.wording.chat.en} ${question.wording.phone.en}`.toLowerCase();
  if (question.type === 'date') {
    const decidesAge = question.criterionLinks.some((link) => link.when.op === 'age_lt' || link.when.op === 'age_gte');
    if (decidesAge || /\b(date of birth|birth ?date|born|birthday|dob)\b/.test(wording)) return 'dateOfBirth';
  }
  if (question.type === 'single_choice' && /\b(sex|gender)\b/.test(wording) && (question.options ?? []).some((option) => sexOfOption(option.value)))
    return 'sex';
  if (question.type === 'text' && /\be-?mail\b/.test(wording)) return 'email';
  return null;
}

/** The candidate value an answer gives for the field (null: nothing usable). */
export function profileValueOf(_question: Question, field: CandidateProfileField, answer: unknown): string | null {
  if (answer === null || answer === undefined || answer === '') return null;
  if (field === 'dateOfBirth') return typeof answer === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(answer) ? answer : null;
  if (field === 'sex') return typeof answer === 'string' ? sexOfOption(answer) : null;
  return typeof answer === 'string' ? answer.trim() : null;
}

export interface KnownCandidate {
  dateOfBirth: string | null;
  sex: string;
  preferredLanguage: string;
  email: string | null;
  phone: string | null;
  customFields: Record<string, unknown>;
}

const keyOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The answer the candidate's record already gives to a question, in the question's type, and where it
 * comes from; null when the record does not say. Used to pre-fill a manual prescreen.
 */
export function knownAnswerOf(question: Question, known: KnownCandidate): { value: unknown; from: string } | null {
  const field = candidateFieldOf(question);
  if (field === 'dateOfBirth' && known.dateOfBirth) return { value: known.dateOfBirth, from: 'date of birth' };
  if (field === 'sex' && known.sex !== 'unknown') {
    const option = (question.options ?? []).find((candidate) => sexOfOption(candidate.value) === known.sex);
    if (option) return { value: option.value, from: 'sex' };
  }
  if (field === 'email' && known.email) return { value: known.email, from: 'email' };
  if (field === 'phone' && known.phone) return { value: known.phone, from: 'phone' };
  // A custom field named like the question (its id or its wording), e.g. an import column "smoker".
  const keys = new Set([keyOf(question.id), keyOf(question.wording.chat.en)]);
  for (const [name, raw] of Object.entries(known.customFields ?? {})) {
    if (!keys.has(keyOf(name)) || raw === null || raw === '') continue;
    const text = String(raw).trim();
    const lower = text.toLowerCase();
    if (question.type === 'yes_no') {
      if (['yes', 'y', 'true', '1'].includes(lower)) return { value: true, from: name };
      if (['no', 'n', 'false', '0'].includes(lower)) return { value: false, from: name };
    } else if (question.type === 'number' && Number.isFinite(Number(text))) return { value: Number(text), from: name };
    else if (question.type === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return { value: text, from: name };
    else if (question.type === 'single_choice') {
      const option = (question.options ?? []).find((candidate) => candidate.value.toLowerCase() === lower || candidate.label.en.toLowerCase() === lower);
      if (option) return { value: option.value, from: name };
    } else if (question.type === 'text') return { value: text, from: name };
  }
  return null;
}
