import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, runAsOrganization } from '../../src/server/db/scoped';
import { dropSupersededResults, insertMatches } from '../../src/server/features/matching/queries-run-writes';
import { matchRunTuning, whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { seededRandom } from '../support/seeded-random';

/**
 * A match run reads each candidate's facts as one text kept on write (decision 087), slice by slice with the next
 * slice read ahead, decides per fact signature what each criterion reads (decision 084) and keeps its counts as it
 * goes (decision 038). Every stored result equals the candidate's evaluation against all their facts (the evidence
 * screen's), the stored counts equal the results counted afresh, and a missing digest changes nothing.
 */

let t: TestApp;
let a: SignedUp;
let trialId: string;
const criterionIds: Record<string, string> = {};
const tuning = { ...matchRunTuning };

const asthma = [{ id: 'mesh:D001249', name: 'asthma' }];
const CRITERIA = [
  { kind: 'inclusion', text: 'Aged 18 to 70', rule: { type: 'age', minYears: 18, maxYears: 70 } },
  { kind: 'inclusion', text: 'Women', rule: { type: 'sex', sex: 'female' } },
  { kind: 'inclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } },
  // No concept ids: decided by the fact's words only ("Type 2 Diabetes Mellitus" is a type 2 diabetes).
  { kind: 'exclusion', text: 'History of type 2 diabetes', rule: { type: 'condition', condition: 'type 2 diabetes', present: false, history: true } },
  {
    kind: 'exclusion',
    text: 'Heart attack in the last year',
    rule: { type: 'condition', condition: 'myocardial infarction', present: false, within: { value: 1, unit: 'years' } },
  },
  {
    kind: 'inclusion',
    text: 'Taking an inhaled corticosteroid',
    rule: { type: 'medication', medication: 'budesonide', taking: true, concepts: [{ id: 'rx:budesonide', name: 'budesonide' }] },
  },
  {
    kind: 'exclusion',
    text: 'Prednisone in the last 3 months',
    rule: { type: 'medication', medication: 'prednisone', taking: false, within: { value: 3, unit: 'months' } },
  },
  { kind: 'inclusion', text: 'FEV1 40-80%', rule: { type: 'lab', measure: 'FEV1', comparator: 'between', value: 40, upperValue: 80, unit: '%' } },
  { kind: 'exclusion', text: 'ALT or AST above 100', rule: { type: 'lab', measure: 'ALT/AST', comparator: '<=', value: 100 } },
  { kind: 'exclusion', text: 'Bilirubin above 1.5 x ULN', rule: { type: 'lab', measure: 'bilirubin', comparator: '<=', value: 1.5, relativeTo: 'ULN' } },
  { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
  { kind: 'exclusion', text: 'Pregnant', rule: { type: 'pregnancy', allowed: false } },
  { kind: 'inclusion', text: 'ECOG 0-1', rule: { type: 'performance_status', scale: 'ECOG', min: 0, max: 1 } },
  { kind: 'exclusion', text: 'Healthy volunteers', rule: { type: 'healthy_volunteers', accepted: false } },
  { kind: 'inclusion', text: 'Uses contraception', rule: { type: 'contraception', required: true } },
  { kind: 'exclusion', text: 'Investigator judgement', rule: { type: 'site_judgement', reason: 'investigator_judgement' } },
  { kind: 'exclusion', text: 'Anything else the investigator names', rule: null },
  { kind: 'exclusion', text: 'Women of childbearing potential: no contraception', rule: { type: 'pregnancy', allowed: false }, population: 'women' },
];

type Fact = {
  kind: string;
  conceptId?: string | null;
  name: string;
  status?: string | null;
  value?: number | null;
  unit?: string | null;
  valueText?: string | null;
  observedOn?: string | null;
};
const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-06-01`;
const monthsAgo = (months: number) => {
  const day = new Date();
  day.setUTCMonth(day.getUTCMonth() - months);
  return day.toISOString().slice(0, 10);
};

/** Facts a trial reads and facts it does not, named every way the evaluation must handle. */
const CONDITIONS: Fact[] = [
  { kind: 'condition', conceptId: 'mesh:D001249', name: 'asthma', status: 'present' },
  { kind: 'condition', name: 'Severe Asthma', status: 'present' },
  { kind: 'condition', name: 'asthma', status: 'absent' },
  { kind: 'condition', name: 'Asthme sévère', status: 'present' },
  { kind: 'condition', name: 'Type 2 Diabetes Mellitus', status: 'present' },
  { kind: 'condition', name: 'diabetes', status: 'absent' },
  { kind: 'condition', name: 'type 2 diabetes', status: 'history', observedOn: yearsAgo(5) },
  { kind: 'condition', name: 'Myocardial infarction', status: 'history', observedOn: monthsAgo(4) },
  { kind: 'condition', name: 'myocardial infarction', status: 'history', observedOn: yearsAgo(3) },
  { kind: 'condition', name: 'infarction', status: 'absent' },
  { kind: 'condition', conceptId: 'mesh:D006973', name: 'hypertension', status: 'present' },
  { kind: 'condition', name: 'osteoarthritis', status: 'history' },
];
const MEDICATIONS: Fact[] = [
  { kind: 'medication', conceptId: 'rx:budesonide', name: 'Pulmicort', status: 'present' },
  { kind: 'medication', name: 'budesonide inhaler', status: 'present' },
  { kind: 'medication', name: 'budesonide', status: 'absent' },
  { kind: 'medication', name: 'Prednisone', status: 'history', observedOn: monthsAgo(1) },
  { kind: 'medication', name: 'prednisone', status: 'history', observedOn: yearsAgo(2) },
  { kind: 'medication', name: 'metformin', status: 'present' },
];

function factsFor(index: number): Fact[] {
  const random = seededRandom(index + 1);
  const facts: Fact[] = [];
  const count = Math.floor(random.next() * 4);
  for (let i = 0; i < count; i++) facts.push(random.pick(CONDITIONS));
  for (let i = 0, n = Math.floor(random.next() * 3); i < n; i++) facts.push(random.pick(MEDICATIONS));
  // Labs of one measure on distinct days: which is the latest never depends on the order rows are read in.
  const labNames = ['FEV1', 'fev1', 'ALT', 'AST', 'bilirubin', 'HbA1c'];
  for (let i = 0, n = Math.floor(random.next() * 4); i < n; i++)
    facts.push({
      kind: 'lab',
      name: random.pick(labNames),
      value: Math.round(random.next() * 150),
      unit: random.pick(['%', null, 'U/L']),
      observedOn: monthsAgo(i + 1),
    });
  if (random.next() < 0.7) facts.push({ kind: 'smoking', name: 'smoking', status: random.pick(['present', 'history', 'absent']) });
  if (random.next() < 0.3) facts.push({ kind: 'pregnancy', name: 'pregnancy', status: random.pick(['present', 'absent']) });
  if (random.next() < 0.4) facts.push({ kind: 'performance_status', name: 'ECOG', value: Math.floor(random.next() * 4), valueText: 'ECOG' });
  if (random.next() < 0.2) facts.push({ kind: 'age', name: 'age', value: 20 + Math.floor(random.next() * 60) });
  if (random.next() < 0.2) facts.push({ kind: 'sex', name: 'sex', valueText: random.pick(['female', 'male']) });
  return facts;
}

const POOL = 40;
/** Facts' sources: any note makes a person's source a note, else any health record (score.ts `completenessOf`). */
const SOURCES = ['import', 'fhir', 'import', 'import', 'note', 'import', 'import'];

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Slices Site' });
  const other = await t.signUp({ organizationName: 'Other Site' });
  const trial = await createRecruitingTrial(a.actor, { title: 'Asthma slices study', criteria: CRITERIA });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  trialId = trial.body.id;
  for (const criterion of trial.body.criteria) criterionIds[criterion.text] = criterion.id;
  for (const [organizationId, size] of [
    [a.organizationId, POOL],
    [other.organizationId, 5],
  ] as const) {
    for (let i = 0; i < size; i++) {
      const random = seededRandom(1000 + i);
      const dateOfBirth = random.next() < 0.85 ? yearsAgo(15 + Math.floor(random.next() * 70)) : null;
      const sex = random.pick(['female', 'female', 'male', 'unknown']);
      const [row] = (
        (await t.deps.db.execute(sql`
        insert into candidate (organization_id, first_name, last_name, date_of_birth, sex)
        values (${organizationId}, ${`Person ${i}`}, 'Slices', ${dateOfBirth}, ${sex}) returning id`)) as unknown as { rows: Array<{ id: string }> }
      ).rows;
      // Sources mixed within and across people: the run reads how complete each one's source is from their digest (decision 299).
      for (const [k, fact] of factsFor(i).entries())
        await t.deps.db.execute(sql`
          insert into candidate_fact (organization_id, candidate_id, kind, concept_id, name, status, value, unit, value_text, observed_on, source)
          values (${organizationId}, ${row.id}, ${fact.kind}, ${fact.conceptId ?? null}, ${fact.name}, ${fact.status ?? null}, ${fact.value ?? null},
                  ${fact.unit ?? null}, ${fact.valueText ?? null}, ${fact.observedOn ?? null}, ${SOURCES[(i + k * 3) % SOURCES.length]})`);
    }
  }
  // Several slices, each evaluated in several steps, the next read while one is written.
  matchRunTuning.sliceSize = 7;
  matchRunTuning.evaluateChunk = 3;
});
afterAll(async () => {
  Object.assign(matchRunTuning, tuning);
  await t?.close();
});

type StoredResult = {
  candidate_id: string;
  match_class: string;
  score: number;
  met_count: number;
  unknown_count: number;
  not_met_ids: string[];
  unknown_ids: string[];
};
/** A run's stored results, by candidate. */
async function storedResults(runId: string): Promise<StoredResult[]> {
  return rowsOf<StoredResult>(
    await t.deps.db.execute(sql`
      select candidate_id, match_class, score, met_count, unknown_count, not_met_ids, unknown_ids from trial_match where run_id = ${runId} order by candidate_id`),
  );
}

async function matchAll(): Promise<string> {
  const started = await a.actor.post(`/api/trial-matcher/${trialId}/runs`, {});
  expect(started.status).toBe(202);
  await whenMatchRunSettled(started.body.id);
  return started.body.id;
}

describe('a match run in slices', () => {
  it("stores for every candidate what the evidence screen computes from all of the candidate's facts, and counts them", async () => {
    const started = await a.actor.post(`/api/trial-matcher/${trialId}/runs`, {});
    expect(started.status).toBe(202);
    await whenMatchRunSettled(started.body.id);

    const stored = await storedResults(started.body.id);
    expect(stored).toHaveLength(POOL);
    expect(new Set(stored.map((row) => row.candidate_id)).size).toBe(POOL);

    const expected = { likely: 0, possible: 0, excluded: 0 };
    const excluded: Record<string, number> = {};
    const unknown: Record<string, number> = {};
    for (const row of stored) {
      const evidence = await a.actor.get(`/api/trial-matcher/${trialId}/candidates/${row.candidate_id}`);
      expect(evidence.status).toBe(200);
      const outcomes = evidence.body.evidence as Array<{ criterionId: string; outcome: string }>;
      const notMet = outcomes.filter((item) => item.outcome === 'not_met').map((item) => item.criterionId);
      const unknownIds = outcomes.filter((item) => item.outcome === 'unknown').map((item) => item.criterionId);
      expect({
        matchClass: row.match_class,
        score: Number(row.score),
        metCount: row.met_count,
        unknownCount: row.unknown_count,
        notMet: row.not_met_ids,
        unknownIds: row.unknown_ids,
      }).toEqual({
        matchClass: evidence.body.matchClass,
        score: expect.closeTo(evidence.body.score, 5),
        metCount: outcomes.filter((item) => item.outcome === 'met').length,
        unknownCount: unknownIds.length,
        notMet,
        unknownIds,
      });
      expected[evidence.body.matchClass as keyof typeof expected]++;
      for (const id of notMet) excluded[id] = (excluded[id] ?? 0) + 1;
      if (evidence.body.matchClass !== 'excluded') for (const id of unknownIds) unknown[id] = (unknown[id] ?? 0) + 1;
    }
    // The pool is varied enough to test something: every class, and most criteria deciding someone.
    expect(expected.likely + expected.possible).toBeGreaterThan(0);
    expect(expected.excluded).toBeGreaterThan(0);
    expect(Object.keys(excluded).length).toBeGreaterThan(8);

    const overview = await a.actor.get(`/api/trial-matcher/${trialId}`);
    expect(overview.body.resultsRun).toMatchObject({ id: started.body.id, status: 'completed', processed: POOL });
    expect(overview.body.counts).toEqual({ ...expected, total: POOL });
    const gaps = await a.actor.get(`/api/trial-matcher/${trialId}/gaps`);
    expect(Object.fromEntries(gaps.body.excluding.map((row: { criterionId: string; excluded: number }) => [row.criterionId, row.excluded]))).toEqual(excluded);
    expect(Object.fromEntries(gaps.body.unknown.map((row: { criterionId: string; unknown: number }) => [row.criterionId, row.unknown]))).toEqual(unknown);
    const onlyBlockers = stored.filter((row) => row.not_met_ids.length === 1);
    for (const row of gaps.body.excluding)
      expect(row.onlyBlocker, row.text).toBe(onlyBlockers.filter((item) => item.not_met_ids[0] === row.criterionId).length);
  });

  it("reads a candidate's facts afresh when their digest is missing (decision 087), and stores the same results", async () => {
    const before = await storedResults(await matchAll());
    // Half the pool's digests gone, as if written around the triggers: the run must not read them as "no facts".
    const removed = rowsOf<{ candidate_id: string }>(
      await t.deps.db.execute(sql`
        delete from candidate_fact_digest d using candidate c
        where c.id = d.candidate_id and c.organization_id = ${a.organizationId} and c.last_name = 'Slices' and right(c.first_name, 1) in ('0', '2', '4', '6', '8')
        returning d.candidate_id`),
    );
    expect(removed.length).toBeGreaterThan(5);
    const after = await storedResults(await matchAll());
    expect(after).toEqual(before);
    expect(new Set(after.map((row) => row.match_class)).size).toBeGreaterThan(1);
  });

  it("forgets a deleted candidate's and a deleted trial's results without foreign keys, and drops a candidate deleted mid-run after the run (decisions 087, 113)", async () => {
    const runId = await matchAll();
    const resultsOf = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from trial_match where ${where}`))[0].n;
    const [gone, kept] = (await storedResults(runId)).map((row) => row.candidate_id);
    expect((await a.actor.delete(`/api/candidates/${gone}`)).status).toBe(204);
    expect(await resultsOf(sql`candidate_id = ${gone}`)).toBe(0);
    expect(await resultsOf(sql`candidate_id = ${kept}`)).toBe(1);
    expect(await resultsOf(sql`run_id = ${runId}`)).toBe(POOL - 1);

    // A slice evaluated before a person was deleted still writes their row (decision 113); the clean-up after the
    // run completes deletes it, and leaves everyone else's.
    const row = { matchClass: 'likely' as const, classRank: 0, score: 1, metCount: 1, unknownCount: 0, notMetIds: [], unknownIds: [] };
    const written = crypto.randomUUID();
    await runAsOrganization(t.deps.db, a.organizationId, (tx) =>
      insertMatches(tx, { runId: written, organizationId: a.organizationId, trialId }, [
        { ...row, candidateId: gone },
        { ...row, candidateId: kept },
      ]),
    );
    expect(await resultsOf(sql`run_id = ${written}`)).toBe(2);
    await runAsOrganization(t.deps.db, a.organizationId, (tx) => dropSupersededResults(tx, trialId, written));
    expect(await resultsOf(sql`run_id = ${written}`)).toBe(1);
    expect(await resultsOf(sql`run_id = ${written} and candidate_id = ${kept}`)).toBe(1);

    expect((await a.actor.delete(`/api/trials/${trialId}`)).status).toBe(204);
    expect(await resultsOf(sql`trial_id = ${trialId}`)).toBe(0);
  });
});
