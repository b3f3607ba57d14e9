import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidateFact, candidateNote } from '../../src/server/db/schema';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { noteRereadTuning, whenNoteRereadSettled } from '../../src/server/features/matching/note-reread';
import { vocabulary } from '../../src/server/features/trials/vocabulary';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Per-person matching (decision 133): one person against every recruiting trial of the organization, ranked, with
 * the same evidence as a trial's results; a trial's results filtered by candidate id; and re-reading every note of
 * the organization as a processing run (decision 132).
 */

let t: TestApp;
let site: SignedUp;
let annId: string;
let benId: string;
const trials: Record<string, string> = {};

const conceptOf = (words: string) => {
  const concept = vocabulary().find(words)[0]!.concept;
  return { id: concept.id, name: concept.en };
};
const ANN_NOTE = '44-year-old woman with asthma since childhood, uses an albuterol inhaler. Never smoked.';

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Per-person Site' });
  const asthma = conceptOf('asthma');
  const diabetes = conceptOf('type 2 diabetes');
  const make = async (title: string, criteria: unknown[], recruiting = true) => {
    const created = recruiting ? await createRecruitingTrial(site.actor, { title, criteria }) : await site.actor.post('/api/trials/', { title, criteria });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    trials[title] = created.body.id;
  };
  await make('Asthma study', [
    { kind: 'inclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: [asthma] } },
    { kind: 'inclusion', text: 'Adults 18 to 75', rule: { type: 'age', minYears: 18, maxYears: 75 } },
  ]);
  await make('Diabetes study', [
    { kind: 'inclusion', text: 'Type 2 diabetes', rule: { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [diabetes] } },
  ]);
  await make('Healthy lungs study', [
    { kind: 'exclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: false, concepts: [asthma] } },
  ]);
  await make(
    'Draft asthma study',
    [{ kind: 'inclusion', text: 'Asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: [asthma] } }],
    false,
  );
  annId = (await site.actor.post('/api/candidates/', { firstName: 'Ann', lastName: 'Able', dateOfBirth: '1982-03-04', sex: 'female' })).body.id;
  benId = (await site.actor.post('/api/candidates/', { firstName: 'Ben', lastName: 'Baker', dateOfBirth: '1970-01-01' })).body.id;
  expect((await site.actor.post(`/api/candidates/${annId}/clinical/notes`, { body: ANN_NOTE })).status).toBe(201);
  expect((await site.actor.post(`/api/candidates/${benId}/clinical/notes`, { body: 'Type 2 diabetes on metformin.' })).status).toBe(201);
}, 180_000);
afterAll(() => t?.close());

describe('one person against every recruiting trial', () => {
  it('ranks the trials that fit first and the ones that exclude last, each with its evidence', async () => {
    const answer = await site.actor.get(`/api/trial-matcher/candidates/${annId}/trials?evidence=full`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { trials: ranked, counts, candidate } = answer.body;
    expect(candidate).toMatchObject({ id: annId, firstName: 'Ann' });
    // The draft trial is not recruiting: not offered.
    expect(ranked.map((trial: { title: string }) => trial.title)).toEqual(['Asthma study', 'Diabetes study', 'Healthy lungs study']);
    expect(counts).toEqual({ likely: 1, possible: 1, excluded: 1, total: 3 });

    const [asthmaStudy, diabetesStudy, healthyLungs] = ranked;
    expect(asthmaStudy).toMatchObject({ matchClass: 'likely', inTrial: false, metCount: 2, notMetCount: 0 });
    const asthma = asthmaStudy.evidence.find((item: { text: string }) => item.text === 'Asthma');
    expect(asthma).toMatchObject({ outcome: 'met', key: true, fact: { source: 'note', kind: 'condition' } });
    expect(ANN_NOTE.slice(asthma.fact.span.start, asthma.fact.span.end)).toBe('asthma');
    expect(asthmaStudy.reasons.length).toBeGreaterThan(0);

    expect(diabetesStudy).toMatchObject({ matchClass: 'possible', unknownCount: 1 });
    expect(diabetesStudy.evidence[0]).toMatchObject({ outcome: 'unknown', fact: null });

    expect(healthyLungs).toMatchObject({ matchClass: 'excluded', notMetCount: 1 });
    expect(healthyLungs.blockers).toHaveLength(1);
    expect(healthyLungs.evidence[0]).toMatchObject({ outcome: 'not_met', fact: { source: 'note' } });

    const excludedOnly = await site.actor.get(`/api/trial-matcher/candidates/${annId}/trials?class=excluded`);
    expect(excludedOnly.body.trials.map((trial: { title: string }) => trial.title)).toEqual(['Healthy lungs study']);
    expect(excludedOnly.body.counts.total).toBe(3);
    // Without evidence=full, the ids a trial's results list carry, and no evidence.
    expect(excludedOnly.body.trials[0]).toMatchObject({ notMetIds: [healthyLungs.evidence[0].criterionId], unknownIds: [] });
    expect(excludedOnly.body.trials[0].evidence).toBeUndefined();
  });

  it('gives the same evidence as the trial’s own evidence screen, and shows a trial the person was added to', async () => {
    const own = await site.actor.get(`/api/trial-matcher/${trials['Asthma study']}/candidates/${annId}`);
    const ranked = (await site.actor.get(`/api/trial-matcher/candidates/${annId}/trials?evidence=full`)).body.trials;
    const fromList = ranked.find((trial: { trialId: string }) => trial.trialId === trials['Asthma study']);
    expect(fromList.evidence).toEqual(own.body.evidence);
    expect(fromList.matchClass).toBe(own.body.matchClass);
    expect(fromList.score).toBe(own.body.score);

    const added = await site.actor.post(`/api/trial-matcher/${trials['Asthma study']}/add-to-trial`, { candidateIds: [annId] });
    expect(added.body).toEqual({ added: 1, alreadyInTrial: 0 });
    const after = (await site.actor.get(`/api/trial-matcher/candidates/${annId}/trials`)).body.trials;
    expect(after.find((trial: { trialId: string }) => trial.trialId === trials['Asthma study']).inTrial).toBe(true);
  });

  it('answers 404 for a person it does not know', async () => {
    expect((await site.actor.get('/api/trial-matcher/candidates/00000000-0000-4000-8000-000000000000/trials')).status).toBe(404);
    expect((await site.actor.get('/api/trial-matcher/candidates/not-an-id/trials')).status).toBe(404);
  });
});

describe("a trial's results filtered by candidate id", () => {
  it('answers that person’s row only', async () => {
    const run = await site.actor.post(`/api/trial-matcher/${trials['Diabetes study']}/runs`, {});
    await whenMatchRunSettled(run.body.id);
    const all = await site.actor.get(`/api/trial-matcher/${trials['Diabetes study']}/matches`);
    expect(all.body.total).toBe(2);
    const ben = await site.actor.get(`/api/trial-matcher/${trials['Diabetes study']}/matches?candidateId=${benId}`);
    expect(ben.status).toBe(200);
    expect(ben.body.total).toBe(1);
    expect(ben.body.matches).toEqual([expect.objectContaining({ candidate: expect.objectContaining({ id: benId }), matchClass: 'likely' })]);
    const annExcludedOnly = await site.actor.get(`/api/trial-matcher/${trials['Diabetes study']}/matches?candidateId=${annId}&class=excluded`);
    expect(annExcludedOnly.body).toEqual({ matches: [], total: 0 });
    expect((await site.actor.get(`/api/trial-matcher/${trials['Diabetes study']}/matches?candidateId=nope`)).status).toBe(400);
  });
});

describe('re-reading every clinical note', () => {
  const noteFacts = () =>
    t.deps.db
      .select()
      .from(candidateFact)
      .where(and(eq(candidateFact.organizationId, site.organizationId), eq(candidateFact.source, 'note')));
  const shape = (rows: Array<typeof candidateFact.$inferSelect>) =>
    rows
      .map((row) => `${row.candidateId}|${row.sourceRef}|${row.kind}|${row.conceptId}|${row.name}|${row.status}|${row.value}|${row.spanStart}-${row.spanEnd}`)
      .sort();

  it('replaces each note’s facts with today’s reading, leaves other facts alone, shows its progress, and is idempotent', async () => {
    noteRereadTuning.sliceSize = 1;
    const fresh = shape(await noteFacts());
    expect(fresh.length).toBeGreaterThan(3);
    // As if an older reader had read the notes: one fact lost, one misread.
    const [first, second] = await noteFacts();
    await t.deps.db.delete(candidateFact).where(eq(candidateFact.id, first.id));
    await t.deps.db.update(candidateFact).set({ name: 'misread', conceptId: null }).where(eq(candidateFact.id, second.id));
    const manual = await site.actor.post(`/api/candidates/${annId}/clinical/facts`, { kind: 'smoking', name: 'smoking', status: 'absent' });
    expect(manual.status).toBe(201);

    const before = await site.actor.get('/api/trial-matcher/note-rereads');
    expect(before.body.notes).toBe(2);
    const started = await site.actor.post('/api/trial-matcher/note-rereads', {});
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ kind: 'note_reread', total: 2 });
    // A second start while it goes joins it.
    const joined = await site.actor.post('/api/trial-matcher/note-rereads', {});
    expect(joined.body.id).toBe(started.body.id);
    await whenNoteRereadSettled(started.body.id);

    const status = await site.actor.get('/api/trial-matcher/note-rereads');
    expect(status.body.latest).toMatchObject({ id: started.body.id, status: 'completed', processed: 2, succeeded: 2, progress: 1 });
    expect(shape(await noteFacts())).toEqual(fresh);
    const manualFacts = await t.deps.db.select().from(candidateFact).where(eq(candidateFact.id, manual.body.id));
    expect(manualFacts).toHaveLength(1);

    const again = await site.actor.post('/api/trial-matcher/note-rereads', {});
    expect(again.body.id).not.toBe(started.body.id);
    await whenNoteRereadSettled(again.body.id);
    expect(shape(await noteFacts())).toEqual(fresh);

    const audits = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, site.organizationId), eq(auditLog.entityId, started.body.id)));
    expect(audits.map((row) => row.action)).toEqual(expect.arrayContaining(['processing_run.create']));
    noteRereadTuning.sliceSize = 500;
  });

  it('reads "6 weeks of" from the day the note was written, so a later re-reading keeps the same start', async () => {
    const note = await site.actor.post(`/api/candidates/${annId}/clinical/notes`, { body: 'Six weeks of neck pain radiating to the right arm.' });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    await t.deps.db
      .update(candidateNote)
      .set({ createdAt: new Date('2025-01-15T10:00:00Z') })
      .where(eq(candidateNote.id, note.body.note.id));
    const started = await site.actor.post('/api/trial-matcher/note-rereads', {});
    await whenNoteRereadSettled(started.body.id);
    const [pain] = (await noteFacts()).filter((row) => row.sourceRef === note.body.note.id && row.kind === 'condition');
    // Six weeks before 2025-01-15, not before today.
    expect(pain).toMatchObject({ name: 'neck pain', observedOn: '2024-12-04' });
  });
});

describe("the trial's own condition, in the person's view as in the trial's", () => {
  it('keeps a person with no word of the condition from "likely", and says the same as the trial matcher', async () => {
    // New wording: a trial listed for gout, asking only for adults; nobody here has a word of gout on record.
    const created = await createRecruitingTrial(site.actor, {
      title: 'Gout flare study',
      conditions: ['Gout'],
      criteria: [{ kind: 'inclusion', text: 'Adults 18 or older', rule: { type: 'age', minYears: 18, maxYears: null } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gout = created.body.id as string;
    const ranked = (await site.actor.get(`/api/trial-matcher/candidates/${benId}/trials?evidence=full`)).body.trials;
    const fromList = ranked.find((trial: { trialId: string }) => trial.trialId === gout);
    // Age alone is no reason to call a person likely for a gout trial: the condition is unknown, so "possible".
    expect(fromList).toMatchObject({ matchClass: 'possible', unknownCount: 1 });
    expect(fromList.evidence[0]).toMatchObject({ text: 'Has the condition the trial is for: Gout', outcome: 'unknown', key: true });
    const own = await site.actor.get(`/api/trial-matcher/${gout}/candidates/${benId}`);
    expect(fromList.evidence).toEqual(own.body.evidence);
    expect(fromList.matchClass).toBe(own.body.matchClass);
    expect(fromList.score).toBe(own.body.score);

    // A note naming it: now likely, in both views.
    expect((await site.actor.post(`/api/candidates/${benId}/clinical/notes`, { body: 'Recurrent gout of the left big toe.' })).status).toBe(201);
    const after = (await site.actor.get(`/api/trial-matcher/candidates/${benId}/trials`)).body.trials;
    expect(after.find((trial: { trialId: string }) => trial.trialId === gout).matchClass).toBe('likely');
    expect((await site.actor.get(`/api/trial-matcher/${gout}/candidates/${benId}`)).body.matchClass).toBe('likely');
  });
});
