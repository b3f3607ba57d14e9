import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  activityEvent,
  call,
  callEvent,
  candidate,
  contactEvent,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  satisfactionResponse,
} from '../../src/server/db/schema';
import { simulatedRating } from '../../src/server/integrations/voice/simulator';
import { assignTestNumber } from '../support/phone-numbers';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * Calls through the voice simulator: the simulator posts Vapi-shaped server messages to our own
 * /api/inbound/vapi (with the configured secret), so these tests run the production webhook, tools and
 * prescreen path. Calling hours are real-time here: candidates get a time zone where it is now midday.
 */

const SECRET = 'vapi-test-secret-0123456789';
let t: TestApp;
let site: SignedUp;
let trialId: string;
let formId: string;
let agentId: string;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(4000 + ++phoneSeq)}`;

/** An Etc/GMT zone where the local hour is `hour` right now. */
export function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const blocksFor = (criteria: { age: string; asthma: string; smoker: string }): StudyBlock[] => [
  {
    id: 'about',
    title: { en: 'About you', es: 'Sobre usted' },
    questions: [
      {
        id: 'dob',
        type: 'date',
        wording: { phone: { en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' }, chat: { en: 'What is your date of birth?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.age, when: { op: 'age_lt', value: 18 }, then: 'not_met', otherwise: 'met' }],
      },
      {
        id: 'asthma',
        type: 'yes_no',
        wording: {
          phone: { en: 'Has a doctor ever told you that you have asthma?', es: '¿Un médico le ha dicho alguna vez que tiene asma?' },
          chat: { en: 'Asthma?' },
        },
        required: true,
        criterionLinks: [{ criterionId: criteria.asthma, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
      {
        id: 'smoke',
        type: 'yes_no',
        wording: { phone: { en: 'Do you currently smoke cigarettes?', es: '¿Fuma cigarrillos actualmente?' }, chat: { en: 'Smoke?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.smoker, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
    ],
  },
];

async function newCandidate(overrides: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Maria',
    lastName: 'Lopez',
    phone: nextPhone(),
    dateOfBirth: '1980-03-04',
    sex: 'female',
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    customFields: { asthma: true },
    // The agent calls the people of its trial only (decision 174).
    trialIds: [trialId],
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

async function placeCall(candidateId: string, body: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/calls/', { candidateId, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await t.deps.voice.drain();
  return (await site.actor.get(`/api/calls/${answer.body.id}`)).body;
}

const webhook = (payload: unknown, headers: Record<string, string> = { 'x-vapi-secret': SECRET }) =>
  t.app.request('/api/inbound/vapi', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

beforeAll(async () => {
  t = await createTestApp({ VAPI_SERVER_SECRET: SECRET });
  site = await t.signUp({ name: 'Casey Coordinator', organizationName: 'Lakeside Clinical Research' });
  const created = await createRecruitingTrial(site.actor, {
    title: 'A randomized trial of inhaler XR-12 in adults with moderate asthma',
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 or older' },
      { kind: 'inclusion', text: 'Diagnosed with asthma' },
      { kind: 'exclusion', text: 'Current smoker' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  trialId = created.body.id;
  const [age, asthma, smoker] = created.body.criteria.map((criterion: { id: string }) => criterion.id);
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId, name: 'Asthma phone form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks: blocksFor({ age, asthma, smoker }) });
  formId = form.id;
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Asthma phone screener',
    type: 'PRESCREEN',
    trialId,
    prescreenFormId: formId,
    firstMessage: {
      en: 'Hello, this is Lakeside Clinical Research calling about our asthma study.',
      es: 'Hola, le llamamos de Lakeside Clinical Research por nuestro estudio de asma.',
    },
    voicemailMessage: { en: 'Sorry we missed you. Please call us back.', es: 'Lamentamos no encontrarle.' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});
afterAll(() => t?.close());

describe('a simulated prescreen call', () => {
  it('runs end to end: events, transcript, result, funnel and contact history', async () => {
    const candidateId = await newCandidate();
    const placed = await site.actor.post('/api/calls/', { candidateId });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ candidateId, voiceAgentId: agentId, type: 'PRESCREEN', provider: 'simulator', direction: 'outbound' });
    // The simulated person may already be ringing by the time the answer is written.
    expect(['queued', 'ringing']).toContain(placed.body.status);
    expect(placed.body.providerCallId).toMatch(/^sim_/);
    await t.deps.voice.drain();

    const detail = (await site.actor.get(`/api/calls/${placed.body.id}`)).body;
    expect(detail).toMatchObject({ status: 'ended', outcome: 'completed', language: 'en' });
    expect(detail.durationSeconds).toBeGreaterThan(0);
    expect(detail.costUsd).toBeGreaterThan(0);
    expect(detail.transcript.map((turn: { role: string }) => turn.role)).toContain('user');
    expect(detail.transcript.some((turn: { text: string }) => turn.text.includes('asthma'))).toBe(true);
    expect(new Set(detail.events.map((event: { type: string }) => event.type))).toEqual(
      new Set(['status-update', 'transcript', 'tool-calls', 'end-of-call-report']),
    );
    expect(detail.structuredData.prescreenComplete).toBe(true);
    expect(detail.prescreenResultId).toBeTruthy();

    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, detail.prescreenResultId));
    expect(result).toMatchObject({ sourceType: 'call', sourceId: placed.body.id, aiRecommendation: 'PASS', formId });
    // Issue 32: the call page lists the answers the review lists (the result's), with their questions in words.
    expect(detail.answers.length).toBeGreaterThan(0);
    expect(detail.answers).toEqual(result.answers);
    expect(detail.answers.map((answer: { question: string }) => answer.question)).toContain('What is your date of birth?');
    expect(JSON.stringify(detail.answers)).not.toContain('call structured data');
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, candidateId));
    expect(person.status).toBe('prescreen_passed');
    const history = await site.actor.get(`/api/contact-history/?candidateId=${candidateId}`);
    const kinds = (history.body.events ?? []).map((event: { kind: string }) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['call', 'prescreen', 'status_change']));

    const storage = await site.actor.get(`/api/vapi/calls/${placed.body.id}/storage`);
    expect(storage.status).toBe(200);
    expect(storage.body.events.length).toBe(detail.events.length);
    expect(storage.body.events[0].payload.message.call.metadata.callId).toBe(placed.body.id);
    const logs = await site.actor.get(`/api/vapi/calls/${placed.body.id}/logs`);
    expect(logs.status).toBe(200);
    const tools = logs.body.entries.flatMap((entry: { toolCalls?: Array<{ name: string; result: unknown }> }) => entry.toolCalls ?? []);
    expect(tools).toEqual([
      expect.objectContaining({ name: 'end-prescreen-chat', result: expect.stringContaining('complete') }),
      // The last question's answer: the person's rating of the call.
      expect.objectContaining({ name: 'set-call-metadata', arguments: { key: 'satisfaction', value: expect.any(Number) }, result: 'Recorded.' }),
    ]);
    expect(logs.body.entries.at(-1)).toMatchObject({ type: 'end-of-call-report', summary: 'Call ended: assistant-ended-call' });
  });

  it("ends by asking for a 1-5 rating: stored as the call's satisfaction, with the call's activity and cost", async () => {
    const candidateId = await newCandidate();
    const detail = await placeCall(candidateId);
    expect(detail.transcript.at(-3)).toMatchObject({ role: 'assistant', text: 'One last question: on a scale of 1 to 5, how would you rate this call?' });
    const spoken = Number(detail.transcript.at(-2).text);
    expect(spoken).toBe(simulatedRating(detail.id));
    const [rating] = await t.deps.db.select().from(satisfactionResponse).where(eq(satisfactionResponse.referenceId, detail.id));
    expect(rating).toMatchObject({ channel: 'call', rating: spoken, agentId, candidateId, comment: null });
    const activity = await t.deps.db.select().from(activityEvent).where(eq(activityEvent.referenceId, detail.id));
    expect(activity.map((row) => row.kind).sort()).toEqual(['call_answered', 'call_ended', 'call_placed', 'spend']);
    expect(activity.find((row) => row.kind === 'call_ended')).toMatchObject({ label: 'completed', value: detail.durationSeconds, agentId });
    // The provider's reported cost, not the configured rate.
    expect(activity.find((row) => row.kind === 'spend')?.value).toBeCloseTo(detail.costUsd, 4);
  });

  it("answers from the candidate's data decide the recommendation (no asthma: FAIL)", async () => {
    const candidateId = await newCandidate({ customFields: {} });
    const detail = await placeCall(candidateId);
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, detail.prescreenResultId));
    expect(result.aiRecommendation).toBe('FAIL');
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, candidateId));
    expect(person.status).toBe('prescreen_failed');
  });

  it('switches to Spanish mid-call through the switch-language tool', async () => {
    const candidateId = await newCandidate();
    const detail = await placeCall(candidateId, { simulate: 'spanish' });
    expect(detail).toMatchObject({ status: 'ended', outcome: 'completed', language: 'es' });
    expect(detail.transcript.some((turn: { text: string }) => turn.text.includes('¿Un médico le ha dicho'))).toBe(true);
    const logs = (await site.actor.get(`/api/vapi/calls/${detail.id}/logs`)).body;
    const switched = logs.entries
      .flatMap((entry: { toolCalls?: Array<{ name: string; result: unknown }> }) => entry.toolCalls ?? [])
      .find((tool: { name: string }) => tool.name === 'switch-language');
    expect(switched.result).toContain('Hola');
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, detail.prescreenResultId));
    expect(result.aiRecommendation).toBe('PASS');
  });

  it('records no-answer, busy and voicemail; three misses in a row make the candidate unreachable', async () => {
    const candidateId = await newCandidate();
    const first = await placeCall(candidateId, { simulate: 'no_answer' });
    expect(first).toMatchObject({ status: 'ended', outcome: 'no_answer', prescreenResultId: null });
    const second = await placeCall(candidateId, { simulate: 'busy' });
    expect(second.outcome).toBe('busy');
    let [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, candidateId));
    expect(person.status).toBe('new');
    const third = await placeCall(candidateId, { simulate: 'voicemail' });
    expect(third.outcome).toBe('voicemail');
    expect(third.transcript[0].text).toContain('Sorry we missed you');
    [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, candidateId));
    expect(person.status).toBe('unreachable');
    const events = await t.deps.db
      .select()
      .from(contactEvent)
      .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.kind, 'call')));
    expect(events.map((event) => event.summary)).toEqual(
      expect.arrayContaining(['Call not answered (prescreen)', 'Line busy (prescreen)', 'Reached voicemail (prescreen)']),
    );

    const failed = await site.actor.get(`/api/calls/?candidateId=${candidateId}&filter=failedPrescreen`);
    expect(failed.body.total).toBe(3);
    const page = await site.actor.get(`/api/calls/?candidateId=${candidateId}&limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3 });
    expect(page.body.calls).toHaveLength(1);
    expect(page.body.calls[0].id).toBe(second.id);
  });

  it('a hang-up before any answer leaves no result', async () => {
    const candidateId = await newCandidate({ customFields: { simulate: 'hang_up' } });
    const detail = await placeCall(candidateId);
    expect(detail).toMatchObject({ status: 'ended', outcome: 'hung_up', prescreenResultId: null });
  });
});

describe('placing a call is refused (409, nothing placed)', () => {
  const refused = async (candidateId: string, reason: string, type = 'PRESCREEN') => {
    const before = (await t.deps.db.select().from(call)).length;
    const answer = await site.actor.post('/api/calls/', { candidateId, type });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'CALL_BLOCKED', details: [{ path: 'candidateId', message: reason }] });
    expect((await t.deps.db.select().from(call)).length).toBe(before);
  };
  it('do-not-contact', async () => refused(await newCandidate({ consent: { calls: true, doNotContact: true } }), 'do_not_contact'));
  it('no call consent', async () => refused(await newCandidate({ consent: { calls: false } }), 'no_call_consent'));
  it('no phone', async () => refused(await newCandidate({ phone: null }), 'no_phone'));
  it("outside calling hours in the candidate's time zone", async () => {
    await refused(await newCandidate({ timeZone: zoneAtHour(3) }), 'quiet_hours');
    await refused(await newCandidate({ timeZone: zoneAtHour(21) }), 'quiet_hours');
  });
  it('no active agent of the type', async () => refused(await newCandidate(), 'no_agent', 'SITE_VISIT_SCHEDULING'));
  it("the agent's trial is not recruiting (issue 15): recruiting again lets the call go out", async () => {
    const person = await newCandidate();
    expect((await site.actor.patch(`/api/trials/${trialId}`, { status: 'paused' })).status).toBe(200);
    try {
      await refused(person, 'trial_not_recruiting');
    } finally {
      expect((await site.actor.patch(`/api/trials/${trialId}`, { status: 'recruiting' })).status).toBe(200);
    }
    expect((await site.actor.post('/api/calls/', { candidateId: person, type: 'PRESCREEN' })).status).toBe(201);
  });
  it('an unknown or malformed candidate is 404', async () => {
    expect((await site.actor.post('/api/calls/', { candidateId: 'not-a-uuid' })).status).toBe(404);
    expect((await site.actor.post('/api/calls/', { candidateId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});

describe("the voice agent follows the person's trial (decision 174)", () => {
  /** A second recruiting trial with its own published phone form and active prescreen agent. */
  async function diabetesAgent() {
    const created = await createRecruitingTrial(site.actor, { title: 'Type 2 diabetes study', criteria: [{ kind: 'inclusion', text: 'Type 2 diabetes' }] });
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({
        organizationId: site.organizationId,
        trialId: created.body.id,
        name: 'Diabetes form',
        status: 'published',
        currentVersion: 1,
        publishedAt: new Date(),
      })
      .returning();
    const question = { en: 'Has a doctor told you that you have type 2 diabetes?', es: '¿Un médico le ha dicho que tiene diabetes tipo 2?' };
    await t.deps.db.insert(prescreenFormVersion).values({
      organizationId: site.organizationId,
      formId: form.id,
      version: 1,
      blocks: [
        {
          id: 'health',
          title: { en: 'Your health' },
          questions: [{ id: 'diabetes', type: 'yes_no', wording: { phone: question, chat: { en: 'Diabetes?' } }, required: true, criterionLinks: [] }],
        },
      ],
    });
    const agent = await site.actor.post('/api/voice-agents/', {
      name: 'Diabetes phone screener',
      type: 'PRESCREEN',
      trialId: created.body.id,
      prescreenFormId: form.id,
      firstMessage: { en: 'Hello, this is Lakeside Clinical Research calling about our diabetes study.' },
      voicemailMessage: { en: 'Sorry we missed you.' },
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    return { trialId: created.body.id as string, agentId: agent.body.id as string };
  }
  const agentLines = (detail: { transcript: Array<{ role: string; text: string }> }) =>
    detail.transcript
      .filter((line) => line.role !== 'user')
      .map((line) => line.text)
      .join(' ');

  it("two trials, two agents: each person is called by their own trial's agent and asked its questions", async () => {
    const diabetes = await diabetesAgent();
    // The diabetes agent is the newest; the asthma trial's person must still get the asthma agent.
    const asthmaPerson = await newCandidate();
    const diabetesPerson = await newCandidate({ trialIds: [diabetes.trialId] });
    expect((await site.actor.get(`/api/calls/pre-check?candidateId=${asthmaPerson}`)).body.agent).toMatchObject({ name: 'Asthma phone screener' });
    expect((await site.actor.get(`/api/calls/pre-check?candidateId=${diabetesPerson}`)).body.agent).toMatchObject({ name: 'Diabetes phone screener' });

    const asthmaCall = await placeCall(asthmaPerson);
    const diabetesCall = await placeCall(diabetesPerson);
    expect(asthmaCall.voiceAgentId).toBe(agentId);
    expect(diabetesCall.voiceAgentId).toBe(diabetes.agentId);
    expect(agentLines(asthmaCall)).toContain('asthma');
    expect(agentLines(asthmaCall)).not.toContain('diabetes');
    expect(agentLines(diabetesCall)).toContain('type 2 diabetes');
    expect(agentLines(diabetesCall)).not.toContain('asthma');
    // Turned off, the diabetes agent calls nobody, and its trial's people are told so by name.
    expect((await site.actor.patch(`/api/voice-agents/${diabetes.agentId}`, { active: false })).status).toBe(200);
    const another = await newCandidate({ trialIds: [diabetes.trialId] });
    const check = (await site.actor.get(`/api/calls/pre-check?candidateId=${another}`)).body;
    expect(check).toMatchObject({ canCall: false, agent: null });
    expect(check.reasons).toEqual([
      { reason: 'no_agent', message: 'No active prescreen voice agent for Type 2 diabetes study. Create or turn one on under Voice agents.' },
    ]);
  });

  it('a person in no trial is refused clearly, and nothing is placed', async () => {
    const person = await newCandidate({ trialIds: [] });
    const check = (await site.actor.get(`/api/calls/pre-check?candidateId=${person}`)).body;
    expect(check).toMatchObject({ canCall: false, agent: null, reasons: [{ reason: 'no_agent', message: expect.stringContaining('not in any trial') }] });
    const placed = await site.actor.post('/api/calls/', { candidateId: person });
    expect(placed.status).toBe(409);
    expect(placed.body.error.message).toBe(
      'Call not placed: This person is not in any trial, so no voice agent asks them questions. Add them to a trial first.',
    );
    const callback = await site.actor.post('/api/callbacks/schedule', { candidateId: person, at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(callback.status).toBe(409);
    expect((await site.actor.get(`/api/calls/?candidateId=${person}`)).body.calls).toEqual([]);
  });
});

describe('issue 32: the pre-check "Call now" asks before placing a call', () => {
  const preCheck = async (candidateId: string, type = 'PRESCREEN') => {
    const answer = await site.actor.get(`/api/calls/pre-check?candidateId=${candidateId}&type=${type}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };

  it('a candidate who may be called: nothing in the way, the agent named, no callback offered', async () => {
    const body = await preCheck(await newCandidate());
    expect(body).toMatchObject({ canCall: true, reasons: [], agent: { id: agentId, name: 'Asthma phone screener' }, nextAllowedAt: null });
  });

  it('lists every reason at once, in words; no callback is offered while something other than the hours is in the way', async () => {
    const person = await newCandidate({ consent: { calls: false }, timeZone: zoneAtHour(3) });
    const body = await preCheck(person, 'SITE_VISIT_SCHEDULING');
    expect(body.canCall).toBe(false);
    expect(body.reasons.map((item: { reason: string }) => item.reason)).toEqual(['no_agent', 'quiet_hours']);
    expect(body.reasons[0].message).toMatch(/^No active scheduling voice agent for A randomized trial of inhaler XR-12/);
    expect(body.agent).toBeNull();
    expect(body.nextAllowedAt).toBeNull();
    const prescreen = await preCheck(person);
    expect(prescreen.reasons.map((item: { reason: string }) => item.reason)).toEqual(['no_call_consent', 'quiet_hours']);
    expect(prescreen.reasons[0].message).toBe('This person has not agreed to be called. Record their consent on the profile first.');
    // The same reasons the placing refuses with: the first one.
    const placed = await site.actor.post('/api/calls/', { candidateId: person });
    expect(placed.body.error.details[0].message).toBe('no_call_consent');
  });

  it('only the hours in the way: the next allowed moment (08:00 in their zone), which a callback takes as it is', async () => {
    const zone = zoneAtHour(3);
    const person = await newCandidate({ timeZone: zone });
    const body = await preCheck(person);
    expect(body.reasons.map((item: { reason: string }) => item.reason)).toEqual(['quiet_hours']);
    expect(body.timeZone).toBe(zone);
    const next = new Date(body.nextAllowedAt);
    const localHour = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(next));
    expect(localHour).toBe(8);
    expect(next.getTime() - Date.now()).toBeGreaterThan(4 * 3600_000);
    expect(next.getTime() - Date.now()).toBeLessThan(6 * 3600_000);
    const scheduled = await site.actor.post('/api/callbacks/schedule', { candidateId: person, type: 'PRESCREEN', at: body.nextAllowedAt });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    expect(scheduled.body).toMatchObject({ moved: false, callback: { scheduledFor: next.toISOString() } });
  });

  it('an Australian mobile without a zone: the zone is unknown and said so; the hours must suit every Australian zone', async () => {
    const person = await newCandidate({ phone: '+61412345678', timeZone: null });
    const stored = await site.actor.get(`/api/candidates/${person}`);
    expect(stored.body.timeZone).toBeNull();
    const body = await preCheck(person);
    expect(body).toMatchObject({ timeZone: null, zoneUnknownCountry: 'Australia' });
    const perth = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'Australia/Perth', hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    const sydney = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'Australia/Sydney', hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    const inBoth = perth >= 8 && perth < 21 && sydney >= 8 && sydney < 21;
    if (!inBoth) expect(body.reasons.map((item: { reason: string }) => item.reason)).toContain('quiet_hours');
    // A Sydney landline tells its zone: it is stored, and the hours are Sydney's.
    const landline = await newCandidate({ phone: '+61291234567', timeZone: null });
    expect((await site.actor.get(`/api/candidates/${landline}`)).body.timeZone).toBe('Australia/Sydney');
    const landlineCheck = await preCheck(landline);
    expect(landlineCheck).toMatchObject({ timeZone: 'Australia/Sydney', zoneUnknownCountry: null });
    expect(landlineCheck.reasons.some((item: { reason: string }) => item.reason === 'quiet_hours')).toBe(!(sydney >= 8 && sydney < 21));
  });

  it('an unknown or malformed candidate is 404', async () => {
    expect((await site.actor.get('/api/calls/pre-check?candidateId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await site.actor.get('/api/calls/pre-check?candidateId=not-a-uuid')).status).toBe(404);
  });
});

describe('cancel, delete and re-process', () => {
  it('cancels a ringing call, then deletes it', async () => {
    const candidateId = await newCandidate();
    const ringing = await placeCall(candidateId, { simulate: 'ring' });
    expect(ringing.status).toBe('ringing');
    const cancelled = await site.actor.delete(`/api/calls/${ringing.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ action: 'cancelled', call: { status: 'cancelled' } });
    expect((await site.actor.post(`/api/process/calls/${ringing.id}`)).status).toBe(409);
    const deleted = await site.actor.delete(`/api/calls/${ringing.id}`);
    expect(deleted.body).toEqual({ action: 'deleted', call: null });
    expect((await site.actor.get(`/api/calls/${ringing.id}`)).status).toBe(404);
    expect(await t.deps.db.select().from(callEvent).where(eq(callEvent.callId, ringing.id))).toEqual([]);
  });

  it('re-reads a finished call into a new prescreen result', async () => {
    const detail = await placeCall(await newCandidate());
    const again = await site.actor.post(`/api/process/calls/${detail.id}`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.recommendation).toBe('PASS');
    expect(again.body.prescreenResultId).not.toBe(detail.prescreenResultId);
    expect(again.body.call.prescreenResultId).toBe(again.body.prescreenResultId);
    const results = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.sourceId, detail.id));
    expect(results).toHaveLength(2);
  });
});

describe('the webhook', () => {
  async function ringingCall() {
    const detail = await placeCall(await newCandidate(), { simulate: 'ring' });
    return detail as { id: string; providerCallId: string; candidateId: string };
  }

  it('refuses a missing or wrong secret (401) and accepts X-Vapi-Secret or a Bearer token', async () => {
    const { providerCallId } = await ringingCall();
    const payload = { message: { type: 'status-update', status: 'in-progress', call: { id: providerCallId } } };
    expect((await webhook(payload, {})).status).toBe(401);
    expect((await webhook(payload, { 'x-vapi-secret': 'wrong' })).status).toBe(401);
    expect((await webhook(payload, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await webhook(payload, { authorization: `Bearer ${SECRET}` })).status).toBe(200);
    const tool = await t.app.request('/api/functions/vapi/end-prescreen-chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(tool.status).toBe(401);
  });

  it('answers 400 to bad payloads, never 500', async () => {
    const { providerCallId } = await ringingCall();
    for (const payload of [
      'not json',
      '{}',
      '[]',
      { message: 'x' },
      { message: {} },
      { message: { type: 'status-update', call: { id: providerCallId } } },
      { message: { type: 'status-update', status: 'exploded', call: { id: providerCallId } } },
      { message: { type: 'tool-calls', toolCallList: 'nope', call: { id: providerCallId } } },
      { message: { type: 'transcript', role: 'user', call: { id: providerCallId } } },
    ]) {
      const answer = await webhook(payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect((await answer.json()).error.code).toBe('BAD_REQUEST');
    }
    // Unknown message types and unknown calls are accepted (stored / ignored), not errors.
    expect((await webhook({ message: { type: 'speech-update', status: 'started', role: 'user', call: { id: providerCallId } } })).status).toBe(200);
    expect(await (await webhook({ message: { type: 'status-update', status: 'ringing', call: { id: 'unknown-call' } } })).json()).toEqual({
      ok: true,
      ignored: 'unknown call',
    });
  });

  it('a redelivered message changes nothing (stored once, counted once)', async () => {
    const ringing = await ringingCall();
    const call = { id: ringing.providerCallId };
    const transcript = JSON.stringify({
      message: { type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: 'Has a doctor ever told you that you have asthma?', call },
    });
    const reply = JSON.stringify({ message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'Yes, I have asthma', call } });
    const partial = JSON.stringify({ message: { type: 'transcript', role: 'user', transcriptType: 'partial', transcript: 'Yes', call } });
    const report = JSON.stringify({
      message: {
        type: 'end-of-call-report',
        endedReason: 'customer-ended-call',
        durationSeconds: 42,
        cost: 0.12,
        call,
        artifact: { recordingUrl: 'https://recordings.example/1.wav' },
        analysis: { structuredData: { answers: { dob: '1975-06-01', smoke: 'no' } } },
      },
    });
    for (const body of [transcript, reply, partial, transcript, reply, report]) expect((await webhook(body)).status).toBe(200);
    const events = await t.deps.db.select().from(callEvent).where(eq(callEvent.callId, ringing.id));
    const again = await webhook(report);
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    expect(await t.deps.db.select().from(callEvent).where(eq(callEvent.callId, ringing.id))).toHaveLength(events.length);

    const detail = (await site.actor.get(`/api/calls/${ringing.id}`)).body;
    // Transcript turns, once each; the partial is not kept. Asthma came from the transcript, the rest from structured data.
    expect(detail.transcript.map((turn: { text: string }) => turn.text)).toEqual(['Has a doctor ever told you that you have asthma?', 'Yes, I have asthma']);
    expect(detail).toMatchObject({ status: 'ended', outcome: 'hung_up', durationSeconds: 42, costUsd: 0.12, recordingUrl: 'https://recordings.example/1.wav' });
    const results = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.sourceId, ringing.id));
    expect(results).toHaveLength(1);
    expect(results[0].aiRecommendation).toBe('PASS');
    const evidence = (results[0].answers as Array<{ questionId: string; evidence?: string }>).find((answer) => answer.questionId === 'asthma')?.evidence;
    expect(evidence).toBe('Said on the call: Yes, I have asthma');
    const callEvents = await t.deps.db
      .select()
      .from(contactEvent)
      .where(and(eq(contactEvent.candidateId, ringing.candidateId), eq(contactEvent.kind, 'call')));
    expect(callEvents.filter((event) => event.summary.startsWith('Candidate hung up'))).toHaveLength(1);
    // A second, different report for the same call is stored but not applied again.
    expect(
      (
        await webhook({
          message: { type: 'end-of-call-report', endedReason: 'assistant-ended-call', call, analysis: { structuredData: { answers: { asthma: 'yes' } } } },
        })
      ).status,
    ).toBe(200);
    expect(await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.sourceId, ringing.id))).toHaveLength(1);
  });

  it("answers tool calls in Vapi's shape; answers recorded by tools become the result", async () => {
    const ringing = await ringingCall();
    const toolCalls = (list: Array<{ id: string; name: string; arguments: unknown }>) => ({
      message: {
        type: 'tool-calls',
        call: { id: ringing.providerCallId },
        toolCallList: list.map((item) => ({ id: item.id, type: 'function', function: { name: item.name, arguments: item.arguments } })),
      },
    });
    const viaTools = await t.app.request('/api/functions/vapi/set-call-metadata', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
      body: JSON.stringify(
        toolCalls([
          { id: 'tc1', name: 'set-call-metadata', arguments: { questionId: 'asthma', answer: 'yes' } },
          { id: 'tc2', name: 'set-call-metadata', arguments: JSON.stringify({ questionId: 'smoke', answer: 'no' }) },
          { id: 'tc3', name: 'set-call-metadata', arguments: { questionId: 'dob', answer: 'March 4, 1980' } },
          { id: 'tc4', name: 'no-such-tool', arguments: {} },
        ]),
      ),
    });
    expect(viaTools.status).toBe(200);
    expect(await viaTools.json()).toEqual({
      results: [
        { toolCallId: 'tc1', result: 'Recorded.' },
        { toolCallId: 'tc2', result: 'Recorded.' },
        { toolCallId: 'tc3', result: 'Recorded.' },
        { toolCallId: 'tc4', result: 'Error: unknown tool no-such-tool' },
      ],
    });
    const viaWebhook = await webhook(
      toolCalls([
        { id: 'tc5', name: 'mark-exit-status', arguments: { exitStatus: 'completed' } },
        { id: 'tc6', name: 'switch-transcriber-from-multi-to-current', arguments: {} },
      ]),
    );
    expect(await viaWebhook.json()).toEqual({
      results: [
        { toolCallId: 'tc5', result: 'Exit status recorded.' },
        { toolCallId: 'tc6', result: 'Transcriber set to en.' },
      ],
    });

    const direct = (name: string, query: string, body: unknown) =>
      t.app.request(`/api/functions/vapi/${name}?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
        body: JSON.stringify(body),
      });
    const language = await direct('update-preferred-language', `candidateId=${ringing.candidateId}`, { language: 'es' });
    expect(await language.json()).toMatchObject({ ok: true, tool: 'update-preferred-language', result: 'Preferred language set to es.' });
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, ringing.candidateId));
    expect(person.preferredLanguage).toBe('es');
    const sms = await direct('set-sms-metadata', `callId=${ringing.id}`, { key: 'smsConsent', value: 'yes' });
    expect(await sms.json()).toMatchObject({ ok: true, callId: ringing.id });
    expect((await direct('switch-language', `callId=${ringing.id}`, { language: 'klingon' })).status).toBe(400);
    // A callback tool without a time: answered to the agent as a 400 it can read.
    const noTime = await direct('schedule-callback', `callId=${ringing.id}`, {});
    expect(noTime.status).toBe(400);
    expect(await noTime.json()).toMatchObject({ ok: false, tool: 'schedule-callback' });
    expect((await direct('no-such-tool', `callId=${ringing.id}`, {})).status).toBe(404);
    expect((await direct('end-prescreen-chat', 'candidateId=00000000-0000-4000-8000-000000000000', {})).status).toBe(404);

    expect((await webhook({ message: { type: 'end-of-call-report', endedReason: 'customer-ended-call', call: { id: ringing.providerCallId } } })).status).toBe(
      200,
    );
    const detail = (await site.actor.get(`/api/calls/${ringing.id}`)).body;
    expect(detail.structuredData).toMatchObject({
      answers: { asthma: 'yes', smoke: 'no' },
      exitStatus: 'completed',
      sms: { smsConsent: 'yes' },
      transcriberLanguage: 'en',
    });
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, detail.prescreenResultId));
    expect(result.aiRecommendation).toBe('PASS');
  });
  it('answers an inbound call (assistant-request) with the agent of the number called, matching the caller', async () => {
    const phone = nextPhone();
    const candidateId = await newCandidate({ phone });
    await assignTestNumber(t, site.organizationId, '+12125550111');
    expect((await site.actor.patch(`/api/voice-agents/${agentId}`, { fromNumber: '+12125550111' })).status).toBe(200);
    const inbound = { id: 'inbound-call-1', type: 'inboundPhoneCall', customer: { number: phone }, phoneNumber: { number: '+12125550111' } };
    const answer = await webhook({
      message: { type: 'assistant-request', call: inbound, customer: { number: phone }, phoneNumber: { number: '+12125550111' } },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ assistant: { firstMessage: expect.stringContaining('Lakeside') } });
    const [row] = await t.deps.db.select().from(call).where(eq(call.providerCallId, 'inbound-call-1'));
    expect(row).toMatchObject({ direction: 'inbound', candidateId, voiceAgentId: agentId, organizationId: site.organizationId });
    expect((await webhook({ message: { type: 'status-update', status: 'in-progress', call: inbound } })).status).toBe(200);
    expect((await site.actor.get(`/api/calls/${row.id}`)).body.status).toBe('in_progress');
    expect((await site.actor.delete(`/api/calls/${row.id}`)).status).toBe(409);
    const unknown = await webhook({ message: { type: 'assistant-request', call: { id: 'inbound-call-2' }, phoneNumber: { number: '+19995550000' } } });
    expect(await unknown.json()).toEqual({ error: 'This number is not in service.' });
  });
});

describe('webhook without a secret', () => {
  it('is accepted outside production and refused in production (fail closed)', async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    try {
      const body = JSON.stringify({ message: { type: 'status-update', status: 'ringing', call: { id: 'x' } } });
      const headers = { 'content-type': 'application/json' };
      expect((await production.app.request('/api/inbound/vapi', { method: 'POST', headers, body })).status).toBe(401);
      expect((await production.app.request('/api/functions/vapi/end-prescreen-chat', { method: 'POST', headers, body: '{}' })).status).toBe(401);
    } finally {
      await production.close();
    }
    const development = await createTestApp();
    try {
      const answer = await development.app.request('/api/inbound/vapi', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { type: 'status-update', status: 'ringing', call: { id: 'x' } } }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await development.close();
    }
  }, 90_000); // two apps, each migrating its own database
});
