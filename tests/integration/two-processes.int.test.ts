import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind } from '../support/test-database';
import { createTestApp, type TestApp } from '../support/test-app';

// Two app instances on one PostgreSQL database with one BETTER_AUTH_SECRET, as two processes behind a load
// balancer. PGlite is one process's embedded database by design (a second opening is refused), so this runs on
// PostgreSQL only.
const onPostgres = databaseKind() === 'postgres';

describe.skipIf(!onPostgres)('two app processes on one PostgreSQL (skipped on PGlite: the embedded database is single-process by design)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ SESSION_CACHE_SECONDS: '15' });
    b = await createTestApp({ SESSION_CACHE_SECONDS: '15' }, a.database);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a session made on A works on B, and sign-in limits are shared', async () => {
    const person = await a.signUp();
    const onB = b.actor();
    onB.cookie = person.actor.cookie;
    expect((await onB.get('/api/users/me')).body.email).toBe(person.email);
    expect((await onB.get('/api/auth/get-session')).body.user.id).toBe(person.userId);

    // Failures on A count on B (the counts live in the database).
    const key = a.deps.signInThrottle.accountKey(person.email);
    expect(b.deps.signInThrottle.accountKey(person.email)).toBe(key);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await a.actor().post('/api/auth/sign-in/email', { email: person.email, password: `wrong-password-${attempt}` })).status).toBe(401);
    }
    expect((await b.actor().post('/api/auth/sign-in/email', { email: person.email, password: 'wrong-password-x' })).status).toBe(429);
  });

  it('a sign-out on A ends the session on B once B\'s cache entry ages out', async () => {
    const person = await a.signUp();
    const onB = b.actor();
    onB.cookie = person.actor.cookie;
    expect((await onB.get('/api/users/me')).status).toBe(200);
    expect((await person.actor.post('/api/auth/sign-out')).status).toBe(200);
    b.deps.sessions.clear(); // what SESSION_CACHE_SECONDS later does by itself
    expect((await onB.get('/api/users/me')).status).toBe(401);
  });
});
