import { describe, expect, it } from 'vitest';
import {
  MAX_EXTRA_SITES,
  completionProbability,
  extraSitesNeeded,
  fitPrior,
  forecastByDeadline,
  forecastEnrollment,
  gammaDraw,
  seededRandom,
} from '../../src/server/forecast/poisson-gamma';
import type { ForecastInput, SiteRecruitment } from '../../src/server/forecast/types';

/**
 * The Poisson-gamma enrollment forecast (docs/forecasting.md): calibration against simulated trials whose true
 * per-site rates are drawn from a known gamma, and the edge cases a dashboard meets.
 */

const AS_OF = new Date('2026-01-01T12:00:00Z');
const DAY_MS = 86_400_000;
const dayOf = (days: number) => new Date(AS_OF.getTime() + days * DAY_MS).toISOString().slice(0, 10);

/** The test's own Poisson process: arrival times of a rate-`rate` process between `from` and `to`. */
function arrivals(rate: number, from: number, to: number, random: () => number): number[] {
  const times: number[] = [];
  if (rate <= 0) return times;
  let time = from;
  for (;;) {
    time += -Math.log(random()) / rate;
    if (time > to) return times;
    times.push(time);
  }
}

interface Scenario {
  sites: number;
  notStarted: number;
  observedDays: number;
  remaining: number;
  alpha: number;
  meanRatePerDay: number;
}

/** One simulated trial: the observed input and the true date the remaining target is reached. */
function simulate(scenario: Scenario, random: () => number): { input: ForecastInput; trueDate: string } {
  const beta = scenario.alpha / scenario.meanRatePerDay;
  const sites: SiteRecruitment[] = [];
  const future: number[] = [];
  for (let i = 0; i < scenario.sites; i++) {
    const rate = gammaDraw(scenario.alpha, random) / beta;
    if (i < scenario.sites - scenario.notStarted) {
      const past = arrivals(rate, 0, scenario.observedDays, random).length;
      sites.push({ siteId: `s${i}`, enrolled: past, activeDays: scenario.observedDays });
      future.push(...arrivals(rate, 0, 20_000, random));
    } else {
      const opensInDays = 30 * (i - (scenario.sites - scenario.notStarted) + 1);
      sites.push({ siteId: `s${i}`, enrolled: 0, activeDays: 0, opensInDays });
      future.push(...arrivals(rate, opensInDays, 20_000, random));
    }
  }
  future.sort((left, right) => left - right);
  const enrolled = sites.reduce((sum, site) => sum + site.enrolled, 0);
  const trueTime = future[scenario.remaining - 1] ?? Infinity;
  return {
    input: { sites, target: enrolled + scenario.remaining, asOf: AS_OF, draws: 600 },
    trueDate: Number.isFinite(trueTime) ? dayOf(trueTime) : '9999-12-31',
  };
}

function coverage(scenario: Scenario, runs: number, seed: number) {
  const random = seededRandom(seed);
  let in80 = 0;
  let in95 = 0;
  for (let run = 0; run < runs; run++) {
    const { input, trueDate } = simulate(scenario, random);
    const forecast = forecastEnrollment({ ...input, seed: run + 1 });
    const inside = (band: { low: string | null; high: string | null }) =>
      band.low !== null && band.low <= trueDate && (band.high === null || trueDate <= band.high);
    if (inside(forecast.band80)) in80++;
    if (inside(forecast.band95)) in95++;
  }
  return { in80: in80 / runs, in95: in95 / runs };
}

// 300 simulated trials per case, each forecast by simulation: seconds of CPU, more on a busy machine.
describe('Poisson-gamma forecast: calibration on simulated trials', { timeout: 60_000 }, () => {
  it('the 80% band covers the true completion date 70-90% of the time, the 95% band 88-99% (10 sites, 6 months observed)', () => {
    const result = coverage({ sites: 10, notStarted: 0, observedDays: 180, remaining: 120, alpha: 2, meanRatePerDay: 0.1 }, 300, 42);
    expect(result.in80).toBeGreaterThanOrEqual(0.7);
    expect(result.in80).toBeLessThanOrEqual(0.9);
    expect(result.in95).toBeGreaterThanOrEqual(0.88);
    expect(result.in95).toBeLessThanOrEqual(0.99);
  });

  it('stays calibrated with uneven sites, two of them not open yet, and a short observation', () => {
    const result = coverage({ sites: 8, notStarted: 2, observedDays: 90, remaining: 80, alpha: 1, meanRatePerDay: 0.08 }, 300, 7);
    expect(result.in80).toBeGreaterThanOrEqual(0.7);
    expect(result.in80).toBeLessThanOrEqual(0.9);
    expect(result.in95).toBeGreaterThanOrEqual(0.88);
    expect(result.in95).toBeLessThanOrEqual(0.99);
  });

  it('with a single site (no pooling: its own Jeffreys posterior) too', () => {
    const result = coverage({ sites: 1, notStarted: 0, observedDays: 60, remaining: 20, alpha: 2, meanRatePerDay: 0.1 }, 300, 11);
    expect(result.in80).toBeGreaterThanOrEqual(0.7);
    expect(result.in80).toBeLessThanOrEqual(0.9);
    expect(result.in95).toBeGreaterThanOrEqual(0.88);
    expect(result.in95).toBeLessThanOrEqual(0.99);
  });

  it('recovers the prior from many sites: mean rate and shape near the truth', () => {
    const random = seededRandom(3);
    const sites: SiteRecruitment[] = Array.from({ length: 300 }, (_, i) => {
      const rate = gammaDraw(3, random) / 30;
      return { siteId: `s${i}`, enrolled: arrivals(rate, 0, 365, random).length, activeDays: 365 };
    });
    const prior = fitPrior(sites)!;
    expect(prior.alpha / prior.beta).toBeGreaterThan(0.09);
    expect(prior.alpha / prior.beta).toBeLessThan(0.11);
    expect(prior.alpha).toBeGreaterThan(2);
    expect(prior.alpha).toBeLessThan(4.5);
  });
});

describe('Poisson-gamma forecast: the answers a dashboard shows', () => {
  const steady: ForecastInput = {
    asOf: AS_OF,
    target: 100,
    sites: [
      { siteId: 'a', enrolled: 20, activeDays: 200 },
      { siteId: 'b', enrolled: 10, activeDays: 200 },
      { siteId: 'c', enrolled: 30, activeDays: 200 },
    ],
  };

  it('is deterministic and orders its dates: 95% low <= 80% low <= median <= 80% high <= 95% high', () => {
    const forecast = forecastEnrollment(steady);
    expect(forecastEnrollment(steady)).toEqual(forecast);
    expect(forecast.status).toBe('ok');
    const { band80, band95, expectedDate } = forecast;
    expect([band95.low, band80.low, expectedDate, band80.high, band95.high]).toEqual(
      [band95.low, band80.low, expectedDate, band80.high, band95.high].slice().sort(),
    );
    // 40 more at about 60 / 200 per day: roughly 133 days from asOf.
    const median = (new Date(`${expectedDate}T12:00:00Z`).getTime() - AS_OF.getTime()) / DAY_MS;
    expect(median).toBeGreaterThan(100);
    expect(median).toBeLessThan(170);
    expect(forecast.siteRates.map((site) => site.siteId)).toEqual(['a', 'b', 'c']);
    expect(forecast.siteRates[2].ratePerDay).toBeGreaterThan(forecast.siteRates[1].ratePerDay);
  });

  it('no enrollments yet after weeks of recruiting: a very wide, late forecast, not an error', () => {
    const forecast = forecastEnrollment({
      asOf: AS_OF,
      target: 50,
      sites: [
        { siteId: 'a', enrolled: 0, activeDays: 30 },
        { siteId: 'b', enrolled: 0, activeDays: 30 },
      ],
    });
    expect(forecast.enrolled).toBe(0);
    expect(forecast.prior.alpha).toBeGreaterThan(0);
    // Zero in 60 site-days: the median is far off (beyond the 5-year horizon here), the low end may be sooner.
    expect(forecast.band95.high).toBeNull();
    expect(['ok', 'beyond-horizon']).toContain(forecast.status);
  });

  it('no site has started yet: no date (no data), and no number of sites can be promised', () => {
    const input = { asOf: AS_OF, target: 50, sites: [{ siteId: 'a', enrolled: 0, activeDays: 0, opensInDays: 10 }] };
    expect(forecastEnrollment(input)).toMatchObject({ expectedDate: null, status: 'no-data', band80: { low: null, high: null } });
    expect(extraSitesNeeded(input, new Date('2027-01-01T00:00:00Z'), 0.8)).toBe(Infinity);
  });

  it('target already met: today, and no extra sites', () => {
    const input = { asOf: AS_OF, target: 10, sites: [{ siteId: 'a', enrolled: 12, activeDays: 100 }] };
    expect(forecastEnrollment(input)).toMatchObject({ expectedDate: '2026-01-01', status: 'target-met', band95: { low: '2026-01-01', high: '2026-01-01' } });
    expect(extraSitesNeeded(input, new Date('2026-02-01T00:00:00Z'), 0.95)).toBe(0);
    expect(completionProbability(input, new Date('2026-02-01T00:00:00Z'))).toBe(1);
  });

  it('no sites: no date', () => {
    expect(forecastEnrollment({ asOf: AS_OF, target: 10, sites: [] })).toMatchObject({ expectedDate: null, status: 'no-sites', siteRates: [] });
  });

  it('one site: its own rate decides (about 0.2 a day, 20 to go: about 100 days)', () => {
    const forecast = forecastEnrollment({ asOf: AS_OF, target: 40, sites: [{ siteId: 'only', enrolled: 20, activeDays: 100 }] });
    expect(forecast.status).toBe('ok');
    expect(forecast.siteRates[0].ratePerDay).toBeCloseTo(20.5 / 100, 3);
    const median = (new Date(`${forecast.expectedDate}T12:00:00Z`).getTime() - AS_OF.getTime()) / DAY_MS;
    expect(median).toBeGreaterThan(80);
    expect(median).toBeLessThan(125);
  });

  it('a site that opens later adds enrollment only after its opening day', () => {
    const without = forecastEnrollment(steady);
    const withLate = forecastEnrollment({ ...steady, sites: [...steady.sites, { siteId: 'late', enrolled: 0, activeDays: 0, opensInDays: 60 }] });
    const withNow = forecastEnrollment({ ...steady, sites: [...steady.sites, { siteId: 'late', enrolled: 0, activeDays: 0, opensInDays: 0 }] });
    expect(withNow.expectedDate! < withLate.expectedDate!).toBe(true);
    expect(withLate.expectedDate! < without.expectedDate!).toBe(true);
  });
});

describe('extra sites needed by a deadline', () => {
  const input: ForecastInput = {
    asOf: AS_OF,
    target: 300,
    sites: Array.from({ length: 5 }, (_, i) => ({ siteId: `s${i}`, enrolled: 10 + i * 2, activeDays: 150 })),
  };

  it('0 when the deadline is comfortably after the 95% band', () => {
    const forecast = forecastEnrollment(input);
    const late = new Date(new Date(`${forecast.band95.high}T00:00:00Z`).getTime() + 30 * DAY_MS);
    expect(extraSitesNeeded(input, late, 0.95)).toBe(0);
  });

  it('more sites for an earlier deadline, more for 95% than for 80%, more when they open later', () => {
    const year = new Date('2027-01-01T00:00:00Z');
    const eighty = extraSitesNeeded(input, year, 0.8);
    const ninetyFive = extraSitesNeeded(input, year, 0.95);
    expect(eighty).toBeGreaterThan(0);
    expect(ninetyFive).toBeGreaterThanOrEqual(eighty);
    expect(extraSitesNeeded(input, new Date('2026-09-01T00:00:00Z'), 0.8)).toBeGreaterThan(eighty);
    expect(extraSitesNeeded(input, year, 0.8, { opensInDays: 90 })).toBeGreaterThan(eighty);
    // The count it names does reach the target with that confidence: the same input with that many average sites added.
    const added = Array.from({ length: eighty }, (_, i) => ({ siteId: `new${i}`, enrolled: 0, activeDays: 0, opensInDays: 0 }));
    expect(completionProbability({ ...input, sites: [...input.sites, ...added] }, year)).toBeGreaterThan(0.7);
  });

  it(`not reachable (Infinity) above ${MAX_EXTRA_SITES} sites or when the deadline is before the new sites open`, () => {
    expect(extraSitesNeeded(input, new Date('2026-01-05T00:00:00Z'), 0.8)).toBe(Infinity);
    expect(extraSitesNeeded(input, new Date('2026-03-01T00:00:00Z'), 0.8, { opensInDays: 90 })).toBe(Infinity);
  });
});

describe('a dashboard asks once: forecastByDeadline', () => {
  const asOf = new Date('2026-11-29T17:23:41.512Z');
  const site = (siteId: string, enrolled: number, activeDays: number): SiteRecruitment => ({ siteId, enrolled, activeDays });
  const opensLater = (siteId: string): SiteRecruitment => ({ siteId, enrolled: 0, activeDays: 0, opensInDays: 30 });
  // The numbers the four separate runs gave before they became one call (forecastEnrollment, completionProbability,
  // extraSitesNeeded at 80% and at 95%): [median, 80% low, 80% high, 95% low, 95% high, probability, sites 80%, 95%].
  const cases: Array<[string, SiteRecruitment[], number, number, Array<string | number | null>]> = [
    [
      'pooled, one site opening later',
      [site('a', 6, 180), site('b', 3, 150), site('c', 9, 200), site('d', 1, 90), opensLater('e')],
      120,
      365,
      ['2028-10-10', '2028-04-04', '2029-07-04', '2028-01-18', '2030-01-12', 0.0065, 8, 12],
    ],
    [
      'uneven, a deadline mid-day',
      [site('a', 14, 120), site('b', 0, 110), site('c', 2, 45)],
      40,
      200.37,
      ['2027-05-01', '2027-03-08', '2027-07-27', '2027-02-17', '2027-10-20', 0.76, 1, 6],
    ],
    [
      'two sites (no pooling)',
      [site('a', 4, 60), opensLater('b')],
      30,
      500,
      ['2027-07-25', '2027-03-22', '2028-04-19', '2027-02-17', '2029-01-18', 0.90275, 0, 1],
    ],
    [
      'a deadline before new sites open',
      [site('a', 5, 100), site('b', 7, 100), site('c', 3, 100)],
      25,
      20.5,
      ['2027-02-03', '2027-01-07', '2027-03-19', '2026-12-28', '2027-04-19', 0.00375, Infinity, Infinity],
    ],
    ['no enrollment yet', [site('a', 0, 40), opensLater('b')], 10, 365, ['2028-07-08', '2027-05-17', null, '2027-03-13', null, 0.33175, 4, 6]],
    ['target met', [site('a', 10, 40)], 10, 365, ['2026-11-29', '2026-11-29', '2026-11-29', '2026-11-29', '2026-11-29', 1, 0, 0]],
    ['no site started', [opensLater('a')], 10, 365, [null, null, null, null, null, 0, Infinity, Infinity]],
  ];

  it.each(cases)('%s: the same numbers as the four runs it replaced', (_name, sites, target, deadlineDays, expected) => {
    const input: ForecastInput = { sites, target, asOf };
    const deadline = new Date(asOf.getTime() + deadlineDays * DAY_MS);
    const newSite = { opensInDays: 30 };
    const answer = forecastByDeadline(input, deadline, newSite);
    const { forecast } = answer;
    expect([
      forecast.expectedDate,
      forecast.band80.low,
      forecast.band80.high,
      forecast.band95.low,
      forecast.band95.high,
      answer.probabilityByDeadline,
      answer.extraSites80,
      answer.extraSites95,
    ]).toEqual(expected);
    expect(answer).toEqual({
      forecast: forecastEnrollment(input),
      probabilityByDeadline: completionProbability(input, deadline),
      extraSites80: extraSitesNeeded(input, deadline, 0.8, newSite),
      extraSites95: extraSitesNeeded(input, deadline, 0.95, newSite),
    });
  });
});
