import { and, asc, count, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { call, callEvent } from '../../db/schema';
import { isUuid } from '../../../contract/ids';

export type CallRow = typeof call.$inferSelect;
export type CallInsert = typeof call.$inferInsert;
export type CallEventRow = typeof callEvent.$inferSelect;

export async function findCall(executor: Executor, id: string, forUpdate = false): Promise<CallRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(call).where(eq(call.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findCallByProviderId(executor: Executor, provider: CallRow['provider'], providerCallId: string): Promise<CallRow | undefined> {
  const [row] = await executor
    .select()
    .from(call)
    .where(and(eq(call.provider, provider), eq(call.providerCallId, providerCallId)));
  return row;
}

export async function insertCall(executor: Executor, values: CallInsert): Promise<CallRow> {
  const [row] = await executor.insert(call).values(values).returning();
  return row;
}

export async function updateCall(executor: Executor, id: string, values: Partial<CallInsert>): Promise<CallRow> {
  const [row] = await executor
    .update(call)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(call.id, id))
    .returning();
  return row;
}

export async function deleteCall(executor: Executor, id: string): Promise<void> {
  await executor.delete(call).where(eq(call.id, id));
}

export interface CallFilter {
  organizationIds: string[];
  candidateId?: string;
  status?: CallRow['status'];
  type?: CallRow['type'];
  filter: 'all' | 'failedPrescreen' | 'failedScheduling';
}

function where(filter: CallFilter): SQL | undefined {
  const failed = or(inArray(call.status, ['failed', 'cancelled']), and(eq(call.status, 'ended'), ne(call.outcome, 'completed')));
  return and(
    inArray(call.organizationId, filter.organizationIds),
    filter.candidateId ? (isUuid(filter.candidateId) ? eq(call.candidateId, filter.candidateId) : sql`false`) : undefined,
    filter.status ? eq(call.status, filter.status) : undefined,
    filter.type ? eq(call.type, filter.type) : undefined,
    filter.filter === 'failedPrescreen' ? and(eq(call.type, 'PRESCREEN'), failed) : undefined,
    filter.filter === 'failedScheduling' ? and(eq(call.type, 'SITE_VISIT_SCHEDULING'), failed) : undefined,
  );
}

export async function listCallRows(
  executor: Executor,
  filter: CallFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: CallRow[]; total: number }> {
  if (filter.organizationIds.length === 0) return { rows: [], total: 0 };
  const rows = await executor.select().from(call).where(where(filter)).orderBy(desc(call.createdAt), desc(call.id)).limit(page.limit).offset(page.offset);
  const [{ total }] = await executor.select({ total: count() }).from(call).where(where(filter));
  return { rows, total: Number(total) };
}

/** Stores a server message once: false when the same delivery (same key) was already stored. */
export async function insertCallEventOnce(executor: Executor, values: typeof callEvent.$inferInsert): Promise<CallEventRow | undefined> {
  const [row] = await executor
    .insert(callEvent)
    .values(values)
    .onConflictDoNothing({ target: [callEvent.callId, callEvent.dedupeKey] })
    .returning();
  return row;
}

export async function callEvents(executor: Executor, callId: string): Promise<CallEventRow[]> {
  return executor.select().from(callEvent).where(eq(callEvent.callId, callId)).orderBy(asc(callEvent.receivedAt), asc(callEvent.id));
}

export async function countCallEventsOfType(executor: Executor, callId: string, type: string): Promise<number> {
  const [{ total }] = await executor
    .select({ total: count() })
    .from(callEvent)
    .where(and(eq(callEvent.callId, callId), eq(callEvent.type, type)));
  return Number(total);
}

/** The candidate's most recent ended outbound calls, newest first (for the unreachable rule). */
export async function recentEndedCalls(executor: Executor, candidateId: string, limit: number): Promise<CallRow[]> {
  return executor
    .select()
    .from(call)
    .where(and(eq(call.candidateId, candidateId), eq(call.direction, 'outbound'), inArray(call.status, ['ended', 'failed'])))
    .orderBy(desc(call.endedAt), desc(call.createdAt))
    .limit(limit);
}

export async function latestCallOfCandidate(executor: Executor, candidateId: string): Promise<CallRow | undefined> {
  if (!isUuid(candidateId)) return undefined;
  const [row] = await executor.select().from(call).where(eq(call.candidateId, candidateId)).orderBy(desc(call.createdAt)).limit(1);
  return row;
}

/** The inbound call Twilio already told us about (a redelivered voice webhook carries the same CallSid). */
export async function findCallByTwilioSid(executor: Executor, organizationId: string, twilioCallSid: string): Promise<CallRow | undefined> {
  const [row] = await executor
    .select()
    .from(call)
    .where(and(eq(call.organizationId, organizationId), eq(call.direction, 'inbound'), sql`${call.structuredData}->>'twilioCallSid' = ${twilioCallSid}`))
    .limit(1);
  return row;
}
