import { z } from '@hono/zod-openapi';
import { ACTIVITY_PRESETS, ACTIVITY_SOURCES } from './activity';
import { OrganizationIdListSchema } from './common';
import { SatisfactionResponseSchema } from './satisfaction';
import { DASHBOARD_TABS } from './search';

/**
 * The admin dashboard (decision 032): seven tabs over the activity event model (decision 031), each a
 * read-only GET with the same filters, and a CSV export of any tab with the same filters.
 */

// The tab ids are the route's (search.ts, plain for the first page): one list for the URL and the API.
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DaySchema = z
  .string()
  .trim()
  .regex(DAY_PATTERN, 'Must be a date (YYYY-MM-DD)')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'Must be a real date')
  .openapi({ format: 'date' });

/** The shared filters: organizations (narrowing the scope), a preset or from/to (UTC days, inclusive), a source. */
export const DashboardQuerySchema = z.object({
  orgs: OrganizationIdListSchema.optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  preset: z.enum(ACTIVITY_PRESETS).optional(),
  source: z.enum(ACTIVITY_SOURCES).optional(),
});
export type DashboardQuery = z.infer<typeof DashboardQuerySchema>;

export const DashboardExportQuerySchema = DashboardQuerySchema.extend({ tab: z.enum(DASHBOARD_TABS) });

/** What the answer covers: the resolved range (from null: since the beginning) and the organizations. */
export const DashboardFiltersSchema = z.object({
  from: z.string().nullable(),
  to: z.string(),
  preset: z.enum(ACTIVITY_PRESETS).nullable(),
  source: z.enum(ACTIVITY_SOURCES).nullable(),
  organizationIds: z.array(z.string()),
});
export type DashboardFilters = z.infer<typeof DashboardFiltersSchema>;

/**
 * The bucket of an over-time series (decision 044): day up to 62 days, week (Monday, UTC) up to 183 days, month
 * (UTC) beyond. A period is its bucket's first day (YYYY-MM-DD); the first and last buckets count only the days
 * inside the range (a range from 15 March has a March bucket of 15-31 March).
 */
export const DASHBOARD_BUCKETS = ['day', 'week', 'month'] as const;
export type DashboardBucket = (typeof DASHBOARD_BUCKETS)[number];
const BucketSchema = z.enum(DASHBOARD_BUCKETS).openapi({ description: "The over-time series' bucket: its periods are the buckets' first days." });

const count = z.number().int();
const rate = z.number().nullable();

// funnel-breakdown

export const FUNNEL_STAGES = ['created', 'contacted', 'prescreened', 'passed', 'booked', 'attended', 'enrolled'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export const DROP_OFF_REASONS = ['not_interested', 'unreachable', 'prescreen_failed', 'opted_out', 'no_show', 'do_not_contact'] as const;
export type DropOffReason = (typeof DROP_OFF_REASONS)[number];

const StageCountsSchema = z.object(Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, count])) as Record<FunnelStage, typeof count>);
export type StageCounts = z.infer<typeof StageCountsSchema>;

export const FunnelBreakdownSchema = z
  .object({
    filters: DashboardFiltersSchema,
    /** Events of each stage in the range. */
    stages: z.array(z.object({ stage: z.enum(FUNNEL_STAGES), count, conversion: rate })),
    byTrial: z.array(z.object({ trialId: z.string().nullable(), trialTitle: z.string().nullable(), counts: StageCountsSchema })),
    bySource: z.array(z.object({ source: z.enum(ACTIVITY_SOURCES), counts: StageCountsSchema })),
    dropOff: z.array(z.object({ reason: z.enum(DROP_OFF_REASONS), count })),
  })
  .openapi('DashboardFunnelBreakdown');
export type FunnelBreakdown = z.infer<typeof FunnelBreakdownSchema>;

// prescreen-analytics

export const PrescreenAnalyticsSchema = z
  .object({
    filters: DashboardFiltersSchema,
    bucket: BucketSchema,
    overTime: z.array(z.object({ period: z.string(), PASS: count, FAIL: count, INCONCLUSIVE: count, POTENTIAL: count })),
    totals: z.object({ results: count, PASS: count, FAIL: count, INCONCLUSIVE: count, POTENTIAL: count }),
    /**
     * Hours from the first contact to the result: the average exact, the median estimated from a histogram (1-hour
     * buckets below a day, 6-hour to a week, a day to 30 days, then one open bucket; decision 094).
     */
    hoursToResult: z.object({ average: rate, median: rate, measured: count }),
    failingCriteria: z.array(
      z.object({ trialId: z.string(), trialTitle: z.string().nullable(), criterionId: z.string(), kind: z.string(), text: z.string(), failures: count }),
    ),
    review: z.object({ decisions: count, agree: count, override: count, agreementRate: rate, overrideRate: rate }),
  })
  .openapi('DashboardPrescreenAnalytics');
export type PrescreenAnalytics = z.infer<typeof PrescreenAnalyticsSchema>;

// patient-satisfaction

export const SatisfactionSchema = z
  .object({
    filters: DashboardFiltersSchema,
    ratings: count,
    /** Share of ratings of 4 or 5, in percent. */
    csat: rate,
    average: rate,
    distribution: z.array(z.object({ rating: z.number().int(), count })),
    byChannel: z.array(z.object({ source: z.enum(ACTIVITY_SOURCES), ratings: count, csat: rate, average: rate })),
    byAgent: z.array(z.object({ agentId: z.string().nullable(), agentName: z.string().nullable(), ratings: count, csat: rate, average: rate })),
    /** The newest ratings that came with a comment, in the range. */
    comments: z.array(SatisfactionResponseSchema),
  })
  .openapi('DashboardSatisfaction');
export type Satisfaction = z.infer<typeof SatisfactionSchema>;

// trial-lifecycle

export const TrialLifecycleSchema = z
  .object({
    filters: DashboardFiltersSchema,
    /** The bucket of every trial's `enrollment` series. */
    bucket: BucketSchema,
    trials: z.array(
      z.object({
        trialId: z.string(),
        organizationId: z.string(),
        title: z.string(),
        status: z.string(),
        targetEnrollment: z.number().int().nullable(),
        /** Days spent in each status since the trial was created (the current one up to now). */
        daysInStatus: z.array(z.object({ status: z.string(), days: z.number() })),
        enrolledInRange: count,
        enrolledTotal: count,
        /** Enrollments and the cumulative count by `bucket` (the period is the bucket's first day, UTC) within the range. */
        enrollment: z.array(z.object({ period: z.string(), enrolled: count, cumulative: count })),
        /**
         * When a recruiting trial with a target reaches it (forecastEnrollment, decision 034), from its enrollments
         * so far over its days recruiting, pooled as one site; null when the trial is not recruiting or has no target.
         */
        forecast: z
          .object({
            status: z.enum(['ok', 'target-met', 'no-sites', 'no-data', 'beyond-horizon']),
            expectedDate: z.string().nullable(),
            band80: z.object({ low: z.string().nullable(), high: z.string().nullable() }),
            band95: z.object({ low: z.string().nullable(), high: z.string().nullable() }),
          })
          .nullable(),
      }),
    ),
  })
  .openapi('DashboardTrialLifecycle');
export type TrialLifecycle = z.infer<typeof TrialLifecycleSchema>;

// trial-matcher

export const MatcherDashboardSchema = z
  .object({
    filters: DashboardFiltersSchema,
    totals: z.object({ found: count, contacted: count, converted: count }),
    trials: z.array(
      z.object({ trialId: z.string(), trialTitle: z.string(), found: count, likely: count, possible: count, contacted: count, converted: count }),
    ),
    topGaps: z.array(z.object({ trialId: z.string(), trialTitle: z.string(), criterionId: z.string(), text: z.string(), notMet: count, unknown: count })),
  })
  .openapi('DashboardTrialMatcher');
export type MatcherDashboard = z.infer<typeof MatcherDashboardSchema>;

// costs

export const CostsSchema = z
  .object({
    filters: DashboardFiltersSchema,
    total: z.number(),
    byChannel: z.array(z.object({ source: z.enum(ACTIVITY_SOURCES), label: z.string(), amount: z.number() })),
    /** The bucket of `overTime`. */
    bucket: BucketSchema,
    overTime: z.array(z.object({ period: z.string(), amount: z.number() })),
    unitCosts: z.array(z.object({ unit: z.enum(['prescreen', 'pass', 'booked_visit', 'enrolled']), count, cost: rate })),
  })
  .openapi('DashboardCosts');
export type Costs = z.infer<typeof CostsSchema>;

// customer-overview

export const HEALTH_FLAGS = ['no_recent_activity', 'high_opt_out'] as const;
export const CustomerOverviewSchema = z
  .object({
    filters: DashboardFiltersSchema,
    organizations: z.array(
      z.object({
        organizationId: z.string(),
        name: z.string(),
        events: count,
        candidatesCreated: count,
        enrolled: count,
        spend: z.number(),
        recruitingTrials: count,
        lastActivityDay: z.string().nullable(),
        lastSignInAt: z.string().nullable(),
        /** Opt-outs per candidate contacted in the range, in percent. */
        optOutRate: rate,
        flags: z.array(z.enum(HEALTH_FLAGS)),
      }),
    ),
  })
  .openapi('DashboardCustomerOverview');
export type CustomerOverview = z.infer<typeof CustomerOverviewSchema>;

export interface DashboardTabData {
  'funnel-breakdown': FunnelBreakdown;
  'prescreen-analytics': PrescreenAnalytics;
  'patient-satisfaction': Satisfaction;
  'trial-lifecycle': TrialLifecycle;
  'trial-matcher': MatcherDashboard;
  costs: Costs;
  'customer-overview': CustomerOverview;
}
