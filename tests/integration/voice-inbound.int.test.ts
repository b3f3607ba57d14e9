import { and, eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, contactEvent, prescreenForm, prescreenFormVersion, prescreenResult } from '../../src/server/db/schema';
import { twilioVoiceRoutes } from '../../src/server/features/calls/inbound-twilio';
import type { AppEnv } from '../../src/server/http/context';
import { twilioSignature } from '../../src/server/integrations/sms/twilio';
import { VoiceProviderError } from '../../src/server/integrations/voice/port';
import { startFakeVapi, type FakeVapi } from '../support/fake-vapi';
import { assignTestNumber } from '../support/phone-numbers';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { allTrialIds, createRecruitingTrial } from '../support/trials';

/**
 * Twilio's inbound voice webhook (POST /api/inbound/): signed like the SMS webhooks, answered with TwiML. With
 * the simulator the caller hears the agent's first message and the conversation plays through the real Vapi
 * webhook; with Vapi (a local fake) the call is created with phone call provider bypass and Vapi's TwiML returned.
 */

const AUTH_TOKEN = 'twilio-auth-token-inbound-test';
const SECRET = 'vapi-secret-inbound-test';
const AGENT_NUMBER = '+12125550111';
const PATH = '/api/inbound/';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' });

/** The TwiML document: well-formed, one <Response>. */
function twiml(text: string) {
  expect(XMLValidator.validate(text), text).toBe(true);
  expect(text.startsWith('<?xml')).toBe(true);
  const document = parser.parse(text);
  expect(document).toHaveProperty('Response');
  return document.Response as Record<string, any>;
}

const sayText = (say: any) => (typeof say === 'string' ? say : say['#text']);

let sequence = 0;
const callSid = () => `CA${String(++sequence).padStart(32, '0')}`;

function inbound(t: TestApp, params: Record<string, string>, options: { token?: string | null; signature?: string } = {}) {
  const token = options.token === undefined ? AUTH_TOKEN : options.token;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const signature = options.signature ?? (token ? twilioSignature(token, `${BASE_URL}${PATH}`, params) : undefined);
  if (signature) headers['x-twilio-signature'] = signature;
  return t.app.request(PATH, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
}

const twilioParams = (from: string, to: string) => ({
  AccountSid: 'AC00000000000000000000000000000000',
  CallSid: callSid(),
  From: from,
  To: to,
  CallStatus: 'ringing',
  Direction: 'inbound',
  ApiVersion: '2010-04-01',
});

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: {
          phone: { en: 'Has a doctor ever told you that you have asthma?', es: '¿Un médico le ha dicho alguna vez que tiene asma?' },
          chat: { en: 'Asthma?' },
        },
        required: true,
        criterionLinks: [],
      },
    ],
  },
];

async function setupSite(t: TestApp, name: string, agentOverrides: Record<string, unknown> = {}) {
  const site = await t.signUp({ organizationName: name });
  await assignTestNumber(t, site.organizationId, (agentOverrides.fromNumber as string | undefined) ?? AGENT_NUMBER);
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
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Asthma line',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    languages: ['en', 'es'],
    firstMessage: {
      en: 'Hello, you reached the Lakeside asthma study. Thanks for calling!',
      es: 'Hola, ha llamado al estudio de asma de Lakeside. ¡Gracias por llamar!',
    },
    voicemailMessage: { en: 'Please call again.' },
    fromNumber: AGENT_NUMBER,
    ...agentOverrides,
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  return { site, agentId: agent.body.id as string, trialId: trial.body.id as string };
}

async function newCandidate(site: SignedUp, phone: string, overrides: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Rosa',
    lastName: 'Caller',
    phone,
    consent: { calls: true },
    customFields: { asthma: true },
    trialIds: await allTrialIds(site.actor),
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

const callsOf = (t: TestApp, organizationId: string) => t.deps.db.select().from(call).where(eq(call.organizationId, organizationId));

describe('inbound calls with the voice simulator', () => {
  let t: TestApp;
  let site: SignedUp;
  let agentId: string;
  beforeAll(async () => {
    t = await createTestApp({ TWILIO_AUTH_TOKEN: AUTH_TOKEN, VAPI_SERVER_SECRET: SECRET });
    ({ site, agentId } = await setupSite(t, 'Lakeside Clinical Research'));
  });
  afterAll(() => t?.close());

  it('a known caller hears the first message in their language; the call is recorded inbound and finishes with a result', async () => {
    const candidateId = await newCandidate(site, '+12125550301', { preferredLanguage: 'es' });
    const params = twilioParams('+12125550301', AGENT_NUMBER);
    const answer = await inbound(t, params);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/xml');
    const response = twiml(await answer.text());
    expect(response.Say['@_language']).toBe('es-US');
    expect(sayText(response.Say)).toBe('Hola, ha llamado al estudio de asma de Lakeside. ¡Gracias por llamar!');
    expect(response.Hangup).toBeUndefined();

    await t.deps.voice.drain();
    const [row] = (await callsOf(t, site.organizationId)).filter((item) => item.candidateId === candidateId);
    expect(row).toMatchObject({
      direction: 'inbound',
      type: 'PRESCREEN',
      voiceAgentId: agentId,
      provider: 'simulator',
      status: 'ended',
      outcome: 'completed',
      language: 'es',
      toPhone: AGENT_NUMBER,
      fromPhone: '+12125550301',
    });
    expect(row.providerCallId).toMatch(/^sim_/);
    expect(row.structuredData.twilioCallSid).toBe(params.CallSid);
    expect(row.transcript.some((turn) => turn.text.includes('¿Un médico le ha dicho'))).toBe(true);
    expect(row.prescreenResultId).toBeTruthy();
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, row.prescreenResultId!));
    expect(result).toMatchObject({ candidateId, sourceType: 'call', sourceId: row.id });
    // The caller's record says asthma: yes; the synthetic caller answered "sí".
    expect(result.answers).toEqual([expect.objectContaining({ questionId: 'asthma', value: true })]);

    const detail = await site.actor.get(`/api/calls/${row.id}`);
    expect(new Set(detail.body.events.map((event: { type: string }) => event.type))).toEqual(
      new Set(['status-update', 'transcript', 'tool-calls', 'end-of-call-report']),
    );
    const events = await t.deps.db
      .select()
      .from(contactEvent)
      .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.kind, 'call')));
    expect(events.map((event) => event.summary)).toEqual(expect.arrayContaining(['Inbound call answered (prescreen)', 'Call completed (prescreen)']));
    const audits = (await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).map((entry) => entry.action);
    expect(audits).toEqual(expect.arrayContaining(['call.inbound', 'call.end']));
  });

  it('a redelivered webhook (same CallSid) is answered the same way and records nothing twice', async () => {
    await newCandidate(site, '+12125550309');
    const params = twilioParams('+12125550309', AGENT_NUMBER);
    const first = await inbound(t, params);
    expect(first.status).toBe(200);
    const again = await inbound(t, params);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(await first.text());
    await t.deps.voice.drain();
    const rows = (await callsOf(t, site.organizationId)).filter((item) => item.structuredData.twilioCallSid === params.CallSid);
    expect(rows).toHaveLength(1);
  });

  it('an unknown caller is answered in English and recorded without a candidate', async () => {
    const before = (await callsOf(t, site.organizationId)).length;
    const answer = await inbound(t, twilioParams('+12125550399', AGENT_NUMBER));
    expect(answer.status).toBe(200);
    const response = twiml(await answer.text());
    expect(response.Say['@_language']).toBe('en-US');
    expect(sayText(response.Say)).toContain('Lakeside asthma study');
    await t.deps.voice.drain();
    const rows = await callsOf(t, site.organizationId);
    expect(rows).toHaveLength(before + 1);
    const row = rows.find((item) => item.fromPhone === '+12125550399')!;
    expect(row).toMatchObject({ direction: 'inbound', candidateId: null, status: 'ended', prescreenResultId: null });
    expect((await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).map((entry) => entry.action)).toContain('call.inbound');
  });

  it('a withheld number is an unknown caller', async () => {
    const answer = await inbound(t, twilioParams('anonymous', AGENT_NUMBER));
    expect(answer.status).toBe(200);
    expect(sayText(twiml(await answer.text()).Say)).toContain('Lakeside asthma study');
    await t.deps.voice.drain();
  });

  it('a number no active agent owns: not in service, hang up, nothing recorded', async () => {
    const before = (await callsOf(t, site.organizationId)).length;
    const answer = await inbound(t, twilioParams('+12125550301', '+12125550999'));
    expect(answer.status).toBe(200);
    const response = twiml(await answer.text());
    expect(sayText(response.Say)).toMatch(/not in service/i);
    expect(response).toHaveProperty('Hangup');
    // An inactive agent's number is not in service either.
    const other = await setupSite(t, 'Dormant Site', { fromNumber: '+12125550112', active: false });
    const dormant = twiml(await (await inbound(t, twilioParams('+12125550301', '+12125550112'))).text());
    expect(sayText(dormant.Say)).toMatch(/not in service/i);
    expect(await callsOf(t, other.site.organizationId)).toEqual([]);
    expect(await callsOf(t, site.organizationId)).toHaveLength(before);
  });

  it('a bad or missing signature is refused (403) and nothing is recorded', async () => {
    const before = (await callsOf(t, site.organizationId)).length;
    const params = twilioParams('+12125550301', AGENT_NUMBER);
    const forged = await inbound(t, params, { signature: twilioSignature('not-the-token', `${BASE_URL}${PATH}`, params) });
    expect(forged.status).toBe(403);
    expect(twiml(await forged.text())).toHaveProperty('Reject');
    // Signed over other parameters (tampered body).
    const tampered = await inbound(t, { ...params, From: '+12125550302' }, { signature: twilioSignature(AUTH_TOKEN, `${BASE_URL}${PATH}`, params) });
    expect(tampered.status).toBe(403);
    const unsigned = await inbound(t, params, { token: null });
    expect(unsigned.status).toBe(403);
    expect(await callsOf(t, site.organizationId)).toHaveLength(before);
  });

  it('an internal error answers 500 with TwiML that apologises and hangs up (no details)', async () => {
    const spy = vi.spyOn(t.deps.voice, 'answerInbound').mockRejectedValueOnce(new VoiceProviderError('Vapi refused the request (HTTP 500)', '500'));
    const answer = await inbound(t, twilioParams('+12125550301', AGENT_NUMBER));
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toContain('text/xml');
    const text = await answer.text();
    const response = twiml(text);
    expect(sayText(response.Say)).toMatch(/sorry/i);
    expect(response).toHaveProperty('Hangup');
    expect(text).not.toContain('Vapi');
    // The call it had recorded is marked failed.
    const failed = (await callsOf(t, site.organizationId)).filter((row) => row.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ direction: 'inbound', outcome: 'failed', structuredData: expect.objectContaining({ error: '500' }) });

    // The database failing for this request only (the same route, its deps' database broken): the same apology.
    const brokenDb = new Proxy(t.deps.db, {
      get: (target, property) =>
        property === 'select' || property === 'transaction'
          ? () => {
              throw new Error('connection lost');
            }
          : Reflect.get(target, property),
    });
    const broken = new Hono<AppEnv>({ strict: false })
      .use('*', async (c, next) => {
        c.set('deps', { ...t.deps, db: brokenDb });
        await next();
      })
      .route('/api/inbound', twilioVoiceRoutes);
    const params = twilioParams('+12125550301', AGENT_NUMBER);
    const down = await broken.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(AUTH_TOKEN, `${BASE_URL}${PATH}`, params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(down.status).toBe(500);
    expect(down.headers.get('content-type')).toContain('text/xml');
    const downText = await down.text();
    expect(sayText(twiml(downText).Say)).toMatch(/sorry/i);
    expect(downText).not.toContain('connection lost');
  });

  it('production without TWILIO_AUTH_TOKEN refuses every request (fail closed); outside production it is accepted', async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    try {
      const answer = await inbound(production, twilioParams('+12125550301', AGENT_NUMBER), { token: null });
      expect(answer.status).toBe(403);
      twiml(await answer.text());
    } finally {
      await production.close();
    }
    const open = await createTestApp();
    try {
      const answer = await inbound(open, twilioParams('+12125550301', '+12125550999'), { token: null });
      expect(answer.status).toBe(200);
      expect(sayText(twiml(await answer.text()).Say)).toMatch(/not in service/i);
    } finally {
      await open.close();
    }
  });
});

describe('inbound calls with Vapi (a local fake)', () => {
  const apiKey = 'vapi-private-key-inbound';
  let fake: FakeVapi;
  let t: TestApp;
  let site: SignedUp;
  beforeAll(async () => {
    fake = await startFakeVapi({ apiKey });
    t = await createTestApp({
      VAPI_API_KEY: apiKey,
      VAPI_API_BASE_URL: fake.baseUrl,
      VAPI_SERVER_SECRET: SECRET,
      VAPI_PHONE_NUMBER_ID: 'pn_inbound',
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    });
    ({ site } = await setupSite(t, 'Vapi Inbound Site'));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("creates the call at Vapi with provider bypass and our call id, and answers Vapi's TwiML", async () => {
    const candidateId = await newCandidate(site, '+12125550401');
    const params = twilioParams('+12125550401', AGENT_NUMBER);
    const answer = await inbound(t, params);
    expect(answer.status).toBe(200);
    const response = twiml(await answer.text());
    expect(response.Connect.Stream['@_url']).toMatch(/^wss:\/\/.+\/transport$/);

    const [row] = (await callsOf(t, site.organizationId)).filter((item) => item.candidateId === candidateId);
    expect(row).toMatchObject({ direction: 'inbound', provider: 'vapi', status: 'ringing' });
    expect(row.providerCallId).toMatch(/^call_/);
    const sent = fake.received.find((request) => request.method === 'POST' && request.path === '/call')!;
    expect(sent.body).toMatchObject({
      phoneCallProviderBypassEnabled: true,
      phoneNumberId: 'pn_inbound',
      customer: { number: '+12125550401' },
      metadata: { callId: row.id },
    });
    expect(sent.body.assistantId).toMatch(/^asst_/);
    expect(sent.body.assistantOverrides.variableValues.callSid).toBe(params.CallSid);

    // Vapi's server messages then find the call by its id.
    const post = (message: unknown) =>
      t.app.request('/api/inbound/vapi', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
        body: JSON.stringify({ message }),
      });
    expect((await post({ type: 'status-update', status: 'in-progress', call: { id: row.providerCallId } })).status).toBe(200);
    const [after] = await t.deps.db.select().from(call).where(eq(call.id, row.id));
    expect(after.status).toBe('in_progress');
  });

  it('Vapi refusing answers 500 TwiML', async () => {
    const broken = await createTestApp({ VAPI_API_KEY: apiKey, VAPI_API_BASE_URL: fake.baseUrl, TWILIO_AUTH_TOKEN: AUTH_TOKEN });
    try {
      await setupSite(broken, 'No Phone Number Id Site', { fromNumber: '+12125550113' });
      const answer = await inbound(broken, twilioParams('+12125550401', '+12125550113'));
      expect(answer.status).toBe(500);
      expect(twiml(await answer.text())).toHaveProperty('Hangup');
    } finally {
      await broken.close();
    }
  });
});
