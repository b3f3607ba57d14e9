import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema } from './common';
import { CONDITION_QUALIFIERS } from './qualifiers';

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

/** Where a site's time zone came from: its coordinates, its country/state, or a person. */
export const SITE_TIME_ZONE_SOURCES = ['geo', 'region', 'manual'] as const;
export const SiteTimeZoneSourceSchema = z.enum(SITE_TIME_ZONE_SOURCES);

const siteFields = {
  /** The facility's name as the record gives it (many sponsors call every facility "Research Site"). */
  name: z.string().trim().min(1).max(200),
  address: z.string().max(300).optional(),
  city: z.string().max(120).optional(),
  /** State or province. */
  region: z.string().max(120).optional(),
  postalCode: z.string().max(20).optional(),
  country: z.string().max(120).optional(),
  /** IANA time zone, e.g. America/New_York: visit times are shown and booked in it. Absent: "time zone needed". */
  timeZone: z.string().max(64).optional(),
  timeZoneSource: SiteTimeZoneSourceSchema.optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  /** The organization runs this site ("ours"): our sites are listed and offered first. */
  isOwnSite: z.boolean().optional(),
};

/** A site of a trial. `id` is stable: bookings and scheduling agents refer to a site by it, never by its name. */
export const TrialSiteSchema = z.object({ id: z.string(), ...siteFields, isOwnSite: z.boolean() }).openapi('TrialSite');
export type TrialSite = z.infer<typeof TrialSiteSchema>;

/** A site in a create or update: give `id` to keep an existing site (bookings refer to it); without one it is new. */
export const TrialSiteInputSchema = z.object({ id: z.string().max(64).optional(), ...siteFields }).openapi('TrialSiteInput');
export type TrialSiteInput = z.infer<typeof TrialSiteInputSchema>;

/** A site as read from a record, before it has an id. */
export type DraftSite = Omit<TrialSiteInput, 'id'>;

export const SITE_PAGE_MAX = 200;

/** GET /api/trials/{trialId}/sites: our sites first, then the record's order; `q` matches name, city, state, postal code or country. */
export const ListTrialSitesQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  ownOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  limit: z.coerce.number().int().min(1).max(SITE_PAGE_MAX).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListTrialSitesQuery = z.input<typeof ListTrialSitesQuerySchema>;

export const TrialSiteListSchema = z
  .object({
    sites: z.array(TrialSiteSchema),
    /** Sites matching the search. */
    total: z.number().int(),
    /** All sites of the trial, and how many are ours. */
    siteCount: z.number().int(),
    ownSiteCount: z.number().int(),
  })
  .openapi('TrialSiteList');
export type TrialSiteList = z.infer<typeof TrialSiteListSchema>;

/** PATCH /api/trials/{trialId}/sites/{siteId}: mark a site ours, or set its time zone (null clears a manual one). */
export const UpdateTrialSiteSchema = z
  .object({
    isOwnSite: z.boolean().optional(),
    timeZone: z.string().trim().min(1).max(64).nullable().optional(),
  })
  .refine((value) => value.isOwnSite !== undefined || value.timeZone !== undefined, { message: 'Nothing to update' })
  .openapi('UpdateTrialSite');
export type UpdateTrialSiteInput = z.infer<typeof UpdateTrialSiteSchema>;

/** "Research Site, Chicago, Illinois, United States": enough to tell sites of one sponsor apart. */
export function siteLabel(site: Pick<TrialSite, 'name' | 'city' | 'region' | 'country'>): string {
  return [site.name, site.city, site.region, site.country].filter((part) => part?.trim()).join(', ');
}

/** Facility and city, as an SMS or a voice agent says it: "Research Site, Chicago". */
export function siteShortLabel(site: Pick<TrialSite, 'name' | 'city'>): string {
  return site.city && !site.name.includes(site.city) ? `${site.name}, ${site.city}` : site.name;
}

/** Our sites first, the rest in the record's order. */
export function ownSitesFirst<T extends { isOwnSite?: boolean }>(sites: readonly T[]): T[] {
  return [...sites.filter((site) => site.isOwnSite), ...sites.filter((site) => !site.isOwnSite)];
}

/** Where in the criterion's text a rule was read: character offsets [start, end). */
export const RuleSpanSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }).openapi('RuleSpan');
export type RuleSpan = z.infer<typeof RuleSpanSchema>;

/** A concept of the vocabulary (MeSH descriptor or a maintained synonym entry), with its ICD-10-CM code where known. */
export const ConceptRefSchema = z
  .object({ id: z.string().min(1), name: z.string().min(1), mesh: z.string().optional(), icd10: z.string().optional() })
  .openapi('ConceptRef');
export type ConceptRef = z.infer<typeof ConceptRefSchema>;

/** A time window: "within the last 6 months" -> { value: 6, unit: 'months' }. */
export const TimeWindowSchema = z.object({ value: z.number().positive(), unit: z.enum(['days', 'weeks', 'months', 'years']) }).openapi('TimeWindow');
export type TimeWindow = z.infer<typeof TimeWindowSchema>;

/**
 * How long a condition has lasted, in days: "pain for at least 3 months" -> { minDays: 91 }, "symptoms for less than
 * 6 weeks" -> { maxDays: 42 }, "diagnosed at least 12 months before screening" -> { minDays: 365 }. A month is
 * 30.4375 days and a year 365.25, rounded. `span` marks the duration's words.
 */
export const ConditionDurationSchema = z
  .object({ minDays: z.number().int().positive().optional(), maxDays: z.number().int().positive().optional(), span: RuleSpanSchema.optional() })
  .refine((value) => value.minDays === undefined || value.maxDays === undefined || value.minDays <= value.maxDays, {
    message: 'The shortest duration must not be above the longest',
    path: ['maxDays'],
  })
  .openapi('ConditionDuration');
export type ConditionDuration = z.infer<typeof ConditionDurationSchema>;

/**
 * Why a criterion is the site's: consent, the investigator's judgement, following the protocol, the protocol's other
 * terms; `permission`: it only allows something ("prior radiotherapy is allowed"), so it refuses no one and asks nothing
 * (decision 333).
 */
export const SITE_JUDGEMENT_REASONS = ['consent_capacity', 'investigator_judgement', 'protocol_compliance', 'protocol', 'permission'] as const;

/**
 * The machine-readable form of a criterion, where one could be read. Every field added after the first
 * version is optional, so rules stored before still parse. `span` marks the words the rule was read from.
 */
const span = { span: RuleSpanSchema.optional() };
export const CriterionRuleSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('age'), minYears: z.number().nullable(), maxYears: z.number().nullable(), ...span }),
    z.object({ type: z.literal('sex'), sex: z.enum(['female', 'male', 'all']), ...span }),
    z.object({
      type: z.literal('condition'),
      condition: z.string().min(1),
      present: z.boolean(),
      /** The concepts named; several are alternatives ("MI, stroke or TIA"). */
      concepts: z.array(ConceptRefSchema).optional(),
      /** "History of": ever had it, not only now. */
      history: z.boolean().optional(),
      within: TimeWindowSchema.optional(),
      /** How long the person has had it (optional: rules stored before durations were read still parse). */
      duration: ConditionDurationSchema.optional(),
      /** Plain-words qualifiers the criterion puts on the condition ("severe", "lumbar", "bilateral"; decision 077): asked in the question, unknown to the matcher unless a fact says them. Optional: older rules still parse. */
      qualifiers: z.array(z.enum(CONDITION_QUALIFIERS)).max(CONDITION_QUALIFIERS.length).optional(),
      /** What the criterion excepts from its concepts ("any cancer other than skin cancer"): a fact of one of these, or under one in MeSH's tree, does not count for the rule (decision 202). Optional: older rules still parse. */
      except: z.array(ConceptRefSchema).max(20).optional(),
      /** A cancer other than the one the trial is for ("another malignancy", "other than the disease under study"): the trial's own condition, or anything under it, never counts for the rule (decision 305). Optional: older rules still parse. */
      otherThanTrialCondition: z.boolean().optional(),
      ...span,
    }),
    z.object({
      type: z.literal('medication'),
      medication: z.string().min(1),
      taking: z.boolean(),
      concepts: z.array(ConceptRefSchema).optional(),
      /** "History of steroid use", "prior treatment with X": ever taken, not only now. */
      history: z.boolean().optional(),
      /** Taken within this window (a washout when `taking` is false). */
      within: TimeWindowSchema.optional(),
      /** What the criterion excepts ("anticoagulants other than heparin"), as for a condition rule (decision 202). */
      except: z.array(ConceptRefSchema).max(20).optional(),
      ...span,
    }),
    z.object({
      type: z.literal('lab'),
      measure: z.string().min(1),
      comparator: z.enum(['<', '<=', '>', '>=', '=', 'between']),
      value: z.number(),
      upperValue: z.number().optional(),
      unit: z.string().optional(),
      /** The value is a multiple of the upper/lower limit of normal ("≤ 2.5 x ULN"), not an absolute number. */
      relativeTo: z.enum(['ULN', 'LLN']).optional(),
      ...span,
    }),
    z.object({ type: z.literal('pregnancy'), allowed: z.boolean(), ...span }),
    z.object({ type: z.literal('healthy_volunteers'), accepted: z.boolean(), ...span }),
    /** Willing to use contraception during the study. */
    z.object({ type: z.literal('contraception'), required: z.boolean(), ...span }),
    z.object({ type: z.literal('performance_status'), scale: z.enum(['ECOG', 'Karnofsky']), min: z.number().nullable(), max: z.number().nullable(), ...span }),
    /** Whether an eligible person is a current smoker (true) or must not be (false). */
    z.object({ type: z.literal('smoking'), smoker: z.boolean(), ...span }),
    /** Decided by site staff (consent capacity, the investigator's opinion): never asked of the patient, never disqualifying by itself. */
    z.object({ type: z.literal('site_judgement'), reason: z.enum(SITE_JUDGEMENT_REASONS), ...span }),
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
    /** Where the rule came from: the record's fields, the text reader, a person, or a language model's proposal ('llm', needs review until accepted). */
    ruleSource: z.enum(['structured', 'text', 'manual', 'llm']).nullable(),
    needsReview: z.boolean(),
    /** The cohort or subgroup the criterion applies to ("Healthy controls"); null: everybody. */
    population: z.string().nullable(),
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

export const RuleSourceSchema = z.enum(['structured', 'text', 'manual', 'llm']);
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
    /** Every site, our sites first (the detail screen pages them through GET /api/trials/{trialId}/sites). */
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
    /** Omitted: kept (an existing criterion) or none (a new one). */
    population: z.string().trim().max(200).nullable().optional(),
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
  sites: z.array(TrialSiteInputSchema).max(2000).optional(),
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
    population: z.string().nullable(),
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
    sites: z.array(TrialSiteInputSchema),
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

/** POST /api/trials/{trialId}/reparse: what re-reading the criteria's text with the current reader changed. */
export const ReparseResultSchema = z
  .object({
    trial: TrialSchema,
    changes: z.array(
      z.object({
        criterionId: z.string(),
        text: z.string(),
        before: CriterionRuleSchema.nullable(),
        after: CriterionRuleSchema.nullable(),
        needsReview: z.boolean(),
      }),
    ),
    /** Criteria read again with the same rule (their review state kept). */
    unchanged: z.number().int(),
    /** Criteria whose rule a person set, or that came from the record's fields: never re-read. */
    kept: z.number().int(),
  })
  .openapi('ReparseResult');

/**
 * POST /api/trials/{trialId}/suggestions: rules a language model proposes for the criteria no reader could
 * read. Stored with ruleSource 'llm' and needsReview true: a proposal never excludes anybody until a person
 * accepts it (clears "Needs review") in the criteria editor.
 */
export const SuggestionsResultSchema = z
  .object({
    trial: TrialSchema,
    model: z.string(),
    /** Criteria sent to the model. */
    asked: z.number().int(),
    suggested: z.array(z.object({ criterionId: z.string(), text: z.string(), rule: CriterionRuleSchema })),
    /** Criteria the model gave no usable rule for, with why. */
    unread: z.array(z.object({ criterionId: z.string(), text: z.string(), reason: z.string() })),
  })
  .openapi('SuggestionsResult');
export type SuggestionsResult = z.infer<typeof SuggestionsResultSchema>;
export type ReparseResult = z.infer<typeof ReparseResultSchema>;

/** Days <-> words of a condition's duration: a plain module, so the web's rule words load no zod. */
export { DURATION_UNITS, durationAmount, durationDays, durationWords, type DurationUnit } from './durations';
export { CONDITION_QUALIFIERS, QUALIFIER_WORDS, qualifierPhrase, qualifiersHeld, type ConditionQualifier } from './qualifiers';
