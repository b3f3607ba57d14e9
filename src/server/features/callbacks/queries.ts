import { and, asc, count, desc, eq, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CallbackStatus } from '../../../contract/callbacks';
import { callback, candidate } from '../../db/schema';
import type { Executor } from '../../db/scoped';
import type { SystemDb } from '../../db/system';
import { isUuid } from '../../../contract/ids';

export type CallbackRow = typeof callback.$inferSelect;
export type NewCallbackRow = typeof callback.$inferInsert;
/** A callback with what the list shows of its candidate. */
export type CallbackListRow = CallbackRow & { firstName: string; lastName: string | null; timeZone: string | null };

const OPEN: CallbackStatus[] = ['pending', 'calling'];

export interface CallbackFilter {
  organizationIds: string[];
  candidateId?: string;
  status?: CallbackStatus;
  filter: 'all' | 'failedPrescreen' | 'failedScheduling';
}

/** failedPrescreen / failedScheduling: callbacks of that type that failed, or that exist because a call was missed or failed. */
function where(filter: CallbackFilter, withStatus = true): SQL | undefined {
  const failed = or(
    eq(callback.status, 'failed'),
    eq(callback.reason, 'missed_call'),
    and(sql`${callback.lastOutcome} is not null`, ne(callback.lastOutcome, 'completed')),
  );
  return and(
    inArray(callback.organizationId, filter.organizationIds),
    filter.candidateId ? (isUuid(filter.candidateId) ? eq(callback.candidateId, filter.candidateId) : sql`false`) : undefined,
    withStatus && filter.status ? eq(callback.status, filter.status) : undefined,
    filter.filter === 'failedPrescreen' ? and(eq(callback.type, 'PRESCREEN'), failed) : undefined,
    filter.filter === 'failedScheduling' ? and(eq(callback.type, 'SITE_VISIT_SCHEDULING'), failed) : undefined,
  );
}

/** Open callbacks first (soonest first), then the rest (latest first). */
export async function listCallbackRows(executor: Executor, filter: CallbackFilter, page: { limit: number; offset: number }) {
  if (filter.organizationIds.length === 0) return { rows: [] as CallbackListRow[], total: 0, counts: [] as Array<{ status: string; n: number }> };
  const rows = await executor
    .select({ callback, firstName: candidate.firstName, lastName: candidate.lastName, timeZone: candidate.timeZone })
    .from(callback)
    .innerJoin(candidate, eq(candidate.id, callback.candidateId))
    .where(where(filter))
    .orderBy(
      sql`case when ${callback.status} in ('pending', 'calling') then 0 else 1 end`,
      sql`case when ${callback.status} in ('pending', 'calling') then ${callback.scheduledFor} end asc`,
      desc(callback.updatedAt),
      desc(callback.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await executor.select({ total: count() }).from(callback).where(where(filter));
  const counts = await executor
    .select({ status: callback.status, n: count() })
    .from(callback)
    .where(where({ ...filter, filter: 'all' }, false))
    .groupBy(callback.status);
  return {
    rows: rows.map((row) => ({ ...row.callback, firstName: row.firstName, lastName: row.lastName, timeZone: row.timeZone })),
    total: Number(total),
    counts: counts.map((row) => ({ status: row.status, n: Number(row.n) })),
  };
}

export async function findCallback(executor: Executor, id: string, forUpdate = false): Promise<CallbackRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(callback).where(eq(callback.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The candidate's open callback (pending or calling), if any. */
export async function findOpenCallback(executor: Executor, candidateId: string, forUpdate = false): Promise<CallbackRow | undefined> {
  const query = executor
    .select()
    .from(callback)
    .where(and(eq(callback.candidateId, candidateId), inArray(callback.status, OPEN)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The callback a call was placed for (status calling). */
export async function findCallbackOfCall(executor: Executor, callId: string): Promise<CallbackRow | undefined> {
  const [row] = await executor
    .select()
    .from(callback)
    .where(and(eq(callback.lastCallId, callId), eq(callback.status, 'calling')))
    .for('update');
  return row;
}

export async function insertCallback(executor: Executor, values: NewCallbackRow): Promise<CallbackRow> {
  const [row] = await executor.insert(callback).values(values).returning();
  return row;
}

export async function updateCallback(executor: Executor, id: string, values: Partial<NewCallbackRow>): Promise<CallbackRow> {
  const [row] = await executor
    .update(callback)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(callback.id, id))
    .returning();
  return row;
}

/** Pending callbacks that have no job yet, soonest first. */
export async function pendingWithoutJob(executor: Executor, organizationId: string) {
  return executor
    .select({ id: callback.id, scheduledFor: callback.scheduledFor })
    .from(callback)
    .where(and(eq(callback.organizationId, organizationId), eq(callback.status, 'pending'), isNull(callback.jobId)))
    .orderBy(asc(callback.scheduledFor));
}

/** Records the job of a pending callback unless another process already did: false when it lost the race. */
export async function claimJob(executor: Executor, id: string, jobId: string): Promise<boolean> {
  const rows = await executor
    .update(callback)
    .set({ jobId })
    .where(and(eq(callback.id, id), eq(callback.status, 'pending'), isNull(callback.jobId)))
    .returning({ id: callback.id });
  return rows.length > 0;
}

/**
 * For the sweep: forgets the job of pending callbacks overdue by more than `graceMs` (their job was lost) and
 * returns every organization that has pending callbacks without a job.
 */
export async function releaseLostJobs(executor: SystemDb, now: Date, graceMs: number): Promise<string[]> {
  await executor
    .update(callback)
    .set({ jobId: null })
    .where(and(eq(callback.status, 'pending'), lt(callback.scheduledFor, new Date(now.getTime() - graceMs))));
  const rows = await executor
    .selectDistinct({ organizationId: callback.organizationId })
    .from(callback)
    .where(and(eq(callback.status, 'pending'), isNull(callback.jobId)));
  return rows.map((row) => row.organizationId);
}

/** Candidates with this phone (E.164) in any organization: the tools endpoint is reached without a session. */
export async function candidatesWithPhone(executor: Executor, phone: string) {
  return executor.select().from(candidate).where(eq(candidate.phone, phone)).limit(10);
}
