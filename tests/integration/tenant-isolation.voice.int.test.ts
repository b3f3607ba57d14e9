import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { call, callEvent, candidate, contactEvent, prescreenForm, prescreenFormVersion, prescreenResult, voiceAgent } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/voice';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/** From organization B, A's voice agents, candidates and calls do not exist (404, nothing placed or changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;
let aFormId: string;
let aAgentId: string;
let aCandidateId: string;
let aCallId: string;
let aRingingCallId: string;

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
    ],
  },
];

function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const snapshot = async () => ({
  agents: await t.deps.db.select().from(voiceAgent).where(eq(voiceAgent.organizationId, a.organizationId)),
  allAgents: (await t.deps.db.select().from(voiceAgent)).length,
  calls: await t.deps.db.select().from(call).where(eq(call.organizationId, a.organizationId)),
  allCalls: (await t.deps.db.select().from(call)).length,
  events: (await t.deps.db.select().from(callEvent)).length,
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  contacts: (await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId))).length,
  results: (await t.deps.db.select().from(prescreenResult)).length,
});

const agentBody = () => ({
  name: 'Intruder agent',
  type: 'PRESCREEN',
  trialId: aTrialId,
  prescreenFormId: aFormId,
  firstMessage: { en: 'Hi' },
  voicemailMessage: { en: 'Bye' },
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  aTrialId = (await createRecruitingTrial(a.actor, { title: 'A trial', criteria: [{ kind: 'inclusion', text: 'Asthma' }] })).body.id;
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: a.organizationId, trialId: aTrialId, name: 'A form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: a.organizationId, formId: form.id, version: 1, blocks });
  aFormId = form.id;
  const agent = await a.actor.post('/api/voice-agents/', { ...agentBody(), name: 'A agent' });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  aAgentId = agent.body.id;
  aCandidateId = (
    await a.actor.post('/api/candidates/', {
      firstName: 'Alice',
      phone: '+12125550199',
      timeZone: zoneAtHour(12),
      consent: { calls: true },
      trialIds: [aTrialId],
    })
  ).body.id;
  aCallId = (await a.actor.post('/api/calls/', { candidateId: aCandidateId })).body.id;
  aRingingCallId = (await a.actor.post('/api/calls/', { candidateId: aCandidateId, simulate: 'ring' })).body.id;
  await t.deps.voice.drain();
  expect((await a.actor.get(`/api/calls/${aCallId}`)).body.status).toBe('ended');
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/voice-agents', (actor) => actor.post('/api/voice-agents/', { ...agentBody(), organizationId: a.organizationId })],
  ['GET /api/voice-agents/{id}', (actor) => actor.get(`/api/voice-agents/${aAgentId}`)],
  ['PATCH /api/voice-agents/{id}', (actor) => actor.patch(`/api/voice-agents/${aAgentId}`, { name: 'Taken over', active: false })],
  ['DELETE /api/voice-agents/{id}', (actor) => actor.delete(`/api/voice-agents/${aAgentId}`)],
  ['POST /api/calls', (actor) => actor.post('/api/calls/', { candidateId: aCandidateId })],
  ['GET /api/calls/pre-check', (actor) => actor.get(`/api/calls/pre-check?candidateId=${aCandidateId}`)],
  ['GET /api/calls/{callId}', (actor) => actor.get(`/api/calls/${aCallId}`)],
  ['DELETE /api/calls/{callId}', (actor) => actor.delete(`/api/calls/${aRingingCallId}`)],
  ['POST /api/process/calls/{callId}', (actor) => actor.post(`/api/process/calls/${aCallId}`)],
  ['GET /api/vapi/calls/{callId}/storage', (actor) => actor.get(`/api/vapi/calls/${aCallId}/storage`)],
  ['GET /api/vapi/calls/{callId}/logs', (actor) => actor.get(`/api/vapi/calls/${aCallId}/logs`)],
];

describe("from organization B, A's voice agents and calls do not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      expect((await probe(b.actor)).status).toBe(404);
      await t.deps.voice.drain();
      expect(await snapshot()).toEqual(before);
    });
    it(`${operation} answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      await t.deps.voice.drain();
      expect(await snapshot()).toEqual(before);
    });
  }

  it("B's agent cannot use A's trial and form", async () => {
    const answer = await b.actor.post('/api/voice-agents/', agentBody());
    expect(answer.status).toBe(404);
  });

  it("lists never include A's agents or calls", async () => {
    for (const actor of [b.actor, adminInB]) {
      for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`, `?organizationId=${a.organizationId}`]) {
        expect((await actor.get(`/api/voice-agents/${query}`)).body).toEqual({ voiceAgents: [], total: 0 });
        expect((await actor.get(`/api/calls/${query}`)).body).toEqual({ calls: [], total: 0 });
      }
      expect((await actor.get(`/api/calls/?candidateId=${aCandidateId}`)).body).toEqual({ calls: [], total: 0 });
    }
    expect((await a.actor.get('/api/calls/')).body.total).toBe(2);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
