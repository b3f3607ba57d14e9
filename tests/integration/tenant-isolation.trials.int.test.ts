import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, trial, trialCriterion } from '../../src/server/db/schema';
import { ENDPOINTS as TRIALS } from '../support/endpoints/trials';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, every read, change and delete of organization A's trials answers 404 and changes nothing. */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let aTrialId: string;
let aSiteId: string;
let adminInB: Actor;

const study = () => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov/asthma-study.json'), 'utf8'));

const snapshot = async () => ({
  trials: await t.deps.db.select().from(trial).where(eq(trial.organizationId, a.organizationId)),
  criteria: await t.deps.db.select().from(trialCriterion).where(eq(trialCriterion.organizationId, a.organizationId)),
  audit: await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, a.organizationId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const created = await a.actor.post('/api/trials/auto-gen', study());
  expect(created.status).toBe(201);
  aTrialId = created.body.id;
  aSiteId = created.body.sites[0].id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['GET /api/trials/{trialId}', (actor) => actor.get(`/api/trials/${aTrialId}`)],
  ['PATCH /api/trials/{trialId}', (actor) => actor.patch(`/api/trials/${aTrialId}`, { title: 'Taken over', status: 'recruiting', criteria: [] })],
  ['DELETE /api/trials/{trialId}', (actor) => actor.delete(`/api/trials/${aTrialId}`)],
  ['GET /api/trials/{trialId}/sites', (actor) => actor.get(`/api/trials/${aTrialId}/sites?q=Chicago`)],
  [
    'PATCH /api/trials/{trialId}/sites/{siteId}',
    (actor) => actor.patch(`/api/trials/${aTrialId}/sites/${aSiteId}`, { isOwnSite: true, timeZone: 'Europe/Paris' }),
  ],
  ['POST /api/trials/{trialId}/reparse', (actor) => actor.post(`/api/trials/${aTrialId}/reparse`, {})],
  ['POST /api/trials/{trialId}/suggestions', (actor) => actor.post(`/api/trials/${aTrialId}/suggestions`, {})],
  ['POST /api/trials', (actor) => actor.post(`/api/trials/?organizationIds=${a.organizationId}`, { title: 'Planted in A' })],
  ['POST /api/trials/auto-gen', (actor) => actor.post(`/api/trials/auto-gen?organizationIds=${a.organizationId}`, { study: study(), save: true })],
];

describe("from organization B, A's trials do not exist", () => {
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
    expect((await b.actor.get(`/api/trials/?organizationIds=${a.organizationId}`)).body).toEqual({ trials: [], total: 0 });
    expect((await b.actor.get('/api/trials/')).body).toEqual({ trials: [], total: 0 });
    expect((await adminInB.get(`/api/trials/?orgs=${a.organizationId}`)).body).toEqual({ trials: [], total: 0 });
  });

  it("B's own auto-gen of the same record lands in B", async () => {
    const own = await b.actor.post('/api/trials/auto-gen', study());
    expect(own.status).toBe(201);
    expect(own.body.organizationId).toBe(b.organizationId);
  });

  it('covers every tenant-row trial endpoint', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(TRIALS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
