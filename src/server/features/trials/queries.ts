import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { candidate, candidateTrial, trial, trialCriterion } from '../../db/schema';
import { insertInBatches } from '../../db/batched-insert';

export type TrialRow = typeof trial.$inferSelect;
export type TrialInsert = typeof trial.$inferInsert;
export type CriterionRow = typeof trialCriterion.$inferSelect;
export type CriterionInsert = typeof trialCriterion.$inferInsert;

export async function listTrialRows(executor: Executor, organizationIds: readonly string[]): Promise<TrialRow[]> {
  if (organizationIds.length === 0) return [];
  return executor
    .select()
    .from(trial)
    .where(inArray(trial.organizationId, [...organizationIds]))
    .orderBy(desc(trial.createdAt), asc(trial.id));
}

export async function findTrialRow(executor: Executor, id: string, forUpdate = false): Promise<TrialRow | undefined> {
  const query = executor.select().from(trial).where(eq(trial.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findTrialByNctId(executor: Executor, organizationId: string, nctId: string) {
  const [row] = await executor
    .select({ id: trial.id })
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.nctId, nctId)));
  return row;
}

export async function insertTrialRow(executor: Executor, values: TrialInsert): Promise<TrialRow> {
  const [row] = await executor.insert(trial).values(values).returning();
  return row;
}

export async function updateTrialRow(executor: Executor, id: string, values: Partial<TrialInsert>): Promise<TrialRow> {
  const [row] = await executor
    .update(trial)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(trial.id, id))
    .returning();
  return row;
}

export async function deleteTrialRow(executor: Executor, id: string) {
  await executor.delete(trial).where(eq(trial.id, id));
}

/** Criteria of the given trials, in order. */
export async function listCriteria(executor: Executor, trialIds: readonly string[]): Promise<CriterionRow[]> {
  if (trialIds.length === 0) return [];
  return executor
    .select()
    .from(trialCriterion)
    .where(inArray(trialCriterion.trialId, [...trialIds]))
    .orderBy(asc(trialCriterion.trialId), asc(trialCriterion.position));
}

/** Replaces a trial's criteria with the given ordered list (ids kept where given). */
export async function updateCriterionRule(executor: Executor, id: string, values: Pick<CriterionInsert, 'rule' | 'ruleSource' | 'needsReview'>) {
  await executor
    .update(trialCriterion)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(trialCriterion.id, id));
}

export async function replaceCriteria(executor: Executor, trialId: string, rows: CriterionInsert[]) {
  await executor.delete(trialCriterion).where(eq(trialCriterion.trialId, trialId));
  await insertInBatches(trialCriterion, rows, (batch) => executor.insert(trialCriterion).values(batch));
}

/** Linked and enrolled candidates per trial (one grouped count). */
export async function countCandidates(executor: Executor, trialIds: readonly string[]) {
  const counts = new Map<string, { candidateCount: number; enrolledCount: number }>();
  if (trialIds.length === 0) return counts;
  const rows = await executor
    .select({
      trialId: candidateTrial.trialId,
      candidates: count(),
      enrolled: sql<number>`count(*) filter (where ${candidate.status} = 'enrolled')`,
    })
    .from(candidateTrial)
    .innerJoin(candidate, eq(candidate.id, candidateTrial.candidateId))
    .where(inArray(candidateTrial.trialId, [...trialIds]))
    .groupBy(candidateTrial.trialId);
  for (const row of rows) counts.set(row.trialId, { candidateCount: Number(row.candidates), enrolledCount: Number(row.enrolled) });
  return counts;
}
