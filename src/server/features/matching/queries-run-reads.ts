import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { candidate, candidateFact, candidateFactDigest, candidateFactSignature, processingRun, trial, trialCriterion } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { shortTrialTitle } from '../../../contract/trial-name';
import type { MatchCriterion, MatchFact, MatchPerson } from './evaluate';
import { isId, TRIAL_MATCH_RUN_KIND, arrayLiteral } from './queries-literals';
import type { PackedSlice } from './compiled-decode';

/** A trial as the matcher's screens show it: named briefly (issue 32), the official title stays on the trial's page. */
export async function findTrial(executor: Executor, trialId: string) {
  if (!isId(trialId)) return undefined;
  const [row] = await executor
    .select({
      id: trial.id,
      organizationId: trial.organizationId,
      title: trial.title,
      publicTitle: trial.publicTitle,
      status: trial.status,
      targetEnrollment: trial.targetEnrollment,
      updatedAt: trial.updatedAt,
    })
    .from(trial)
    .where(eq(trial.id, trialId));
  if (!row) return undefined;
  const { publicTitle, ...found } = row;
  return { ...found, title: shortTrialTitle({ title: row.title, publicTitle }) };
}

/** The organization's recruiting trials, named briefly, for matching one person against all of them. */
export async function recruitingTrials(executor: Executor, organizationId: string) {
  const rows = await executor
    .select({ id: trial.id, title: trial.title, publicTitle: trial.publicTitle })
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.status, 'recruiting')))
    .orderBy(asc(trial.title));
  return rows.map(({ publicTitle, ...row }) => ({ ...row, title: shortTrialTitle({ title: row.title, publicTitle }) }));
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

export type Cursor = { createdAt: string; id: string };
/** The candidate table's sexes by the code a slice's statement sends (the strings shared, not one per person). */
const SEXES = ['female', 'male', 'other', 'unknown'] as const;

/**
 * A slice of candidates as columns, in creation order: ids, dates of birth (YYYY-MM-DD, null when unknown), sexes, how
 * complete each one's source is (score.ts: 0 a clinical note among the facts' sources, 1 a health record, 2 anything
 * else), their packed facts in one byte array (compiled-decode.ts `decodeFacts`; none for a candidate without facts),
 * the indexes of those who have facts but no digest (their facts are read as rows), and the last one's creation
 * time (the cursor after the slice, with the last id).
 */
export type Slice = {
  ids: string[];
  datesOfBirth: Array<string | null>;
  sexes: string[];
  completeness: Uint8Array;
  packed: PackedSlice;
  unpacked: number[];
  lastCreatedAt: string;
};

const UUID_TEXT = 36;
/** Per candidate in the statement's `people`: their digest's length in bytes (int4, -1 without one), completeness and sex code (int2 each). */
const PERSON_BYTES = 8;

/**
 * The next slice of an organization's candidates in creation order, after a cursor, each with their packed facts
 * (`candidate_fact_digest`, decisions 087 and 112: per fact its signature's id, value and day), so a slice is one
 * statement over one row per person instead of an aggregation of every fact. Decision 299: the digest keeps how
 * complete the person's source is, and the statement answers one row for the whole slice (each column aggregated in
 * creation order: the ids as one text, the facts and a few bytes per person as base64), so the driver builds a
 * handful of strings instead of a row object and six values per candidate. A candidate with no digest has no facts,
 * unless the triggers were bypassed: such a candidate is listed in `unpacked` and the run reads their facts as rows
 * (a missing digest costs time, never a wrong result). Fact ids are left out: a run keeps outcomes only; the
 * evidence screen reads a candidate's facts afresh.
 */
export async function candidateSlice(executor: Executor, organizationId: string, after: Cursor | null, size: number): Promise<Slice> {
  // The slice's aggregates are sorted in memory rather than spilt (work_mem is 4 MB by default), for the rest of the caller's transaction.
  await executor.execute(sql`set local work_mem = '64MB'`);
  const [row] = rowsOf<{ ids: string | null; dates: string; people: string; facts: string | null; last_created_at: string }>(
    await executor.execute(sql`
      with s as (
        select c.id, c.created_at, c.date_of_birth, c.sex, d.facts, d.completeness
        from ${candidate} c
        left join ${candidateFactDigest} d on d.candidate_id = c.id
        where c.organization_id = ${organizationId}
          ${after ? sql`and (c.created_at, c.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
        order by c.created_at, c.id
        limit ${size}
      )
      select string_agg(s.id::text, '' order by s.created_at, s.id) as ids,
        string_agg(coalesce(s.date_of_birth::text, ''), ',' order by s.created_at, s.id) as dates,
        encode(string_agg(int4send(coalesce(octet_length(s.facts), -1)) || int2send(coalesce(s.completeness, 2)::smallint)
          || int2send((case s.sex when 'female' then 0 when 'male' then 1 when 'other' then 2 else 3 end)::smallint), ''::bytea order by s.created_at, s.id), 'base64') as people,
        encode(string_agg(s.facts, ''::bytea order by s.created_at, s.id), 'base64') as facts,
        max(s.created_at)::text as last_created_at
      from s`),
  );
  const count = row?.ids ? row.ids.length / UUID_TEXT : 0;
  const ids: string[] = new Array(count);
  for (let i = 0; i < count; i++) ids[i] = row.ids!.slice(i * UUID_TEXT, (i + 1) * UUID_TEXT);
  const datesOfBirth: Array<string | null> = count ? row.dates.split(',').map((date) => date || null) : [];
  const people = count ? Buffer.from(row.people, 'base64') : Buffer.alloc(0);
  const facts = row?.facts ? Buffer.from(row.facts, 'base64') : new Uint8Array(0);
  const sexes: string[] = new Array(count);
  const completeness = new Uint8Array(count);
  const starts = new Int32Array(count + 1);
  const missing: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const length = people.readInt32BE(i * PERSON_BYTES);
    completeness[i] = people[i * PERSON_BYTES + 5];
    sexes[i] = SEXES[people[i * PERSON_BYTES + 7]];
    starts[i] = at;
    if (length < 0) missing.push(i);
    else at += length;
  }
  starts[count] = at;
  const unpacked: number[] = [];
  if (missing.length) {
    const found = new Set(
      rowsOf<{ candidate_id: string }>(
        await executor.execute(
          sql`select distinct f.candidate_id from ${candidateFact} f where f.candidate_id = any(${arrayLiteral(missing.map((i) => ids[i]))}::uuid[])`,
        ),
      ).map((found) => found.candidate_id),
    );
    for (const i of missing) if (found.has(ids[i])) unpacked.push(i);
  }
  return { ids, datesOfBirth, sexes, completeness, packed: { bytes: facts, starts }, unpacked, lastCreatedAt: row?.last_created_at ?? '' };
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

/** Whether anything the results depend on changed after the run began. */
export async function changedSince(executor: Executor, organizationId: string, trialUpdatedAt: Date, since: Date): Promise<boolean> {
  if (trialUpdatedAt > since) return true;
  const result = await executor.execute(sql`
    select exists (select 1 from ${candidate} where ${candidate.organizationId} = ${organizationId} and ${candidate.updatedAt} > ${since.toISOString()}::timestamptz)
        or exists (select 1 from ${candidateFact} where ${candidateFact.organizationId} = ${organizationId} and ${candidateFact.recordedAt} > ${since.toISOString()}::timestamptz)
        as changed`);
  return Boolean(rowsOf<{ changed: boolean }>(result)[0]?.changed);
}
