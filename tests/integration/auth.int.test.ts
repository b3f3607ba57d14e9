import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/server/bootstrap';
import { auditLog, organization, user } from '../../src/server/db/schema';
import { ADMIN_EMAIL, createTestApp, uniqueEmail, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_RATE_LIMIT_MAX: '5', SIGN_IN_RATE_LIMIT_WINDOW: '60' });
});
afterAll(() => t?.close());

describe('sign-up', () => {
  it('creates the research site with the new user as its owner, and signs them in', async () => {
    const actor = t.actor();
    const email = uniqueEmail('owner');
    const answer = await actor.post('/api/auth/sign-up/email', { name: 'Ana Ruiz', email, password: 'long-enough-pass', organizationName: 'Lakeside Clinical Research' });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toMatch(/long-enough-pass|\$2|scrypt|password/i);

    const session = await actor.get('/api/auth/get-session');
    expect(session.body.user.email).toBe(email);
    expect(session.body.organization).toMatchObject({ name: 'Lakeside Clinical Research', slug: 'lakeside-clinical-research' });
    expect(session.body.organization.publicId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(session.body.isAdmin).toBe(false);
    expect(session.body.role).toBe('owner');
    // The session token never reaches page scripts: it lives in the httpOnly cookie only.
    expect(session.body.session).not.toHaveProperty('token');

    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, session.body.organization.id));
    expect(audit.map((row) => row.action)).toContain('organization.create');
  });

  it('sends a verification email through the mail outbox', async () => {
    const email = uniqueEmail('verify');
    await t.actor().post('/api/auth/sign-up/email', { name: 'V', email, password: 'long-enough-pass', organizationName: 'Verify Site' });
    const mails = (await t.outbox()).filter((mail) => mail.toAddress === email);
    expect(mails).toHaveLength(1);
    expect(mails[0].textBody).toContain('/api/auth/verify-email?token=');

    const token = new URL(mails[0].textBody.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
    const verify = await t.actor().get(`/api/auth/verify-email?token=${token}`);
    expect(verify.status).toBe(200);
    const [row] = await t.deps.db.select().from(user).where(eq(user.email, email));
    expect(row.emailVerified).toBe(true);
  });

  it('refuses a sign-up without a research site name, naming the field, and creates nothing', async () => {
    const email = uniqueEmail('nosite');
    const answer = await t.actor().post('/api/auth/sign-up/email', { name: 'No Site', email, password: 'long-enough-pass' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/organizationName/);
    expect(await t.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('refuses a short password and a taken email', async () => {
    const short = await t.actor().post('/api/auth/sign-up/email', { name: 'S', email: uniqueEmail(), password: 'short', organizationName: 'Site' });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toMatch(/password/i);

    const first = await t.signUp();
    const again = await t.actor().post('/api/auth/sign-up/email', { name: 'Dup', email: first.email, password: 'long-enough-pass', organizationName: 'Other' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.error.message).toBeTruthy();
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password only, with an httpOnly SameSite session cookie', async () => {
    const person = await t.signUp();
    const wrong = await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/invalid email or password/i);

    const actor = t.actor();
    const right = await actor.post('/api/auth/sign-in/email', { email: person.email, password: person.password });
    expect(right.status).toBe(200);
    const cookie = right.headers.getSetCookie().find((line) => line.includes('session_token'))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await actor.get('/api/users/me')).body.email).toBe(person.email);

    expect((await actor.post('/api/auth/sign-out')).status).toBe(200);
    expect((await actor.get('/api/auth/get-session')).body).toBeNull();
    expect((await actor.get('/api/users/me')).status).toBe(401);
  });

  it('rate-limits sign-in attempts from one address', async () => {
    const person = await t.signUp();
    const attacker = t.actor();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push((await attacker.post('/api/auth/sign-in/email', { email: person.email, password: `guess-${attempt}-password` })).status);
    }
    expect(statuses.slice(0, 5).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not affected.
    expect((await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password })).status).toBe(200);
  });

  it('answers a protected endpoint without a session with 401 in the one error shape', async () => {
    const answer = await t.actor().get('/api/organizations/');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Sign in to continue' } });
  });
});

describe('account settings', () => {
  it('changes name and password; the old password stops working', async () => {
    const person = await t.signUp();
    expect((await person.actor.post('/api/auth/update-user', { name: 'Renamed Person' })).status).toBe(200);
    expect((await person.actor.get('/api/users/me')).body.name).toBe('Renamed Person');

    const change = await person.actor.post('/api/auth/change-password', { currentPassword: person.password, newPassword: 'a-brand-new-password' });
    expect(change.status).toBe(200);
    expect((await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password })).status).toBe(401);
    await t.signIn(person.email, 'a-brand-new-password');
  });

  it('lists own sessions and revokes the others', async () => {
    const person = await t.signUp();
    const laptop = await t.signIn(person.email, person.password);
    const sessions = await person.actor.get('/api/auth/list-sessions');
    expect(sessions.body).toHaveLength(2);

    expect((await person.actor.post('/api/auth/revoke-other-sessions')).status).toBe(200);
    expect((await laptop.get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/users/me')).status).toBe(200);

    await t.signIn(person.email, person.password);
    expect((await person.actor.post('/api/auth/revoke-sessions')).status).toBe(200);
    expect((await person.actor.get('/api/users/me')).status).toBe(401);
  });

  it('deletes the account with the password', async () => {
    const person = await t.signUp();
    const answer = await person.actor.post('/api/auth/delete-user', { password: person.password });
    expect(answer.status).toBe(200);
    expect(await t.deps.db.select().from(user).where(eq(user.id, person.userId))).toHaveLength(0);
    expect((await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password })).status).toBe(401);
  });
});

describe('first start', () => {
  it('has the Cohortly organization and one internal admin, and never makes a second on restart', async () => {
    const admin = await t.signInAdmin();
    const session = await admin.get('/api/auth/get-session');
    expect(session.body.isAdmin).toBe(true);
    expect(session.body.organization).toMatchObject({ slug: 'cohortly', name: 'Cohortly' });

    const again = await bootstrap(t.deps.db, t.deps.auth, t.deps.config);
    expect(again.createdAdmin).toBeUndefined();
    expect(await t.deps.db.select().from(user).where(eq(user.isAdmin, true))).toHaveLength(1);
    expect(await t.deps.db.select().from(organization).where(eq(organization.slug, 'cohortly'))).toHaveLength(1);
    expect(session.body.user.email).toBe(ADMIN_EMAIL);
  });
});
