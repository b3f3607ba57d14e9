import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { CandidateFactInput } from '../../../contract/matching';
import { candidateFact, candidateNote, user } from '../../db/schema';
import type { Executor } from '../../db/scoped';
import { insertInBatches } from '../../db/batched-insert';
import { isId } from './queries-literals';

export type CandidateFactRow = typeof candidateFact.$inferSelect;
export function factRowValues(organizationId: string, candidateId: string, fact: CandidateFactInput) {
  return {
    organizationId,
    candidateId,
    kind: fact.kind,
    conceptId: fact.conceptId,
    name: fact.name,
    status: fact.status,
    value: fact.value,
    unit: fact.unit,
    valueText: fact.valueText,
    observedOn: fact.observedOn,
    source: fact.source,
    sourceRef: fact.sourceRef,
    sourceText: fact.sourceText,
    spanStart: fact.span?.start ?? null,
    spanEnd: fact.span?.end ?? null,
    criterionId: fact.criterionId,
    code: fact.code,
  };
}

/** Replaces the facts one source gave (a note, a bundle, a prescreen result) with its new reading. */
export async function replaceFacts(
  executor: Executor,
  organizationId: string,
  candidateId: string,
  source: { source: string; sourceRef: string | null },
  facts: CandidateFactInput[],
) {
  await executor
    .delete(candidateFact)
    .where(
      and(
        eq(candidateFact.candidateId, candidateId),
        eq(candidateFact.source, source.source as CandidateFactRow['source']),
        source.sourceRef === null ? sql`${candidateFact.sourceRef} is null` : eq(candidateFact.sourceRef, source.sourceRef),
      ),
    );
  return insertFacts(executor, organizationId, candidateId, facts);
}

export async function insertFacts(executor: Executor, organizationId: string, candidateId: string, facts: CandidateFactInput[]) {
  if (facts.length === 0) return [];
  // A bundle may hold thousands of facts: one statement each batch under the parameter limit.
  return insertInBatches(
    candidateFact,
    facts.map((fact) => factRowValues(organizationId, candidateId, fact)),
    (batch) => executor.insert(candidateFact).values(batch).returning(),
  );
}

export async function deleteFactsOfSource(executor: Executor, candidateId: string, source: CandidateFactRow['source']) {
  await executor.delete(candidateFact).where(and(eq(candidateFact.candidateId, candidateId), eq(candidateFact.source, source)));
}

export async function insertFact(executor: Executor, organizationId: string, candidateId: string, fact: CandidateFactInput) {
  const [row] = await executor
    .insert(candidateFact)
    .values(factRowValues(organizationId, candidateId, fact))
    .returning();
  return row;
}

export async function deleteFact(executor: Executor, candidateId: string, factId: string) {
  if (!isId(factId)) return [];
  return executor
    .delete(candidateFact)
    .where(and(eq(candidateFact.id, factId), eq(candidateFact.candidateId, candidateId)))
    .returning({ id: candidateFact.id, source: candidateFact.source, kind: candidateFact.kind });
}

export async function listFacts(executor: Executor, candidateId: string): Promise<CandidateFactRow[]> {
  return executor
    .select()
    .from(candidateFact)
    .where(eq(candidateFact.candidateId, candidateId))
    .orderBy(asc(candidateFact.kind), asc(candidateFact.name), desc(candidateFact.observedOn));
}

export async function listNotes(executor: Executor, candidateId: string) {
  return executor
    .select({
      id: candidateNote.id,
      candidateId: candidateNote.candidateId,
      body: candidateNote.body,
      createdAt: candidateNote.createdAt,
      authorName: user.name,
    })
    .from(candidateNote)
    .leftJoin(user, eq(user.id, candidateNote.authorUserId))
    .where(eq(candidateNote.candidateId, candidateId))
    .orderBy(desc(candidateNote.createdAt));
}

export async function insertNote(executor: Executor, values: typeof candidateNote.$inferInsert) {
  const [row] = await executor.insert(candidateNote).values(values).returning();
  return row;
}

export async function deleteNote(executor: Executor, candidateId: string, noteId: string) {
  if (!isId(noteId)) return false;
  const rows = await executor
    .delete(candidateNote)
    .where(and(eq(candidateNote.id, noteId), eq(candidateNote.candidateId, candidateId)))
    .returning({ id: candidateNote.id });
  if (rows.length)
    await executor
      .delete(candidateFact)
      .where(and(eq(candidateFact.candidateId, candidateId), eq(candidateFact.source, 'note'), eq(candidateFact.sourceRef, noteId)));
  return rows.length > 0;
}
