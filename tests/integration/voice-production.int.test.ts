import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, contactEvent, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { sweepStaleCalls } from '../../src/server/features/calls/reconcile';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { allTrialIds, createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * The app as `npm start` runs it: production mode with no provider secrets. The voice simulator must still
 * carry a call to its end (its messages take an in-process path, not the secret-checked HTTP webhook), the
 * webhook must still refuse unsigned outside messages, and a call that cannot proceed ends as failed with a
 * reason instead of staying "queued".
 */

let t: TestApp;
let site: SignedUp;
let phoneSeq = 0;

async function newCandidate() {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Ana',
    lastName: 'Reyes',
    phone: `+1312555${String(7000 + ++phoneSeq)}`,
    dateOfBirth: '1975-06-01',
    sex: 'female',
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    trialIds: await allTrialIds(site.actor),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

beforeAll(async () => {
  t = await createTestApp({ NODE_ENV: 'production', VAPI_SERVER_SECRET: '', VAPI_API_KEY: '' });
  expect(t.deps.config.isProduction).toBe(true);
  expect(t.deps.voice.provider).toBe('simulator');
  site = await t.signUp({ organizationName: 'Production Mode Research' });
  const trial = await createRecruitingTrial(site.actor, { title: 'Production-mode asthma study', criteria: [{ kind: 'inclusion', text: 'Aged 18 or older' }] });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({
      organizationId: site.organizationId,
      trialId: trial.body.id,
      name: 'Phone form',
      status: 'published',
      currentVersion: 1,
      publishedAt: new Date(),
    })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({
    organizationId: site.organizationId,
    formId: form.id,
    version: 1,
    blocks: [
      {
        id: 'about',
        title: { en: 'About you' },
        questions: [
          { id: 'smoke', type: 'yes_no', wording: { phone: { en: 'Do you smoke?' }, chat: { en: 'Do you smoke?' } }, required: true, criterionLinks: [] },
        ],
      },
    ],
  });
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Phone screener',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello, this is a research site calling about our study.' },
    voicemailMessage: { en: 'Sorry we missed you.' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
});
afterAll(() => t?.close());

describe('voice in production mode without provider secrets', () => {
  it('a simulated call placed with Call now runs to its end', async () => {
    const candidateId = await newCandidate();
    const placed = await site.actor.post('/api/calls/', { candidateId });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await t.deps.voice.drain();
    const detail = (await site.actor.get(`/api/calls/${placed.body.id}`)).body;
    expect(detail.status).toBe('ended');
    expect(detail.transcript.length).toBeGreaterThan(0);
  });

  it('the webhook still refuses an unsigned message from outside', async () => {
    const response = await t.app.request('/api/inbound/vapi', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { type: 'status-update', status: 'ended', call: { id: 'sim_forged' } } }),
    });
    expect(response.status).toBe(401);
  });

  it('a call the provider has no record of ends as failed with the reason, in the contact history too', async () => {
    const candidateId = await newCandidate();
    const placed = await site.actor.post('/api/calls/', { candidateId });
    await t.deps.voice.drain();
    // As after a restart mid-call: the provider id is one the simulator never played, and the call went quiet.
    const quiet = new Date(Date.now() - 5 * 60_000);
    await t.deps.db
      .update(call)
      .set({ status: 'queued', outcome: null, providerCallId: 'sim_forgotten_by_restart', createdAt: quiet })
      .where(eq(call.id, placed.body.id));

    const totals = await sweepStaleCalls(t.deps);
    expect(totals.lost).toBe(1);
    const detail = (await site.actor.get(`/api/calls/${placed.body.id}`)).body;
    expect(detail).toMatchObject({ status: 'failed', outcome: 'failed' });
    expect(detail.structuredData.error).toBe('lost');
    const events = await t.deps.db.select().from(contactEvent).where(eq(contactEvent.candidateId, candidateId));
    expect(events.some((event) => event.summary.startsWith('Call failed: the voice provider has no record of it'))).toBe(true);
  });

  it('a call open far longer than any call can last is failed as never progressing', async () => {
    const candidateId = await newCandidate();
    const placed = await site.actor.post('/api/calls/', { candidateId });
    await t.deps.voice.drain();
    // No provider id at all (placement never confirmed): reconciliation cannot ask; the hard limit settles it.
    await t.deps.db
      .update(call)
      .set({ status: 'queued', outcome: null, providerCallId: null, createdAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(call.id, placed.body.id));

    const totals = await sweepStaleCalls(t.deps);
    expect(totals.stuck).toBe(1);
    const detail = (await site.actor.get(`/api/calls/${placed.body.id}`)).body;
    expect(detail.status).toBe('failed');
    expect(detail.structuredData.error).toBe('no_progress');
    // Settled calls are left alone by the next sweep.
    expect((await sweepStaleCalls(t.deps)).stuck).toBe(0);
  });
});
