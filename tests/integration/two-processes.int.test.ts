import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { call, callback, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { placeCallbackJob } from '../../src/server/features/calls/callback-calls';
import { resumePrescreenRuns } from '../../src/server/features/calls/prescreen-all';
import { databaseKind } from '../support/test-database';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { allTrialIds, createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

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

  it("a sign-out on A ends the session on B once B's cache entry ages out", async () => {
    const person = await a.signUp();
    const onB = b.actor();
    onB.cookie = person.actor.cookie;
    expect((await onB.get('/api/users/me')).status).toBe(200);
    expect((await person.actor.post('/api/auth/sign-out')).status).toBe(200);
    b.deps.sessions.clear(); // what SESSION_CACHE_SECONDS later does by itself
    expect((await onB.get('/api/users/me')).status).toBe(401);
  });
  describe('background work', () => {
    let site: SignedUp;
    let phoneSeq = 0;
    const blocks: StudyBlock[] = [
      {
        id: 'about',
        title: { en: 'About you' },
        questions: [
          { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
        ],
      },
    ];
    const newCandidate = async () => {
      const answer = await site.actor.post('/api/candidates/', {
        firstName: 'Rosa',
        lastName: 'Diaz',
        phone: `+1312555${String(7000 + ++phoneSeq)}`,
        timeZone: zoneAtHour(12),
        consent: { calls: true },
        customFields: { asthma: true },
        trialIds: await allTrialIds(site.actor),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.id as string;
    };
    const callsOf = async (candidateId: string) => a.deps.db.select().from(call).where(eq(call.candidateId, candidateId));
    async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (done(value) || Date.now() > until) return value;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    beforeAll(async () => {
      site = await a.signUp({ organizationName: 'Two Process Research' });
      const trial = await createRecruitingTrial(site.actor, { title: 'Asthma study', criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
      const [form] = await a.deps.db
        .insert(prescreenForm)
        .values({ organizationId: site.organizationId, trialId: trial.body.id, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
        .returning();
      await a.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
      const agent = await site.actor.post('/api/voice-agents/', {
        name: 'Screener',
        type: 'PRESCREEN',
        trialId: trial.body.id,
        prescreenFormId: form.id,
        firstMessage: { en: 'Hello' },
        voicemailMessage: { en: 'Sorry we missed you' },
      });
      expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    });

    it('a callback due now is called once, though both processes run the callback queue', async () => {
      const person = await newCandidate();
      const scheduled = await site.actor.post('/api/callbacks/schedule', { candidateId: person, at: new Date(Date.now() + 1000).toISOString() });
      expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
      const [settled] = await waitFor(
        () => a.deps.db.select().from(callback).where(eq(callback.candidateId, person)),
        (rows) => rows[0]?.status === 'done',
      );
      expect(settled).toMatchObject({ status: 'done', attempts: 1 });
      // Both fire the same job at once (a redelivery racing the first delivery): the callback row decides.
      const again = await site.actor.post('/api/callbacks/schedule', { candidateId: await newCandidate(), at: new Date(Date.now() + 3_600_000).toISOString() });
      const [row] = await a.deps.db.select().from(callback).where(eq(callback.id, again.body.callback.id));
      await Promise.all([
        placeCallbackJob(a.deps, { callbackId: row.id }, row.jobId!, new Date(row.scheduledFor.getTime() + 1000)),
        placeCallbackJob(b.deps, { callbackId: row.id }, row.jobId!, new Date(row.scheduledFor.getTime() + 1000)),
      ]);
      await Promise.all([a.deps.voice.drain(), b.deps.voice.drain()]);
      expect(await callsOf(person)).toHaveLength(1);
      expect(await callsOf(row.candidateId)).toHaveLength(1);
      const [after] = await a.deps.db.select().from(callback).where(eq(callback.id, row.id));
      expect(after.attempts).toBe(1);
    });

    it('a bulk prescreen run started on A is not processed again by B resuming runs at its start-up', async () => {
      const people = [await newCandidate(), await newCandidate(), await newCandidate(), await newCandidate()];
      const started = await site.actor.post('/api/calls/prescreen-all', {});
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      // B starts while A works on the run: it finds the run running and claimed, and leaves it alone.
      expect(await resumePrescreenRuns(b.deps)).toEqual([started.body.id]);
      const run = await waitFor(
        async () => (await site.actor.get(`/api/processing-runs/${started.body.id}/data`)).body.run,
        (body) => body.status === 'completed' || body.status === 'failed',
      );
      expect(run).toMatchObject({ status: 'completed', processed: started.body.total });
      await Promise.all([a.deps.voice.drain(), b.deps.voice.drain()]);
      for (const person of people) {
        const placed = await callsOf(person);
        expect(placed, person).toHaveLength(1);
        expect(placed[0].status).not.toBe('failed');
      }
    });
  });
});
