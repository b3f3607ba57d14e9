import { NEVER_A_CONTACT, wasContacted } from '../../../contract/candidate-status';
import type {
  SponsorDashboard,
  SponsorDashboardQuery,
  SponsorDemographics,
  SponsorForecast,
  SponsorFunnel,
  SponsorSite,
  SponsorSiteList,
  SponsorTrial,
  SponsorTrialList,
} from '../../../contract/sponsor-demo';
import type { TrialSite } from '../../../contract/trials';
import type { RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { DEFAULT_HORIZON_DAYS, forecastByDeadline } from '../../forecast/poisson-gamma';
import type { SiteRecruitment } from '../../forecast/types';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { findDemoOrganizationId } from '../../tenancy/organizations';
import * as queries from './queries';
import { isUuid } from '../../../contract/ids';

/**
 * The sponsor demo (decision 069): the demo organization's recruiting trials seen as a sponsor would, site by site.
 * Internal admins only, whatever their active organization: the demo organization is found by its slug (a
 * cross-organization lookup through systemDb), then read under runAsOrganization. Read-only.
 */

const DAY_MS = 86_400_000;
const DAYS_PER_MONTH = 30.4375;
/** A chosen site that has not recruited yet opens this many days after "today" (the demo's activation time). */
export const NEW_SITE_OPENS_IN_DAYS = 30;
/** Weights of the site ranking score. */
export const RANKING_WEIGHTS = { pool: 0.35, speed: 0.2, enrollmentRate: 0.2, diversity: 0.25 } as const;
/** US share of people who are Hispanic or Latino or of a race other than White (Census 2023: 1 - 58.4% non-Hispanic White). */
export const CENSUS_DIVERSITY_SHARE = 0.416;
/**
 * The demo sponsor's diversity goals: minimum shares of the pool, from US Census 2023 estimates (decision 069).
 * `female` and `65 and over` apply when the trial admits them.
 */
export const DIVERSITY_GOALS = {
  ethnicity: { 'Hispanic or Latino': 0.19 },
  race: { 'Black or African American': 0.13, Asian: 0.06, 'American Indian or Alaska Native': 0.01 },
  sex: { Female: 0.5 },
  age: { '65-74': 0.1, '75 and over': 0.07 },
  language: { Spanish: 0.13 },
} as const;

const NOT_IN_POOL = new Set(['do_not_contact', 'prescreen_failed', 'not_interested']);
const PRESCREENED = new Set(['prescreen_passed', 'prescreen_failed', 'visit_scheduled', 'enrolled']);
const PASSED = new Set(['prescreen_passed', 'visit_scheduled', 'enrolled']);
const BOOKED = new Set(['visit_scheduled', 'enrolled']);

function requireAdmin(scope: RequestScope) {
  if (!scope.isAdmin) throw forbidden("The sponsor demo is for Cohortly's internal admins");
}

async function demoOrganization(db: Database): Promise<string> {
  const id = await findDemoOrganizationId(systemDb(db));
  if (!id) throw notFound('The demo organization has not been seeded (npm run seed)');
  return id;
}

const median = (values: number[]): number | null => {
  if (!values.length) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const same = (left: string | null | undefined, right: string | null | undefined) =>
  Boolean(left && right && left.trim().toLowerCase() === right.trim().toLowerCase());

function trialSummary(row: queries.SponsorTrialRow, enrolled: number): SponsorTrial {
  return {
    id: row.id,
    title: row.title,
    publicTitle: row.publicTitle,
    nctId: row.nctId,
    phase: row.phase,
    conditions: row.conditions,
    targetEnrollment: row.targetEnrollment,
    enrolled,
    siteCount: row.sites.length,
  };
}

// ---------- who is where, and how far they got ----------

interface CandidateFacts {
  siteId: string | null;
  inPool: boolean;
  contacted: boolean;
  prescreened: boolean;
  passed: boolean;
  booked: boolean;
  enrolled: boolean;
  linkedAt: Date;
  daysToBooking: number | null;
  row: queries.TrialCandidateRow;
}

/**
 * A candidate's site: the site named in their record (customFields.siteId, as imports and the demo seed set it),
 * else the site of their latest booking for the trial, else the trial site in their city (and state).
 */
function siteOf(row: queries.TrialCandidateRow, sites: TrialSite[], bookedSite: string | undefined): string | null {
  const ids = new Set(sites.map((site) => site.id));
  const named = row.customFields.siteId;
  if (typeof named === 'string' && ids.has(named)) return named;
  if (bookedSite && ids.has(bookedSite)) return bookedSite;
  const local = sites.find((site) => same(site.city, row.city) && (!site.region || !row.region || same(site.region, row.region)));
  return local?.id ?? null;
}

async function trialFacts(tx: Transaction, organizationId: string, trialRow: queries.SponsorTrialRow): Promise<CandidateFacts[]> {
  // One after the other: a transaction's statements run one at a time on its connection anyway (node-postgres
  // deprecates queueing them).
  const candidates = await queries.trialCandidates(tx, organizationId, trialRow.id);
  const prescreens = await queries.trialPrescreens(tx, organizationId, trialRow.id);
  const bookings = await queries.trialBookings(tx, organizationId, trialRow.id);
  const prescreened = new Set(prescreens.map((result) => result.candidateId));
  const passed = new Set(
    prescreens
      .filter((result) => (result.aiRecommendation === 'PASS' || result.aiRecommendation === 'POTENTIAL') && result.reviewStatus !== 'rejected')
      .map((result) => result.candidateId),
  );
  const firstBooking = new Map<string, Date>();
  const latestSite = new Map<string, string>();
  for (const row of bookings) {
    if (row.status === 'cancelled') continue;
    if (!firstBooking.has(row.candidateId)) firstBooking.set(row.candidateId, row.createdAt);
    if (row.siteId) latestSite.set(row.candidateId, row.siteId);
  }
  // A first contact counts only for the days to a booking and for someone at do-not-contact (reached before?): only
  // theirs are read, not every contact event of the trial's candidates (most of the dashboard's query time).
  const contacts = await queries.firstContacts(
    tx,
    organizationId,
    candidates.filter((row) => firstBooking.has(row.id) || row.status === NEVER_A_CONTACT).map((row) => row.id),
  );
  return candidates.map((row) => {
    const bookedAt = firstBooking.get(row.id);
    const contactedAt = contacts.get(row.id);
    const daysToBooking = bookedAt && contactedAt && bookedAt >= contactedAt ? (bookedAt.getTime() - contactedAt.getTime()) / DAY_MS : null;
    return {
      siteId: siteOf(row, trialRow.sites, latestSite.get(row.id)),
      inPool: !row.doNotContact && !NOT_IN_POOL.has(row.status),
      // One definition of contacted for every count (decision 159); first contacts still time the days to a booking.
      contacted: wasContacted(row.status, Boolean(contactedAt)),
      prescreened: prescreened.has(row.id) || PRESCREENED.has(row.status),
      passed: passed.has(row.id) || PASSED.has(row.status),
      booked: Boolean(bookedAt) || BOOKED.has(row.status),
      enrolled: row.status === 'enrolled',
      linkedAt: row.linkedAt,
      daysToBooking,
      row,
    };
  });
}

function funnelOf(facts: CandidateFacts[]): SponsorFunnel {
  const countOf = (test: (fact: CandidateFacts) => boolean) => facts.filter(test).length;
  return {
    candidates: facts.length,
    pool: countOf((fact) => fact.inPool),
    contacted: countOf((fact) => fact.contacted),
    prescreened: countOf((fact) => fact.prescreened),
    passed: countOf((fact) => fact.passed),
    booked: countOf((fact) => fact.booked),
    enrolled: countOf((fact) => fact.enrolled),
  };
}

/** Hispanic or Latino, or a race other than White; null when neither is recorded. */
function underRepresented(row: queries.TrialCandidateRow): boolean | null {
  const ethnicity = typeof row.customFields.ethnicity === 'string' ? row.customFields.ethnicity : null;
  const race = typeof row.customFields.race === 'string' ? row.customFields.race : null;
  if (!ethnicity && !race) return null;
  const hispanic = Boolean(ethnicity && /hispanic|latin/i.test(ethnicity) && !/not\s+hispanic/i.test(ethnicity));
  return hispanic || Boolean(race && !/^white$/i.test(race.trim()));
}

// ---------- sites and their ranking ----------

interface SiteMetrics extends Omit<SponsorSite, 'score' | 'rank' | 'reasons'> {
  facts: CandidateFacts[];
}

function siteMetrics(site: TrialSite, facts: CandidateFacts[], now: Date): SiteMetrics {
  const mine = facts.filter((fact) => fact.siteId === site.id);
  const first = mine.reduce<number | null>(
    (earliest, fact) => (earliest === null || fact.linkedAt.getTime() < earliest ? fact.linkedAt.getTime() : earliest),
    null,
  );
  const activeDays = first === null ? 0 : Math.max(1, Math.ceil((now.getTime() - first) / DAY_MS));
  const funnel = funnelOf(mine);
  const known = mine
    .filter((fact) => fact.inPool)
    .map((fact) => underRepresented(fact.row))
    .filter((value): value is boolean => value !== null);
  const days = median(mine.map((fact) => fact.daysToBooking).filter((value): value is number => value !== null));
  return {
    id: site.id,
    name: site.name,
    city: site.city ?? null,
    region: site.region ?? null,
    isOwnSite: Boolean(site.isOwnSite),
    started: activeDays > 0,
    activeDays,
    funnel,
    medianDaysToBooking: days === null ? null : round(days),
    enrollmentsPerMonth: activeDays > 0 ? round(funnel.enrolled / (activeDays / DAYS_PER_MONTH), 2) : 0,
    diversityShare: known.length ? round(known.filter(Boolean).length / known.length, 3) : null,
    facts: mine,
  };
}

/**
 * The score (0-100): pool size against the largest pool, speed (the fastest median days to a booked visit over
 * this site's), enrollments per month against the best, and diversity against the census share (capped at 1),
 * weighted by RANKING_WEIGHTS.
 */
function rankSites(metrics: SiteMetrics[]): SponsorSite[] {
  const maxPool = Math.max(0, ...metrics.map((site) => site.funnel.pool));
  const fastest = Math.min(Infinity, ...metrics.map((site) => site.medianDaysToBooking ?? Infinity));
  const maxRate = Math.max(0, ...metrics.map((site) => site.enrollmentsPerMonth));
  const scored = metrics.map(({ facts: _facts, ...site }) => {
    const parts = {
      pool: maxPool > 0 ? site.funnel.pool / maxPool : 0,
      speed: site.medianDaysToBooking !== null && Number.isFinite(fastest) ? Math.max(fastest, 0.5) / Math.max(site.medianDaysToBooking, 0.5) : 0,
      enrollmentRate: maxRate > 0 ? site.enrollmentsPerMonth / maxRate : 0,
      diversity: site.diversityShare !== null ? Math.min(1, site.diversityShare / CENSUS_DIVERSITY_SHARE) : 0,
    };
    const score = round(
      100 * (Object.keys(RANKING_WEIGHTS) as Array<keyof typeof RANKING_WEIGHTS>).reduce((sum, key) => sum + RANKING_WEIGHTS[key] * parts[key], 0),
    );
    const reasons: string[] = [];
    if (!site.started) reasons.push('Not started yet: no candidates or track record');
    else {
      if (site.funnel.pool === maxPool && maxPool > 0) reasons.push(`Largest pool (${site.funnel.pool})`);
      else reasons.push(`Pool of ${site.funnel.pool} (${Math.round(parts.pool * 100)}% of the largest)`);
      if (site.medianDaysToBooking === null) reasons.push('No booked visit yet');
      else if (site.medianDaysToBooking === fastest) reasons.push(`Fastest to a booked visit (median ${site.medianDaysToBooking} days)`);
      else reasons.push(`Median ${site.medianDaysToBooking} days to a booked visit`);
      if (site.enrollmentsPerMonth === maxRate && maxRate > 0) reasons.push(`Most enrollments a month (${site.enrollmentsPerMonth})`);
      else reasons.push(`${site.enrollmentsPerMonth} enrollments a month`);
      if (site.diversityShare !== null) {
        const share = Math.round(site.diversityShare * 100);
        reasons.push(`${share}% of the pool from under-represented groups (US ${Math.round(CENSUS_DIVERSITY_SHARE * 100)}%)`);
      }
    }
    return { ...site, score, rank: 0, reasons };
  });
  const order = [...scored].sort((left, right) => right.score - left.score || right.funnel.pool - left.funnel.pool || left.name.localeCompare(right.name));
  for (const [index, site] of order.entries()) site.rank = index + 1;
  return order;
}

// ---------- forecast and demographics ----------

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const finiteOrNull = (value: number) => (Number.isFinite(value) ? value : null);

function forecastFor(sites: SponsorSite[], target: number | null, now: Date, deadline: Date): SponsorForecast {
  const input: SiteRecruitment[] = sites.map((site) =>
    site.started
      ? { siteId: site.id, enrolled: site.funnel.enrolled, activeDays: site.activeDays }
      : { siteId: site.id, enrolled: 0, activeDays: 0, opensInDays: NEW_SITE_OPENS_IN_DAYS },
  );
  const enrolled = sites.reduce((sum, site) => sum + site.funnel.enrolled, 0);
  const deadlineDays = (deadline.getTime() - now.getTime()) / DAY_MS;
  const base = {
    asOf: isoDay(now),
    enrolled,
    target,
    horizonDays: DEFAULT_HORIZON_DAYS,
    newSiteOpensInDays: NEW_SITE_OPENS_IN_DAYS,
    deadline: isoDay(deadline),
  };
  if (target === null || target <= 0) {
    return {
      ...base,
      status: 'no-target',
      expectedDate: null,
      band80: { low: null, high: null },
      band95: { low: null, high: null },
      probabilityByDeadline: 0,
      extraSites80: null,
      extraSites95: null,
      sites: [],
    };
  }
  // One call: the prior fitted once and one extra-sites simulation for both confidences (decision 186).
  const { forecast, probabilityByDeadline, extraSites80, extraSites95 } = forecastByDeadline({ sites: input, target, asOf: now }, deadline, {
    opensInDays: NEW_SITE_OPENS_IN_DAYS,
  });
  const rates = new Map(forecast.siteRates.map((rate) => [rate.siteId, rate]));
  return {
    ...base,
    status: forecast.status ?? 'ok',
    expectedDate: forecast.expectedDate,
    band80: forecast.band80,
    band95: forecast.band95,
    probabilityByDeadline: round(probabilityByDeadline, 3),
    extraSites80: finiteOrNull(extraSites80),
    extraSites95: finiteOrNull(extraSites95),
    sites: sites.map((site) => {
      const rate = rates.get(site.id);
      const ratePerDay = rate?.ratePerDay ?? 0;
      const openDays = Math.max(0, deadlineDays - (site.started ? 0 : NEW_SITE_OPENS_IN_DAYS));
      return {
        siteId: site.id,
        enrolled: site.funnel.enrolled,
        started: site.started,
        ratePerMonth: round(ratePerDay * DAYS_PER_MONTH, 2),
        ratePerMonthLow: rate?.ratePerDayLow === undefined ? null : round(rate.ratePerDayLow * DAYS_PER_MONTH, 2),
        ratePerMonthHigh: rate?.ratePerDayHigh === undefined ? null : round(rate.ratePerDayHigh * DAYS_PER_MONTH, 2),
        expectedByDeadline: round(site.funnel.enrolled + ratePerDay * openDays, 1),
      };
    }),
  };
}

const LANGUAGES: Record<string, string> = {
  en: 'English',
  es: 'Spanish',
  zh: 'Chinese',
  vi: 'Vietnamese',
  fr: 'French',
  ar: 'Arabic',
  ko: 'Korean',
  ru: 'Russian',
  pt: 'Portuguese',
};
const AGE_BANDS = ['Under 18', '18-34', '35-49', '50-64', '65-74', '75 and over'] as const;

function ageBand(dateOfBirth: string | null, now: Date): string | null {
  if (!dateOfBirth) return null;
  const born = new Date(`${dateOfBirth}T00:00:00Z`);
  if (Number.isNaN(born.getTime())) return null;
  let age = now.getUTCFullYear() - born.getUTCFullYear();
  if (now.getUTCMonth() < born.getUTCMonth() || (now.getUTCMonth() === born.getUTCMonth() && now.getUTCDate() < born.getUTCDate())) age--;
  if (age < 18) return AGE_BANDS[0];
  if (age < 35) return AGE_BANDS[1];
  if (age < 50) return AGE_BANDS[2];
  if (age < 65) return AGE_BANDS[3];
  if (age < 75) return AGE_BANDS[4];
  return AGE_BANDS[5];
}

function demographicsOf(facts: CandidateFacts[], trialRow: queries.SponsorTrialRow, now: Date): SponsorDemographics {
  const pool = facts.filter((fact) => fact.inPool).map((fact) => fact.row);
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const readers: Record<SponsorDemographics[number]['dimension'], (row: queries.TrialCandidateRow) => string | null> = {
    age: (row) => ageBand(row.dateOfBirth, now),
    sex: (row) => (row.sex === 'female' ? 'Female' : row.sex === 'male' ? 'Male' : row.sex === 'other' ? 'Other' : null),
    ethnicity: (row) => text(row.customFields.ethnicity),
    race: (row) => text(row.customFields.race),
    language: (row) => LANGUAGES[row.preferredLanguage] ?? row.preferredLanguage.toUpperCase(),
  };
  const goalsFor = (dimension: keyof typeof DIVERSITY_GOALS): Record<string, number> => {
    if (dimension === 'sex' && trialRow.sex !== 'all') return {};
    if (dimension === 'age' && trialRow.maximumAgeYears !== null && trialRow.maximumAgeYears < 70) return {};
    return DIVERSITY_GOALS[dimension];
  };
  return (Object.keys(readers) as Array<keyof typeof readers>).map((dimension) => {
    const counts = new Map<string, number>();
    for (const row of pool) {
      const value = readers[dimension](row);
      if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const goals = goalsFor(dimension);
    for (const value of Object.keys(goals)) if (!counts.has(value)) counts.set(value, 0);
    const known = [...counts.values()].reduce((sum, value) => sum + value, 0);
    const order = dimension === 'age' ? (value: string) => AGE_BANDS.indexOf(value as (typeof AGE_BANDS)[number]) : null;
    const rows = [...counts.entries()]
      .map(([value, count]) => ({ value, count, share: known ? round(count / known, 3) : 0, goal: goals[value] ?? null }))
      .sort((left, right) => (order ? order(left.value) - order(right.value) : right.count - left.count || left.value.localeCompare(right.value)));
    return { dimension, known, rows };
  });
}

// ---------- the endpoints ----------

export async function listTrials(db: Database, scope: RequestScope): Promise<SponsorTrialList> {
  requireAdmin(scope);
  const organizationId = await demoOrganization(db);
  return runAsOrganization(db, organizationId, async (tx) => {
    const rows = await queries.findRecruitingTrials(tx, organizationId);
    const enrolled = await queries.enrolledByTrial(
      tx,
      organizationId,
      rows.map((row) => row.id),
    );
    return { organizationId, trials: rows.map((row) => trialSummary(row, enrolled.get(row.id) ?? 0)) };
  });
}

async function loadTrial(tx: Transaction, organizationId: string, trialId: string) {
  const row = isUuid(trialId) ? await queries.findTrial(tx, organizationId, trialId) : undefined;
  if (!row) throw notFound('Trial not found');
  return row;
}

async function rankedSites(tx: Transaction, organizationId: string, trialRow: queries.SponsorTrialRow, now: Date) {
  const facts = await trialFacts(tx, organizationId, trialRow);
  const metrics = trialRow.sites.map((site) => siteMetrics(site, facts, now));
  return { facts, metrics, sites: rankSites(metrics) };
}

export async function listSites(db: Database, scope: RequestScope, trialId: string, now = new Date()): Promise<SponsorSiteList> {
  requireAdmin(scope);
  const organizationId = await demoOrganization(db);
  return runAsOrganization(db, organizationId, async (tx) => {
    const trialRow = await loadTrial(tx, organizationId, trialId);
    const { facts, sites } = await rankedSites(tx, organizationId, trialRow, now);
    return {
      trial: trialSummary(trialRow, facts.filter((fact) => fact.enrolled).length),
      sites,
      ranking: { ...RANKING_WEIGHTS, censusDiversityShare: CENSUS_DIVERSITY_SHARE },
    };
  });
}

export async function dashboard(
  db: Database,
  scope: RequestScope,
  trialId: string,
  query: { siteIds?: string[]; deadline?: SponsorDashboardQuery['deadline'] },
  now = new Date(),
): Promise<SponsorDashboard> {
  requireAdmin(scope);
  const organizationId = await demoOrganization(db);
  const deadline = query.deadline ? new Date(`${query.deadline}T00:00:00Z`) : new Date(now.getTime() + 365 * DAY_MS);
  return runAsOrganization(db, organizationId, async (tx) => {
    const trialRow = await loadTrial(tx, organizationId, trialId);
    const known = new Set(trialRow.sites.map((site) => site.id));
    const unknown = (query.siteIds ?? []).filter((id) => !known.has(id));
    if (unknown.length) throw badRequest(`Not a site of this trial: ${unknown.join(', ')}`);
    const { facts, metrics, sites } = await rankedSites(tx, organizationId, trialRow, now);
    const chosenIds = new Set(query.siteIds?.length ? query.siteIds : trialRow.sites.map((site) => site.id));
    const chosen = sites.filter((site) => chosenIds.has(site.id));
    const chosenFacts = metrics.filter((site) => chosenIds.has(site.id)).flatMap((site) => site.facts);
    const days = median(chosenFacts.map((fact) => fact.daysToBooking).filter((value): value is number => value !== null));
    return {
      trial: trialSummary(trialRow, facts.filter((fact) => fact.enrolled).length),
      sites: chosen,
      totals: funnelOf(chosenFacts),
      medianDaysToBooking: days === null ? null : round(days),
      forecast: forecastFor(chosen, trialRow.targetEnrollment, now, deadline),
      demographics: demographicsOf(chosenFacts, trialRow, now),
    };
  });
}
