import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { call, callback, prescreenForm, prescreenFormVersion, simulatedVoiceCall } from '../../src/server/db/schema';
import { sweepStaleCalls } from '../../src/server/features/calls/reconcile';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * The voice simulator keeps its calls in the database (decision 124), as a provider keeps them behind its API: a call
 * placed through one app instance is read back, swept, reconciled and cancelled by another with the same outcome as on
 * its own. Two instances on one database, as two processes behind a load balancer (each its own simulator, caches and
 * workers); on PGlite the second instance shares the first's handle, on PostgreSQL the same database.
 */

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
    ],
  },
];

describe('the voice simulator across app instances', () => {
  let a: TestApp;
  let b: TestApp;
  let site: SignedUp;
  let phoneSeq = 0;
  let trialId: string;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, a.database);
    site = await a.signUp({ organizationName: 'Simulator Research' });
    const trial = await createRecruitingTrial(site.actor, { title: 'Asthma study', criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
    trialId = trial.body.id;
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
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const newCandidate = async () => {
    const answer = await site.actor.post('/api/candidates/', {
      firstName: 'Ada',
      lastName: 'Ring',
      phone: `+1415555${String(3000 + ++phoneSeq)}`,
      timeZone: zoneAtHour(12),
      consent: { calls: true },
      customFields: { asthma: true },
      trialIds: [trialId],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  /** A call placed through instance A, its conversation played there; `ringingFor` minutes ago (the sweep's age). */
  const placeOnA = async (candidateId: string, simulate: string, ringingForMinutes = 3) => {
    const placed = await site.actor.post('/api/calls/', { candidateId, simulate });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await a.deps.voice.drain();
    await a.deps.db
      .update(call)
      .set({ createdAt: sql`now() - make_interval(mins => ${ringingForMinutes})` })
      .where(eq(call.id, placed.body.id));
    return placed.body.id as string;
  };
  const rowOf = async (id: string) => (await a.deps.db.select().from(call).where(eq(call.id, id)))[0];
  const callbacksOf = (candidateId: string) =>
    a.deps.db.select({ status: callback.status, reason: callback.reason }).from(callback).where(eq(callback.candidateId, candidateId));
  /** B's view of a signed-in person of A: the same session cookie. */
  const onB = () => {
    const actor = b.actor();
    actor.cookie = site.actor.cookie;
    return actor;
  };

  it("a call left ringing on A and swept by B's minute sweep: no answer and a callback, as when A sweeps its own", async () => {
    const sweptByB = await newCandidate();
    const sweptByA = await newCandidate();
    const callOnB = await placeOnA(sweptByB, 'ring');
    const callOnA = await placeOnA(sweptByA, 'ring');
    expect((await rowOf(callOnB)).status).toBe('ringing');

    // B never played these conversations: it reads the simulated provider's state from the database. (Both
    // instances' own minute sweeps run too: whichever comes first, none may call them lost.)
    const onBSweep = await sweepStaleCalls(b.deps);
    expect(onBSweep).toMatchObject({ lost: 0, stuck: 0 });
    for (const [id, person] of [
      [callOnB, sweptByB],
      [callOnA, sweptByA],
    ]) {
      expect(await rowOf(id)).toMatchObject({ status: 'ended', outcome: 'no_answer' });
      expect(await callbacksOf(person)).toEqual([{ status: 'pending', reason: 'missed_call' }]);
    }
    // A sweeping afterwards finds nothing left to do, and the outcome stays.
    expect(await sweepStaleCalls(a.deps)).toMatchObject({ checked: 0, finished: 0, lost: 0 });
    expect((await rowOf(callOnB)).outcome).toBe('no_answer');
  });

  it("reconciled on request through B (POST /api/process/vapi): the same outcome as A's own sweep gives", async () => {
    const person = await newCandidate();
    const id = await placeOnA(person, 'ring', 0);
    const answer = await onB().post('/api/process/vapi', { staleAfterMinutes: 0 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ checked: 1, finished: 1, lost: 0 });
    expect(await rowOf(id)).toMatchObject({ status: 'ended', outcome: 'no_answer' });
    expect(await callbacksOf(person)).toEqual([{ status: 'pending', reason: 'missed_call' }]);
  });

  it('an answered call played on A reads back on B with its transcript and the same end, asked twice', async () => {
    const person = await newCandidate();
    const id = await placeOnA(person, 'answer', 0);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'ended', outcome: 'completed' });
    const first = await b.deps.voice.fetchCall(row.providerCallId!);
    expect(first).toMatchObject({ id: row.providerCallId, status: 'ended', endedReason: 'assistant-ended-call' });
    expect(JSON.stringify(first?.artifact)).toContain('Do you have asthma?');
    expect(await a.deps.voice.fetchCall(row.providerCallId!)).toEqual(first);
  });

  it('a ringing call placed on A and cancelled through B ends as cancelled at the provider, for both', async () => {
    const person = await newCandidate();
    const placed = await site.actor.post('/api/calls/', { candidateId: person, simulate: 'ring' });
    expect(placed.status).toBe(201);
    const removed = await onB().delete(`/api/calls/${placed.body.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.action).toBe('cancelled');
    await a.deps.voice.drain();
    const providerCallId = (await rowOf(placed.body.id)).providerCallId!;
    const seenByA = await a.deps.voice.fetchCall(providerCallId);
    expect(seenByA).toMatchObject({ status: 'ended', endedReason: 'manually-canceled' });
    expect(await b.deps.voice.fetchCall(providerCallId)).toEqual(seenByA);
  });

  it('the store is outside every tenant path: a request scope cannot read it', async () => {
    const rows = await a.deps.db
      .select({ count: sql<number>`count(*)::int` })
      .from(simulatedVoiceCall)
      .where(eq(simulatedVoiceCall.organizationId, site.organizationId));
    expect(rows[0].count).toBeGreaterThan(0);
    // The application role has no rights on the table (migration 0037): a scoped transaction is refused outright.
    await expect(
      a.deps.db.transaction(async (tx) => {
        await tx.execute(sql`set local role cohortly_app`);
        await tx.execute(sql`select 1 from simulated_voice_call limit 1`);
      }),
    ).rejects.toThrow();
  });

  it('a provider id the simulator never placed is unknown to every instance', async () => {
    expect(await b.deps.voice.fetchCall('sim_never_placed')).toBeNull();
    const [anyCall] = await a.deps.db
      .select({ providerCallId: simulatedVoiceCall.providerCallId })
      .from(simulatedVoiceCall)
      .where(and(eq(simulatedVoiceCall.organizationId, site.organizationId)))
      .limit(1);
    expect(await b.deps.voice.fetchCall(anyCall.providerCallId)).not.toBeNull();
  });
});
