import { sql, type SQL } from 'drizzle-orm';
import { uuidArray } from '../../db/postgres';
import { LEAN_MONTHLY_ROLLUPS, type LeanMonthlyRollup, TIME_TO_RESULT_KIND } from '../../activity';
import type { ActivityKind, ActivitySource } from '../../../contract/activity';
import type { DashboardBucket } from '../../../contract/dashboard';
import type { TrialStatusChange } from '../../../contract/trials';
import { shortTrialTitle } from '../../../contract/trial-name';
import {
  activityDaily,
  activityEvent,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  chatAgent,
  timeToResultMonthly,
  timeToResultTotal,
  trial,
  voiceAgent,
} from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { addDays, type DayRange, type DaySpan, dayOf, splitRange, startOfDay } from './range';

/**
 * The dashboard's SQL (decisions 032, 041, 044, 078, 082, 094). Counts and sums come from the rollups (`activity_total` for
 * "all", `activity_monthly` for a range's whole months and month buckets, `activity_daily` for its edge days and for
 * day and week buckets, or `activity_kind_daily` when the read needs no trial or source); the raw `activity_event` is read
 * only for what a rollup cannot answer (ratings by agent; a median's edge days, bucketed: decision 094), always within the range and the
 * organizations, as index-only scans of the (organization, kind, time) index that includes value, source and agent.
 */

export interface DashboardFilter {
  organizationIds: readonly string[];
  range: DayRange;
  source?: ActivitySource;
}

/** The rollup's dimensions a query may group by; a bucket (day, week, month) comes back as `period`, its first day. */
export type RollupDimension = 'organization_id' | 'trial_id' | 'kind' | 'source' | 'label' | DashboardBucket;

export interface RollupRow {
  organization_id?: string;
  /** The first day of the row's day, week or month (YYYY-MM-DD), when grouped by a bucket. */
  period?: string;
  trial_id?: string;
  kind?: ActivityKind;
  source?: ActivitySource;
  label?: string;
  count: number;
  value_sum: number;
  value_count: number;
}

const BUCKETS: readonly RollupDimension[] = ['day', 'week', 'month'];
const isBucket = (dimension: RollupDimension): dimension is DashboardBucket => BUCKETS.includes(dimension);

/** Organization ids as one array parameter (they are uuids from the scope, never user text). */
const kindArray = (kinds: readonly string[]) => sql`${`{${kinds.join(',')}}`}::text[]`;

/** The filters both rollups share (organizations, kinds, labels, source), on a rollup table's alias `r`. */
function keyWhere(filter: DashboardFilter, kinds?: readonly ActivityKind[], labels?: readonly string[]): SQL {
  const parts: SQL[] = [sql`r.organization_id = any(${uuidArray(filter.organizationIds)})`];
  if (kinds) parts.push(sql`r.kind = any(${kindArray(kinds)})`);
  if (labels) parts.push(sql`r.label = any(${kindArray(labels)})`);
  if (filter.source) parts.push(sql`r.source = ${filter.source}`);
  return sql.join(parts, sql` and `);
}

/**
 * The lean monthly rollup (decision 078) that holds exactly the rows a read asks for: its kind (and its one label,
 * or labels it keys by), grouped and filtered only by keys it has. With the `where` to read it by (its kind and label
 * are implied by the table).
 */
export function leanRollupFor(
  filter: DashboardFilter,
  kinds: readonly ActivityKind[] | undefined,
  plainColumns: readonly string[],
  labels: readonly string[] | undefined,
): { rollup: LeanMonthlyRollup; where: SQL } | undefined {
  const rollup = LEAN_MONTHLY_ROLLUPS.find((candidate) => {
    const has = (column: string) => column === 'organization_id' || (candidate.keys as readonly string[]).includes(column);
    const labelFits =
      candidate.label === undefined ? labels === undefined || has('label') : labels !== undefined && labels.every((label) => label === candidate.label);
    return (
      kinds?.length === 1 &&
      kinds[0] === candidate.kind &&
      labelFits &&
      plainColumns.every((column) => has(column.replace(/^r\./, ''))) &&
      (filter.source === undefined || has('source'))
    );
  });
  // The table implies the kind (and its one label): filter by organization, the labels it keys by, and the source.
  return rollup && { rollup, where: keyWhere(filter, undefined, rollup.label === undefined ? labels : undefined) };
}

/** The key columns of `activity_kind_daily` (decision 082): organization, kind and label (and the day). */
const KIND_DAILY_COLUMNS: readonly string[] = ['organization_id', 'kind', 'label'];

/**
 * Whether a read's days can come from `activity_kind_daily` instead of `activity_daily` (decision 082): it filters by
 * no source and groups by no trial or source (`plainColumns`, the non-bucket ones). It then reads one row per
 * organization, kind, day and label instead of one per trial and source too.
 */
export function kindDailyFits(filter: DashboardFilter, plainColumns: readonly string[]): boolean {
  return filter.source === undefined && plainColumns.every((column) => KIND_DAILY_COLUMNS.includes(column.replace(/^r\./, '')));
}

/** `column` within a span of days (or of months' first days), both ends included. */
function spanWhere(column: string, span: DaySpan): SQL {
  const to = sql`${sql.raw(column)} <= ${span.to}::date`;
  return span.from === null ? to : sql`${sql.raw(column)} >= ${span.from}::date and ${to}`;
}

/**
 * Lets this transaction's sorts and hash aggregates use 64 MB instead of the server's default (4 MB): a long
 * range groups hundreds of thousands of rollup rows, which otherwise sorts on disk (measured 1.5 s -> 0.85 s for
 * two years of 50 organizations). SET LOCAL: it ends with the transaction.
 */
export async function allowLargeAggregates(executor: Executor): Promise<void> {
  await executor.execute(sql`set local work_mem = '64MB'`);
}

/** A bucket's first day from a daily row's `r.day` (timestamp without time zone, so the session's zone never shifts it). */
const DAILY_PERIOD: Record<DashboardBucket, string> = {
  day: 'r.day',
  week: "date_trunc('week', r.day::timestamp)::date",
  month: "date_trunc('month', r.day::timestamp)::date",
};

/**
 * The rows of the rollups that make up the range, with the columns to group by (decision 041, 044). Grouped by day
 * or week: `activity_daily` over the range (`activity_kind_daily` wherever this says `activity_daily` and the read
 * needs no trial or source, decision 082). Grouped by month, or not by time: the range's whole months from
 * `activity_monthly` and only its edge days from `activity_daily` (`splitRange`; two years are 24 rows per key instead
 * of 730), except that "all" up to this month with no bucket reads the all-time `activity_total` (one row per key).
 */
function rollupParts(filter: DashboardFilter, kinds: readonly ActivityKind[] | undefined, columns: readonly RollupDimension[], labels?: readonly string[]) {
  const where = keyWhere(filter, kinds, labels);
  const range = { from: filter.range.from, to: filter.range.to };
  const bucket = columns.find(isBucket);
  const plain = columns.filter((column) => !isBucket(column)).map((column) => `r.${column}`);
  const parts: SQL[] = [];
  const partOf = (table: SQL, period: string | null, spans: SQL | null, sign = '', tableWhere = where) => {
    const selected = [...plain, ...(bucket ? [`${period} as period`] : [])];
    return sql`select ${sql.raw(selected.map((column) => `${column}, `).join(''))}${sql.raw(
      `${sign}r.count as count, ${sign}r.value_sum as value_sum, ${sign}r.value_count as value_count`,
    )} from ${table} r where ${tableWhere}${spans ? sql` and (${spans})` : sql``}`;
  };
  // Days from the rollup without trial and source when the read needs neither (decision 082).
  const dailyTable = kindDailyFits(filter, plain) ? sql`${activityKindDaily}` : sql`${activityDaily}`;
  const daily = (spans: SQL | null, sign = '') => partOf(dailyTable, bucket ? DAILY_PERIOD[bucket] : null, spans, sign);
  if (bucket === 'day' || bucket === 'week') parts.push(daily(spanWhere('r.day', range)));
  else if (!bucket && range.from === null && range.to >= `${dayOf(new Date()).slice(0, 7)}-01`) {
    // "All" up to a day of this month (or later): the all-time totals, less any days after `to` (a few daily rows).
    parts.push(partOf(sql`${activityTotal}`, null, null));
    parts.push(daily(sql`r.day > ${range.to}::date`, '-'));
  } else {
    // By month or not by time: whole months from the monthly rollup, the partial months at the edges from days.
    // Whole months from a lean rollup when one answers the question (decision 078), else from `activity_monthly`.
    const { months, days } = splitRange(range);
    const lean = leanRollupFor(filter, kinds, plain, labels);
    if (months && lean) parts.push(partOf(sql`${lean.rollup.table}`, 'r.month', spanWhere('r.month', months), '', lean.where));
    else if (months) parts.push(partOf(sql`${activityMonthly}`, 'r.month', spanWhere('r.month', months)));
    if (days.length)
      parts.push(
        daily(
          sql.join(
            days.map((span) => sql`(${spanWhere('r.day', span)})`),
            sql` or `,
          ),
        ),
      );
  }
  return sql.join(parts, sql` union all `);
}

const outputColumn = (column: RollupDimension) => (isBucket(column) ? `to_char(period, 'YYYY-MM-DD') as period` : column);
const groupColumn = (column: RollupDimension) => (isBucket(column) ? 'period' : column);

async function sums(executor: Executor, query: SQL): Promise<RollupRow[]> {
  const result = await executor.execute(query);
  return rowsOf<RollupRow>(result).map((row) => ({
    ...row,
    count: Number(row.count ?? 0),
    value_sum: Number(row.value_sum ?? 0),
    value_count: Number(row.value_count ?? 0),
  }));
}

const SUMS = sql.raw('sum(count)::float8 as count, sum(value_sum)::float8 as value_sum, sum(value_count)::float8 as value_count');

/**
 * Sums of the rollups in the range (of some kinds, and labels), grouped by the given dimensions, at most one of them
 * a bucket (day, week or month: `period`). Which rollup answers is `rollupParts`'s choice; every path equals a count
 * over the raw events (the property tests).
 */
export async function rollup(
  executor: Executor,
  filter: DashboardFilter,
  kinds: readonly ActivityKind[] | undefined,
  groupBy: readonly RollupDimension[],
  labels?: readonly string[],
): Promise<RollupRow[]> {
  if (!filter.organizationIds.length) return [];
  const select = groupBy.map(outputColumn).join(', ');
  return sums(
    executor,
    sql`
    select ${sql.raw(select ? `${select}, ` : '')}${SUMS}
    from (${rollupParts(filter, kinds, groupBy, labels)}) part
    ${groupBy.length ? sql`group by ${sql.raw(groupBy.map(groupColumn).join(', '))} having sum(count) <> 0` : sql``}`,
  );
}

/**
 * Like `rollup`, with several groupings in one read (GROUPING SETS, no buckets): a row carries the dimensions of its
 * grouping and null for the others. The funnel needs (trial, kind, label) and (source, kind, label): together a few
 * thousand rows, where grouping by all four returns tens of thousands (slow to hand over on PGlite, decision 044).
 */
export async function rollupGroupingSets(
  executor: Executor,
  filter: DashboardFilter,
  kinds: readonly ActivityKind[] | undefined,
  sets: ReadonlyArray<readonly Exclude<RollupDimension, DashboardBucket>[]>,
): Promise<RollupRow[]> {
  if (!filter.organizationIds.length) return [];
  const columns = [...new Set(sets.flat())];
  return sums(
    executor,
    sql`
    select ${sql.raw(columns.join(', '))}, ${SUMS}
    from (${rollupParts(filter, kinds, columns)}) part
    group by grouping sets (${sql.raw(sets.map((set) => `(${set.join(', ')})`).join(', '))}) having sum(count) <> 0`,
  );
}

/** Raw events of a kind in the organizations, source and span of days (`to` null: open-ended). */
function eventWhere(filter: DashboardFilter, kind: ActivityKind, span: { from: string | null; to: string | null } = filter.range): SQL {
  const parts: SQL[] = [sql`${activityEvent.organizationId} = any(${uuidArray(filter.organizationIds)})`, sql`${activityEvent.kind} = ${kind}`];
  if (span.to) parts.push(sql`${activityEvent.occurredAt} < ${startOfDay(addDays(span.to, 1)).toISOString()}`);
  if (span.from) parts.push(sql`${activityEvent.occurredAt} >= ${startOfDay(span.from).toISOString()}`);
  if (filter.source) parts.push(sql`${activityEvent.source} = ${filter.source}`);
  return sql.join(parts, sql` and `);
}

export interface HistogramBucket {
  /** The bucket's lower bound (hours). */
  bucket: number;
  /** Its end (exclusive), null for the open last bucket. */
  end: number | null;
  count: number;
}

/**
 * The histogram of hours from first contact to a prescreen result in the range (decision 094), from the rollups:
 * "all" up to this month is `time_to_result_total` less any results after `to`; another range is its whole months
 * from `time_to_result_monthly` and its edge days bucketed from the raw results (at most two partial months, an
 * index-only scan). Buckets by the SQL `activity_hours_bucket`, as `recordActivity` and migration 0026 do.
 */
export async function timeToResultHistogram(executor: Executor, filter: DashboardFilter): Promise<HistogramBucket[]> {
  if (!filter.organizationIds.length) return [];
  const { range } = filter;
  const where = keyWhere(filter);
  const raw = (span: { from: string | null; to: string | null }, sign = '') =>
    sql`select activity_hours_bucket(value) as bucket, ${sql.raw(sign)}1 as count from ${activityEvent} where ${eventWhere(filter, TIME_TO_RESULT_KIND, span)} and value is not null`;
  const parts: SQL[] = [];
  if (range.from === null && range.to >= `${dayOf(new Date()).slice(0, 7)}-01`) {
    parts.push(sql`select bucket, count from ${timeToResultTotal} r where ${where}`);
    parts.push(raw({ from: addDays(range.to, 1), to: null }, '-'));
  } else {
    const { months, days } = splitRange(range);
    if (months) parts.push(sql`select bucket, count from ${timeToResultMonthly} r where ${where} and ${spanWhere('r.month', months)}`);
    for (const span of days) parts.push(raw(span));
  }
  const result = await executor.execute(sql`
    select bucket, activity_hours_bucket_end(bucket) as "end", sum(count)::float8 as count
    from (${sql.join(parts, sql` union all `)}) part
    group by bucket having sum(count) <> 0 order by bucket`);
  return rowsOf<HistogramBucket>(result).map((row) => ({
    bucket: Number(row.bucket),
    end: row.end === null ? null : Number(row.end),
    count: Number(row.count),
  }));
}

/** Satisfaction ratings in the range by channel, agent and rating (raw events: the rollup has no agent). */
export async function ratings(executor: Executor, filter: DashboardFilter) {
  if (!filter.organizationIds.length) return [];
  const result = await executor.execute(sql`
    select source, agent_id, round(value)::int as rating, count(*)::int as count
    from ${activityEvent}
    where ${eventWhere(filter, 'satisfaction_rated')} and value is not null
    group by source, agent_id, round(value)`);
  return rowsOf<{ source: ActivitySource; agent_id: string | null; rating: number; count: number }>(result);
}

/** Names of voice and chat agents (for the ratings by agent). */
export async function agentNames(executor: Executor, agentIds: readonly string[]): Promise<Map<string, string>> {
  if (!agentIds.length) return new Map();
  const result = await executor.execute(sql`
    select id, name from ${voiceAgent} where id = any(${uuidArray(agentIds)})
    union all
    select id, name from ${chatAgent} where id = any(${uuidArray(agentIds)})`);
  return new Map(rowsOf<{ id: string; name: string }>(result).map((row) => [row.id, row.name]));
}

/** Names of trials by id, as tables show them: the brief title when it is shorter than the official one. */
export async function trialTitles(executor: Executor, trialIds: readonly string[]): Promise<Map<string, string>> {
  if (!trialIds.length) return new Map();
  const result = await executor.execute(sql`select id, title, public_title from ${trial} where id = any(${uuidArray(trialIds)})`);
  return new Map(
    rowsOf<{ id: string; title: string; public_title: string | null }>(result).map((row) => [
      row.id,
      shortTrialTitle({ title: row.title, publicTitle: row.public_title }),
    ]),
  );
}

export interface LifecycleTrialRow {
  id: string;
  organization_id: string;
  title: string;
  status: string;
  target_enrollment: number | null;
  status_history: TrialStatusChange[];
  created_at: string | Date;
}

/** The organizations' trials with their status history, recruiting first. */
export async function lifecycleTrials(executor: Executor, organizationIds: readonly string[], limit: number): Promise<LifecycleTrialRow[]> {
  if (!organizationIds.length) return [];
  const result = await executor.execute(sql`
    select id, organization_id, title, public_title, status, target_enrollment, status_history, created_at
    from ${trial}
    where organization_id = any(${uuidArray(organizationIds)})
    order by (status = 'recruiting') desc, created_at desc
    limit ${limit}`);
  // Tables and chart legends name a trial briefly (issue 32); the official title stays on the trial's page.
  return rowsOf<LifecycleTrialRow & { public_title: string | null }>(result).map(({ public_title, ...row }) => ({
    ...row,
    title: shortTrialTitle({ title: row.title, publicTitle: public_title }),
  }));
}

/** Recruiting trials per organization. */
export async function recruitingTrialCounts(executor: Executor, organizationIds: readonly string[]): Promise<Map<string, number>> {
  if (!organizationIds.length) return new Map();
  const result = await executor.execute(sql`
    select organization_id, count(*)::int as count from ${trial}
    where organization_id = any(${uuidArray(organizationIds)}) and status = 'recruiting'
    group by organization_id`);
  return new Map(rowsOf<{ organization_id: string; count: number }>(result).map((row) => [row.organization_id, Number(row.count)]));
}

/** The last day with any activity, per organization (one index probe each on the all-time rollup's last days, decision 078). */
export async function lastActivityDays(executor: Executor, organizationIds: readonly string[]): Promise<Map<string, string>> {
  if (!organizationIds.length) return new Map();
  const result = await executor.execute(sql`
    select o.id as organization_id, to_char(last.day, 'YYYY-MM-DD') as day
    from unnest(${uuidArray(organizationIds)}) as o(id)
    cross join lateral (select max(r.last_day) as day from ${activityTotal} r where r.organization_id = o.id) last
    where last.day is not null`);
  return new Map(rowsOf<{ organization_id: string; day: string }>(result).map((row) => [row.organization_id, row.day]));
}

/** The earliest day of activity of the organizations (what "all" starts from, for bucketing; the all-time rollup's first days). */
export async function firstActivityDay(executor: Executor, organizationIds: readonly string[]): Promise<string | null> {
  if (!organizationIds.length) return null;
  const result = await executor.execute(sql`
    select to_char(min(first.day), 'YYYY-MM-DD') as day
    from unnest(${uuidArray(organizationIds)}) as o(id)
    cross join lateral (select min(r.first_day) as day from ${activityTotal} r where r.organization_id = o.id) first`);
  return rowsOf<{ day: string | null }>(result)[0]?.day ?? null;
}
