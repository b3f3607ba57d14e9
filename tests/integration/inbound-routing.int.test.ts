import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { call, chatConversation, organization, prescreenForm, prescreenFormVersion, smsMessage } from '../../src/server/db/schema';
import { twilioSignature } from '../../src/server/integrations/sms/twilio';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { assignTestNumber } from '../support/phone-numbers';
import { BASE_URL, createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * Inbound traffic is routed by the number it was sent to (issue 35 item 1, decision 118). Two organizations,
 * West and East, each with its own Twilio number, know the same person: a reply or a call to West's number is
 * West's, whoever texted last; STOP to West's number ends West's outreach on every channel and leaves East's
 * alone; a text to a number no organization owns is kept for Cohortly's internal admins. Twilio's webhooks are
 * signed as Twilio signs them; the sends go to a local fake Twilio.
 */

const ACCOUNT_SID = 'AC00000000000000000000000000000035';
const AUTH_TOKEN = 'fake-auth-token-inbound-routing';
const SHARED_SENDER = '+15005550006';
const WEST_NUMBER = '+13125550135';
const EAST_NUMBER = '+16175550135';
const NOBODYS_NUMBER = '+14155550135';

let fake: FakeTwilio;
let t: TestApp;
let west: SignedUp;
let east: SignedUp;
let admin: Actor;
let phoneSeq = 0;
const nextPhone = () => `+1646555${String(1000 + ++phoneSeq).slice(-4)}`;
let sidSeq = 0;
const nextSid = (prefix: 'SM' | 'CA') => `${prefix}${String(++sidSeq).padStart(32, '0')}`;

/**
 * A webhook post as Twilio makes it: form-encoded, signed over PUBLIC_BASE_URL + path and the params. Each is a
 * cross-tenant probe (two organizations know the sender) for `npm run probe:tenancy`.
 */
const signedPost = (path: string, params: Record<string, string>) => {
  t.crossTenant.mark(`POST ${path} (routed by To, two organizations)`);
  return t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(AUTH_TOKEN, `${BASE_URL}${path}`, params) },
    body: new URLSearchParams(params).toString(),
  });
};

/** The person's handset texting `to`. */
const text = (from: string, to: string, body: string) =>
  signedPost('/api/inbound/sms', { MessageSid: nextSid('SM'), AccountSid: ACCOUNT_SID, From: from, To: to, Body: body, NumMedia: '0' });

const createCandidate = async (site: SignedUp, phone: string) => {
  const answer = await site.actor.post('/api/candidates/', { firstName: 'Jordan', phone, consent: { sms: true, calls: true } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
};

const send = (site: SignedUp, candidateId: string, body: string) => site.actor.post('/api/sms/send', { candidateId, body });
const threadBodies = async (site: SignedUp, candidateId: string) =>
  ((await site.actor.get(`/api/sms/threads/${candidateId}`)).body.messages as Array<{ direction: string; body: string }>).map(
    (message) => `${message.direction}: ${message.body}`,
  );

beforeAll(async () => {
  fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, incomingNumbers: [WEST_NUMBER, EAST_NUMBER] });
  t = await createTestApp({
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM_NUMBER: SHARED_SENDER,
    TWILIO_API_BASE_URL: fake.baseUrl,
    VAPI_SERVER_SECRET: 'vapi-secret-inbound-routing',
  });
  west = await t.signUp({ organizationName: 'West Lake Research' });
  east = await t.signUp({ organizationName: 'East Bay Trials' });
  await assignTestNumber(t, west.organizationId, WEST_NUMBER, { provider: 'twilio', purpose: 'both' });
  await assignTestNumber(t, east.organizationId, EAST_NUMBER, { provider: 'twilio', purpose: 'both' });
  admin = await t.signInAdmin();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('inbound SMS, two organizations sharing a person', () => {
  let phone: string;
  let westPerson: string;
  let eastPerson: string;
  beforeAll(async () => {
    phone = nextPhone();
    westPerson = await createCandidate(west, phone);
    eastPerson = await createCandidate(east, phone);
    expect((await send(west, westPerson, 'West Lake: can you come in on Tuesday?')).status).toBe(201);
    // East texts the person after West: the newest outbound message is East's.
    expect((await send(east, eastPerson, 'East Bay: a new study may suit you')).status).toBe(201);
  });

  it('each organization texts from its own number, so the person can answer each one', () => {
    const sent = fake.received.filter((request) => request.params.To === phone);
    expect(sent.map((request) => request.params.From)).toEqual([WEST_NUMBER, EAST_NUMBER]);
  });

  it("a reply to West's number lands in West's thread, not in East's (which texted last)", async () => {
    const answer = await text(phone, WEST_NUMBER, 'Tuesday at 3 works, my asthma is worse lately');
    expect(answer.status).toBe(200);
    expect(await threadBodies(west, westPerson)).toContain('inbound: Tuesday at 3 works, my asthma is worse lately');
    expect(await threadBodies(east, eastPerson)).not.toContain('inbound: Tuesday at 3 works, my asthma is worse lately');
    const stored = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.body, 'Tuesday at 3 works, my asthma is worse lately'));
    expect(stored.map((row) => [row.organizationId, row.candidateId, row.toPhone])).toEqual([[west.organizationId, westPerson, WEST_NUMBER]]);
  });

  it("STOP to West's number ends West's texts and calls; East may still text", async () => {
    const answer = await text(phone, WEST_NUMBER, 'STOP');
    expect(await answer.text()).toContain('<Message>West Lake Research: You are unsubscribed');

    const refused = await send(west, westPerson, 'West Lake: are you still there?');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('opted out');
    const westRecord = (await west.actor.get(`/api/candidates/${westPerson}`)).body;
    expect(westRecord.consent).toMatchObject({ sms: false, calls: false });

    const eastRecord = (await east.actor.get(`/api/candidates/${eastPerson}`)).body;
    expect(eastRecord.consent).toMatchObject({ sms: true, calls: true });
    const allowed = await send(east, eastPerson, 'East Bay: your screening visit is confirmed');
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    expect(fake.received.at(-1)!.params).toMatchObject({ To: phone, From: EAST_NUMBER });
  });

  it("STOP to East's number is East's alone; START to West's re-subscribes West's texts only", async () => {
    expect((await text(phone, EAST_NUMBER, 'stop')).status).toBe(200);
    expect((await send(east, eastPerson, 'East Bay: hello?')).status).toBe(409);
    await text(phone, WEST_NUMBER, 'START');
    expect((await send(west, westPerson, 'West Lake: welcome back')).status).toBe(201);
    expect((await west.actor.get(`/api/candidates/${westPerson}`)).body.consent).toMatchObject({ sms: true, calls: false });
    expect((await send(east, eastPerson, 'East Bay: hello again?')).status).toBe(409);
  });
});

describe('a number no organization owns', () => {
  it('a text to it is kept for internal admins, never put in an organization that knows the sender', async () => {
    const phone = nextPhone();
    const westPerson = await createCandidate(west, phone);
    await send(west, westPerson, 'West Lake: hello');
    const answer = await text(phone, NOBODYS_NUMBER, 'Is this the asthma study?');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(await threadBodies(west, westPerson)).not.toContain('inbound: Is this the asthma study?');

    const unrouted = await admin.get('/api/sms/unrouted');
    expect(unrouted.status).toBe(200);
    expect(unrouted.body.messages).toContainEqual(
      expect.objectContaining({
        organizationId: t.internalOrganizationId,
        candidateId: null,
        fromPhone: phone,
        toPhone: NOBODYS_NUMBER,
        body: 'Is this the asthma study?',
      }),
    );
    // Staff of an organization, and an internal admin acting for one, do not see them.
    expect((await west.actor.get('/api/sms/unrouted')).status).toBe(403);
    const adminInWest = await t.signInAdmin();
    adminInWest.activeOrganizationId = west.organizationId;
    expect((await adminInWest.get('/api/sms/unrouted')).status).toBe(403);
  });

  it('the shared sender: a reply belongs to the one organization that texted the person from it', async () => {
    const phone = nextPhone();
    const westPerson = await createCandidate(west, phone);
    await sentFromSharedSender(west.organizationId, westPerson, phone);
    await text(phone, SHARED_SENDER, 'Yes please call me');
    expect(await threadBodies(west, westPerson)).toContain('inbound: Yes please call me');
  });

  it('the shared sender used by both: a reply is kept for admins, a STOP ends both', async () => {
    const phone = nextPhone();
    const westPerson = await createCandidate(west, phone);
    const eastPerson = await createCandidate(east, phone);
    await sentFromSharedSender(west.organizationId, westPerson, phone);
    await sentFromSharedSender(east.organizationId, eastPerson, phone);
    await text(phone, SHARED_SENDER, 'Which study was this?');
    expect(await threadBodies(west, westPerson)).not.toContain('inbound: Which study was this?');
    expect(await threadBodies(east, eastPerson)).not.toContain('inbound: Which study was this?');
    expect((await admin.get('/api/sms/unrouted')).body.messages.map((message: { body: string }) => message.body)).toContain('Which study was this?');

    await text(phone, SHARED_SENDER, 'Stop');
    expect((await send(west, westPerson, 'West Lake: hi')).status).toBe(409);
    expect((await send(east, eastPerson, 'East Bay: hi')).status).toBe(409);
  });
});

/** A message an organization sent from the shared sender before it had a number of its own. */
async function sentFromSharedSender(organizationId: string, candidateId: string, phone: string) {
  await t.deps.db.insert(smsMessage).values({
    organizationId,
    candidateId,
    direction: 'outbound',
    toPhone: phone,
    fromPhone: SHARED_SENDER,
    body: 'Hello from the study team',
    status: 'delivered',
    purpose: 'transactional',
    provider: 'twilio',
  });
}

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor told you that you have asthma?' }, chat: { en: 'Has a doctor told you that you have asthma?' } },
        required: true,
        criterionLinks: [],
      },
    ],
  },
];

/** A recruiting trial with a published prescreen form: what voice and chat agents need. */
async function trialWithForm(site: SignedUp) {
  const trial = await createRecruitingTrial(site.actor, { title: 'Asthma inhaler study', criteria: [{ kind: 'inclusion', text: 'Diagnosed with asthma' }] });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId: trial.body.id, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  return { trialId: trial.body.id as string, formId: form.id };
}

describe('inbound calls, two organizations sharing a person', () => {
  it("a call to West's number is West's call, with West's candidate", async () => {
    for (const site of [west, east]) {
      const { trialId, formId } = await trialWithForm(site);
      const agent = await site.actor.post('/api/voice-agents/', {
        name: 'Asthma line',
        type: 'PRESCREEN',
        trialId,
        prescreenFormId: formId,
        languages: ['en'],
        firstMessage: { en: 'Hello, thanks for calling the asthma study.' },
        voicemailMessage: { en: 'Please call again.' },
        fromNumber: site === west ? WEST_NUMBER : EAST_NUMBER,
      });
      expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    }
    const phone = nextPhone();
    const westPerson = await createCandidate(west, phone);
    await createCandidate(east, phone);
    const callSid = nextSid('CA');
    const answer = await signedPost('/api/inbound/', {
      AccountSid: ACCOUNT_SID,
      CallSid: callSid,
      From: phone,
      To: WEST_NUMBER,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    expect(answer.status).toBe(200);
    const calls = await t.deps.db.select().from(call).where(eq(call.fromPhone, phone));
    expect(calls.map((row) => [row.organizationId, row.candidateId, row.toPhone])).toEqual([[west.organizationId, westPerson, WEST_NUMBER]]);
  });
});

describe("the public chat's SMS verification, two organizations sharing a person", () => {
  /** A West chat that sends a code to `phone`: the code's message and the conversation's outcome. */
  async function chatVerification(site: SignedUp, phone: string) {
    const [{ publicId }] = await t.deps.db.select({ publicId: organization.publicId }).from(organization).where(eq(organization.id, site.organizationId));
    const visitor = t.actor();
    const started = await visitor.post('/api/chat-conversations/initiate', { organizationId: publicId });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const chat = { id: started.body.conversationId as string, token: started.body.token as string };
    for (const words of ['Jordan', 'yes'])
      expect((await visitor.post(`/api/chat-conversations/${chat.id}/messages`, { token: chat.token, text: words })).status).toBe(200);
    const sent = await visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [code] = await t.deps.db
      .select()
      .from(smsMessage)
      .where(and(eq(smsMessage.organizationId, site.organizationId), eq(smsMessage.toPhone, phone), eq(smsMessage.purpose, 'verification')))
      .orderBy(desc(smsMessage.createdAt))
      .limit(1);
    const [conversation] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    return { code, awaiting: sent.body.awaiting as string, conversation };
  }

  it("West's code comes from West's number; a STOP to it binds West's chat, not East's", async () => {
    for (const site of [west, east]) {
      const { trialId, formId } = await trialWithForm(site);
      const agent = await site.actor.post('/api/chat-agents/internal/', {
        name: 'Asthma assistant',
        type: 'PRESCREEN',
        trialId,
        prescreenFormId: formId,
        greeting: { en: 'Hi!' },
        closingMessage: { en: 'Thanks.' },
        languages: ['en'],
        requirePhoneVerification: true,
        nextStep: 'callback',
        active: true,
      });
      expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    }
    const phone = nextPhone();
    const first = await chatVerification(west, phone);
    expect(first.awaiting).toBe('code');
    expect(first.code).toMatchObject({ fromPhone: WEST_NUMBER, status: 'queued' });
    expect(fake.received.at(-1)!.params).toMatchObject({ To: phone, From: WEST_NUMBER });

    // "I never asked for this": STOP to the number the code came from.
    await text(phone, WEST_NUMBER, 'STOP');
    const [stop] = await t.deps.db
      .select()
      .from(smsMessage)
      .where(and(eq(smsMessage.fromPhone, phone), eq(smsMessage.body, 'STOP')));
    expect(stop.organizationId).toBe(west.organizationId);

    const again = await chatVerification(west, phone);
    expect(again.code).toMatchObject({ status: 'blocked', error: 'sms_opted_out' });
    expect(again.awaiting).not.toBe('code');
    const east1 = await chatVerification(east, phone);
    expect(east1.awaiting).toBe('code');
    expect(east1.code).toMatchObject({ fromPhone: EAST_NUMBER, status: 'queued' });
  });
});
