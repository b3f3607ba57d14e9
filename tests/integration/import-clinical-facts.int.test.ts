import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidate, candidateFact } from '../../src/server/db/schema';
import { whenRunSettled } from '../../src/server/features/candidates/import-runner';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { vocabulary } from '../../src/server/features/trials/vocabulary';
import { createRecruitingTrial } from '../support/trials';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Import columns become clinical facts (decision 079): diagnoses, medications and labs from a file, in the
 * candidate's transaction, on both import paths, and the matcher decides by them with evidence naming the import.
 */

let t: TestApp;
let site: SignedUp;

const conceptOf = (words: string) => vocabulary().find(words)[0]!.concept;
const type2 = conceptOf('type 2 diabetes');

const CSV = [
  'First Name,Last Name,Phone,Diagnoses,Medications,HbA1c,eGFR (mL/min/1.73m2),Lab date',
  'Ann,Able,+12025550101,Type 2 diabetes; Zorblax syndrome,metformin,7.9,58,2026-03-02',
  'Ben,Baker,+12025550102,E11.9,,53 mmol/mol,,03/04/2026',
  'Cal,Cole,+12025550103,Asthma,,high,44,',
].join('\n');

async function factsOf(phone: string) {
  const [person] = await t.deps.db
    .select({ id: candidate.id })
    .from(candidate)
    .where(and(eq(candidate.organizationId, site.organizationId), eq(candidate.phone, phone)));
  expect(person, phone).toBeDefined();
  return t.deps.db.select().from(candidateFact).where(eq(candidateFact.candidateId, person.id));
}

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Clinical Import Site' });
}, 60_000);
afterAll(() => t?.close());

describe('import columns as clinical facts', () => {
  it('guesses the clinical columns and previews the facts, naming the values it does not recognize', async () => {
    const preview = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: CSV });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.mapping).toMatchObject({
      Diagnoses: 'conditions',
      Medications: 'medications',
      HbA1c: 'lab',
      'eGFR (mL/min/1.73m2)': 'lab',
      'Lab date': 'clinicalDate',
    });
    expect(preview.body.clinical.labColumns).toEqual([
      { column: 'HbA1c', measure: 'HbA1c', unit: '%' },
      { column: 'eGFR (mL/min/1.73m2)', measure: 'eGFR', unit: 'mL/min/1.73m2' },
    ]);
    // Ann: 2 diagnoses + 1 medication + 2 labs; Ben: 1 diagnosis + 1 lab; Cal: 1 diagnosis + 1 lab ("high" is not a value).
    expect(preview.body.clinical.facts).toBe(9);
    expect(preview.body.clinical.unrecognised).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ column: 'Diagnoses', value: 'Zorblax syndrome', kept: true, rows: 1 }),
        expect.objectContaining({ column: 'HbA1c', value: 'high', kept: false }),
      ]),
    );
    expect(preview.body.clinical.unrecognised).toHaveLength(2);
  });

  it('refuses a column mapped to a lab value whose header names no lab, on both paths', async () => {
    const mapping = { 'First Name': 'firstName', Favourite: 'lab' };
    const json = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: 'First Name,Favourite\nAnn,7\n', mapping });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toContain('"Favourite"');
    const streamed = await site.actor.upload(
      `/api/candidates/bulk/stream?mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
      'First Name,Favourite\nAnn,7\n',
    );
    expect(streamed.status).toBe(400);
    expect(streamed.body.error.message).toContain('"Favourite"');
  });

  it('stores the facts of the JSON import with the run, the date and the criteria units', async () => {
    const started = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: CSV, label: 'Diabetes registry' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.run.id as string;
    await whenRunSettled(runId);
    expect((await site.actor.get(`/api/processing-runs/${runId}/data`)).body.run).toMatchObject({ status: 'completed', succeeded: 3 });

    const ann = await factsOf('+12025550101');
    expect(ann.every((fact) => fact.source === 'import' && fact.sourceRef === runId)).toBe(true);
    expect(ann.find((fact) => fact.kind === 'condition' && fact.conceptId === type2.id)).toMatchObject({ status: 'present' });
    expect(ann.find((fact) => fact.name === 'Zorblax syndrome')).toMatchObject({ kind: 'condition', conceptId: null });
    expect(ann.find((fact) => fact.kind === 'medication')?.conceptId).toBeTruthy();
    expect(ann.find((fact) => fact.name === 'HbA1c')).toMatchObject({ value: 7.9, unit: '%', observedOn: '2026-03-02' });
    expect(ann.find((fact) => fact.name === 'eGFR')).toMatchObject({ value: 58, unit: 'mL/min/1.73m2' });
    expect(ann.find((fact) => fact.name === 'HbA1c')?.sourceText).toBe('HbA1c: 7.9 (Diabetes registry)');

    const ben = await factsOf('+12025550102');
    // An ICD-10 code names the concept; mmol/mol is converted to the % criteria use; a US date is month first.
    expect(ben.find((fact) => fact.kind === 'condition')).toMatchObject({ conceptId: type2.id, code: 'http://hl7.org/fhir/sid/icd-10|E11.9' });
    expect(ben.find((fact) => fact.name === 'HbA1c')).toMatchObject({ value: 7, unit: '%', observedOn: '2026-03-04' });
    expect((await factsOf('+12025550103')).map((fact) => fact.name).sort()).toEqual(['asthma', 'eGFR']);
  });

  it('adds the file’s facts to an existing candidate when a row merges into them', async () => {
    const started = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: 'First Name,Phone,Medications\nCal,+12025550103,Insulin glargine\n' });
    expect(started.status).toBe(202);
    await whenRunSettled(started.body.run.id);
    const cal = await factsOf('+12025550103');
    expect(cal.filter((fact) => fact.kind === 'medication').map((fact) => fact.sourceRef)).toEqual([started.body.run.id]);
  });

  it('stores the facts of a streamed import, and the matcher decides by them with evidence naming the import', async () => {
    const csv = ['First Name,Phone,Diagnosis,HbA1c (mmol/mol)', 'Dee,+12025550104,Type 2 diabetes mellitus,86', 'Eli,+12025550105,Hypertension,48'].join('\n');
    const answer = await site.actor.upload('/api/candidates/bulk/stream?label=Clinic%20extract', csv);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    await whenRunSettled(answer.body.run.id);
    const dee = await factsOf('+12025550104');
    expect(dee.find((fact) => fact.name === 'HbA1c')).toMatchObject({ value: 10, unit: '%', source: 'import', sourceRef: answer.body.run.id });

    const trial = await createRecruitingTrial(site.actor, {
      title: 'Type 2 diabetes study',
      criteria: [
        {
          kind: 'inclusion',
          text: 'Type 2 diabetes',
          rule: { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: type2.id, name: type2.en }] },
        },
        { kind: 'exclusion', text: 'HbA1c above 9%', rule: { type: 'lab', measure: 'HbA1c', comparator: '<=', value: 9, unit: '%' } },
      ],
    });
    expect(trial.status).toBe(201);
    const trialId = trial.body.id as string;
    const run = await site.actor.post(`/api/trial-matcher/${trialId}/runs`, {});
    expect(run.status).toBe(202);
    await whenMatchRunSettled(run.body.id);

    const ids = async (phone: string) =>
      (
        await t.deps.db
          .select({ id: candidate.id })
          .from(candidate)
          .where(and(eq(candidate.organizationId, site.organizationId), eq(candidate.phone, phone)))
      )[0].id;
    const annMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await ids('+12025550101')}`);
    expect(annMatch.status).toBe(200);
    expect(annMatch.body.matchClass).toBe('likely');
    const diabetes = annMatch.body.evidence.find((item: { text: string }) => item.text === 'Type 2 diabetes');
    expect(diabetes).toMatchObject({ outcome: 'met' });
    expect(diabetes.fact).toMatchObject({ source: 'import', sourceText: 'Diagnoses: Type 2 diabetes (Diabetes registry)' });
    expect(diabetes.reason).toContain('imported file');

    const deeMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await ids('+12025550104')}`);
    expect(deeMatch.body.matchClass).toBe('excluded');
    const hba1c = deeMatch.body.evidence.find((item: { text: string }) => item.text === 'HbA1c above 9%');
    expect(hba1c).toMatchObject({ outcome: 'not_met' });
    expect(hba1c.fact).toMatchObject({ source: 'import', sourceRef: answer.body.run.id, sourceText: 'HbA1c (mmol/mol): 86 (Clinic extract)' });

    const eliMatch = await site.actor.get(`/api/trial-matcher/${trialId}/candidates/${await ids('+12025550105')}`);
    expect(eliMatch.body.evidence.find((item: { text: string }) => item.text === 'Type 2 diabetes')?.outcome).toBe('unknown');
  });
});
