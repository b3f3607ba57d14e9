import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../../src/server/activity';
import { runAsOrganization } from '../../src/server/db/scoped';
import { ENDPOINTS } from '../support/endpoints/dashboard';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * The dashboard is read-only and list-scoped: from organization B (its staff, or an internal admin whose
 * active organization is B), no tab and no export shows any of A's numbers, whatever `orgs` says, and the
 * customer overview is refused (403) to anyone but a Cohortly admin.
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;

const query = () => [``, `?orgs=${a.organizationId}`, `?orgs=${a.organizationId},${b.organizationId}`, `?orgs=${a.organizationId}&preset=all`];

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  aTrialId = (await createRecruitingTrial(a.actor, { title: 'A secret trial', targetEnrollment: 5 })).body.id;
  const at = new Date(Date.now() - 86_400_000);
  await runAsOrganization(t.deps.db, a.organizationId, (tx) =>
    recordActivity(tx, [
      { organizationId: a.organizationId, kind: 'candidate_created', source: 'import', occurredAt: at },
      { organizationId: a.organizationId, kind: 'prescreen_result', source: 'call', label: 'PASS', value: 3, trialId: aTrialId, occurredAt: at },
      { organizationId: a.organizationId, kind: 'satisfaction_rated', source: 'chat', value: 5, occurredAt: at },
      { organizationId: a.organizationId, kind: 'spend', source: 'call', label: 'call_minutes', value: 9.99, occurredAt: at },
      { organizationId: a.organizationId, kind: 'status_changed', source: 'manual', label: 'enrolled', trialId: aTrialId, occurredAt: at },
    ]),
  );
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const scopedTabs = ['funnel-breakdown', 'prescreen-analytics', 'patient-satisfaction', 'trial-lifecycle', 'trial-matcher', 'costs'];

describe("from organization B, A's numbers do not exist", () => {
  it('A sees its own numbers (the probes below would notice them)', async () => {
    const body = JSON.stringify((await a.actor.get('/api/dashboard/trial-lifecycle')).body);
    expect(body).toContain('A secret trial');
    expect((await a.actor.get('/api/dashboard/costs')).body.total).toBe(9.99);
  });

  for (const tab of scopedTabs) {
    it(`GET /api/dashboard/${tab} shows B's staff and an admin in B nothing of A`, async () => {
      for (const actor of [b.actor, adminInB]) {
        for (const search of query()) {
          const answer = await actor.get(`/api/dashboard/${tab}${search}`);
          expect(answer.status).toBe(200);
          expect(answer.body.filters.organizationIds).not.toContain(a.organizationId);
          const text = JSON.stringify(answer.body);
          expect(text).not.toContain(a.organizationId);
          expect(text).not.toContain(aTrialId);
          expect(text).not.toContain('A secret trial');
          expect(text).not.toContain('9.99');
        }
      }
    });
  }

  it('GET /api/dashboard/export exports nothing of A to B', async () => {
    for (const actor of [b.actor, adminInB]) {
      for (const tab of scopedTabs) {
        const answer = await actor.get(`/api/dashboard/export?tab=${tab}&orgs=${a.organizationId}`);
        expect(answer.status).toBe(200);
        expect(String(answer.body)).not.toContain('A secret trial');
        expect(String(answer.body)).not.toContain('9.99');
      }
    }
  });

  it('GET /api/dashboard/customer-overview is refused to B and to an admin in B', async () => {
    for (const actor of [b.actor, adminInB]) {
      expect((await actor.get(`/api/dashboard/customer-overview?orgs=${a.organizationId}`)).status).toBe(403);
      expect((await actor.get(`/api/dashboard/export?tab=customer-overview&orgs=${a.organizationId}`)).status).toBe(403);
    }
  });

  it('every dashboard endpoint is classified and has no tenant-row probe to make', () => {
    expect(Object.values(ENDPOINTS).filter((kind) => kind === 'tenant-row')).toEqual([]);
    const probed = new Set([...scopedTabs.map((tab) => `GET /api/dashboard/${tab}`), 'GET /api/dashboard/export', 'GET /api/dashboard/customer-overview']);
    expect(Object.keys(ENDPOINTS).filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
