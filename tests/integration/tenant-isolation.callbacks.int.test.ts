import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, callback, contactEvent } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/callbacks';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/** From organization B, A's candidates have no callbacks to see, schedule or cancel (404, nothing changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aCandidateId: string;
const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();

const snapshot = async () => ({
  callbacks: await t.deps.db.select().from(callback),
  contacts: (await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId))).length,
  audits: (await t.deps.db.select().from(auditLog)).length,
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  // Callbacks are placed by the organization's voice agent: A has a scheduling agent (it needs no form).
  const trial = await createRecruitingTrial(a.actor, { title: 'A trial', sites: [{ name: 'A Clinic', timeZone: 'America/New_York' }] });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const agent = await a.actor.post('/api/voice-agents/', {
    name: 'A booker',
    type: 'SITE_VISIT_SCHEDULING',
    trialId: trial.body.id,
    schedule: { sites: ['A Clinic'] },
    firstMessage: { en: 'Hi' },
    voicemailMessage: { en: 'Bye' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  aCandidateId = (
    await a.actor.post('/api/candidates/', {
      firstName: 'Alice',
      phone: '+12125550177',
      timeZone: zoneAtHour(12),
      consent: { calls: true },
      trialIds: [trial.body.id],
    })
  ).body.id;
  const scheduled = await a.actor.post('/api/callbacks/schedule', { candidateId: aCandidateId, type: 'SITE_VISIT_SCHEDULING', at: inAnHour() });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  [
    'POST /api/callbacks/schedule',
    (actor) => actor.post('/api/callbacks/schedule', { candidateId: aCandidateId, type: 'SITE_VISIT_SCHEDULING', at: inAnHour() }),
  ],
  [
    'POST /api/callbacks/schedule',
    (actor) =>
      actor.post('/api/callbacks/schedule', { candidateId: aCandidateId, organizationId: a.organizationId, type: 'SITE_VISIT_SCHEDULING', at: inAnHour() }),
  ],
  ['DELETE /api/callbacks/{candidateId}', (actor) => actor.delete(`/api/callbacks/${aCandidateId}`)],
];

describe("from organization B, A's callbacks do not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to a member of B`, async () => {
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

  it("lists never include A's callbacks", async () => {
    for (const actor of [b.actor, adminInB]) {
      for (const query of [
        '',
        `?organizationIds=${a.organizationId}`,
        `?orgs=${a.organizationId}`,
        `?organizationId=${a.organizationId}`,
        `?candidateId=${aCandidateId}`,
      ]) {
        expect((await actor.get(`/api/callbacks/${query}`)).body).toEqual({
          callbacks: [],
          total: 0,
          counts: { pending: 0, calling: 0, done: 0, failed: 0, cancelled: 0 },
        });
      }
    }
    expect((await a.actor.get('/api/callbacks/')).body.total).toBe(1);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
