import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidate, smsMessage } from '../../src/server/db/schema';
import { sendSms } from '../../src/server/features/sms/service';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

let t: TestApp;
let site: SignedUp;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(2000 + ++phoneSeq).slice(-4)}`;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Casey Coordinator', organizationName: 'Harbor Clinical Research' });
});
afterAll(() => t?.close());

const createCandidate = async (body: Record<string, unknown> = {}) => {
  const answer = await site.actor.post('/api/candidates/', { firstName: 'Maria', lastName: 'Lopez', phone: nextPhone(), consent: { sms: true }, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; phone: string };
};
const reply = (candidateId: string, body: string) => site.actor.post('/api/sms/simulator/inbound', { candidateId, body });
const messagesOf = (candidateId: string) => t.deps.db.select().from(smsMessage).where(eq(smsMessage.candidateId, candidateId));
/** A tiny TwiML check: one XML declaration at most, a <Response> root, well-formed nesting. */
function parseTwiml(text: string): { root: string; messages: string[] } {
  const body = text.replace(/^<\?xml[^>]*\?>/, '').trim();
  const stack: string[] = [];
  const messages: string[] = [];
  let root = '';
  const tokens = body.match(/<[^>]+>|[^<]+/g) ?? [];
  for (const token of tokens) {
    if (token.startsWith('</')) {
      expect(stack.pop()).toBe(token.slice(2, -1));
    } else if (token.startsWith('<')) {
      const name = /^<([A-Za-z]+)/.exec(token)![1];
      if (!root) root = name;
      else expect(stack.length, 'a single root').toBeGreaterThan(0);
      if (!token.endsWith('/>')) stack.push(name);
    } else {
      expect(token).not.toMatch(/[<>]|&(?!(amp|lt|gt|apos|quot);)/);
      if (stack.at(-1) === 'Message')
        messages.push(
          token
            .replace(/&amp;/g, '&')
            .replace(/&apos;/g, "'")
            .replace(/&quot;/g, '"')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>'),
        );
    }
  }
  expect(stack).toEqual([]);
  return { root, messages };
}

describe('sending', () => {
  it('sends a template to a consenting candidate: stored, delivered by the simulator, in the thread and the contact history', async () => {
    const person = await createCandidate();
    const answer = await site.actor.post('/api/sms/send', {
      candidateId: person.id,
      templateKey: 'visit_confirmation',
      variables: { trialTitle: 'Asthma study', visitTime: 'Jan 15, 9:30 AM', siteAddress: '1 Main St' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      candidateId: person.id,
      direction: 'outbound',
      toPhone: person.phone,
      status: 'delivered',
      purpose: 'transactional',
      provider: 'simulator',
      templateKey: 'visit_confirmation',
      sentByUserId: site.userId,
      body: 'Hi Maria, your screening visit for Asthma study is confirmed for Jan 15, 9:30 AM at 1 Main St. - Harbor Clinical Research',
    });
    expect(answer.body.providerMessageId).toMatch(/^SIM/);

    const thread = await site.actor.get(`/api/sms/threads/${person.id}`);
    expect(thread.status).toBe(200);
    expect(thread.body.messages.map((m: { id: string }) => m.id)).toEqual([answer.body.id]);
    expect(thread.body.consent).toMatchObject({ consentSms: true, canSend: true, blockReason: null, smsOptedOutAt: null });

    const history = await site.actor.get(`/api/contact-history?candidateId=${person.id}`);
    const sms = history.body.events.filter((e: { kind: string }) => e.kind === 'sms');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({
      summary: 'SMS sent: visit_confirmation',
      referenceId: answer.body.id,
      actor: { userId: site.userId, label: 'Casey Coordinator' },
    });
    expect(JSON.stringify(sms[0])).not.toContain('Asthma study');

    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, answer.body.id));
    expect(audits.map((a) => a.action)).toEqual(['sms.send']);
    expect(JSON.stringify(audits[0].changes)).not.toMatch(/Asthma|Maria|\+1212/);

    const outbox = await site.actor.get('/api/sms/simulator/outbox');
    expect(outbox.body.messages.map((m: { id: string }) => m.id)).toContain(answer.body.id);
  });

  it('sends free text in Spanish templates for Spanish speakers, and free text as transactional', async () => {
    const person = await createCandidate({ preferredLanguage: 'es', firstName: 'Ana' });
    const templated = await site.actor.post('/api/sms/send', {
      candidateId: person.id,
      templateKey: 'follow_up',
      variables: { trialTitle: 'Estudio de asma' },
    });
    expect(templated.body.body).toBe('Hola Ana, gracias por su interés en Estudio de asma. Responda aquí si tiene preguntas. - Harbor Clinical Research');
    const free = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Can you call us back?' });
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({ purpose: 'transactional', templateKey: null, body: 'Can you call us back?' });
  });

  it('answers 400 naming a missing template variable, and for a body and a template together; stores nothing', async () => {
    const person = await createCandidate();
    const missing = await site.actor.post('/api/sms/send', { candidateId: person.id, templateKey: 'visit_reminder', variables: { trialTitle: 'X' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('variables.visitTime');
    expect(missing.body.error.message).toContain('variables.siteAddress');
    const both = await site.actor.post('/api/sms/send', { candidateId: person.id, templateKey: 'follow_up', body: 'Hi' });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('body:');
    expect(await messagesOf(person.id)).toEqual([]);
  });

  it('never texts a do-not-contact candidate: 409, stored as blocked with the reason, shown in the history', async () => {
    const person = await createCandidate({ consent: { sms: true, doNotContact: true } });
    const answer = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hello' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'SMS_BLOCKED' });
    // Words for the coordinator; the code stays in the details for programs.
    expect(answer.body.error.message).toBe('SMS not sent: the candidate is marked do-not-contact.');
    expect(answer.body.error.details).toEqual([{ path: 'candidateId', message: 'do_not_contact' }]);
    const rows = await messagesOf(person.id);
    expect(rows.map((r) => [r.status, r.error, r.providerMessageId])).toEqual([['blocked', 'do_not_contact', null]]);
    const history = await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=sms`);
    expect(history.body.events[0].summary).toBe('SMS not sent (marked do not contact): message');
  });

  it('tells never-consented from opted-out: transactional allowed before consent, nothing after STOP', async () => {
    const person = await createCandidate({ consent: { sms: false } });
    expect((await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Your visit is tomorrow' })).status).toBe(201);
    const marketing = await site.actor.post('/api/sms/send', { candidateId: person.id, templateKey: 'prescreen_invitation', variables: { trialTitle: 'X' } });
    expect(marketing.status).toBe(409);
    expect(marketing.body.error.message).toBe('SMS not sent: the candidate has not consented to marketing messages.');
    expect(marketing.body.error.details).toEqual([{ path: 'candidateId', message: 'no_sms_consent' }]);

    const stop = await reply(person.id, 'STOP');
    expect(stop.body.action).toBe('opt_out');
    const after = await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Your visit is tomorrow' });
    expect(after.status).toBe(409);
    expect(after.body.error.message).toBe('SMS not sent: the candidate opted out of SMS.');
    expect(after.body.error.details).toEqual([{ path: 'candidateId', message: 'sms_opted_out' }]);
    const thread = await site.actor.get(`/api/sms/threads/${person.id}`);
    expect(thread.body.consent).toMatchObject({ consentSms: false, canSend: false, blockReason: 'sms_opted_out' });
    expect(thread.body.consent.smsOptedOutAt).not.toBeNull();
  });

  it("blocks marketing outside 8:00-21:00 in the candidate's time zone (else America/New_York)", async () => {
    const la = await createCandidate({ timeZone: 'America/Los_Angeles' });
    const noZone = await createCandidate();
    const send = (candidateId: string, now: Date) =>
      sendSms(t.deps, {
        organizationId: site.organizationId,
        candidateId,
        templateKey: 'prescreen_invitation',
        variables: { trialTitle: 'Asthma study' },
        purpose: 'marketing',
        now,
      });
    // 14:30 UTC = 7:30 in Los Angeles (too early) and 10:30 in New York.
    const morning = new Date('2030-06-03T14:30:00Z');
    expect(await send(la.id, morning)).toMatchObject({ status: 'blocked', reason: 'quiet_hours' });
    expect(await send(noZone.id, morning)).toMatchObject({ status: 'delivered' });
    // 02:30 UTC = 19:30 in Los Angeles, 22:30 in New York.
    const evening = new Date('2030-06-04T02:30:00Z');
    expect(await send(la.id, evening)).toMatchObject({ status: 'delivered' });
    expect(await send(noZone.id, evening)).toMatchObject({ status: 'blocked', reason: 'quiet_hours' });
    // The boundary: 21:00 sharp is outside, 8:00 sharp inside (New York, EDT = UTC-4).
    expect(await send(noZone.id, new Date('2030-06-04T01:00:00Z'))).toMatchObject({ status: 'blocked', reason: 'quiet_hours' });
    expect(await send(noZone.id, new Date('2030-06-03T12:00:00Z'))).toMatchObject({ status: 'delivered' });
    // Transactional messages have no quiet hours.
    expect(
      await sendSms(t.deps, { organizationId: site.organizationId, candidateId: la.id, body: 'Visit moved', purpose: 'transactional', now: morning }),
    ).toMatchObject({ status: 'delivered' });
  });

  it("sends a verification code to a visitor's number with no candidate, unless that number opted out", async () => {
    const visitor = nextPhone();
    const first = await sendSms(t.deps, { organizationId: site.organizationId, to: visitor, body: 'Your code is 123456', purpose: 'verification' });
    expect(first).toMatchObject({ status: 'delivered', message: { candidateId: null, toPhone: visitor, purpose: 'verification' } });
    const stop = await site.actor.post('/api/sms/simulator/inbound', { from: visitor, body: 'stop' });
    expect(stop.body).toMatchObject({ action: 'opt_out', message: { organizationId: site.organizationId, candidateId: null } });
    expect(await sendSms(t.deps, { organizationId: site.organizationId, to: visitor, body: 'Your code is 654321', purpose: 'verification' })).toMatchObject({
      status: 'blocked',
      reason: 'sms_opted_out',
    });
    await site.actor.post('/api/sms/simulator/inbound', { from: visitor, body: 'START' });
    expect(await sendSms(t.deps, { organizationId: site.organizationId, to: visitor, body: 'Your code is 111111', purpose: 'verification' })).toMatchObject({
      status: 'delivered',
    });
  });

  it('returns blocked without storing anything for a candidate with no phone', async () => {
    const person = await createCandidate({ phone: undefined });
    expect(await sendSms(t.deps, { organizationId: site.organizationId, candidateId: person.id, body: 'Hi', purpose: 'transactional' })).toEqual({
      status: 'blocked',
      reason: 'no_phone',
      message: null,
    });
    expect(await messagesOf(person.id)).toEqual([]);
  });
});

describe('inbound replies and keywords', () => {
  const OPT_OUTS = [
    'STOP',
    'stop',
    'Stop.',
    ' STOP! ',
    'STOPALL',
    'UNSUBSCRIBE',
    'cancel',
    'END',
    'Quit',
    'REVOKE',
    'OPTOUT',
    'opt-out',
    'Stop texting me',
    'please stop!',
    'No more texts.',
    'unsubscribe me',
    'Alto',
  ];
  for (const word of OPT_OUTS) {
    it(`"${word}" revokes SMS consent at once and answers with an opt-out confirmation`, async () => {
      const person = await createCandidate();
      const answer = await reply(person.id, word);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.action).toBe('opt_out');
      const twiml = parseTwiml(answer.body.twiml);
      expect(twiml.root).toBe('Response');
      expect(twiml.messages[0]).toContain('unsubscribed');
      const [row] = await t.deps.db.select().from(candidate).where(eq(candidate.id, person.id));
      expect(row.consentSms).toBe(false);
      expect((await sendSms(t.deps, { organizationId: site.organizationId, candidateId: person.id, body: 'Hi', purpose: 'transactional' })).status).toBe(
        'blocked',
      );
    });
  }

  it('does not treat sentences that merely contain a keyword as opt-outs', async () => {
    const person = await createCandidate();
    for (const body of ['I will stop by tomorrow', 'Can I cancel my visit?', 'At the end of the day works']) {
      expect((await reply(person.id, body)).body.action).toBe('none');
    }
    const [row] = await t.deps.db.select().from(candidate).where(eq(candidate.id, person.id));
    expect(row.consentSms).toBe(true);
  });

  it('START re-subscribes; YES re-subscribes only someone who opted out', async () => {
    const person = await createCandidate({ consent: { sms: false } });
    expect((await reply(person.id, 'yes')).body.action).toBe('none');
    await reply(person.id, 'STOP');
    const yes = await reply(person.id, 'Yes');
    expect(yes.body.action).toBe('opt_in');
    await reply(person.id, 'STOP');
    const start = await reply(person.id, 'start');
    expect(start.body.action).toBe('opt_in');
    expect(parseTwiml(start.body.twiml).messages[0]).toContain('subscribed to messages again');
    const [row] = await t.deps.db.select().from(candidate).where(eq(candidate.id, person.id));
    expect(row.consentSms).toBe(true);
    expect((await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Welcome back' })).status).toBe(201);
    const consent = await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=consent`);
    expect(consent.body.events.map((e: { summary: string }) => e.summary)).toEqual([
      'Consent: SMS off (replied STOP)',
      'Consent: SMS on (replied START)',
      'Consent: SMS off (replied STOP)',
      'Consent: SMS on (replied START)',
    ]);
  });

  it("HELP and INFO answer with the organization's name and a contact line, and change nothing", async () => {
    const person = await createCandidate();
    for (const word of ['HELP', 'info']) {
      const answer = await reply(person.id, word);
      expect(answer.body.action).toBe('help');
      const [message] = parseTwiml(answer.body.twiml).messages;
      expect(message).toContain('Harbor Clinical Research');
      expect(message).toContain('STOP');
    }
    const [row] = await t.deps.db.select().from(candidate).where(eq(candidate.id, person.id));
    expect(row.consentSms).toBe(true);
  });

  it('an ordinary reply lands in the thread and the contact history, answered with an empty TwiML', async () => {
    const person = await createCandidate();
    await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Are you free Tuesday?' });
    const answer = await reply(person.id, 'Yes, after 3pm');
    expect(answer.body.action).toBe('none');
    expect(parseTwiml(answer.body.twiml)).toEqual({ root: 'Response', messages: [] });
    const thread = await site.actor.get(`/api/sms/threads/${person.id}`);
    expect(thread.body.messages.map((m: { direction: string; body: string }) => [m.direction, m.body])).toEqual([
      ['outbound', 'Are you free Tuesday?'],
      ['inbound', 'Yes, after 3pm'],
    ]);
    const threads = await site.actor.get('/api/sms/threads');
    expect(threads.status, JSON.stringify(threads.body)).toBe(200);
    const mine = threads.body.threads.find((row: { candidateId: string }) => row.candidateId === person.id);
    expect(mine).toMatchObject({
      candidate: { firstName: 'Maria', lastName: 'Lopez' },
      messageCount: 2,
      inboundCount: 1,
      unansweredCount: 1,
      lastMessage: { direction: 'inbound', body: 'Yes, after 3pm' },
    });
    const history = await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=sms`);
    expect(history.body.events.map((e: { summary: string }) => e.summary)).toEqual(['SMS sent: message', 'SMS received']);
  });

  it('the webhook routes a reply to the organization that last texted the number; a redelivered MessageSid is stored once', async () => {
    const person = await createCandidate();
    await site.actor.post('/api/sms/send', { candidateId: person.id, body: 'Hello' });
    // Consent given at creation is in the history already (with its source); the STOP adds exactly one more.
    const consentBefore = (await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=consent`)).body.events.length;
    const post = () =>
      t.app.request('/api/inbound/sms', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ MessageSid: 'SMdeadbeef0001', From: person.phone, To: t.deps.sms.fromNumber, Body: 'STOP' }).toString(),
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/xml');
    expect(parseTwiml(await first.text()).messages).toHaveLength(1);
    const second = await post();
    expect(second.status).toBe(200);
    expect(parseTwiml(await second.text())).toEqual({ root: 'Response', messages: [] });
    const inbound = await t.deps.db
      .select()
      .from(smsMessage)
      .where(and(eq(smsMessage.candidateId, person.id), eq(smsMessage.direction, 'inbound')));
    expect(inbound).toHaveLength(1);
    expect(inbound[0]).toMatchObject({ organizationId: site.organizationId, providerMessageId: 'SMdeadbeef0001', status: 'received' });
    const consent = await site.actor.get(`/api/contact-history?candidateId=${person.id}&kind=consent`);
    expect(consent.body.events).toHaveLength(consentBefore + 1);
  });

  it('the status webhook moves a message forward, never backwards', async () => {
    const person = await createCandidate();
    const sent = await sendSms(t.deps, { organizationId: site.organizationId, candidateId: person.id, body: 'Hi', purpose: 'transactional' });
    const sid = sent.message!.providerMessageId!;
    await t.deps.db.update(smsMessage).set({ status: 'sent' }).where(eq(smsMessage.id, sent.message!.id));
    const status = (MessageStatus: string, extra: Record<string, string> = {}) =>
      t.app.request('/api/inbound/sms/status', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ MessageSid: sid, MessageStatus, ...extra }).toString(),
      });
    expect((await status('undelivered', { ErrorCode: '30003' })).status).toBe(200);
    expect((await status('sent')).status).toBe(200);
    const [row] = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.id, sent.message!.id));
    expect(row).toMatchObject({ status: 'undelivered', error: '30003' });
    expect((await status('delivered', { MessageSid: 'SMunknown' })).status).toBe(200);
  });

  it('lists templates with purposes and variables', async () => {
    const answer = await site.actor.get('/api/sms/templates');
    expect(answer.status).toBe(200);
    const keys = answer.body.templates.map((tpl: { key: string }) => tpl.key);
    expect(keys).toEqual(['visit_confirmation', 'visit_reminder', 'prescreen_invitation', 'callback_notice', 'follow_up', 'booking_feedback']);
    expect(answer.body.templates.find((tpl: { key: string }) => tpl.key === 'prescreen_invitation')).toMatchObject({
      purpose: 'marketing',
      variables: ['firstName', 'organizationName', 'trialTitle'],
    });
  });

  it('webhooks without a configured auth token are accepted outside production only', async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    try {
      expect(production.deps.config.isProduction).toBe(true);
      for (const path of ['/api/inbound/sms', '/api/inbound/sms/status']) {
        const answer = await production.app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'MessageSid=SM1&From=%2B12125550100&Body=STOP&MessageStatus=delivered',
        });
        expect(answer.status).toBe(403);
      }
      expect(await production.deps.db.select().from(smsMessage)).toEqual([]);
    } finally {
      await production.close();
    }
  }, 90_000); // two apps, each migrating its own database
});
