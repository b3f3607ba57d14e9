import { and, eq, inArray, sql } from 'drizzle-orm';
import { criterionJudgement, trialCriterion } from '../../db/schema';
import type { Executor } from '../../db/scoped';
import { insertInBatches } from '../../db/batched-insert';
import { isId } from './queries-literals';

export type CriterionJudgementRow = typeof criterionJudgement.$inferSelect;

/** The trial's judgements of one candidate, still about the criterion's current words. */
export async function listJudgements(executor: Executor, trialId: string, candidateId: string): Promise<CriterionJudgementRow[]> {
  const rows = await executor
    .select({ judgement: criterionJudgement, text: trialCriterion.text })
    .from(criterionJudgement)
    .innerJoin(trialCriterion, eq(trialCriterion.id, criterionJudgement.criterionId))
    .where(and(eq(criterionJudgement.trialId, trialId), eq(criterionJudgement.candidateId, candidateId)));
  return rows.filter((row) => row.text === row.judgement.criterionText).map((row) => row.judgement);
}

/** One candidate's judgements in every trial, still about the criteria's current words (per-person matching, decision 133). */
export async function candidateJudgements(executor: Executor, candidateId: string): Promise<CriterionJudgementRow[]> {
  if (!isId(candidateId)) return [];
  const rows = await executor
    .select({ judgement: criterionJudgement })
    .from(criterionJudgement)
    .innerJoin(trialCriterion, and(eq(trialCriterion.id, criterionJudgement.criterionId), eq(trialCriterion.text, criterionJudgement.criterionText)))
    .where(eq(criterionJudgement.candidateId, candidateId));
  return rows.map((row) => row.judgement);
}

/** Stores judgements, replacing earlier ones of the same trial, candidate and criterion. */
export async function saveJudgements(executor: Executor, rows: Array<typeof criterionJudgement.$inferInsert>): Promise<void> {
  if (!rows.length) return;
  await insertInBatches(criterionJudgement, rows, (batch) =>
    executor
      .insert(criterionJudgement)
      .values(batch)
      .onConflictDoUpdate({
        target: [criterionJudgement.trialId, criterionJudgement.candidateId, criterionJudgement.criterionId],
        set: {
          criterionText: sql`excluded.criterion_text`,
          verdict: sql`excluded.verdict`,
          explanation: sql`excluded.explanation`,
          sentences: sql`excluded.sentences`,
          model: sql`excluded.model`,
          judgedAt: sql`now()`,
        },
      }),
  );
}

/** (candidate, criterion) pairs a model judged "not met", about the criterion's current words: for a page of candidates, or the whole trial (a run). */
export async function notMetJudgements(
  executor: Executor,
  trialId: string,
  candidateIds?: string[],
): Promise<Array<{ candidateId: string; criterionId: string }>> {
  if (candidateIds && !candidateIds.length) return [];
  return executor
    .select({ candidateId: criterionJudgement.candidateId, criterionId: criterionJudgement.criterionId })
    .from(criterionJudgement)
    .innerJoin(trialCriterion, and(eq(trialCriterion.id, criterionJudgement.criterionId), eq(trialCriterion.text, criterionJudgement.criterionText)))
    .where(
      and(
        eq(criterionJudgement.trialId, trialId),
        candidateIds ? inArray(criterionJudgement.candidateId, candidateIds) : undefined,
        eq(criterionJudgement.verdict, 'not_met'),
      ),
    );
}

/** Per trial, the criteria a model judged "not met" for one candidate, about the criteria's current words (re-matching). */
export async function candidateNotMetJudgements(executor: Executor, candidateId: string): Promise<Map<string, Set<string>>> {
  const byTrial = new Map<string, Set<string>>();
  if (!isId(candidateId)) return byTrial;
  const rows = await executor
    .select({ trialId: criterionJudgement.trialId, criterionId: criterionJudgement.criterionId })
    .from(criterionJudgement)
    .innerJoin(trialCriterion, and(eq(trialCriterion.id, criterionJudgement.criterionId), eq(trialCriterion.text, criterionJudgement.criterionText)))
    .where(and(eq(criterionJudgement.candidateId, candidateId), eq(criterionJudgement.verdict, 'not_met')));
  for (const row of rows) {
    const set = byTrial.get(row.trialId);
    if (set) set.add(row.criterionId);
    else byTrial.set(row.trialId, new Set([row.criterionId]));
  }
  return byTrial;
}
