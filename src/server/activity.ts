import { sql } from 'drizzle-orm';
import type { ActivityKind, ActivitySource } from '../contract/activity';
import type { Executor } from './db/scoped';
import { activityEvent, enrollmentMonthly, prescreenResultMonthly } from './db/schema';

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
 * source's rows. The SQL function `record_activity` (migration 0029) keeps them; the dashboard reads a range's whole
 * months from them when the question fits (its kind, its label, grouped and filtered by its keys only). This list
 * must say what that function writes.
 */
export interface LeanMonthlyRollup {
  table: typeof enrollmentMonthly | typeof prescreenResultMonthly;
  kind: ActivityKind;
  /** The one label it counts, when it counts one. */
  label?: string;
  /** The key columns besides organization and month. */
  keys: ReadonlyArray<'trial_id' | 'source' | 'label'>;
}

export const LEAN_MONTHLY_ROLLUPS: readonly LeanMonthlyRollup[] = [
  // The trial lifecycle's enrollment curve.
  { table: enrollmentMonthly, kind: 'status_changed', label: 'enrolled', keys: ['trial_id'] },
  // The prescreen tab's recommendations over time and average time to result.
  { table: prescreenResultMonthly, kind: 'prescreen_result', keys: ['source', 'label'] },
];

/** The kind whose value (hours from first contact) `time_to_result_monthly` and `_total` bucket. */
export const TIME_TO_RESULT_KIND: ActivityKind = 'prescreen_result';

/**
 * Records events and adds them to `activity_daily`, `activity_kind_daily` (decision 082), `activity_monthly`,
 * `activity_total` and the lean rollups their kinds feed (decision 078), in ONE statement: the SQL function
 * `record_activity` (migration 0029, decision 092), whose plan the connection keeps, so an event costs one short
 * call instead of planning a 5 kB statement each time. An unnamed statement: a named one outlives its transaction,
 * which a transaction-mode pooler (PgBouncer) cannot carry (decision 125, superseding 095). A burst of 1,000 SMS of one trial is one daily row. Call it
 * inside the change's transaction.
 */
export async function recordActivity(executor: Executor, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const now = new Date();
  // A value that is not a finite number is stored as none: the rollups' sums must equal a sum over the events.
  const finiteValue = (entry: ActivityEntry) => (Number.isFinite(entry.value) ? entry.value! : null);
  const column = <T extends string | number | null>(pick: (entry: ActivityEntry) => T) => arrayLiteral(entries.map(pick));
  await executor.execute(
    sql`select record_activity(
      ${column((entry) => entry.organizationId)}::uuid[], ${column((entry) => entry.trialId ?? null)}::uuid[],
      ${column((entry) => entry.candidateId ?? null)}::uuid[], ${column((entry) => entry.kind)}::text[],
      ${column((entry) => entry.source)}::text[], ${column((entry) => entry.label ?? '')}::text[],
      ${column(finiteValue)}::float8[], ${column((entry) => entry.agentId ?? null)}::uuid[],
      ${column((entry) => entry.referenceId ?? null)}::text[], ${column((entry) => (entry.occurredAt ?? now).toISOString())}::timestamptz[])`,
  );
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
