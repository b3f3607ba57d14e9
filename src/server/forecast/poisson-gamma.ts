/**
 * The Poisson-gamma recruitment model (Anisimov and Fedorov 2007), docs/forecasting.md.
 *
 * Site i enrolls as a Poisson process of rate lambda_i per day; the rates vary between sites as
 * gamma(alpha, beta) (shape alpha, rate beta). The prior is fitted to the observed counts n_i over active days t_i
 * by the marginal (negative binomial) likelihood; site i's rate is then gamma(alpha + n_i, beta + t_i), and a site
 * that has not started recruits at a rate drawn from the prior from its opening day. The time to the remaining
 * target is the time the summed process reaches it: its median and 80% / 95% bands come from a seeded Monte Carlo
 * (the same input always gives the same dates). Pure TypeScript, no dependencies, no I/O.
 */
import type { Forecast, ForecastBand, ForecastInput, ForecastStatus, SiteRecruitment } from './types';

export type { Forecast, ForecastInput, SiteRecruitment } from './types';

const DAY_MS = 86_400_000;
export const DEFAULT_HORIZON_DAYS = 1826;
export const DEFAULT_DRAWS = 4000;
const DEFAULT_SEED = 0x5eed_2007;
/** Above this many extra sites, the target is "not reachable" by the deadline. */
export const MAX_EXTRA_SITES = 100;
/** Bounds of the fitted shape: 0.05 (very uneven sites) to 1000 (all sites alike, CV ~3%). */
const ALPHA_MIN = 0.05;
const ALPHA_MAX = 1000;

// Seeded random numbers: one generator for the whole code base, re-exported for the forecast's tests.
export { seededRandom } from '../seeded-random';
import { seededRandom } from '../seeded-random';

function normal(random: () => number): number {
  // Box-Muller (one of the pair).
  return Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
}

/** A gamma(shape, 1) draw: Marsaglia and Tsang (2000), with the shape < 1 boost. */
export function gammaDraw(shape: number, random: () => number): number {
  if (shape <= 0) return 0;
  if (shape < 1) return gammaDraw(shape + 1, random) * random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

// ---------- the prior ----------

export interface GammaPrior {
  alpha: number;
  beta: number;
}

/** Negative binomial log likelihood of the counts (constant terms dropped). */
function logLikelihood(observed: SiteRecruitment[], alpha: number, beta: number): number {
  let total = 0;
  for (const site of observed) {
    // log Gamma(alpha + n) - log Gamma(alpha) as a sum: exact, no lgamma needed.
    for (let j = 0; j < site.enrolled; j++) total += Math.log(alpha + j);
    total += alpha * Math.log(beta) - (alpha + site.enrolled) * Math.log(beta + site.activeDays);
  }
  return total;
}

/** For a fixed shape, the rate beta maximizing the likelihood: the root of its derivative (bisection in log). */
function bestBeta(observed: SiteRecruitment[], alpha: number): number {
  const slope = (beta: number) => {
    let value = 0;
    for (const site of observed) value += alpha / beta - (alpha + site.enrolled) / (beta + site.activeDays);
    return value;
  };
  let low = Math.log(1e-9);
  let high = Math.log(1e12);
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (slope(Math.exp(mid)) > 0) low = mid;
    else high = mid;
  }
  return Math.exp((low + high) / 2);
}

/**
 * Fits gamma(alpha, beta) to the sites that have recruited (activeDays > 0). Null when none has.
 * - No enrollment at all: alpha = 0.5, beta = total active days (the Jeffreys posterior of the pooled rate).
 * - One or two sites: too few to see how sites differ: alpha = 0.5, mean = the pooled rate.
 * - Otherwise: the marginal likelihood's maximum, alpha in [0.05, 1000] (profile over beta, grid + golden search).
 * In the first two cases the prior only serves sites not started yet (and extra sites); a recruiting site's rate is
 * then its own Jeffreys posterior gamma(0.5 + n_i, t_i).
 */
export function fitPrior(sites: SiteRecruitment[]): GammaPrior | null {
  const observed = sites.filter((site) => site.activeDays > 0);
  if (observed.length === 0) return null;
  const enrolled = observed.reduce((sum, site) => sum + site.enrolled, 0);
  const days = observed.reduce((sum, site) => sum + site.activeDays, 0);
  if (enrolled === 0) return { alpha: 0.5, beta: days };
  const pooledRate = enrolled / days;
  if (observed.length < 3) return { alpha: 0.5, beta: 0.5 / pooledRate };

  const profile = (logAlpha: number) => {
    const alpha = Math.exp(logAlpha);
    return logLikelihood(observed, alpha, bestBeta(observed, alpha));
  };
  const lo = Math.log(ALPHA_MIN);
  const hi = Math.log(ALPHA_MAX);
  const steps = 60;
  let bestIndex = 0;
  let bestValue = -Infinity;
  for (let i = 0; i <= steps; i++) {
    const value = profile(lo + ((hi - lo) * i) / steps);
    if (value > bestValue) {
      bestValue = value;
      bestIndex = i;
    }
  }
  let a = lo + ((hi - lo) * Math.max(0, bestIndex - 1)) / steps;
  let b = lo + ((hi - lo) * Math.min(steps, bestIndex + 1)) / steps;
  const golden = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const x1 = b - golden * (b - a);
    const x2 = a + golden * (b - a);
    if (profile(x1) >= profile(x2)) b = x2;
    else a = x1;
  }
  const alpha = Math.exp((a + b) / 2);
  return { alpha, beta: bestBeta(observed, alpha) };
}

/** Whether the sites' rates are shrunk towards a fitted prior: three observed sites or more, and some enrollment. */
function poolsSites(sites: SiteRecruitment[]): boolean {
  const observed = sites.filter((site) => site.activeDays > 0);
  return observed.length >= 3 && observed.some((site) => site.enrolled > 0);
}

// ---------- the uncertainty of the prior ----------

/**
 * A sampler of (alpha, beta) from their posterior given the counts, so the bands carry the uncertainty of the
 * fitted prior too (with few sites, the plug-in prior alone gives bands that are too narrow): a grid over
 * log alpha in [0.05, 1000] (flat prior), and for each alpha a normal approximation of log beta around its best
 * value (flat prior on log beta), weighted by the Laplace approximation of the likelihood. With fewer than three
 * observed sites or no enrollment yet, the fixed fallback prior of fitPrior.
 */
function priorSampler(sites: SiteRecruitment[], fixed: GammaPrior): (random: () => number) => GammaPrior {
  if (!poolsSites(sites)) return () => fixed;
  const observed = sites.filter((site) => site.activeDays > 0);
  const lo = Math.log(ALPHA_MIN);
  const hi = Math.log(ALPHA_MAX);
  const steps = 60;
  const step = (hi - lo) / steps;
  const grid: Array<{ logAlpha: number; logBeta: number; sd: number; logWeight: number }> = [];
  for (let i = 0; i <= steps; i++) {
    const logAlpha = lo + step * i;
    const alpha = Math.exp(logAlpha);
    const beta = bestBeta(observed, alpha);
    let curvature = 0;
    for (const site of observed) curvature += ((alpha + site.enrolled) * beta * site.activeDays) / (beta + site.activeDays) ** 2;
    const sd = 1 / Math.sqrt(Math.max(curvature, 1e-12));
    grid.push({ logAlpha, logBeta: Math.log(beta), sd, logWeight: logLikelihood(observed, alpha, beta) + Math.log(sd) });
  }
  const top = Math.max(...grid.map((cell) => cell.logWeight));
  const cumulative: number[] = [];
  let total = 0;
  for (const cell of grid) {
    total += Math.exp(cell.logWeight - top);
    cumulative.push(total);
  }
  return (random) => {
    const u = random() * total;
    let index = cumulative.findIndex((value) => value >= u);
    if (index < 0) index = grid.length - 1;
    const cell = grid[index];
    const logAlpha = Math.min(hi, Math.max(lo, cell.logAlpha + (random() - 0.5) * step));
    const alpha = Math.exp(logAlpha);
    // log beta moves with log alpha along the ridge (the mean rate alpha / beta is what the data pin down).
    const beta = Math.exp(cell.logBeta + (logAlpha - cell.logAlpha) + cell.sd * normal(random));
    return { alpha, beta };
  };
}

// ---------- the simulation ----------

interface ModelSite {
  siteId: string;
  enrolled: number;
  activeDays: number;
  /** Days after asOf when it starts recruiting (0 for a site recruiting now). */
  opensAt: number;
  started: boolean;
}

function modelSites(sites: SiteRecruitment[]): ModelSite[] {
  return sites
    .map((site) =>
      site.activeDays > 0
        ? { siteId: site.siteId, enrolled: Math.max(0, site.enrolled), activeDays: site.activeDays, opensAt: 0, started: true }
        : { siteId: site.siteId, enrolled: 0, activeDays: 0, opensAt: Math.max(0, site.opensInDays ?? 0), started: false },
    )
    .sort((left, right) => left.opensAt - right.opensAt);
}

/** Site i's posterior (started) or the prior (not started). */
function siteGamma(site: ModelSite, prior: GammaPrior, pooled: boolean): GammaPrior {
  if (!site.started) return prior;
  // Without a fitted prior (fewer than three observed sites, or no enrollment yet) a site's rate is its own
  // Jeffreys posterior.
  return pooled ? { alpha: prior.alpha + site.enrolled, beta: prior.beta + site.activeDays } : { alpha: 0.5 + site.enrolled, beta: site.activeDays };
}

/** The time at which the cumulative intensity sum_i rate_i * max(0, t - opensAt_i) reaches `level`. */
function timeToReach(level: number, rates: number[], opensAt: number[]): number {
  let cumulative = 0;
  let rate = 0;
  let time = 0;
  for (let i = 0; i <= rates.length; i++) {
    const next = i < rates.length ? opensAt[i] : Infinity;
    if (rate > 0 && cumulative + rate * (next - time) >= level) return time + (level - cumulative) / rate;
    if (next === Infinity) return Infinity;
    cumulative += rate * (next - time);
    time = next;
    rate += rates[i];
  }
  return Infinity;
}

function quantile(sorted: ArrayLike<number>, probability: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(probability * sorted.length) - 1));
  return sorted[index];
}

function isoDay(asOf: Date, days: number): string {
  return new Date(asOf.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

const EMPTY_BAND: ForecastBand = { low: null, high: null };

function totals(input: ForecastInput) {
  const enrolled = input.sites.reduce((sum, site) => sum + Math.max(0, site.enrolled), 0);
  const target = Math.max(0, Math.round(input.target));
  return { enrolled, target, remaining: Math.max(0, target - enrolled) };
}

/**
 * What every simulation of one input shares, fitted once: the prior, the sampler of its uncertainty and the sites in
 * opening order. Each simulation still starts its own generator from the seed, so a date, a probability or a number
 * of sites is the same whether it is asked alone or with the others (forecastByDeadline).
 */
interface Model {
  input: ForecastInput;
  enrolled: number;
  target: number;
  remaining: number;
  prior: GammaPrior | null;
  pooled: boolean;
  sites: ModelSite[];
  drawPrior: ((random: () => number) => GammaPrior) | null;
  draws: number;
}

function modelOf(input: ForecastInput): Model {
  const prior = fitPrior(input.sites);
  return {
    input,
    ...totals(input),
    prior,
    pooled: poolsSites(input.sites),
    sites: modelSites(input.sites),
    drawPrior: prior ? priorSampler(input.sites, prior) : null,
    draws: Math.max(100, input.draws ?? DEFAULT_DRAWS),
  };
}

const generatorOf = (model: Model) => seededRandom(model.input.seed ?? DEFAULT_SEED);

/** The forecast of the date the trial reaches its target across its sites. */
export function forecastEnrollment(input: ForecastInput): Forecast {
  return forecastOf(modelOf(input));
}

function forecastOf(model: Model): Forecast {
  const { input, enrolled, target, remaining, prior, pooled } = model;
  const horizonDays = input.horizonDays ?? DEFAULT_HORIZON_DAYS;
  const base = { enrolled, target, horizonDays };
  const order = new Map(input.sites.map((site, index) => [site.siteId, index]));
  const inInputOrder = <T extends { siteId: string }>(rows: T[]) => rows.sort((left, right) => (order.get(left.siteId) ?? 0) - (order.get(right.siteId) ?? 0));
  if (remaining === 0) {
    const today = isoDay(input.asOf, 0);
    const siteRates = prior
      ? inInputOrder(
          model.sites.map((site) => {
            const g = siteGamma(site, prior, pooled);
            return { siteId: site.siteId, ratePerDay: g.alpha / g.beta };
          }),
        )
      : [];
    return {
      ...base,
      expectedDate: today,
      band80: { low: today, high: today },
      band95: { low: today, high: today },
      prior: prior ?? { alpha: 0, beta: 0 },
      siteRates,
      status: 'target-met',
    };
  }
  if (input.sites.length === 0 || !prior || !model.drawPrior) {
    const status: ForecastStatus = input.sites.length === 0 ? 'no-sites' : 'no-data';
    return {
      ...base,
      expectedDate: null,
      band80: EMPTY_BAND,
      band95: EMPTY_BAND,
      prior: { alpha: 0, beta: 0 },
      siteRates: input.sites.map((site) => ({ siteId: site.siteId, ratePerDay: 0 })),
      status,
    };
  }

  const { sites, drawPrior, draws } = model;
  const random = generatorOf(model);
  const opensAt = sites.map((site) => site.opensAt);
  const rates = new Array<number>(sites.length);
  const perSite = sites.map(() => new Float64Array(draws));
  const times = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    const hyper = drawPrior(random);
    for (let i = 0; i < sites.length; i++) {
      const g = siteGamma(sites[i], hyper, pooled);
      rates[i] = gammaDraw(g.alpha, random) / g.beta;
      perSite[i][d] = rates[i];
    }
    // The remaining-th arrival of a Poisson process is where its cumulative intensity reaches a gamma(remaining, 1).
    times[d] = timeToReach(gammaDraw(remaining, random), rates, opensAt);
  }
  times.sort();
  const day = (probability: number) => {
    const value = quantile(times, probability);
    return value <= horizonDays ? isoDay(input.asOf, value) : null;
  };
  const expectedDate = day(0.5);
  const siteRates = inInputOrder(
    sites.map((site, i) => {
      const samples = perSite[i].sort();
      const g = siteGamma(site, prior, pooled);
      return { siteId: site.siteId, ratePerDay: g.alpha / g.beta, ratePerDayLow: quantile(samples, 0.1), ratePerDayHigh: quantile(samples, 0.9) };
    }),
  );
  return {
    ...base,
    expectedDate,
    band80: { low: day(0.1), high: day(0.9) },
    band95: { low: day(0.025), high: day(0.975) },
    prior,
    siteRates,
    status: expectedDate ? 'ok' : 'beyond-horizon',
  };
}

/**
 * Per Monte Carlo draw, the fewest extra sites (rates from the fitted prior, opening `opensInDays` after asOf) with
 * which the target is reached by `deadlineDays`; Infinity when more than MAX_EXTRA_SITES would be needed.
 */
function extraSitesPerDraw(model: Model, deadlineDays: number, opensInDays: number): number[] | null {
  const { remaining, pooled, sites, drawPrior, draws } = model;
  if (!drawPrior) return null;
  const random = generatorOf(model);
  const newSiteDays = Math.max(0, deadlineDays - opensInDays);
  const needed: number[] = [];
  for (let d = 0; d < draws; d++) {
    const hyper = drawPrior(random);
    let intensity = 0;
    for (const site of sites) {
      const g = siteGamma(site, hyper, pooled);
      intensity += (gammaDraw(g.alpha, random) / g.beta) * Math.max(0, deadlineDays - site.opensAt);
    }
    const level = gammaDraw(remaining, random);
    let count = 0;
    while (intensity < level && count <= MAX_EXTRA_SITES && newSiteDays > 0) {
      intensity += (gammaDraw(hyper.alpha, random) / hyper.beta) * newSiteDays;
      count++;
    }
    needed.push(intensity >= level ? count : Infinity);
  }
  return needed.sort((left, right) => left - right);
}

const daysUntil = (model: Model, deadline: Date) => (deadline.getTime() - model.input.asOf.getTime()) / DAY_MS;

/** The probability (0..1) that the target is reached by `deadline` with the sites as they are. */
export function completionProbability(input: ForecastInput, deadline: Date): number {
  return probabilityOf(modelOf(input), deadline);
}

function probabilityOf(model: Model, deadline: Date): number {
  if (model.remaining === 0) return 1;
  const deadlineDays = daysUntil(model, deadline);
  if (deadlineDays <= 0) return 0;
  const needed = extraSitesPerDraw(model, deadlineDays, 0);
  if (!needed) return 0;
  return needed.filter((count) => count === 0).length / needed.length;
}

type Confidence = 0.8 | 0.95;

/**
 * How many more sites like the average (rates from the fitted prior, whose mean is the prior mean) are needed to
 * reach the target by `deadline` with the given confidence: 0 when already on track, Infinity when more than
 * MAX_EXTRA_SITES (100) would be needed, the deadline is not after the new sites open, or nothing has been
 * observed yet to know a site's rate.
 */
export function extraSitesNeeded(input: ForecastInput, deadline: Date, confidence: Confidence, newSite?: { opensInDays: number }): number {
  return extraSitesOf(modelOf(input), deadline, [confidence], newSite)[0];
}

/** extraSitesNeeded at several confidences from one simulation: each is a quantile of the same draws. */
function extraSitesOf(model: Model, deadline: Date, confidences: Confidence[], newSite?: { opensInDays: number }): number[] {
  if (model.remaining === 0) return confidences.map(() => 0);
  const deadlineDays = daysUntil(model, deadline);
  if (deadlineDays <= 0) return confidences.map(() => Infinity);
  const needed = extraSitesPerDraw(model, deadlineDays, Math.max(0, newSite?.opensInDays ?? 0));
  if (!needed) return confidences.map(() => Infinity);
  return confidences.map((confidence) => {
    const count = quantile(needed, confidence);
    return count > MAX_EXTRA_SITES ? Infinity : count;
  });
}

export interface DeadlineForecast {
  forecast: Forecast;
  probabilityByDeadline: number;
  extraSites80: number;
  extraSites95: number;
}

/**
 * Everything a dashboard asks about one trial and deadline, the same numbers as forecastEnrollment,
 * completionProbability and extraSitesNeeded at 80% and 95% asked one by one, for less work: the prior is fitted
 * once, and both confidences read the one extra-sites simulation (they were two identical runs).
 */
export function forecastByDeadline(input: ForecastInput, deadline: Date, newSite?: { opensInDays: number }): DeadlineForecast {
  const model = modelOf(input);
  const [extraSites80, extraSites95] = extraSitesOf(model, deadline, [0.8, 0.95], newSite);
  return { forecast: forecastOf(model), probabilityByDeadline: probabilityOf(model, deadline), extraSites80, extraSites95 };
}
