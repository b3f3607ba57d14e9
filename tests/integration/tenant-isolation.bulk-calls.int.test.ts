import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  call,
  callback,
  callEvent,
  candidate,
  contactEvent,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  processingRun,
  processingRunItem,
} from '../../src/server/db/schema';
import { whenPrescreenRunSettled } from '../../src/server/features/calls/prescreen-all';
import { ENDPOINTS } from '../support/endpoints/bulk-calls';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * From organization B, A's candidates cannot be bulk-called (404, no run, no call) and reconciling with the
 * voice provider never touches A's calls.
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;
let aRingingCallId: string;
let aDueCandidateId: string;

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
    ],
  },
];

const snapshot = async () => ({
  runs: await t.deps.db.select().from(processingRun),
  items: (await t.deps.db.select().from(processingRunItem)).length,
  calls: await t.deps.db.select().from(call).where(eq(call.organizationId, a.organizationId)),
  allCalls: (await t.deps.db.select().from(call)).length,
  events: (await t.deps.db.select().from(callEvent)).length,
  callbacks: await t.deps.db.select().from(callback),
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  contacts: (await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId))).length,
  results: (await t.deps.db.select().from(prescreenResult)).length,
});

/** Whatever a wrongly started run would do, let it finish before comparing. */
async function settle() {
  for (const run of await t.deps.db.select({ id: processingRun.id }).from(processingRun)) await whenPrescreenRunSettled(run.id);
  await t.deps.voice.drain();
}

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
  const agent = await a.actor.post('/api/voice-agents/', {
    name: 'A agent',
    type: 'PRESCREEN',
    trialId: aTrialId,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hi' },
    voicemailMessage: { en: 'Bye' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  // One candidate due a prescreen call, one with a call still ringing (an open call a reconcile would look at).
  const due = await a.actor.post('/api/candidates/', {
    firstName: 'Alice',
    phone: '+12125550188',
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    trialIds: [aTrialId],
  });
  expect(due.status, JSON.stringify(due.body)).toBe(201);
  aDueCandidateId = due.body.id;
  const ringing = (
    await a.actor.post('/api/candidates/', {
      firstName: 'Ann',
      phone: '+12125550189',
      timeZone: zoneAtHour(12),
      consent: { calls: true },
      trialIds: [aTrialId],
    })
  ).body.id;
  const placed = await a.actor.post('/api/calls/', { candidateId: ringing, simulate: 'ring' });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  aRingingCallId = placed.body.id;
  await t.deps.voice.drain();
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(async () => {
  if (aRingingCallId) await a.actor.delete(`/api/calls/${aRingingCallId}`);
  await t?.close();
});

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/calls/prescreen-all', (actor) => actor.post('/api/calls/prescreen-all', { organizationId: a.organizationId })],
  [
    'POST /api/calls/prescreen-all',
    (actor) => actor.post('/api/calls/prescreen-all', { organizationId: a.organizationId, trialId: aTrialId, simulate: 'answer' }),
  ],
  [
    'POST /api/calls/prescreen-all',
    (actor) => actor.post('/api/calls/prescreen-all', { organizationId: a.organizationId, candidateIds: [aDueCandidateId], simulate: 'answer' }),
  ],
];

describe("from organization B, A's candidates cannot be bulk-called", () => {
  for (const [index, [operation, probe]] of probes.entries()) {
    it(`${operation} (#${index + 1}) answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      expect((await probe(b.actor)).status).toBe(404);
      await settle();
      expect(await snapshot()).toEqual(before);
    });
    it(`${operation} (#${index + 1}) answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      await settle();
      expect(await snapshot()).toEqual(before);
    });
  }

  it("B's own run never reaches A: A's trial is not B's (404), and B has no agent (409)", async () => {
    for (const actor of [b.actor, adminInB]) {
      const before = await snapshot();
      expect((await actor.post('/api/calls/prescreen-all', { trialId: aTrialId })).status).toBe(404);
      expect((await actor.post('/api/calls/prescreen-all', {})).status).toBe(409);
      await settle();
      expect(await snapshot()).toEqual(before);
    }
  });

  it("A's runs are not listed for B", async () => {
    const own = await a.actor.post('/api/calls/prescreen-all', { simulate: 'no_answer' });
    expect(own.status, JSON.stringify(own.body)).toBe(202);
    await settle();
    for (const actor of [b.actor, adminInB]) {
      for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`]) {
        expect((await actor.get(`/api/processing-runs/${query}`)).body).toEqual({ runs: [] });
      }
      expect((await actor.get(`/api/processing-runs/${own.body.id}/data`)).status).toBe(404);
    }
    expect((await a.actor.get(`/api/processing-runs/${own.body.id}/data`)).body.run).toMatchObject({ status: 'completed', total: 1, succeeded: 1 });
  });
});

describe('reconciling with the voice provider is scoped to the caller', () => {
  const bodies = () => [
    { staleAfterMinutes: 0 },
    { organizationId: a.organizationId, staleAfterMinutes: 0 },
    { organizationIds: [a.organizationId], staleAfterMinutes: 0 },
  ];

  for (const [name, actor] of [
    ['a member of B', () => b.actor],
    ['an internal admin whose active organization is B', () => adminInB],
  ] as const) {
    it(`POST /api/process/vapi from ${name} leaves A's calls alone`, async () => {
      for (const body of bodies()) {
        const before = await snapshot();
        const answer = await actor().post('/api/process/vapi', body);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body).toEqual({ checked: 0, finished: 0, lost: 0, recorded: 0 });
        await settle();
        expect(await snapshot()).toEqual(before);
      }
    });
  }

  it("A's own request does look at A's open call (the probes above are not vacuous)", async () => {
    const answer = await a.actor.post('/api/process/vapi', { staleAfterMinutes: 0 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.checked).toBeGreaterThanOrEqual(1);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
