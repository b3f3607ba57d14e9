import { and, asc, count, desc, eq, gt, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { escapeLike } from '../../db/postgres';
import { candidate, processingRun, processingRunItem } from '../../db/schema';
import { insertInBatches } from '../../db/batched-insert';

export type ProcessingRunRow = typeof processingRun.$inferSelect;

export async function listRuns(
  executor: Executor,
  filter: { organizationIds: string[]; kind?: string; search?: string; limit: number },
): Promise<ProcessingRunRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const conditions: SQL[] = [inArray(processingRun.organizationId, filter.organizationIds)];
  if (filter.kind) conditions.push(eq(processingRun.kind, filter.kind));
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(processingRun.label, pattern), sql`${processingRun.id}::text like ${pattern.toLowerCase()}`)!);
  }
  return executor
    .select()
    .from(processingRun)
    .where(and(...conditions))
    .orderBy(desc(processingRun.createdAt), desc(processingRun.id))
    .limit(filter.limit);
}

export async function findRun(executor: Executor, id: string): Promise<ProcessingRunRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await executor.select().from(processingRun).where(eq(processingRun.id, id));
  return row;
}

export async function listRunItems(executor: Executor, runId: string, page: { limit: number; offset: number; outcome?: string }) {
  const where = page.outcome ? and(eq(processingRunItem.runId, runId), eq(processingRunItem.outcome, page.outcome)) : eq(processingRunItem.runId, runId);
  const [items, [{ total }]] = [
    await executor
      .select({ item: processingRunItem, firstName: candidate.firstName, lastName: candidate.lastName })
      .from(processingRunItem)
      .leftJoin(candidate, eq(candidate.id, processingRunItem.candidateId))
      .where(where)
      .orderBy(asc(processingRunItem.rowNumber))
      .limit(page.limit)
      .offset(page.offset),
    await executor.select({ total: count() }).from(processingRunItem).where(where),
  ];
  return { items, total: Number(total) };
}

export async function countOutcomes(executor: Executor, runId: string): Promise<Record<string, number>> {
  const rows = await executor
    .select({ outcome: processingRunItem.outcome, total: count() })
    .from(processingRunItem)
    .where(eq(processingRunItem.runId, runId))
    .groupBy(processingRunItem.outcome);
  return Object.fromEntries(rows.map((row) => [row.outcome, Number(row.total)]));
}

// ---- the run engine's statements (runner.ts) ----

export type RunCounter = 'succeeded' | 'merged' | 'skipped' | 'failed';
export type ItemError = { field: string; message: string };

/** One item's outcome as a kind reports it. */
export interface ItemOutcome<Outcome extends string = string> {
  itemId: string;
  outcome: Outcome;
  errors: ItemError[] | null;
  /** The candidate the item made or concerns; when omitted the item's own stays. */
  candidateId?: string | null;
  /** false: the item's input (personal data) is cleared now that it has been used. Kept when omitted. */
  keepInput?: boolean;
}

export interface RunItem {
  id: string;
  rowNumber: number;
  candidateId: string | null;
  input: unknown;
  /** What the kind's prepareBatch made of the item before its transaction (runner.ts). */
  prepared?: unknown;
}

/** The run's row, locked until the transaction ends. */
export async function lockRun(executor: Executor, runId: string): Promise<ProcessingRunRow | undefined> {
  const [row] = await executor.select().from(processingRun).where(eq(processingRun.id, runId)).for('update');
  return row;
}

/** The next pending items of a run after `afterRow`, in row order (an index range, not a rescan). */
export async function nextPendingItems(executor: Executor, runId: string, afterRow: number, limit: number): Promise<RunItem[]> {
  return executor
    .select({ id: processingRunItem.id, rowNumber: processingRunItem.rowNumber, candidateId: processingRunItem.candidateId, input: processingRunItem.input })
    .from(processingRunItem)
    .where(and(eq(processingRunItem.runId, runId), gt(processingRunItem.rowNumber, afterRow), eq(processingRunItem.outcome, 'pending')))
    .orderBy(asc(processingRunItem.rowNumber))
    .limit(limit);
}

/**
 * Whether the items read ahead (after `afterRow`, in row order) are still exactly the run's next pending items:
 * the pending items of their row range are theirs and no pending item lies between `afterRow` and the first.
 */
export async function stillPending(executor: Executor, runId: string, afterRow: number, items: RunItem[]): Promise<boolean> {
  const [row] = await executor
    .select({ pending: count() })
    .from(processingRunItem)
    .where(
      and(
        eq(processingRunItem.runId, runId),
        gt(processingRunItem.rowNumber, afterRow),
        items.length ? lte(processingRunItem.rowNumber, items.at(-1)!.rowNumber) : undefined,
        eq(processingRunItem.outcome, 'pending'),
      ),
    );
  return Number(row.pending) === items.length;
}

/** Writes a batch's outcomes (one statement) and advances the run's counters by them. */
export async function settleItems(executor: Executor, runId: string, outcomes: ItemOutcome[], counters: Record<string, RunCounter>): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((entry) => ({
    id: entry.itemId,
    outcome: entry.outcome,
    errors: entry.errors,
    candidate_id: entry.candidateId ?? null,
    keep_input: entry.keepInput ?? true,
  }));
  await executor.execute(sql`
    update processing_run_item i set outcome = v.outcome, errors = v.errors, candidate_id = coalesce(v.candidate_id, i.candidate_id),
      input = case when v.keep_input then i.input else null end, processed_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, outcome text, errors jsonb, candidate_id uuid, keep_input boolean)
    where i.id = v.id`);
  const added: Record<RunCounter, number> = { succeeded: 0, merged: 0, skipped: 0, failed: 0 };
  for (const entry of outcomes) added[counters[entry.outcome]]++;
  await executor
    .update(processingRun)
    .set({
      processed: sql`${processingRun.processed} + ${outcomes.length}`,
      succeeded: sql`${processingRun.succeeded} + ${added.succeeded}`,
      merged: sql`${processingRun.merged} + ${added.merged}`,
      skipped: sql`${processingRun.skipped} + ${added.skipped}`,
      failed: sql`${processingRun.failed} + ${added.failed}`,
    })
    .where(eq(processingRun.id, runId));
}

/**
 * Sets a pending item's outcome and advances the run's counters; false (nothing changed) when the item was
 * already settled, so a resumed run never counts an item twice.
 */
export async function settleItem(executor: Executor, runId: string, outcome: ItemOutcome, counter: RunCounter): Promise<boolean> {
  const settled = await executor
    .update(processingRunItem)
    .set({
      outcome: outcome.outcome,
      errors: outcome.errors,
      processedAt: new Date(),
      ...(outcome.candidateId !== undefined ? { candidateId: outcome.candidateId } : {}),
      ...(outcome.keepInput === false ? { input: null } : {}),
    })
    .where(and(eq(processingRunItem.id, outcome.itemId), eq(processingRunItem.outcome, 'pending')))
    .returning({ id: processingRunItem.id });
  if (settled.length === 0) return false;
  await executor
    .update(processingRun)
    .set({ processed: sql`${processingRun.processed} + 1`, [counter]: sql`${processingRun[counter]} + 1` })
    .where(eq(processingRun.id, runId));
  return true;
}

/** Ends a run with the message its owner sees; only a run still pending or running. */
export async function failRun(executor: Executor, runId: string, message: string): Promise<void> {
  await executor
    .update(processingRun)
    .set({ status: 'failed', error: message, finishedAt: new Date() })
    .where(and(eq(processingRun.id, runId), inArray(processingRun.status, ['pending', 'running'])));
}

/** One pending item per candidate, in the given order (a run over people: enrollment in a sequence), in statements under the parameter limit. */
export async function insertCandidateItems(executor: Executor, input: { organizationId: string; runId: string; candidateIds: string[] }): Promise<number> {
  const items = input.candidateIds.map((candidateId, index) => ({
    organizationId: input.organizationId,
    runId: input.runId,
    rowNumber: index + 1,
    candidateId,
    input: null,
  }));
  await insertInBatches(processingRunItem, items, (batch) => executor.insert(processingRunItem).values(batch));
  return input.candidateIds.length;
}
