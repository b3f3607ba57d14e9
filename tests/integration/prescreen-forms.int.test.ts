import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidate, prescreenFormVersion, prescreenResult } from '../../src/server/db/schema';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: SignedUp;
let trial: any;
/** Criterion ids by position. */
let c: string[];

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ organizationName: 'Maple Trials' });
  const created = await owner.actor.post('/api/trials/', {
    title: 'Diabetes kidney study',
    sites: [{ name: 'Main clinic', city: 'Toronto', timeZone: 'America/Toronto' }],
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 to 75', rule: { type: 'age', minYears: 18, maxYears: 75 } },
      { kind: 'inclusion', text: 'Type 2 diabetes', rule: { type: 'condition', condition: 'type 2 diabetes', present: true } },
      { kind: 'exclusion', text: 'eGFR < 45', rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' } },
      { kind: 'exclusion', text: 'Pregnant or breastfeeding', rule: { type: 'pregnancy', allowed: false } },
      { kind: 'exclusion', text: 'Taking insulin', rule: { type: 'medication', medication: 'insulin', taking: false } },
      { kind: 'exclusion', text: 'Current smokers' },
    ],
  });
  expect(created.status).toBe(201);
  trial = created.body;
  c = trial.criteria.map((criterion: { id: string }) => criterion.id);
});
afterAll(() => t?.close());

const audits = (entityId: string) => t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(auditLog.createdAt);

const yesNo = (id: string, en: string, links: unknown[] = []) => ({ id, type: 'yes_no', wording: { phone: { en }, chat: { en } }, criterionLinks: links });

async function addResult(formId: string, versionId: string) {
  const [person] = await t.deps.db.insert(candidate).values({ organizationId: owner.organizationId, firstName: 'Test' }).returning();
  await t.deps.db.insert(prescreenResult).values({
    organizationId: owner.organizationId,
    candidateId: person.id,
    trialId: trial.id,
    formId,
    formVersionId: versionId,
    sourceType: 'manual',
    answers: [],
    evaluations: [],
    aiRecommendation: 'INCONCLUSIVE',
  });
}

describe('generating study blocks', () => {
  it('turns the trial criteria into blocks with linked questions, covering every criterion', async () => {
    const answer = await owner.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: trial.id });
    expect(answer.status).toBe(200);
    const { blocks, uncoveredCriterionIds } = answer.body;
    expect(uncoveredCriterionIds).toEqual([]);
    expect(blocks.map((block: any) => block.title.en)).toEqual(['About you', 'Medical history', 'Medications', 'Logistics', 'Site review (staff only)']);
    const questions = blocks.flatMap((block: any) => block.questions);
    const linked = new Set(questions.flatMap((question: any) => question.criterionLinks.map((link: any) => link.criterionId)));
    expect([...linked].sort()).toEqual([...c].sort());
    expect(questions.find((question: any) => question.id === 'travel').wording.chat.en).toBe('Are you able to travel to Main clinic for visits?');
    expect(questions.find((question: any) => question.id === 'date-of-birth').wording.chat.es).toBe('¿Cuál es su fecha de nacimiento?');
    // Without a rule, and eGFR (a value staff verify): site_review items; a patient may give a remembered eGFR beside it, optional (decision 150).
    expect(questions.find((question: any) => question.source === 'criterion_text')).toMatchObject({
      audience: 'site',
      wording: { chat: { en: 'Staff: does this criterion apply? Current smokers' } },
    });
    expect(questions.find((question: any) => question.id === 'site-lab-egfr')).toMatchObject({ audience: 'site', type: 'number', unit: 'mL/min/1.73m2' });
    expect(questions.find((question: any) => question.id === 'result-egfr')).toMatchObject({ type: 'number', required: false });
    expect(questions.find((question: any) => question.id === 'result-egfr').audience).toBeUndefined();
  });

  it('answers 404 for an unknown trial and 400 without a trialId', async () => {
    expect((await owner.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await owner.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: 'nope' })).status).toBe(404);
    const missing = await owner.actor.post('/api/prescreen-forms/generate-study-blocks', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('trialId');
  });
});

describe('prescreen forms', () => {
  it('creates, lists, gets, updates and publishes a form, auditing each change', async () => {
    const generated = (await owner.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: trial.id })).body;
    const created = await owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Phone prescreen', blocks: generated.blocks });
    expect(created.status).toBe(201);
    const form = created.body;
    expect(form).toMatchObject({
      organizationId: owner.organizationId,
      trialId: trial.id,
      trialTitle: 'Diabetes kidney study',
      name: 'Phone prescreen',
      status: 'draft',
      version: 1,
      versions: [{ id: expect.any(String), version: 1, createdAt: expect.any(String), resultCount: 0 }],
      publishedAt: null,
      uncoveredCriterionIds: [],
    });
    expect(form.blocks).toEqual(generated.blocks);
    expect(form.criteriaCoverage.map((item: any) => item.criterionId)).toEqual(c);
    expect(form.criteriaCoverage[0]).toEqual({ criterionId: c[0], kind: 'inclusion', text: 'Aged 18 to 75', questionIds: ['date-of-birth'] });

    const listed = await owner.actor.get('/api/prescreen-forms');
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBeGreaterThanOrEqual(1);
    const item = listed.body.prescreenForms.find((row: any) => row.id === form.id);
    expect(item).toMatchObject({ id: form.id, name: 'Phone prescreen', questionCount: form.blocks.flatMap((block: any) => block.questions).length });
    expect(item.blocks).toBeUndefined();
    expect((await owner.actor.get(`/api/prescreen-forms/?trialId=${trial.id}`)).body.prescreenForms.map((row: any) => row.id)).toContain(form.id);
    expect((await owner.actor.get(`/api/prescreen-forms/?trialId=00000000-0000-4000-8000-000000000000`)).body).toEqual({ prescreenForms: [], total: 0 });
    expect((await owner.actor.get(`/api/prescreen-forms/${form.id}`)).body).toEqual(form);

    // Without results, a change of blocks updates version 1 in place.
    const fewer = form.blocks.filter((block: any) => block.id !== 'medications');
    const renamed = await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { name: 'Phone prescreen v1', blocks: fewer });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Phone prescreen v1', version: 1, versions: [{ version: 1 }], uncoveredCriterionIds: [c[4]] });
    expect(renamed.body.blocks).toEqual(fewer);

    const published = await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { status: 'published' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', publishedAt: expect.any(String), version: 1 });

    const trail = await audits(form.id);
    expect(trail.map((row) => row.action)).toEqual(['prescreen_form.create', 'prescreen_form.update', 'prescreen_form.update', 'prescreen_form.publish']);
    expect(trail[0].changes).toEqual({ fields: ['name', 'blocks'], status: 'draft', version: 1 });
    expect(trail[1].changes).toEqual({ fields: ['name', 'blocks'], version: 1 });
    expect(trail[2].changes).toEqual({ fields: ['status'], version: 1, from: 'draft', to: 'published' });
    expect(trail[3].changes).toEqual({ version: 1 });
    expect(JSON.stringify(trail)).not.toContain('Phone prescreen');
  });

  it('a change of blocks of a version with results creates the next version; the results keep theirs', async () => {
    const blocks = [
      {
        id: 'b1',
        title: { en: 'Medical history' },
        questions: [yesNo('smoke', 'Do you smoke?', [{ criterionId: c[5], when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }])],
      },
    ];
    const form = (await owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Versioned', blocks })).body;
    await addResult(form.id, form.versions[0].id);
    const withResult = await owner.actor.get(`/api/prescreen-forms/${form.id}`);
    expect(withResult.body.versions).toEqual([{ ...form.versions[0], resultCount: 1 }]);

    // A name-only change and an unchanged blocks list make no new version.
    expect((await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { name: 'Versioned form', blocks })).body.version).toBe(1);

    const changed = structuredClone(blocks);
    changed[0].questions.push(
      yesNo('pregnant', 'Are you pregnant?', [{ criterionId: c[3], when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }]) as any,
    );
    const updated = await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { blocks: changed });
    expect(updated.status).toBe(200);
    expect(updated.body.version).toBe(2);
    expect(updated.body.versions.map((version: any) => [version.version, version.resultCount])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(updated.body.blocks[0].questions.map((question: any) => question.id)).toEqual(['smoke', 'pregnant']);

    const versions = await t.deps.db.select().from(prescreenFormVersion).where(eq(prescreenFormVersion.formId, form.id)).orderBy(prescreenFormVersion.version);
    expect(versions.map((version) => version.blocks[0].questions.length)).toEqual([1, 2]);
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.formId, form.id));
    expect(result.formVersionId).toBe(versions[0].id);

    // Version 2 has no results: the next change updates it in place.
    const again = await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { blocks });
    expect(again.body.version).toBe(2);
    expect(again.body.versions).toHaveLength(2);
    const trail = await audits(form.id);
    expect(trail.find((row) => (row.changes as any)?.previousVersion === 1)?.changes).toEqual({ fields: ['blocks'], version: 2, previousVersion: 1 });
  });

  it('publishing with the form complete sets publishedAt at creation too', async () => {
    const blocks = [
      { id: 'b1', title: { en: 'History' }, questions: [yesNo('smoke', 'Do you smoke?', [{ criterionId: c[5], when: { op: 'is_yes' }, then: 'met' }])] },
    ];
    const created = await owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Ready', blocks, status: 'published' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
    expect((await audits(created.body.id)).map((row) => row.action)).toEqual(['prescreen_form.create', 'prescreen_form.publish']);
  });
});

describe('validation', () => {
  const post = (blocks: unknown, extra: Record<string, unknown> = {}) =>
    owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Bad', blocks, ...extra });

  it('an unknown criterion id: 400 naming the question and the criterion', async () => {
    const answer = await post([
      { id: 'b1', title: { en: 'X' }, questions: [yesNo('smoke', 'Smoke?', [{ criterionId: 'not-a-criterion', when: { op: 'is_yes' }, then: 'met' }])] },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(
      'blocks.0.questions.0.criterionLinks.0.criterionId: Question "smoke" links to criterion "not-a-criterion", which is not a criterion of this trial',
    );
    expect(answer.body.error.details[0].path).toBe('blocks.0.questions.0.criterionLinks.0.criterionId');
  });

  it('a duplicate question id or block id: 400', async () => {
    const answer = await post([
      { id: 'b1', title: { en: 'X' }, questions: [yesNo('q', 'One?')] },
      { id: 'b1', title: { en: 'Y' }, questions: [yesNo('q', 'Two?')] },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('blocks.1.id: Block id "b1" is used twice in this form');
    expect(answer.body.error.message).toContain('blocks.1.questions.0.id: Question id "q" is used twice in this form');
  });

  it('a choice question without options, and an `in` test on values that are not options: 400', async () => {
    const noOptions = await post([
      { id: 'b1', title: { en: 'X' }, questions: [{ id: 'sex', type: 'single_choice', wording: { phone: { en: 'Sex?' }, chat: { en: 'Sex?' } } }] },
    ]);
    expect(noOptions.status).toBe(400);
    expect(noOptions.body.error.message).toContain('blocks.0.questions.0.options: A choice question needs at least two options');

    const options = [
      { value: 'female', label: { en: 'Female' } },
      { value: 'male', label: { en: 'Male' } },
    ];
    const badValue = await post([
      {
        id: 'b1',
        title: { en: 'X' },
        questions: [
          {
            id: 'sex',
            type: 'single_choice',
            options,
            wording: { phone: { en: 'Sex?' }, chat: { en: 'Sex?' } },
            criterionLinks: [{ criterionId: c[0], when: { op: 'in', values: ['woman'] }, then: 'met' }],
          },
        ],
      },
    ]);
    expect(badValue.status).toBe(400);
    expect(badValue.body.error.message).toBe('blocks.0.questions.0.criterionLinks.0.when.values: Question "sex" has no option "woman"');

    const wrongTest = await post([
      { id: 'b1', title: { en: 'X' }, questions: [yesNo('smoke', 'Smoke?', [{ criterionId: c[5], when: { op: 'gt', value: 3 }, then: 'met' }])] },
    ]);
    expect(wrongTest.status).toBe(400);
    expect(wrongTest.body.error.message).toContain('Question "smoke" (yes_no) cannot be tested with "gt"');
  });

  it('publishing without questions: 400; the form stays a draft', async () => {
    expect((await post([], { status: 'published' })).body.error.message).toBe('blocks: A form needs at least one question to be published');
    const draft = (await owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Empty' })).body;
    expect(draft.blocks).toEqual([]);
    const publish = await owner.actor.request('PUT', `/api/prescreen-forms/${draft.id}`, { status: 'published' });
    expect(publish.status).toBe(400);
    expect(publish.body.error.message).toBe('blocks: A form needs at least one question to be published');
    expect((await owner.actor.get(`/api/prescreen-forms/${draft.id}`)).body.status).toBe('draft');
  });

  it('publishing re-checks links against the trial criteria as they are now', async () => {
    const blocks = [{ id: 'b1', title: { en: 'X' }, questions: [yesNo('smoke', 'Smoke?', [{ criterionId: c[5], when: { op: 'is_yes' }, then: 'met' }])] }];
    const other = (await owner.actor.post('/api/trials/', { title: 'Other', criteria: [{ kind: 'exclusion', text: 'Smokers' }] })).body;
    const mine = (await owner.actor.post('/api/prescreen-forms/', { trialId: other.id, name: 'Wrong trial', blocks: [] })).body;
    const answer = await owner.actor.request('PUT', `/api/prescreen-forms/${mine.id}`, { blocks, status: 'published' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('Question "smoke" links to criterion');
  });

  it('empty and unknown updates', async () => {
    const form = (await owner.actor.post('/api/prescreen-forms/', { trialId: trial.id, name: 'Target' })).body;
    expect((await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, {})).status).toBe(400);
    expect((await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { name: '' })).body.error.message).toContain('name');
    expect((await owner.actor.request('PUT', '/api/prescreen-forms/00000000-0000-4000-8000-000000000000', { name: 'X' })).status).toBe(404);
    expect((await owner.actor.get('/api/prescreen-forms/not-a-uuid')).status).toBe(404);
    expect((await owner.actor.post('/api/prescreen-forms/', { trialId: '00000000-0000-4000-8000-000000000000', name: 'X' })).status).toBe(404);
  });
});

describe('duplicates', () => {
  it('detects duplicates in blocks and in a saved form, and merging keeps every criterion link', async () => {
    const generated = (await owner.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: trial.id })).body;
    const blocks = structuredClone(generated.blocks);
    // A hand-written second pregnancy question in another block, linked to the same criterion.
    blocks[2].questions.push(
      yesNo('pregnant-again', 'Are you pregnant or breastfeeding?', [{ criterionId: c[3], when: { op: 'in', values: ['yes'] }, then: 'met' }]),
    );
    blocks[2].questions.push({
      id: 'birth',
      type: 'date',
      wording: { phone: { en: 'When were you born?' }, chat: { en: 'When were you born?' } },
      criterionLinks: [],
    });

    const bad = await owner.actor.post('/api/prescreen-forms/detect-duplicates', { blocks });
    expect(bad.status).toBe(200);
    const pairs = bad.body.pairs;
    const pregnancy = pairs.find((pair: any) => pair.questionA === 'pregnancy' && pair.questionB === 'pregnant-again');
    expect(pregnancy).toMatchObject({ blockA: 'medical-history', blockB: 'medications', reason: expect.stringContaining('pregnancy') });
    expect(pregnancy.score).toBeGreaterThanOrEqual(0.6);
    expect(pairs.find((pair: any) => pair.questionB === 'birth')).toMatchObject({ questionA: 'date-of-birth', reason: 'Both ask about date of birth' });
    expect(pairs.some((pair: any) => pair.questionA === 'travel' || pair.questionB === 'travel')).toBe(false);

    const form = (
      await owner.actor.post('/api/prescreen-forms/', {
        trialId: trial.id,
        name: 'With duplicates',
        blocks: blocks.map((block: any) => ({
          ...block,
          questions: block.questions.map((q: any) =>
            q.id === 'pregnant-again' ? { ...q, criterionLinks: [{ criterionId: c[3], when: { op: 'is_yes' }, then: 'met' }] } : q,
          ),
        })),
      })
    ).body;
    const saved = await owner.actor.post('/api/prescreen-forms/detect-duplicates', { formId: form.id });
    expect(saved.status).toBe(200);
    expect(saved.body.pairs.find((pair: any) => pair.questionB === 'pregnant-again').reason).toBe(
      'Both linked to criterion 4 and ask a yes/no about pregnancy',
    );

    const before = new Set<string>(
      form.blocks.flatMap((block: any) => block.questions.flatMap((q: any) => q.criterionLinks.map((link: any) => link.criterionId))),
    );
    const merged = await owner.actor.post('/api/prescreen-forms/apply-deduplication', {
      blocks: form.blocks,
      pairs: [
        { keep: 'pregnancy', remove: 'pregnant-again' },
        { keep: 'date-of-birth', remove: 'birth' },
        { keep: 'condition-type-2-diabetes', remove: 'medication-insulin' },
      ],
    });
    expect(merged.status).toBe(200);
    const ids = merged.body.blocks.flatMap((block: any) => block.questions.map((q: any) => q.id));
    expect(ids).not.toContain('pregnant-again');
    expect(ids).not.toContain('birth');
    // The medications block lost its only generated question and the two added ones: it is gone.
    expect(merged.body.blocks.map((block: any) => block.id)).toEqual(['about-you', 'medical-history', 'logistics', 'site-review']);
    const after = new Set<string>(
      merged.body.blocks.flatMap((block: any) => block.questions.flatMap((q: any) => q.criterionLinks.map((link: any) => link.criterionId))),
    );
    expect(after).toEqual(before);
    const diabetes = merged.body.blocks[1].questions.find((q: any) => q.id === 'condition-type-2-diabetes');
    expect(diabetes.criterionLinks.map((link: any) => link.criterionId)).toEqual([c[1], c[4]]);
    expect(merged.body.notes).toEqual([]);
    // The merged blocks save as they are.
    expect((await owner.actor.request('PUT', `/api/prescreen-forms/${form.id}`, { blocks: merged.body.blocks })).status).toBe(200);

    const unknown = await owner.actor.post('/api/prescreen-forms/apply-deduplication', {
      blocks: form.blocks,
      pairs: [{ keep: 'pregnancy', remove: 'ghost' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('pairs.0.remove: No question "ghost" in these blocks');
    expect((await owner.actor.post('/api/prescreen-forms/detect-duplicates', {})).status).toBe(400);
    expect((await owner.actor.post('/api/prescreen-forms/detect-duplicates', { formId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});

describe('organization', () => {
  it("a form goes to its trial's organization, for an internal admin too", async () => {
    const admin = await t.signInAdmin();
    const created = await admin.post('/api/prescreen-forms/', { trialId: trial.id, name: 'By admin' });
    // The admin's active organization is the internal one: global, so the trial is reachable.
    expect(created.status).toBe(201);
    expect(created.body.organizationId).toBe(owner.organizationId);
    const rows = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, created.body.id), eq(auditLog.action, 'prescreen_form.create')));
    expect(rows[0].organizationId).toBe(owner.organizationId);
  });
});
