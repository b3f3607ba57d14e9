import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, call, candidate, phoneNumber, prescreenForm, prescreenFormVersion, voiceAgent } from '../../src/server/db/schema';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { startFakeVapi, type FakeVapi } from '../support/fake-vapi';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The phone-number registry (issue 14, defect 1): one owner per number across all organizations, assigned by
 * Cohortly's internal admins only; voice agents call from their organization's numbers only; inbound calls
 * (Twilio TwiML, Vapi assistant-request) and the agent tools find the tenant through the registry, so another
 * organization can never take over a number's calls.
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

/** A site with a trial and a published form: what a PRESCREEN agent needs. */
async function prescreenSetup(t: TestApp, site: SignedUp) {
  const trial = await site.actor.post('/api/trials/', { title: 'Asthma study', criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId: trial.body.id, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  return (name: string, firstMessage: string, fromNumber?: string) => ({
    name,
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: form.id,
    firstMessage: { en: firstMessage },
    voicemailMessage: { en: 'Bye' },
    ...(fromNumber ? { fromNumber } : {}),
  });
}

const twilioInbound = (t: TestApp, to: string, sid: string) =>
  t.app.request('/api/inbound/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ CallSid: sid, From: '+12125550999', To: to, CallStatus: 'ringing', Direction: 'inbound' }).toString(),
  });
const vapiMessage = (t: TestApp, message: unknown) =>
  t.app.request('/api/inbound/vapi', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
const fieldsOf = (body: { error: { details?: Array<{ path: string }> } }) => (body.error.details ?? []).map((detail) => detail.path);

describe('the phone-number registry with the simulator', () => {
  let t: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let admin: Actor;
  const A_NUMBER = '+12125550160';
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.signUp({ organizationName: 'Lakeside Research' });
    b = await t.signUp({ organizationName: 'Hillcrest Research' });
    admin = await t.signInAdmin();
  });
  afterAll(() => t?.close());

  it('only internal admins with the Cohortly organization active assign, change or release numbers', async () => {
    const owner = await a.actor.post('/api/phone-numbers/', { number: '+12125550161', organizationId: a.organizationId });
    expect(owner.status).toBe(403);
    const adminInA = await t.signInAdmin();
    adminInA.activeOrganizationId = a.organizationId;
    expect((await adminInA.post('/api/phone-numbers/', { number: '+12125550161', organizationId: a.organizationId })).status).toBe(403);
    expect(await t.deps.db.select().from(phoneNumber).where(eq(phoneNumber.number, '+12125550161'))).toEqual([]);

    const assigned = await admin.post('/api/phone-numbers/', { number: '+1 (212) 555-0161', organizationId: a.organizationId, label: 'Front desk' });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect(assigned.body).toMatchObject({
      number: '+12125550161',
      organizationId: a.organizationId,
      organizationName: 'Lakeside Research',
      provider: 'simulator',
      purpose: 'voice',
      label: 'Front desk',
      providerId: null,
      agents: [],
    });
    // Staff see their own numbers, read-only.
    expect((await a.actor.get('/api/phone-numbers/')).body).toMatchObject({ total: 1, phoneNumbers: [{ id: assigned.body.id }] });
    expect((await a.actor.patch(`/api/phone-numbers/${assigned.body.id}`, { label: 'Mine now' })).status).toBe(403);
    expect((await a.actor.delete(`/api/phone-numbers/${assigned.body.id}`)).status).toBe(403);
    expect((await adminInA.delete(`/api/phone-numbers/${assigned.body.id}`)).status).toBe(403);
    expect((await b.actor.get('/api/phone-numbers/')).body).toEqual({ phoneNumbers: [], total: 0 });
    // The global admin's list narrows like other lists.
    const narrowed = await admin.get(`/api/phone-numbers/?orgs=${b.organizationId}`);
    expect(narrowed.body).toEqual({ phoneNumbers: [], total: 0 });
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, assigned.body.id));
    expect(audits.map((row) => row.action)).toEqual(['phone_number.assign']);
  });

  it('a number belongs to one organization: a second assignment is 409, malformed numbers 400 naming the field', async () => {
    const first = await admin.post('/api/phone-numbers/', { number: A_NUMBER, organizationId: a.organizationId });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    for (const organizationId of [b.organizationId, a.organizationId]) {
      const again = await admin.post('/api/phone-numbers/', { number: '+1 212 555 0160', organizationId });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('NUMBER_TAKEN');
    }
    const malformed = await admin.post('/api/phone-numbers/', { number: '555-0160', organizationId: b.organizationId });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toContain('number');
    expect(await t.deps.db.select().from(phoneNumber).where(eq(phoneNumber.number, A_NUMBER))).toHaveLength(1);
  });

  it("the exploit fails: B's agent is refused A's number, and calls to A's number reach A's agent even when B's was updated later", async () => {
    const aAgentBody = await prescreenSetup(t, a);
    const bAgentBody = await prescreenSetup(t, b);
    const aAgent = await a.actor.post('/api/voice-agents/', aAgentBody('A line', 'Hello from Lakeside', A_NUMBER));
    expect(aAgent.status, JSON.stringify(aAgent.body)).toBe(201);

    // B asks for A's number: on create and on update, 400 naming fromNumber, nothing saved.
    const stolen = await b.actor.post('/api/voice-agents/', bAgentBody('B line', 'Hello from Hillcrest', A_NUMBER));
    expect(stolen.status).toBe(400);
    expect(fieldsOf(stolen.body)).toEqual(['fromNumber']);
    const bAgent = await b.actor.post('/api/voice-agents/', bAgentBody('B line', 'Hello from Hillcrest'));
    expect(bAgent.status).toBe(201);
    const patched = await b.actor.patch(`/api/voice-agents/${bAgent.body.id}`, { fromNumber: A_NUMBER });
    expect(patched.status).toBe(400);
    expect(fieldsOf(patched.body)).toEqual(['fromNumber']);
    // Even a number nobody owns is refused (the answer does not say whether someone else owns it).
    const unowned = await b.actor.patch(`/api/voice-agents/${bAgent.body.id}`, { fromNumber: '+12125550169' });
    expect(unowned.status).toBe(400);
    expect(unowned.body.error.message).toBe(stolen.body.error.message);

    // Data written before the registry (or by any other path): B's agent holds A's number and was updated last.
    await t.deps.db
      .update(voiceAgent)
      .set({ fromNumber: A_NUMBER, updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(voiceAgent.id, bAgent.body.id));

    const answer = await twilioInbound(t, A_NUMBER, 'CA00000000000000000000000000000160');
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toContain('Hello from Lakeside');
    expect(text).not.toContain('Hillcrest');
    await t.deps.voice.drain();
    const twilioCall = (await t.deps.db.select().from(call).where(eq(call.toPhone, A_NUMBER))).find(
      (row) => row.structuredData.twilioCallSid === 'CA00000000000000000000000000000160',
    )!;
    expect(twilioCall).toMatchObject({ organizationId: a.organizationId, voiceAgentId: aAgent.body.id, direction: 'inbound' });

    const request = await vapiMessage(t, {
      type: 'assistant-request',
      call: { id: 'vapi-inbound-160', customer: { number: '+12125550998' } },
      phoneNumber: { number: A_NUMBER },
    });
    expect(request.status).toBe(200);
    expect(await request.json()).toMatchObject({ assistant: { name: 'A line', firstMessage: 'Hello from Lakeside' } });
    const [vapiCall] = await t.deps.db.select().from(call).where(eq(call.providerCallId, 'vapi-inbound-160'));
    expect(vapiCall).toMatchObject({ organizationId: a.organizationId, voiceAgentId: aAgent.body.id });
    expect(await t.deps.db.select().from(call).where(eq(call.organizationId, b.organizationId))).toEqual([]);

    // A number not in the registry is not in service, whatever an agent's fromNumber says.
    await t.deps.db.update(voiceAgent).set({ fromNumber: '+12125550168' }).where(eq(voiceAgent.id, bAgent.body.id));
    expect(await (await twilioInbound(t, '+12125550168', 'CA00000000000000000000000000000168')).text()).toMatch(/not in service/i);
    expect(
      await (await vapiMessage(t, { type: 'assistant-request', call: { id: 'vapi-inbound-168' }, phoneNumber: { number: '+12125550168' } })).json(),
    ).toEqual({ error: 'This number is not in service.' });
    expect(await t.deps.db.select().from(call).where(eq(call.organizationId, b.organizationId))).toEqual([]);
  });

  it("the agent tools find the organization by the agent's number through the registry", async () => {
    const phone = '+12125550177';
    for (const site of [a, b]) expect((await site.actor.post('/api/candidates/', { firstName: 'Rosa', phone, consent: { calls: true } })).status).toBe(201);
    // B's agent claims A's number (old data): the tool still acts for A's candidate only.
    const tool = await t.app.request('/api/functions/vapi/update-preferred-language', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ candidatePhoneNumber: phone, agentPhoneNumber: A_NUMBER, language: 'es' }),
    });
    expect(tool.status, await tool.clone().text()).toBe(200);
    const rows = await t.deps.db.select().from(candidate).where(eq(candidate.phone, phone));
    expect(rows.find((row) => row.organizationId === a.organizationId)?.preferredLanguage).toBe('es');
    expect(rows.find((row) => row.organizationId === b.organizationId)?.preferredLanguage).not.toBe('es');
    // A number not in the registry names no organization: nothing found.
    const unknown = await t.app.request('/api/functions/vapi/update-preferred-language', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ candidatePhoneNumber: phone, agentPhoneNumber: '+12125550168', language: 'es' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('release and moves are refused while an active agent calls from the number; afterwards the number is out of service', async () => {
    const [row] = await t.deps.db.select().from(phoneNumber).where(eq(phoneNumber.number, A_NUMBER));
    const [aAgent] = await t.deps.db
      .select()
      .from(voiceAgent)
      .where(and(eq(voiceAgent.organizationId, a.organizationId), eq(voiceAgent.fromNumber, A_NUMBER)));
    const listed = await a.actor.get('/api/phone-numbers/');
    expect(listed.body.phoneNumbers.find((item: { id: string }) => item.id === row.id).agents).toEqual([{ id: aAgent.id, name: 'A line', active: true }]);

    const release = await admin.delete(`/api/phone-numbers/${row.id}`);
    expect(release.status).toBe(409);
    expect(release.body.error).toMatchObject({ code: 'PHONE_NUMBER_IN_USE', message: expect.stringContaining('A line') });
    const move = await admin.patch(`/api/phone-numbers/${row.id}`, { organizationId: b.organizationId });
    expect(move.status).toBe(409);
    expect((await admin.patch(`/api/phone-numbers/${row.id}`, { purpose: 'sms' })).status).toBe(409);
    // A label and a purpose that still allows calls are fine.
    const relabelled = await admin.patch(`/api/phone-numbers/${row.id}`, { label: 'Asthma line', purpose: 'both' });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body).toMatchObject({ label: 'Asthma line', purpose: 'both', organizationId: a.organizationId });

    expect((await a.actor.patch(`/api/voice-agents/${aAgent.id}`, { active: false })).status).toBe(200);
    const released = await admin.delete(`/api/phone-numbers/${row.id}`);
    expect(released.status).toBe(204);
    const [after] = await t.deps.db.select().from(voiceAgent).where(eq(voiceAgent.id, aAgent.id));
    expect(after.fromNumber).toBeNull();
    expect(await (await twilioInbound(t, A_NUMBER, 'CA00000000000000000000000000000161')).text()).toMatch(/not in service/i);
    expect((await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).map((entry) => entry.action)).toContain('phone_number.release');
  });

  it('an admin moves a number no active agent uses to another organization; the old owner can no longer use it', async () => {
    const number = '+12125550170';
    const assigned = await admin.post('/api/phone-numbers/', { number, organizationId: a.organizationId });
    expect(assigned.status).toBe(201);
    const moved = await admin.patch(`/api/phone-numbers/${assigned.body.id}`, { organizationId: b.organizationId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ organizationId: b.organizationId, organizationName: 'Hillcrest Research' });
    expect((await a.actor.get('/api/phone-numbers/')).body.phoneNumbers.map((item: { number: string }) => item.number)).not.toContain(number);
    expect((await b.actor.get('/api/phone-numbers/')).body.phoneNumbers.map((item: { number: string }) => item.number)).toContain(number);
    // An SMS-only number is no voice agent's number.
    const sms = await admin.post('/api/phone-numbers/', { number: '+12125550171', organizationId: b.organizationId, purpose: 'sms' });
    expect(sms.status).toBe(201);
    const [bAgent] = await t.deps.db.select().from(voiceAgent).where(eq(voiceAgent.organizationId, b.organizationId));
    const smsOnly = await b.actor.patch(`/api/voice-agents/${bAgent.id}`, { fromNumber: '+12125550171' });
    expect(smsOnly.status).toBe(400);
    expect(fieldsOf(smsOnly.body)).toEqual(['fromNumber']);
    expect((await b.actor.patch(`/api/voice-agents/${bAgent.id}`, { fromNumber: number })).status).toBe(200);
  });

  it("the migration's backfill keeps the oldest claim on a shared number and clears the others", async () => {
    const migration = readFileSync(new URL('../../src/server/db/migrations/0014_phone-numbers.sql', import.meta.url), 'utf8');
    const statements = migration
      .split('--> statement-breakpoint')
      .map((text) => text.trim())
      .filter((text) => /^(--[^\n]*\n)*\s*(INSERT INTO|UPDATE)/.test(text));
    expect(statements).toHaveLength(3);
    const c = await t.signUp({ organizationName: 'Oldest Claim Site' });
    const d = await t.signUp({ organizationName: 'Later Claim Site' });
    const agent = (organizationId: string, fromNumber: string, createdAt: Date) => ({
      organizationId,
      name: 'Legacy',
      type: 'SITE_VISIT_SCHEDULING' as const,
      firstMessage: { en: 'Hi' },
      voicemailMessage: { en: 'Bye' },
      fromNumber,
      createdAt,
      updatedAt: createdAt,
    });
    const [oldest, later, alone] = await t.deps.db
      .insert(voiceAgent)
      .values([
        agent(c.organizationId, '+12125550180', new Date('2025-01-01')),
        agent(d.organizationId, '+12125550180', new Date('2025-06-01')),
        agent(d.organizationId, '+12125550181', new Date('2025-06-01')),
      ])
      .returning();
    for (const statement of statements) await t.deps.db.execute(sql.raw(statement));
    const owners = await t.deps.db.select().from(phoneNumber).where(sql`${phoneNumber.number} in ('+12125550180', '+12125550181')`);
    expect(Object.fromEntries(owners.map((row) => [row.number, row.organizationId]))).toEqual({
      '+12125550180': c.organizationId,
      '+12125550181': d.organizationId,
    });
    const agents = Object.fromEntries(
      (await t.deps.db.select().from(voiceAgent).where(sql`${voiceAgent.id} in (${oldest.id}, ${later.id}, ${alone.id})`)).map((row) => [
        row.id,
        row.fromNumber,
      ]),
    );
    expect(agents).toEqual({ [oldest.id]: '+12125550180', [later.id]: null, [alone.id]: '+12125550181' });
    expect((await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, later.id))).map((row) => row.changes)).toEqual([
      expect.objectContaining({ reason: 'phone_number_owned_by_another_organization' }),
    ]);
    // Numbers already in the registry keep their owner, and agents holding their own numbers keep them.
    const registry = await t.deps.db.select().from(phoneNumber).where(eq(phoneNumber.number, '+12125550170'));
    expect(registry.map((row) => row.organizationId)).toEqual([b.organizationId]);
    expect((await t.deps.db.select().from(voiceAgent).where(eq(voiceAgent.fromNumber, '+12125550170'))).map((row) => row.organizationId)).toEqual([
      b.organizationId,
    ]);
  });
});

describe('verification with Twilio (a local fake)', () => {
  const accountSid = 'AC11111111111111111111111111111111';
  const authToken = 'twilio-token-phone-numbers';
  let fake: FakeTwilio;
  let t: TestApp;
  let site: SignedUp;
  let admin: Actor;
  beforeAll(async () => {
    fake = await startFakeTwilio({ accountSid, authToken, incomingNumbers: ['+13125550100'] });
    t = await createTestApp({
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM_NUMBER: '+13125550199',
      TWILIO_API_BASE_URL: fake.baseUrl,
    });
    site = await t.signUp({ organizationName: 'Twilio Site' });
    admin = await t.signInAdmin();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("assigns a number of the account with Twilio's id; a number not in the account is 409 and nothing is stored", async () => {
    const assigned = await admin.post('/api/phone-numbers/', { number: '+13125550100', organizationId: site.organizationId, purpose: 'both' });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect(assigned.body).toMatchObject({ provider: 'twilio', purpose: 'both' });
    expect(assigned.body.providerId).toMatch(/^PN[0-9a-f]{32}$/);
    expect(fake.numberLookups).toEqual(['+13125550100']);

    const foreign = await admin.post('/api/phone-numbers/', { number: '+13125550101', organizationId: site.organizationId });
    expect(foreign.status).toBe(409);
    expect(foreign.body.error).toMatchObject({ code: 'NUMBER_NOT_IN_ACCOUNT', message: expect.stringContaining('Twilio') });
    // Simulator numbers would never ring once a provider is configured; Vapi is not configured here.
    expect(
      (await admin.post('/api/phone-numbers/', { number: '+13125550102', organizationId: site.organizationId, provider: 'simulator' })).body.error.code,
    ).toBe('PROVIDER_CONFIGURED');
    expect((await admin.post('/api/phone-numbers/', { number: '+13125550103', organizationId: site.organizationId, provider: 'vapi' })).body.error.code).toBe(
      'PROVIDER_NOT_CONFIGURED',
    );
    expect((await t.deps.db.select().from(phoneNumber)).map((row) => row.number)).toEqual(['+13125550100']);
  });
});

describe('verification with Vapi (a local fake)', () => {
  const apiKey = 'vapi-key-phone-numbers';
  let fake: FakeVapi;
  let t: TestApp;
  let site: SignedUp;
  let admin: Actor;
  beforeAll(async () => {
    fake = await startFakeVapi({ apiKey, phoneNumbers: ['+14155550100'] });
    t = await createTestApp({ VAPI_API_KEY: apiKey, VAPI_API_BASE_URL: fake.baseUrl, VAPI_PHONE_NUMBER_ID: 'pn_default' });
    site = await t.signUp({ organizationName: 'Vapi Site' });
    admin = await t.signInAdmin();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('assigns a number of the Vapi account with its phoneNumberId; another number is 409; Vapi down is 502', async () => {
    const assigned = await admin.post('/api/phone-numbers/', { number: '+14155550100', organizationId: site.organizationId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect(assigned.body).toMatchObject({ provider: 'vapi', providerId: 'pn_14155550100' });
    expect(fake.received.some((request) => request.method === 'GET' && request.path.startsWith('/phone-number'))).toBe(true);
    const foreign = await admin.post('/api/phone-numbers/', { number: '+14155550101', organizationId: site.organizationId });
    expect(foreign.status).toBe(409);
    expect(foreign.body.error.code).toBe('NUMBER_NOT_IN_ACCOUNT');
    await fake.close();
    const down = await admin.post('/api/phone-numbers/', { number: '+14155550102', organizationId: site.organizationId });
    expect(down.status).toBe(502);
    expect((await t.deps.db.select().from(phoneNumber)).map((row) => row.number)).toEqual(['+14155550100']);
  });
});
