import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsOrganization } from '../../src/server/db/scoped';
import { trial } from '../../src/server/db/schema';
import { insertOrganization } from '../../src/server/tenancy/organizations';
import { ENDPOINTS } from '../support/endpoints/sponsor-demo';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The sponsor demo reads the demo organization only, and only for internal admins: staff of any organization
 * (the demo's own included) get 403; an admin, whatever their active organization, never reaches another
 * organization's trial through it (404), and its lists hold the demo organization's trials only.
 */

let t: TestApp;
let a: SignedUp;
let demoStaff: SignedUp;
let admin: Actor;
let adminInA: Actor;
let aTrialId: string;
let demoTrialId: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  const created = await a.actor.post('/api/trials/', { title: 'A private trial', status: 'recruiting', sites: [{ name: 'A Clinic', city: 'Boston' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  aTrialId = created.body.id;
  const demo = await insertOrganization(t.deps.db, { name: 'Demo Research Site', slug: 'demo-research-site' });
  demoTrialId = await runAsOrganization(t.deps.db, demo.id, async (tx) => {
    const [row] = await tx
      .insert(trial)
      .values({ organizationId: demo.id, title: 'Demo trial', status: 'recruiting', targetEnrollment: 10, sites: [] })
      .returning();
    return row.id;
  });
  // Someone signed up into an organization of their own: staff, not an internal admin.
  demoStaff = await t.signUp({ organizationName: 'Demo Partner Site' });
  admin = await t.signInAdmin();
  adminInA = await t.signInAdmin();
  adminInA.activeOrganizationId = a.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor, trialId: string) => Promise<{ status: number; body: unknown }>]> = [
  ['GET /api/sponsor-demo/trials', (actor) => actor.get('/api/sponsor-demo/trials')],
  ['GET /api/sponsor-demo/trials/{id}/sites', (actor, trialId) => actor.get(`/api/sponsor-demo/trials/${trialId}/sites`)],
  ['GET /api/sponsor-demo/trials/{id}/dashboard', (actor, trialId) => actor.get(`/api/sponsor-demo/trials/${trialId}/dashboard`)],
];

describe('sponsor demo: admins only, the demo organization only', () => {
  for (const [operation, probe] of probes) {
    it(`${operation}: 403 to staff, for the demo's trial and for their own`, async () => {
      expect((await probe(a.actor, demoTrialId)).status).toBe(403);
      expect((await probe(a.actor, aTrialId)).status).toBe(403);
      expect((await probe(demoStaff.actor, demoTrialId)).status).toBe(403);
    });
  }

  for (const [operation, probe] of probes.slice(1)) {
    it(`${operation}: another organization's trial does not exist here (404), whatever the admin's active organization`, async () => {
      for (const actor of [admin, adminInA]) {
        expect((await probe(actor, aTrialId)).status).toBe(404);
        expect((await probe(actor, demoTrialId)).status).toBe(200);
      }
    });
  }

  it("the trial list holds the demo organization's trials only", async () => {
    for (const actor of [admin, adminInA]) {
      const answer = await actor.get('/api/sponsor-demo/trials');
      expect(answer.body.trials.map((row: { id: string }) => row.id)).toEqual([demoTrialId]);
    }
  });

  it('probes every endpoint of the feature', () => {
    expect(Object.keys(ENDPOINTS).sort()).toEqual(probes.map(([operation]) => operation).sort());
  });
});
