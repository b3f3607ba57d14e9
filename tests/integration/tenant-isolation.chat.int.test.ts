import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  auditLog,
  candidate,
  chatAgent,
  chatConversation,
  chatMessage,
  organization,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
} from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/chat';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/** From organization B, A's chat agents and conversations do not exist (404, nothing changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;
let aFormId: string;
let aAgentId: string;
let aConversationId: string;
let aToken: string;
let bPublicId: string;

const blocks = (criterionId: string): StudyBlock[] => [
  {
    id: 'b',
    title: { en: 'About you' },
    questions: [
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Asthma?' }, chat: { en: 'Asthma?' } },
        required: true,
        criterionLinks: [{ criterionId, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
    ],
  },
];

const snapshot = async () => ({
  agents: await t.deps.db.select().from(chatAgent).where(eq(chatAgent.organizationId, a.organizationId)),
  conversations: await t.deps.db.select().from(chatConversation).where(eq(chatConversation.organizationId, a.organizationId)),
  messages: await t.deps.db.select().from(chatMessage).where(eq(chatMessage.organizationId, a.organizationId)),
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  results: await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.organizationId, a.organizationId)),
  audit: await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, a.organizationId)),
  bAgents: await t.deps.db.select().from(chatAgent).where(eq(chatAgent.organizationId, b.organizationId)),
  bConversations: await t.deps.db.select().from(chatConversation).where(eq(chatConversation.organizationId, b.organizationId)),
});

const agentBody = () => ({
  name: 'Intruder agent',
  trialId: aTrialId,
  prescreenFormId: aFormId,
  greeting: { en: 'Hi' },
  closingMessage: { en: 'Bye' },
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const trial = await createRecruitingTrial(a.actor, { title: 'A trial', criteria: [{ kind: 'inclusion', text: 'Has asthma' }] });
  aTrialId = trial.body.id;
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: a.organizationId, trialId: aTrialId, name: 'A form', status: 'published' })
    .returning();
  aFormId = form.id;
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: a.organizationId, formId: aFormId, version: 1, blocks: blocks(trial.body.criteria[0].id) });
  const agent = await a.actor.post('/api/chat-agents/internal', { ...agentBody(), name: 'A agent', requirePhoneVerification: false });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  aAgentId = agent.body.id;
  const [aOrg] = await t.deps.db.select().from(organization).where(eq(organization.id, a.organizationId));
  const started = await t.actor().post('/api/chat-conversations/initiate', { organizationId: aOrg.publicId });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  aConversationId = started.body.conversationId;
  aToken = started.body.token;
  for (const text of ['Alice', 'no', 'yes']) {
    expect((await t.actor().post(`/api/chat-conversations/${aConversationId}/messages`, { token: aToken, text })).status).toBe(200);
  }
  const [bOrg] = await t.deps.db.select().from(organization).where(eq(organization.id, b.organizationId));
  bPublicId = bOrg.publicId;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/chat-agents/internal', (actor) => actor.post('/api/chat-agents/internal', agentBody())],
  ['GET /api/chat-agents/internal/{id}', (actor) => actor.get(`/api/chat-agents/internal/${aAgentId}`)],
  ['PATCH /api/chat-agents/internal/{id}', (actor) => actor.patch(`/api/chat-agents/internal/${aAgentId}`, { name: 'Taken over', active: false })],
  ['DELETE /api/chat-agents/internal/{id}', (actor) => actor.delete(`/api/chat-agents/internal/${aAgentId}`)],
  ['POST /api/chat-conversations/admin/start', (actor) => actor.post('/api/chat-conversations/admin/start', { chatAgentId: aAgentId })],
  ['GET /api/chat-conversations/{conversationId}', (actor) => actor.get(`/api/chat-conversations/${aConversationId}`)],
  ['DELETE /api/chat-conversations/{conversationId}', (actor) => actor.delete(`/api/chat-conversations/${aConversationId}`)],
];

describe("from organization B, A's chat agents and conversations do not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      expect((await probe(b.actor)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
    it(`${operation} answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("mixing: B's chat page with A's agent, A's agent moved to B's trial", async () => {
    const before = await snapshot();
    expect((await t.actor().post('/api/chat-conversations/initiate', { organizationId: bPublicId, chatAgentId: aAgentId })).status).toBe(404);
    const bTrial = await createRecruitingTrial(b.actor, { title: 'B trial' });
    expect((await b.actor.patch(`/api/chat-agents/internal/${aAgentId}`, { trialId: bTrial.body.id })).status).toBe(404);
    expect((await a.actor.patch(`/api/chat-agents/internal/${aAgentId}`, { trialId: bTrial.body.id, prescreenFormId: aFormId })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("lists never include A's agents or conversations", async () => {
    for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`, `?organizationId=${a.organizationId}`]) {
      expect((await b.actor.get(`/api/chat-agents/internal${query}`)).body).toEqual({ chatAgents: [], total: 0 });
      expect((await adminInB.get(`/api/chat-agents/internal${query}`)).body).toEqual({ chatAgents: [], total: 0 });
      expect((await b.actor.get(`/api/chat-conversations${query}`)).body).toEqual({ conversations: [], total: 0 });
      expect((await adminInB.get(`/api/chat-conversations${query}`)).body).toEqual({ conversations: [], total: 0 });
    }
    expect((await b.actor.get(`/api/chat-conversations?chatAgentId=${aAgentId}&search=Alice`)).body.total).toBe(0);
    // A sees its own.
    expect((await a.actor.get('/api/chat-agents/internal')).body.total).toBe(1);
    expect((await a.actor.get('/api/chat-conversations')).body.total).toBe(1);
  });

  it('a public conversation is reachable only with its own token', async () => {
    const other = await t.actor().post('/api/chat-conversations/initiate', { organizationId: a.organizationId });
    expect(other.status).toBe(201);
    const before = await snapshot();
    expect((await t.actor().get(`/api/chat-conversations/${aConversationId}/public?token=${other.body.token}`)).status).toBe(404);
    expect((await t.actor().post(`/api/chat-conversations/${aConversationId}/messages`, { token: other.body.token, text: 'hello' })).status).toBe(404);
    expect(
      (await t.actor().post('/api/chat-conversations/verify', { conversationId: aConversationId, token: other.body.token, phone: '+12125550100' })).status,
    ).toBe(404);
    expect((await t.actor().post(`/api/chat-conversations/${aConversationId}/rating`, { token: other.body.token, rating: 5 })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
