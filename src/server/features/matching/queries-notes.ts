import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { CandidateFactInput } from '../../../contract/matching';
import { candidateNote, processingRun } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { jsonList } from './queries-literals';

/** A stored note and the facts its reading gave. */
export interface NoteReading {
  noteId: string;
  candidateId: string;
  facts: CandidateFactInput[];
}

/**
 * Notes that came with people, in one statement; a note the candidate already has word for word (the same file
 * imported again) is not stored twice. Answers the stored notes.
 */
export async function insertReceivedNotes(
  executor: Executor,
  organizationId: string,
  notes: ReadonlyArray<{ id: string; candidateId: string; body: string; authorUserId?: string | null; createdAt?: Date }>,
): Promise<Array<{ id: string; candidateId: string; body: string; writtenAt: Date }>> {
  if (!notes.length) return [];
  const payload = notes.map((note) => ({
    id: note.id,
    candidate_id: note.candidateId,
    body: note.body,
    author_user_id: note.authorUserId ?? null,
    created_at: note.createdAt?.toISOString() ?? null,
  }));
  const result = await executor.execute(sql`
    insert into candidate_note (id, organization_id, candidate_id, body, author_user_id, created_at)
    select distinct on (v.candidate_id, v.body) v.id, ${organizationId}::uuid, v.candidate_id, v.body, v.author_user_id, coalesce(v.created_at, now())
    from jsonb_to_recordset(${jsonList(payload)}) as v(id uuid, candidate_id uuid, body text, author_user_id text, created_at timestamptz)
    where not exists (select 1 from candidate_note n where n.candidate_id = v.candidate_id and n.body = v.body)
    order by v.candidate_id, v.body, v.id
    returning id, candidate_id as "candidateId", body, (created_at at time zone 'UTC')::date::text as "writtenAt"`);
  return rowsOf<{ id: string; candidateId: string; body: string; writtenAt: string }>(result).map((row) => ({
    ...row,
    writtenAt: new Date(`${row.writtenAt}T00:00:00Z`),
  }));
}

/** Replaces the facts of these notes with their readings: one delete and one insert, however many notes. */
export async function replaceNoteFacts(executor: Executor, organizationId: string, readings: readonly NoteReading[]): Promise<number> {
  if (!readings.length) return 0;
  await executor.execute(sql`
    delete from candidate_fact
    where source = 'note'
      and candidate_id = any(array(select (jsonb_array_elements_text(${jsonList([...new Set(readings.map((reading) => reading.candidateId))])}))::uuid))
      and source_ref = any(array(select jsonb_array_elements_text(${jsonList(readings.map((reading) => reading.noteId))})))`);
  const payload = readings.flatMap((reading) =>
    reading.facts.map((fact) => ({
      candidate_id: reading.candidateId,
      kind: fact.kind,
      concept_id: fact.conceptId,
      name: fact.name,
      status: fact.status,
      value: fact.value,
      unit: fact.unit,
      value_text: fact.valueText,
      observed_on: fact.observedOn,
      source_ref: reading.noteId,
      source_text: fact.sourceText,
      span_start: fact.span?.start ?? null,
      span_end: fact.span?.end ?? null,
      code: fact.code,
    })),
  );
  if (!payload.length) return 0;
  await executor.execute(sql`
    insert into candidate_fact (organization_id, candidate_id, kind, concept_id, name, status, value, unit, value_text, observed_on, source, source_ref,
      source_text, span_start, span_end, code)
    select ${organizationId}::uuid, v.candidate_id, v.kind, v.concept_id, v.name, v.status, v.value, v.unit, v.value_text, v.observed_on, 'note',
      v.source_ref, v.source_text, v.span_start, v.span_end, v.code
    from jsonb_to_recordset(${jsonList(payload)}) as v(candidate_id uuid, kind text, concept_id text, name text, status text, value double precision,
      unit text, value_text text, observed_on date, source_ref text, source_text text, span_start int, span_end int, code text)`);
  return payload.length;
}

/** The next notes of an organization after a note id, in id order, for the re-reading run. */
export async function noteSlice(executor: Executor, organizationId: string, afterId: string | null, size: number) {
  return executor
    .select({ id: candidateNote.id, candidateId: candidateNote.candidateId, body: candidateNote.body, writtenAt: candidateNote.createdAt })
    .from(candidateNote)
    .where(and(eq(candidateNote.organizationId, organizationId), afterId ? sql`${candidateNote.id} > ${afterId}::uuid` : undefined))
    .orderBy(asc(candidateNote.id))
    .limit(size);
}

/** The organization's latest run of a kind (the re-reading run's progress, one open run at a time). */
export async function latestRunOfKind(executor: Executor, organizationId: string, kind: string) {
  const [row] = await executor
    .select()
    .from(processingRun)
    .where(and(eq(processingRun.organizationId, organizationId), eq(processingRun.kind, kind)))
    .orderBy(desc(processingRun.createdAt))
    .limit(1);
  return row ?? null;
}

export async function countOrganizationNotes(executor: Executor, organizationId: string): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(candidateNote).where(eq(candidateNote.organizationId, organizationId));
  return Number(row?.total ?? 0);
}
