import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session as sessionTable, user } from '../../src/server/db/schema';
import { BASE_URL, createTestApp, type TestApp, uniqueEmail } from '../support/test-app';

// Issue 35, items 2, 3, 5 and 6: the sign-in throttle whatever the body, cookie-only sessions, a sign-up that does
// not reveal registration with a password strength policy, and writes from our own pages only (decisions 120, 121).

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy whose X-Forwarded-For counts: every attempt below comes from a new client address, so only the
  // per-account limit stands between a guesser and the account. Three failures lock the account for the window, so
  // the answers do not depend on how fast this machine is (the growing delay is auth.int.test.ts's).
  t = await createTestApp({ TRUSTED_PROXIES: '192.0.2.0/24', SIGN_IN_RATE_LIMIT_MAX: '1000', SIGN_IN_ACCOUNT_MAX_FAILURES: '3' });
}, 180_000);
afterAll(() => t?.close());

let addressCounter = 0;
/** A request through the trusted proxy, from a client address never seen before. */
async function viaProxy(path: string, body: string | undefined, headers: Record<string, string>) {
  addressCounter++;
  const response = await t.app.request(
    path,
    { method: 'POST', body, headers: { origin: BASE_URL, 'x-forwarded-for': `198.51.${addressCounter >> 8}.${addressCounter & 255}`, ...headers } },
    { incoming: { socket: { remoteAddress: '192.0.2.10' } } },
  );
  return { status: response.status, signedIn: response.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line)), text: await response.text() };
}

const BOUNDARY = 'cohortly-test-boundary';
/** The sign-in body in each shape better-auth itself would read. */
const BODY_SHAPES: Record<string, (email: string, password: string) => { body: string; contentType?: string }> = {
  json: (email, password) => ({ body: JSON.stringify({ email, password }), contentType: 'application/json' }),
  'json with charset': (email, password) => ({ body: JSON.stringify({ email, password }), contentType: 'application/json; charset=utf-8' }),
  // The media type is case-insensitive: a throttle matching "application/json" exactly would be dodged here.
  'json, odd casing': (email, password) => ({ body: JSON.stringify({ email, password }), contentType: 'Application/JSON;Charset=UTF-8' }),
  // The email as the person typed it in capitals: one account, one count.
  'json, email in capitals': (email, password) => ({ body: JSON.stringify({ email: email.toUpperCase(), password }), contentType: 'application/json' }),
  'form-urlencoded': (email, password) => ({ body: new URLSearchParams({ email, password }).toString(), contentType: 'application/x-www-form-urlencoded' }),
  multipart: (email, password) => ({
    body: [
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="email"',
      '',
      email,
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="password"',
      '',
      password,
      `--${BOUNDARY}--`,
      '',
    ].join('\r\n'),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  }),
  'text/plain': (email, password) => ({ body: JSON.stringify({ email, password }), contentType: 'text/plain' }),
  'json-suffix': (email, password) => ({ body: JSON.stringify({ email, password }), contentType: 'application/vnd.api+json' }),
  'no content type': (email, password) => ({ body: JSON.stringify({ email, password }) }),
};

/** Every sign-in attempt this file sends and how many got a session: the figures issue 35's closing note reports. */
const tally = { attempts: 0, sessions: 0, shapes: new Set<string>() };
afterAll(() => {
  process.stdout.write(`sign-in throttle: ${tally.attempts} attempts in ${tally.shapes.size} body shapes, ${tally.sessions} sessions\n`);
});

const signInAs = async (shape: string, email: string, password: string) => {
  const { body, contentType } = BODY_SHAPES[shape](email, password);
  const answer = await viaProxy('/api/auth/sign-in/email', body, contentType ? { 'content-type': contentType } : {});
  tally.attempts++;
  tally.shapes.add(shape);
  if (answer.signedIn) tally.sessions++;
  return answer;
};

describe('the per-account sign-in throttle, whatever the body (issue 35 item 2)', () => {
  it.each(Object.keys(BODY_SHAPES))(
    '12 wrong passwords as %s, then the right one: never a session',
    async (shape) => {
      const person = await t.signUp();
      const answers = [];
      for (let attempt = 0; attempt < 12; attempt++) answers.push(await signInAs(shape, person.email, `wrong-guess-${attempt}-river`));
      const right = await signInAs(shape, person.email, person.password);
      expect(answers.every((answer) => answer.status !== 200 && !answer.signedIn)).toBe(true);
      expect(right.signedIn).toBe(false);
      // JSON reaches the throttle (locked from the 4th attempt on); every other shape is refused unread.
      const json = shape.startsWith('json') && shape !== 'json-suffix';
      expect(right.status).toBe(json ? 429 : 415);
      if (json) expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, ...Array(9).fill(429)]);
      else expect(answers.every((answer) => answer.status === 415)).toBe(true);
    },
    120_000,
  );

  it('the probe of issue 35: JSON guesses until 429, then form-encoded guesses and the right password get no session', async () => {
    const person = await t.signUp();
    for (let attempt = 0; attempt < 12; attempt++) await signInAs('json', person.email, `wrong-guess-${attempt}-river`);
    const form = [];
    for (let attempt = 0; attempt < 25; attempt++) form.push(await signInAs('form-urlencoded', person.email, `form-guess-${attempt}-river`));
    form.push(await signInAs('form-urlencoded', person.email, person.password));
    expect(form.filter((answer) => answer.status === 200 || answer.signedIn)).toHaveLength(0);
    expect((await signInAs('json', person.email, person.password)).status).toBe(429);
  }, 120_000);
});

describe('cookie-only sessions (issue 35 item 3)', () => {
  it('puts no session token in the sign-in body, and a Bearer header with a live session token is no session', async () => {
    const person = await t.signUp();
    const actor = t.actor();
    const signIn = await actor.post('/api/auth/sign-in/email', { email: person.email, password: person.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body).not.toHaveProperty('token');
    expect(signIn.body.user.email).toBe(person.email);
    expect(signIn.headers.get('set-auth-token')).toBeNull();

    const [live] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, person.userId)).orderBy(desc(sessionTable.createdAt)).limit(1);
    const bearer = t.actor();
    for (const path of ['/api/users/me', '/api/trials', '/api/candidates']) {
      const answer = await bearer.request('GET', path, undefined, { authorization: `Bearer ${live.token}` });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await bearer.request('GET', '/api/auth/get-session', undefined, { authorization: `Bearer ${live.token}` })).body).toBeNull();
    // The same session as its cookie works.
    expect((await actor.get('/api/users/me')).status).toBe(200);
  });
});

describe('sign-up that does not reveal registration (issue 35 item 5)', () => {
  const signUpAs = (email: string, password = 'quiet-river-lantern-42') =>
    t.actor().post('/api/auth/sign-up/email', { name: 'Maya Okafor', email, password, organizationName: 'Harbor Research' });

  it('answers a registered and a new email alike: status, body and no session; the owner is told by mail', async () => {
    const registered = await t.signUp();
    const known = await signUpAs(registered.email);
    const fresh = await signUpAs(uniqueEmail('fresh'));
    expect(known.status).toBe(200);
    expect(fresh.status).toBe(known.status);
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(known.body.status).toBe('check-your-email');
    expect(fresh.body.status).toBe('check-your-email');
    // Without SMTP the simulated mail's link comes back in both cases (decision 121).
    expect(new URL(known.body.simulatedMailLink).origin).toBe(BASE_URL);
    expect(new URL(fresh.body.simulatedMailLink).origin).toBe(BASE_URL);
    for (const answer of [known, fresh]) {
      expect(answer.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line))).toBe(false);
      expect(answer.headers.get('content-type')).toBe(fresh.headers.get('content-type'));
    }
    const mails = (await t.outbox()).filter((mail) => mail.toAddress === registered.email);
    expect(mails.at(-1)?.textBody).toContain(`${BASE_URL}/sign-in`);
    // The registered account is unchanged: its own password still signs in.
    expect((await t.actor().post('/api/auth/sign-in/email', { email: registered.email, password: registered.password })).status).toBe(200);
  });

  it.each([
    ['aaaaaaaaaa', /too easy to guess/i],
    ['1234567890', /too easy to guess/i],
    ['password12', /too easy to guess/i],
  ])('refuses the weak password %s with the reason and a hint, and creates nothing', async (password, reason) => {
    const email = uniqueEmail('weak');
    const answer = await signUpAs(email, password);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(reason);
    expect(answer.body.error.message).toMatch(/three or four unrelated words/i);
    expect(await t.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('refuses a password that is or contains the email or the name', async () => {
    const email = uniqueEmail('self');
    for (const password of [email, `${email.split('@')[0]}-2026`, 'MayaOkafor-harbor']) {
      const answer = await signUpAs(email, password);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/must not contain your email address or name/i);
    }
    expect(await t.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('accepts a strong password, and refuses a weak one on a password change too', async () => {
    const email = uniqueEmail('strong');
    expect((await signUpAs(email, 'copper-lantern-orbit-meadow')).status).toBe(200);
    expect(await t.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(1);

    const person = await t.signUp();
    const weak = await person.actor.post('/api/auth/change-password', { currentPassword: person.password, newPassword: 'password12' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toMatch(/too easy to guess/i);
    const strong = await person.actor.post('/api/auth/change-password', { currentPassword: person.password, newPassword: 'velvet-harbor-quartz-9' });
    expect(strong.status).toBe(200);
    expect(strong.body).not.toHaveProperty('token');
  });
});

describe('writes from our own pages only (issue 35 item 6)', () => {
  it('refuses a foreign Origin and a cross-site fetch without Origin with 403; reads and header-less tools are unaffected', async () => {
    const person = await t.signUp();
    const rename = (name: string, headers: Record<string, string>) => person.actor.request('PATCH', `/api/users/${person.userId}`, { name }, headers);

    const foreign = await rename('Foreign Name', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/another site/) });
    expect((await rename('Opaque Name', { origin: 'null' })).status).toBe(403);

    // With no Origin the browser's Sec-Fetch-Site decides.
    const withoutOrigin = (name: string, site?: string) =>
      t.app.request(`/api/users/${person.userId}`, {
        method: 'PATCH',
        body: JSON.stringify({ name }),
        headers: { 'content-type': 'application/json', cookie: person.actor.cookie, ...(site ? { 'sec-fetch-site': site } : {}) },
      });
    expect((await withoutOrigin('Cross Name', 'cross-site')).status).toBe(403);
    expect((await withoutOrigin('Sibling Name', 'same-site')).status).toBe(403);
    expect((await t.actor().get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/users/me')).body.name).toBe('Site Coordinator');

    expect((await withoutOrigin('Own Page Name', 'same-origin')).status).toBe(200);
    expect((await withoutOrigin('Tool Name')).status).toBe(200);
    expect((await rename('Browser Name', {})).status).toBe(200);
    expect((await person.actor.get('/api/users/me')).body.name).toBe('Browser Name');
    // A read is not a write: a foreign Origin reads as before (CORS keeps the answer from the foreign page).
    expect((await person.actor.request('GET', '/api/users/me', undefined, { origin: 'https://evil.example' })).status).toBe(200);
  });
});

describe('sessions held to ASVS 5.0 level 2 (V7 session management)', () => {
  it('a sign-in issues a new session token and ends the one the browser held (ASVS 7.2.4)', async () => {
    const person = await t.signUp();
    const before = person.actor.cookie;
    // Someone who copied the earlier cookie.
    const copy = t.actor();
    copy.cookie = before;
    expect((await copy.get('/api/users/me')).status).toBe(200);
    const again = await person.actor.post('/api/auth/sign-in/email', { email: person.email, password: person.password });
    expect(again.status).toBe(200);
    const token = (cookie: string) => /session_token=([^;]+)/.exec(cookie)?.[1];
    expect(token(person.actor.cookie)).toBeTruthy();
    expect(token(person.actor.cookie)).not.toBe(token(before));
    expect((await copy.get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
  });

  it('a password change that signs out the other sessions ends them at once, and keeps this one', async () => {
    const person = await t.signUp();
    const laptop = await t.signIn(person.email, person.password);
    expect((await laptop.get('/api/users/me')).status).toBe(200);
    const change = await person.actor.post('/api/auth/change-password', {
      currentPassword: person.password,
      newPassword: 'amber-glacier-tuning-fork-61',
      revokeOtherSessions: true,
    });
    expect(change.status).toBe(200);
    expect(change.body).not.toHaveProperty('token');
    expect((await laptop.get('/api/users/me')).status).toBe(401);
    expect((await person.actor.get('/api/users/me')).status).toBe(200);
  });

  it('served over https, the session cookie is __Secure-, Secure, HttpOnly and SameSite=Lax', async () => {
    const secure = await createTestApp({ PUBLIC_BASE_URL: 'https://cohortly.example' });
    try {
      const email = uniqueEmail('secure');
      const password = 'quartz-meadow-lantern-88';
      const actor = secure.actor();
      const headers = { origin: 'https://cohortly.example' };
      const signUp = await actor.request(
        'POST',
        '/api/auth/sign-up/email',
        { name: 'Secure Person', email, password, organizationName: 'Secure Site' },
        headers,
      );
      expect(signUp.status).toBe(200);
      const link = new URL(signUp.body.simulatedMailLink);
      const verified = await actor.request('GET', `${link.pathname}${link.search}`, undefined, headers);
      const cookie = verified.headers.getSetCookie().find((line) => line.includes('session_token='));
      expect(cookie).toMatch(/^__Secure-/);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    } finally {
      await secure.close();
    }
  }, 120_000);
});
