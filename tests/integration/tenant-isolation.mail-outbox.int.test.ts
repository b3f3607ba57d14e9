import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../support/endpoints/mail-outbox';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The mail outbox holds mail of every organization (invitations carry sign-up links): staff of any organization,
 * owners included, get 403; an internal admin gets it only with the Cohortly organization active (403 with a
 * customer's organization active, as for unmatched texts, decision 119).
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let mailId: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Mail' });
  b = await t.signUp({ organizationName: 'Tenant B Mail' });
  expect((await a.actor.post('/api/users/', { organizationId: a.organizationId, email: uniqueEmail('a-invitee'), role: 'admin', mode: 'invite' })).status).toBe(
    201,
  );
  const admin = await t.signInAdmin();
  mailId = (await admin.get('/api/mail-outbox')).body.messages[0].id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number; body: unknown }>]> = [
  ['GET /api/mail-outbox', (actor) => actor.get('/api/mail-outbox')],
  ['GET /api/mail-outbox/{id}', (actor) => actor.get(`/api/mail-outbox/${mailId}`)],
];

describe('mail outbox: internal admins with the Cohortly organization active only', () => {
  for (const [operation, probe] of probes) {
    it(`${operation}: 403 to staff of the inviting organization and of another, and to an admin with a customer active`, async () => {
      for (const actor of [a.actor, b.actor, adminInB]) {
        const answer = await probe(actor);
        expect(answer.status).toBe(403);
        expect(JSON.stringify(answer.body)).not.toContain('a-invitee');
      }
    });
  }

  it('probes every endpoint it classifies', () => {
    expect(Object.keys(ENDPOINTS).sort()).toEqual(probes.map(([operation]) => operation).sort());
  });
});
