import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, candidate, prescreenForm, prescreenFormVersion, processingRun, processingRunItem } from '../../src/server/db/schema';
import { resumePrescreenRuns, whenPrescreenRunSettled } from '../../src/server/features/calls/prescreen-all';
import { VoiceProviderError, type PlaceCallRequest } from '../../src/server/integrations/voice/port';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * POST /api/calls/prescreen-all through the voice simulator: the run calls every due candidate, respects
 * consent and calling hours, and never has more than VOICE_MAX_CONCURRENT_CALLS (2 here) calls open.
 * Calling hours are real-time: candidates get an Etc/GMT zone where it is midday (or 03:00) right now.
 */

const MAX_CALLS = 2;
let t: TestApp;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(6000 + ++phoneSeq)}`;

const localHour = (iso: string, timeZone: string) =>
  Number(new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(iso))) % 24;

const blocksFor = (criteria: { age: string; asthma: string; smoker: string }): StudyBlock[] => [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'dob',
        type: 'date',
        wording: { phone: { en: 'What is your date of birth?' }, chat: { en: 'What is your date of birth?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.age, when: { op: 'age_lt', value: 18 }, then: 'not_met', otherwise: 'met' }],
      },
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor ever told you that you have asthma?' }, chat: { en: 'Asthma?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.asthma, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
      {
        id: 'smoke',
        type: 'yes_no',
        wording: { phone: { en: 'Do you currently smoke cigarettes?' }, chat: { en: 'Smoke?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.smoker, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
    ],
  },
];

interface Site {
  who: SignedUp;
  trialId: string;
  agentId: string;
}

/** Each site's asthma trial: the people a test makes are in it unless it says otherwise (decision 174). */
const trialOf = new Map<SignedUp, string>();

/** A site with an asthma trial, a published phone form and an active prescreen agent for that trial. */
async function setUpSite(who: SignedUp, withAgent = true): Promise<Site> {
  const created = await createRecruitingTrial(who.actor, {
    title: 'Inhaler XR-12 in adults with moderate asthma',
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 or older' },
      { kind: 'inclusion', text: 'Diagnosed with asthma' },
      { kind: 'exclusion', text: 'Current smoker' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const trialId = created.body.id as string;
  const [age, asthma, smoker] = created.body.criteria.map((criterion: { id: string }) => criterion.id);
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: who.organizationId, trialId, name: 'Asthma phone form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: who.organizationId, formId: form.id, version: 1, blocks: blocksFor({ age, asthma, smoker }) });
  trialOf.set(who, trialId);
  if (!withAgent) return { who, trialId, agentId: '' };
  const agent = await who.actor.post('/api/voice-agents/', {
    name: 'Asthma phone screener',
    type: 'PRESCREEN',
    trialId,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello, this is the research site calling about our asthma study.' },
    voicemailMessage: { en: 'Sorry we missed you.' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  return { who, trialId, agentId: agent.body.id };
}

/** A published one-question phone form and an active prescreen agent for another trial of the site. */
async function agentFor(who: SignedUp, trialId: string, name: string): Promise<string> {
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: who.organizationId, trialId, name: `${name} form`, status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  const question = {
    id: 'adult',
    type: 'yes_no' as const,
    wording: { phone: { en: 'Are you 18 or older?' }, chat: { en: 'Adult?' } },
    required: true,
    criterionLinks: [],
  };
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: who.organizationId, formId: form.id, version: 1, blocks: [{ id: 'about', title: { en: 'About you' }, questions: [question] }] });
  const agent = await who.actor.post('/api/voice-agents/', {
    name,
    type: 'PRESCREEN',
    trialId,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello from the research site.' },
    voicemailMessage: { en: 'Sorry we missed you.' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  return agent.body.id as string;
}

async function newCandidate(who: SignedUp, overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await who.actor.post('/api/candidates/', {
    firstName: 'Maria',
    lastName: 'Lopez',
    phone: nextPhone(),
    dateOfBirth: '1980-03-04',
    sex: 'female',
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    customFields: { asthma: true },
    trialIds: trialOf.has(who) ? [trialOf.get(who)] : [],
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Starts a run (202) and waits until it and every simulated call it placed have finished. */
async function runToTheEnd(who: SignedUp, body: Record<string, unknown> = {}) {
  const started = await who.actor.post('/api/calls/prescreen-all', body);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await whenPrescreenRunSettled(started.body.id);
  await t.deps.voice.drain();
  const data = await who.actor.get(`/api/processing-runs/${started.body.id}/data?limit=1000`);
  expect(data.status).toBe(200);
  return { started: started.body, data: data.body };
}

type Item = { rowNumber: number; outcome: string; errors: Array<{ field: string; message: string }>; candidateId: string; processedAt: string | null };
const byCandidate = (items: Item[]) => new Map(items.map((item) => [item.candidateId, item]));

beforeAll(async () => {
  t = await createTestApp({ VOICE_MAX_CONCURRENT_CALLS: String(MAX_CALLS) });
});
afterAll(() => t?.close());

describe('the whole journey of a bulk prescreen run', () => {
  let site: Site;
  let otherTrialId: string;
  const c: Record<string, string> = {};
  let run: { started: any; data: any };

  beforeAll(async () => {
    site = await setUpSite(await t.signUp({ organizationName: 'Lakeside Clinical Research' }));
    const who = site.who;
    otherTrialId = (await createRecruitingTrial(who.actor, { title: 'A COPD study', criteria: [{ kind: 'inclusion', text: 'COPD' }] })).body.id;

    // Due and called.
    c.pass = await newCandidate(who, { trialIds: [site.trialId] });
    c.passContacted = await newCandidate(who, { status: 'contacted' });
    c.fail = await newCandidate(who, { trialIds: [site.trialId], customFields: {} }); // no asthma: FAIL
    c.noAnswer = await newCandidate(who, { customFields: { asthma: true, simulate: 'no_answer' } });
    // Due, but not called.
    c.dnc = await newCandidate(who);
    // Legacy data: flagged do-not-contact with its status left 'new' (the API keeps both in step), so it is due.
    await t.deps.db.update(candidate).set({ doNotContact: true, doNotContactAt: new Date() }).where(eq(candidate.id, c.dnc));
    c.noConsent = await newCandidate(who, { consent: { calls: false } });
    c.night = await newCandidate(who, { timeZone: zoneAtHour(3) });
    // Not due at all.
    c.dncApi = await newCandidate(who, { consent: { calls: true, doNotContact: true } });
    c.noPhone = await newCandidate(who, { phone: null });
    c.otherTrial = await newCandidate(who, { trialIds: [otherTrialId] });
    // In no trial: no agent's questions are theirs, so no run calls them (decision 174).
    c.noTrial = await newCandidate(who, { trialIds: [] });
    c.passedAlready = await newCandidate(who, { status: 'prescreen_passed' });
    c.hasResult = await newCandidate(who);
    const earlier = await who.actor.post('/api/calls/', { candidateId: c.hasResult });
    expect(earlier.status, JSON.stringify(earlier.body)).toBe(201);
    await t.deps.voice.drain();
    const reset = await who.actor.patch(`/api/candidates/${c.hasResult}`, { status: 'new', statusReason: 'Test: back to new, result kept' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);

    run = await runToTheEnd(who);
  });

  it('answers 202 with the run, started', () => {
    expect(run.started).toMatchObject({
      kind: 'prescreen_calls',
      status: 'running',
      total: 7,
      label: 'Prescreen calls (7 candidates)',
      organizationId: site.who.organizationId,
      createdByUserId: site.who.userId,
    });
    expect(run.started.options).toEqual({ voiceAgentId: site.agentId, trialId: site.trialId, simulate: null, maxConcurrentCalls: MAX_CALLS });
    expect(run.started.startedAt).toBeTruthy();
  });

  it('counts every outcome and finishes', () => {
    expect(run.data.run).toMatchObject({
      status: 'completed',
      total: 7,
      processed: 7,
      succeeded: 4,
      merged: 1,
      skipped: 2,
      failed: 0,
      progress: 1,
      error: null,
    });
    expect(run.data.run.finishedAt).toBeTruthy();
    expect(run.data.outcomes).toEqual({ called: 4, deferred: 1, skipped: 2 });
  });

  it('picks exactly the due candidates, in creation order', () => {
    const items = run.data.items as Item[];
    expect(items.map((item) => item.rowNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(items.map((item) => item.candidateId)).toEqual([c.pass, c.passContacted, c.fail, c.noAnswer, c.dnc, c.noConsent, c.night]);
  });

  it('records each outcome and the reason for every candidate not called', () => {
    const items = byCandidate(run.data.items);
    for (const id of [c.pass, c.passContacted, c.fail, c.noAnswer]) expect(items.get(id)).toMatchObject({ outcome: 'called', errors: [] });
    expect(items.get(c.dnc)).toMatchObject({ outcome: 'skipped', errors: [{ field: 'doNotContact', message: expect.stringContaining('do_not_contact') }] });
    expect(items.get(c.noConsent)).toMatchObject({
      outcome: 'skipped',
      errors: [{ field: 'consentCalls', message: expect.stringContaining('no_call_consent') }],
    });
    expect(items.get(c.night)).toMatchObject({ outcome: 'deferred', errors: [{ field: 'timeZone', message: expect.stringContaining('quiet_hours') }] });
    for (const item of run.data.items as Item[]) expect(item.processedAt).toBeTruthy();
  });

  it('places one call per called candidate, and none to the others', async () => {
    const calls = (await site.who.actor.get('/api/calls/')).body.calls as Array<{
      candidateId: string;
      status: string;
      outcome: string;
      voiceAgentId: string;
      createdByUserId: string;
    }>;
    const placed = calls.filter((call) => call.candidateId !== c.hasResult);
    expect(placed.map((call) => call.candidateId).sort()).toEqual([c.pass, c.passContacted, c.fail, c.noAnswer].sort());
    for (const call of placed) expect(call).toMatchObject({ status: 'ended', voiceAgentId: site.agentId, createdByUserId: site.who.userId });
    expect(placed.find((call) => call.candidateId === c.noAnswer)?.outcome).toBe('no_answer');
    expect(placed.filter((call) => call.candidateId !== c.noAnswer).every((call) => call.outcome === 'completed')).toBe(true);
    const history = await site.who.actor.get(`/api/contact-history/?candidateId=${c.pass}`);
    expect(history.body.events.map((event: { summary: string }) => event.summary)).toContain('Bulk prescreen: call placed (prescreen)');
  });

  it('records prescreen results with the right recommendations', async () => {
    const results = (await site.who.actor.get('/api/prescreen/results?limit=100')).body.results as Array<{
      candidate: { id: string };
      aiRecommendation: string;
      sourceType: string;
    }>;
    const recommendation = (id: string) => results.filter((result) => result.candidate.id === id).map((result) => [result.sourceType, result.aiRecommendation]);
    expect(recommendation(c.pass)).toEqual([['call', 'PASS']]);
    expect(recommendation(c.passContacted)).toEqual([['call', 'PASS']]);
    expect(recommendation(c.fail)).toEqual([['call', 'FAIL']]);
    for (const id of [c.noAnswer, c.dnc, c.noConsent, c.night, c.dncApi, c.noPhone, c.otherTrial, c.passedAlready]) expect(recommendation(id)).toEqual([]);
    const statuses = Object.fromEntries(
      (await t.deps.db.select({ id: candidate.id, status: candidate.status }).from(candidate)).map((row) => [row.id, row.status]),
    );
    expect([statuses[c.pass], statuses[c.passContacted], statuses[c.fail]]).toEqual(['prescreen_passed', 'prescreen_passed', 'prescreen_failed']);
  });

  it('gives the candidate outside calling hours a pending callback inside 08:00-21:00 in their zone', async () => {
    const answer = await site.who.actor.get(`/api/callbacks/?candidateId=${c.night}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.callbacks).toHaveLength(1);
    const [callback] = answer.body.callbacks;
    expect(callback).toMatchObject({ candidateId: c.night, status: 'pending', reason: 'outside_calling_hours', type: 'PRESCREEN' });
    expect(new Date(callback.scheduledFor).getTime()).toBeGreaterThan(Date.now());
    const hour = localHour(callback.scheduledFor, zoneAtHour(3));
    expect(hour).toBeGreaterThanOrEqual(8);
    expect(hour).toBeLessThan(21);
  });

  it('gives the candidate who did not answer a missed-call callback', async () => {
    const answer = await site.who.actor.get(`/api/callbacks/?candidateId=${c.noAnswer}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.callbacks).toEqual([expect.objectContaining({ candidateId: c.noAnswer, status: 'pending', reason: 'missed_call' })]);
  });

  it('writes the audit rows of the run', async () => {
    const rows = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'processing_run'), eq(auditLog.entityId, run.started.id)));
    expect(rows.map((row) => row.action).sort()).toEqual(['processing_run.complete', 'processing_run.create']);
  });

  it("a trialId narrows the run to that trial, called by that trial's agent; the provider refusing a call fails that item only", async () => {
    const copdAgentId = await agentFor(site.who, otherTrialId, 'COPD phone screener');
    const refused = await newCandidate(site.who, { trialIds: [otherTrialId], customFields: { refuse: true } });
    const place = t.deps.voice.placeCall.bind(t.deps.voice);
    vi.spyOn(t.deps.voice, 'placeCall').mockImplementation(async (request: PlaceCallRequest) => {
      if (request.person.customFields.refuse) throw new VoiceProviderError('Number not reachable', 'test_refusal');
      return place(request);
    });
    const { started, data } = await runToTheEnd(site.who, { trialId: otherTrialId, simulate: 'voicemail' });
    expect(started.options).toEqual({ voiceAgentId: copdAgentId, trialId: otherTrialId, simulate: 'voicemail', maxConcurrentCalls: MAX_CALLS });
    expect(data.run).toMatchObject({ status: 'completed', total: 2, processed: 2, succeeded: 1, failed: 1 });
    const items = byCandidate(data.items);
    expect(items.get(c.otherTrial)).toMatchObject({ outcome: 'called' });
    expect(items.get(refused)).toMatchObject({ outcome: 'failed', errors: [{ field: 'call', message: expect.stringContaining('did not place the call') }] });
    const calls = (await site.who.actor.get(`/api/calls/?candidateId=${c.otherTrial}`)).body.calls;
    expect(calls).toEqual([expect.objectContaining({ status: 'ended', outcome: 'voicemail', voiceAgentId: copdAgentId })]);
    expect((await site.who.actor.get(`/api/calls/?candidateId=${refused}`)).body.calls).toEqual([expect.objectContaining({ status: 'failed' })]);
  });

  it("a trial without an active prescreen agent is refused by name; another trial's agent never stands in", async () => {
    const noAgentTrialId = (await createRecruitingTrial(site.who.actor, { title: 'A study with no agent', criteria: [{ kind: 'inclusion', text: 'Adults' }] }))
      .body.id;
    await newCandidate(site.who, { trialIds: [noAgentTrialId] });
    const refused = await site.who.actor.post('/api/calls/prescreen-all', { trialId: noAgentTrialId });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'No calls placed: No active prescreen voice agent for A study with no agent. Create or turn one on under Voice agents.',
    );
  });

  it('a run with nobody due completes with nothing to do', async () => {
    const emptyTrialId = (await createRecruitingTrial(site.who.actor, { title: 'An empty study', criteria: [{ kind: 'inclusion', text: 'Adults' }] })).body.id;
    await agentFor(site.who, emptyTrialId, 'Empty study screener');
    const { started, data } = await runToTheEnd(site.who, { trialId: emptyTrialId });
    expect(started).toMatchObject({ total: 0, label: 'Prescreen calls (0 candidates)' });
    expect(data.run).toMatchObject({ status: 'completed', total: 0, processed: 0, progress: 1 });
    expect(data.items).toEqual([]);
  });
});

describe('refusals', () => {
  let site: Site;
  beforeAll(async () => {
    site = await setUpSite(await t.signUp({ organizationName: 'Refusal Research' }));
    await newCandidate(site.who);
  });

  it('409 without an active prescreen agent', async () => {
    const noAgent = await setUpSite(await t.signUp({ organizationName: 'No Agent Research' }), false);
    await newCandidate(noAgent.who);
    const answer = await noAgent.who.actor.post('/api/calls/prescreen-all', {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error.message).toContain('no active prescreen voice agent');

    const inactive = await setUpSite(await t.signUp({ organizationName: 'Inactive Agent Research' }));
    expect((await inactive.who.actor.patch(`/api/voice-agents/${inactive.agentId}`, { active: false })).status).toBe(200);
    expect((await inactive.who.actor.post('/api/calls/prescreen-all', {})).status).toBe(409);
    expect((await inactive.who.actor.get('/api/processing-runs/?kind=prescreen_calls')).body.runs).toEqual([]);
  });

  it("409 for a trial that is not recruiting (issue 15): a draft, or the agent's trial paused", async () => {
    const draft = (await site.who.actor.post('/api/trials/', { title: 'A study still being prepared' })).body.id;
    const forDraft = await site.who.actor.post('/api/calls/prescreen-all', { trialId: draft });
    expect(forDraft.status, JSON.stringify(forDraft.body)).toBe(409);
    expect(forDraft.body.error).toMatchObject({ code: 'TRIAL_NOT_RECRUITING', message: expect.stringContaining('the trial is draft') });
    expect((await site.who.actor.patch(`/api/trials/${site.trialId}`, { status: 'paused' })).status).toBe(200);
    try {
      expect((await site.who.actor.post('/api/calls/prescreen-all', {})).body.error?.code).toBe('TRIAL_NOT_RECRUITING');
    } finally {
      expect((await site.who.actor.patch(`/api/trials/${site.trialId}`, { status: 'recruiting' })).status).toBe(200);
    }
    expect((await site.who.actor.get('/api/processing-runs/?kind=prescreen_calls')).body.runs).toEqual([]);
  });

  it('400 naming the field for bad input', async () => {
    const badSimulation = await site.who.actor.post('/api/calls/prescreen-all', { simulate: 'shout' });
    expect(badSimulation.status).toBe(400);
    expect(badSimulation.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['simulate']);
    const badTrial = await site.who.actor.post('/api/calls/prescreen-all', { trialId: 42 });
    expect(badTrial.status).toBe(400);
    expect(badTrial.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['trialId']);
  });

  it('404 for a trial that is not one of the organization', async () => {
    expect((await site.who.actor.post('/api/calls/prescreen-all', { trialId: randomUUID() })).status).toBe(404);
    expect((await site.who.actor.post('/api/calls/prescreen-all', { trialId: 'not-a-trial' })).status).toBe(404);
    expect((await site.who.actor.get('/api/processing-runs/?kind=prescreen_calls')).body.runs).toEqual([]);
  });
});

describe('a selection of people (the trial matcher\'s "Start prescreen call")', () => {
  let site: Site;
  beforeAll(async () => {
    site = await setUpSite(await t.signUp({ organizationName: 'Selection Research' }));
  });

  it('calls only the selected people who are due a call, whatever trial they are linked to', async () => {
    const unlinked = await newCandidate(site.who);
    const alsoDue = await newCandidate(site.who, { trialIds: [site.trialId] });
    const noPhone = await newCandidate(site.who, { phone: undefined });
    const notSelected = await newCandidate(site.who);
    const { started, data } = await runToTheEnd(site.who, { trialId: site.trialId, candidateIds: [unlinked, alsoDue, noPhone], simulate: 'voicemail' });
    expect(started).toMatchObject({ total: 2, label: 'Prescreen calls (2 candidates)' });
    expect(data.run).toMatchObject({ status: 'completed', total: 2, succeeded: 2 });
    expect(data.items.map((item: Item) => item.candidateId).sort()).toEqual([unlinked, alsoDue].sort());
    expect((await site.who.actor.get(`/api/calls/?candidateId=${notSelected}`)).body.calls).toEqual([]);
  });

  it('409 saying so when none of the selection is due a call, and no run is left', async () => {
    const runsBefore = (await site.who.actor.get('/api/processing-runs/?kind=prescreen_calls')).body.runs.length;
    const noPhone = await newCandidate(site.who, { phone: undefined });
    const answer = await site.who.actor.post('/api/calls/prescreen-all', { candidateIds: [noPhone, randomUUID()] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error.message).toContain('None of the 2 people selected is due a prescreen call');
    expect((await site.who.actor.get('/api/processing-runs/?kind=prescreen_calls')).body.runs).toHaveLength(runsBefore);
  });

  it('400 naming the field for ids that are not ids, or an empty selection', async () => {
    for (const candidateIds of [['nope'], []]) {
      const answer = await site.who.actor.post('/api/calls/prescreen-all', { candidateIds });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details[0].path).toMatch(/^candidateIds/);
    }
  });
});

describe('the concurrency limit', () => {
  it(`keeps at most ${MAX_CALLS} calls open, waits for a free line, and refuses a second run meanwhile`, async () => {
    const site = await setUpSite(await t.signUp({ organizationName: 'Busy Lines Research' }));
    const who = site.who;
    const ids = [await newCandidate(who), await newCandidate(who), await newCandidate(who)];
    let most = 0;
    const openCalls = async () => {
      const calls = (await who.actor.get('/api/calls/')).body.calls as Array<{ id: string; candidateId: string; status: string }>;
      const open = calls.filter((call) => ['queued', 'ringing', 'in_progress'].includes(call.status));
      most = Math.max(most, open.length);
      return open;
    };

    // Everyone "rings" and never answers: only cancelling frees a line.
    const started = await who.actor.post('/api/calls/prescreen-all', { simulate: 'ring' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await until(async () => (await openCalls()).length === MAX_CALLS, 'the first calls');
    await sleep(1200); // several polls of the run
    expect(await openCalls()).toHaveLength(MAX_CALLS);
    const waiting = (await who.actor.get(`/api/processing-runs/${started.body.id}/data`)).body;
    expect(waiting.run).toMatchObject({ status: 'running', processed: MAX_CALLS, succeeded: MAX_CALLS });
    expect(waiting.outcomes).toEqual({ called: MAX_CALLS, pending: 1 });

    const second = await who.actor.post('/api/calls/prescreen-all', {});
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.error.message).toContain('already going');

    const [first] = await openCalls();
    expect((await who.actor.delete(`/api/calls/${first.id}`)).body).toMatchObject({ action: 'cancelled' });
    await whenPrescreenRunSettled(started.body.id);
    const open = await openCalls();
    expect(open).toHaveLength(MAX_CALLS);
    expect(open.map((call) => call.candidateId)).toContain(ids[2]);
    expect(most).toBe(MAX_CALLS);
    const done = (await who.actor.get(`/api/processing-runs/${started.body.id}/data`)).body;
    expect(done.run).toMatchObject({ status: 'completed', processed: 3, succeeded: 3 });

    for (const call of open) expect((await who.actor.delete(`/api/calls/${call.id}`)).status).toBe(200);
    await t.deps.voice.drain();
    // Once the run is over, a new one may start (the cancelled candidates are due again).
    const again = await runToTheEnd(who, { simulate: 'busy' });
    expect(again.data.run).toMatchObject({ status: 'completed', total: 3, succeeded: 3 });
  });
});

describe('the agent going away mid-run', () => {
  it('stops the run as failed, leaving the remaining candidates pending', async () => {
    const site = await setUpSite(await t.signUp({ organizationName: 'Agent Gone Research' }));
    const who = site.who;
    for (let i = 0; i < MAX_CALLS + 1; i++) await newCandidate(who);
    const started = await who.actor.post('/api/calls/prescreen-all', { simulate: 'ring' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const open = async () =>
      ((await who.actor.get('/api/calls/')).body.calls as Array<{ id: string; status: string }>).filter((row) => ['queued', 'ringing'].includes(row.status));
    await until(async () => (await open()).length === MAX_CALLS, 'the first calls');
    expect((await who.actor.patch(`/api/voice-agents/${site.agentId}`, { active: false })).status).toBe(200);
    for (const row of await open()) expect((await who.actor.delete(`/api/calls/${row.id}`)).status).toBe(200);
    await whenPrescreenRunSettled(started.body.id);
    await t.deps.voice.drain();
    const data = (await who.actor.get(`/api/processing-runs/${started.body.id}/data`)).body;
    expect(data.run).toMatchObject({
      status: 'failed',
      processed: MAX_CALLS,
      succeeded: MAX_CALLS,
      error: expect.stringContaining('No active prescreen voice agent for Inhaler XR-12'),
    });
    expect(data.run.finishedAt).toBeTruthy();
    expect(data.outcomes).toEqual({ called: MAX_CALLS, pending: 1 });
    expect(await open()).toEqual([]);
  });
});

describe('after a restart', () => {
  it("takes over a run whose stopped owner's claim is still live once the claim lapses (a quick restart)", async () => {
    const site = await setUpSite(await t.signUp({ organizationName: 'Quick Restart Research' }));
    const organizationId = site.who.organizationId;
    const waiting = await newCandidate(site.who);
    const [run] = await t.deps.db
      .insert(processingRun)
      .values({
        organizationId,
        kind: 'prescreen_calls',
        label: 'Prescreen calls (1 candidate)',
        status: 'running',
        total: 1,
        options: { voiceAgentId: site.agentId, trialId: null, simulate: null },
        createdByUserId: site.who.userId,
        startedAt: new Date(),
        leaseOwner: 'the-process-that-crashed',
        leaseExpiresAt: new Date(Date.now() + 1500),
      })
      .returning();
    await t.deps.db.insert(processingRunItem).values({ organizationId, runId: run.id, rowNumber: 1, candidateId: waiting, input: { candidateId: waiting } });
    expect(await resumePrescreenRuns(t.deps)).toEqual([run.id]);
    const until = Date.now() + 15_000;
    let status = 'running';
    while (status === 'running' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await site.who.actor.get(`/api/processing-runs/${run.id}/data`)).body.run.status;
    }
    expect(status).toBe('completed');
    await t.deps.voice.drain();
    expect(((await site.who.actor.get(`/api/calls/?candidateId=${waiting}`)).body.calls as unknown[]).length).toBe(1);
  });

  it('continues a run left running by a stopped process, without calling anyone twice', async () => {
    const site = await setUpSite(await t.signUp({ organizationName: 'Restarted Research' }));
    const organizationId = site.who.organizationId;
    const [handled, planned, waiting] = [await newCandidate(site.who), await newCandidate(site.who), await newCandidate(site.who)];
    // The state a stopped process leaves: row 1 done, row 2 planned (its call stored) but never dialled, row 3 pending.
    const [run] = await t.deps.db
      .insert(processingRun)
      .values({
        organizationId,
        kind: 'prescreen_calls',
        label: 'Prescreen calls (3 candidates)',
        status: 'running',
        total: 3,
        processed: 1,
        succeeded: 1,
        options: { voiceAgentId: site.agentId, trialId: null, simulate: null },
        createdByUserId: site.who.userId,
        startedAt: new Date(),
      })
      .returning();
    await t.deps.db.insert(processingRunItem).values([
      { organizationId, runId: run.id, rowNumber: 1, candidateId: handled, input: { candidateId: handled }, outcome: 'called', processedAt: new Date() },
      { organizationId, runId: run.id, rowNumber: 2, candidateId: planned, input: { candidateId: planned } },
      { organizationId, runId: run.id, rowNumber: 3, candidateId: waiting, input: { candidateId: waiting } },
    ]);
    const [orphan] = await t.deps.db
      .insert(call)
      .values({
        organizationId,
        candidateId: planned,
        voiceAgentId: site.agentId,
        type: 'PRESCREEN',
        status: 'queued',
        provider: 'simulator',
        processingRunId: run.id,
      })
      .returning();

    expect(await resumePrescreenRuns(t.deps)).toEqual([run.id]);
    await whenPrescreenRunSettled(run.id);
    await t.deps.voice.drain();

    const data = (await site.who.actor.get(`/api/processing-runs/${run.id}/data`)).body;
    expect(data.run).toMatchObject({ status: 'completed', processed: 3, succeeded: 2, failed: 1 });
    const items = byCandidate(data.items);
    expect(items.get(planned)).toMatchObject({ outcome: 'failed', errors: [{ field: 'call', message: expect.stringContaining('interrupted') }] });
    expect(items.get(waiting)).toMatchObject({ outcome: 'called' });
    expect((await site.who.actor.get(`/api/calls/${orphan.id}`)).body.status).toBe('failed');
    const calls = (await site.who.actor.get('/api/calls/')).body.calls as Array<{ candidateId: string }>;
    expect(calls.map((row) => row.candidateId).sort()).toEqual([planned, waiting].sort());
  });
});
