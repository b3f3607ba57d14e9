import { z } from '@hono/zod-openapi';

/**
 * The sponsor demo (server: features/sponsor-demo, decision 069): a sponsor's clinical operations lead picks sites
 * for a trial of the demo organization, "connects" them, and sees the recruitment dashboard with the forecast.
 * Internal admins only; it reads the demo organization (slug `demo-research-site`) whatever the active organization.
 */

/** A trial site id as trials store them (uuids for new sites; older records may hold other short codes). */
export const SITE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const SPONSOR_CONFIDENCES = [0.8, 0.95] as const;

export const SponsorTrialSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    /** The brief title (what screens show where space is short; the official title stays on the trial page). */
    publicTitle: z.string().nullable(),
    nctId: z.string().nullable(),
    phase: z.string().nullable(),
    conditions: z.array(z.string()),
    targetEnrollment: z.number().int().nullable(),
    enrolled: z.number().int(),
    siteCount: z.number().int(),
  })
  .openapi('SponsorTrial');
export type SponsorTrial = z.infer<typeof SponsorTrialSchema>;

export const SponsorTrialListSchema = z.object({ organizationId: z.string(), trials: z.array(SponsorTrialSchema) }).openapi('SponsorTrialList');
export type SponsorTrialList = z.infer<typeof SponsorTrialListSchema>;

/** The funnel of a site (or of all chosen sites): how many of its candidates reached each step. */
export const SponsorFunnelSchema = z
  .object({
    /** Candidates linked to the trial at the site. */
    candidates: z.number().int(),
    /** Eligible or potentially eligible: not screened out, not do-not-contact, not declined. */
    pool: z.number().int(),
    contacted: z.number().int(),
    prescreened: z.number().int(),
    passed: z.number().int(),
    booked: z.number().int(),
    enrolled: z.number().int(),
  })
  .openapi('SponsorFunnel');
export type SponsorFunnel = z.infer<typeof SponsorFunnelSchema>;

export const SponsorSiteSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    /** The organization's own site (the others are partner sites). */
    isOwnSite: z.boolean(),
    /** Has recruited: at least one candidate at the site. */
    started: z.boolean(),
    /** Days since its first candidate (0 when not started). */
    activeDays: z.number().int(),
    funnel: SponsorFunnelSchema,
    /** Median days from a candidate's first contact to their booked visit; null with no booking. */
    medianDaysToBooking: z.number().nullable(),
    enrollmentsPerMonth: z.number(),
    /** Share (0..1) of the pool from under-represented groups (Hispanic or Latino, or a race other than White); null with no one known. */
    diversityShare: z.number().nullable(),
    /** 0..100: the weighted ranking score, and the rank (1 = best). */
    score: z.number(),
    rank: z.number().int(),
    /** Why it ranks where it does, in short phrases. */
    reasons: z.array(z.string()),
  })
  .openapi('SponsorSite');
export type SponsorSite = z.infer<typeof SponsorSiteSchema>;

export const SponsorSiteListSchema = z
  .object({
    trial: SponsorTrialSchema,
    sites: z.array(SponsorSiteSchema),
    /** The weights of the ranking score (sum 1) and the census share the diversity is compared with. */
    ranking: z.object({ pool: z.number(), speed: z.number(), enrollmentRate: z.number(), diversity: z.number(), censusDiversityShare: z.number() }),
  })
  .openapi('SponsorSiteList');
export type SponsorSiteList = z.infer<typeof SponsorSiteListSchema>;

const SiteIdListSchema = z
  .string()
  .max(2000)
  .optional()
  .transform((value, context) => {
    const ids = (value ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    for (const id of ids) {
      if (!SITE_ID_PATTERN.test(id)) {
        context.addIssue({ code: 'custom', message: 'Must be a comma list of site ids' });
        return z.NEVER;
      }
    }
    return ids;
  })
  .openapi({ type: 'string', description: 'Comma list of the trial site ids; none: every site of the trial' });

export const SponsorDashboardQuerySchema = z.object({
  siteIds: SiteIdListSchema,
  /** The date "sites needed to finish by" is asked for (YYYY-MM-DD); default one year from today. */
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD)')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Must be a date (YYYY-MM-DD)')
    .optional(),
});
export type SponsorDashboardQuery = z.input<typeof SponsorDashboardQuerySchema>;

const BandSchema = z.object({ low: z.string().nullable(), high: z.string().nullable() });

export const SponsorForecastSchema = z
  .object({
    asOf: z.string(),
    enrolled: z.number().int(),
    target: z.number().int().nullable(),
    status: z.enum(['ok', 'target-met', 'no-sites', 'no-data', 'beyond-horizon', 'no-target']),
    expectedDate: z.string().nullable(),
    band80: BandSchema,
    band95: BandSchema,
    horizonDays: z.number().int(),
    /** Days until a chosen site that has not started opens (the demo's assumed activation time). */
    newSiteOpensInDays: z.number().int(),
    deadline: z.string(),
    /** Probability (0..1) of reaching the target by the deadline with the chosen sites. */
    probabilityByDeadline: z.number(),
    /** Extra average sites needed to finish by the deadline; null: not reachable (more than 100). */
    extraSites80: z.number().int().nullable(),
    extraSites95: z.number().int().nullable(),
    sites: z.array(
      z.object({
        siteId: z.string(),
        enrolled: z.number().int(),
        started: z.boolean(),
        /** Posterior mean rate, with its 80% interval, per month. */
        ratePerMonth: z.number(),
        ratePerMonthLow: z.number().nullable(),
        ratePerMonthHigh: z.number().nullable(),
        /** Expected enrolled at the site by the deadline (mean). */
        expectedByDeadline: z.number(),
      }),
    ),
  })
  .openapi('SponsorForecast');
export type SponsorForecast = z.infer<typeof SponsorForecastSchema>;

export const DEMOGRAPHIC_DIMENSIONS = ['age', 'sex', 'ethnicity', 'race', 'language'] as const;
export type DemographicDimension = (typeof DEMOGRAPHIC_DIMENSIONS)[number];

export const SponsorDemographicsSchema = z
  .array(
    z.object({
      dimension: z.enum(DEMOGRAPHIC_DIMENSIONS),
      /** Candidates whose value is known (the shares' denominator). */
      known: z.number().int(),
      rows: z.array(
        z.object({
          value: z.string(),
          count: z.number().int(),
          share: z.number(),
          /** The demo sponsor's minimum share for this group (decision 069), null: no goal. */
          goal: z.number().nullable(),
        }),
      ),
    }),
  )
  .openapi('SponsorDemographics');
export type SponsorDemographics = z.infer<typeof SponsorDemographicsSchema>;

export const SponsorDashboardSchema = z
  .object({
    trial: SponsorTrialSchema,
    sites: z.array(SponsorSiteSchema),
    totals: SponsorFunnelSchema,
    medianDaysToBooking: z.number().nullable(),
    forecast: SponsorForecastSchema,
    /** Of the pool at the chosen sites. */
    demographics: SponsorDemographicsSchema,
  })
  .openapi('SponsorDashboard');
export type SponsorDashboard = z.infer<typeof SponsorDashboardSchema>;
