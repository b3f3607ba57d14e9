import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitation, member, organization, user } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints';
import { ENDPOINTS as FOUNDATION } from '../support/endpoints/foundation';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Tenant isolation: from organization B, every read, update and delete of organization A's resources
 * answers 404 and changes nothing. Every endpoint of the API must be classified in tests/support/endpoints;
 * the inventory test fails when a new endpoint is added without joining this suite. Features add their
 * probes in their own tenant-isolation.<feature>.int.test.ts files.
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let aStaffId: string;
let aInvitationId: string;
/** An internal admin whose active organization is B: scoped to B like B's own staff. */
let adminInB: Actor;

const snapshot = async () => ({
  organization: await t.deps.db.select().from(organization).where(eq(organization.id, a.organizationId)),
  members: await t.deps.db.select().from(member).where(eq(member.organizationId, a.organizationId)),
  invitations: await t.deps.db.select().from(invitation).where(eq(invitation.organizationId, a.organizationId)),
  staff: await t.deps.db.select().from(user).where(eq(user.id, aStaffId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const staff = await a.actor.post('/api/users/', {
    organizationId: a.organizationId,
    email: uniqueEmail('a-staff'),
    name: 'A Staff',
    role: 'coordinator',
    mode: 'add',
    password: 'quiet-harbor-lantern-7',
  });
  aStaffId = staff.body.user.id;
  const invited = await a.actor.post('/api/users/', { organizationId: a.organizationId, email: uniqueEmail('a-invite'), role: 'coordinator', mode: 'invite' });
  aInvitationId = invited.body.invitation.id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

describe('inventory', () => {
  it('classifies every endpoint of the OpenAPI document', async () => {
    const doc = await t.actor().get('/api/openapi.json');
    const operations = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const unclassified = operations.filter((operation) => !(operation in ENDPOINTS));
    expect(unclassified, 'add each new endpoint to ENDPOINTS and to a cross-tenant test below').toEqual([]);
    expect(Object.keys(ENDPOINTS).filter((operation) => !operations.includes(operation))).toEqual([]);
  });
});

describe("from organization B, A's rows do not exist", () => {
  const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
    ['GET /api/organizations/{id}', (actor) => actor.get(`/api/organizations/${a.organizationId}`)],
    ['PATCH /api/organizations/{id}', (actor) => actor.patch(`/api/organizations/${a.organizationId}`, { name: 'Taken over' })],
    ['DELETE /api/organizations/{id}', (actor) => actor.delete(`/api/organizations/${a.organizationId}`)],
    ['PATCH /api/users/{userId}', (actor) => actor.patch(`/api/users/${aStaffId}`, { role: 'admin', name: 'Renamed' })],
    ['DELETE /api/users/{userId}', (actor) => actor.delete(`/api/users/${aStaffId}`)],
    ['DELETE /api/users/invitations/{invitationId}', (actor) => actor.delete(`/api/users/invitations/${aInvitationId}`)],
    [
      'POST /api/users',
      (actor) =>
        actor.post('/api/users/', {
          organizationId: a.organizationId,
          email: uniqueEmail('intruder'),
          name: 'Intruder',
          role: 'owner',
          mode: 'add',
          password: 'velvet-canyon-orbit-93',
        }),
    ],
  ];

  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      const answer = await probe(b.actor);
      expect(answer.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  // The scope rule holds for Cohortly's own admins too: with B active they reach B only (organizations included).
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('lists never include A: organizations and users', async () => {
    const organizations = await b.actor.get('/api/organizations/');
    expect(organizations.body.organizations.map((row: { id: string }) => row.id)).toEqual([b.organizationId]);
    const users = await b.actor.get(`/api/users/?organizationIds=${a.organizationId}`);
    expect(users.body).toEqual({ users: [], invitations: [] });
    const scopedAdmin = await adminInB.get(`/api/users/?orgs=${a.organizationId}`);
    expect(scopedAdmin.body).toEqual({ users: [], invitations: [] });
  });

  it('admin-only and self endpoints give B nothing of A', async () => {
    expect((await b.actor.post('/api/organizations/', { name: 'B makes an org' })).status).toBe(403);
    // Creating organizations is global work: an internal admin must have the Cohortly organization active.
    expect((await adminInB.post('/api/organizations/', { name: 'Made from B' })).status).toBe(403);
    expect((await b.actor.get('/api/users/me')).body.organizationId).toBe(b.organizationId);
  });

  it('covers every tenant-row endpoint', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(FOUNDATION)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
