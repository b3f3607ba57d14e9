import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidate, candidateTrial, contactEvent, processingRun, processingRunItem, trial } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/candidates';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, A's candidates, notes, contact history and processing runs do not exist (404, nothing changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aCandidateId: string;
let aRunId: string;
let aTrialId: string;
let bCandidateId: string;

const snapshot = async () => ({
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  links: await t.deps.db.select().from(candidateTrial).where(eq(candidateTrial.organizationId, a.organizationId)),
  events: await t.deps.db.select().from(contactEvent).where(eq(contactEvent.organizationId, a.organizationId)),
  runs: await t.deps.db.select().from(processingRun).where(eq(processingRun.organizationId, a.organizationId)),
  items: await t.deps.db.select().from(processingRunItem).where(eq(processingRunItem.organizationId, a.organizationId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  const [row] = await t.deps.db.insert(trial).values({ organizationId: a.organizationId, title: 'A trial' }).returning();
  aTrialId = row.id;
  const created = await a.actor.post('/api/candidates/', { firstName: 'Alice', phone: '+12125550150', trialIds: [aTrialId] });
  aCandidateId = created.body.id;
  await a.actor.post(`/api/candidates/${aCandidateId}/prescreen-notes`, { text: 'A note' });
  const run = await a.actor.post('/api/candidates/bulk', { format: 'csv', data: 'First Name,Phone\nAnn,212-555-0151\n', duplicates: 'merge' });
  aRunId = run.body.run.id;
  for (let i = 0; i < 200; i++) {
    const state = await a.actor.get(`/api/processing-runs/${aRunId}/data`);
    if (state.body.run.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  bCandidateId = (await b.actor.post('/api/candidates/', { firstName: 'Bob' })).body.id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/candidates', (actor) => actor.request('POST', `/api/candidates/?organizationId=${a.organizationId}`, { firstName: 'Intruder' })],
  [
    'POST /api/candidates/bulk',
    (actor) => actor.post('/api/candidates/bulk', { organizationId: a.organizationId, format: 'csv', data: 'First Name\nIntruder\n', duplicates: 'merge' }),
  ],
  [
    'POST /api/candidates/bulk/stream',
    (actor) => actor.upload(`/api/candidates/bulk/stream?organizationId=${a.organizationId}&trialId=${aTrialId}`, 'First Name\nIntruder\n'),
  ],
  [
    'POST /api/candidates/bulk/preview',
    (actor) => actor.post('/api/candidates/bulk/preview', { organizationId: a.organizationId, format: 'csv', data: 'First Name\nIntruder\n' }),
  ],
  [
    'PATCH /api/candidates/reset-status',
    (actor) => actor.patch(`/api/candidates/reset-status?organizationId=${a.organizationId}`, { candidateIds: [aCandidateId] }),
  ],
  ['POST /api/candidates/bulk-update', (actor) => actor.post('/api/candidates/bulk-update', { candidateIds: [aCandidateId], status: 'enrolled' })],
  ['POST /api/candidates/bulk-delete', (actor) => actor.post('/api/candidates/bulk-delete', { candidateIds: [aCandidateId] })],
  [
    'POST /api/candidates/bulk-consent',
    (actor) => actor.post('/api/candidates/bulk-consent', { candidateIds: [aCandidateId], sms: true, calls: true, source: 'Intruder form' }),
  ],
  ['GET /api/candidates/{candidateId}', (actor) => actor.get(`/api/candidates/${aCandidateId}`)],
  ['PATCH /api/candidates/{candidateId}', (actor) => actor.patch(`/api/candidates/${aCandidateId}`, { status: 'enrolled', firstName: 'Taken' })],
  ['DELETE /api/candidates/{candidateId}', (actor) => actor.delete(`/api/candidates/${aCandidateId}`)],
  ['GET /api/candidates/{candidateId}/prescreen-notes', (actor) => actor.get(`/api/candidates/${aCandidateId}/prescreen-notes`)],
  ['POST /api/candidates/{candidateId}/prescreen-notes', (actor) => actor.post(`/api/candidates/${aCandidateId}/prescreen-notes`, { text: 'Intruder note' })],
  ['DELETE /api/candidates/{candidateId}/prescreen-notes/{noteIndex}', (actor) => actor.delete(`/api/candidates/${aCandidateId}/prescreen-notes/0`)],
  ['GET /api/processing-runs/{id}/data', (actor) => actor.get(`/api/processing-runs/${aRunId}/data`)],
  ['GET /api/contact-history', (actor) => actor.get(`/api/contact-history?candidateId=${aCandidateId}`)],
];

describe("from organization B, A's candidates do not exist", () => {
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

  it("mixing one of A's ids into B's bulk actions changes nothing of B either", async () => {
    expect((await b.actor.post('/api/candidates/bulk-delete', { candidateIds: [bCandidateId, aCandidateId] })).status).toBe(404);
    expect((await b.actor.get(`/api/candidates/${bCandidateId}`)).status).toBe(200);
    expect((await b.actor.post('/api/candidates/bulk-update', { candidateIds: [bCandidateId], addTrialId: aTrialId })).status).toBe(404);
  });

  it("bulk consent by filter naming A's organization records nothing there", async () => {
    const before = await snapshot();
    for (const actor of [b.actor, adminInB]) {
      const answer = await actor.post('/api/candidates/bulk-consent', { filter: { organizationId: a.organizationId }, sms: true, source: 'Intruder form' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ updated: 0, unchanged: 0, skippedDoNotContact: 0 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("lists never include A's candidates or runs", async () => {
    for (const query of ['', `?organizationIds=${a.organizationId}`, `?orgs=${a.organizationId}`, `?organizationId=${a.organizationId}`, '?search=Alice']) {
      const listed = await b.actor.get(`/api/candidates/${query}`);
      expect(listed.body.candidates.map((row: { id: string }) => row.id)).not.toContain(aCandidateId);
      expect((await adminInB.get(`/api/candidates/${query}`)).body.candidates.map((row: { id: string }) => row.id)).not.toContain(aCandidateId);
    }
    expect((await b.actor.get(`/api/processing-runs/?organizationIds=${a.organizationId}`)).body).toEqual({ runs: [] });
    expect((await b.actor.get('/api/processing-runs/')).body.runs).toEqual([]);
    const data = await b.actor.get(`/api/processing-runs/data?orgs=${a.organizationId}`);
    expect(data.body.runs).toEqual([]);
    expect(data.body.summary.runs).toBe(0);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
