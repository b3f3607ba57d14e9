import { z } from '@hono/zod-openapi';
import { CandidateStatusSchema } from './candidates';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';
import { StudyBlockSchema } from './prescreen-forms';
import { TrialSiteSchema } from './trials';

/**
 * Prescreen results, the AI recommendation, human review, decisions and bookings
 * (server/features/prescreen; the engine's rules: docs/prescreen-engine.md).
 */

export const AI_RECOMMENDATION_VALUES = ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'] as const;
export const AiRecommendationSchema = z.enum(AI_RECOMMENDATION_VALUES);
export type AiRecommendation = z.infer<typeof AiRecommendationSchema>;

/** Where a result came from: a voice call, a chat, or staff asking the questions by hand. */
export const PRESCREEN_SOURCE_TYPES = ['call', 'chat', 'manual'] as const;
export const PrescreenSourceTypeSchema = z.enum(PRESCREEN_SOURCE_TYPES);
export type PrescreenSourceType = z.infer<typeof PrescreenSourceTypeSchema>;

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const ReviewStatusSchema = z.enum(REVIEW_STATUSES);

export const EVALUATION_STATUSES = ['met', 'not_met', 'unknown', 'review'] as const;

/** An answer value: boolean (yes/no), number, option value, option values, ISO date, text, or null (no answer). */
const AnswerValueSchema = z.union([z.boolean(), z.number(), z.string(), z.array(z.string()), z.null()]).openapi('PrescreenAnswerValue');

/** An answer as given: the value in the question's type (yes_no also takes 'yes'/'no', number a numeric string). */
export const PrescreenAnswerInputSchema = z
  .object({
    questionId: z.string().min(1),
    value: z.unknown().openapi({
      description:
        'yes_no: boolean or "yes"/"no"; number: number or numeric text; single_choice: an option value; multiple_choice: option values; date: YYYY-MM-DD; text: text; null: not answered',
    }),
    /** Where the answer came from: an excerpt of the transcript or message. */
    evidence: z.string().max(2000).optional(),
  })
  .openapi('PrescreenAnswerInput');
export type PrescreenAnswerInput = z.infer<typeof PrescreenAnswerInputSchema>;

export const PrescreenAnswerSchema = z
  .object({
    questionId: z.string(),
    /** The question's wording in the form version it was asked with. */
    question: z.string(),
    type: z.enum(['yes_no', 'number', 'single_choice', 'multiple_choice', 'date', 'text']),
    value: AnswerValueSchema,
    evidence: z.string().optional(),
  })
  .openapi('PrescreenAnswer');
export type PrescreenAnswer = z.infer<typeof PrescreenAnswerSchema>;

export const CriterionEvaluationSchema = z
  .object({
    criterionId: z.string(),
    kind: z.enum(['inclusion', 'exclusion']),
    text: z.string(),
    /** In the criterion's terms: met = its text is true of the person (for an exclusion: it applies). */
    status: z.enum(EVALUATION_STATUSES),
    covered: z.boolean(),
    conflict: z.boolean(),
    disqualifying: z.boolean(),
    decidingQuestionId: z.string().nullable(),
    decidingAnswer: AnswerValueSchema,
    reason: z.string(),
    outcomes: z.array(z.object({ questionId: z.string(), outcome: z.enum(['met', 'not_met', 'review']) })),
  })
  .openapi('CriterionEvaluation');
export type CriterionEvaluationDto = z.infer<typeof CriterionEvaluationSchema>;

export const DECISIONS = ['approve', 'reject'] as const;

export const PrescreenDecisionSchema = z
  .object({
    decision: z.enum(DECISIONS),
    reason: z.string().nullable(),
    /** The recommendation the reviewer holds instead of the AI's, with the reason for it. */
    overrideRecommendation: AiRecommendationSchema.nullable(),
    overrideReason: z.string().nullable(),
    decidedByUserId: z.string().nullable(),
    decidedByName: z.string().nullable(),
    decidedAt: TimestampSchema,
  })
  .openapi('PrescreenDecision');
export type PrescreenDecision = z.infer<typeof PrescreenDecisionSchema>;

export const BOOKING_STATUSES = ['scheduled', 'cancelled', 'completed', 'no_show'] as const;
/** The confirmation SMS: 'not_configured' until the SMS feature exists, then queued/sent/failed. */
export const CONFIRMATION_SMS_STATES = ['not_configured', 'queued', 'sent', 'failed', 'blocked'] as const;

export const BookingSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    candidateId: z.string(),
    trialId: z.string(),
    prescreenResultId: z.string().nullable(),
    /** The booked site of the trial (null for a visit booked before sites had ids and whose site is gone). */
    siteId: z.string().nullable(),
    /** The site's facility name and city when booked. */
    siteName: z.string(),
    siteCity: z.string().nullable(),
    siteTimeZone: z.string(),
    /** The start in UTC. */
    startsAt: TimestampSchema,
    /** The start in the site's time zone, YYYY-MM-DDTHH:mm. */
    localTime: z.string(),
    durationMinutes: z.number().int(),
    status: z.enum(BOOKING_STATUSES),
    confirmationSms: z.enum(CONFIRMATION_SMS_STATES),
    createdByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('Booking');
export type Booking = z.infer<typeof BookingSchema>;

export const PrescreenResultSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    candidate: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
    /** title: the official title (the trial's page); shortTitle: its short name for lists and lines (contract/trial-name.ts). */
    trial: z.object({ id: z.string(), title: z.string(), shortTitle: z.string() }),
    formId: z.string(),
    formVersion: z.number().int(),
    formVersionId: z.string(),
    sourceType: PrescreenSourceTypeSchema,
    sourceId: z.string().nullable(),
    answers: z.array(PrescreenAnswerSchema),
    evaluations: z.array(CriterionEvaluationSchema),
    aiRecommendation: AiRecommendationSchema,
    aiReasons: z.array(z.string()),
    reviewStatus: ReviewStatusSchema,
    decision: z.union([PrescreenDecisionSchema, z.null()]),
    /** The scheduled visit booked from this result, if any. */
    booking: z.union([BookingSchema, z.null()]),
    createdByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('PrescreenResult');
export type PrescreenResult = z.infer<typeof PrescreenResultSchema>;

export const PRESCREEN_PAGE_DEFAULT = 50;
export const PRESCREEN_PAGE_MAX = 200;

export const ListPrescreenResultsQuerySchema = z.object({
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  /** Candidate name, phone or email. */
  search: z.string().trim().max(200).optional(),
  candidateId: IdFilterSchema.optional(),
  sourceType: PrescreenSourceTypeSchema.optional(),
  aiRecommendation: AiRecommendationSchema.optional(),
  reviewStatus: ReviewStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(PRESCREEN_PAGE_MAX).default(PRESCREEN_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListPrescreenResultsQuery = z.infer<typeof ListPrescreenResultsQuerySchema>;

export const PrescreenResultListSchema = z.object({ results: z.array(PrescreenResultSchema), total: z.number().int() }).openapi('PrescreenResultList');
export type PrescreenResultList = z.infer<typeof PrescreenResultListSchema>;

/** A prescreen run by staff from a candidate's page: the current version of a published form. */
export const RunManualPrescreenSchema = z
  .object({
    candidateId: z.string().min(1),
    formId: z.string().min(1),
    answers: z.array(PrescreenAnswerInputSchema).max(500),
  })
  .openapi('RunManualPrescreen');
export type RunManualPrescreenInput = z.infer<typeof RunManualPrescreenSchema>;

export const ReviewQuerySchema = z.object({ candidateId: IdFilterSchema });

/** A site to book at: the trial's site, our sites first. */
export const ReviewSiteSchema = TrialSiteSchema;

export const PrescreenReviewSchema = z
  .object({
    candidate: z.object({
      id: z.string(),
      organizationId: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
      dateOfBirth: z.string().nullable(),
      preferredLanguage: z.string(),
      timeZone: z.string().nullable(),
      status: CandidateStatusSchema,
      doNotContact: z.boolean(),
      trialIds: z.array(z.string()),
    }),
    /** Newest first; each with its answers, evaluations, recommendation, reasons, decision and booking. */
    results: z.array(PrescreenResultSchema),
    /** The form version of the newest result (its study blocks give the wording and the rules). */
    latestForm: z.object({ formId: z.string(), name: z.string(), version: z.number().int(), blocks: z.array(StudyBlockSchema) }).nullable(),
    /** Every decision on the candidate's results, newest first; `current` is false for one a later decision replaced. */
    decisions: z.array(PrescreenDecisionSchema.extend({ resultId: z.string(), current: z.boolean() })),
    bookings: z.array(BookingSchema),
    /** The trials of the results and the candidate's links, with their sites for booking. */
    trials: z.array(z.object({ id: z.string(), title: z.string(), sites: z.array(ReviewSiteSchema) })),
  })
  .openapi('PrescreenReview');
export type PrescreenReview = z.infer<typeof PrescreenReviewSchema>;

const optionalReason = z.string().trim().max(2000).optional();

export const DecisionBodySchema = z
  .object({
    resultId: z.string().min(1),
    decision: z.enum(DECISIONS),
    /** Required to reject and to override the AI recommendation. */
    reason: optionalReason,
    overrideRecommendation: AiRecommendationSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.decision === 'reject' && !body.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give a reason to reject' });
    if (body.overrideRecommendation && !body.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give a reason to override the AI recommendation' });
  })
  .openapi('PrescreenDecisionInput');
export type DecisionBody = z.infer<typeof DecisionBodySchema>;

export const LOCAL_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export const CreateBookingSchema = z
  .object({
    /** The approved result the visit follows from; or give candidateId and trialId (their newest result must be approved). */
    resultId: z.string().min(1).optional(),
    candidateId: z.string().min(1).optional(),
    trialId: z.string().min(1).optional(),
    /** The site to book at (a TrialSite id). */
    siteId: z.string().trim().min(1).max(64).optional(),
    /** Only for a trial whose site names are unique: the site by name (siteId wins when both are given). */
    siteName: z.string().trim().min(1).max(200).optional(),
    /** Wall-clock time at the site, YYYY-MM-DDTHH:mm. */
    localTime: z.string().regex(LOCAL_TIME_PATTERN, 'Use YYYY-MM-DDTHH:mm'),
    /** IANA time zone, used only when the site has none. */
    timeZone: z.string().max(64).optional(),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(8 * 60)
      .optional(),
    notes: z.string().trim().max(2000).optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.resultId && !(body.candidateId && body.trialId)) {
      ctx.addIssue({ code: 'custom', path: ['resultId'], message: 'Give resultId, or candidateId and trialId' });
    }
    if (!body.siteId && !body.siteName) ctx.addIssue({ code: 'custom', path: ['siteId'], message: 'Choose a site' });
  })
  .openapi('CreateBooking');
export type CreateBookingInput = z.infer<typeof CreateBookingSchema>;

/** What happened at a booked visit (or that it was called off). A no-show can start a follow-up sequence. */
export const BOOKING_OUTCOMES = ['completed', 'no_show', 'cancelled'] as const;
export const BookingOutcomeSchema = z.object({ status: z.enum(BOOKING_OUTCOMES) }).openapi('BookingOutcome');
export type BookingOutcome = (typeof BOOKING_OUTCOMES)[number];
