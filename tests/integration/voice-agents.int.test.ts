import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, prescreenForm, prescreenFormVersion, voiceAgent } from '../../src/server/db/schema';
import { startFakeVapi, type FakeVapi } from '../support/fake-vapi';
import { assignTestNumber } from '../support/phone-numbers';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/** Voice agents: CRUD and validation with the simulator, and the Vapi adapter against a local fake of Vapi's API. */

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor ever told you that you have asthma?' }, chat: { en: 'Asthma?' } },
        required: true,
        criterionLinks: [],
      },
    ],
  },
];

async function setupSite(t: TestApp, name: string) {
  const site = await t.signUp({ organizationName: name });
  // The number the agents below call from: the organization's own (phone-number registry).
  await assignTestNumber(t, site.organizationId, '+12125550100');
  const trial = await createRecruitingTrial(site.actor, {
    title: 'Asthma inhaler study',
    criteria: [{ kind: 'inclusion', text: 'Diagnosed with asthma' }],
    sites: [{ name: 'Lakeside', timeZone: 'America/Chicago' }],
  });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const insert = async (status: 'draft' | 'published', trialId = trial.body.id) => {
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({
        organizationId: site.organizationId,
        trialId,
        name: `Form ${status}`,
        status,
        currentVersion: 1,
        publishedAt: status === 'published' ? new Date() : null,
      })
      .returning();
    await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
    return form.id;
  };
  return { site, trialId: trial.body.id as string, publishedFormId: await insert('published'), draftFormId: await insert('draft') };
}

const body = (trialId: string, prescreenFormId: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Asthma phone screener',
  type: 'PRESCREEN',
  trialId,
  prescreenFormId,
  languages: ['en', 'es'],
  firstMessage: { en: 'Hello from Lakeside.', es: 'Hola de Lakeside.' },
  voicemailMessage: { en: 'Please call us back.' },
  fromNumber: '+12125550100',
  ...overrides,
});

describe('voice agents with the simulator', () => {
  let t: TestApp;
  let setup: Awaited<ReturnType<typeof setupSite>>;
  let site: SignedUp;
  beforeAll(async () => {
    t = await createTestApp();
    setup = await setupSite(t, 'Lakeside Clinical Research');
    site = setup.site;
  });
  afterAll(() => t?.close());

  it('creates, reads, lists, updates and deletes an agent, audited', async () => {
    const created = await site.actor.post('/api/voice-agents/', body(setup.trialId, setup.publishedFormId));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      organizationId: site.organizationId,
      type: 'PRESCREEN',
      callingHoursStart: '08:00',
      callingHoursEnd: '21:00',
      voice: 'default',
      active: true,
      providerAssistantId: null,
      fromNumber: '+12125550100',
    });
    const id = created.body.id;
    expect((await site.actor.get(`/api/voice-agents/${id}`)).body).toEqual(created.body);
    const list = await site.actor.get('/api/voice-agents/?type=PRESCREEN');
    expect(list.body).toMatchObject({ total: 1, voiceAgents: [{ id }] });
    expect((await site.actor.get('/api/voice-agents/?type=SITE_VISIT_SCHEDULING')).body).toEqual({ voiceAgents: [], total: 0 });
    const updated = await site.actor.patch(`/api/voice-agents/${id}`, { name: 'Renamed', callingHoursStart: '09:30', active: false });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Renamed', callingHoursStart: '09:30', active: false });
    const booker = {
      name: 'Visit booker',
      type: 'SITE_VISIT_SCHEDULING',
      firstMessage: { en: 'Hi' },
      voicemailMessage: { en: 'Bye' },
      schedule: { sites: ['Lakeside'] },
    };
    // A scheduling agent books visits of one trial: without it, 400 naming trialId (the full rules: voice-scheduling.int.test.ts).
    const noTrial = await site.actor.post('/api/voice-agents/', booker);
    expect(noTrial.status).toBe(400);
    expect(noTrial.body.error.details.map((detail: { path: string }) => detail.path)).toContain('trialId');
    const scheduling = await site.actor.post('/api/voice-agents/', { ...booker, trialId: setup.trialId });
    expect(scheduling.status, JSON.stringify(scheduling.body)).toBe(201);
    // Named in the request, stored by the site's id (names are not unique across a trial's sites).
    expect(scheduling.body).toMatchObject({
      prescreenFormId: null,
      trialId: setup.trialId,
      schedule: { sites: [expect.stringMatching(/^[0-9a-f-]{36}$/)], weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'], durationMinutes: 60 },
    });
    expect((await site.actor.delete(`/api/voice-agents/${id}`)).status).toBe(204);
    expect((await site.actor.get(`/api/voice-agents/${id}`)).status).toBe(404);
    const actions = (await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, id))).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['voice_agent.create', 'voice_agent.update', 'voice_agent.delete']));
  });

  it('validates: calling hours, the form (published, of the trial), E.164 numbers, required messages', async () => {
    const bad = async (payload: Record<string, unknown>, status: number, path?: string) => {
      const answer = await site.actor.post('/api/voice-agents/', payload);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (path) expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    };
    await bad(body(setup.trialId, setup.publishedFormId, { callingHoursStart: '8:00' }), 400, 'callingHoursStart');
    await bad(body(setup.trialId, setup.publishedFormId, { callingHoursEnd: '24:00' }), 400, 'callingHoursEnd');
    await bad(body(setup.trialId, setup.publishedFormId, { callingHoursStart: '20:00', callingHoursEnd: '09:00' }), 400, 'callingHoursEnd');
    await bad(body(setup.trialId, setup.publishedFormId, { fromNumber: '212-555' }), 400, 'fromNumber');
    await bad(body(setup.trialId, setup.publishedFormId, { firstMessage: { en: '' } }), 400, 'firstMessage.en');
    await bad(body(setup.trialId, setup.publishedFormId, { type: 'ROBOCALL' }), 400, 'type');
    await bad(body(setup.trialId, setup.publishedFormId, { prescreenFormId: undefined }), 400, 'prescreenFormId');
    await bad(body(setup.trialId, setup.draftFormId), 409);
    await bad(body(setup.trialId, '00000000-0000-4000-8000-000000000000'), 404);
    await bad(body('not-a-uuid', setup.publishedFormId), 404);
    const other = await createRecruitingTrial(site.actor, { title: 'Another trial', criteria: [{ kind: 'inclusion', text: 'Adult' }] });
    await bad(body(other.body.id, setup.publishedFormId), 400, 'prescreenFormId');
    const created = await site.actor.post('/api/voice-agents/', body(setup.trialId, setup.publishedFormId));
    const patched = await site.actor.patch(`/api/voice-agents/${created.body.id}`, { callingHoursEnd: '07:00' });
    expect(patched.status).toBe(400);
    expect((await site.actor.patch(`/api/voice-agents/${created.body.id}`, { prescreenFormId: setup.draftFormId })).status).toBe(409);
  });
});

describe('voice agents and calls with Vapi (a local fake)', () => {
  const apiKey = 'vapi-private-key-test';
  const secret = 'vapi-server-secret-test';
  let fake: FakeVapi;
  let t: TestApp;
  let setup: Awaited<ReturnType<typeof setupSite>>;
  beforeAll(async () => {
    fake = await startFakeVapi({ apiKey });
    t = await createTestApp({ VAPI_API_KEY: apiKey, VAPI_API_BASE_URL: fake.baseUrl, VAPI_SERVER_SECRET: secret, VAPI_PHONE_NUMBER_ID: 'pn_test' });
    setup = await setupSite(t, 'Vapi Research Site');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('saving an agent creates, then updates, its Vapi assistant with our server and tool URLs', async () => {
    expect(t.deps.voice.provider).toBe('vapi');
    const created = await setup.site.actor.post('/api/voice-agents/', body(setup.trialId, setup.publishedFormId));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.providerAssistantId).toMatch(/^asst_/);
    const sent = fake.received.find((request) => request.method === 'POST' && request.path === '/assistant')!;
    expect(sent.body.server).toEqual({ url: `${BASE_URL}/api/inbound/vapi`, secret });
    expect(sent.body.model.tools.map((tool: { server: { url: string } }) => tool.server.url)).toContain(`${BASE_URL}/api/functions/vapi/set-call-metadata`);
    expect(sent.body.model.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(
      expect.arrayContaining(['switch-language', 'end-prescreen-chat', 'mark-exit-status']),
    );
    expect(sent.body.model.messages[0].content).toContain('Has a doctor ever told you that you have asthma?');
    expect(sent.body.analysisPlan.structuredDataPlan.schema.properties.answers.properties).toHaveProperty('asthma');

    const updated = await setup.site.actor.patch(`/api/voice-agents/${created.body.id}`, { name: 'New name' });
    expect(updated.status).toBe(200);
    expect(updated.body.providerAssistantId).toBe(created.body.providerAssistantId);
    const patch = fake.received.find((request) => request.method === 'PATCH')!;
    expect(patch.path).toBe(`/assistant/${created.body.providerAssistantId}`);
    expect(patch.body.name).toBe('New name');
  });

  it('a refused assistant (bad key) answers 502 and saves nothing', async () => {
    const broken = await createTestApp({ VAPI_API_KEY: 'wrong-key', VAPI_API_BASE_URL: fake.baseUrl });
    try {
      const other = await setupSite(broken, 'Broken Key Site');
      const answer = await other.site.actor.post('/api/voice-agents/', body(other.trialId, other.publishedFormId));
      expect(answer.status).toBe(502);
      expect(answer.body.error.code).toBe('VOICE_PROVIDER_ERROR');
      expect(await broken.deps.db.select().from(voiceAgent).where(eq(voiceAgent.organizationId, other.site.organizationId))).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('places a call through Vapi and applies its server messages by the provider call id', async () => {
    const person = await setup.site.actor.post('/api/candidates/', {
      firstName: 'Ana',
      phone: '+12125550188',
      timeZone: 'Etc/UTC',
      consent: { calls: true },
      trialIds: [setup.trialId],
    });
    // Calling hours are real time: pick a zone where it is midday now.
    let offset = 12 - new Date().getUTCHours();
    if (offset < -12) offset += 24;
    if (offset > 14) offset -= 24;
    await setup.site.actor.patch(`/api/candidates/${person.body.id}`, {
      timeZone: offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`,
    });
    const placed = await setup.site.actor.post('/api/calls/', { candidateId: person.body.id });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ provider: 'vapi', status: 'queued' });
    expect(placed.body.providerCallId).toMatch(/^call_/);
    const request = fake.received.find((item) => item.method === 'POST' && item.path === '/call')!;
    expect(request.body).toMatchObject({ phoneNumberId: 'pn_test', customer: { number: '+12125550188' }, metadata: { callId: placed.body.id } });

    const post = (message: unknown) =>
      t.app.request('/api/inbound/vapi', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vapi-secret': secret },
        body: JSON.stringify({ message }),
      });
    expect((await post({ type: 'status-update', status: 'ringing', call: { id: placed.body.providerCallId } })).status).toBe(200);
    const [row] = await t.deps.db.select().from(call).where(eq(call.id, placed.body.id));
    expect(row.status).toBe('ringing');
    const cancelled = await setup.site.actor.delete(`/api/calls/${placed.body.id}`);
    expect(cancelled.body.action).toBe('cancelled');
    expect(fake.received.some((item) => item.method === 'DELETE' && item.path === `/call/${placed.body.providerCallId}`)).toBe(true);
    // Late messages about a cancelled call are stored but change nothing.
    expect((await post({ type: 'status-update', status: 'in-progress', call: { id: placed.body.providerCallId } })).status).toBe(200);
    const [after] = await t.deps.db.select().from(call).where(eq(call.id, placed.body.id));
    expect(after.status).toBe('cancelled');
  });
});
