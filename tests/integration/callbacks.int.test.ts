import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, callback, candidate, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { placeCallbackJob, sweepCallbacks } from '../../src/server/features/calls/callback-calls';
import { localMinutes } from '../../src/server/calling-hours';
import { assignTestNumber } from '../support/phone-numbers';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * Callbacks: scheduled through the API or by the voice agent's tools, moved into calling hours in the
 * candidate's time zone, placed by the pg-boss job at their time, retried a bounded number of times.
 * Calling hours are real-time: candidates get an Etc/GMT zone where the local hour is what the test needs.
 */

const SECRET = 'vapi-test-secret-callbacks';
let t: TestApp;
let site: SignedUp;
let agentId: string;
let trialId: string;
let phoneSeq = 0;
const nextPhone = () => `+1312555${String(6000 + ++phoneSeq)}`;

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
    ],
  },
];

async function newCandidate(overrides: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Rosa',
    lastName: 'Diaz',
    phone: nextPhone(),
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    customFields: { asthma: true },
    // The agent calls the people of its trial only (decision 174).
    trialIds: [trialId],
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; phone: string };
}

const rowOf = async (candidateId: string) =>
  (await t.deps.db.select().from(callback).where(eq(callback.candidateId, candidateId))).sort((x, y) => +x.createdAt - +y.createdAt);
const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();
const tools = (path: string, init: { method: string; body?: unknown }) =>
  t.app.request(`/api/functions/vapi/${path}`, {
    method: init.method,
    headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  t = await createTestApp({ VAPI_SERVER_SECRET: SECRET });
  site = await t.signUp({ organizationName: 'Callback Research Site' });
  const trial = await createRecruitingTrial(site.actor, { title: 'Asthma study', criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
  trialId = trial.body.id;
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId: trial.body.id, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Screener',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello' },
    voicemailMessage: { en: 'Sorry we missed you' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});
afterAll(() => t?.close());

describe('scheduling through the API', () => {
  it('schedules inside calling hours at the time asked, then moves the same callback', async () => {
    const person = await newCandidate();
    const at = inAnHour();
    const first = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at, note: 'Prefers afternoons' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      rescheduled: false,
      callback: {
        candidateId: person.id,
        candidateName: 'Rosa Diaz',
        status: 'pending',
        reason: 'requested',
        type: 'PRESCREEN',
        attempts: 0,
        maxAttempts: 3,
        note: 'Prefers afternoons',
        voiceAgentId: agentId,
      },
    });
    // Midday in the candidate's zone plus an hour is inside 08:00-21:00 unless the clock sits right at a minute boundary.
    expect(new Date(first.body.callback.scheduledFor).getTime()).toBe(new Date(at).getTime());

    const later = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
    const moved = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: later });
    expect(moved.status).toBe(200);
    expect(moved.body.rescheduled).toBe(true);
    expect(moved.body.callback.id).toBe(first.body.callback.id);
    const rows = await rowOf(person.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].scheduledFor.toISOString()).toBe(new Date(later).toISOString());
    // The job is queued once the request's transaction has committed.
    expect(rows[0].jobId).toBeTruthy();

    const history = await site.actor.get(`/api/contact-history/?candidateId=${person.id}`);
    expect(history.body.events.filter((event: { kind: string }) => event.kind === 'callback').map((event: { summary: string }) => event.summary)).toEqual([
      expect.stringMatching(/^Callback scheduled for /),
      expect.stringMatching(/^Callback moved to /),
    ]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, first.body.callback.id));
    expect(audits.map((row) => row.action).sort()).toEqual(['callback.reschedule', 'callback.schedule']);
    expect(JSON.stringify(audits)).not.toContain('Rosa');
  });

  it('moves a time at night into the next calling window in the candidate time zone', async () => {
    const zone = zoneAtHour(12);
    const person = await newCandidate({ timeZone: zone });
    // 15 hours from now is 03:00 local: the callback moves to 08:00 local.
    const night = new Date(Date.now() + 15 * 60 * 60_000);
    const answer = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: night.toISOString() });
    expect(answer.status).toBe(201);
    expect(answer.body.moved).toBe(true);
    expect(answer.body.callback.timeZone).toBe(zone);
    const scheduled = new Date(answer.body.callback.scheduledFor);
    expect(localMinutes(scheduled, zone)).toBe(8 * 60);
    expect(scheduled.getTime()).toBeGreaterThan(night.getTime());
    expect(scheduled.getTime() - night.getTime()).toBeLessThanOrEqual(5 * 60 * 60_000);
  });

  it('answers bad input and blocked candidates with clear errors, writing nothing', async () => {
    const person = await newCandidate();
    const bad = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: 'tomorrow at 3' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^at: /);
    const past = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: new Date(Date.now() - 3_600_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain('past');
    expect((await site.actor.post('/api/callbacks/schedule', { candidateId: '00000000-0000-4000-8000-000000000000', at: inAnHour() })).status).toBe(404);

    const dnc = await newCandidate({ consent: { calls: true, doNotContact: true } });
    const refused = await site.actor.post('/api/callbacks/schedule', { candidateId: dnc.id, at: inAnHour() });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CALLBACK_BLOCKED' });
    expect(refused.body.error.message).toContain('do-not-contact');
    const noConsent = await newCandidate({ consent: { calls: false } });
    expect((await site.actor.post('/api/callbacks/schedule', { candidateId: noConsent.id, at: inAnHour() })).status).toBe(409);
    // No active scheduling agent: nobody could place the call, so it is not promised.
    const noAgent = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, type: 'SITE_VISIT_SCHEDULING', at: inAnHour() });
    expect(noAgent.status).toBe(409);
    expect(noAgent.body.error.message).toBe(
      'Callback not scheduled: No active scheduling voice agent for Asthma study. Create or turn one on under Voice agents.',
    );
    expect([...(await rowOf(person.id)), ...(await rowOf(dnc.id)), ...(await rowOf(noConsent.id))]).toEqual([]);
  });

  it('cancels the pending callback; a second cancel is 404', async () => {
    const person = await newCandidate();
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() });
    const cancelled = await site.actor.delete(`/api/callbacks/${person.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.callback.status).toBe('cancelled');
    expect((await site.actor.delete(`/api/callbacks/${person.id}`)).status).toBe(404);
    // A new one may be scheduled after a cancel.
    expect((await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() })).status).toBe(201);
  });
});

describe('placing callbacks', () => {
  it('the pg-boss job places the call at its time and the callback is done when the person is reached', async () => {
    const person = await newCandidate();
    const answer = await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: new Date(Date.now() + 1000).toISOString() });
    expect(answer.status).toBe(201);
    const [settled] = await waitFor(
      () => rowOf(person.id),
      (rows) => rows[0]?.status === 'done',
    );
    await t.deps.voice.drain();
    expect(settled).toMatchObject({ status: 'done', attempts: 1, lastOutcome: 'completed' });
    const [placed] = await t.deps.db.select().from(call).where(eq(call.candidateId, person.id));
    expect(placed).toMatchObject({ id: settled.lastCallId, status: 'ended', outcome: 'completed', createdByUserId: null });
    const history = (await site.actor.get(`/api/contact-history/?candidateId=${person.id}`)).body.events.map((event: { summary: string }) => event.summary);
    expect(history).toContain('Callback: call placed (prescreen)');
    expect(history).toContain('Callback made (completed)');
  });

  it('a job that fires outside calling hours moves the callback to the next window instead of calling', async () => {
    const person = await newCandidate({ timeZone: zoneAtHour(12) });
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() });
    const [row] = await rowOf(person.id);
    // The candidate moves to a zone where it is now 23:00; the job runs when due.
    await t.deps.db
      .update(candidate)
      .set({ timeZone: zoneAtHour(23) })
      .where(eq(candidate.id, person.id));
    await placeCallbackJob(t.deps, { callbackId: row.id }, row.jobId!, row.scheduledFor);
    const [after] = await rowOf(person.id);
    expect(after).toMatchObject({ status: 'pending', attempts: 0 });
    expect(localMinutes(after.scheduledFor, zoneAtHour(23))).toBe(8 * 60);
    expect(after.jobId).toBeTruthy();
    expect(after.jobId).not.toBe(row.jobId);
    expect(await t.deps.db.select().from(call).where(eq(call.candidateId, person.id))).toEqual([]);
  });

  it('a stale job (the callback was moved or cancelled since) does nothing', async () => {
    const person = await newCandidate();
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() });
    const [row] = await rowOf(person.id);
    await site.actor.delete(`/api/callbacks/${person.id}`);
    await placeCallbackJob(t.deps, { callbackId: row.id }, row.jobId!, row.scheduledFor);
    expect(await t.deps.db.select().from(call).where(eq(call.candidateId, person.id))).toEqual([]);
    expect((await rowOf(person.id))[0].status).toBe('cancelled');
  });

  it('a candidate who became do-not-contact is not called: the callback is cancelled with the reason', async () => {
    const person = await newCandidate();
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() });
    const [row] = await rowOf(person.id);
    expect((await site.actor.patch(`/api/candidates/${person.id}`, { consent: { doNotContact: true } })).status).toBe(200);
    await placeCallbackJob(t.deps, { callbackId: row.id }, row.jobId!, row.scheduledFor);
    expect((await rowOf(person.id))[0]).toMatchObject({ status: 'cancelled', lastError: 'do_not_contact' });
    expect(await t.deps.db.select().from(call).where(eq(call.candidateId, person.id))).toEqual([]);
  });

  it('missed callback calls are retried later, up to three attempts, then the callback fails', async () => {
    const person = await newCandidate({ customFields: { asthma: true, simulate: 'no_answer' } });
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour(), note: 'asked to be called back' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [row] = await rowOf(person.id);
      expect(row.status).toBe('pending');
      await placeCallbackJob(t.deps, { callbackId: row.id }, row.jobId!, row.scheduledFor);
      await t.deps.voice.drain();
      const [after] = await rowOf(person.id);
      expect(after.attempts).toBe(attempt);
      expect(after.lastOutcome).toBe('no_answer');
      if (attempt < 3) expect(after.scheduledFor.getTime()).toBeGreaterThan(row.scheduledFor.getTime());
    }
    const rows = await rowOf(person.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('failed');
    expect(await t.deps.db.select().from(call).where(eq(call.candidateId, person.id))).toHaveLength(3);
    // Three misses in a row also make the candidate unreachable (the calls' own rule).
    expect((await site.actor.get(`/api/candidates/${person.id}`)).body.status).toBe('unreachable');
  });

  it('a missed call earns a callback; reaching the person later settles it', async () => {
    const person = await newCandidate({ customFields: { asthma: true, simulate: 'busy' } });
    const placed = await site.actor.post('/api/calls/', { candidateId: person.id });
    expect(placed.status).toBe(201);
    await t.deps.voice.drain();
    const [offered] = await rowOf(person.id);
    expect(offered).toMatchObject({ status: 'pending', reason: 'missed_call', type: 'PRESCREEN' });
    expect(offered.scheduledFor.getTime()).toBeGreaterThan(Date.now() + 60 * 60_000);
    const listed = await site.actor.get('/api/callbacks/?filter=failedPrescreen');
    expect(listed.body.callbacks.map((item: { candidateId: string }) => item.candidateId)).toContain(person.id);

    const reached = await site.actor.post('/api/calls/', { candidateId: person.id, simulate: 'answer' });
    expect(reached.status).toBe(201);
    await t.deps.voice.drain();
    expect((await rowOf(person.id))[0]).toMatchObject({ status: 'done', lastOutcome: 'completed' });
  });

  it('the sweep gives a due callback whose job was lost a new job', async () => {
    const person = await newCandidate();
    await site.actor.post('/api/callbacks/schedule', { candidateId: person.id, at: inAnHour() });
    const [row] = await rowOf(person.id);
    await t.deps.db.update(callback).set({ jobId: null }).where(eq(callback.id, row.id));
    await sweepCallbacks(t.deps);
    const [after] = await rowOf(person.id);
    expect(after.jobId).toBeTruthy();
    expect(after.status).toBe('pending');
  });
});

describe('listing', () => {
  it('lists open callbacks first with counts; filters and pages', async () => {
    const all = await site.actor.get('/api/callbacks/?limit=200');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.callbacks.length);
    const statuses = all.body.callbacks.map((item: { status: string }) => item.status);
    const firstClosed = statuses.findIndex((status: string) => !['pending', 'calling'].includes(status));
    expect(statuses.slice(firstClosed).every((status: string) => !['pending', 'calling'].includes(status))).toBe(true);
    expect(all.body.counts.pending).toBe(statuses.filter((status: string) => status === 'pending').length);
    expect(all.body.counts.failed).toBeGreaterThanOrEqual(1);

    const page = await site.actor.get('/api/callbacks/?limit=2&offset=1');
    expect(page.body.callbacks.map((item: { id: string }) => item.id)).toEqual(all.body.callbacks.slice(1, 3).map((item: { id: string }) => item.id));
    const pending = await site.actor.get('/api/callbacks/?status=pending');
    expect(pending.body.callbacks.every((item: { status: string }) => item.status === 'pending')).toBe(true);
    expect((await site.actor.get('/api/callbacks/?filter=failedScheduling')).body.total).toBe(0);
    expect((await site.actor.get('/api/callbacks/?filter=nonsense')).status).toBe(400);
    expect((await site.actor.get('/api/callbacks/?limit=0')).status).toBe(400);
    expect((await t.actor().get('/api/callbacks/')).status).toBe(401);
  });
});

describe("the voice agent's callback tools", () => {
  it('schedule-callback in a Vapi tool-calls message schedules for the call candidate, and scheduled-callback reads it', async () => {
    const person = await newCandidate({ customFields: { asthma: true, simulate: 'ring' } });
    const placed = await site.actor.post('/api/calls/', { candidateId: person.id });
    await t.deps.voice.drain();
    const providerCallId = (await site.actor.get(`/api/calls/${placed.body.id}`)).body.providerCallId;
    const at = inAnHour();
    const message = (id: string, name: string, args: Record<string, unknown>) => ({
      message: { type: 'tool-calls', call: { id: providerCallId }, toolCallList: [{ id, type: 'function', function: { name, arguments: args } }] },
    });
    const scheduled = await tools('schedule-callback', { method: 'POST', body: message('tc_1', 'schedule-callback', { at, note: 'after work' }) });
    expect(scheduled.status).toBe(200);
    const scheduledBody = (await scheduled.json()) as { results: Array<{ toolCallId: string; result: string }> };
    expect(scheduledBody.results[0].toolCallId).toBe('tc_1');
    expect(scheduledBody.results[0].result).toMatch(/^Callback scheduled for /);
    const [row] = await rowOf(person.id);
    expect(row).toMatchObject({ status: 'pending', reason: 'requested', note: 'after work' });
    expect(row.jobId).toBeTruthy();

    const read = await t.app.request('/api/inbound/vapi', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
      body: JSON.stringify(message('tc_2', 'scheduled-callback', {})),
    });
    expect(((await read.json()) as { results: Array<{ result: string }> }).results[0].result).toMatch(/^A callback is scheduled for /);
    await site.actor.delete(`/api/calls/${placed.body.id}`);
  });

  it('POST, GET and DELETE by candidatePhoneNumber', async () => {
    const person = await newCandidate();
    const phone = encodeURIComponent(person.phone);
    const missingTime = await tools('schedule-callback', { method: 'POST', body: { candidatePhoneNumber: person.phone } });
    expect(missingTime.status).toBe(400);
    expect(((await missingTime.json()) as { error: string }).error).toContain('time');

    const created = await tools('schedule-callback', { method: 'POST', body: { candidatePhoneNumber: person.phone, inMinutes: 90 } });
    expect(created.status).toBe(200);
    expect(((await created.json()) as { ok: boolean; result: string }).result).toMatch(/^Callback scheduled for /);
    expect((await rowOf(person.id))[0].status).toBe('pending');

    const read = await tools(`scheduled-callback?candidatePhoneNumber=${phone}`, { method: 'GET' });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { result: string }).result).toMatch(/^A callback is scheduled for /);

    const removed = await tools(`scheduled-callback?candidatePhoneNumber=${phone}`, { method: 'DELETE' });
    expect(((await removed.json()) as { result: string }).result).toBe('The callback was cancelled.');
    expect((await rowOf(person.id))[0].status).toBe('cancelled');

    expect((await tools('scheduled-callback?candidatePhoneNumber=%2B19999999999', { method: 'GET' })).status).toBe(404);
    expect((await t.app.request(`/api/functions/vapi/scheduled-callback?candidatePhoneNumber=${phone}`, { method: 'GET' })).status).toBe(401);
    // Only the callback tools answer GET and DELETE.
    expect((await tools(`mark-exit-status?candidatePhoneNumber=${phone}`, { method: 'GET' })).status).toBe(404);
  });

  it('refuses a phone number known in two organizations unless the agent number says which', async () => {
    const other = await t.signUp({ organizationName: 'Second Site' });
    const person = await newCandidate();
    const twin = await other.actor.post('/api/candidates/', { firstName: 'Rosa', phone: person.phone, timeZone: zoneAtHour(12), consent: { calls: true } });
    expect(twin.status).toBe(201);
    const ambiguous = await tools('schedule-callback', { method: 'POST', body: { candidatePhoneNumber: person.phone, inMinutes: 30 } });
    expect(ambiguous.status).toBe(409);
    await assignTestNumber(t, site.organizationId, '+13125550000');
    expect((await site.actor.patch(`/api/voice-agents/${agentId}`, { fromNumber: '+13125550000' })).status).toBe(200);
    const narrowed = await tools('schedule-callback', {
      method: 'POST',
      body: { candidatePhoneNumber: person.phone, agentPhoneNumber: '+13125550000', inMinutes: 30 },
    });
    expect(narrowed.status).toBe(200);
    expect(await rowOf(person.id)).toHaveLength(1);
    expect(
      await t.deps.db
        .select()
        .from(callback)
        .where(and(eq(callback.candidateId, twin.body.id))),
    ).toEqual([]);
  });
});
