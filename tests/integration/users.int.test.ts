import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Actor;
let owner: SignedUp;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  owner = await t.signUp({ organizationName: 'Maple Trials' });
});
afterAll(() => t?.close());

const addCoordinator = async (by: Actor, organizationId: string, role = 'coordinator') => {
  const email = uniqueEmail('staff');
  const answer = await by.post('/api/users/', { organizationId, email, name: 'Staff Member', role, mode: 'add', password: 'first-password-1' });
  expect(answer.status).toBe(201);
  return { id: answer.body.user.id as string, email, actor: await t.signIn(email, 'first-password-1') };
};

describe('invitations', () => {
  it('invites by email; the link signs the invitee up into the inviting organization', async () => {
    const email = uniqueEmail('invitee');
    const invited = await owner.actor.post('/api/users/', { organizationId: owner.organizationId, email, role: 'admin', mode: 'invite' });
    expect(invited.status).toBe(201);
    expect(invited.body.invitation).toMatchObject({ email, role: 'admin', status: 'pending' });
    const mail = (await t.outbox()).find((message) => message.toAddress === email)!;
    expect(mail.textBody).toContain(invited.body.invitationUrl);

    const token = new URL(invited.body.invitationUrl).searchParams.get('invitation')!;
    const preview = await t.actor().get(`/api/invitations/${token}`);
    expect(preview.body).toEqual({ organizationName: 'Maple Trials', email, role: 'admin' });

    const wrongEmail = await t
      .actor()
      .post('/api/auth/sign-up/email', { name: 'X', email: uniqueEmail(), password: 'long-enough-pass', invitationToken: token });
    expect(wrongEmail.status).toBe(400);

    const invitee = t.actor();
    const joined = await invitee.post('/api/auth/sign-up/email', { name: 'Invited Person', email, password: 'long-enough-pass', invitationToken: token });
    expect(joined.status).toBe(200);
    const session = await invitee.get('/api/auth/get-session');
    expect(session.body.organization.id).toBe(owner.organizationId);
    expect(session.body.role).toBe('admin');

    const reused = await t.actor().post('/api/auth/sign-up/email', { name: 'Y', email: uniqueEmail(), password: 'long-enough-pass', invitationToken: token });
    expect(reused.status).toBe(400);
    expect((await t.actor().get(`/api/invitations/${token}`)).status).toBe(404);
  });

  it('revokes a pending invitation', async () => {
    const invited = await owner.actor.post('/api/users/', { organizationId: owner.organizationId, email: uniqueEmail(), role: 'coordinator', mode: 'invite' });
    const listed = await owner.actor.get('/api/users/');
    expect(listed.body.invitations.map((row: { id: string }) => row.id)).toContain(invited.body.invitation.id);
    expect((await owner.actor.delete(`/api/users/invitations/${invited.body.invitation.id}`)).status).toBe(204);
    const after = await owner.actor.get('/api/users/');
    expect(after.body.invitations.map((row: { id: string }) => row.id)).not.toContain(invited.body.invitation.id);
  });

  it('refuses an email that already has an account', async () => {
    const answer = await owner.actor.post('/api/users/', { organizationId: owner.organizationId, email: owner.email, role: 'coordinator', mode: 'invite' });
    expect(answer.status).toBe(409);
  });
});

describe('managing members', () => {
  it('lists the users of the organization with their roles', async () => {
    const staff = await addCoordinator(owner.actor, owner.organizationId);
    const listed = await owner.actor.get('/api/users/');
    const rows = listed.body.users as Array<{ id: string; role: string; organizationName: string }>;
    expect(rows.find((row) => row.id === owner.userId)).toMatchObject({ role: 'owner', organizationName: 'Maple Trials' });
    expect(rows.find((row) => row.id === staff.id)).toMatchObject({ role: 'coordinator' });
  });

  it('lets owners change roles and remove members; coordinators cannot', async () => {
    const a = await addCoordinator(owner.actor, owner.organizationId);
    const b = await addCoordinator(owner.actor, owner.organizationId);

    expect((await a.actor.patch(`/api/users/${b.id}`, { role: 'admin' })).status).toBe(403);
    expect((await a.actor.delete(`/api/users/${b.id}`)).status).toBe(403);
    expect(
      (await a.actor.post('/api/users/', { organizationId: owner.organizationId, email: uniqueEmail(), role: 'coordinator', mode: 'invite' })).status,
    ).toBe(403);

    const promoted = await owner.actor.patch(`/api/users/${a.id}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('admin');
    // Now an admin, a may manage b, but may not hand out ownership.
    expect((await a.actor.patch(`/api/users/${b.id}`, { role: 'admin' })).status).toBe(200);
    expect((await a.actor.patch(`/api/users/${b.id}`, { role: 'owner' })).status).toBe(403);

    expect((await a.actor.delete(`/api/users/${b.id}`)).status).toBe(204);
    expect((await b.actor.get('/api/users/me')).status).toBe(401);
  });

  it('keeps at least one owner', async () => {
    const demote = await owner.actor.patch(`/api/users/${owner.userId}`, { role: 'coordinator' });
    expect(demote.status).toBe(400);
    expect(demote.body.error.message).toMatch(/at least one owner/);
    expect((await owner.actor.delete(`/api/users/${owner.userId}`)).status).toBe(400);
  });

  it("lets an internal admin manage any organization's users", async () => {
    const staff = await addCoordinator(admin, owner.organizationId);
    expect((await admin.patch(`/api/users/${staff.id}`, { role: 'owner' })).status).toBe(200);
    expect((await admin.delete(`/api/users/${staff.id}`)).status).toBe(204);
  });

  it('answers GET /api/users/me with the signed-in user', async () => {
    const me = await owner.actor.get('/api/users/me');
    expect(me.body).toMatchObject({ id: owner.userId, email: owner.email, role: 'owner', isAdmin: false, organizationId: owner.organizationId });
    expect(JSON.stringify(me.body)).not.toMatch(/password|hash/i);
  });
});
