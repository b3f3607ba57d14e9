import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { candidate, processingRun, processingRunItem } from '../../db/schema';

export type ProcessingRunRow = typeof processingRun.$inferSelect;

export async function listRuns(
  executor: Executor,
  filter: { organizationIds: string[]; kind?: string; search?: string; limit: number },
): Promise<ProcessingRunRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const conditions: SQL[] = [inArray(processingRun.organizationId, filter.organizationIds)];
  if (filter.kind) conditions.push(eq(processingRun.kind, filter.kind));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
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
