import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { auditLog, booking, candidate, candidateTrial, contactEvent, prescreenForm, prescreenFormVersion, prescreenResult } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/prescreen';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, A's prescreen results, reviews, decisions and bookings do not exist (404, nothing changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;
let aCandidateId: string;
let aFormId: string;
let aBookingId: string;
let aResultId: string;
let bCandidateId: string;

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
  results: await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.organizationId, a.organizationId)),
  bookings: await t.deps.db.select().from(booking).where(eq(booking.organizationId, a.organizationId)),
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  links: await t.deps.db.select().from(candidateTrial).where(eq(candidateTrial.organizationId, a.organizationId)),
  events: await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId)),
  audit: await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, a.organizationId)),
  bResults: await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.organizationId, b.organizationId)),
});

const future = `${new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)}T10:00`;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const trial = await a.actor.post('/api/trials/', {
    title: 'A trial',
    sites: [{ name: 'A Site', timeZone: 'America/Chicago' }],
    criteria: [{ kind: 'inclusion', text: 'Has asthma' }],
  });
  aTrialId = trial.body.id;
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: a.organizationId, trialId: aTrialId, name: 'A form', status: 'published' })
    .returning();
  aFormId = form.id;
  await t.deps.db
    .insert(prescreenFormVersion)
    .values({ organizationId: a.organizationId, formId: aFormId, version: 1, blocks: blocks(trial.body.criteria[0].id) });
  aCandidateId = (await a.actor.post('/api/candidates/', { firstName: 'Alice', phone: '+12125550160', trialIds: [aTrialId] })).body.id;
  const result = await a.actor.post('/api/prescreen/results', { candidateId: aCandidateId, formId: aFormId, answers: [{ questionId: 'asthma', value: true }] });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  aResultId = result.body.id;
  expect((await a.actor.post('/api/prescreen/review/decision', { resultId: aResultId, decision: 'approve' })).status).toBe(200);
  const booked = await a.actor.post('/api/prescreen/bookings', { resultId: aResultId, siteName: 'A Site', localTime: future });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  aBookingId = booked.body.id;
  bCandidateId = (await b.actor.post('/api/candidates/', { firstName: 'Bob' })).body.id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const answers = [{ questionId: 'asthma', value: true }];
const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/prescreen/results', (actor) => actor.post('/api/prescreen/results', { candidateId: aCandidateId, formId: aFormId, answers })],
  ['GET /api/prescreen/review', (actor) => actor.get(`/api/prescreen/review?candidateId=${aCandidateId}`)],
  [
    'POST /api/prescreen/review/decision',
    (actor) => actor.post('/api/prescreen/review/decision', { resultId: aResultId, decision: 'reject', reason: 'Intruder' }),
  ],
  ['POST /api/prescreen/bookings', (actor) => actor.post('/api/prescreen/bookings', { resultId: aResultId, siteName: 'A Site', localTime: future })],
  ['POST /api/prescreen/bookings/{id}/outcome', (actor) => actor.post(`/api/prescreen/bookings/${aBookingId}/outcome`, { status: 'no_show' })],
];

describe("from organization B, A's prescreen data does not exist", () => {
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

  it("mixing A's ids with B's: A's form for B's candidate, A's candidate and trial for a booking", async () => {
    const before = await snapshot();
    expect((await b.actor.post('/api/prescreen/results', { candidateId: bCandidateId, formId: aFormId, answers })).status).toBe(404);
    expect(
      (await b.actor.post('/api/prescreen/bookings', { candidateId: aCandidateId, trialId: aTrialId, siteName: 'A Site', localTime: future })).status,
    ).toBe(404);
    expect(
      (await b.actor.post('/api/prescreen/bookings', { candidateId: bCandidateId, trialId: aTrialId, siteName: 'A Site', localTime: future })).status,
    ).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("lists never include A's results", async () => {
    for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`, `?candidateId=${aCandidateId}`, '?search=Alice']) {
      expect((await b.actor.get(`/api/prescreen/results${query}`)).body).toEqual({ results: [], total: 0 });
      expect((await adminInB.get(`/api/prescreen/results${query}`)).body).toEqual({ results: [], total: 0 });
    }
    // A sees its own.
    expect((await a.actor.get('/api/prescreen/results')).body.total).toBe(1);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
