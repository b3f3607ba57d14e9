import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, user } from '../../src/server/db/schema';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Actor;
let owner: SignedUp;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  owner = await t.signUp({ organizationName: 'Harbor Research' });
});
afterAll(() => t?.close());

describe('public lookup', () => {
  it('answers only id, name and public id, without sign-in', async () => {
    const own = await owner.actor.get(`/api/organizations/${owner.organizationId}`);
    const answer = await t.actor().get(`/api/organizations/public/${own.body.publicId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: owner.organizationId, name: 'Harbor Research', publicId: own.body.publicId });
  });

  it('answers 404 for an unknown public id', async () => {
    const answer = await t.actor().get('/api/organizations/public/doesNotExist1234');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });
});

describe('listing', () => {
  it('gives an internal admin every organization and a staff member only their own', async () => {
    const other = await t.signUp({ organizationName: 'Elm Street Trials' });
    const all = await admin.get('/api/organizations/');
    const names = all.body.organizations.map((org: { name: string }) => org.name);
    expect(names).toEqual(expect.arrayContaining(['Cohortly', 'Harbor Research', 'Elm Street Trials']));

    const own = await other.actor.get('/api/organizations/');
    expect(own.body.organizations.map((org: { name: string }) => org.name)).toEqual(['Elm Street Trials']);
    expect(own.body.organizations[0].memberCount).toBe(1);
  });
});

describe('create, rename, delete', () => {
  it('lets only internal admins create, with an audit record', async () => {
    expect((await owner.actor.post('/api/organizations/', { name: 'Sneaky Org' })).status).toBe(403);

    const created = await admin.post('/api/organizations/', { name: 'Northwind Clinical' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Northwind Clinical', slug: 'northwind-clinical' });
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, created.body.id));
    expect(audit[0]).toMatchObject({ action: 'organization.create', organizationId: created.body.id });

    const taken = await admin.post('/api/organizations/', { name: 'Another', slug: 'northwind-clinical' });
    expect(taken.status).toBe(409);
  });

  it('answers a bad body with 400 naming the field', async () => {
    const answer = await admin.post('/api/organizations/', { name: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/^name: /);
    expect(answer.body.error.details[0].path).toBe('name');
  });

  it('lets an owner rename their organization but not a coordinator', async () => {
    const renamed = await owner.actor.patch(`/api/organizations/${owner.organizationId}`, { name: 'Harbor Research Group' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Harbor Research Group');

    const added = await owner.actor.post('/api/users/', {
      organizationId: owner.organizationId,
      email: 'coord.harbor@site.test',
      name: 'Coord',
      role: 'coordinator',
      mode: 'add',
      password: 'quiet-desk-lantern',
    });
    expect(added.status).toBe(201);
    const coordinator = await t.signIn('coord.harbor@site.test', 'quiet-desk-lantern');
    const refused = await coordinator.patch(`/api/organizations/${owner.organizationId}`, { name: 'Hijacked' });
    expect(refused.status).toBe(403);
    expect((await admin.get(`/api/organizations/${owner.organizationId}`)).body.name).toBe('Harbor Research Group');
  });

  it('deletes an organization with its staff accounts after an admin confirms, never the internal one', async () => {
    const doomed = await t.signUp({ organizationName: 'Closing Site' });
    expect((await doomed.actor.delete(`/api/organizations/${doomed.organizationId}`)).status).toBe(403);

    expect((await admin.delete(`/api/organizations/${doomed.organizationId}`)).status).toBe(204);
    expect((await admin.get(`/api/organizations/${doomed.organizationId}`)).status).toBe(404);
    expect(await t.deps.db.select().from(user).where(eq(user.id, doomed.userId))).toHaveLength(0);

    const internal = await admin.delete(`/api/organizations/${t.internalOrganizationId}`);
    expect(internal.status).toBe(400);
    expect(internal.body.error.message).toMatch(/cannot be deleted/);
  });

  it('answers an unknown or malformed id with 404, not 500', async () => {
    expect((await admin.get('/api/organizations/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.get('/api/organizations/not-a-uuid')).status).toBe(404);
  });
});
