import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';
import { readStudyRecord, studyMedicineNames } from '../../src/server/features/trials/ctgov';
import { questionsAbout } from '../support/criteria-questions';

/** The eleventh pass (decision 108): an allergy to the trial's own medicine, named, on phrasings that are not a corpus record's. */
const studyMedicines = ['Zanubrutinib', 'Brukinsa', 'Tirzepatide'];
const read = (text: string) => readTextRule('exclusion', text, { studyMedicines });

describe("an allergy to the trial's own medicine, by name", () => {
  it('reads it whole as an allergy to that medicine, needing no review', () => {
    const cases: Array<[string, string]> = [
      ['Known allergy to zanubrutinib', 'an allergy to Zanubrutinib'],
      ['Prior anaphylaxis to Brukinsa', 'an allergy to Brukinsa'],
      ['Hypersensitivity to tirzepatide or zanubrutinib', 'an allergy to Tirzepatide or Zanubrutinib'],
    ];
    for (const [text, condition] of cases) {
      const rule = read(text);
      expect(rule.rule, text).toMatchObject({ type: 'condition', condition, present: false });
      expect(rule.needsReview, text).toBe(false);
    }
  });

  it('is no allergy without the trial naming the medicine, and a name outside an allergy is not read as the study medicine', () => {
    const unnamed = readTextRule('exclusion', 'Known allergy to zanubrutinib');
    expect(unnamed.rule === null || unnamed.needsReview).toBe(true);
    for (const text of [
      'Cohort B (tirzepatide) only: must have a biopsy',
      'Prior exposure to tirzepatide or hypersensitivity to excipients of the investigational product',
    ]) {
      expect(JSON.stringify(read(text).rule ?? {}), text).not.toContain('cohortly:study-medicine:');
    }
  });

  it('asks the patient about the medicine by name, in English and Spanish', () => {
    const text = 'Hypersensitivity to tirzepatide';
    const asked = questionsAbout('exclusion', text, read(text).rule);
    expect(asked).toHaveLength(1);
    expect(asked[0].wording.chat.en).toContain('an allergy to Tirzepatide');
    expect(asked[0].wording.chat.es).toContain('una alergia a Tirzepatide');
  });
});

describe("the trial's medicine names", () => {
  const record = (interventions: unknown[]) =>
    readStudyRecord({ protocolSection: { identificationModule: { nctId: 'NCT09999999' }, armsInterventionsModule: { interventions } } });

  it('takes drug names and their other names, without doses, marks, placebos or classes', () => {
    const names = studyMedicineNames(
      record([
        { type: 'DRUG', name: 'Zanubrutinib 160 mg', otherNames: ['Brukinsa®', 'BTK inhibitor'] },
        { type: 'DRUG', name: 'Placebo matching zanubrutinib' },
        { type: 'BIOLOGICAL', name: 'Obinutuzumab (GA101)' },
        { type: 'PROCEDURE', name: 'Bone marrow biopsy' },
        { type: 'DRUG', name: 'Standard of care chemotherapy' },
      ]),
    );
    expect(names).toEqual(['Zanubrutinib', 'Brukinsa', 'Obinutuzumab', 'GA101']);
  });
});

describe('a tumour, cancerous or not', () => {
  const readAny = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('reads a tumour named in a list of conditions as a tumour', () => {
    const rule = readAny('exclusion', 'History of stroke, epilepsy or tumours');
    expect(rule.rule).toMatchObject({ type: 'condition', present: false });
    expect(rule.rule?.type === 'condition' && rule.rule.concepts?.map((concept) => concept.id)).toContain('cohortly:tumor');
  });

  it('is no tumour the person has in a sample, a marker, a molecule, a treatment or a criteria name', () => {
    for (const text of [
      'Archival tumour tissue available for testing',
      'Tumor-related pain requiring opioids',
      'Elevated tumour markers at screening',
      'Prior tumor necrosis factor inhibitor therapy',
      'Received anti-tumor treatment within 4 weeks',
      'Measurable disease per Response Evaluation Criteria in Solid Tumors',
    ]) {
      expect(JSON.stringify(readAny('exclusion', text).rule ?? {}), text).not.toContain('cohortly:tumor');
    }
  });

  it('keeps a tumour beside a place in review: it may be that place’s only', () => {
    const rule = readAny('exclusion', 'Infection or tumor of the cervical spine');
    expect(rule.rule).not.toBeNull();
    expect(rule.needsReview).toBe(true);
  });

  it('reads a solid or spreading tumour as cancer', () => {
    const rule = readAny('exclusion', 'Metastatic tumour');
    expect(rule.rule).toMatchObject({ type: 'condition', condition: 'cancer', present: false });
  });
});
