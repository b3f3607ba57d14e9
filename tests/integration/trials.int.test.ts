import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidate, candidateTrial } from '../../src/server/db/schema';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov', name), 'utf8'));

let t: TestApp;
let owner: SignedUp;
let other: SignedUp;
let admin: Actor;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ organizationName: 'Maple Trials' });
  other = await t.signUp({ organizationName: 'Birch Research' });
  admin = await t.signInAdmin();
});
afterAll(() => t?.close());

const audits = (entityId: string) => t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, entityId));

const addStaff = async (role: string) => {
  const email = uniqueEmail('staff');
  const added = await owner.actor.post('/api/users/', {
    organizationId: owner.organizationId,
    email,
    name: 'Staff Member',
    role,
    mode: 'add',
    password: 'first-password-1',
  });
  expect(added.status).toBe(201);
  return t.signIn(email, 'first-password-1');
};

describe('trials by hand', () => {
  it('creates, lists, gets, updates and deletes a trial, auditing each change', async () => {
    const created = await owner.actor.post('/api/trials/', {
      title: 'Asthma Study of Something',
      publicTitle: 'Asthma study',
      nctId: 'nct01234567',
      sponsor: 'Sponsor Inc',
      phase: 'Phase 2',
      conditions: ['Asthma'],
      targetEnrollment: 40,
      sites: [{ name: 'Main clinic', city: 'Toronto', country: 'Canada', timeZone: 'America/Toronto', latitude: 43.65, longitude: -79.38 }],
      minimumAgeYears: 18,
      sex: 'all',
      criteria: [
        { kind: 'inclusion', text: 'Adults 18 or older', rule: { type: 'age', minYears: 18, maxYears: null } },
        { kind: 'exclusion', text: 'Smokers' },
      ],
    });
    expect(created.status).toBe(201);
    const trial = created.body;
    expect(trial).toMatchObject({
      organizationId: owner.organizationId,
      nctId: 'NCT01234567',
      status: 'draft',
      candidateCount: 0,
      enrolledCount: 0,
      maximumAgeYears: null,
      healthyVolunteers: null,
    });
    expect(trial.statusHistory).toEqual([{ from: null, to: 'draft', at: expect.any(String), byUserId: owner.userId }]);
    expect(trial.criteria.map((c: any) => [c.position, c.kind, c.text, c.ruleSource, c.needsReview])).toEqual([
      [0, 'inclusion', 'Adults 18 or older', 'manual', false],
      [1, 'exclusion', 'Smokers', null, false],
    ]);

    const listed = await owner.actor.get('/api/trials/');
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);
    expect(listed.body.trials[0]).toMatchObject({ id: trial.id, criteria: expect.any(Array), candidateCount: 0 });
    expect((await owner.actor.get(`/api/trials/${trial.id}`)).body).toEqual(listed.body.trials[0]);

    const updated = await owner.actor.patch(`/api/trials/${trial.id}`, { title: 'Asthma Study, renamed', targetEnrollment: 60, sponsor: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Asthma Study, renamed', targetEnrollment: 60, sponsor: null, criteria: trial.criteria });

    const coordinator = await addStaff('coordinator');
    expect((await coordinator.patch(`/api/trials/${trial.id}`, { phase: 'Phase 3' })).status).toBe(200);
    expect((await coordinator.delete(`/api/trials/${trial.id}`)).status).toBe(403);
    expect((await owner.actor.delete(`/api/trials/${trial.id}`)).status).toBe(204);
    expect((await owner.actor.get(`/api/trials/${trial.id}`)).status).toBe(404);

    const rows = await audits(trial.id);
    expect(rows.map((row) => row.action)).toEqual(['trial.create', 'trial.update', 'trial.update', 'trial.delete']);
    expect(rows[1].changes).toEqual({ fields: ['title', 'sponsor', 'targetEnrollment'] });
    expect(rows.every((row) => row.organizationId === owner.organizationId)).toBe(true);
  });

  it('lets any staff member create trials; refuses a duplicate NCT id in the organization', async () => {
    const coordinator = await addStaff('coordinator');
    const first = await coordinator.post('/api/trials/', { title: 'Coordinator trial', nctId: 'NCT07654321' });
    expect(first.status).toBe(201);
    const duplicate = await owner.actor.post('/api/trials/', { title: 'Again', nctId: 'NCT07654321' });
    expect(duplicate.status).toBe(409);
    // In words the import screen can show as they are: no field name in front.
    expect(duplicate.body.error.message).toBe(
      'NCT07654321 is already one of this organization’s trials. Open it from the trial list instead of importing it again.',
    );
    // Another organization may recruit for the same study.
    expect((await other.actor.post('/api/trials/', { title: 'Same study elsewhere', nctId: 'NCT07654321' })).status).toBe(201);
  });

  it('answers 400 naming the field for bad input', async () => {
    const missing = await owner.actor.post('/api/trials/', { phase: 'Phase 1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('title');
    const wrongTypes = await owner.actor.post('/api/trials/', { title: 'X', targetEnrollment: 'many', nctId: 'ABC', sex: 'other' });
    expect(wrongTypes.status).toBe(400);
    for (const field of ['targetEnrollment', 'nctId', 'sex']) expect(wrongTypes.body.error.message).toContain(field);
    const ages = await owner.actor.post('/api/trials/', { title: 'X', minimumAgeYears: 60, maximumAgeYears: 18 });
    expect(ages.body.error.message).toContain('maximumAgeYears');
    const badRule = await owner.actor.post('/api/trials/', {
      title: 'X',
      criteria: [{ kind: 'inclusion', text: 'Y', rule: { type: 'lab', measure: 'eGFR' } }],
    });
    expect(badRule.status).toBe(400);
    expect(badRule.body.error.message).toContain('criteria.0.rule');
    const empty = await owner.actor.patch(`/api/trials/${(await owner.actor.post('/api/trials/', { title: 'Z' })).body.id}`, {});
    expect(empty.status).toBe(400);
  });

  it('answers 404 for a malformed or unknown id', async () => {
    expect((await owner.actor.get('/api/trials/not-a-uuid')).status).toBe(404);
    expect((await owner.actor.patch('/api/trials/00000000-0000-4000-8000-000000000000', { title: 'X' })).status).toBe(404);
    expect((await owner.actor.delete('/api/trials/123')).status).toBe(404);
  });
});

describe('candidate counts', () => {
  it('counts linked and enrolled candidates per trial', async () => {
    const { body: trial } = await owner.actor.post('/api/trials/', { title: 'Counted trial' });
    const rows = await t.deps.db
      .insert(candidate)
      .values([
        { organizationId: owner.organizationId, firstName: 'Test', status: 'enrolled' },
        { organizationId: owner.organizationId, firstName: 'Test', status: 'contacted' },
        { organizationId: owner.organizationId, firstName: 'Test', status: 'enrolled' },
      ])
      .returning({ id: candidate.id });
    await t.deps.db
      .insert(candidateTrial)
      .values(rows.slice(0, 2).map((row) => ({ candidateId: row.id, trialId: trial.id, organizationId: owner.organizationId })));
    const listed = (await owner.actor.get('/api/trials/')).body.trials.find((row: any) => row.id === trial.id);
    expect(listed).toMatchObject({ candidateCount: 2, enrolledCount: 1 });
    expect((await owner.actor.get(`/api/trials/${trial.id}`)).body).toMatchObject({ candidateCount: 2, enrolledCount: 1 });
  });
});

describe('lifecycle', () => {
  it('follows draft -> recruiting -> paused -> recruiting -> closed, keeping each change', async () => {
    const { body: trial } = await owner.actor.post('/api/trials/', { title: 'Lifecycle trial' });
    const move = (status: string) => owner.actor.patch(`/api/trials/${trial.id}`, { status });

    const invalid = await move('paused');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toContain('from draft to paused');

    for (const status of ['recruiting', 'paused', 'recruiting', 'closed']) expect((await move(status)).status).toBe(200);
    const closed = await owner.actor.get(`/api/trials/${trial.id}`);
    expect(closed.body.status).toBe('closed');
    expect(closed.body.statusHistory.map((change: any) => [change.from, change.to])).toEqual([
      [null, 'draft'],
      ['draft', 'recruiting'],
      ['recruiting', 'paused'],
      ['paused', 'recruiting'],
      ['recruiting', 'closed'],
    ]);
    expect(closed.body.statusHistory.every((change: any) => change.byUserId === owner.userId && !Number.isNaN(Date.parse(change.at)))).toBe(true);

    const reopen = await move('recruiting');
    expect(reopen.status).toBe(400);
    expect(reopen.body.error.message).toContain('from closed to recruiting');
    const statusAudits = (await audits(trial.id)).filter((row) => row.action === 'trial.status');
    expect(statusAudits.map((row) => row.changes)).toEqual([
      { from: 'draft', to: 'recruiting' },
      { from: 'recruiting', to: 'paused' },
      { from: 'paused', to: 'recruiting' },
      { from: 'recruiting', to: 'closed' },
    ]);
  });
});

describe('criteria editing', () => {
  it('replaces, reorders, adds and deletes criteria; keeps ids and parsed rules', async () => {
    const { body: draft } = await owner.actor.post('/api/trials/auto-gen', {
      study: {
        ...fixture('asthma-study.json'),
        protocolSection: { ...fixture('asthma-study.json').protocolSection, identificationModule: { nctId: 'NCT09900101', briefTitle: 'Criteria editing' } },
      },
    });
    const criteria = draft.criteria as Array<{ id: string; kind: string; text: string; rule: unknown; ruleSource: string | null; needsReview: boolean }>;
    const bmi = criteria.find((c) => c.text.startsWith('BMI'))!;
    const asthma = criteria.find((c) => c.text.startsWith('Diagnosis of asthma'))!;

    const edited = await owner.actor.patch(`/api/trials/${draft.id}`, {
      criteria: [
        { id: asthma.id, kind: 'inclusion', text: asthma.text, rule: { type: 'condition', condition: 'asthma', present: true } },
        { id: bmi.id, kind: 'inclusion', text: bmi.text },
        { kind: 'exclusion', text: 'Enrolled in another study' },
      ],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.criteria).toEqual([
      {
        id: asthma.id,
        position: 0,
        kind: 'inclusion',
        text: asthma.text,
        rule: { type: 'condition', condition: 'asthma', present: true },
        ruleSource: 'manual',
        needsReview: false,
        population: null,
      },
      { id: bmi.id, position: 1, kind: 'inclusion', text: bmi.text, rule: bmi.rule, ruleSource: 'text', needsReview: false, population: null },
      {
        id: expect.any(String),
        position: 2,
        kind: 'exclusion',
        text: 'Enrolled in another study',
        rule: null,
        ruleSource: null,
        needsReview: false,
        population: null,
      },
    ]);

    const unknown = await owner.actor.patch(`/api/trials/${draft.id}`, { criteria: [{ id: criteria[0].id, kind: 'inclusion', text: 'deleted one' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('criteria.0.id');

    const emptied = await owner.actor.patch(`/api/trials/${draft.id}`, { criteria: [] });
    expect(emptied.body.criteria).toEqual([]);
    expect((await audits(draft.id)).filter((row) => row.action === 'trial.update').map((row) => row.changes)).toEqual([
      { fields: ['criteria'], criteria: 3 },
      { fields: ['criteria'], criteria: 0 },
    ]);
  });
});

describe('auto-gen from a ClinicalTrials.gov record', () => {
  it('previews with save: false and saves nothing', async () => {
    const before = (await owner.actor.get('/api/trials/')).body.total;
    const preview = await owner.actor.post('/api/trials/auto-gen', { study: fixture('asthma-study.json'), save: false });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ nctId: 'NCT09900001', phase: 'Phase 2/Phase 3', targetEnrollment: 120, minimumAgeYears: 18, maximumAgeYears: 65 });
    expect(preview.body.id).toBeUndefined();
    expect((await owner.actor.get('/api/trials/')).body.total).toBe(before);
  });

  it('creates a draft trial with its criteria from the record itself', async () => {
    const created = await owner.actor.post('/api/trials/auto-gen', fixture('asthma-study.json'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      organizationId: owner.organizationId,
      status: 'draft',
      title: expect.stringContaining('Phase 2/3 Study'),
      publicTitle: 'Inhaled Study Drug for Adults With Moderate Asthma',
      sponsor: 'Cohortly Test Sponsor',
      conditions: ['Asthma', 'Moderate Persistent Asthma'],
      sex: 'all',
      healthyVolunteers: false,
    });
    expect(created.body.sites).toHaveLength(2);
    const kinds = created.body.criteria.map((c: any) => c.kind);
    // The fixture's "one of the following" controller therapies: one criterion per alternative.
    expect(kinds.filter((kind: string) => kind === 'inclusion')).toHaveLength(7);
    expect(kinds.filter((kind: string) => kind === 'exclusion')).toHaveLength(5);
    expect(created.body.criteria.find((c: any) => c.text === 'Pregnant or breastfeeding')).toMatchObject({
      rule: { type: 'pregnancy', allowed: false },
      ruleSource: 'text',
      needsReview: false,
    });
    const [audit] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, created.body.id), eq(auditLog.action, 'trial.create')));
    expect(audit.changes).toMatchObject({ source: 'ctgov', nctId: 'NCT09900001', criteria: 12 });

    expect((await owner.actor.post('/api/trials/auto-gen', fixture('asthma-study.json'))).status).toBe(409);
  });

  it('answers 400 with a clear message for a body that is not a study record', async () => {
    const notStudy = await owner.actor.post('/api/trials/auto-gen', { name: 'a candidate list', rows: [] });
    expect(notStudy.status).toBe(400);
    expect(notStudy.body.error.message).toContain('protocolSection: Required');
    const noNct = await owner.actor.post('/api/trials/auto-gen', { study: { protocolSection: { identificationModule: { briefTitle: 'X' } } } });
    expect(noNct.status).toBe(400);
    expect(noNct.body.error.message).toContain('study.protocolSection.identificationModule.nctId: Required');
    const wrongType = await owner.actor.post('/api/trials/auto-gen', {
      protocolSection: { identificationModule: { nctId: 'NCT09900003' }, designModule: { enrollmentInfo: { count: 'lots' } } },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('protocolSection.designModule.enrollmentInfo.count');
    const badSave = await owner.actor.post('/api/trials/auto-gen', { study: fixture('asthma-study.json'), save: 'no' });
    expect(badSave.status).toBe(400);
  });
});

describe('organizations', () => {
  it("narrows a global admin's list by organizationIds and creates in the one organization named", async () => {
    const inOther = await admin.post(`/api/trials/?organizationIds=${other.organizationId}`, { title: 'Made by an admin for Birch' });
    expect(inOther.status).toBe(201);
    expect(inOther.body.organizationId).toBe(other.organizationId);
    const several = await admin.post(`/api/trials/?organizationIds=${other.organizationId},${owner.organizationId}`, { title: 'Ambiguous' });
    expect(several.status).toBe(400);

    const narrowed = await admin.get(`/api/trials/?organizationIds=${other.organizationId}`);
    expect(narrowed.body.trials.length).toBeGreaterThan(0);
    expect(narrowed.body.trials.every((row: any) => row.organizationId === other.organizationId)).toBe(true);
    expect(narrowed.body.total).toBe(narrowed.body.trials.length);
    const both = await admin.get(`/api/trials/?orgs=${other.organizationId}&orgs=${owner.organizationId}`);
    expect(new Set(both.body.trials.map((row: any) => row.organizationId))).toEqual(new Set([other.organizationId, owner.organizationId]));

    // An owner naming another organization sees nothing of it and cannot create there.
    expect((await owner.actor.get(`/api/trials/?organizationIds=${other.organizationId}`)).body).toEqual({ trials: [], total: 0 });
    expect((await owner.actor.post(`/api/trials/?organizationIds=${other.organizationId}`, { title: 'Intrusion' })).status).toBe(404);
  });
});

describe('criteria reading (issue 10)', () => {
  it('saves a cohort as the population of its criteria, keeps rules stored in the first shape, and reads the record concepts', async () => {
    const study = fixture('asthma-study.json');
    study.protocolSection.eligibilityModule.eligibilityCriteria =
      'Inclusion Criteria:\n\nHealthy controls:\n\n* Non-smoker\n\nAsthmatic subjects:\n\n* Diagnosed with T2DM\n\nExclusion Criteria:\n\n* None';
    study.protocolSection.identificationModule.nctId = 'NCT09900077';
    const created = await owner.actor.post('/api/trials/auto-gen', study);
    expect(created.status).toBe(201);
    const fromText = created.body.criteria.filter((c: any) => c.ruleSource === 'text');
    // The placeholder "None" is not a criterion; each cohort tags the criteria under it.
    expect(fromText.map((c: any) => [c.kind, c.text, c.population])).toEqual([
      ['inclusion', 'Non-smoker', 'Healthy controls'],
      ['inclusion', 'Diagnosed with T2DM', 'Asthmatic subjects'],
    ]);
    expect(fromText[1].rule).toMatchObject({
      type: 'condition',
      present: true,
      concepts: [{ name: 'type 2 diabetes', icd10: 'E11' }],
      span: { start: 15, end: 19 },
    });

    // A rule in the shape stored before issue 10 (no span, no concepts) still saves and reads back.
    const edited = await owner.actor.patch(`/api/trials/${created.body.id}`, {
      criteria: [
        { id: fromText[0].id, kind: 'inclusion', text: 'Non-smoker' },
        { kind: 'exclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: false }, population: 'Healthy controls' },
      ],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.criteria.map((c: any) => [c.text, c.population, c.rule?.type ?? null])).toEqual([
      ['Non-smoker', 'Healthy controls', 'smoking'],
      ['Asthma', 'Healthy controls', 'condition'],
    ]);
    expect((await owner.actor.get(`/api/trials/${created.body.id}`)).body.criteria[1]).toMatchObject({
      population: 'Healthy controls',
      rule: { type: 'condition', condition: 'asthma', present: false },
    });
  });

  it("reads an allergy to the trial's own medicine by name at import, and a re-parse keeps reading it so", async () => {
    const record = fixture('asthma-study.json');
    record.protocolSection.identificationModule.nctId = 'NCT09900108';
    record.protocolSection.armsInterventionsModule = { interventions: [{ type: 'DRUG', name: 'Tezepelumab 210 mg', otherNames: ['Tezspire®'] }] };
    record.protocolSection.eligibilityModule.eligibilityCriteria = `${record.protocolSection.eligibilityModule.eligibilityCriteria}\n* Known allergy to tezepelumab\n`;
    const created = await owner.actor.post('/api/trials/auto-gen', record);
    expect(created.status).toBe(201);
    const allergy = created.body.criteria.find((criterion: { text: string }) => criterion.text === 'Known allergy to tezepelumab');
    expect(allergy).toMatchObject({ rule: { type: 'condition', condition: 'an allergy to Tezepelumab', present: false }, needsReview: false });
    const reparsed = await owner.actor.post(`/api/trials/${created.body.id}/reparse`, {});
    expect(reparsed.status).toBe(200);
    expect(reparsed.body.changes).toEqual([]);
    expect(reparsed.body.trial.criteria.find((criterion: { id: string }) => criterion.id === allergy.id)).toMatchObject({
      rule: { condition: 'an allergy to Tezepelumab' },
      needsReview: false,
    });
  });

  it('reparse re-reads text rules, keeps rules set by a person and reviewed rules that read the same, and reports the changes', async () => {
    const created = await owner.actor.post('/api/trials/', {
      title: 'Reparse study',
      criteria: [
        // Stored by an older reader: no rule for a criterion the current reader understands.
        { kind: 'exclusion', text: 'History of myocardial infarction within the last 6 months', rule: null },
        { kind: 'inclusion', text: 'Diagnosed with T2DM', rule: { type: 'condition', condition: 'diabetes', present: true } },
        { kind: 'inclusion', text: 'Age 18 to 65 years', rule: { type: 'age', minYears: 18, maxYears: 65 }, ruleSource: 'text', needsReview: false },
      ],
    });
    expect(created.status).toBe(201);
    const [mi, t2dm, age] = created.body.criteria;
    const answer = await owner.actor.post(`/api/trials/${created.body.id}/reparse`, {});
    expect(answer.status).toBe(200);
    expect(answer.body.changes).toEqual([
      {
        criterionId: mi.id,
        text: mi.text,
        before: null,
        after: expect.objectContaining({ type: 'condition', present: false, history: true, within: { value: 6, unit: 'months' } }),
        needsReview: false,
      },
    ]);
    expect(answer.body).toMatchObject({ unchanged: 1, kept: 1 });
    const [miAfter, t2dmAfter, ageAfter] = answer.body.trial.criteria;
    expect(miAfter).toMatchObject({ id: mi.id, ruleSource: 'text', rule: { type: 'condition' } });
    // Set by a person: untouched.
    expect(t2dmAfter).toMatchObject({ id: t2dm.id, ruleSource: 'manual', rule: { type: 'condition', condition: 'diabetes', present: true } });
    expect(ageAfter).toMatchObject({ id: age.id, ruleSource: 'text', needsReview: false, rule: { type: 'age', minYears: 18, maxYears: 65 } });
    const [audit] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, created.body.id), eq(auditLog.action, 'trial.reparse')));
    expect(audit.changes).toEqual({ changed: 1, unchanged: 1, kept: 1 });
    // Nothing left to change: the second run reports nothing and writes no audit.
    expect((await owner.actor.post(`/api/trials/${created.body.id}/reparse`, {})).body.changes).toEqual([]);
    expect((await owner.actor.post('/api/trials/00000000-0000-4000-8000-000000000000/reparse', {})).status).toBe(404);
  });
});
