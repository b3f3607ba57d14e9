import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { startFakeLlm } from '../support/fake-llm';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The optional language-model judge of the trial matcher (decision 097, TrialGPT): off by default and without
 * LLM_JUDGE_NOTES; with it, criteria the rules leave unknown are judged against the candidate's numbered note
 * sentences through a local fake of an OpenAI-compatible API, stored as `llm` evidence that never excludes.
 */

const KEY = 'llm-judge-key-0123';
let mode: 'good' | 'garbage' | 'uncited' = 'good';
const fake = await startFakeLlm({
  apiKey: KEY,
  reply: ({ criteria, sentences }) => {
    if (mode === 'garbage') return 'The patient seems fine to me.';
    const find = (words: RegExp) => sentences.find((sentence) => words.test(sentence.text))?.id;
    const results = criteria.map((criterion) => {
      if (/walk/i.test(criterion.text)) {
        const id = find(/walks/i);
        return {
          index: criterion.index,
          applies: true,
          explanation: 'The note says the patient walks two miles a day.',
          sentenceIds: mode === 'uncited' ? [99] : [id],
        };
      }
      if (/hepatitis/i.test(criterion.text))
        return { index: criterion.index, applies: true, explanation: 'Hepatitis B surface antigen is positive.', sentenceIds: [find(/hepatitis/i)] };
      return { index: criterion.index, applies: null, explanation: 'The notes do not say.', sentenceIds: [] };
    });
    return JSON.stringify({ results });
  },
});

let off: TestApp;
let notesNotAllowed: TestApp;
let t: TestApp;
let site: SignedUp;
let trialId: string;
let personId: string;
const criterionIds: Record<string, string> = {};

const NOTE = 'A 54-year-old man seen for follow-up. He walks two miles every morning.\nHepatitis B surface antigen positive, on tenofovir.';

beforeAll(async () => {
  off = await createTestApp();
  notesNotAllowed = await createTestApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: KEY, LLM_MODEL: 'fake-judge-1' });
  t = await createTestApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: KEY, LLM_MODEL: 'fake-judge-1', LLM_JUDGE_NOTES: 'true', LLM_TIMEOUT_MS: '5000' });
  site = await t.signUp({ organizationName: 'Judge Research Site' });
  const trial = await createRecruitingTrial(site.actor, {
    title: 'Walking study',
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 to 70', rule: { type: 'age', minYears: 18, maxYears: 70 } },
      { kind: 'inclusion', text: 'Able to walk 100 meters without help' },
      { kind: 'exclusion', text: 'Active hepatitis B infection' },
      { kind: 'exclusion', text: 'Lives more than two hours from the site' },
      { kind: 'exclusion', text: 'Investigator judges the participant unsuitable', rule: { type: 'site_judgement', reason: 'investigator_judgement' } },
    ],
  });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  trialId = trial.body.id;
  for (const criterion of trial.body.criteria) criterionIds[criterion.text] = criterion.id;
  personId = (await site.actor.post('/api/candidates/', { firstName: 'Walt', lastName: 'Test', dateOfBirth: '1972-04-01', sex: 'male' })).body.id;
  expect((await site.actor.post(`/api/candidates/${personId}/clinical/notes`, { body: NOTE })).status).toBe(201);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await notesNotAllowed?.close();
  await off?.close();
  await fake.close();
});

const judge = (id = personId) => site.actor.post(`/api/trial-matcher/${trialId}/candidates/${id}/llm-judgements`, {});
const evidenceOf = (body: { evidence: Array<{ text: string }> }, text: string) => body.evidence.find((item) => item.text === text) as Record<string, any>;

describe('the language-model judge', () => {
  it('is off by default, and off with a model configured until LLM_JUDGE_NOTES allows it to read notes (409)', async () => {
    for (const app of [off, notesNotAllowed]) {
      const other = await app.signUp({ organizationName: 'No Judge Site' });
      const trial = (await createRecruitingTrial(other.actor, { title: 'T', criteria: [{ kind: 'inclusion', text: 'Able to walk' }] })).body;
      const person = (await other.actor.post('/api/candidates/', { firstName: 'Nora' })).body.id;
      await other.actor.post(`/api/candidates/${person}/clinical/notes`, { body: 'Walks daily.' });
      const before = fake.received.length;
      const answer = await other.actor.post(`/api/trial-matcher/${trial.id}/candidates/${person}/llm-judgements`, {});
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ code: 'LLM_NOT_CONFIGURED', message: expect.stringContaining('ask an administrator') });
      expect(answer.body.error.message).not.toMatch(/LLM_/);
      expect(fake.received.length).toBe(before);
      expect((await other.actor.get(`/api/trial-matcher/${trial.id}`)).body.llmJudge).toBe(false);
    }
    expect((await site.actor.get(`/api/trial-matcher/${trialId}`)).body.llmJudge).toBe(true);
  });

  it('asks only about criteria the rules leave unknown (not site judgement), sending numbered note sentences', async () => {
    mode = 'good';
    const before = fake.received.length;
    const answer = await judge();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(fake.received.length).toBe(before + 1);
    const sent = JSON.parse(fake.received.at(-1)!.body.messages[1].content);
    expect(sent.criteria.map((criterion: { text: string }) => criterion.text)).toEqual([
      'Able to walk 100 meters without help',
      'Active hepatitis B infection',
      'Lives more than two hours from the site',
    ]);
    expect(sent.sentences).toEqual([
      { id: 1, text: 'A 54-year-old man seen for follow-up.' },
      { id: 2, text: 'He walks two miles every morning.' },
      { id: 3, text: 'Hepatitis B surface antigen positive, on tenofovir.' },
    ]);
  });

  it('stores met / not met / unknown as llm evidence with the sentences used; a "not met" flags, never excludes', async () => {
    const answer = (await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${personId}`)).body;
    const walk = evidenceOf(answer, 'Able to walk 100 meters without help');
    expect(walk.outcome).toBe('unknown');
    expect(walk.llm).toMatchObject({
      verdict: 'met',
      explanation: 'The note says the patient walks two miles a day.',
      sentences: [{ id: 2, text: 'He walks two miles every morning.', noteId: expect.any(String) }],
      model: 'fake-judge-1',
    });
    const hepatitis = evidenceOf(answer, 'Active hepatitis B infection');
    expect(hepatitis).toMatchObject({ outcome: 'unknown', llm: { verdict: 'not_met', sentences: [{ id: 3 }] } });
    expect(evidenceOf(answer, 'Lives more than two hours from the site').llm).toMatchObject({ verdict: 'unknown', sentences: [] });
    expect(evidenceOf(answer, 'Investigator judges the participant unsuitable').llm).toBeNull();
    expect(evidenceOf(answer, 'Aged 18 to 70')).toMatchObject({ outcome: 'met', llm: null });
    expect(answer.matchClass).toBe('possible');
    expect(answer.llmFlagged).toBe(1);

    const run = await site.actor.post(`/api/trial-matcher/${trialId}/runs`, {});
    await whenMatchRunSettled(run.body.id);
    const list = (await site.actor.get(`/api/trial-matcher/${trialId}/matches`)).body;
    expect(list.matches).toEqual([expect.objectContaining({ candidate: expect.objectContaining({ id: personId }), matchClass: 'possible', llmFlagged: 1 })]);
  });

  it('audits counts only, never the notes or the explanation', async () => {
    const rows = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, site.organizationId), eq(auditLog.action, 'candidate.match.llm_judge')));
    expect(rows).toHaveLength(1);
    expect(rows[0].changes).toEqual({ trialId, model: 'fake-judge-1', asked: 3, met: 1, notMet: 1, unknown: 1 });
  });

  it('what-if and re-matching read a "not met" judgement as the run does: it flags (possible, "Check notes"), never excludes', async () => {
    const before = (await site.actor.get(`/api/trial-matcher/${trialId}`)).body.counts;
    expect(before).toEqual({ likely: 0, possible: 1, excluded: 0, total: 1 });
    // A change that does not touch the flagged criterion leaves the candidate flagged: nobody moves.
    const widened = await site.actor.post(`/api/trial-matcher/${trialId}/what-if`, {
      criterionId: criterionIds['Aged 18 to 70'],
      rule: { type: 'age', minYears: 18, maxYears: 80 },
    });
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    expect(widened.body).toMatchObject({ before, after: before, admitted: 0, newlyExcluded: 0 });
    // Without the judged criterion its judgement no longer applies.
    const dropped = await site.actor.post(`/api/trial-matcher/${trialId}/what-if`, { criterionId: criterionIds['Active hepatitis B infection'], rule: null });
    expect(dropped.body).toMatchObject({ after: { likely: 1, possible: 0, excluded: 0 }, admitted: 0, newlyExcluded: 0 });
    // The rules still exclude on their own: the judgement neither causes nor prevents it.
    const narrowed = await site.actor.post(`/api/trial-matcher/${trialId}/what-if`, {
      criterionId: criterionIds['Aged 18 to 70'],
      rule: { type: 'age', minYears: 18, maxYears: 40 },
    });
    expect(narrowed.body).toMatchObject({ after: { likely: 0, possible: 0, excluded: 1 }, newlyExcluded: 1 });

    // Re-matching against the organization's recruiting trials: this one still listed, flagged, possible.
    const others = await site.actor.get(`/api/trial-matcher/candidates/${personId}/other-trials`);
    expect(others.status).toBe(200);
    expect(others.body.trials.find((item: { trialId: string }) => item.trialId === trialId)).toMatchObject({ matchClass: 'possible', llmFlagged: 1 });
    // A trial with the same words but no judgement of this candidate: likely, unflagged.
    const twin = await createRecruitingTrial(site.actor, {
      title: 'Walking study, second site',
      criteria: [
        { kind: 'inclusion', text: 'Aged 18 to 70', rule: { type: 'age', minYears: 18, maxYears: 70 } },
        { kind: 'exclusion', text: 'Active hepatitis B infection' },
      ],
    });
    expect(twin.status, JSON.stringify(twin.body)).toBe(201);
    const again = (await site.actor.get(`/api/trial-matcher/candidates/${personId}/other-trials`)).body.trials;
    expect(again.find((item: { trialId: string }) => item.trialId === twin.body.id)).toMatchObject({ matchClass: 'likely', llmFlagged: 0 });
    expect(again.find((item: { trialId: string }) => item.trialId === trialId)).toMatchObject({ matchClass: 'possible', llmFlagged: 1 });
  });

  it('takes a verdict citing no sentence it was sent as unknown; a reworded criterion drops its judgement', async () => {
    mode = 'uncited';
    expect((await judge()).status).toBe(200);
    const answer = (await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${personId}`)).body;
    expect(evidenceOf(answer, 'Able to walk 100 meters without help').llm).toMatchObject({ verdict: 'unknown', sentences: [] });
    mode = 'good';

    const trial = (await site.actor.get(`/api/trials/${trialId}`)).body;
    const criteria = trial.criteria.map((criterion: { kind: string; text: string; rule: unknown }) => ({
      kind: criterion.kind,
      text: criterion.text === 'Active hepatitis B infection' ? 'Active hepatitis B or C infection' : criterion.text,
      rule: criterion.rule,
    }));
    const updated = await site.actor.patch(`/api/trials/${trialId}`, { criteria });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const after = (await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${personId}`)).body;
    expect(evidenceOf(after, 'Active hepatitis B or C infection').llm).toBeNull();
    expect(after.llmFlagged).toBe(0);
  });

  it('409 without notes to read; 502 when the model answers outside the JSON shape; 404 for a candidate not of the trial’s organization', async () => {
    const bare = (await site.actor.post('/api/candidates/', { firstName: 'Nina' })).body.id;
    const noNotes = await judge(bare);
    expect(noNotes.status).toBe(409);
    expect(noNotes.body.error.code).toBe('NO_CLINICAL_NOTES');
    mode = 'garbage';
    const broken = await judge();
    expect(broken.status).toBe(502);
    expect(broken.body.error.code).toBe('LLM_ERROR');
    mode = 'good';
    const other = await t.signUp({ organizationName: 'Other Judge Site' });
    const theirs = (await other.actor.post('/api/candidates/', { firstName: 'Otto' })).body.id;
    expect((await judge(theirs)).status).toBe(404);
  });
});
