import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_NOTE_MAX } from '../../src/contract/clinical-note';
import { auditLog, candidate } from '../../src/server/db/schema';
import { whenRunSettled } from '../../src/server/features/candidates/import-runner';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { vocabulary } from '../../src/server/features/trials/vocabulary';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Notes from every door (decision 132): a notes column of an import (CSV, JSON rows, the streamed file) becomes the
 * candidate's clinical note, read into facts in the same run with the same spans and quotes as a note typed on the
 * candidate's page, so the matcher decides by it and its evidence quotes the note.
 */

let t: TestApp;
let site: SignedUp;

const type2 = vocabulary().find('type 2 diabetes')[0]!.concept;
const ANN_NOTE = 'Referred by Dr. Patel for the diabetes study. 58-year-old woman with type 2 diabetes on metformin. No history of pancreatitis.';
const BEN_NOTE = 'Seen for hypertension. Denies diabetes. Chronic pancreatitis, on pancreatic enzymes.';

const CSV = [
  'First Name,Last Name,Phone,Clinical notes',
  `Ann,Able,+12025550201,"${ANN_NOTE}"`,
  `Ben,Baker,+12025550202,"${BEN_NOTE}"`,
  'Cal,Cole,+12025550203,',
].join('\n');

async function idOf(phone: string): Promise<string> {
  const [person] = await t.deps.db
    .select({ id: candidate.id })
    .from(candidate)
    .where(and(eq(candidate.organizationId, site.organizationId), eq(candidate.phone, phone)));
  expect(person, phone).toBeDefined();
  return person.id;
}

const clinicalOf = async (phone: string) => {
  const answer = await site.actor.get(`/api/candidates/${await idOf(phone)}/clinical`);
  expect(answer.status).toBe(200);
  return answer.body as { notes: Array<{ id: string; body: string; factCount: number; authorName: string | null }>; facts: Array<Record<string, any>> };
};

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Referral Notes Site', name: 'Nora Importer' });
}, 60_000);
afterAll(() => t?.close());

describe('an import’s notes column', () => {
  it('is guessed from its header and counted in the preview', async () => {
    const preview = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: CSV });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.mapping['Clinical notes']).toBe('notes');
    expect(preview.body.clinical.notes).toBe(2);
    // A free-text column is not read as a list of diagnoses: no unrecognised "values" from it.
    expect(preview.body.clinical.unrecognised).toEqual([]);
    const comments = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: 'First Name,Comments\nAnn,call after 5pm\n' });
    expect(comments.body.mapping.Comments).toBe('custom');
  });

  it('stores each note as a clinical note read into facts in the run, and the matcher quotes it', async () => {
    const started = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: CSV, label: 'Clinic referrals' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.run.id as string;
    await whenRunSettled(runId);
    expect((await site.actor.get(`/api/processing-runs/${runId}/data`)).body.run).toMatchObject({ status: 'completed', succeeded: 3 });

    const ann = await clinicalOf('+12025550201');
    expect(ann.notes).toHaveLength(1);
    const note = ann.notes[0];
    expect(note).toMatchObject({ body: ANN_NOTE, authorName: 'Nora Importer' });
    expect(note.factCount).toBeGreaterThanOrEqual(4);
    const diabetes = ann.facts.find((fact) => fact.kind === 'condition' && fact.conceptId === type2.id);
    expect(diabetes).toMatchObject({ source: 'note', sourceRef: note.id, status: 'present' });
    expect(ANN_NOTE.slice(diabetes!.span.start, diabetes!.span.end)).toBe('type 2 diabetes');
    expect(ann.facts.find((fact) => fact.kind === 'condition' && fact.name === 'pancreatitis')).toMatchObject({ status: 'absent', source: 'note' });
    expect((await clinicalOf('+12025550203')).notes).toEqual([]);

    const [audit] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, runId), eq(auditLog.action, 'candidate.import_batch')));
    expect(audit.changes).toMatchObject({ notes: 2 });
    // Counts only: never the note's words.
    expect(JSON.stringify(audit.changes)).not.toContain('pancreatitis');

    const trial = await createRecruitingTrial(site.actor, {
      title: 'Type 2 diabetes and the pancreas',
      criteria: [
        {
          kind: 'inclusion',
          text: 'Type 2 diabetes',
          rule: { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: type2.id, name: type2.en }] },
        },
        { kind: 'exclusion', text: 'Pancreatitis', rule: { type: 'condition', condition: 'pancreatitis', present: false } },
      ],
    });
    expect(trial.status, JSON.stringify(trial.body)).toBe(201);
    const trialId = trial.body.id as string;
    const run = await site.actor.post(`/api/trial-matcher/${trialId}/runs`, {});
    await whenMatchRunSettled(run.body.id);

    const annMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await idOf('+12025550201')}`);
    expect(annMatch.status).toBe(200);
    expect(['likely', 'possible']).toContain(annMatch.body.matchClass);
    const met = annMatch.body.evidence.find((item: { text: string }) => item.text === 'Type 2 diabetes');
    expect(met).toMatchObject({ outcome: 'met', fact: { source: 'note', sourceRef: note.id } });
    expect(met.fact.sourceText).toContain('type 2 diabetes');
    expect(ANN_NOTE.slice(met.fact.span.start, met.fact.span.end)).toBe('type 2 diabetes');

    const benMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await idOf('+12025550202')}`);
    expect(benMatch.body.matchClass).toBe('excluded');
    const excluded = benMatch.body.evidence.find((item: { text: string }) => item.text === 'Pancreatitis');
    expect(excluded).toMatchObject({ outcome: 'not_met', fact: { source: 'note' } });
    expect(excluded.fact.sourceText).toContain('pancreatitis');

    const calMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await idOf('+12025550203')}`);
    expect(calMatch.body.evidence.find((item: { text: string }) => item.text === 'Type 2 diabetes').outcome).toBe('unknown');
  });

  it('does not store a note twice when the same file is imported again, and adds a new one to the merged person', async () => {
    const again = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: CSV });
    await whenRunSettled(again.body.run.id);
    expect((await clinicalOf('+12025550201')).notes).toHaveLength(1);

    const followUp = 'Follow-up: now also taking lisinopril.';
    const merged = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: `First Name,Phone,Notes\nAnn,+12025550201,${followUp}\n` });
    await whenRunSettled(merged.body.run.id);
    const ann = await clinicalOf('+12025550201');
    expect(ann.notes.map((note) => note.body).sort()).toEqual([ANN_NOTE, followUp].sort());
    const followUpNote = ann.notes.find((note) => note.body === followUp)!;
    const medication = ann.facts.find((fact) => fact.kind === 'medication' && fact.sourceRef === followUpNote.id);
    expect(medication).toMatchObject({ source: 'note', status: 'present' });
    expect(medication!.name).toContain('lisinopril');
  });

  it('reads the notes of JSON rows and of a streamed file, and refuses a row whose note is too long, naming the column', async () => {
    const rows = [
      { first_name: 'Dee', phone: '+12025550204', note: '47 yo man with asthma, uses an albuterol inhaler.' },
      { first_name: 'Eve', phone: '+12025550205', note: 'x'.repeat(CLINICAL_NOTE_MAX + 1) },
    ];
    const json = await site.actor.post('/api/candidates/bulk', { format: 'json', data: rows });
    expect(json.status, JSON.stringify(json.body)).toBe(202);
    await whenRunSettled(json.body.run.id);
    const data = (await site.actor.get(`/api/processing-runs/${json.body.run.id}/data`)).body;
    expect(data.run).toMatchObject({ succeeded: 1, failed: 1 });
    const dee = await clinicalOf('+12025550204');
    expect(dee.facts.find((fact) => fact.kind === 'condition')).toMatchObject({ name: 'asthma', source: 'note', sourceRef: dee.notes[0].id });

    const invalid = await site.actor.get(`/api/processing-runs/${json.body.run.id}/data?outcome=invalid`);
    expect(invalid.status).toBe(200);
    expect(JSON.stringify(invalid.body.items)).toContain('"field":"note"');

    const streamed = await site.actor.upload(
      '/api/candidates/bulk/stream?label=Referral%20letters',
      'First Name,Phone,Referral notes\nFay,+12025550206,Known migraine without aura; not pregnant.\n',
    );
    expect(streamed.status, JSON.stringify(streamed.body)).toBe(202);
    await whenRunSettled(streamed.body.run.id);
    const fay = await clinicalOf('+12025550206');
    expect(fay.notes).toHaveLength(1);
    expect(fay.facts.some((fact) => fact.kind === 'condition' && /migraine/i.test(fact.name) && fact.source === 'note')).toBe(true);
  });
});
