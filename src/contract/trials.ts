import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema } from './common';

export const TRIAL_STATUSES = ['draft', 'recruiting', 'paused', 'closed'] as const;
export const TrialStatusSchema = z.enum(TRIAL_STATUSES);
export type TrialStatus = z.infer<typeof TrialStatusSchema>;

/** Allowed lifecycle moves: draft -> recruiting -> paused <-> recruiting -> closed. */
export const TRIAL_STATUS_TRANSITIONS: Record<TrialStatus, TrialStatus[]> = {
  draft: ['recruiting', 'closed'],
  recruiting: ['paused', 'closed'],
  paused: ['recruiting', 'closed'],
  closed: [],
};

export const TrialStatusChangeSchema = z.object({
  from: TrialStatusSchema.nullable(),
  to: TrialStatusSchema,
  at: TimestampSchema,
  byUserId: z.string().nullable(),
});
export type TrialStatusChange = z.infer<typeof TrialStatusChangeSchema>;

export const TrialSiteSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    address: z.string().max(300).optional(),
    city: z.string().max(120).optional(),
    region: z.string().max(120).optional(),
    postalCode: z.string().max(20).optional(),
    country: z.string().max(120).optional(),
    /** IANA time zone, e.g. America/New_York: visit times are shown and booked in it. */
    timeZone: z.string().max(64).optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
  })
  .openapi('TrialSite');
export type TrialSite = z.infer<typeof TrialSiteSchema>;

/** The machine-readable form of a criterion, where one could be read. */
export const CriterionRuleSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('age'), minYears: z.number().nullable(), maxYears: z.number().nullable() }),
    z.object({ type: z.literal('sex'), sex: z.enum(['female', 'male', 'all']) }),
    z.object({ type: z.literal('condition'), condition: z.string().min(1), present: z.boolean() }),
    z.object({ type: z.literal('medication'), medication: z.string().min(1), taking: z.boolean() }),
    z.object({
      type: z.literal('lab'),
      measure: z.string().min(1),
      comparator: z.enum(['<', '<=', '>', '>=', '=', 'between']),
      value: z.number(),
      upperValue: z.number().optional(),
      unit: z.string().optional(),
    }),
    z.object({ type: z.literal('pregnancy'), allowed: z.boolean() }),
    z.object({ type: z.literal('healthy_volunteers'), accepted: z.boolean() }),
  ])
  .openapi('CriterionRule');
export type CriterionRule = z.infer<typeof CriterionRuleSchema>;

export const CriterionKindSchema = z.enum(['inclusion', 'exclusion']);
export type CriterionKind = z.infer<typeof CriterionKindSchema>;

export const TrialCriterionSchema = z
  .object({
    id: z.string(),
    position: z.number().int(),
    kind: CriterionKindSchema,
    text: z.string(),
    rule: CriterionRuleSchema.nullable(),
    ruleSource: z.enum(['structured', 'text', 'manual']).nullable(),
    needsReview: z.boolean(),
  })
  .openapi('TrialCriterion');
export type TrialCriterion = z.infer<typeof TrialCriterionSchema>;

export const ListTrialsQuerySchema = z.object({
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
});

// ---- trial records ----

const trimmedText = (max: number) => z.string().trim().min(1).max(max);
const ageYears = z.number().int().min(0).max(150);

export const RuleSourceSchema = z.enum(['structured', 'text', 'manual']);
export type RuleSource = z.infer<typeof RuleSourceSchema>;
export const TRIAL_SEXES = ['all', 'female', 'male'] as const;
export const TrialSexSchema = z.enum(TRIAL_SEXES);

export const TrialSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    title: z.string(),
    publicTitle: z.string().nullable(),
    nctId: z.string().nullable(),
    sponsor: z.string().nullable(),
    phase: z.string().nullable(),
    conditions: z.array(z.string()),
    summary: z.string().nullable(),
    targetEnrollment: z.number().int().nullable(),
    status: TrialStatusSchema,
    statusHistory: z.array(TrialStatusChangeSchema),
    sites: z.array(TrialSiteSchema),
    minimumAgeYears: z.number().int().nullable(),
    maximumAgeYears: z.number().int().nullable(),
    sex: TrialSexSchema,
    healthyVolunteers: z.boolean().nullable(),
    criteria: z.array(TrialCriterionSchema),
    /** Candidates linked to the trial, and how many of them are enrolled. */
    candidateCount: z.number().int(),
    enrolledCount: z.number().int(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Trial');
export type Trial = z.infer<typeof TrialSchema>;

export const TrialListSchema = z.object({ trials: z.array(TrialSchema), total: z.number().int() }).openapi('TrialList');
export type TrialList = z.infer<typeof TrialListSchema>;

/**
 * One criterion in a create or update: the `criteria` array replaces the trial's ordered list. Give `id` to
 * keep an existing criterion (its rule stays unless `rule` is given). A rule set here counts as set by a
 * person (`ruleSource` 'manual', `needsReview` false) unless `ruleSource`/`needsReview` say otherwise, e.g.
 * when saving an auto-generated preview unchanged.
 */
export const CriterionInputSchema = z
  .object({
    id: z.string().optional(),
    kind: CriterionKindSchema,
    text: trimmedText(4000),
    rule: CriterionRuleSchema.nullable().optional(),
    ruleSource: RuleSourceSchema.nullable().optional(),
    needsReview: z.boolean().optional(),
  })
  .openapi('TrialCriterionInput');
export type CriterionInput = z.infer<typeof CriterionInputSchema>;

const NctIdSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^NCT\d{8}$/, 'NCT id must look like NCT01234567');

const trialFields = {
  title: trimmedText(500),
  publicTitle: trimmedText(300).nullable().optional(),
  nctId: NctIdSchema.nullable().optional(),
  sponsor: trimmedText(300).nullable().optional(),
  phase: trimmedText(60).nullable().optional(),
  conditions: z.array(trimmedText(200)).max(100).optional(),
  summary: z.string().trim().max(20_000).nullable().optional(),
  targetEnrollment: z.number().int().min(0).max(10_000_000).nullable().optional(),
  sites: z.array(TrialSiteSchema).max(2000).optional(),
  minimumAgeYears: ageYears.nullable().optional(),
  maximumAgeYears: ageYears.nullable().optional(),
  sex: TrialSexSchema.optional(),
  healthyVolunteers: z.boolean().nullable().optional(),
  criteria: z.array(CriterionInputSchema).max(500).optional(),
};

const agesInOrder = (value: { minimumAgeYears?: number | null; maximumAgeYears?: number | null }) =>
  value.minimumAgeYears == null || value.maximumAgeYears == null || value.minimumAgeYears <= value.maximumAgeYears;
const agesMessage = { message: 'Minimum age must not be above maximum age', path: ['maximumAgeYears'] };

export const CreateTrialSchema = z.object(trialFields).refine(agesInOrder, agesMessage).openapi('CreateTrial');
export type CreateTrialInput = z.infer<typeof CreateTrialSchema>;

/** Any subset of the fields; `status` must follow TRIAL_STATUS_TRANSITIONS; `criteria` replaces the list. */
export const UpdateTrialSchema = z
  .object({ ...trialFields, title: trialFields.title.optional(), status: TrialStatusSchema.optional() })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: 'Nothing to update' })
  .refine(agesInOrder, agesMessage)
  .openapi('UpdateTrial');
export type UpdateTrialInput = z.infer<typeof UpdateTrialSchema>;

export const CreateTrialQuerySchema = z.object({ organizationIds: OrganizationIdListSchema });

/** A criterion of an auto-generated draft (not saved yet: no id). */
export const DraftCriterionSchema = z
  .object({
    kind: CriterionKindSchema,
    text: z.string(),
    rule: CriterionRuleSchema.nullable(),
    ruleSource: RuleSourceSchema.nullable(),
    needsReview: z.boolean(),
  })
  .openapi('DraftCriterion');
export type DraftCriterion = z.infer<typeof DraftCriterionSchema>;

/** What the rules engine reads from a ClinicalTrials.gov record: a trial to review before saving. */
export const TrialDraftSchema = z
  .object({
    title: z.string(),
    publicTitle: z.string().nullable(),
    nctId: z.string().nullable(),
    sponsor: z.string().nullable(),
    phase: z.string().nullable(),
    conditions: z.array(z.string()),
    summary: z.string().nullable(),
    targetEnrollment: z.number().int().nullable(),
    sites: z.array(TrialSiteSchema),
    minimumAgeYears: z.number().int().nullable(),
    maximumAgeYears: z.number().int().nullable(),
    sex: TrialSexSchema,
    healthyVolunteers: z.boolean().nullable(),
    criteria: z.array(DraftCriterionSchema),
  })
  .openapi('TrialDraft');
export type TrialDraft = z.infer<typeof TrialDraftSchema>;

/**
 * POST /api/trials/auto-gen body: either a ClinicalTrials.gov API v2 study record itself (saved at once), or
 * `{ study: <record>, save?: boolean }`; `save: false` returns the draft without saving (preview).
 */
export const AutoGenRequestSchema = z
  .union([
    z.object({ study: z.record(z.string(), z.unknown()), save: z.boolean().optional() }),
    z.record(z.string(), z.unknown()).openapi({ description: 'A ClinicalTrials.gov API v2 study record (protocolSection...)' }),
  ])
  .openapi('AutoGenRequest');
