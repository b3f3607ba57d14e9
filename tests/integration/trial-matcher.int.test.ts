import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeMatchRuns, whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The trial matcher end to end through the API: facts from staff, notes and a FHIR bundle; a match run;
 * ranked results with evidence; gap analysis checked against a direct SQL count; what-if; add to trial;
 * re-matching against the organization's other trials.
 */

let t: TestApp;
let a: SignedUp;
let trialId: string;
const ids: Record<string, string> = {};
const criterionIds: Record<string, string> = {};

const asthma = [{ id: 'mesh:D001249', name: 'asthma' }];
const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;

async function addCandidate(name: string, body: Record<string, unknown>) {
  const created = await a.actor.post('/api/candidates/', { firstName: name, lastName: 'Test', ...body });
  expect(created.status).toBe(201);
  ids[name] = created.body.id;
  return created.body.id as string;
}

async function addFact(name: string, fact: Record<string, unknown>) {
  const added = await a.actor.post(`/api/candidates/${ids[name]}/clinical/facts`, fact);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body;
}

async function runMatch(id = trialId) {
  const started = await a.actor.post(`/api/trial-matcher/${id}/runs`, {});
  expect(started.status).toBe(202);
  expect(started.body.kind).toBe('trial_match');
  await whenMatchRunSettled(started.body.id);
  return started.body.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Matcher Site' });
  const trial = await createRecruitingTrial(a.actor, {
    title: 'Asthma controller study',
    targetEnrollment: 10,
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 to 65', rule: { type: 'age', minYears: 18, maxYears: 65 } },
      { kind: 'inclusion', text: 'Physician-diagnosed asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } },
      { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
      { kind: 'exclusion', text: 'Investigator judges the participant unsuitable', rule: { type: 'site_judgement', reason: 'investigator_judgement' } },
    ],
  });
  expect(trial.status).toBe(201);
  trialId = trial.body.id;
  for (const criterion of trial.body.criteria) criterionIds[criterion.text] = criterion.id;

  await addCandidate('Ann', { dateOfBirth: yearsAgo(40), sex: 'female' });
  await addFact('Ann', { kind: 'condition', name: 'asthma', status: 'present' });
  await addFact('Ann', { kind: 'smoking', name: 'smoking', status: 'absent' });
  await addCandidate('Bob', { dateOfBirth: yearsAgo(76), sex: 'male' });
  await addFact('Bob', { kind: 'condition', name: 'asthma', status: 'present' });
  await addCandidate('Cat', { dateOfBirth: yearsAgo(30), sex: 'female' });
  await addCandidate('Dan', { dateOfBirth: yearsAgo(35), sex: 'male' });
  await addFact('Dan', { kind: 'condition', name: 'asthma', status: 'present' });
  await addFact('Dan', { kind: 'smoking', name: 'smoking', status: 'present' });
  await addCandidate('Eve', { dateOfBirth: yearsAgo(25), sex: 'female' });
  await addFact('Eve', { kind: 'condition', name: 'Asthma', status: 'absent' });
});
afterAll(() => t?.close());

describe('matching a trial', () => {
  it('ranks candidates into likely, possible and excluded, with the deciding criteria', async () => {
    const before = await a.actor.get(`/api/trial-matcher/${trialId}`);
    expect(before.status).toBe(200);
    expect(before.body.resultsRun).toBeNull();
    expect(before.body.counts.total).toBe(0);

    await runMatch();
    const overview = await a.actor.get(`/api/trial-matcher/${trialId}`);
    expect(overview.body.counts).toEqual({ likely: 1, possible: 1, excluded: 3, total: 5 });
    expect(overview.body.resultsRun.status).toBe('completed');
    expect(overview.body.stale).toBe(false);
    // Who the trial is for (age, asthma) are key facts; a site's judgement and an exclusion are not.
    expect(Object.fromEntries(overview.body.criteria.map((criterion: any) => [criterion.text, criterion.key]))).toEqual({
      'Aged 18 to 65': true,
      'Physician-diagnosed asthma': true,
      'Current smoker': false,
      'Investigator judges the participant unsuitable': false,
    });

    const list = await a.actor.get(`/api/trial-matcher/${trialId}/matches`);
    expect(list.body.total).toBe(5);
    expect(list.body.matches.map((row: any) => [row.candidate.firstName, row.matchClass])).toEqual([
      ['Ann', 'likely'],
      ['Cat', 'possible'],
      ...list.body.matches.slice(2).map((row: any) => [row.candidate.firstName, 'excluded']),
    ]);
    const excludedByAge = await a.actor.get(`/api/trial-matcher/${trialId}/matches?class=excluded&criterionId=${criterionIds['Aged 18 to 65']}`);
    expect(excludedByAge.body.matches.map((row: any) => row.candidate.firstName)).toEqual(['Bob']);
    const searched = await a.actor.get(`/api/trial-matcher/${trialId}/matches?q=dan`);
    expect(searched.body.matches.map((row: any) => row.candidate.firstName)).toEqual(['Dan']);
  });

  it('shows the evidence criterion by criterion; a site-judgement criterion never excludes', async () => {
    const bob = await a.actor.get(`/api/trial-matcher/${trialId}/candidates/${ids.Bob}`);
    expect(bob.status).toBe(200);
    expect(bob.body.matchClass).toBe('excluded');
    const byText = Object.fromEntries(bob.body.evidence.map((item: any) => [item.text, item]));
    expect(byText['Aged 18 to 65']).toMatchObject({ outcome: 'not_met', reason: expect.stringContaining('Age 76') });
    expect(byText['Physician-diagnosed asthma']).toMatchObject({ outcome: 'met', fact: expect.objectContaining({ name: 'asthma', source: 'manual' }) });
    expect(byText['Investigator judges the participant unsuitable'].outcome).toBe('unknown');

    const dan = await a.actor.get(`/api/trial-matcher/${trialId}/candidates/${ids.Dan}`);
    expect(dan.body.evidence.find((item: any) => item.text === 'Current smoker')).toMatchObject({
      outcome: 'not_met',
      reason: expect.stringContaining('Smokes'),
    });
    const eve = await a.actor.get(`/api/trial-matcher/${trialId}/candidates/${ids.Eve}`);
    expect(eve.body.evidence.find((item: any) => item.text === 'Physician-diagnosed asthma')).toMatchObject({ outcome: 'not_met' });
  });

  it('gap analysis counts what each criterion excludes, equal to a direct count', async () => {
    const gaps = await a.actor.get(`/api/trial-matcher/${trialId}/gaps`);
    expect(gaps.status).toBe(200);
    expect(gaps.body.targetEnrollment).toBe(10);
    const excluding = Object.fromEntries(gaps.body.excluding.map((row: any) => [row.text, row]));
    // The age criterion against the candidates' own dates of birth, counted in SQL.
    const direct = await t.deps.db.execute(sql`
      select count(*)::int as n from candidate
      where organization_id = ${a.organizationId} and date_part('year', age(current_date, date_of_birth)) not between 18 and 65`);
    expect(excluding['Aged 18 to 65']).toEqual(expect.objectContaining({ excluded: Number((direct as any).rows[0].n), onlyBlocker: 1 }));
    expect(excluding['Current smoker']).toEqual(expect.objectContaining({ excluded: 1, onlyBlocker: 1 }));
    expect(excluding['Physician-diagnosed asthma']).toEqual(expect.objectContaining({ excluded: 1 }));
    // Cat's asthma is unknown: the key fact to ask next.
    expect(gaps.body.unknown[0]).toEqual(expect.objectContaining({ text: 'Physician-diagnosed asthma', unknown: 1, key: true }));
  });

  it('turns what to ask next into prescreen questions in one click, then updates the same form', async () => {
    const gaps = await a.actor.get(`/api/trial-matcher/${trialId}/gaps`);
    const unknownIds = gaps.body.unknown.map((row: any) => row.criterionId);
    const first = await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: unknownIds });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      created: true,
      outcome: 'created',
      formName: 'Questions to ask next (from the trial matcher)',
      questionCount: expect.any(Number),
    });
    const form = await a.actor.get(`/api/prescreen-forms/${first.body.formId}`);
    expect(form.body).toMatchObject({ trialId, status: 'draft' });
    const linked = form.body.blocks
      .flatMap((block: any) => block.questions)
      .flatMap((question: any) => (question.criterionLinks ?? []).map((link: any) => link.criterionId));
    expect(linked).toContain(criterionIds['Physician-diagnosed asthma']);
    const again = await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: [criterionIds['Current smoker']] });
    expect(again.body).toMatchObject({ created: false, outcome: 'replaced', formId: first.body.formId });
    // Issue 32: or added to a draft staff choose, after its own questions; asked again, nothing is added twice.
    const draft = await a.actor.post('/api/prescreen-forms/', { trialId, name: 'Screening draft' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const added = await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: unknownIds, formId: draft.body.id });
    expect(added.body).toMatchObject({ outcome: 'added', formId: draft.body.id, formName: 'Screening draft', questionCount: first.body.questionCount });
    const filled = await a.actor.get(`/api/prescreen-forms/${draft.body.id}`);
    expect(filled.body.blocks.flatMap((block: any) => block.questions)).toHaveLength(first.body.questionCount);
    const twice = await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: unknownIds, formId: draft.body.id });
    expect(twice.body).toMatchObject({ outcome: 'added', questionCount: 0 });
    // Only a draft takes questions.
    const published = await a.actor.put(`/api/prescreen-forms/${draft.body.id}`, { status: 'published' });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: unknownIds, formId: draft.body.id })).status).toBe(409);
    expect((await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: [] })).status).toBe(400);
    expect((await a.actor.post(`/api/trial-matcher/${trialId}/prescreen-form`, { criterionIds: ['not-a-criterion'] })).status).toBe(404);
  });

  it('what-if: raising the maximum age admits the candidate it alone excluded', async () => {
    const raised = await a.actor.post(`/api/trial-matcher/${trialId}/what-if`, {
      criterionId: criterionIds['Aged 18 to 65'],
      rule: { type: 'age', minYears: 18, maxYears: 80 },
    });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ admitted: 1, newlyExcluded: 0, before: { likely: 1, excluded: 3 }, after: { likely: 2, excluded: 2 } });
    const dropped = await a.actor.post(`/api/trial-matcher/${trialId}/what-if`, { criterionId: criterionIds['Current smoker'], rule: null });
    expect(dropped.body).toMatchObject({ admitted: 1, after: { likely: 2 } });
    const tightened = await a.actor.post(`/api/trial-matcher/${trialId}/what-if`, {
      criterionId: criterionIds['Aged 18 to 65'],
      rule: { type: 'age', minYears: 18, maxYears: 35 },
    });
    expect(tightened.body).toMatchObject({ admitted: 0, newlyExcluded: 1 });
    const unknownCriterion = await a.actor.post(`/api/trial-matcher/${trialId}/what-if`, { criterionId: 'nope', rule: null });
    expect(unknownCriterion.status).toBe(404);
    const badRule = await a.actor.post(`/api/trial-matcher/${trialId}/what-if`, { criterionId: criterionIds['Aged 18 to 65'], rule: { type: 'age' } });
    expect(badRule.status).toBe(400);
  });

  it('adds likely candidates to the trial in one step', async () => {
    const added = await a.actor.post(`/api/trial-matcher/${trialId}/add-to-trial`, { candidateIds: [ids.Ann] });
    expect(added.body).toEqual({ added: 1, alreadyInTrial: 0 });
    const again = await a.actor.post(`/api/trial-matcher/${trialId}/add-to-trial`, { candidateIds: [ids.Ann] });
    expect(again.body).toEqual({ added: 0, alreadyInTrial: 1 });
    const candidate = await a.actor.get(`/api/candidates/${ids.Ann}`);
    expect(candidate.body.trialIds).toContain(trialId);
    const list = await a.actor.get(`/api/trial-matcher/${trialId}/matches?class=likely`);
    expect(list.body.matches[0]).toMatchObject({ inTrial: true });
    const empty = await a.actor.post(`/api/trial-matcher/${trialId}/add-to-trial`, { candidateIds: [] });
    expect(empty.status).toBe(400);
  });

  it('says the results are stale after a fact changes, and a new run replaces them', async () => {
    await addFact('Cat', { kind: 'condition', name: 'asthma', status: 'present' });
    expect((await a.actor.get(`/api/trial-matcher/${trialId}`)).body.stale).toBe(true);
    await runMatch();
    const overview = await a.actor.get(`/api/trial-matcher/${trialId}`);
    expect(overview.body).toMatchObject({ stale: false, counts: { likely: 2, possible: 0, excluded: 3 } });
    const rows = await t.deps.db.execute(sql`select count(distinct run_id)::int as runs from trial_match where trial_id = ${trialId}`);
    expect((rows as any).rows[0].runs).toBe(1);
  });

  it("re-matches a screen-failed candidate against the organization's other recruiting trials", async () => {
    const other = await createRecruitingTrial(a.actor, {
      title: 'Smokers with asthma study',
      criteria: [
        { kind: 'inclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } },
        { kind: 'inclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: true } },
      ],
    });
    const draft = await a.actor.post('/api/trials/', {
      title: 'Draft study',
      criteria: [{ kind: 'inclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } }],
    });
    expect(draft.status).toBe(201);
    const dan = await a.actor.get(`/api/trial-matcher/candidates/${ids.Dan}/other-trials`);
    expect(dan.status).toBe(200);
    const titles = dan.body.trials.map((row: any) => row.title);
    expect(titles).toContain('Smokers with asthma study');
    expect(titles).not.toContain('Asthma controller study');
    expect(titles).not.toContain('Draft study');
    expect(dan.body.trials.find((row: any) => row.trialId === other.body.id)).toMatchObject({
      matchClass: 'likely',
      reasons: expect.arrayContaining([expect.stringContaining('asthma')]),
    });
  });

  it('a run interrupted after a batch resumes after it, without redoing it', async () => {
    // As a process that stopped after committing the first batch (one candidate) would leave it.
    const first = (await t.deps.db.execute(
      sql`select id, created_at::text as created_at from candidate where organization_id = ${a.organizationId} order by created_at, id limit 1`,
    )) as any;
    const cursor = { createdAt: first.rows[0].created_at, id: first.rows[0].id };
    const run = (await t.deps.db.execute(sql`
      insert into processing_run (organization_id, kind, label, status, total, processed, options, started_at)
      values (${a.organizationId}, 'trial_match', 'Interrupted', 'running', 5, 1, ${JSON.stringify({ trialId, cursor })}::jsonb, now()) returning id`)) as any;
    const runId = run.rows[0].id as string;
    await t.deps.db.execute(sql`
      insert into trial_match (run_id, organization_id, trial_id, candidate_id, match_class, class_rank, score, met_count, unknown_count)
      values (${runId}, ${a.organizationId}, ${trialId}, ${cursor.id}, 'possible', 1, 0.123, 0, 0)`);

    const resumed = await resumeMatchRuns(t.deps);
    expect(resumed).toContain(runId);
    await whenMatchRunSettled(runId);
    const overview = await a.actor.get(`/api/trial-matcher/${trialId}`);
    expect(overview.body.resultsRun).toMatchObject({ id: runId, status: 'completed' });
    const total = Number((await a.actor.get(`/api/candidates/?limit=1`)).body.total);
    expect(overview.body.counts.total).toBe(total);
    // The first batch's row is the one written before the stop: not computed again.
    const kept = (await t.deps.db.execute(sql`select score from trial_match where run_id = ${runId} and candidate_id = ${cursor.id}`)) as any;
    expect(Number(kept.rows[0].score)).toBeCloseTo(0.123);
  });

  it('leaves a run alone while another live process holds it, and takes it over once that claim lapses', async () => {
    const run = (await t.deps.db.execute(sql`
      insert into processing_run (organization_id, kind, label, status, total, options, started_at, lease_owner, lease_expires_at)
      values (${a.organizationId}, 'trial_match', 'Held elsewhere', 'running', 5, ${JSON.stringify({ trialId, cursor: null })}::jsonb, now(), 'another-process', now() + interval '60 seconds') returning id`)) as any;
    const runId = run.rows[0].id as string;
    await resumeMatchRuns(t.deps);
    await whenMatchRunSettled(runId);
    const rows = async () => Number(((await t.deps.db.execute(sql`select count(*)::int as n from trial_match where run_id = ${runId}`)) as any).rows[0].n);
    expect(await rows()).toBe(0);
    await t.deps.db.execute(sql`update processing_run set lease_expires_at = now() - interval '1 second' where id = ${runId}`);
    await resumeMatchRuns(t.deps);
    await whenMatchRunSettled(runId);
    expect(await rows()).toBeGreaterThan(0);
    expect((await a.actor.get(`/api/trial-matcher/${trialId}`)).body.resultsRun.id).toBe(runId);
  });

  it('answers 404 for an unknown trial and an unknown candidate', async () => {
    expect((await a.actor.get('/api/trial-matcher/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await a.actor.post('/api/trial-matcher/00000000-0000-4000-8000-000000000000/runs', {})).status).toBe(404);
    expect((await a.actor.get(`/api/trial-matcher/${trialId}/candidates/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});

describe('the clinical record', () => {
  it('reads a note into facts with negation and keeps the words as evidence', async () => {
    const id = await addCandidate('Fay', { sex: 'female' });
    const note = 'A 52-year-old woman with a history of asthma since childhood. She denies smoking and has no diabetes.';
    const added = await a.actor.post(`/api/candidates/${id}/clinical/notes`, { body: note });
    expect(added.status).toBe(201);
    const facts = added.body.facts as any[];
    const asthmaFact = facts.find((fact) => fact.kind === 'condition' && /asthma/i.test(fact.name));
    expect(asthmaFact).toMatchObject({ source: 'note', sourceRef: added.body.note.id });
    expect(note.slice(asthmaFact.span.start, asthmaFact.span.end).toLowerCase()).toContain('asthma');
    expect(facts.find((fact) => fact.kind === 'smoking')).toMatchObject({ status: 'absent' });
    expect(facts.find((fact) => fact.kind === 'age')).toMatchObject({ value: 52 });

    const record = await a.actor.get(`/api/candidates/${id}/clinical`);
    expect(record.body.notes).toHaveLength(1);
    expect(record.body.notes[0].factCount).toBe(facts.length);
    expect((await a.actor.delete(`/api/candidates/${id}/clinical/notes/${added.body.note.id}`)).status).toBe(204);
    expect((await a.actor.get(`/api/candidates/${id}/clinical`)).body).toEqual({ notes: [], facts: [] });
  });

  it('refuses an empty note and a fact without its value, naming the field', async () => {
    const empty = await a.actor.post(`/api/candidates/${ids.Ann}/clinical/notes`, { body: '   ' });
    expect(empty.status).toBe(400);
    const lab = await a.actor.post(`/api/candidates/${ids.Ann}/clinical/facts`, { kind: 'lab', name: 'HbA1c' });
    expect(lab.status).toBe(400);
    expect(lab.body.error.details.map((detail: any) => detail.path)).toContain('value');
    const condition = await a.actor.post(`/api/candidates/${ids.Ann}/clinical/facts`, { kind: 'condition', name: 'asthma' });
    expect(condition.status).toBe(400);
  });

  it('imports a FHIR bundle as a new candidate with facts, and merges the same patient again', async () => {
    const bundle = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/fhir/small-bundle.json'), 'utf8'));
    const first = await a.actor.post('/api/candidates/fhir', bundle);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.outcome).toBe('created');
    expect(first.body.factCount).toBeGreaterThan(3);
    const record = await a.actor.get(`/api/candidates/${first.body.candidateId}/clinical`);
    expect(record.body.facts.length).toBe(first.body.factCount);
    expect(record.body.facts.every((fact: any) => fact.source === 'fhir')).toBe(true);
    const second = await a.actor.post('/api/candidates/fhir', bundle);
    expect(second.body).toMatchObject({ outcome: 'merged', candidateId: first.body.candidateId, factCount: first.body.factCount });
    expect((await a.actor.get(`/api/candidates/${first.body.candidateId}/clinical`)).body.facts.length).toBe(first.body.factCount);

    const notABundle = await a.actor.post('/api/candidates/fhir', { resourceType: 'Patient' });
    expect(notABundle.status).toBe(400);
    expect(notABundle.body.error.message).toMatch(/bundle/i);
  });
});
