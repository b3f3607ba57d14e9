import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidate, contactEvent, smsMessage } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/sms';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, A's SMS threads, candidates and messages do not exist (404, nothing stored or changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aCandidateId: string;
let aMessageId: string;
const aPhone = '+12125550177';

const snapshot = async () => ({
  messages: await t.deps.db.select().from(smsMessage).where(eq(smsMessage.organizationId, a.organizationId)),
  allMessages: (await t.deps.db.select().from(smsMessage)).length,
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  events: await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  aCandidateId = (await a.actor.post('/api/candidates/', { firstName: 'Alice', phone: aPhone, consent: { sms: true } })).body.id;
  aMessageId = (await a.actor.post('/api/sms/send', { candidateId: aCandidateId, body: 'Hello Alice' })).body.id;
  await a.actor.post('/api/sms/simulator/inbound', { candidateId: aCandidateId, body: 'Hi back' });
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['GET /api/sms/threads/{candidateId}', (actor) => actor.get(`/api/sms/threads/${aCandidateId}`)],
  ['POST /api/sms/send', (actor) => actor.post('/api/sms/send', { candidateId: aCandidateId, body: 'Intruder' })],
  ['POST /api/sms/simulator/inbound', (actor) => actor.post('/api/sms/simulator/inbound', { candidateId: aCandidateId, body: 'STOP' })],
];

describe("from organization B, A's SMS do not exist", () => {
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

  it("lists and the outbox never include A's messages", async () => {
    expect(aMessageId).toBeTruthy();
    for (const actor of [b.actor, adminInB]) {
      for (const query of [
        '',
        `?organizationIds=${a.organizationId}`,
        `?orgs=${a.organizationId}`,
        `?organizationId=${a.organizationId}`,
        `?candidateId=${aCandidateId}`,
      ]) {
        expect((await actor.get(`/api/sms/threads${query}`)).body).toEqual({ threads: [] });
        expect((await actor.get(`/api/sms/simulator/outbox${query}`)).body).toEqual({ messages: [] });
      }
    }
    expect((await a.actor.get('/api/sms/threads')).body.threads.map((row: { candidateId: string }) => row.candidateId)).toEqual([aCandidateId]);
  });

  it("a simulated reply from A's candidate's number, posted by B, stays in B and does not touch A's candidate", async () => {
    const before = await snapshot();
    const answer = await b.actor.post('/api/sms/simulator/inbound', { from: aPhone, body: 'STOP' });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatchObject({ organizationId: b.organizationId, candidateId: null });
    const after = await snapshot();
    expect(after.messages).toEqual(before.messages);
    expect(after.candidates).toEqual(before.candidates);
    // A can still text Alice: B's STOP is B's.
    expect((await a.actor.post('/api/sms/send', { candidateId: aCandidateId, body: 'Still here' })).status).toBe(201);
  });

  it("texts to numbers no organization owns are for internal admins with global scope only (403 to B's owner and to an admin acting for B)", async () => {
    expect((await b.actor.get('/api/sms/unrouted')).status).toBe(403);
    expect((await adminInB.get('/api/sms/unrouted')).status).toBe(403);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
