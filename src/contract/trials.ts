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
