import { type SQL, sql } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { ActivityKind, ActivitySource } from '../contract/activity';
import type { Executor } from './db/scoped';
import {
  activityDaily,
  activityEvent,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  enrolmentMonthly,
  NO_TRIAL,
  prescreenResultMonthly,
  timeToResultMonthly,
  timeToResultTotal,
} from './db/schema';

/**
 * The activity event model (decision 031), below the features like `audit.ts`: a feature records the funnel
 * step it just made happen, with the same transaction, and the daily (two shapes), monthly and all-time rollups move
 * with it.
 */
export interface ActivityEntry {
  organizationId: string;
  kind: ActivityKind;
  source: ActivitySource;
  trialId?: string | null;
  candidateId?: string | null;
  /** A code, never free text or personal data. */
  label?: string | null;
  value?: number | null;
  agentId?: string | null;
  referenceId?: string | null;
  occurredAt?: Date;
}

/** The UTC day an event counts on. */
export function activityDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC month an event counts on, as its first day (the key of `activity_monthly`). */
export function activityMonth(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/** A PostgreSQL array literal: one parameter however many entries (a 2,500-event batch stays far below the 65,535-parameter limit). */
function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  const item = (value: string | number | null) =>
    value === null ? 'NULL' : typeof value === 'number' ? String(value) : `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
  return `{${values.map(item).join(',')}}`;
}

/**
 * A lean monthly rollup (decision 078): the events of one kind (and label) by organization, UTC month and fewer keys
 * than `activity_monthly`, for a dashboard question that `activity_monthly` answers only by reading every trial's and
 * source's rows. `recordActivity` keeps them; the dashboard reads a range's whole months from them when the question
 * fits (its kind, its label, grouped and filtered by its keys only).
 */
export interface LeanMonthlyRollup {
  table: typeof enrolmentMonthly | typeof prescreenResultMonthly;
  kind: ActivityKind;
  /** The one label it counts, when it counts one. */
  label?: string;
  /** The key columns besides organization and month. */
  keys: ReadonlyArray<'trial_id' | 'source' | 'label'>;
}

export const LEAN_MONTHLY_ROLLUPS: readonly LeanMonthlyRollup[] = [
  // The trial lifecycle's enrolment curve.
  { table: enrolmentMonthly, kind: 'status_changed', label: 'enrolled', keys: ['trial_id'] },
  // The prescreen tab's recommendations over time and average time to result.
  { table: prescreenResultMonthly, kind: 'prescreen_result', keys: ['source', 'label'] },
];

/** The kind whose value (hours from first contact) `time_to_result_monthly` and `_total` bucket. */
export const TIME_TO_RESULT_KIND: ActivityKind = 'prescreen_result';

/** `activity_monthly`'s upsert shape, for a lean rollup's CTE: adds the events' counts and value sums to the key's row. */
function leanMonthlyUpsert(rollup: LeanMonthlyRollup, name: string): SQL {
  const keys = rollup.keys.join(', ');
  const filter = rollup.label === undefined ? sql`kind = ${rollup.kind}` : sql`kind = ${rollup.kind} and label = ${rollup.label}`;
  return sql`${sql.raw(name)} as (
      insert into ${rollup.table} (organization_id, month, ${sql.raw(keys)}, count, value_sum, value_count)
      select organization_id, date_trunc('month', day::timestamp)::date, ${sql.raw(keys)}, count(*), coalesce(sum(value), 0), count(value)
      from events where ${filter} group by 1, 2, ${sql.raw(keys)} order by 1, 2, ${sql.raw(keys)}
      on conflict (organization_id, month, ${sql.raw(keys)}) do update set
        count = ${rollup.table}.count + excluded.count,
        value_sum = ${rollup.table}.value_sum + excluded.value_sum,
        value_count = ${rollup.table}.value_count + excluded.value_count
    ),`;
}

/** The time-to-result histogram's CTEs: its month rows and all-time rows, bucketed by the SQL `activity_hours_bucket`. */
const TIME_TO_RESULT_UPSERTS = sql`hours as (
      select organization_id, date_trunc('month', day::timestamp)::date as month, source, activity_hours_bucket(value) as bucket, count(*) as count
      from events where kind = ${TIME_TO_RESULT_KIND} and value is not null group by 1, 2, 3, 4
    ),
    hours_monthly as (
      insert into ${timeToResultMonthly} (organization_id, month, source, bucket, count)
      select organization_id, month, source, bucket, count from hours order by 1, 2, 3, 4
      on conflict (organization_id, month, source, bucket) do update set count = ${timeToResultMonthly}.count + excluded.count
    ),
    hours_total as (
      insert into ${timeToResultTotal} (organization_id, source, bucket, count)
      select organization_id, source, bucket, sum(count) from hours group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, source, bucket) do update set count = ${timeToResultTotal}.count + excluded.count
    ),`;

/**
 * Records events and adds them to `activity_daily`, `activity_kind_daily` (no trial, no source: decision 082),
 * `activity_monthly` and `activity_total`, and to the lean rollups their kinds feed (decision 078), in ONE statement
 * (one round trip): the events are inserted and each rollup gets
 * one upsert row per distinct key (a burst of 1,000 SMS of one trial is one daily row). A lean rollup's upsert is in
 * the statement only when an entry feeds it, so the common event pays for none of them. Call it inside the change's
 * transaction.
 */
export async function recordActivity(executor: Executor, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const now = new Date();
  // A value that is not a finite number is stored as none: the rollups' sums must equal a sum over the events.
  const finiteValue = (entry: ActivityEntry) => (Number.isFinite(entry.value) ? entry.value! : null);
  const column = <T extends string | number | null>(pick: (entry: ActivityEntry) => T) => arrayLiteral(entries.map(pick));
  // Keys are grouped and sorted in SQL, so two transactions touching the same keys lock them in the same order
  // (no deadlock); the monthly and total upserts run in the same statement, so they can never drift from the daily one.
  const keys = sql.raw('organization_id, trial_id, kind, source, label');
  const lean = LEAN_MONTHLY_ROLLUPS.filter((rollup) =>
    entries.some((entry) => entry.kind === rollup.kind && (rollup.label === undefined || (entry.label ?? '') === rollup.label)),
  );
  const timed = entries.some((entry) => entry.kind === TIME_TO_RESULT_KIND && finiteValue(entry) !== null);
  // One name per shape of the statement (which lean upserts it holds): its text is the same for every call of that shape.
  const name = `record_activity_${lean.map((rollup) => LEAN_MONTHLY_ROLLUPS.indexOf(rollup)).join('')}${timed ? 't' : ''}`;
  await executePrepared(
    executor,
    name,
    sql`
    with events as (
      insert into ${activityEvent} (organization_id, trial_id, candidate_id, kind, source, label, value, agent_id, reference_id, occurred_at)
      select * from unnest(
        ${column((entry) => entry.organizationId)}::uuid[], ${column((entry) => entry.trialId ?? null)}::uuid[],
        ${column((entry) => entry.candidateId ?? null)}::uuid[], ${column((entry) => entry.kind)}::text[],
        ${column((entry) => entry.source)}::text[], ${column((entry) => entry.label ?? '')}::text[],
        ${column(finiteValue)}::float8[], ${column((entry) => entry.agentId ?? null)}::uuid[],
        ${column((entry) => entry.referenceId ?? null)}::text[], ${column((entry) => (entry.occurredAt ?? now).toISOString())}::timestamptz[])
      returning organization_id, coalesce(trial_id, ${NO_TRIAL}::uuid) as trial_id, kind, source, label, value,
        (occurred_at at time zone 'UTC')::date as day
    ),
    ${sql.join(
      lean.map((rollup, index) => leanMonthlyUpsert(rollup, `lean_${index}`)),
      sql` `,
    )}
    ${timed ? TIME_TO_RESULT_UPSERTS : sql``}
    daily as (
      insert into ${activityDaily} (organization_id, day, trial_id, kind, source, label, count, value_sum, value_count)
      select organization_id, day, trial_id, kind, source, label, count(*), coalesce(sum(value), 0), count(value)
      from events group by organization_id, day, ${keys} order by organization_id, day, ${keys}
      on conflict (organization_id, kind, day, trial_id, source, label) do update set
        count = ${activityDaily}.count + excluded.count,
        value_sum = ${activityDaily}.value_sum + excluded.value_sum,
        value_count = ${activityDaily}.value_count + excluded.value_count
    ),
    kind_daily as (
      insert into ${activityKindDaily} (organization_id, kind, day, label, count, value_sum, value_count)
      select organization_id, kind, day, label, count(*), coalesce(sum(value), 0), count(value)
      from events group by organization_id, kind, day, label order by organization_id, kind, day, label
      on conflict (organization_id, kind, day, label) do update set
        count = ${activityKindDaily}.count + excluded.count,
        value_sum = ${activityKindDaily}.value_sum + excluded.value_sum,
        value_count = ${activityKindDaily}.value_count + excluded.value_count
    ),
    monthly as (
      insert into ${activityMonthly} (organization_id, month, trial_id, kind, source, label, count, value_sum, value_count)
      select organization_id, date_trunc('month', day::timestamp)::date, trial_id, kind, source, label, count(*), coalesce(sum(value), 0), count(value)
      from events group by organization_id, 2, ${keys} order by organization_id, 2, ${keys}
      on conflict (organization_id, kind, month, trial_id, source, label) do update set
        count = ${activityMonthly}.count + excluded.count,
        value_sum = ${activityMonthly}.value_sum + excluded.value_sum,
        value_count = ${activityMonthly}.value_count + excluded.value_count
    )
    insert into ${activityTotal} (organization_id, trial_id, kind, source, label, count, value_sum, value_count, first_day, last_day)
    select ${keys}, count(*), coalesce(sum(value), 0), count(value), min(day), max(day)
    from events group by ${keys} order by ${keys}
    on conflict (organization_id, trial_id, kind, source, label) do update set
      count = ${activityTotal}.count + excluded.count,
      value_sum = ${activityTotal}.value_sum + excluded.value_sum,
      value_count = ${activityTotal}.value_count + excluded.value_count,
      first_day = least(${activityTotal}.first_day, excluded.first_day),
      last_day = greatest(${activityTotal}.last_day, excluded.last_day)`,
  );
}

/** The drizzle internals a named statement needs (present on the node-postgres and PGlite databases and transactions). */
interface PreparingExecutor {
  dialect?: PgDialect;
  session?: PgSession;
}

/**
 * Runs a statement as a named (prepared) statement: on PostgreSQL it is parsed, analysed and planned once per pooled
 * connection instead of on every call, which was most of an event's cost (decision 078: 1.7 -> 0.7 ms p50 for one
 * event, measured by bench/activity-write.ts). `name` must stand for one SQL text. PGlite ignores the name.
 */
async function executePrepared(executor: Executor, name: string, query: SQL): Promise<void> {
  const { dialect, session } = executor as unknown as PreparingExecutor;
  if (!dialect || !session) {
    await executor.execute(query);
    return;
  }
  await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}

/** The channel a candidate came in through, from the candidate's `source` (contract/candidates.ts). */
export function candidateActivitySource(source: string): ActivitySource {
  if (source === 'import' || source === 'ehr') return 'import';
  if (source === 'web_chat') return 'chat';
  if (source === 'inbound_call') return 'call';
  return 'manual';
}

/** The kinds that mean we reached out to (or heard from) a candidate: the start of "time to result". */
const FIRST_CONTACT_KINDS: ActivityKind[] = ['sms_sent', 'call_placed', 'chat_started'];

/** Hours from the candidate's first contact to `at`, or null when no contact was recorded. */
export async function hoursSinceFirstContact(executor: Executor, candidateId: string, at: Date): Promise<number | null> {
  const [row] = await executor
    .select({ first: sql<string | null>`min(${activityEvent.occurredAt})` })
    .from(activityEvent)
    .where(
      sql`${activityEvent.candidateId} = ${candidateId} and ${activityEvent.kind} in (${sql.join(
        FIRST_CONTACT_KINDS.map((kind) => sql`${kind}`),
        sql`, `,
      )})`,
    );
  if (!row?.first) return null;
  return Math.max(0, (at.getTime() - new Date(row.first).getTime()) / 3_600_000);
}

/** Whether a reviewer's decision agrees with the AI's recommendation (INCONCLUSIVE has nothing to agree with). */
export function reviewAgreement(
  aiRecommendation: string,
  decision: 'approve' | 'reject',
  overrideRecommendation: string | null | undefined,
): 'agree' | 'override' | 'resolved' {
  if (overrideRecommendation && overrideRecommendation !== aiRecommendation) return 'override';
  if (aiRecommendation === 'INCONCLUSIVE') return 'resolved';
  const aiSaysYes = aiRecommendation === 'PASS' || aiRecommendation === 'POTENTIAL';
  return aiSaysYes === (decision === 'approve') ? 'agree' : 'override';
}
