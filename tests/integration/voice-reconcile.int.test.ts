import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, callEvent, contactEvent, prescreenForm, prescreenFormVersion, prescreenResult } from '../../src/server/db/schema';
import { createVapiVoice } from '../../src/server/integrations/voice/vapi';
import { VoiceProviderError, type Deliver } from '../../src/server/integrations/voice/port';
import { startFakeVapi, type FakeVapi } from '../support/fake-vapi';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { allTrialIds, createRecruitingTrial } from '../support/trials';

/**
 * POST /api/process/vapi: open calls whose messages never came are read back from the provider (the
 * simulator remembers what it played; Vapi through GET /call/{id}, here a local fake) and finished through the
 * webhook's own end-of-call-report path, or marked failed when the provider does not know them; ended prescreen
 * calls without a result get one. Running it twice changes nothing more.
 */

const SECRET = 'vapi-secret-reconcile-test';

/** An Etc/GMT zone where the local hour is `hour` right now (calling hours are real time). */
function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const blocksFor = (criterionId: string): StudyBlock[] => [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor ever told you that you have asthma?' }, chat: { en: 'Asthma?' } },
        required: true,
        criterionLinks: [{ criterionId, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
    ],
  },
];

let phoneSeq = 0;

async function setupSite(t: TestApp, name: string) {
  const site = await t.signUp({ organizationName: name });
  const trial = await createRecruitingTrial(site.actor, { title: 'Asthma inhaler study', criteria: [{ kind: 'inclusion', text: 'Diagnosed with asthma' }] });
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
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks: blocksFor(trial.body.criteria[0].id) });
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Asthma phone screener',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello from Lakeside Clinical Research.' },
    voicemailMessage: { en: 'Please call us back.' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  return { site, formId: form.id as string };
}

async function newCandidate(site: SignedUp, overrides: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Lee',
    lastName: 'Open',
    phone: `+1212555${String(6000 + ++phoneSeq)}`,
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    customFields: { asthma: true },
    trialIds: await allTrialIds(site.actor),
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

async function placeCall(t: TestApp, site: SignedUp, candidateId: string, simulate?: string) {
  const answer = await site.actor.post('/api/calls/', { candidateId, ...(simulate ? { simulate } : {}) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await t.deps.voice.drain();
  return answer.body.id as string;
}

const rowOf = async (t: TestApp, id: string) => (await t.deps.db.select().from(call).where(eq(call.id, id)))[0];
const eventsOf = (t: TestApp, id: string, type: string) =>
  t.deps.db
    .select()
    .from(callEvent)
    .where(and(eq(callEvent.callId, id), eq(callEvent.type, type)));
const resultsOf = (t: TestApp, candidateId: string) => t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.candidateId, candidateId));

describe('reconciliation with the voice simulator', () => {
  let t: TestApp;
  let site: SignedUp;
  let formId: string;
  /** The simulator's normal way back into the app (as createApp attaches it). */
  let deliver: Deliver;
  beforeAll(async () => {
    t = await createTestApp({ VAPI_SERVER_SECRET: SECRET });
    ({ site, formId } = await setupSite(t, 'Lakeside Clinical Research'));
    deliver = async (payload) => {
      const response = await t.app.request('/api/inbound/vapi', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    };
  });
  afterAll(() => t?.close());

  const reconcile = (body: Record<string, unknown> = { staleAfterMinutes: 0 }) => site.actor.post('/api/process/vapi', body);

  it('a call left ringing: only once stale; the provider says it ended unanswered; a second run changes nothing', async () => {
    const candidateId = await newCandidate(site);
    const id = await placeCall(t, site, candidateId, 'ring');
    expect((await rowOf(t, id)).status).toBe('ringing');

    // The default: only calls open for 10 minutes are asked about.
    const early = await reconcile({});
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body).toEqual({ checked: 0, finished: 0, lost: 0, recorded: 0 });

    const first = await reconcile();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ checked: 1, finished: 1, lost: 0 });
    const row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'ended', outcome: 'no_answer' });
    expect(await eventsOf(t, id, 'end-of-call-report')).toHaveLength(1);

    const again = await reconcile();
    expect(again.body).toEqual({ checked: 0, finished: 0, lost: 0, recorded: 0 });
    expect(await eventsOf(t, id, 'end-of-call-report')).toHaveLength(1);
    const summaries = (
      await t.deps.db
        .select()
        .from(contactEvent)
        .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.kind, 'call')))
    ).map((event) => event.summary);
    expect(summaries.filter((summary) => summary === 'Call not answered (prescreen)')).toHaveLength(1);
  });

  it("an answered call whose end never arrived: the provider's report is applied once (transcript, result)", async () => {
    const candidateId = await newCandidate(site);
    // The last two messages (status ended, end-of-call-report) are lost on the way.
    t.deps.voice.attach(async (payload) => {
      const message = (payload as { message: { type: string; status?: string } }).message;
      if (message.type === 'end-of-call-report' || (message.type === 'status-update' && message.status === 'ended')) return { status: 200, body: null };
      return deliver(payload);
    });
    let id: string;
    try {
      id = await placeCall(t, site, candidateId);
    } finally {
      t.deps.voice.attach(deliver);
    }
    const open = await rowOf(t, id);
    expect(open).toMatchObject({ status: 'in_progress', prescreenResultId: null });

    const first = await reconcile();
    expect(first.body).toMatchObject({ checked: 1, finished: 1, lost: 0, recorded: 0 });
    const row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'ended', outcome: 'completed' });
    expect(row.durationSeconds).toBeGreaterThan(0);
    expect(Number(row.costUsd)).toBeGreaterThan(0);
    expect(row.prescreenResultId).toBeTruthy();
    expect(row.structuredData.analysis).toEqual({ answers: { asthma: 'yes' } });

    // Replays: nothing is counted twice.
    expect((await reconcile()).body).toEqual({ checked: 0, finished: 0, lost: 0, recorded: 0 });
    expect(await eventsOf(t, id, 'end-of-call-report')).toHaveLength(1);
    expect(await resultsOf(t, candidateId)).toHaveLength(1);
    const ended = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'call.end')));
    expect(ended).toHaveLength(1);
  });

  it('a call the provider does not know is marked failed (lost), with a contact event and an audit row', async () => {
    const candidateId = await newCandidate(site);
    const id = await placeCall(t, site, candidateId, 'ring');
    await t.deps.db.update(call).set({ providerCallId: 'sim_forgotten_by_a_restart' }).where(eq(call.id, id));
    const first = await reconcile();
    expect(first.body).toMatchObject({ checked: 1, finished: 0, lost: 1 });
    const row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'failed', outcome: 'failed' });
    expect(row.structuredData.error).toBe('lost');
    expect(row.endedAt).toBeTruthy();
    const events = await t.deps.db
      .select()
      .from(contactEvent)
      .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.referenceId, id)));
    expect(events.map((event) => event.summary)).toContain('Call failed: the voice provider has no record of it (prescreen)');
    expect((await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, id))).map((entry) => entry.action)).toContain('call.lost');
    expect((await reconcile()).body).toMatchObject({ checked: 0, lost: 0 });
  });

  it('an ended prescreen call without a result gets one (once)', async () => {
    const candidateId = await newCandidate(site);
    // The form is unpublished while the call ends: no result, the reason kept on the call.
    await t.deps.db.update(prescreenForm).set({ status: 'draft' }).where(eq(prescreenForm.id, formId));
    let id: string;
    try {
      id = await placeCall(t, site, candidateId);
    } finally {
      await t.deps.db.update(prescreenForm).set({ status: 'published' }).where(eq(prescreenForm.id, formId));
    }
    const before = await rowOf(t, id);
    expect(before).toMatchObject({ status: 'ended', outcome: 'completed', prescreenResultId: null });
    expect(before.structuredData.processingError).toMatch(/Publish/);

    const first = await reconcile();
    expect(first.body).toMatchObject({ checked: 0, recorded: 1 });
    const row = await rowOf(t, id);
    expect(row.prescreenResultId).toBeTruthy();
    const [result] = await resultsOf(t, candidateId);
    expect(result).toMatchObject({ id: row.prescreenResultId, sourceType: 'call', sourceId: id, aiRecommendation: 'PASS' });
    expect(
      (
        await t.deps.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'call.process')))
      ).length,
    ).toBe(1);

    expect((await reconcile()).body).toMatchObject({ recorded: 0 });
    expect(await resultsOf(t, candidateId)).toHaveLength(1);
  });

  it("stays within the scope: another organization's open calls are not touched; organizationIds only narrow", async () => {
    const other = await setupSite(t, 'Other Research Site');
    const candidateId = await newCandidate(other.site);
    const id = await placeCall(t, other.site, candidateId, 'ring');
    expect((await reconcile()).body).toMatchObject({ checked: 0 });
    expect((await reconcile({ staleAfterMinutes: 0, organizationIds: [other.site.organizationId] })).body).toEqual({
      checked: 0,
      finished: 0,
      lost: 0,
      recorded: 0,
    });
    expect((await rowOf(t, id)).status).toBe('ringing');
    const theirs = await other.site.actor.post('/api/process/vapi', { staleAfterMinutes: 0 });
    expect(theirs.body).toMatchObject({ checked: 1, finished: 1 });
  });

  it('the provider unreachable: 502 VOICE_PROVIDER_ERROR, the call left open', async () => {
    const candidateId = await newCandidate(site);
    const id = await placeCall(t, site, candidateId, 'ring');
    const spy = vi.spyOn(t.deps.voice, 'fetchCall').mockRejectedValueOnce(new VoiceProviderError('Vapi unreachable: TimeoutError', 'network'));
    const answer = await reconcile();
    spy.mockRestore();
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('VOICE_PROVIDER_ERROR');
    expect((await rowOf(t, id)).status).toBe('ringing');
    expect((await reconcile()).body).toMatchObject({ checked: 1, finished: 1 });
  });

  it('validates the body', async () => {
    const answer = await reconcile({ staleAfterMinutes: -1 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain('staleAfterMinutes');
  });
});

describe('reconciliation with Vapi (a local fake)', () => {
  const apiKey = 'vapi-private-key-reconcile';
  let fake: FakeVapi;
  let t: TestApp;
  let site: SignedUp;
  beforeAll(async () => {
    fake = await startFakeVapi({ apiKey });
    t = await createTestApp({ VAPI_API_KEY: apiKey, VAPI_API_BASE_URL: fake.baseUrl, VAPI_SERVER_SECRET: SECRET, VAPI_PHONE_NUMBER_ID: 'pn_test' });
    ({ site } = await setupSite(t, 'Vapi Reconcile Site'));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('fetchCall reads GET /call/{id}: null when Vapi does not know it; an error when unreachable', async () => {
    const voice = createVapiVoice({ apiKey, apiBaseUrl: fake.baseUrl });
    expect(await voice.fetchCall('call_nobody')).toBeNull();
    await expect(createVapiVoice({ apiKey: 'wrong', apiBaseUrl: fake.baseUrl }).fetchCall('call_nobody')).rejects.toBeInstanceOf(VoiceProviderError);
    await expect(createVapiVoice({ apiKey, apiBaseUrl: 'http://127.0.0.1:1', timeoutMs: 2000 }).fetchCall('call_x')).rejects.toMatchObject({ code: 'network' });
  });

  it("applies Vapi's ended call as the end-of-call report; a call Vapi lost is marked failed", async () => {
    const candidateId = await newCandidate(site);
    const placed = await site.actor.post('/api/calls/', { candidateId });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const providerCallId = placed.body.providerCallId as string;

    // Still queued at Vapi: asked, nothing changes.
    expect((await site.actor.post('/api/process/vapi', { staleAfterMinutes: 0 })).body).toMatchObject({ checked: 1, finished: 0, lost: 0 });
    expect(fake.received.some((request) => request.method === 'GET' && request.path === `/call/${providerCallId}`)).toBe(true);

    fake.endCall(providerCallId, {
      endedReason: 'customer-ended-call',
      startedAt: '2025-06-02T15:00:00.000Z',
      endedAt: '2025-06-02T15:01:30.000Z',
      cost: 0.1234,
      artifact: {
        messages: [
          { role: 'bot', message: 'Has a doctor ever told you that you have asthma?', secondsFromStart: 4 },
          { role: 'user', message: 'Yes, since I was little.', secondsFromStart: 7 },
        ],
        recordingUrl: 'https://storage.vapi.ai/recording.wav',
      },
      analysis: { structuredData: { answers: { asthma: 'yes' } } },
    });
    const done = await site.actor.post('/api/process/vapi', { staleAfterMinutes: 0 });
    expect(done.body).toMatchObject({ checked: 1, finished: 1, lost: 0 });
    const row = await rowOf(t, placed.body.id);
    expect(row).toMatchObject({
      status: 'ended',
      outcome: 'hung_up',
      durationSeconds: 90,
      costUsd: '0.1234',
      recordingUrl: 'https://storage.vapi.ai/recording.wav',
    });
    expect(row.transcript.map((turn) => turn.role)).toEqual(['assistant', 'user']);
    expect(row.prescreenResultId).toBeTruthy();
    expect(await eventsOf(t, placed.body.id, 'end-of-call-report')).toHaveLength(1);

    // A second call Vapi no longer knows.
    const lostCandidate = await newCandidate(site);
    const second = await site.actor.post('/api/calls/', { candidateId: lostCandidate });
    fake.calls.delete(second.body.providerCallId);
    expect((await site.actor.post('/api/process/vapi', { staleAfterMinutes: 0 })).body).toMatchObject({ checked: 1, finished: 0, lost: 1 });
    expect(await rowOf(t, second.body.id)).toMatchObject({ status: 'failed', outcome: 'failed', structuredData: expect.objectContaining({ error: 'lost' }) });
  });
});
