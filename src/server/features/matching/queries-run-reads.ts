import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { candidate, candidateFact, candidateFactDigest, candidateFactSignature, processingRun, trial, trialCriterion } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { shortTrialTitle } from '../../../contract/trial-name';
import type { MatchCriterion, MatchFact, MatchPerson } from './evaluate';
import { isId, TRIAL_MATCH_RUN_KIND, arrayLiteral } from './queries-literals';
import { packedFromBase64, type PackedSlice } from './compiled-decode';

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
/** A candidate of a slice as the statement reads them: their record's basics (their facts are in the slice's `packed`). */
export type SliceCandidate = {
  id: string;
  created_at: string;
  date_of_birth: string | null;
  sex: string;
  /** score.ts's completeness: 0 a clinical note among the facts' sources, 1 a health record, 2 anything else. */
  completeness: number;
};

/**
 * A slice: its candidates, their packed facts in one byte array (compiled-decode.ts `decodeFacts` reads them; none
 * for a candidate without facts), and the indexes of those who have facts but no digest (their facts are read as rows).
 */
export type Slice = { candidates: SliceCandidate[]; packed: PackedSlice; unpacked: number[] };

/**
 * The next slice of an organization's candidates in creation order, after a cursor, each with their packed facts
 * (`candidate_fact_digest`, decisions 087 and 112: per fact its signature's id, value and day), so a slice is one
 * statement over one row per person instead of an aggregation of every fact. The digest keeps how complete the
 * person's source is too (decision 299). The bytes come as base64 text (a third shorter than bytea's hex, decoded
 * by Node's faster decoder) written into one byte array for the slice. A candidate with no digest has no facts,
 * unless the triggers were bypassed: such a candidate is listed in `unpacked` and the run reads their facts as rows
 * (a missing digest costs time, never a wrong result). Fact ids are left out: a run keeps outcomes only; the
 * evidence screen reads a candidate's facts afresh.
 */
export async function candidateSlice(executor: Executor, organizationId: string, after: Cursor | null, size: number): Promise<Slice> {
  const rows = rowsOf<SliceCandidate & { facts: string | null }>(
    await executor.execute(sql`
      select c.id, c.created_at::text as created_at, c.date_of_birth::text as date_of_birth, c.sex,
        encode(d.facts, 'base64') as facts, coalesce(d.completeness, 2)::int as completeness
      from ${candidate} c
      left join ${candidateFactDigest} d on d.candidate_id = c.id
      where c.organization_id = ${organizationId}
        ${after ? sql`and (c.created_at, c.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
      order by c.created_at, c.id
      limit ${size}`),
  );
  const texts: Array<string | null> = new Array(rows.length);
  const missing: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    texts[i] = rows[i].facts;
    if (rows[i].facts === null) missing.push(rows[i].id);
  }
  const unpacked: number[] = [];
  if (missing.length) {
    const found = new Set(
      rowsOf<{ candidate_id: string }>(
        await executor.execute(sql`select distinct f.candidate_id from ${candidateFact} f where f.candidate_id = any(${arrayLiteral(missing)}::uuid[])`),
      ).map((row) => row.candidate_id),
    );
    for (let i = 0; i < rows.length; i++) if (rows[i].facts === null && found.has(rows[i].id)) unpacked.push(i);
  }
  return { candidates: rows, packed: packedFromBase64(texts), unpacked };
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
