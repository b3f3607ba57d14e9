/**
 * Enrollment forecasting (issue: analytics): the shapes shared by the model (`poisson-gamma.ts`), the admin
 * dashboard's trial-lifecycle tab and the sponsor demo's forecasting tab.
 */

/** One recruiting site as the model sees it. */
export interface SiteRecruitment {
  siteId: string;
  /** Participants enrolled at this site so far. */
  enrolled: number;
  /** Days the site has been recruiting up to `asOf` (0 for a site that has not started yet). */
  activeDays: number;
  /** For a site not started yet: days from `asOf` until it opens (0 when it opens now). */
  opensInDays?: number;
}

export interface ForecastInput {
  sites: SiteRecruitment[];
  /** Total participants wanted across all sites. */
  target: number;
  asOf: Date;
  /** Monte Carlo draws (default 4000) and seed (default fixed): the same input always gives the same answer. */
  draws?: number;
  seed?: number;
  /** Days after `asOf` beyond which a date is "not within the horizon" (default 5 years, 1826 days). */
  horizonDays?: number;
}

export interface ForecastBand {
  /** ISO dates (YYYY-MM-DD); null when the target is not reached within the model's horizon. */
  low: string | null;
  high: string | null;
}

/**
 * Why a forecast has no date (or has one trivially):
 * - `target-met`: enrolled >= target, every date is `asOf`.
 * - `no-sites`: there is no site at all.
 * - `no-data`: no site has recruited for a single day yet, so no rate can be estimated.
 * - `beyond-horizon`: the median completion is after the horizon.
 * - `ok`: a median date within the horizon.
 */
export type ForecastStatus = 'ok' | 'target-met' | 'no-sites' | 'no-data' | 'beyond-horizon';

export interface Forecast {
  enrolled: number;
  target: number;
  /** Median projected date to reach the target (ISO date), null when it is out of reach (no sites, no rate). */
  expectedDate: string | null;
  band80: ForecastBand;
  band95: ForecastBand;
  /** The fitted gamma prior of the per-site rates (per day): shape alpha, rate beta. */
  prior: { alpha: number; beta: number };
  /**
   * Each site's posterior mean rate per day, with its 80% credible interval (gamma quantiles); a site not
   * started yet has the prior's.
   */
  siteRates: Array<{ siteId: string; ratePerDay: number; ratePerDayLow?: number; ratePerDayHigh?: number }>;
  /** See ForecastStatus. */
  status?: ForecastStatus;
  /** The horizon used, in days after asOf. */
  horizonDays?: number;
}
