import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { candidate, candidateFact, candidateFactDigest, candidateFactSignature, processingRun, trial, trialCriterion } from '../../db/schema';
import { rowsOf, type Executor } from '../../db/scoped';
import { shortTrialTitle } from '../../../contract/trial-name';
import type { MatchCriterion, MatchFact, MatchPerson } from './evaluate';
import { isId, TRIAL_MATCH_RUN_KIND, arrayLiteral } from './queries-literals';

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
