import { shortTrialTitle } from '../../../contract/trial-name';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { Executor } from '../../db/scoped';
import { prescreenForm, prescreenFormVersion, prescreenResult, trial } from '../../db/schema';

export type FormRow = typeof prescreenForm.$inferSelect;
export type FormInsert = typeof prescreenForm.$inferInsert;
export type VersionRow = typeof prescreenFormVersion.$inferSelect;
export type VersionInsert = typeof prescreenFormVersion.$inferInsert;

export async function listFormRows(executor: Executor, organizationIds: readonly string[], trialId?: string): Promise<FormRow[]> {
  if (organizationIds.length === 0) return [];
  const conditions = [inArray(prescreenForm.organizationId, [...organizationIds])];
  if (trialId) conditions.push(eq(prescreenForm.trialId, trialId));
  return executor
    .select()
    .from(prescreenForm)
    .where(and(...conditions))
    .orderBy(desc(prescreenForm.createdAt), asc(prescreenForm.id));
}

export async function findFormRow(executor: Executor, id: string): Promise<FormRow | undefined> {
  const [row] = await executor.select().from(prescreenForm).where(eq(prescreenForm.id, id));
  return row;
}

export async function insertFormRow(executor: Executor, values: FormInsert): Promise<FormRow> {
  const [row] = await executor.insert(prescreenForm).values(values).returning();
  return row;
}

export async function updateFormRow(executor: Executor, id: string, values: Partial<FormInsert>): Promise<FormRow> {
  const [row] = await executor
    .update(prescreenForm)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(prescreenForm.id, id))
    .returning();
  return row;
}

/** Versions of the given forms, oldest first. */
export async function listVersionRows(executor: Executor, formIds: readonly string[]): Promise<VersionRow[]> {
  if (formIds.length === 0) return [];
  return executor
    .select()
    .from(prescreenFormVersion)
    .where(inArray(prescreenFormVersion.formId, [...formIds]))
    .orderBy(asc(prescreenFormVersion.formId), asc(prescreenFormVersion.version));
}

export async function insertVersionRow(executor: Executor, values: VersionInsert): Promise<VersionRow> {
  const [row] = await executor.insert(prescreenFormVersion).values(values).returning();
  return row;
}

export async function updateVersionBlocks(executor: Executor, id: string, blocks: StudyBlock[]) {
  await executor.update(prescreenFormVersion).set({ blocks }).where(eq(prescreenFormVersion.id, id));
}

/** Prescreen results per form version (one grouped count). */
export async function countResultsByVersion(executor: Executor, versionIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (versionIds.length === 0) return counts;
  const rows = await executor
    .select({ versionId: prescreenResult.formVersionId, results: count() })
    .from(prescreenResult)
    .where(inArray(prescreenResult.formVersionId, [...versionIds]))
    .groupBy(prescreenResult.formVersionId);
  for (const row of rows) counts.set(row.versionId, Number(row.results));
  return counts;
}

/** Short names of the given trials (lists and lines: the brief title when shorter; issue 32). */
export async function trialTitles(executor: Executor, trialIds: readonly string[]): Promise<Map<string, string>> {
  if (trialIds.length === 0) return new Map();
  const rows = await executor
    .select({ id: trial.id, title: trial.title, publicTitle: trial.publicTitle })
    .from(trial)
    .where(inArray(trial.id, [...trialIds]));
  return new Map(rows.map((row) => [row.id, shortTrialTitle(row)]));
}
