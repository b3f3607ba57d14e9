import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sequence, sequenceEnrollment, sequenceStepRun, sequenceVersion, smsMessage } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/sequences';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { zoneAtHour } from '../support/zones';

/** From organization B, A's sequences, enrollments and candidates' enrollments do not exist (404, nothing changed). */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aSequenceId: string;
let aCandidateId: string;
let bCandidateId: string;
let aEnrollmentId: string;

const steps = [{ key: 'hello', type: 'sms', message: { en: 'Hi {firstName}' } }];

const snapshot = async () => ({
  sequences: await t.deps.db.select().from(sequence).where(eq(sequence.organizationId, a.organizationId)),
  versions: (await t.deps.db.select().from(sequenceVersion)).length,
  enrollments: await t.deps.db.select().from(sequenceEnrollment),
  timeline: (await t.deps.db.select().from(sequenceStepRun)).length,
  sms: (await t.deps.db.select().from(smsMessage)).length,
  audits: (await t.deps.db.select().from(auditLog)).length,
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  aCandidateId = (await a.actor.post('/api/candidates/', { firstName: 'Alice', phone: '+12125550181', timeZone: zoneAtHour(12), consent: { sms: true } })).body
    .id;
  bCandidateId = (await b.actor.post('/api/candidates/', { firstName: 'Bea', phone: '+12125550182', timeZone: zoneAtHour(12), consent: { sms: true } })).body
    .id;
  const created = await a.actor.post('/api/sequences/', { name: 'A outreach', steps });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  aSequenceId = created.body.id;
  const enrolled = await a.actor.post(`/api/sequences/${aSequenceId}/enrollments`, {
    candidateIds: [aCandidateId],
    startAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  expect(enrolled.body.enrolled).toBe(1);
  aEnrollmentId = (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.sequenceId, aSequenceId)))[0].id;
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/sequences', (actor) => actor.post('/api/sequences/', { organizationId: a.organizationId, name: 'Sneaky', steps })],
  ['POST /api/sequences/preview', (actor) => actor.post('/api/sequences/preview', { step: steps[0], candidateId: aCandidateId })],
  ['POST /api/sequences/preview', (actor) => actor.post('/api/sequences/preview', { step: steps[0], organizationId: a.organizationId })],
  ['GET /api/sequences/{id}', (actor) => actor.get(`/api/sequences/${aSequenceId}`)],
  ['PATCH /api/sequences/{id}', (actor) => actor.patch(`/api/sequences/${aSequenceId}`, { name: 'Renamed' })],
  ['DELETE /api/sequences/{id}', (actor) => actor.delete(`/api/sequences/${aSequenceId}`)],
  ['POST /api/sequences/{id}/enrollments', (actor) => actor.post(`/api/sequences/${aSequenceId}/enrollments`, { candidateIds: [aCandidateId] })],
  ['POST /api/sequences/{id}/enrollments', (actor) => actor.post(`/api/sequences/${aSequenceId}/enrollments`, { filter: {} })],
  ['POST /api/sequences/{id}/enrollments/remove', (actor) => actor.post(`/api/sequences/${aSequenceId}/enrollments/remove`, { candidateIds: [aCandidateId] })],
  ['GET /api/sequences/{id}/enrollments', (actor) => actor.get(`/api/sequences/${aSequenceId}/enrollments`)],
  ['GET /api/sequences/{id}/statistics', (actor) => actor.get(`/api/sequences/${aSequenceId}/statistics`)],
  ['GET /api/sequence-enrollments/{id}', (actor) => actor.get(`/api/sequence-enrollments/${aEnrollmentId}`)],
  ['POST /api/sequence-enrollments/{id}/action', (actor) => actor.post(`/api/sequence-enrollments/${aEnrollmentId}/action`, { action: 'stop' })],
  ['GET /api/candidates/{id}/sequences', (actor) => actor.get(`/api/candidates/${aCandidateId}/sequences`)],
];

describe("from organization B, A's sequences do not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to a member of B`, async () => {
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

  it("B cannot put its own candidates into A's sequence, nor A's candidates into its own", async () => {
    expect((await b.actor.post(`/api/sequences/${aSequenceId}/enrollments`, { candidateIds: [bCandidateId] })).status).toBe(404);
    const own = await b.actor.post('/api/sequences/', { name: 'B outreach', steps });
    expect(own.status).toBe(201);
    expect((await b.actor.post(`/api/sequences/${own.body.id}/enrollments`, { candidateIds: [aCandidateId] })).status).toBe(404);
    // A saved filter only ever reaches the sequence's own organization.
    const byFilter = await b.actor.post(`/api/sequences/${own.body.id}/enrollments`, { filter: {}, startAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(byFilter.body.enrolled).toBe(1);
    const enrolled = await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.sequenceId, own.body.id));
    expect(enrolled.map((row) => row.candidateId)).toEqual([bCandidateId]);
  });

  it("lists never include A's sequences", async () => {
    for (const actor of [b.actor, adminInB]) {
      for (const query of ['', `?organizationIds=${a.organizationId}`, `?organizationId=${a.organizationId}`]) {
        const names = ((await actor.get(`/api/sequences/${query}`)).body.sequences ?? []).map((item: { name: string }) => item.name);
        expect(names).not.toContain('A outreach');
      }
    }
    expect((await a.actor.get('/api/sequences/')).body.sequences.map((item: { name: string }) => item.name)).toEqual(['A outreach']);
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
