import { sql } from 'drizzle-orm';
import { bigint, date, doublePrecision, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ActivityKind, ActivitySource } from '../../../contract/activity';
import { organizationIdColumn } from './columns';

/**
 * One funnel step, written once in the transaction of the change it records (decision 031). Append-only: never
 * updated. Holds ids and codes, never personal data, so it outlives a deleted candidate (no foreign key).
 */
export const activityEvent = pgTable(
  'activity_event',
  {
    // Time-ordered (UUID version 7, migration 0029, decision 102): each new id lands beside the last one in the primary key, so an
    // event's insert touches pages already in memory; a random id read a random page of a 5M-entry index from disk.
    id: uuid('id').primaryKey().default(sql`time_ordered_uuid()`),
    organizationId: organizationIdColumn(),
    trialId: uuid('trial_id'),
    candidateId: uuid('candidate_id'),
    kind: text('kind').$type<ActivityKind>().notNull(),
    source: text('source').$type<ActivitySource>().notNull(),
    /** A code that refines the kind: a status, a recommendation, a call outcome, agree/override. Never free text. */
    label: text('label').notNull().default(''),
    /** A number the event carries: a cost in USD, a duration in seconds, a rating, hours to a result. */
    value: doublePrecision('value'),
    /** The agent (voice or chat) that produced it, when there is one. */
    agentId: uuid('agent_id'),
    /** The record it is about (a call, a message, a result), for drill-down. */
    referenceId: text('reference_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Migration 0025 rebuilds this index with INCLUDE (value, source, agent_id), which drizzle cannot declare: the
    // dashboard's raw reads (median time to result, ratings by agent) are then index-only scans (decision 041).
    // Migration 0026 dropped (organization_id, occurred_at): no read used it, and every event paid for it.
    index('activity_event_organization_kind_time_idx').on(table.organizationId, table.kind, table.occurredAt),
    // A person's first contact is read by candidate (migration 0040, decision 186); events of no candidate stay out.
    index('activity_event_candidate_kind_time_idx').on(table.candidateId, table.kind, table.occurredAt).where(sql`${table.candidateId} is not null`),
  ],
);

/** No trial: the rollup key needs a value, and NULLs never conflict in a unique index. */
export const NO_TRIAL = '00000000-0000-0000-0000-000000000000';

/**
 * The key (besides organization and date) and the measures every activity rollup shares: trial (the zero uuid for
 * none), kind, source and label; the event count, the sum of their values and how many carried a value (the
 * denominator of an average). One definition, so the daily, monthly and all-time rollups cannot drift apart.
 */
/** The measures of every activity rollup, the lean ones too (decision 078): count, and the sum and count of values. */
const measures = () => ({
  count: bigint('count', { mode: 'number' }).notNull().default(0),
  valueSum: doublePrecision('value_sum').notNull().default(0),
  /** Events that carried a value (the denominator of an average). */
  valueCount: bigint('value_count', { mode: 'number' }).notNull().default(0),
});

const rollupKeyAndMeasures = () => ({
  trialId: uuid('trial_id').notNull().default(sql`'00000000-0000-0000-0000-000000000000'::uuid`),
  kind: text('kind').$type<ActivityKind>().notNull(),
  source: text('source').$type<ActivitySource>().notNull(),
  label: text('label').notNull().default(''),
  ...measures(),
});

/**
 * Daily counts of `activity_event` by organization, UTC day, trial, kind, source and label, kept current in
 * the same transaction as the events (an upsert per distinct key). The dashboards read these.
 */
export const activityDaily = pgTable(
  'activity_daily',
  {
    organizationId: organizationIdColumn(),
    day: date('day', { mode: 'string' }).notNull(),
    ...rollupKeyAndMeasures(),
  },
  (table) => [
    // Kind before day (migration 0026): the key serves the dashboard's (organization, kind, day) reads too, so an
    // upsert maintains one index instead of two (decision 078).
    uniqueIndex('activity_daily_key_uidx').on(table.organizationId, table.kind, table.day, table.trialId, table.source, table.label),
  ],
);

/**
 * Daily counts by organization, kind, UTC day and label only, without trial and source (decision 082), kept by the
 * same `recordActivity` statement. The questions that group by neither (the customer overview, costs' units and
 * spend over time, prescreen results by day) read a range's days here: at 5M events 30 days of `activity_daily` are
 * ~115k rows (every trial, source and label), of this table ~40k.
 */
export const activityKindDaily = pgTable(
  'activity_kind_daily',
  {
    organizationId: organizationIdColumn(),
    kind: text('kind').$type<ActivityKind>().notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    label: text('label').notNull().default(''),
    ...measures(),
  },
  // Kind before day like `activity_daily`: one index for the upsert and the (organization, kind, day) reads.
  (table) => [uniqueIndex('activity_kind_daily_key_uidx').on(table.organizationId, table.kind, table.day, table.label)],
);

/**
 * Monthly counts with the same key as `activity_daily` but the first day of the UTC month instead of the day, kept
 * by the same statement as the daily upsert (decision 041). A long range reads its whole months here and only
 * its edge days from `activity_daily`: two years are 24 rows per key instead of 730.
 */
export const activityMonthly = pgTable(
  'activity_monthly',
  {
    organizationId: organizationIdColumn(),
    /** The first day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    ...rollupKeyAndMeasures(),
  },
  (table) => [
    // Kind before month, one index for the upsert and the reads (as `activity_daily`, decision 078).
    uniqueIndex('activity_monthly_key_uidx').on(table.organizationId, table.kind, table.month, table.trialId, table.source, table.label),
  ],
);

/**
 * All-time counts per key (no date), kept by the same statement as the daily and monthly upserts (decision 041).
 * "All" up to today is this table (minus any days after `to`): one row per key instead of one per key and month.
 */
export const activityTotal = pgTable(
  'activity_total',
  {
    organizationId: organizationIdColumn(),
    ...rollupKeyAndMeasures(),
    /**
     * The key's first and last UTC day with an event (migration 0026, decision 078): an organization's first and last
     * day of activity read from its few hundred total rows instead of a probe per kind of the kind-first daily key.
     * Null only on rows written before 0026's backfill.
     */
    firstDay: date('first_day', { mode: 'string' }),
    lastDay: date('last_day', { mode: 'string' }),
  },
  (table) => [
    uniqueIndex('activity_total_key_uidx').on(table.organizationId, table.trialId, table.kind, table.source, table.label),
    // One probe per organization for its first and last day (decision 078). A key's last day changes once a day at
    // most and its first day almost never, so these indexes cost an upsert little (the other updates stay HOT).
    index('activity_total_organization_first_day_idx').on(table.organizationId, table.firstDay),
    index('activity_total_organization_last_day_idx').on(table.organizationId, table.lastDay),
  ],
);

/**
 * Enrollments (`status_changed` to "enrolled") by organization, trial and UTC month, without source or label
 * (decision 078): the trial-lifecycle tab's enrollment curve over long ranges reads ~6k rows here where
 * `activity_monthly` holds every status change of every source (~240k rows at 5M events). Kept by `recordActivity`.
 */
export const enrollmentMonthly = pgTable(
  'enrolment_monthly',
  {
    organizationId: organizationIdColumn(),
    month: date('month', { mode: 'string' }).notNull(),
    trialId: uuid('trial_id').notNull().default(sql`'00000000-0000-0000-0000-000000000000'::uuid`),
    ...measures(),
  },
  (table) => [uniqueIndex('enrolment_monthly_key_uidx').on(table.organizationId, table.month, table.trialId)],
);

/**
 * Prescreen results by organization, UTC month, source and recommendation (the label), without trial (decision
 * 078): the prescreen tab's recommendations over time and average time to result for long ranges.
 */
export const prescreenResultMonthly = pgTable(
  'prescreen_result_monthly',
  {
    organizationId: organizationIdColumn(),
    month: date('month', { mode: 'string' }).notNull(),
    source: text('source').$type<ActivitySource>().notNull(),
    label: text('label').notNull().default(''),
    ...measures(),
  },
  (table) => [uniqueIndex('prescreen_result_monthly_key_uidx').on(table.organizationId, table.month, table.source, table.label)],
);

/**
 * A histogram of the hours from first contact to a prescreen result (the value of `prescreen_result` events), by
 * organization, UTC month, source and bucket (decision 094): the median is read from ~40 buckets instead of
 * every result. `bucket` is the bucket's lower bound in hours, from the SQL function `activity_hours_bucket`
 * (migration 0026: 1-hour buckets below a day, 6-hour up to a week, a day up to 30 days, then one open bucket).
 */
export const timeToResultMonthly = pgTable(
  'time_to_result_monthly',
  {
    organizationId: organizationIdColumn(),
    month: date('month', { mode: 'string' }).notNull(),
    source: text('source').$type<ActivitySource>().notNull(),
    bucket: integer('bucket').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [uniqueIndex('time_to_result_monthly_key_uidx').on(table.organizationId, table.month, table.source, table.bucket)],
);

/** The all-time `time_to_result_monthly` (no month): "all" reads one row per organization, source and bucket. */
export const timeToResultTotal = pgTable(
  'time_to_result_total',
  {
    organizationId: organizationIdColumn(),
    source: text('source').$type<ActivitySource>().notNull(),
    bucket: integer('bucket').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [uniqueIndex('time_to_result_total_key_uidx').on(table.organizationId, table.source, table.bucket)],
);
