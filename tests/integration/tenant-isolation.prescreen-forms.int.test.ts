import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { ENDPOINTS as PRESCREEN_FORMS } from '../support/endpoints/prescreen-forms';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, every read and change of organization A's prescreen forms answers 404 and changes nothing. */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let aTrialId: string;
let aCriterionId: string;
let aFormId: string;
let adminInB: Actor;

const blocks = () => [
  {
    id: 'b1',
    title: { en: 'History' },
    questions: [
      {
        id: 'smoke',
        type: 'yes_no',
        wording: { phone: { en: 'Do you smoke?' }, chat: { en: 'Do you smoke?' } },
        criterionLinks: [{ criterionId: aCriterionId, when: { op: 'is_yes' }, then: 'met' }],
      },
    ],
  },
];

const snapshot = async () => ({
  forms: await t.deps.db.select().from(prescreenForm).where(eq(prescreenForm.organizationId, a.organizationId)),
  versions: await t.deps.db.select().from(prescreenFormVersion).where(eq(prescreenFormVersion.organizationId, a.organizationId)),
  audit: await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, a.organizationId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const trial = await a.actor.post('/api/trials/', { title: 'A trial', criteria: [{ kind: 'exclusion', text: 'Smokers' }] });
  expect(trial.status).toBe(201);
  aTrialId = trial.body.id;
  aCriterionId = trial.body.criteria[0].id;
  const form = await a.actor.post('/api/prescreen-forms/', { trialId: aTrialId, name: 'A form', blocks: blocks() });
  expect(form.status).toBe(201);
  aFormId = form.body.id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['GET /api/prescreen-forms/{id}', (actor) => actor.get(`/api/prescreen-forms/${aFormId}`)],
  [
    'PUT /api/prescreen-forms/{id}',
    (actor) => actor.request('PUT', `/api/prescreen-forms/${aFormId}`, { name: 'Taken over', status: 'published', blocks: [] }),
  ],
  ['POST /api/prescreen-forms', (actor) => actor.post('/api/prescreen-forms/', { trialId: aTrialId, name: 'Planted in A', blocks: blocks() })],
  ['POST /api/prescreen-forms/generate-study-blocks', (actor) => actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: aTrialId })],
  ['POST /api/prescreen-forms/detect-duplicates', (actor) => actor.post('/api/prescreen-forms/detect-duplicates', { formId: aFormId })],
];

describe("from organization B, A's prescreen forms do not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      expect((await probe(b.actor)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it(`${operation} answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('lists never include A', async () => {
    const empty = { prescreenForms: [], total: 0 };
    expect((await b.actor.get(`/api/prescreen-forms/?organizationIds=${a.organizationId}`)).body).toEqual(empty);
    expect((await b.actor.get('/api/prescreen-forms/')).body).toEqual(empty);
    expect((await b.actor.get(`/api/prescreen-forms/?trialId=${aTrialId}`)).body).toEqual(empty);
    expect((await adminInB.get(`/api/prescreen-forms/?orgs=${a.organizationId}`)).body).toEqual(empty);
  });

  it("A's own requests still work (the probes really targeted live rows)", async () => {
    expect((await a.actor.get(`/api/prescreen-forms/${aFormId}`)).status).toBe(200);
    expect((await a.actor.post('/api/prescreen-forms/generate-study-blocks', { trialId: aTrialId })).status).toBe(200);
    expect((await a.actor.post('/api/prescreen-forms/detect-duplicates', { formId: aFormId })).status).toBe(200);
  });

  it('apply-deduplication reads no stored rows: B gets back only what it sent', async () => {
    const answer = await b.actor.post('/api/prescreen-forms/apply-deduplication', { blocks: blocks(), pairs: [] });
    expect(answer.status).toBe(200);
    expect(answer.body.blocks[0].questions[0].id).toBe('smoke');
  });

  it('covers every tenant-row prescreen-form endpoint', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(PRESCREEN_FORMS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
