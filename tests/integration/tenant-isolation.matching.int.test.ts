import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  candidate,
  candidateFact,
  candidateNote,
  candidateTrial,
  criterionJudgement,
  prescreenForm,
  processingRun,
  trialMatch,
} from '../../src/server/db/schema';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { whenNoteRereadSettled } from '../../src/server/features/matching/note-reread';
import { ENDPOINTS as MATCHING } from '../support/endpoints/matching';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** From organization B, organization A's match results, clinical notes and facts do not exist (404), and nothing changes. */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let adminInB: Actor;
let aTrialId: string;
let aCriterionId: string;
let aCandidateId: string;
let aNoteId: string;
let aFactId: string;
let bTrialId: string;

const snapshot = async () => ({
  candidates: await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, a.organizationId)),
  notes: await t.deps.db.select().from(candidateNote).where(eq(candidateNote.organizationId, a.organizationId)),
  facts: await t.deps.db.select().from(candidateFact).where(eq(candidateFact.organizationId, a.organizationId)),
  links: await t.deps.db.select().from(candidateTrial).where(eq(candidateTrial.organizationId, a.organizationId)),
  matches: await t.deps.db.select().from(trialMatch).where(eq(trialMatch.organizationId, a.organizationId)),
  runs: await t.deps.db.select().from(processingRun).where(eq(processingRun.organizationId, a.organizationId)),
  forms: await t.deps.db.select().from(prescreenForm).where(eq(prescreenForm.organizationId, a.organizationId)),
  judgements: await t.deps.db.select().from(criterionJudgement).where(eq(criterionJudgement.organizationId, a.organizationId)),
  audit: await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, a.organizationId)),
});

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Tenant A Research' });
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
  const trial = await createRecruitingTrial(a.actor, {
    title: 'A study',
    criteria: [{ kind: 'inclusion', text: 'Adults', rule: { type: 'age', minYears: 18, maxYears: null } }],
  });
  aTrialId = trial.body.id;
  aCriterionId = trial.body.criteria[0].id;
  bTrialId = (await createRecruitingTrial(b.actor, { title: 'B study' })).body.id;
  aCandidateId = (await a.actor.post('/api/candidates/', { firstName: 'Alma', dateOfBirth: '1970-05-01', phone: '+13125550101' })).body.id;
  aNoteId = (await a.actor.post(`/api/candidates/${aCandidateId}/clinical/notes`, { body: 'Has asthma.' })).body.note.id;
  aFactId = (await a.actor.post(`/api/candidates/${aCandidateId}/clinical/facts`, { kind: 'smoking', name: 'smoking', status: 'absent' })).body.id;
  const run = await a.actor.post(`/api/trial-matcher/${aTrialId}/runs`, {});
  await whenMatchRunSettled(run.body.id);
});
afterAll(() => t?.close());

const bundle = () => JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/fhir/small-bundle.json'), 'utf8'));

const probes: Array<[string, (actor: Actor) => Promise<{ status: number }>]> = [
  ['POST /api/trial-matcher/{trialId}/runs', (actor) => actor.post(`/api/trial-matcher/${aTrialId}/runs`, {})],
  ['GET /api/trial-matcher/{trialId}', (actor) => actor.get(`/api/trial-matcher/${aTrialId}`)],
  ['GET /api/trial-matcher/{trialId}/matches', (actor) => actor.get(`/api/trial-matcher/${aTrialId}/matches`)],
  ['GET /api/trial-matcher/{trialId}/candidates/{candidateId}', (actor) => actor.get(`/api/trial-matcher/${aTrialId}/candidates/${aCandidateId}`)],
  [
    'POST /api/trial-matcher/{trialId}/candidates/{candidateId}/llm-judgements',
    (actor) => actor.post(`/api/trial-matcher/${aTrialId}/candidates/${aCandidateId}/llm-judgements`, {}),
  ],
  ['GET /api/trial-matcher/{trialId}/gaps', (actor) => actor.get(`/api/trial-matcher/${aTrialId}/gaps`)],
  ['POST /api/trial-matcher/{trialId}/what-if', (actor) => actor.post(`/api/trial-matcher/${aTrialId}/what-if`, { criterionId: aCriterionId, rule: null })],
  ['POST /api/trial-matcher/{trialId}/add-to-trial', (actor) => actor.post(`/api/trial-matcher/${aTrialId}/add-to-trial`, { candidateIds: [aCandidateId] })],
  [
    'POST /api/trial-matcher/{trialId}/prescreen-form',
    (actor) => actor.post(`/api/trial-matcher/${aTrialId}/prescreen-form`, { criterionIds: [aCriterionId] }),
  ],
  ['GET /api/trial-matcher/candidates/{candidateId}/other-trials', (actor) => actor.get(`/api/trial-matcher/candidates/${aCandidateId}/other-trials`)],
  ['GET /api/trial-matcher/candidates/{candidateId}/trials', (actor) => actor.get(`/api/trial-matcher/candidates/${aCandidateId}/trials`)],
  ['POST /api/trial-matcher/note-rereads', (actor) => actor.post('/api/trial-matcher/note-rereads', { organizationId: a.organizationId })],
  ['GET /api/trial-matcher/note-rereads', (actor) => actor.get(`/api/trial-matcher/note-rereads?organizationId=${a.organizationId}`)],
  ['POST /api/candidates/fhir', (actor) => actor.post(`/api/candidates/fhir?organizationId=${a.organizationId}`, bundle())],
  ['GET /api/candidates/{candidateId}/clinical', (actor) => actor.get(`/api/candidates/${aCandidateId}/clinical`)],
  ['POST /api/candidates/{candidateId}/clinical/notes', (actor) => actor.post(`/api/candidates/${aCandidateId}/clinical/notes`, { body: 'Planted note' })],
  ['DELETE /api/candidates/{candidateId}/clinical/notes/{noteId}', (actor) => actor.delete(`/api/candidates/${aCandidateId}/clinical/notes/${aNoteId}`)],
  [
    'POST /api/candidates/{candidateId}/clinical/facts',
    (actor) => actor.post(`/api/candidates/${aCandidateId}/clinical/facts`, { kind: 'smoking', name: 'smoking', status: 'present' }),
  ],
  ['DELETE /api/candidates/{candidateId}/clinical/facts/{factId}', (actor) => actor.delete(`/api/candidates/${aCandidateId}/clinical/facts/${aFactId}`)],
];

describe("from organization B, A's matching and clinical records do not exist", () => {
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

  it("B's trial cannot take A's candidate, and B's own matching never sees A's candidates", async () => {
    const before = await snapshot();
    expect((await b.actor.post(`/api/trial-matcher/${bTrialId}/add-to-trial`, { candidateIds: [aCandidateId] })).status).toBe(404);
    expect((await b.actor.get(`/api/trial-matcher/${bTrialId}/candidates/${aCandidateId}`)).status).toBe(404);
    const run = await b.actor.post(`/api/trial-matcher/${bTrialId}/runs`, {});
    await whenMatchRunSettled(run.body.id);
    expect((await b.actor.get(`/api/trial-matcher/${bTrialId}`)).body.counts.total).toBe(0);
    // A's candidate id as a filter of B's results finds nothing.
    expect((await b.actor.get(`/api/trial-matcher/${bTrialId}/matches?candidateId=${aCandidateId}`)).body).toEqual({ matches: [], total: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it("B's questions never go into A's draft form (issue 32: questions added to a chosen draft)", async () => {
    const aDraft = await a.actor.post('/api/prescreen-forms/', { trialId: aTrialId, name: 'A draft' });
    expect(aDraft.status, JSON.stringify(aDraft.body)).toBe(201);
    const bTrial = await createRecruitingTrial(b.actor, {
      title: 'B study with a criterion',
      criteria: [{ kind: 'inclusion', text: 'Adults', rule: { type: 'age', minYears: 18, maxYears: null } }],
    });
    const before = await snapshot();
    const answer = await b.actor.post(`/api/trial-matcher/${bTrial.body.id}/prescreen-form`, {
      criterionIds: [bTrial.body.criteria[0].id],
      formId: aDraft.body.id,
    });
    expect(answer.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("B's per-person matching ranks B's trials only, and B's re-reading never touches A's notes", async () => {
    const before = await snapshot();
    const bCandidateId = (await b.actor.post('/api/candidates/', { firstName: 'Bea', dateOfBirth: '1980-02-02', phone: '+13125550202' })).body.id;
    await b.actor.post(`/api/candidates/${bCandidateId}/clinical/notes`, { body: 'Has asthma.' });
    const trials = await b.actor.get(`/api/trial-matcher/candidates/${bCandidateId}/trials`);
    expect(trials.status).toBe(200);
    expect(trials.body.trials.map((trial: { trialId: string }) => trial.trialId)).not.toContain(aTrialId);
    const reread = await b.actor.post('/api/trial-matcher/note-rereads', {});
    expect(reread.status).toBe(202);
    expect(reread.body.organizationId).toBe(b.organizationId);
    await whenNoteRereadSettled(reread.body.id);
    const status = await b.actor.get('/api/trial-matcher/note-rereads');
    expect(status.body).toMatchObject({ notes: 1, latest: { id: reread.body.id, status: 'completed', processed: 1 } });
    expect(await snapshot()).toEqual(before);
  });

  it('covers every tenant-row matching endpoint', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(MATCHING)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
