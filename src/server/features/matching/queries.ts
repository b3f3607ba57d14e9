import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { UUID_PATTERN } from '../../../contract/common';
import type { CandidateFactInput, MatchClass } from '../../../contract/matching';
import {
  candidate,
  candidateFact,
  candidateFactDigest,
  candidateFactSignature,
  candidateNote,
  candidateTrial,
  criterionJudgement,
  processingRun,
  trial,
  trialCriterion,
  trialMatch,
  user,
} from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { CLASS_RANK, type MatchCriterion, type MatchFact, type MatchPerson } from './evaluate';
import { insertInBatches } from '../../db/batched-insert';

export type CandidateFactRow = typeof candidateFact.$inferSelect;
/** A malformed id names no row: answered as not found without asking the database (which would refuse the cast). */
const isId = (value: string) => UUID_PATTERN.test(value);
export type TrialMatchInsert = typeof trialMatch.$inferInsert;
export const TRIAL_MATCH_RUN_KIND = 'trial_match';

// ---- facts and notes ----

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

// ---- notes read in bulk (an import's notes, the re-reading run: decision 132) ----

/** A stored note and the facts its reading gave. */
export interface NoteReading {
  noteId: string;
  candidateId: string;
  facts: CandidateFactInput[];
}

/** One JSON array parameter per list (a batch holds thousands of values: never one parameter each). */
const jsonList = (values: unknown) => sql`${JSON.stringify(values)}::jsonb`;

/**
 * Notes that came with people, in one statement; a note the candidate already has word for word (the same file
 * imported again) is not stored twice. Answers the stored notes.
 */
export async function insertReceivedNotes(
  executor: Executor,
  organizationId: string,
  notes: ReadonlyArray<{ id: string; candidateId: string; body: string; authorUserId?: string | null; createdAt?: Date }>,
): Promise<Array<{ id: string; candidateId: string; body: string }>> {
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
    returning id, candidate_id as "candidateId", body`);
  return rowsOf<{ id: string; candidateId: string; body: string }>(result);
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
    .select({ id: candidateNote.id, candidateId: candidateNote.candidateId, body: candidateNote.body })
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

// ---- what the matcher reads ----

export async function findCandidateBasics(executor: Executor, candidateId: string) {
  if (!isId(candidateId)) return undefined;
  const [row] = await executor
    .select({
      id: candidate.id,
      organizationId: candidate.organizationId,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      status: candidate.status,
      dateOfBirth: candidate.dateOfBirth,
      sex: candidate.sex,
    })
    .from(candidate)
    .where(eq(candidate.id, candidateId));
  return row;
}

/** The organization's candidate with this phone (E.164) or email, if any. */
export async function findCandidateByContact(executor: Executor, organizationId: string, phone: string | null, email: string | null) {
  if (!phone && !email) return undefined;
  const [row] = await executor
    .select({ id: candidate.id, organizationId: candidate.organizationId })
    .from(candidate)
    .where(
      and(
        eq(candidate.organizationId, organizationId),
        or(phone ? eq(candidate.phone, phone) : undefined, email ? eq(candidate.email, email.toLowerCase()) : undefined),
      ),
    )
    .limit(1);
  return row;
}

/** A health record fills a date of birth or sex the candidate does not have yet; it never overwrites staff's. */
export async function fillMissingDemographics(executor: Executor, candidateId: string, values: { dateOfBirth: string | null; sex: string | null }) {
  await executor
    .update(candidate)
    .set({
      dateOfBirth: sql`coalesce(${candidate.dateOfBirth}, ${values.dateOfBirth}::date)`,
      sex: values.sex && values.sex !== 'unknown' ? sql`case when ${candidate.sex} = 'unknown' then ${values.sex} else ${candidate.sex} end` : undefined,
    })
    .where(eq(candidate.id, candidateId));
}

export async function findTrial(executor: Executor, trialId: string) {
  if (!isId(trialId)) return undefined;
  const [row] = await executor
    .select({
      id: trial.id,
      organizationId: trial.organizationId,
      title: trial.title,
      status: trial.status,
      targetEnrollment: trial.targetEnrollment,
      updatedAt: trial.updatedAt,
    })
    .from(trial)
    .where(eq(trial.id, trialId));
  return row;
}

export async function recruitingTrials(executor: Executor, organizationId: string) {
  return executor
    .select({ id: trial.id, title: trial.title })
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.status, 'recruiting')))
    .orderBy(asc(trial.title));
}

/** The trials' listed conditions and whether they take healthy volunteers: their target conditions (target-condition.ts). */
export async function trialConditions(executor: Executor, trialIds: string[]) {
  if (trialIds.length === 0) return [];
  return executor
    .select({ id: trial.id, conditions: trial.conditions, healthyVolunteers: trial.healthyVolunteers })
    .from(trial)
    .where(inArray(trial.id, trialIds));
}

export async function matchCriteria(
  executor: Executor,
  trialIds: string[],
): Promise<Array<MatchCriterion & { trialId: string; text: string; position: number }>> {
  if (trialIds.length === 0) return [];
  return executor
    .select({
      id: trialCriterion.id,
      trialId: trialCriterion.trialId,
      kind: trialCriterion.kind,
      text: trialCriterion.text,
      position: trialCriterion.position,
      rule: trialCriterion.rule,
      ruleSource: trialCriterion.ruleSource,
      needsReview: trialCriterion.needsReview,
      population: trialCriterion.population,
    })
    .from(trialCriterion)
    .where(inArray(trialCriterion.trialId, trialIds))
    .orderBy(asc(trialCriterion.trialId), asc(trialCriterion.position));
}

const FACT_COLUMNS = {
  id: candidateFact.id,
  candidateId: candidateFact.candidateId,
  kind: candidateFact.kind,
  conceptId: candidateFact.conceptId,
  name: candidateFact.name,
  status: candidateFact.status,
  value: candidateFact.value,
  unit: candidateFact.unit,
  valueText: candidateFact.valueText,
  observedOn: candidateFact.observedOn,
  source: candidateFact.source,
};

/** People with their facts, for a batch of candidate ids. */
export async function matchPeople(executor: Executor, candidateIds: string[]): Promise<Map<string, MatchPerson & { id: string }>> {
  const people = new Map<string, MatchPerson & { id: string }>();
  if (candidateIds.length === 0) return people;
  const rows = await executor
    .select({ id: candidate.id, dateOfBirth: candidate.dateOfBirth, sex: candidate.sex })
    .from(candidate)
    .where(inArray(candidate.id, candidateIds));
  for (const row of rows) people.set(row.id, { ...row, facts: [] });
  const facts = await executor.select(FACT_COLUMNS).from(candidateFact).where(inArray(candidateFact.candidateId, candidateIds));
  for (const { candidateId, ...fact } of facts) people.get(candidateId)?.facts.push(fact as MatchFact);
  return people;
}

const ESCAPED = /["\\]/;
/** A PostgreSQL array literal of texts, each quoted (a run writes 100,000 of these: no closure per item). */
function arrayLiteral(items: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out += `${i ? ',' : ''}"${ESCAPED.test(item) ? item.replace(/["\\]/g, '\\$&') : item}"`;
  }
  return `${out}}`;
}
/** Words an array literal may hold unquoted (uuids and such ids), except NULL. */
const PLAIN = /^[A-Za-z0-9_.:-]+$/;
/**
 * A criterion id list as an array literal, unquoted when every id is plain (they are uuids), so the outer literal
 * needs no escaping. `plain` remembers the ids already checked: a slice repeats the same few thousand times.
 */
function idList(ids: readonly string[], plain: Set<string>): string {
  for (const id of ids) {
    if (plain.has(id)) continue;
    if (!PLAIN.test(id) || id.toLowerCase() === 'null') return arrayLiteral(ids);
    plain.add(id);
  }
  return `{${ids.join(',')}}`;
}
/** A PostgreSQL array literal of numbers. */
const numberArray = (values: readonly number[]) => `{${values.join(',')}}`;

export type Cursor = { createdAt: string; id: string };
/**
 * A candidate of a slice with their packed facts (compiled.ts `decodeFacts` reads them), null when they have none;
 * `unpacked` when they have facts but no digest (their facts are read as rows).
 */
export type SliceCandidate = {
  id: string;
  createdAt: string;
  dateOfBirth: string | null;
  sex: string;
  facts: Uint8Array | null;
  unpacked: boolean;
  /** score.ts's completeness: 0 a clinical note among the facts' sources, 1 a health record, 2 anything else. */
  completeness: number;
};

/**
 * The next slice of an organization's candidates in creation order, after a cursor, each with their packed facts
 * (`candidate_fact_digest`, decisions 087 and 112: per fact its signature's id, value and day), so a slice is one
 * statement over one row per person instead of an aggregation of every fact. A candidate with no digest has no
 * facts, unless the triggers were bypassed: such a candidate is marked `unpacked` and the run reads their facts
 * as rows (a missing digest costs time, never a wrong result). Fact ids are left out: a run keeps outcomes only;
 * the evidence screen reads a candidate's facts afresh.
 */
export async function candidateSlice(executor: Executor, organizationId: string, after: Cursor | null, size: number): Promise<SliceCandidate[]> {
  const slice = rowsOf<{ id: string; created_at: string; date_of_birth: string | null; sex: string; facts: Uint8Array | null; completeness: number }>(
    await executor.execute(sql`
      select c.id, c.created_at::text as created_at, c.date_of_birth::text as date_of_birth, c.sex, d.facts,
        -- How complete the person's source is (score.ts): probed only for people with facts, on the (candidate, source) index.
        case when d.facts is null then 2
          when exists (select 1 from ${candidateFact} f where f.candidate_id = c.id and f.source = 'note') then 0
          when exists (select 1 from ${candidateFact} f where f.candidate_id = c.id and f.source = 'fhir') then 1
          else 2 end as completeness
      from ${candidate} c
      left join ${candidateFactDigest} d on d.candidate_id = c.id
      where c.organization_id = ${organizationId}
        ${after ? sql`and (c.created_at, c.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
      order by c.created_at, c.id
      limit ${size}`),
  );
  const missing = slice.filter((row) => row.facts === null).map((row) => row.id);
  const unpacked = new Set<string>();
  if (missing.length)
    for (const row of rowsOf<{ candidate_id: string }>(
      await executor.execute(sql`select distinct f.candidate_id from ${candidateFact} f where f.candidate_id = any(${arrayLiteral(missing)}::uuid[])`),
    ))
      unpacked.add(row.candidate_id);
  return slice.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    dateOfBirth: row.date_of_birth,
    sex: row.sex,
    facts: row.facts,
    unpacked: unpacked.has(row.id),
    completeness: Number(row.completeness),
  }));
}

/** Signatures by their ids (`candidate_fact_signature`), for the run's dictionary (compiled.ts `addSignatures`). */
export async function factSignatures(executor: Executor, ids: readonly number[]): Promise<Array<{ id: number; signature: string }>> {
  if (ids.length === 0) return [];
  return executor
    .select({ id: candidateFactSignature.id, signature: candidateFactSignature.signature })
    .from(candidateFactSignature)
    .where(inArray(candidateFactSignature.id, [...ids]));
}

export async function countOrganizationCandidates(executor: Executor, organizationId: string): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(candidate).where(eq(candidate.organizationId, organizationId));
  return Number(row?.total ?? 0);
}

// ---- runs and results ----

export type MatchRunRow = typeof processingRun.$inferSelect;

/** The trial's newest match run, and its newest completed one. */
export async function matchRuns(executor: Executor, trialId: string): Promise<{ latest: MatchRunRow | null; completed: MatchRunRow | null }> {
  const rows = await executor
    .select()
    .from(processingRun)
    .where(and(eq(processingRun.kind, TRIAL_MATCH_RUN_KIND), sql`${processingRun.options}->>'trialId' = ${trialId}`))
    .orderBy(desc(processingRun.createdAt))
    .limit(20);
  return { latest: rows[0] ?? null, completed: rows.find((row) => row.status === 'completed') ?? null };
}

/** A result row as a slice writes it; its id lists may be shared with other rows (compiled.ts `IdList`). */
export type MatchRowInsert = Pick<TrialMatchInsert, 'candidateId' | 'matchClass' | 'classRank' | 'score' | 'metCount' | 'unknownCount'> & {
  notMetIds: readonly string[];
  unknownIds: readonly string[];
};

/**
 * A slice of results in one set-based statement (decision 038): one array parameter per column, unnested,
 * instead of a row per parameter set or a JSON document per row. The criterion id lists go once per distinct list
 * (one array object: the run shares a list among the people who have it, decision 104), as a text array of array
 * literals cast once each; a row names its two lists by position. No conflict handling: a slice and the run's
 * cursor commit together, so a resumed run never writes a candidate twice. trial_match has no foreign keys
 * (decision 087): a trial deleted during the run is skipped here instead of failing the write. A candidate deleted
 * since the slice was read is not looked up (10,000 index probes, a fifth of a slice's write): their row is
 * deleted after the run completes (`dropSupersededResults`), and no page shows it meanwhile (a page keeps the rows
 * whose candidate it finds).
 */
export async function insertMatches(executor: Executor, run: { runId: string; organizationId: string; trialId: string }, rows: readonly MatchRowInsert[]) {
  if (rows.length === 0) return;
  const plain = new Set<string>();
  const listAt = new Map<readonly string[], number>();
  const lists: string[] = [];
  const positionOf = (ids: readonly string[]) => {
    let at = listAt.get(ids);
    if (at === undefined) {
      at = lists.push(idList(ids, plain));
      listAt.set(ids, at);
    }
    return at;
  };
  const notMet = rows.map((row) => positionOf(row.notMetIds));
  const unknown = rows.map((row) => positionOf(row.unknownIds));
  // The unnested slice (25,000 rows) held in memory rather than spilt to a temporary file (work_mem is 4 MB by
  // default); for the rest of the caller's transaction only.
  await executor.execute(sql`set local work_mem = '64MB'`);
  await executor.execute(sql`
    with lists as (select l.at::int as at, l.ids::text[] as ids from unnest(${arrayLiteral(lists)}::text[]) with ordinality as l(ids, at)),
    r as (
      select * from unnest(
        ${arrayLiteral(rows.map((row) => row.candidateId))}::uuid[],
        ${arrayLiteral(rows.map((row) => row.matchClass))}::text[],
        ${numberArray(rows.map((row) => row.classRank))}::smallint[],
        ${numberArray(rows.map((row) => row.score))}::real[],
        ${numberArray(rows.map((row) => row.metCount))}::int[],
        ${numberArray(rows.map((row) => row.unknownCount))}::int[],
        ${numberArray(notMet)}::int[],
        ${numberArray(unknown)}::int[]
      ) as r(candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_list, unknown_list)
    )
    insert into ${trialMatch} (run_id, organization_id, trial_id, candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_ids, unknown_ids)
    select ${run.runId}::uuid, ${run.organizationId}::uuid, ${run.trialId}::uuid, r.candidate_id, r.match_class, r.class_rank, r.score, r.met_count, r.unknown_count, n.ids, u.ids
    from r
    join lists n on n.at = r.not_met_list
    join lists u on u.at = r.unknown_list
    where exists (select 1 from ${trial} t where t.id = ${run.trialId}::uuid)`);
}

/**
 * After a run completed (decision 113: not in its completing transaction, so the results show as soon as they are
 * whole): the rows of the trial's runs begun before it, which it replaces, and its own rows of candidates deleted
 * during the run. Readers read one run's rows (the trial's latest completed), so until this runs nothing shows
 * twice; a process stopped before it leaves rows the next completed run deletes. Runs begun before this one are
 * all finished (one open run per trial); a run begun after it is never touched. Found by the trial's runs
 * (processing runs are never deleted but with their organization, whose results go with it): trial_match has no
 * index on the trial.
 */
export async function dropSupersededResults(executor: Executor, trialId: string, runId: string) {
  await executor.execute(sql`
    delete from ${trialMatch} m
    using ${processingRun} r, ${processingRun} kept
    where kept.id = ${runId}::uuid
      and r.kind = ${TRIAL_MATCH_RUN_KIND} and r.options->>'trialId' = ${trialId} and r.created_at < kept.created_at
      and m.run_id = r.id`);
  await executor.execute(sql`
    delete from ${trialMatch} m
    where m.run_id = ${runId}::uuid and not exists (select 1 from ${candidate} c where c.id = m.candidate_id)`);
}

export async function matchCounts(executor: Executor, runId: string): Promise<Record<MatchClass, number>> {
  const rows = await executor
    .select({ matchClass: trialMatch.matchClass, total: count() })
    .from(trialMatch)
    .where(eq(trialMatch.runId, runId))
    .groupBy(trialMatch.matchClass);
  const counts: Record<MatchClass, number> = { likely: 0, possible: 0, excluded: 0 };
  for (const row of rows) counts[row.matchClass] = Number(row.total);
  return counts;
}

export interface MatchPageFilter {
  runId: string;
  trialId: string;
  matchClass?: MatchClass;
  criterionId?: string;
  /** One candidate's row only (decision 133). */
  candidateId?: string;
  q?: string;
  limit: number;
  offset: number;
}

function pageWhere(filter: MatchPageFilter) {
  const criterion = filter.criterionId
    ? filter.matchClass === 'excluded'
      ? sql`${filter.criterionId} = any(${trialMatch.notMetIds})`
      : filter.matchClass
        ? sql`${filter.criterionId} = any(${trialMatch.unknownIds})`
        : sql`(${filter.criterionId} = any(${trialMatch.notMetIds}) or ${filter.criterionId} = any(${trialMatch.unknownIds}))`
    : undefined;
  const words = filter.q ? `%${filter.q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
  const search = words ? sql`(lower(${candidate.firstName} || ' ' || ${candidate.lastName}) like ${words})` : undefined;
  // The class by its rank: the rank is in the results' index.
  return and(
    eq(trialMatch.runId, filter.runId),
    filter.matchClass ? eq(trialMatch.classRank, CLASS_RANK[filter.matchClass]) : undefined,
    filter.candidateId ? eq(trialMatch.candidateId, filter.candidateId) : undefined,
    criterion,
    search,
  );
}

export async function matchPage(executor: Executor, filter: MatchPageFilter, knownTotal?: number) {
  const where = pageWhere(filter);
  const columns = {
    candidateId: trialMatch.candidateId,
    matchClass: trialMatch.matchClass,
    score: trialMatch.score,
    metCount: trialMatch.metCount,
    notMetIds: trialMatch.notMetIds,
    unknownIds: trialMatch.unknownIds,
  };
  // Exactly the index's order (score DESC NULLS LAST), so a page is read off the index, not sorted.
  const order = [asc(trialMatch.classRank), sql`${trialMatch.score} desc nulls last`, asc(trialMatch.candidateId)] as const;
  // The page is chosen in the results' own index; only its rows meet the candidate table (names, status),
  // unless a name search needs the join to filter.
  const ranked = filter.q
    ? await executor
        .select(columns)
        .from(trialMatch)
        .innerJoin(candidate, eq(candidate.id, trialMatch.candidateId))
        .where(where)
        .orderBy(...order)
        .limit(filter.limit)
        .offset(filter.offset)
    : await executor
        .select(columns)
        .from(trialMatch)
        .where(where)
        .orderBy(...order)
        .limit(filter.limit)
        .offset(filter.offset);
  const ids = ranked.map((row) => row.candidateId);
  const people = ids.length
    ? await executor
        .select({ id: candidate.id, firstName: candidate.firstName, lastName: candidate.lastName, status: candidate.status })
        .from(candidate)
        .where(inArray(candidate.id, ids))
    : [];
  const linked = ids.length
    ? await executor
        .select({ candidateId: candidateTrial.candidateId })
        .from(candidateTrial)
        .where(and(eq(candidateTrial.trialId, filter.trialId), inArray(candidateTrial.candidateId, ids)))
    : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  const inTrial = new Set(linked.map((row) => row.candidateId));
  const rows = ranked.flatMap((row) => {
    const person = byId.get(row.candidateId);
    return person ? [{ ...row, firstName: person.firstName, lastName: person.lastName, status: person.status, inTrial: inTrial.has(row.candidateId) }] : [];
  });
  if (knownTotal !== undefined) return { rows, total: knownTotal };
  const [total] = filter.q
    ? await executor.select({ total: count() }).from(trialMatch).innerJoin(candidate, eq(candidate.id, trialMatch.candidateId)).where(where)
    : await executor.select({ total: count() }).from(trialMatch).where(where);
  return { rows, total: Number(total?.total ?? 0) };
}

/** Criteria by how many candidates they exclude, and for how many each is the only criterion not met. */
export async function excludingCounts(executor: Executor, runId: string) {
  const result = await executor.execute(sql`
    select c.criterion_id, count(*)::int as excluded, count(*) filter (where cardinality(m.not_met_ids) = 1)::int as only_blocker
    from ${trialMatch} m, unnest(m.not_met_ids) as c(criterion_id)
    where m.run_id = ${runId}
    group by c.criterion_id`);
  return rowsOf<{ criterion_id: string; excluded: number; only_blocker: number }>(result);
}

/** Criteria by how many candidates who are not excluded nothing known decides. */
export async function unknownCounts(executor: Executor, runId: string) {
  const result = await executor.execute(sql`
    select c.criterion_id, count(*)::int as unknown
    from ${trialMatch} m, unnest(m.unknown_ids) as c(criterion_id)
    where m.run_id = ${runId} and m.class_rank < 2
    group by c.criterion_id`);
  return rowsOf<{ criterion_id: string; unknown: number }>(result);
}

/** The candidates a change to one criterion could move: those it alone excludes, and everyone not excluded. */
export async function whatIfPool(executor: Executor, runId: string, criterionId: string) {
  return executor
    .select({ candidateId: trialMatch.candidateId, matchClass: trialMatch.matchClass })
    .from(trialMatch)
    .where(and(eq(trialMatch.runId, runId), or(sql`${trialMatch.classRank} < 2`, sql`${trialMatch.notMetIds} = array[${criterionId}]::text[]`)));
}

/** Whether anything the results depend on changed after the run began. */
export async function changedSince(executor: Executor, organizationId: string, trialUpdatedAt: Date, since: Date): Promise<boolean> {
  if (trialUpdatedAt > since) return true;
  const result = await executor.execute(sql`
    select exists (select 1 from ${candidate} where ${candidate.organizationId} = ${organizationId} and ${candidate.updatedAt} > ${since.toISOString()}::timestamptz)
        or exists (select 1 from ${candidateFact} where ${candidateFact.organizationId} = ${organizationId} and ${candidateFact.recordedAt} > ${since.toISOString()}::timestamptz)
        as changed`);
  return Boolean(rowsOf<{ changed: boolean }>(result)[0]?.changed);
}

export async function linkedTrialIds(executor: Executor, candidateId: string): Promise<Set<string>> {
  const rows = await executor.select({ trialId: candidateTrial.trialId }).from(candidateTrial).where(eq(candidateTrial.candidateId, candidateId));
  return new Set(rows.map((row) => row.trialId));
}

/** How many of these candidates are already linked to the trial. */
export async function countLinked(executor: Executor, trialId: string, candidateIds: string[]): Promise<number> {
  if (candidateIds.length === 0) return 0;
  const [row] = await executor
    .select({ total: count() })
    .from(candidateTrial)
    .where(and(eq(candidateTrial.trialId, trialId), inArray(candidateTrial.candidateId, candidateIds)));
  return Number(row?.total ?? 0);
}

/**
 * Each trial's latest completed match run in these organizations (as `matchRuns` finds it): the rows a trial's
 * screen shows. The runs it replaced keep their rows for a moment after it completes (`dropSupersededResults`).
 */
const latestCompletedRuns = (organizationIds: readonly string[]) => sql`(
  select distinct on (r.options->>'trialId') r.id
  from ${processingRun} r
  where r.kind = ${TRIAL_MATCH_RUN_KIND} and r.status = 'completed' and r.organization_id = any(${arrayLiteral(organizationIds)}::uuid[])
  order by r.options->>'trialId', r.created_at desc
)`;

/**
 * The dashboard's matcher summary over organizations (decision 032): per trial, its latest completed run's
 * results, how many of the matched candidates were contacted
 * (their status moved past new) and converted (enrolled).
 */
export async function matcherSummaryRows(executor: Executor, organizationIds: readonly string[]) {
  if (!organizationIds.length) return [];
  const result = await executor.execute(sql`
    select m.trial_id, t.title,
      count(*) filter (where m.class_rank < 2)::int as found,
      count(*) filter (where m.class_rank = 0)::int as likely,
      count(*) filter (where m.class_rank = 1)::int as possible,
      count(*) filter (where m.class_rank < 2 and c.status <> 'new')::int as contacted,
      count(*) filter (where m.class_rank < 2 and c.status = 'enrolled')::int as converted
    from ${latestCompletedRuns(organizationIds)} r
    join ${trialMatch} m on m.run_id = r.id
    join ${trial} t on t.id = m.trial_id
    join ${candidate} c on c.id = m.candidate_id
    group by m.trial_id, t.title
    order by found desc, t.title`);
  return rowsOf<{ trial_id: string; title: string; found: number; likely: number; possible: number; contacted: number; converted: number }>(result);
}

/** The criteria that most often stand between the completed runs' candidates and a match, with their text. */
export async function matcherTopGapRows(executor: Executor, organizationIds: readonly string[], limit: number) {
  if (!organizationIds.length) return [];
  const result = await executor.execute(sql`
    with gaps as (
      select m.trial_id, g.criterion_id, count(*) filter (where g.gap = 'not_met')::int as not_met, count(*) filter (where g.gap = 'unknown')::int as unknown
      from ${latestCompletedRuns(organizationIds)} r
      join ${trialMatch} m on m.run_id = r.id
      cross join lateral (
        select n as criterion_id, 'not_met' as gap from unnest(m.not_met_ids) n
        union all
        select u, 'unknown' from unnest(m.unknown_ids) u where m.class_rank < 2
      ) g
      group by m.trial_id, g.criterion_id
    )
    select gaps.trial_id, t.title, gaps.criterion_id, tc.text, gaps.not_met, gaps.unknown
    from gaps
    join ${trial} t on t.id = gaps.trial_id
    join ${trialCriterion} tc on tc.id::text = gaps.criterion_id
    order by gaps.not_met + gaps.unknown desc, tc.position
    limit ${limit}`);
  return rowsOf<{ trial_id: string; title: string; criterion_id: string; text: string; not_met: number; unknown: number }>(result);
}

// ---- language model judgements (decision 097) ----

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
