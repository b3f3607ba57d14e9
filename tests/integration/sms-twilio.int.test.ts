import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsMessage } from '../../src/server/db/schema';
import { createTwilioSms, twilioSignature } from '../../src/server/integrations/sms/twilio';
import { SmsSendError } from '../../src/server/integrations/sms/port';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';

const ACCOUNT_SID = 'AC00000000000000000000000000000001';
const AUTH_TOKEN = 'fake-auth-token-0123456789';
const FROM = '+15005550006';

let fake: FakeTwilio;
let t: TestApp;
let site: SignedUp;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(3000 + ++phoneSeq).slice(-4)}`;

beforeAll(async () => {
  fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  t = await createTestApp({ TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_FROM_NUMBER: FROM, TWILIO_API_BASE_URL: fake.baseUrl });
  site = await t.signUp({ organizationName: 'Lakeside Research' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const createCandidate = async (body: Record<string, unknown> = {}) => {
  const answer = await site.actor.post('/api/candidates/', { firstName: 'Sam', phone: nextPhone(), consent: { sms: true }, ...body });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; phone: string };
};

/** A webhook post as Twilio makes it: form-encoded, signed over PUBLIC_BASE_URL + path and the sorted params. */
const signedPost = (path: string, params: Record<string, string>, signature = twilioSignature(AUTH_TOKEN, `${BASE_URL}${path}`, params)) =>
  t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
    body: new URLSearchParams(params).toString(),
  });

describe('the Twilio adapter against a local fake Twilio', () => {
  it('is chosen when configured, and sends with Basic auth and the form fields Twilio expects', async () => {
    expect(t.deps.sms.provider).toBe('twilio');
    const person = await createCandidate();
    const answer = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Your visit is confirmed & set' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ provider: 'twilio', status: 'queued', toPhone: person.phone, fromPhone: FROM });
    expect(answer.body.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.received.at(-1)).toEqual({
      accountSid: ACCOUNT_SID,
      params: { To: person.phone, From: FROM, Body: 'Your visit is confirmed & set', StatusCallback: `${BASE_URL}/api/inbound/sms/status` },
    });
  });

  it('a signed status callback updates the status; a bad or missing signature is 403 and changes nothing', async () => {
    const person = await createCandidate();
    const sent = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hi' });
    const params = { MessageSid: sent.body.providerMessageId, MessageStatus: 'delivered', AccountSid: ACCOUNT_SID, To: person.phone, From: FROM };
    expect((await signedPost('/api/inbound/sms/status', params, 'bm90IGEgc2lnbmF0dXJl')).status).toBe(403);
    expect((await signedPost('/api/inbound/sms/status', params, '')).status).toBe(403);
    // Signed for another URL (the signature covers the exact public address).
    expect((await signedPost('/api/inbound/sms/status', params, twilioSignature(AUTH_TOKEN, 'http://evil.test/api/inbound/sms/status', params))).status).toBe(
      403,
    );
    // Tampered parameters.
    expect(
      (
        await signedPost(
          '/api/inbound/sms/status',
          { ...params, MessageStatus: 'failed' },
          twilioSignature(AUTH_TOKEN, `${BASE_URL}/api/inbound/sms/status`, params),
        )
      ).status,
    ).toBe(403);
    let [row] = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.id, sent.body.id));
    expect(row.status).toBe('queued');
    const ok = await signedPost('/api/inbound/sms/status', params);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/xml');
    [row] = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.id, sent.body.id));
    expect(row.status).toBe('delivered');
  });

  it('a signed inbound STOP revokes consent; an unsigned one is refused', async () => {
    const person = await createCandidate();
    await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hi' });
    const params = { MessageSid: `SM${'a'.repeat(32)}`, AccountSid: ACCOUNT_SID, From: person.phone, To: FROM, Body: 'Stop', NumMedia: '0' };
    expect((await signedPost('/api/inbound/sms', params, '')).status).toBe(403);
    expect(await t.deps.db.select().from(smsMessage).where(eq(smsMessage.providerMessageId, params.MessageSid))).toEqual([]);
    const answer = await signedPost('/api/inbound/sms', params);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Message>Lakeside Research: You are unsubscribed/);
    const refused = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hi again' });
    expect(refused.status).toBe(409);
  });

  it("stores a provider refusal as failed with Twilio's error code", async () => {
    const person = await createCandidate();
    fake.optedOut.add(person.phone);
    const answer = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hi' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'failed', error: '21610', providerMessageId: null });
    const history = await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=sms`);
    expect(history.body.events[0].summary).toBe('SMS failed: message');
  });

  it('the simulator endpoints answer 404 when Twilio is configured', async () => {
    const person = await createCandidate();
    expect((await site.actor.post('/api/sms/simulator/inbound', { candidateId: person.id, body: 'Hi' })).status).toBe(404);
    expect((await site.actor.get('/api/sms/simulator/outbox')).status).toBe(404);
  });

  it('sends through a Messaging Service when one is configured, and reports wrong credentials', async () => {
    const viaService = createTwilioSms({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, messagingServiceSid: 'MG123', apiBaseUrl: fake.baseUrl });
    const result = await viaService.send({ to: '+12125550199', from: '', body: 'Hello' });
    expect(result.status).toBe('queued');
    expect(fake.received.at(-1)!.params).toEqual({ To: '+12125550199', MessagingServiceSid: 'MG123', Body: 'Hello' });
    const wrong = createTwilioSms({ accountSid: ACCOUNT_SID, authToken: 'wrong', fromNumber: FROM, apiBaseUrl: fake.baseUrl });
    await expect(wrong.send({ to: '+12125550199', from: FROM, body: 'Hello' })).rejects.toMatchObject({ code: '20003' });
    await expect(wrong.send({ to: '+12125550199', from: FROM, body: 'Hello' })).rejects.toBeInstanceOf(SmsSendError);
  });

  it('a signed webhook in production is accepted; an unsigned one is 403', async () => {
    const production = await createTestApp({
      NODE_ENV: 'production',
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE_URL: fake.baseUrl,
    });
    try {
      const params = { MessageSid: 'SMnothing', MessageStatus: 'delivered' };
      const request = (signature?: string) =>
        production.app.request('/api/inbound/sms/status', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
          body: new URLSearchParams(params).toString(),
        });
      expect((await request()).status).toBe(403);
      expect((await request(twilioSignature(AUTH_TOKEN, `${BASE_URL}/api/inbound/sms/status`, params))).status).toBe(200);
    } finally {
      await production.close();
    }
  });
});
