import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, phoneNumber, voiceAgent } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/phone-numbers';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, A's phone numbers do not exist (404, nothing assigned, changed or released). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aNumberId: string;
const A_NUMBER = '+12125550150';

const snapshot = async () => ({
  numbers: await t.deps.db.select().from(phoneNumber),
  agents: await t.deps.db.select().from(voiceAgent),
  audits: (await t.deps.db.select().from(auditLog).where(eq(auditLog.entityType, 'phone_number'))).length,
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const admin = await t.signInAdmin();
  const assigned = await admin.post('/api/phone-numbers/', { number: A_NUMBER, organizationId: a.organizationId, label: 'A main line' });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
  aNumberId = assigned.body.id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/phone-numbers', (actor) => actor.post('/api/phone-numbers/', { number: '+12125550151', organizationId: a.organizationId })],
  ['PATCH /api/phone-numbers/{id}', (actor) => actor.patch(`/api/phone-numbers/${aNumberId}`, { organizationId: b.organizationId, label: 'Taken over' })],
  ['DELETE /api/phone-numbers/{id}', (actor) => actor.delete(`/api/phone-numbers/${aNumberId}`)],
];

describe("from organization B, A's phone numbers do not exist", () => {
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

  it("lists never include A's numbers", async () => {
    for (const actor of [b.actor, adminInB]) {
      for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`, `?organizationId=${a.organizationId}`]) {
        expect((await actor.get(`/api/phone-numbers/${query}`)).body).toEqual({ phoneNumbers: [], total: 0 });
      }
    }
    expect((await a.actor.get('/api/phone-numbers/')).body).toMatchObject({
      total: 1,
      phoneNumbers: [{ id: aNumberId, number: A_NUMBER, label: 'A main line' }],
    });
  });

  it("B cannot give its agents A's number, even knowing it", async () => {
    const before = await snapshot();
    const answer = await b.actor.post('/api/voice-agents/', {
      name: 'Intruder',
      type: 'PRESCREEN',
      firstMessage: { en: 'Hi' },
      voicemailMessage: { en: 'Bye' },
      fromNumber: A_NUMBER,
    });
    // The missing trial is checked first for PRESCREEN agents; a scheduling agent would be refused the same way.
    expect(answer.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
