import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, call, candidate, organization, trial } from '../../src/server/db/schema';
import { DEMO_ORGANIZATION_SLUG, seedDemoOrganization } from '../../src/server/features/demo/seed';
import { ENDPOINTS } from '../support/endpoints/demo';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The demo area is Cohortly's: from organization B (its owner, or an internal admin with B active) every demo
 * endpoint answers 403, shows nothing of the demo organization and changes nothing.
 */

let t: TestApp;
let b: SignedUp;
let adminInB: Actor;
let demoId: string;
let demoCandidateId: string;
let demoTrialId: string;

const snapshot = async () => ({
  organizations: (await t.deps.db.select().from(organization)).length,
  candidates: Number((await t.deps.db.select({ n: sql<number>`count(*)` }).from(candidate))[0].n),
  calls: Number((await t.deps.db.select({ n: sql<number>`count(*)` }).from(call))[0].n),
  audits: Number((await t.deps.db.select({ n: sql<number>`count(*)` }).from(auditLog))[0].n),
});

beforeAll(async () => {
  t = await createTestApp({ DEMO_CANDIDATES: '100' });
  demoId = (await seedDemoOrganization(t.deps.db, { candidates: 40 })).organizationId;
  demoCandidateId = (await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, demoId)).limit(1))[0].id;
  demoTrialId = (await t.deps.db.select().from(trial).where(eq(trial.organizationId, demoId)).limit(1))[0].id;
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
}, 60_000);
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number; body: unknown }>]> = [
  ['GET /api/demo', (actor) => actor.get('/api/demo/')],
  ['POST /api/demo/reset', (actor) => actor.post('/api/demo/reset')],
  ['GET /api/demo/samples', (actor) => actor.get('/api/demo/samples')],
  ['POST /api/demo/sample-candidate', (actor) => actor.post('/api/demo/sample-candidate', { trialId: demoTrialId })],
  ['POST /api/demo/voice-call', (actor) => actor.post('/api/demo/voice-call', { candidateId: demoCandidateId })],
];

describe('from organization B, the demo area is refused', () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 403 to B's owner and to an internal admin with B active, changing nothing`, async () => {
      for (const actor of [b.actor, adminInB]) {
        const before = await snapshot();
        const answer = await probe(actor);
        expect(answer.status).toBe(403);
        expect(JSON.stringify(answer.body)).not.toContain(demoId);
        expect(JSON.stringify(answer.body)).not.toContain(DEMO_ORGANIZATION_SLUG);
        expect(await snapshot()).toEqual(before);
      }
    });
  }

  it("keeps the demo reset's processing run out of B's sight: not listed, its data 404", async () => {
    const global = await t.signInAdmin();
    const started = await global.post('/api/demo/reset');
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId: string = started.body.reset.id;
    for (const actor of [b.actor, adminInB]) {
      const listed = await actor.get('/api/processing-runs');
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(runId);
      expect((await actor.get(`/api/processing-runs/${runId}/data`)).status).toBe(404);
    }
    // The internal admin with global scope sees it.
    expect(JSON.stringify((await global.get(`/api/processing-runs?orgs=${demoId}`)).body)).toContain(runId);
    for (let i = 0; i < 600; i++) {
      const status = (await global.get('/api/demo/')).body.reset?.status;
      if (status !== 'pending' && status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);

  it('covers every demo endpoint', () => {
    expect(Object.keys(ENDPOINTS).filter((operation) => !probes.some(([probed]) => probed === operation))).toEqual([]);
  });
});
