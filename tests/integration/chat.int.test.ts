import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  activityEvent,
  auditLog,
  candidate,
  chatConversation,
  chatMessage,
  organization,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  requestThrottle,
  satisfactionResponse,
  smsMessage,
} from '../../src/server/db/schema';
import { CHAT_LIMITS, hit } from '../../src/server/features/chat/throttle';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * Chat agents, the public conversation API and the staff view, through the HTTP app. The verification code
 * is read from the simulated SMS (sms_message body), never logged.
 */

let t: TestApp;
let site: SignedUp;
let publicId: string;
let trialId: string;
let formId: string;
let otherTrialFormId: string;
let agentId: string;
let phoneSeq = 0;

const nextPhone = () => `+1212555${String(3000 + ++phoneSeq)}`;

const blocksFor = (criteria: { age: string; asthma: string; smoker: string }): StudyBlock[] => [
  {
    id: 'about',
    title: { en: 'About you', es: 'Sobre usted' },
    questions: [
      {
        id: 'dob',
        type: 'date',
        wording: { phone: { en: 'What is your date of birth?' }, chat: { en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.age, when: { op: 'age_lt', value: 18 }, then: 'not_met', otherwise: 'met' }],
      },
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Asthma?' }, chat: { en: 'Has a doctor told you that you have asthma?', es: '¿Un médico le ha dicho que tiene asma?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.asthma, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
      {
        id: 'smoke',
        type: 'yes_no',
        wording: { phone: { en: 'Smoke?' }, chat: { en: 'Do you smoke?', es: '¿Fuma?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.smoker, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
    ],
  },
];

async function insertForm(organizationId: string, forTrialId: string, blocks: StudyBlock[], status: 'draft' | 'published' = 'published') {
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId, trialId: forTrialId, name: 'Asthma chat form', status, currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId, formId: form.id, version: 1, blocks });
  return form.id;
}

const agentBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Asthma study assistant',
  type: 'PRESCREEN',
  trialId,
  prescreenFormId: formId,
  greeting: { en: 'Hi! Let us see whether our asthma study could suit you.', es: '¡Hola! Veamos si nuestro estudio de asma podría ser para usted.' },
  closingMessage: { en: 'Thank you for chatting with us.', es: 'Gracias por conversar con nosotros.' },
  languages: ['en', 'es'],
  requirePhoneVerification: true,
  nextStep: 'callback',
  active: true,
  ...overrides,
});

async function codeSentTo(phone: string): Promise<string> {
  const [row] = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.toPhone, phone)).orderBy(desc(smsMessage.createdAt)).limit(1);
  const code = /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error('no verification code was sent');
  return code;
}

interface Chat {
  visitor: Actor;
  id: string;
  token: string;
}

async function start(body: Record<string, unknown> = {}): Promise<Chat & { body: any }> {
  const visitor = t.actor();
  const answer = await visitor.post('/api/chat-conversations/initiate', { organizationId: publicId, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { visitor, id: answer.body.conversationId, token: answer.body.token, body: answer.body };
}

const say = (chat: Chat, text: string) => chat.visitor.post(`/api/chat-conversations/${chat.id}/messages`, { token: chat.token, text });

async function sayOk(chat: Chat, text: string) {
  const answer = await say(chat, text);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Name, consent, phone and code: the conversation is then at the first question. */
async function verified(chat: Chat, phone: string, name = 'Maria') {
  await sayOk(chat, name);
  const consent = await sayOk(chat, 'yes');
  expect(consent.awaiting).toBe('phone');
  const sent = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(sent.body.awaiting).toBe('code');
  const confirmed = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, code: await codeSentTo(phone) });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  expect(confirmed.body).toMatchObject({ phoneVerified: true, awaiting: 'text' });
  return confirmed.body;
}

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Casey Coordinator', organizationName: 'Lakeside Clinical Research' });
  [{ publicId }] = await t.deps.db.select({ publicId: organization.publicId }).from(organization).where(eq(organization.id, site.organizationId));
  const created = await createRecruitingTrial(site.actor, {
    title: 'A randomized trial of inhaler XR-12 in adults with moderate asthma',
    publicTitle: 'Asthma inhaler study',
    summary: 'A 12-week study of a new asthma inhaler.',
    conditions: ['Asthma'],
    sites: [{ name: 'Lakeside Clinic', city: 'Chicago', region: 'IL', timeZone: 'America/Chicago' }],
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 or older' },
      { kind: 'inclusion', text: 'Diagnosed with asthma' },
      { kind: 'exclusion', text: 'Current smoker' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  trialId = created.body.id;
  const [age, asthma, smoker] = created.body.criteria.map((criterion: { id: string }) => criterion.id);
  formId = await insertForm(site.organizationId, trialId, blocksFor({ age, asthma, smoker }));
  const other = await createRecruitingTrial(site.actor, { title: 'Another trial', criteria: [{ kind: 'inclusion', text: 'Adult' }] });
  otherTrialFormId = await insertForm(site.organizationId, other.body.id, [], 'draft');
});
afterAll(() => t?.close());

describe('chat agents (staff)', () => {
  it('creates, lists, reads, changes and deletes an agent, audited', async () => {
    const created = await site.actor.post('/api/chat-agents/internal/', agentBody());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      organizationId: site.organizationId,
      name: 'Asthma study assistant',
      type: 'PRESCREEN',
      trialId,
      // The agents table names the trial briefly (issue 32): its brief title, shorter than the official one.
      trialTitle: 'Asthma inhaler study',
      prescreenFormId: formId,
      prescreenFormStatus: 'published',
      languages: ['en', 'es'],
      requirePhoneVerification: true,
      nextStep: 'callback',
      active: true,
    });
    agentId = created.body.id;

    const list = await site.actor.get('/api/chat-agents/internal/?type=PRESCREEN&search=asthma');
    expect(list.body.total).toBe(1);
    expect(list.body.chatAgents[0].id).toBe(agentId);
    expect((await site.actor.get('/api/chat-agents/internal/?search=nothing-like-it')).body).toEqual({ chatAgents: [], total: 0 });
    expect((await site.actor.get(`/api/chat-agents/internal/?organizationId=${site.organizationId}`)).body.total).toBe(1);

    const spare = await site.actor.post('/api/chat-agents/internal/', agentBody({ name: 'Spare agent', active: false }));
    expect(spare.status).toBe(201);
    const patched = await site.actor.patch(`/api/chat-agents/internal/${spare.body.id}`, { name: 'Renamed agent', nextStep: 'visit', languages: ['en'] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed agent', nextStep: 'visit', languages: ['en'], active: false });
    expect((await site.actor.get(`/api/chat-agents/internal/${spare.body.id}`)).body.name).toBe('Renamed agent');
    expect((await site.actor.delete(`/api/chat-agents/internal/${spare.body.id}`)).status).toBe(204);
    expect((await site.actor.get(`/api/chat-agents/internal/${spare.body.id}`)).status).toBe(404);

    const actions = (await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, spare.body.id))).map((row) => row.action).sort();
    expect(actions).toEqual(['chat_agent.create', 'chat_agent.delete', 'chat_agent.update']);
  });

  it('validates: a form of another trial (400), unknown trial (404), missing fields (400), bad ids (404)', async () => {
    const wrongForm = await site.actor.post('/api/chat-agents/internal/', agentBody({ prescreenFormId: otherTrialFormId }));
    expect(wrongForm.status).toBe(400);
    expect(wrongForm.body.error.message).toMatch(/prescreenFormId/);
    expect((await site.actor.post('/api/chat-agents/internal/', agentBody({ trialId: '00000000-0000-4000-8000-000000000000' }))).status).toBe(404);
    const missing = await site.actor.post('/api/chat-agents/internal/', { name: 'x', trialId, prescreenFormId: formId });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/greeting/);
    expect((await site.actor.post('/api/chat-agents/internal/', agentBody({ nextStep: 'teleport' }))).status).toBe(400);
    expect((await site.actor.patch(`/api/chat-agents/internal/${agentId}`, {})).status).toBe(400);
    expect((await site.actor.get('/api/chat-agents/internal/not-a-uuid')).status).toBe(404);
    expect((await t.actor().get('/api/chat-agents/internal/')).status).toBe(401);
  });
});

describe('a chat from initiate to a prescreen result', () => {
  it('greets, verifies the phone, asks the form, records a PASS from chat and completes', async () => {
    const phone = nextPhone();
    const chat = await start();
    expect(chat.body).toMatchObject({
      status: 'ONGOING',
      language: 'en',
      awaiting: 'text',
      isTest: false,
      phoneVerified: false,
      agent: { id: agentId },
      organization: { id: site.organizationId, publicId },
    });
    expect(chat.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(chat.body.messages.map((message: { text: string }) => message.text)).toEqual([
      'Hi! Let us see whether our asthma study could suit you.',
      'To start, what is your first name?',
    ]);

    // The token is stored hashed, never as given.
    const [stored] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    expect(stored.tokenHash).not.toContain(chat.token);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    await sayOk(chat, "Hi, I'm Maria");
    const consent = await sayOk(chat, 'sure');
    expect(consent.awaiting).toBe('phone');
    expect(consent.messages[0]).toMatchObject({ role: 'visitor', text: 'sure' });

    const sent = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone: phone.replace('+1', '') });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.messages[0].text).not.toContain(phone.slice(-7));
    const [codeRow] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    expect(codeRow.verificationCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(codeRow.verificationExpiresAt!.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    const code = await codeSentTo(phone);
    expect(codeRow.verificationCodeHash).not.toContain(code);

    const wrong = await chat.visitor.post('/api/chat-conversations/verify', {
      conversationId: chat.id,
      token: chat.token,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ phoneVerified: false, awaiting: 'code' });
    expect(wrong.body.messages.at(-1).text).toMatch(/4 attempts left/);

    const confirmed = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, code });
    expect(confirmed.body).toMatchObject({ phoneVerified: true, awaiting: 'text' });
    expect(confirmed.body.messages.at(-1)).toMatchObject({
      role: 'agent',
      kind: 'question',
      questionId: 'dob',
      inputType: 'date',
      text: 'What is your date of birth?',
    });

    const [linked] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, linked.candidateId!));
    expect(person).toMatchObject({ firstName: 'Maria', phone, source: 'web_chat', consentSms: true, consentCalls: true, organizationId: site.organizationId });

    await sayOk(chat, '03/15/1970');
    await sayOk(chat, 'yeah');
    const last = await sayOk(chat, 'no never');
    expect(last).toMatchObject({ status: 'COMPLETED', awaiting: 'none' });
    // Issue 32: one closing message, the agent's words then the next step.
    expect(last.messages.at(-1)).toMatchObject({
      kind: 'next_step',
      text: 'Thank you for chatting with us. A member of the study team will call you back soon.',
    });
    expect(last.messages.filter((message: { kind: string }) => message.kind === 'closing' || message.kind === 'next_step')).toHaveLength(1);

    const [done] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    expect(done.status).toBe('COMPLETED');
    expect(done.completedAt).not.toBeNull();
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, done.prescreenResultId!));
    expect(result).toMatchObject({ sourceType: 'chat', sourceId: chat.id, candidateId: person.id, aiRecommendation: 'PASS', createdByUserId: null });
    expect(result.answers).toEqual([
      expect.objectContaining({ questionId: 'dob', value: '1970-03-15', evidence: '03/15/1970' }),
      expect.objectContaining({ questionId: 'asthma', value: true, evidence: 'yeah' }),
      expect.objectContaining({ questionId: 'smoke', value: false, evidence: 'no never' }),
    ]);

    const history = (await site.actor.get(`/api/contact-history?candidateId=${person.id}&order=asc`)).body.events as Array<{ kind: string; summary: string }>;
    const summaries = history.map((event) => `${event.kind}: ${event.summary}`);
    expect(summaries).toEqual(expect.arrayContaining(['chat: Chat started', 'chat: Chat completed: PASS', 'prescreen: Prescreen (chat): PASS']));
    expect((await site.actor.get(`/api/candidates/${person.id}`)).body).toMatchObject({ status: 'prescreen_passed', trialIds: [trialId] });

    // After the end, messages are refused; the transcript is still there to resume.
    expect((await say(chat, 'hello?')).status).toBe(409);
    const resumed = await chat.visitor.get(`/api/chat-conversations/${chat.id}/public?token=${chat.token}`);
    expect(resumed.body).toMatchObject({ status: 'COMPLETED', awaiting: 'none', phoneVerified: true });
    // Codes never appear in the transcript.
    const texts = (await t.deps.db.select().from(chatMessage).where(eq(chatMessage.conversationId, chat.id))).map((row) => row.text);
    expect(texts.some((text) => text.includes(code))).toBe(false);
  });

  it('links an existing candidate with the verified phone instead of creating one', async () => {
    const phone = nextPhone();
    const existing = await site.actor.post('/api/candidates/', { firstName: 'Existing', lastName: 'Person', phone });
    expect(existing.status).toBe(201);
    const chat = await start();
    await verified(chat, phone, 'Whoever');
    const [row] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    expect(row.candidateId).toBe(existing.body.id);
    const people = await t.deps.db
      .select()
      .from(candidate)
      .where(and(eq(candidate.organizationId, site.organizationId), eq(candidate.phone, phone)));
    expect(people).toHaveLength(1);
    expect(people[0].firstName).toBe('Existing');
  });

  it('"stop" ends the chat and still records what was answered (INCONCLUSIVE)', async () => {
    const chat = await start();
    await verified(chat, nextPhone());
    await sayOk(chat, '1970-03-15');
    const stopped = await sayOk(chat, 'stop');
    expect(stopped).toMatchObject({ status: 'COMPLETED', awaiting: 'none' });
    expect(stopped.messages.at(-2).text).toMatch(/We will stop here/);
    const [row] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    const [result] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, row.prescreenResultId!));
    expect(result.aiRecommendation).toBe('INCONCLUSIVE');
    expect(result.answers).toEqual([expect.objectContaining({ questionId: 'dob', value: '1970-03-15' })]);
  });

  it('a finished chat asks for a 1-5 rating once: stored with its comment, counted as activity, in the contact history', async () => {
    const chat = await start();
    expect(chat.body.rated).toBe(false);
    const rate = (body: Record<string, unknown>) => chat.visitor.post(`/api/chat-conversations/${chat.id}/rating`, { token: chat.token, ...body });
    expect((await rate({ rating: 5 })).status, 'not finished yet').toBe(409);
    await verified(chat, nextPhone());
    await sayOk(chat, '1970-03-15');
    await sayOk(chat, 'stop');
    expect((await rate({ rating: 6 })).status).toBe(400);
    expect((await rate({ rating: 3.5 })).status).toBe(400);
    const rated = await rate({ rating: 4, comment: 'Quick and clear' });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    expect(rated.body).toMatchObject({ rated: true, messages: [expect.objectContaining({ role: 'agent', text: 'Thank you for your feedback!' })] });
    expect((await rate({ rating: 1 })).status, 'once per chat').toBe(409);
    expect((await chat.visitor.get(`/api/chat-conversations/${chat.id}/public?token=${chat.token}`)).body.rated).toBe(true);

    const [stored] = await t.deps.db.select().from(satisfactionResponse).where(eq(satisfactionResponse.referenceId, chat.id));
    expect(stored).toMatchObject({ channel: 'chat', rating: 4, comment: 'Quick and clear', organizationId: site.organizationId });
    expect(stored.candidateId).toBeTruthy();
    const [event] = await t.deps.db
      .select()
      .from(activityEvent)
      .where(and(eq(activityEvent.kind, 'satisfaction_rated'), eq(activityEvent.referenceId, stored.id)));
    expect(event).toMatchObject({ source: 'chat', value: 4, trialId, label: '4' });
    const history = await site.actor.get(`/api/contact-history?candidateId=${stored.candidateId}`);
    expect(history.body.events.map((item: { summary: string }) => item.summary)).toContain('Chat rated 4/5 with a comment');
  });

  it('runs in Spanish when asked, and the phone and code can be typed as messages', async () => {
    const phone = nextPhone();
    const chat = await start({ language: 'es' });
    expect(chat.body.messages[0].text).toMatch(/^¡Hola!/);
    await sayOk(chat, 'Me llamo Ana');
    await sayOk(chat, 'sí');
    const sent = await sayOk(chat, phone);
    expect(sent.awaiting).toBe('code');
    const code = await codeSentTo(phone);
    const confirmed = await sayOk(chat, code);
    expect(confirmed.phoneVerified).toBe(true);
    expect(confirmed.messages[0].text).toBe('••••••');
    expect(confirmed.messages.at(-1).text).toBe('¿Cuál es su fecha de nacimiento?');
    await sayOk(chat, '15 de marzo de 1970');
    await sayOk(chat, 'claro');
    const last = await sayOk(chat, 'nunca');
    expect(last.status).toBe('COMPLETED');
    expect(last.messages.at(-1).text).toMatch(/^Gracias por conversar con nosotros\. /);
  });

  it('without phone verification: the candidate is created at the end from the name (and phone, if given)', async () => {
    const open = await site.actor.post('/api/chat-agents/internal/', agentBody({ name: 'Open agent', requirePhoneVerification: false, nextStep: 'visit' }));
    const chat = await start({ chatAgentId: open.body.id });
    await sayOk(chat, 'Sam');
    const consent = await sayOk(chat, 'yes');
    expect(consent.awaiting).toBe('text');
    await sayOk(chat, '1980-01-02');
    await sayOk(chat, 'yes');
    const askPhone = await sayOk(chat, 'no');
    expect(askPhone.messages.at(-1).text).toMatch(/best phone number/);
    const phone = nextPhone();
    const last = await sayOk(chat, phone);
    expect(last.status).toBe('COMPLETED');
    expect(last.messages.at(-1).text).toMatch(/screening visit/);
    const [row] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, row.candidateId!));
    expect(person).toMatchObject({ firstName: 'Sam', phone, source: 'web_chat', consentSms: true });
    expect(row.prescreenResultId).not.toBeNull();
    expect((await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone })).status).toBe(409);
  });

  it('issue 15: a chat promising a call back collects a way to reach the person, and saves the date of birth', async () => {
    const open = await site.actor.post(
      '/api/chat-agents/internal/',
      agentBody({ name: 'Callback agent', requirePhoneVerification: false, nextStep: 'callback' }),
    );
    const chat = await start({ chatAgentId: open.body.id });
    await sayOk(chat, 'Rosa');
    // Not an answer to the consent question: asked again, then moved on without recording a "no".
    await sayOk(chat, 'not sure');
    await sayOk(chat, 'hmm');
    const moved = await sayOk(chat, 'what?');
    expect(moved.awaiting).toBe('text');
    await sayOk(chat, 'March 15, 1970');
    await sayOk(chat, 'yes');
    const ask = await sayOk(chat, 'no');
    expect(ask.status).toBe('ONGOING');
    expect(ask.messages.at(-1).text).toMatch(/best phone number or email/);
    const pushBack = await sayOk(chat, 'skip');
    expect(pushBack.messages.at(-1).text).toMatch(/needs a phone number or an email/);
    const last = await sayOk(chat, 'rosa.diaz@example.test');
    expect(last.status).toBe('COMPLETED');
    expect(last.messages.at(-1).text).toMatch(/A member of the study team will call you back soon\.$/);

    const [row] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, row.candidateId!));
    expect(person).toMatchObject({ firstName: 'Rosa', email: 'rosa.diaz@example.test', dateOfBirth: '1970-03-15', consentSms: false, consentCalls: false });
    const events = await site.actor.get(`/api/contact-history?candidateId=${person.id}`);
    expect(events.body.events.some((event: { kind: string }) => event.kind === 'consent')).toBe(false);
    expect(events.body.events.map((event: { summary: string }) => event.summary)).toContain('Details from chat: dateOfBirth');
    // The transcript keeps the email out of the understood values.
    const messages = await t.deps.db.select().from(chatMessage).where(eq(chatMessage.conversationId, chat.id));
    expect(JSON.stringify(messages.map((message) => message.meta))).not.toContain('rosa.diaz');
  });

  it('issue 15: a visitor who gives no way to reach them is not promised a call back; consent stated in chat is documented', async () => {
    const open = await site.actor.post(
      '/api/chat-agents/internal/',
      agentBody({ name: 'Callback agent 2', requirePhoneVerification: false, nextStep: 'callback' }),
    );
    const chat = await start({ chatAgentId: open.body.id });
    await sayOk(chat, 'Omar');
    await sayOk(chat, 'yes');
    await sayOk(chat, '1980-01-02');
    await sayOk(chat, 'yes');
    await sayOk(chat, 'no');
    await sayOk(chat, 'skip');
    const last = await sayOk(chat, 'no thanks');
    expect(last.status).toBe('COMPLETED');
    const texts = last.messages.map((message: { text: string }) => message.text);
    expect(texts.some((text: string) => /call you back/.test(text))).toBe(false);
    expect(texts.some((text: string) => /cannot contact you/.test(text))).toBe(true);
    const [row] = await t.deps.db.select().from(chatConversation).where(eq(chatConversation.id, chat.id));
    const [person] = await t.deps.db.select().from(candidate).where(eq(candidate.id, row.candidateId!));
    expect(person).toMatchObject({ consentSms: true, consentSmsSource: 'Web chat (stated by the visitor)', dateOfBirth: '1980-01-02' });
  });

  it('five wrong codes use the code up; a new one must be requested', async () => {
    const phone = nextPhone();
    const chat = await start();
    await sayOk(chat, 'Lee');
    await sayOk(chat, 'no');
    await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone });
    const code = await codeSentTo(phone);
    const wrongCode = code === '999999' ? '888888' : '999999';
    let answer;
    for (let i = 0; i < 5; i++)
      answer = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, code: wrongCode });
    expect(answer!.body).toMatchObject({ phoneVerified: false, awaiting: 'phone' });
    expect((await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, code })).status).toBe(409);
  });

  it('issue 32: with the SMS simulator the turn carries the text a phone would receive; with a real provider it never does', async () => {
    const chat = await start();
    await sayOk(chat, 'Sam');
    await sayOk(chat, 'yes');
    const phone = nextPhone();
    const sent = await chat.visitor.post('/api/chat-conversations/verify', { conversationId: chat.id, token: chat.token, phone });
    expect(sent.body.awaiting).toBe('code');
    const code = await codeSentTo(phone);
    expect(sent.body.simulatedText).toBe(`Your verification code is ${code}. It expires in 10 minutes.`);
    // Only the turn that sent the code carries it; a wrong code's answer does not repeat it.
    const wrong = await chat.visitor.post('/api/chat-conversations/verify', {
      conversationId: chat.id,
      token: chat.token,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.body.simulatedText).toBeUndefined();

    // A real provider (here the simulator's sending, under a real provider's name): the code stays on the phone.
    const simulator = t.deps.sms;
    t.deps.sms = { provider: 'twilio', fromNumber: simulator.fromNumber, send: (request) => simulator.send(request) };
    try {
      const other = await start();
      await sayOk(other, 'Kim');
      await sayOk(other, 'yes');
      const real = await other.visitor.post('/api/chat-conversations/verify', { conversationId: other.id, token: other.token, phone: nextPhone() });
      expect(real.body.awaiting).toBe('code');
      expect(real.body).not.toHaveProperty('simulatedText');
      expect(JSON.stringify(real.body)).not.toMatch(/verification code is/);
    } finally {
      t.deps.sms = simulator;
    }
  });
});

describe('public endpoint rules', () => {
  it('resume with the right token gives the messages; a wrong token or another conversation gets 404', async () => {
    const one = await start();
    const two = await start();
    await sayOk(one, 'Robin');
    const resumed = await one.visitor.get(`/api/chat-conversations/${one.id}/public?token=${one.token}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ conversationId: one.id, status: 'ONGOING', awaiting: 'text', agent: { id: agentId } });
    expect(resumed.body.messages.map((message: { role: string }) => message.role)).toEqual(['agent', 'agent', 'visitor', 'agent']);

    const wrong = await one.visitor.get(`/api/chat-conversations/${one.id}/public?token=${two.token.slice(0, -2)}xx`);
    expect(wrong.status).toBe(404);
    expect(JSON.stringify(wrong.body)).not.toContain('Robin');
    // Another conversation's id with this token, and this id with the other's token.
    expect((await one.visitor.get(`/api/chat-conversations/${two.id}/public?token=${one.token}`)).status).toBe(404);
    expect((await one.visitor.post(`/api/chat-conversations/${two.id}/messages`, { token: one.token, text: 'hi' })).status).toBe(404);
    expect((await one.visitor.post('/api/chat-conversations/verify', { conversationId: two.id, token: one.token, phone: nextPhone() })).status).toBe(404);
    expect((await one.visitor.get(`/api/chat-conversations/not-a-uuid/public?token=${one.token}`)).status).toBe(404);
    expect((await one.visitor.get(`/api/chat-conversations/${one.id}/public`)).status).toBe(400);
  });

  it('messages are 1..1000 characters', async () => {
    const chat = await start();
    const long = await say(chat, 'x'.repeat(1001));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/1000/);
    expect((await say(chat, '   ')).status).toBe(400);
    expect((await say(chat, 'x'.repeat(1000))).status).toBe(200);
  });

  it('a visit shows the greeting and first prompt and stores nothing; the conversation starts with the first message (issue 32)', async () => {
    const count = async () => (await t.deps.db.select().from(chatConversation).where(eq(chatConversation.organizationId, site.organizationId))).length;
    const before = await count();
    const shown = await t.actor().post('/api/chat-conversations/preview', { organizationId: publicId, language: 'es' });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toMatchObject({ language: 'es', awaiting: 'text', agent: { id: agentId }, organization: { publicId } });
    expect(shown.body.messages.length).toBeGreaterThan(0);
    expect(shown.body.messages.every((message: { role: string }) => message.role === 'agent')).toBe(true);
    expect(await count()).toBe(before);
    // The same greeting and prompt are what the conversation then stores.
    const chat = await start({ language: 'es' });
    expect(chat.body.messages.map((message: { text: string }) => message.text)).toEqual(shown.body.messages.map((message: { text: string }) => message.text));
    expect(await count()).toBe(before + 1);
    expect((await t.actor().post('/api/chat-conversations/preview', { organizationId: 'no-such-org' })).status).toBe(404);
  });

  it('unknown organization 404; an organization without an active agent with a published form 409; its id works too', async () => {
    expect((await t.actor().post('/api/chat-conversations/initiate', { organizationId: 'no-such-org' })).status).toBe(404);
    const empty = await t.signUp({ organizationName: 'Empty Research Site' });
    expect((await t.actor().post('/api/chat-conversations/initiate', { organizationId: empty.organizationId })).status).toBe(409);
    const byId = await t.actor().post('/api/chat-conversations/initiate', { organizationId: site.organizationId });
    expect(byId.status).toBe(201);
    expect(byId.body.agent.id).toBe(agentId);
  });

  it('a trial that is not recruiting has no public chat (issue 15); staff can still try its agent', async () => {
    const chat = await start();
    expect((await site.actor.patch(`/api/trials/${trialId}`, { status: 'paused' })).status).toBe(200);
    try {
      const refused = await t.actor().post('/api/chat-conversations/initiate', { organizationId: publicId, chatAgentId: agentId });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'TRIAL_NOT_RECRUITING', message: 'This study is not enrolling right now' });
      // Staff see why on the agents list.
      expect((await site.actor.get(`/api/chat-agents/internal/${agentId}`)).body).toMatchObject({ trialStatus: 'paused' });
      expect((await t.actor().post('/api/chat-conversations/initiate', { organizationId: publicId })).status).toBe(409);
      // A visitor already chatting finishes; staff may try the agent before recruiting starts again.
      expect((await say(chat, 'what is this study about?')).status).toBe(200);
      expect((await site.actor.post('/api/chat-conversations/admin/start', { chatAgentId: agentId })).status).toBe(201);
    } finally {
      expect((await site.actor.patch(`/api/trials/${trialId}`, { status: 'recruiting' })).status).toBe(200);
    }
    expect((await t.actor().post('/api/chat-conversations/initiate', { organizationId: publicId, chatAgentId: agentId })).status).toBe(201);
  });

  it('rate limits: 30 starts a minute per address; messages limit abuse, not a person answering fast (429 with Retry-After)', async () => {
    const visitor = t.actor();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await visitor.post('/api/chat-conversations/initiate', { organizationId: publicId })).status);
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    const limited = await visitor.post('/api/chat-conversations/initiate', { organizationId: publicId });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/Too many/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Issue 15: 36 answers in a row (the old limit was 20 a minute) all go through.
    const chat = await start();
    const messageStatuses: number[] = [];
    for (let i = 0; i < 30; i++) messageStatuses.push((await say(chat, 'what is this study about?')).status);
    expect(messageStatuses.every((status) => status === 200)).toBe(true);
    // A script sending without pause drains the bucket (drained here directly, so a slow machine cannot refill
    // it between requests): refused with how long to wait, then let in again.
    for (let i = 0; i < 100 && (await hit(t.deps.db, CHAT_LIMITS.messagesPerConversation, chat.id)).allowed; i++);
    const refused = await say(chat, 'what is this study about?');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    expect((await say(chat, 'what is this study about?')).status).toBe(200);
    // Keys are hashed: no address in the table.
    const keys = (await t.deps.db.select().from(requestThrottle)).map((row) => row.key);
    expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key))).toBe(true);
    expect(keys.some((key) => key.includes(visitor.ip))).toBe(false);
  });
});

describe('conversations (staff)', () => {
  it('admin/start marks a test conversation that the public page can continue', async () => {
    const started = await site.actor.post('/api/chat-conversations/admin/start', { chatAgentId: agentId });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ isTest: true, status: 'ONGOING', organization: { publicId } });
    const visitor = t.actor();
    expect((await visitor.post(`/api/chat-conversations/${started.body.conversationId}/messages`, { token: started.body.token, text: 'Tess' })).status).toBe(
      200,
    );
    const detail = await site.actor.get(`/api/chat-conversations/${started.body.conversationId}`);
    expect(detail.body).toMatchObject({ isTest: true, messageCount: 4, trialId });
    expect((await site.actor.post('/api/chat-conversations/admin/start', { chatAgentId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('lists with filters and sorts; the detail has the transcript and the result; delete is audited', async () => {
    const all = await site.actor.get('/api/chat-conversations/?limit=200');
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThan(5);
    const completed = await site.actor.get('/api/chat-conversations/?status=COMPLETED&limit=200');
    expect(completed.body.conversations.every((row: { status: string }) => row.status === 'COMPLETED')).toBe(true);
    const passed = completed.body.conversations.find((row: any) => row.prescreenResult?.aiRecommendation === 'PASS' && row.candidate?.name === 'Maria');
    expect(passed).toMatchObject({ agent: { id: agentId, name: 'Asthma study assistant' }, candidate: { name: 'Maria' }, isTest: false, phoneVerified: true });

    const byName = await site.actor.get('/api/chat-conversations/?search=maria');
    expect(byName.body.conversations.map((row: any) => row.candidate?.name)).toContain('Maria');
    const tests = await site.actor.get('/api/chat-conversations/?isTest=true');
    expect(tests.body.conversations.every((row: any) => row.isTest)).toBe(true);
    const byAgent = await site.actor.get(`/api/chat-conversations/?chatAgentId=${agentId}&limit=200`);
    expect(byAgent.body.conversations.every((row: any) => row.agent?.id === agentId)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await site.actor.get(`/api/chat-conversations/?dateFrom=${today}&dateTo=${today}`)).body.total).toBe(all.body.total);
    expect((await site.actor.get('/api/chat-conversations/?dateTo=2000-01-01')).body.total).toBe(0);
    expect((await site.actor.get('/api/chat-conversations/?dateFrom=yesterday')).status).toBe(400);

    const asc = (await site.actor.get('/api/chat-conversations/?sortBy=createdAt:asc&limit=200')).body.conversations.map((row: any) => row.createdAt);
    expect([...asc].sort()).toEqual(asc);
    const desc = (await site.actor.get('/api/chat-conversations/?sortBy=createdAt:desc&limit=200')).body.conversations.map((row: any) => row.createdAt);
    expect([...desc].sort().reverse()).toEqual(desc);
    const byStatus = (await site.actor.get('/api/chat-conversations/?sortBy=status&limit=200')).body.conversations.map((row: any) => row.status);
    expect(byStatus.indexOf('COMPLETED')).toBeGreaterThan(byStatus.lastIndexOf('ONGOING'));
    const updated = (await site.actor.get('/api/chat-conversations/?sortBy=updatedAt:desc&limit=200')).body.conversations.map((row: any) => row.updatedAt);
    expect([...updated].sort().reverse()).toEqual(updated);
    const page = await site.actor.get('/api/chat-conversations/?limit=2&offset=1');
    expect(page.body.conversations).toHaveLength(2);

    const detail = await site.actor.get(`/api/chat-conversations/${passed.id}`);
    expect(detail.body.prescreenResultId).toBe(passed.prescreenResult.id);
    expect(detail.body.messages.length).toBe(passed.messageCount);

    expect((await site.actor.delete(`/api/chat-conversations/${passed.id}`)).status).toBe(204);
    expect((await site.actor.get(`/api/chat-conversations/${passed.id}`)).status).toBe(404);
    expect(await t.deps.db.select().from(chatMessage).where(eq(chatMessage.conversationId, passed.id))).toEqual([]);
    const [audit] = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, passed.id));
    expect(audit).toMatchObject({ action: 'chat_conversation.delete', actorUserId: site.userId });
    // The prescreen result stays.
    expect(await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, passed.prescreenResult.id))).toHaveLength(1);
  });
});
