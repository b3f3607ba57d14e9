import { ACTIVITY_KINDS, ACTIVITY_SOURCES } from '../../../contract/activity';
import type {
  Costs,
  DashboardBucket,
  CustomerOverview,
  DashboardFilters,
  DashboardQuery,
  DashboardTab,
  DashboardTabData,
  DropOffReason,
  FunnelBreakdown,
  FunnelStage,
  MatcherDashboard,
  PrescreenAnalytics,
  Satisfaction,
  StageCounts,
  TrialLifecycle,
} from '../../../contract/dashboard';
import { DROP_OFF_REASONS, FUNNEL_STAGES } from '../../../contract/dashboard';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { NO_TRIAL } from '../../db/schema';
import type { Transaction } from '../../db/scoped';
import { forbidden } from '../../http/errors';
import { lastSignInByOrganization, organizationNames } from '../../tenancy/users';
import { forecastEnrollment } from '../../forecast/poisson-gamma';
import { matcherDashboard } from '../matching/matcher';
import { failingCriteria } from '../prescreen/service';
import { listSatisfactionComments } from '../satisfaction/service';
import * as q from './queries';
import { addDays, bucketFor, dayOf, rangeDays, resolveRange, startOfDay } from './range';

/**
 * The admin dashboard's seven tabs (decision 032), read from the activity model (decision 031) through the
 * request scope: a site user sees their organization; a global admin the organizations they name, or the
 * default selection (no demo/test/cohortly).
 */

interface Context {
  filter: q.DashboardFilter;
  filters: DashboardFilters;
  now: Date;
}

function contextOf(scope: RequestScope, query: DashboardQuery, now: Date): Context {
  const range = resolveRange(query, now);
  const organizationIds = selectOrganizations(scope, query.orgs);
  return {
    filter: { organizationIds, range, source: query.source },
    filters: { from: range.from, to: range.to, preset: range.preset, source: query.source ?? null, organizationIds },
    now,
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);
const money = (value: number) => Math.round(value * 100) / 100;

// funnel-breakdown

/** Which rollup rows count for each stage: a kind, and a label when the kind alone does not say. */
const STAGE_EVENTS: Record<FunnelStage, { kind: string; label?: string }> = {
  created: { kind: 'candidate_created' },
  contacted: { kind: 'status_changed', label: 'contacted' },
  prescreened: { kind: 'prescreen_result' },
  passed: { kind: 'prescreen_result', label: 'PASS' },
  booked: { kind: 'visit_booked' },
  attended: { kind: 'visit_attended' },
  enrolled: { kind: 'status_changed', label: 'enrolled' },
};
const DROP_OFF_EVENTS: Record<DropOffReason, { kind: string; label?: string }> = {
  not_interested: { kind: 'status_changed', label: 'not_interested' },
  unreachable: { kind: 'status_changed', label: 'unreachable' },
  prescreen_failed: { kind: 'status_changed', label: 'prescreen_failed' },
  opted_out: { kind: 'opted_out' },
  no_show: { kind: 'visit_no_show' },
  do_not_contact: { kind: 'status_changed', label: 'do_not_contact' },
};
const matches = (row: q.RollupRow, rule: { kind: string; label?: string }) => row.kind === rule.kind && (rule.label === undefined || row.label === rule.label);

const emptyStages = (): StageCounts => Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, 0])) as StageCounts;

async function funnel(tx: Transaction, ctx: Context): Promise<FunnelBreakdown> {
  const kinds = ['candidate_created', 'status_changed', 'prescreen_result', 'visit_booked', 'visit_attended', 'visit_no_show', 'opted_out'] as const;
  // Two groupings in one read: by trial (rows with a trial_id) and by source (rows with a source).
  const rows = await q.rollupGroupingSets(tx, ctx.filter, kinds, [
    ['trial_id', 'kind', 'label'],
    ['source', 'kind', 'label'],
  ]);
  // One pass: each row adds to the stages and drop-off reasons it belongs to, by trial or by source; the totals and
  // drop-offs from the by-trial rows (each event is in exactly one of them).
  const totals = emptyStages();
  const byTrialCounts = new Map<string, StageCounts>();
  const bySourceCounts = new Map<string, StageCounts>();
  const dropCounts = new Map<DropOffReason, number>(DROP_OFF_REASONS.map((reason) => [reason, 0]));
  for (const row of rows) {
    const byTrial = row.trial_id != null;
    const counts = byTrial ? byTrialCounts : bySourceCounts;
    const key = (byTrial ? row.trial_id : row.source)!;
    for (const stage of FUNNEL_STAGES) {
      if (!matches(row, STAGE_EVENTS[stage])) continue;
      if (byTrial) totals[stage] += row.count;
      const entry = counts.get(key) ?? emptyStages();
      entry[stage] += row.count;
      counts.set(key, entry);
    }
    if (byTrial) for (const reason of DROP_OFF_REASONS) if (matches(row, DROP_OFF_EVENTS[reason])) dropCounts.set(reason, dropCounts.get(reason)! + row.count);
  }
  const stages = FUNNEL_STAGES.map((stage, index) => ({
    stage,
    count: totals[stage],
    conversion: index === 0 ? null : ratio(totals[stage], totals[FUNNEL_STAGES[index - 1]]),
  }));
  const titles = await q.trialTitles(
    tx,
    [...byTrialCounts.keys()].filter((id) => id !== NO_TRIAL),
  );
  const byTrial = [...byTrialCounts.entries()]
    .map(([trialId, counts]) => ({
      trialId: trialId === NO_TRIAL ? null : trialId,
      trialTitle: trialId === NO_TRIAL ? null : (titles.get(trialId) ?? null),
      counts,
    }))
    .sort(
      (a, b) =>
        b.counts.created - a.counts.created ||
        b.counts.contacted - a.counts.contacted ||
        b.counts.prescreened - a.counts.prescreened ||
        (a.trialTitle ?? '~').localeCompare(b.trialTitle ?? '~'),
    );
  const bySource = ACTIVITY_SOURCES.filter((source) => bySourceCounts.has(source)).map((source) => ({ source, counts: bySourceCounts.get(source)! }));
  const dropOff = DROP_OFF_REASONS.map((reason) => ({ reason, count: dropCounts.get(reason)! }));
  return { filters: ctx.filters, stages, byTrial, bySource, dropOff };
}

// prescreen-analytics

const RECOMMENDATIONS = ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'] as const;

/** The over-time charts' bucket from the range's length ("all": from the organizations' first activity), decision 044. */
async function bucketOf(tx: Transaction, ctx: Context): Promise<DashboardBucket> {
  const earliest = ctx.filter.range.from ? null : await q.firstActivityDay(tx, ctx.filter.organizationIds);
  return bucketFor(rangeDays(ctx.filter.range, earliest));
}

/**
 * A percentile of a histogram (decision 094), interpolated linearly within the bucket it falls in (as for grouped
 * data); in the open last bucket, that bucket's lower bound. Null when the histogram is empty.
 */
export function histogramPercentile(buckets: readonly q.HistogramBucket[], p: number): number | null {
  const total = buckets.reduce((sum, row) => sum + row.count, 0);
  if (!total) return null;
  const rank = p * total;
  let before = 0;
  for (const row of [...buckets].sort((a, b) => a.bucket - b.bucket)) {
    if (before + row.count >= rank) return row.end === null ? row.bucket : row.bucket + ((rank - before) / row.count) * (row.end - row.bucket);
    before += row.count;
  }
  return buckets[buckets.length - 1].bucket;
}

async function prescreenAnalytics(tx: Transaction, ctx: Context): Promise<PrescreenAnalytics> {
  const bucket = await bucketOf(tx, ctx);
  const results = await q.rollup(tx, ctx.filter, ['prescreen_result'], [bucket, 'label']);
  const periods = new Map<string, PrescreenAnalytics['overTime'][number]>();
  const totals = { results: 0, PASS: 0, FAIL: 0, INCONCLUSIVE: 0, POTENTIAL: 0 };
  let valueSum = 0;
  let valueCount = 0;
  for (const row of results) {
    const period = row.period!;
    const entry = periods.get(period) ?? { period, PASS: 0, FAIL: 0, INCONCLUSIVE: 0, POTENTIAL: 0 };
    const label = row.label as (typeof RECOMMENDATIONS)[number];
    if (RECOMMENDATIONS.includes(label)) {
      entry[label] += row.count;
      totals[label] += row.count;
    }
    totals.results += row.count;
    valueSum += row.value_sum;
    valueCount += row.value_count;
    periods.set(period, entry);
  }
  const median = valueCount ? histogramPercentile(await q.timeToResultHistogram(tx, ctx.filter), 0.5) : null;
  const sourceType = ctx.filter.source === 'call' || ctx.filter.source === 'chat' || ctx.filter.source === 'manual' ? ctx.filter.source : undefined;
  const noPrescreenSource = ctx.filter.source !== undefined && sourceType === undefined;
  const { range } = ctx.filter;
  const failing = noPrescreenSource
    ? []
    : await failingCriteria(tx, {
        organizationIds: ctx.filter.organizationIds,
        from: range.from ? startOfDay(range.from) : null,
        to: startOfDay(addDays(range.to, 1)),
        sourceType,
        limit: 10,
      });
  const decisions = await q.rollup(tx, ctx.filter, ['review_decision'], ['label']);
  const agree = decisions.filter((row) => row.label === 'agree').reduce((sum, row) => sum + row.count, 0);
  const override = decisions.filter((row) => row.label === 'override').reduce((sum, row) => sum + row.count, 0);
  return {
    filters: ctx.filters,
    bucket,
    overTime: [...periods.values()].sort((a, b) => a.period.localeCompare(b.period)),
    totals,
    hoursToResult: {
      average: valueCount ? Math.round((valueSum / valueCount) * 10) / 10 : null,
      median: median === null ? null : Math.round(median * 10) / 10,
      measured: valueCount,
    },
    failingCriteria: failing,
    review: {
      decisions: agree + override,
      agree,
      override,
      agreementRate: percent(agree, agree + override),
      overrideRate: percent(override, agree + override),
    },
  };
}

// patient-satisfaction

function ratingSummary(rows: Array<{ rating: number; count: number }>) {
  const ratings = rows.reduce((sum, row) => sum + row.count, 0);
  const happy = rows.filter((row) => row.rating >= 4).reduce((sum, row) => sum + row.count, 0);
  const total = rows.reduce((sum, row) => sum + row.rating * row.count, 0);
  return { ratings, csat: percent(happy, ratings), average: ratings ? Math.round((total / ratings) * 100) / 100 : null };
}

async function satisfaction(tx: Transaction, ctx: Context): Promise<Omit<Satisfaction, 'comments'>> {
  const rows = (await q.ratings(tx, ctx.filter)).filter((row) => row.rating >= 1 && row.rating <= 5);
  const agentIds = [...new Set(rows.map((row) => row.agent_id).filter((id): id is string => Boolean(id)))];
  const names = await q.agentNames(tx, agentIds);
  const byChannel = ACTIVITY_SOURCES.map((source) => ({ source, ...ratingSummary(rows.filter((row) => row.source === source)) })).filter(
    (entry) => entry.ratings > 0,
  );
  const agents = [...new Set(rows.map((row) => row.agent_id))];
  const byAgent = agents
    .map((agentId) => ({ agentId, agentName: agentId ? (names.get(agentId) ?? null) : null, ...ratingSummary(rows.filter((row) => row.agent_id === agentId)) }))
    .sort((a, b) => b.ratings - a.ratings);
  return {
    filters: ctx.filters,
    ...ratingSummary(rows),
    distribution: [1, 2, 3, 4, 5].map((rating) => ({ rating, count: rows.filter((row) => row.rating === rating).reduce((sum, row) => sum + row.count, 0) })),
    byChannel,
    byAgent,
  };
}

// trial-lifecycle

/** Recent comments shown on the satisfaction tab. */
const COMMENTS_SHOWN = 10;

const DAY_MS = 86_400_000;

/** Days in each status from the trial's history (created as draft; the current status runs until now). */
export function daysInStatus(createdAt: Date, history: Array<{ from: string | null; to: string; at: string }>, current: string, now: Date) {
  const spans = new Map<string, number>();
  const changes = [...history].sort((a, b) => a.at.localeCompare(b.at));
  let status = changes[0]?.from ?? (changes.length ? 'draft' : current);
  let since = createdAt.getTime();
  for (const change of changes) {
    const at = Date.parse(change.at);
    spans.set(status, (spans.get(status) ?? 0) + Math.max(0, at - since));
    status = change.to;
    since = at;
  }
  spans.set(status, (spans.get(status) ?? 0) + Math.max(0, now.getTime() - since));
  return [...spans.entries()].map(([name, ms]) => ({ status: name, days: Math.round((ms / DAY_MS) * 10) / 10 }));
}

/**
 * The projected date a recruiting trial reaches its target (decision 034's model). Enrollments are not recorded by
 * site, so the trial's sites are pooled as one: its enrollments over its days recruiting.
 */
function forecastOf(row: q.LifecycleTrialRow, enrolled: number, recruitingDays: number, now: Date): TrialLifecycle['trials'][number]['forecast'] {
  if (row.status !== 'recruiting' || !row.target_enrollment) return null;
  const forecast = forecastEnrollment({
    sites: [{ siteId: row.id, enrolled, activeDays: Math.floor(recruitingDays) }],
    target: row.target_enrollment,
    asOf: now,
    draws: 1000,
  });
  return {
    status: forecast.status ?? (forecast.expectedDate ? 'ok' : 'no-data'),
    expectedDate: forecast.expectedDate,
    band80: forecast.band80,
    band95: forecast.band95,
  };
}

async function trialLifecycle(tx: Transaction, ctx: Context): Promise<TrialLifecycle> {
  const trials = await q.lifecycleTrials(tx, ctx.filter.organizationIds, 100);
  const bucket = await bucketOf(tx, ctx);
  const inRange = await q.rollup(tx, ctx.filter, ['status_changed'], ['trial_id', bucket], ['enrolled']);
  const allTime = await q.rollup(tx, { ...ctx.filter, range: { ...ctx.filter.range, from: null } }, ['status_changed'], ['trial_id'], ['enrolled']);
  const periods = new Map<string, Map<string, number>>();
  for (const row of inRange) {
    const trial = periods.get(row.trial_id!) ?? new Map<string, number>();
    trial.set(row.period!, (trial.get(row.period!) ?? 0) + row.count);
    periods.set(row.trial_id!, trial);
  }
  const totals = new Map<string, number>();
  for (const row of allTime) totals.set(row.trial_id!, (totals.get(row.trial_id!) ?? 0) + row.count);
  return {
    filters: ctx.filters,
    bucket,
    trials: trials.map((row) => {
      let cumulative = 0;
      const enrollment = [...(periods.get(row.id) ?? new Map<string, number>()).entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([period, count]) => ({ period, enrolled: count, cumulative: (cumulative += count) }));
      const spans = daysInStatus(new Date(row.created_at), row.status_history ?? [], row.status, ctx.now);
      const enrolledTotal = totals.get(row.id) ?? 0;
      return {
        trialId: row.id,
        organizationId: row.organization_id,
        title: row.title,
        status: row.status,
        targetEnrollment: row.target_enrollment,
        daysInStatus: spans,
        enrolledInRange: cumulative,
        enrolledTotal,
        enrollment,
        forecast: forecastOf(row, enrolledTotal, spans.find((span) => span.status === 'recruiting')?.days ?? 0, ctx.now),
      };
    }),
  };
}

// trial-matcher

async function trialMatcher(tx: Transaction, ctx: Context): Promise<MatcherDashboard> {
  const { trials, topGaps } = await matcherDashboard(tx, ctx.filter.organizationIds);
  const totals = trials.reduce(
    (sum, row) => ({ found: sum.found + row.found, contacted: sum.contacted + row.contacted, converted: sum.converted + row.converted }),
    { found: 0, contacted: 0, converted: 0 },
  );
  return { filters: ctx.filters, totals, trials, topGaps };
}

// costs

async function costs(tx: Transaction, ctx: Context): Promise<Costs> {
  const bucket = await bucketOf(tx, ctx);
  const spend = await q.rollup(tx, ctx.filter, ['spend'], ['source', 'label']);
  const spendByPeriod = await q.rollup(tx, ctx.filter, ['spend'], [bucket]);
  const units = await q.rollup(tx, ctx.filter, ['prescreen_result', 'visit_booked', 'status_changed'], ['kind', 'label']);
  const total = spend.reduce((sum, row) => sum + row.value_sum, 0);
  const countOf = (kind: string, label?: string) =>
    units.filter((row) => row.kind === kind && (label === undefined || row.label === label)).reduce((sum, row) => sum + row.count, 0);
  const unit = (name: Costs['unitCosts'][number]['unit'], count: number) => ({ unit: name, count, cost: count ? money(total / count) : null });
  return {
    filters: ctx.filters,
    total: money(total),
    byChannel: spend
      .map((row) => ({ source: row.source!, label: row.label!, amount: money(row.value_sum) }))
      .sort((a, b) => b.amount - a.amount || a.source.localeCompare(b.source) || a.label.localeCompare(b.label)),
    bucket,
    overTime: spendByPeriod.map((row) => ({ period: row.period!, amount: money(row.value_sum) })).sort((a, b) => a.period.localeCompare(b.period)),
    unitCosts: [
      unit('prescreen', countOf('prescreen_result')),
      unit('pass', countOf('prescreen_result', 'PASS')),
      unit('booked_visit', countOf('visit_booked')),
      unit('enrolled', countOf('status_changed', 'enrolled')),
    ],
  };
}

// customer-overview

const OPT_OUT_FLAG_PERCENT = 5;
const QUIET_DAYS = 14;

async function customerOverview(tx: Transaction, scope: RequestScope, ctx: Context): Promise<CustomerOverview> {
  if (!scope.global) throw forbidden('Only Cohortly admins see the customer overview');
  const ids = ctx.filter.organizationIds;
  const names = await organizationNames(tx, ids);
  // Every kind named, so the read stays on the rollup's (organization, kind, day) index.
  const rows = await q.rollup(tx, ctx.filter, ACTIVITY_KINDS, ['organization_id', 'kind', 'label']);
  const recruiting = await q.recruitingTrialCounts(tx, ids);
  const lastDays = await q.lastActivityDays(tx, ids);
  const signIns = await lastSignInByOrganization(tx, ids);
  const quietBefore = addDays(dayOf(ctx.now), -QUIET_DAYS);
  const byOrganization = new Map<string, q.RollupRow[]>();
  for (const row of rows) {
    const list = byOrganization.get(row.organization_id!) ?? [];
    list.push(row);
    byOrganization.set(row.organization_id!, list);
  }
  return {
    filters: ctx.filters,
    organizations: ids
      .map((organizationId) => {
        const mine = byOrganization.get(organizationId) ?? [];
        const sum = (kind: string, label?: string) =>
          mine.filter((row) => row.kind === kind && (label === undefined || row.label === label)).reduce((total, row) => total + row.count, 0);
        const contacted = sum('status_changed', 'contacted');
        const optOutRate = percent(sum('opted_out'), contacted);
        const lastActivityDay = lastDays.get(organizationId) ?? null;
        const flags: CustomerOverview['organizations'][number]['flags'] = [];
        if (!lastActivityDay || lastActivityDay < quietBefore) flags.push('no_recent_activity');
        if (optOutRate !== null && optOutRate > OPT_OUT_FLAG_PERCENT) flags.push('high_opt_out');
        return {
          organizationId,
          name: names.get(organizationId) ?? organizationId,
          events: mine.reduce((total, row) => total + row.count, 0),
          candidatesCreated: sum('candidate_created'),
          enrolled: sum('status_changed', 'enrolled'),
          spend: money(mine.filter((row) => row.kind === 'spend').reduce((total, row) => total + row.value_sum, 0)),
          recruitingTrials: recruiting.get(organizationId) ?? 0,
          lastActivityDay,
          lastSignInAt: signIns.get(organizationId)?.toISOString() ?? null,
          optOutRate,
          flags,
        };
      })
      .sort((a, b) => b.events - a.events || a.name.localeCompare(b.name)),
  };
}

/** One tab's numbers. */
export async function tab<T extends DashboardTab>(
  db: Database,
  scope: RequestScope,
  name: T,
  query: DashboardQuery,
  now: Date = new Date(),
): Promise<DashboardTabData[T]> {
  const ctx = contextOf(scope, query, now);
  if (name === 'customer-overview' && !scope.global) throw forbidden('Only Cohortly admins see the customer overview');
  return runScoped(db, scope, async (tx): Promise<DashboardTabData[DashboardTab]> => {
    await q.allowLargeAggregates(tx);
    switch (name) {
      case 'funnel-breakdown':
        return funnel(tx, ctx);
      case 'prescreen-analytics':
        return prescreenAnalytics(tx, ctx);
      case 'patient-satisfaction':
        return { ...(await satisfaction(tx, ctx)), comments: [] };
      case 'trial-lifecycle':
        return trialLifecycle(tx, ctx);
      case 'trial-matcher':
        return trialMatcher(tx, ctx);
      case 'costs':
        return costs(tx, ctx);
      case 'customer-overview':
        return customerOverview(tx, scope, ctx);
    }
    throw new Error(`unknown tab ${String(name)}`);
  }).then(async (data) => {
    if (name !== 'patient-satisfaction') return data;
    // The comments come from the satisfaction feature's own service (its own scoped read).
    const { range, source, organizationIds } = ctx.filter;
    const { items } = await listSatisfactionComments(db, scope, {
      organizationIds: [...organizationIds],
      from: range.from ? startOfDay(range.from) : undefined,
      to: startOfDay(addDays(range.to, 1)),
      source,
      limit: COMMENTS_SHOWN,
    });
    return { ...data, comments: organizationIds.length ? items : [] };
  }) as Promise<DashboardTabData[T]>;
}
