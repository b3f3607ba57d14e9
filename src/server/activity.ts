import { sql } from 'drizzle-orm';
import type { ActivityKind, ActivitySource } from '../contract/activity';
import type { Executor } from './db/scoped';
import { activityDaily, activityEvent, NO_TRIAL } from './db/schema';

/**
 * The activity event model (decision 031), below the features like `audit.ts`: a feature records the funnel
 * step it just made happen, with the same transaction, and the daily rollup moves with it.
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

/**
 * Records events and adds them to `activity_daily`: one insert for the events, one upsert per distinct
 * rollup key (a burst of 1,000 SMS of one trial is one rollup row). Call it inside the change's transaction.
 */
export async function recordActivity(executor: Executor, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const now = new Date();
  const rows = entries.map((entry) => ({
    organizationId: entry.organizationId,
    trialId: entry.trialId ?? null,
    candidateId: entry.candidateId ?? null,
    kind: entry.kind,
    source: entry.source,
    label: entry.label ?? '',
    value: entry.value ?? null,
    agentId: entry.agentId ?? null,
    referenceId: entry.referenceId ?? null,
    occurredAt: entry.occurredAt ?? now,
  }));
  await executor.insert(activityEvent).values(rows);

  const rollups = new Map<string, typeof activityDaily.$inferInsert>();
  for (const row of rows) {
    const day = activityDay(row.occurredAt);
    const trialId = row.trialId ?? NO_TRIAL;
    const key = `${row.organizationId}|${day}|${trialId}|${row.kind}|${row.source}|${row.label}`;
    const rollup = rollups.get(key) ?? {
      organizationId: row.organizationId,
      day,
      trialId,
      kind: row.kind,
      source: row.source,
      label: row.label,
      count: 0,
      valueSum: 0,
      valueCount: 0,
    };
    rollup.count! += 1;
    if (row.value !== null && Number.isFinite(row.value)) {
      rollup.valueSum! += row.value;
      rollup.valueCount! += 1;
    }
    rollups.set(key, rollup);
  }
  // Sorted, so two transactions touching the same keys lock them in the same order (no deadlock).
  const values = [...rollups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, rollup]) => rollup);
  await executor
    .insert(activityDaily)
    .values(values)
    .onConflictDoUpdate({
      target: [activityDaily.organizationId, activityDaily.day, activityDaily.trialId, activityDaily.kind, activityDaily.source, activityDaily.label],
      set: {
        count: sql`${activityDaily.count} + excluded.count`,
        valueSum: sql`${activityDaily.valueSum} + excluded.value_sum`,
        valueCount: sql`${activityDaily.valueCount} + excluded.value_count`,
      },
    });
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
