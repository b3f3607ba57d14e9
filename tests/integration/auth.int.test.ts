import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootstrap } from '../../src/server/bootstrap';
import { auditLog, organization, session as sessionTable, user } from '../../src/server/db/schema';
import { ADMIN_EMAIL, createTestApp, openMailLink, uniqueEmail, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_RATE_LIMIT_MAX: '5', SIGN_IN_RATE_LIMIT_WINDOW: '60' });
});
afterAll(() => t?.close());

describe('sign-up', () => {
  it('creates the research site with the new user as its owner, and signs them in by the verification link', async () => {
    const actor = t.actor();
    const email = uniqueEmail('owner');
    const answer = await actor.post('/api/auth/sign-up/email', {
      name: 'Ana Ruiz',
      email,
      password: 'long-enough-pass',
      organizationName: 'Lakeside Clinical Research',
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toMatch(/long-enough-pass|\$2|scrypt|password/i);
    // Not signed in until the address is proven (decision 121).
    expect(answer.headers.getSetCookie().some((line) => line.includes('session_token'))).toBe(false);
    expect((await actor.get('/api/auth/get-session')).body).toBeNull();
    const unverified = await t.actor().post('/api/auth/sign-in/email', { email, password: 'long-enough-pass' });
    expect(unverified.status).toBe(403);

    await openMailLink(actor, answer.body.simulatedMailLink);
    const session = await actor.get('/api/auth/get-session');
    expect(session.body.user.email).toBe(email);
    expect(session.body.organization).toMatchObject({ name: 'Lakeside Clinical Research', slug: 'lakeside-clinical-research' });
    expect(session.body.organization.publicId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(session.body.isAdmin).toBe(false);
    expect(session.body.role).toBe('owner');
    // Only an internal admin picks an organization, so only theirs comes with the session (decision 181).
    expect(session.body.defaultOrganization).toBeNull();
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

    // A taken email answers as a new one (decision 121); its owner is told by mail, and nothing is created.
    const first = await t.signUp();
    const again = await t.actor().post('/api/auth/sign-up/email', { name: 'Dup', email: first.email, password: 'long-enough-pass', organizationName: 'Other' });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('check-your-email');
    const mails = (await t.outbox()).filter((mail) => mail.toAddress === first.email);
    expect(mails.map((mail) => mail.subject)).toContain('Someone tried to create a Cohortly account with your email');
    expect(await t.deps.db.select().from(organization).where(eq(organization.name, 'Other'))).toHaveLength(0);
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
      // A different account each time: only the per-address limit applies.
      statuses.push((await attacker.post('/api/auth/sign-in/email', { email: uniqueEmail('nobody'), password: `guess-${attempt}-password` })).status);
    }
    expect(statuses.slice(0, 5).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not affected.
    expect((await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password })).status).toBe(200);
  });

  it('takes the address from the connection: rotating X-Forwarded-For values still gets 429 with Retry-After', async () => {
    const attacker = t.actor();
    const answers = [];
    for (let attempt = 0; attempt < 30; attempt++) {
      const spoofed = `203.0.113.${attempt + 1}`;
      answers.push(
        await attacker.request(
          'POST',
          '/api/auth/sign-in/email',
          { email: uniqueEmail('nobody'), password: `guess-${attempt}-password` },
          { 'x-forwarded-for': spoofed, 'x-real-ip': spoofed },
        ),
      );
    }
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused[0].body.error.code).toBe('TOO_MANY_REQUESTS');
  });

  it('limits failures per account across addresses, with a growing delay, and lets the user in once the window has passed', async () => {
    const person = await t.signUp();
    const key = t.deps.signInThrottle.accountKey(person.email);
    // Each guess from a new address; between guesses the clock moves past the growing delay (at the database).
    const pastTheDelay = () => t.deps.db.execute(sql`update sign_in_throttle set last_failure_at = last_failure_at - interval '2 minutes' where key = ${key}`);
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await t.actor().post('/api/auth/sign-in/email', { email: person.email.toUpperCase(), password: `guess-${attempt}-password` });
      expect(answer.status).toBe(401);
      if (attempt === 4) {
        // Right after a failure the account asks to wait (the delay), even from a fresh address.
        const tooSoon = await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: 'another-guess-1' });
        expect(tooSoon.status).toBe(429);
        expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      await pastTheDelay();
    }
    // Ten failures: the account refuses attempts for the rest of the window, even the right password from a new address.
    const locked = await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(locked.body.error.message).toMatch(/too many/i);
    // The table holds no email.
    const rows = await t.deps.db.execute(sql`select key from sign_in_throttle`);
    expect(JSON.stringify(rows)).not.toContain(person.email.split('@')[0]);

    // The window (15 minutes) passes: the user signs in, and the count starts afresh.
    await t.deps.db.execute(
      sql`update sign_in_throttle set window_started_at = window_started_at - interval '16 minutes', last_failure_at = last_failure_at - interval '16 minutes' where key = ${key}`,
    );
    expect((await t.actor().post('/api/auth/sign-in/email', { email: person.email, password: person.password })).status).toBe(200);
    expect(((await t.deps.db.execute(sql`select 1 from sign_in_throttle where key = ${key}`)) as unknown as { rows: unknown[] }).rows).toHaveLength(0);
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
    // The organization an admin works in when nothing is stored: the first of the list the switcher shows (decision 181).
    const [first] = (await admin.get('/api/organizations')).body.organizations;
    expect(session.body.defaultOrganization).toEqual({ id: first.id, slug: first.slug, publicId: first.publicId, name: first.name });

    const again = await bootstrap(t.deps.db, t.deps.auth, t.deps.config);
    expect(again.createdAdmin).toBeUndefined();
    expect(await t.deps.db.select().from(user).where(eq(user.isAdmin, true))).toHaveLength(1);
    expect(await t.deps.db.select().from(organization).where(eq(organization.slug, 'cohortly'))).toHaveLength(1);
    expect(session.body.user.email).toBe(ADMIN_EMAIL);
  });
});

describe('behind a trusted proxy (TRUSTED_PROXIES)', () => {
  let behind: TestApp;
  beforeAll(async () => {
    behind = await createTestApp({ SIGN_IN_RATE_LIMIT_MAX: '3', SIGN_IN_RATE_LIMIT_WINDOW: '60', TRUSTED_PROXIES: '192.0.2.0/24, 2001:db8::/32' });
  });
  afterAll(() => behind?.close());

  const attempts = async (clientAddress: string, spoofedLeft: (attempt: number) => string) => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const actor = behind.actor();
      actor.socketAddress = '192.0.2.10';
      // The proxy appends the address it saw; whatever the client wrote stands left of it.
      const answer = await actor.request(
        'POST',
        '/api/auth/sign-in/email',
        { email: uniqueEmail('nobody'), password: 'guess-password-1' },
        { 'x-forwarded-for': `${spoofedLeft(attempt)}, ${clientAddress}` },
      );
      statuses.push(answer.status);
    }
    return statuses;
  };

  it('counts the right-most untrusted X-Forwarded-For entry as the client, and only when the socket is a trusted proxy', async () => {
    // One client behind the proxy, rotating what it writes itself: limited after 3 attempts.
    expect(await attempts('198.51.100.7', (attempt) => `203.0.113.${attempt}`)).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy has its own budget.
    expect((await attempts('198.51.100.8', () => '203.0.113.99'))[0]).toBe(401);

    // A socket that is no trusted proxy: its X-Forwarded-For is ignored, the socket's address counts.
    const direct = behind.actor();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push(
        (
          await direct.request(
            'POST',
            '/api/auth/sign-in/email',
            { email: uniqueEmail('nobody'), password: 'guess-password-1' },
            { 'x-forwarded-for': `198.51.100.${50 + attempt}` },
          )
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('session lifetime', () => {
  const rowOf = async (userId: string) => (await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, userId)))[0];

  it('signs out after 30 idle minutes: 401, and the session row is gone', async () => {
    const person = await t.signUp();
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
    const row = await rowOf(person.userId);
    // A new session first runs out after the idle timeout, not after days.
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);

    // 31 minutes pass without activity (moved at the database; the cache is dropped as its TTL would).
    await t.deps.db
      .update(sessionTable)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessionTable.id, row.id));
    t.deps.sessions.clear();
    const answer = await person.actor.get('/api/users/me');
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe('Sign in to continue');
    expect(await rowOf(person.userId)).toBeUndefined();
  });

  it('ends a session 12 hours after sign-in even while it is in use', async () => {
    const person = await t.signUp();
    const row = await rowOf(person.userId);
    await t.deps.db
      .update(sessionTable)
      .set({ createdAt: new Date(Date.now() - 12 * 3_600_000 - 1000), expiresAt: new Date(Date.now() + 20 * 60_000) })
      .where(eq(sessionTable.id, row.id));
    t.deps.sessions.clear();
    expect((await person.actor.get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/auth/get-session')).body).toBeNull();
    expect(await rowOf(person.userId)).toBeUndefined();
  });

  it('user activity moves the idle deadline (never past the 12 hours); passive reads and get-session do not', async () => {
    const person = await t.signUp();
    const row = await rowOf(person.userId);
    const soon = new Date(Date.now() + 5 * 60_000);
    await t.deps.db.update(sessionTable).set({ expiresAt: soon }).where(eq(sessionTable.id, row.id));
    t.deps.sessions.clear();

    // Polling (the web marks it passive) and reading the session leave the deadline alone.
    expect((await person.actor.request('GET', '/api/users/me', undefined, { 'x-cohortly-passive': '1' })).status).toBe(200);
    expect((await person.actor.get('/api/auth/get-session')).status).toBe(200);
    expect((await rowOf(person.userId)).expiresAt.getTime()).toBe(soon.getTime());

    const active = await person.actor.get('/api/users/me');
    const extended = (await rowOf(person.userId)).expiresAt.getTime();
    expect(extended - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(new Date(active.headers.get('x-session-expires-at')!).getTime()).toBe(extended);

    // Close to the absolute end, activity extends only up to it.
    const createdAt = new Date(Date.now() - 12 * 3_600_000 + 10 * 60_000);
    await t.deps.db
      .update(sessionTable)
      .set({ createdAt, expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(sessionTable.id, row.id));
    t.deps.sessions.clear();
    await person.actor.get('/api/users/me');
    expect((await rowOf(person.userId)).expiresAt.getTime()).toBe(createdAt.getTime() + 12 * 3_600_000);
  });

  it('reads a cached session again behind a request past the middle of the cache period: one revoked elsewhere stops working before the period ends', async () => {
    const person = await t.signUp();
    t.deps.sessions.clear();
    const cachedFrom = Date.now();
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
    // Another process revokes it; this process's cache does not know.
    await t.deps.db.delete(sessionTable).where(eq(sessionTable.userId, person.userId));
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
    // 13.5 of the cache's 15 seconds later: still served from the cache, and read again behind that answer.
    vi.useFakeTimers({ toFake: ['Date'], now: cachedFrom + 13_500 });
    try {
      expect((await person.actor.get('/api/users/me')).status).toBe(200);
      await vi.waitFor(async () => expect((await person.actor.get('/api/users/me')).status).toBe(401), { timeout: 10_000, interval: 50 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a signed-out session stops working at once, although sessions are cached', async () => {
    const person = await t.signUp();
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
    expect((await person.actor.get('/api/auth/get-session')).body.user.id).toBe(person.userId);
    const stolenCookie = person.actor.cookie;
    expect((await person.actor.post('/api/auth/sign-out')).status).toBe(200);
    person.actor.cookie = stolenCookie;
    expect((await person.actor.get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/auth/get-session')).body).toBeNull();
  });

  it('revoking sessions elsewhere ends them at once', async () => {
    const person = await t.signUp();
    const laptop = await t.signIn(person.email, person.password);
    expect((await laptop.get('/api/users/me')).status).toBe(200);
    expect((await person.actor.post('/api/auth/revoke-other-sessions')).status).toBe(200);
    expect((await laptop.get('/api/users/me')).status).toBe(401);
  });
});
