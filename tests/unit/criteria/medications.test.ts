import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { readStudyRecord, studyMedicineNames } from '../../../src/server/features/trials/ctgov';
import { questionsAbout } from '../../support/criteria-questions';

/** Medicines a criterion names, and allergies to named medicines (trials/criteria/medications.ts). Every phrasing here is new wording, not a corpus record's. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
/** The trial's own medicines, for an allergy to them by name (decision 108). */
const studyMedicines = ['Zanubrutinib', 'Brukinsa', 'Tirzepatide'];
const readWithStudyMedicines = (text: string) => readTextRule('exclusion', text, { studyMedicines });

describe('an allergy to named medicines is that allergy', () => {
  it('reads an allergy to a class of medicines as one condition per class, needing no review', () => {
    const cases: Array<[string, string]> = [
      ['Known hypersensitivity to NSAIDs', 'an allergy to anti-inflammatory pain medicines (such as ibuprofen)'],
      ['Allergy or intolerance to opioids or benzodiazepines', 'an allergy to opioid pain medicines or benzodiazepines'],
      ['History of anaphylaxis to penicillins', 'an allergy to penicillin antibiotics (such as amoxicillin)'],
      ['Allergic reaction to iodinated contrast media', 'an allergy to scan dye (contrast)'],
      ['Patients allergic to local anaesthetics', 'an allergy to numbing medicines (such as lidocaine)'],
    ];
    for (const [text, condition] of cases) {
      const rule = read('exclusion', text);
      expect(rule.rule, text).toMatchObject({ type: 'condition', condition, present: false });
      expect(rule.needsReview, text).toBe(false);
    }
  });

  it('keeps one medicine of a class, an unknown allergen or a second clause in review', () => {
    for (const text of ['Known allergy to apixaban', 'Allergy to opioids. Asthma requiring steroids.']) {
      const rule = read('exclusion', text);
      expect(rule.rule, text).not.toBeNull();
      expect(rule.needsReview, text).toBe(true);
    }
  });

  it('never reads the medicines of an allergy as medicines taken, nor a food allergy as a medicine allergy', () => {
    // The food allergy is MeSH's (decision 332); the medicines beside it stay unread, for a person.
    expect(read('exclusion', 'Allergy to shellfish or opioids')).toMatchObject({ rule: { condition: 'shellfish hypersensitivity' }, needsReview: true });
    expect(read('exclusion', 'Allergy to latex')).toMatchObject({ rule: { type: 'condition', condition: 'an allergy to latex' }, needsReview: false });
    // The study's own product is still "an allergy to medicines like this one".
    expect(read('exclusion', 'Hypersensitivity to the investigational product or its excipients').rule).toMatchObject({
      condition: 'an allergy to medicines like this one',
    });
  });

  it('names the medicines once in the question, in English and Spanish', () => {
    const text = 'Allergy to opioids or NSAIDs';
    const asked = questionsAbout('exclusion', text, read('exclusion', text).rule);
    expect(asked).toHaveLength(1);
    const question = asked[0].wording.chat;
    expect(question.en).toBe('Have you been told by a doctor that you have an allergy to opioid pain medicines or anti-inflammatory pain medicines?');
    expect(question.es).toContain('una alergia a analgésicos opioides o');
    expect(question.en).not.toContain('or an allergy to');
  });
});

describe("an allergy to the trial's own medicine, by name", () => {
  it('reads it whole as an allergy to that medicine, needing no review', () => {
    const cases: Array<[string, string]> = [
      ['Known allergy to zanubrutinib', 'an allergy to Zanubrutinib'],
      ['Prior anaphylaxis to Brukinsa', 'an allergy to Brukinsa'],
      ['Hypersensitivity to tirzepatide or zanubrutinib', 'an allergy to Tirzepatide or Zanubrutinib'],
    ];
    for (const [text, condition] of cases) {
      const rule = readWithStudyMedicines(text);
      expect(rule.rule, text).toMatchObject({ type: 'condition', condition, present: false });
      expect(rule.needsReview, text).toBe(false);
    }
  });

  it('is no allergy without the trial naming the medicine, and a name outside an allergy is not read as the study medicine', () => {
    // A brand name the vocabulary does not know ("zanubrutinib" itself is a medicine by its stem since decision 272).
    const unnamed = readTextRule('exclusion', 'Known allergy to Brukinsa');
    expect(unnamed.rule === null || unnamed.needsReview).toBe(true);
    for (const text of [
      'Cohort B (tirzepatide) only: must have a biopsy',
      'Prior exposure to tirzepatide or hypersensitivity to excipients of the investigational product',
    ]) {
      expect(JSON.stringify(readWithStudyMedicines(text).rule ?? {}), text).not.toContain('cohortly:study-medicine:');
    }
  });

  it('asks the patient about the medicine by name, in English and Spanish', () => {
    const text = 'Hypersensitivity to tirzepatide';
    const asked = questionsAbout('exclusion', text, readWithStudyMedicines(text).rule);
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

describe("the study's own product is not any trial's medicine", () => {
  const investigational = { concepts: [{ id: 'cohortly:investigational-drug' }] };
  it('"the investigational product" or "this study drug" is never a rule that refuses everyone who took part in a trial', () => {
    for (const text of ['Earlier exposure to the investigational product', 'Has ever received this study drug', 'Past use of the trial medication'])
      expect(read('exclusion', text).rule ?? {}, text).not.toMatchObject(investigational);
    // What the study's own product is, only its site can say.
    expect(read('exclusion', 'Exposure to the investigational product').rule).toMatchObject({ type: 'site_judgement' });
  });

  it('a medicine tested in another study, or any investigational drug, is still read as one', () => {
    for (const text of [
      'Took an investigational drug in the last 4 weeks',
      'Received the investigational agent of another trial within 60 days',
      'Use of any investigational medication within 30 days of screening',
    ])
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'medication', taking: false, ...investigational });
  });
});

describe('a past treatment an inclusion requires (decision 244)', () => {
  it('is the medicine ever taken, wanted', () => {
    for (const text of ['Previous treatment with infliximab', 'Participants who have received adalimumab', 'Prior etanercept therapy'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'medication', taking: true, history: true }, needsReview: false });
  });

  it('not when it is only allowed, says how it went, or has a window the matcher would not read', () => {
    for (const text of [
      'Participants may have received prior infliximab',
      'Failed previous treatment with adalimumab',
      'Prior infliximab is permitted',
      'Relapsed after previous treatment with etanercept',
    ]) {
      const rule = read('inclusion', text);
      expect(rule.rule?.type === 'medication' && rule.rule.taking && !rule.needsReview, text).toBe(false);
    }
    expect(read('inclusion', 'Prior infliximab within 6 months').rule).not.toMatchObject({ history: true });
  });
});

describe('one medicine named, its class read (decision 244)', () => {
  // A medicine MeSH names is read as itself (decision 337); these are named only through their hand class.
  it('stays in review: the class would ask about every member', () => {
    for (const text of ['Prior docetaxel', 'Current use of apixaban', 'Prior pembrolizumab']) {
      const rule = read('exclusion', text);
      expect(rule.needsReview, text).toBe(true);
      expect(rule.reasons, text).toContain('oneMemberOfClass');
    }
  });

  it('a class word, or a medicine its concept names, is not one member', () => {
    for (const text of ['Current use of anticoagulant or sedative medications', 'Prior bevacizumab'])
      expect(read('exclusion', text).reasons ?? [], text).not.toContain('oneMemberOfClass');
  });
});

describe('"in the past" and "at any time" are past use (decision 244)', () => {
  it('reads ever taken, in an exclusion and in an inclusion that wants it', () => {
    expect(read('exclusion', 'Participants treated with etanercept in the past')).toMatchObject({
      rule: { type: 'medication', taking: false, history: true },
      needsReview: false,
    });
    expect(read('exclusion', 'Use of infliximab at any time')).toMatchObject({ rule: { history: true } });
    expect(read('inclusion', 'Patients treated with etanercept in the past')).toMatchObject({ rule: { taking: true, history: true } });
  });

  it('"in the past 3 months" is a window, "at any time during the study" is not ever', () => {
    expect(read('exclusion', 'Use of infliximab in the past 3 months').rule).toMatchObject({ within: { value: 3, unit: 'months' } });
    expect(read('exclusion', 'Use of infliximab at any time during the study').rule).not.toMatchObject({ history: true });
  });
});

describe('a kind of a class by what it is made of, and a time since a treatment (decision 244)', () => {
  it('"platinum-based chemotherapy" read as chemotherapy stays in review', () => {
    for (const kind of ['inclusion', 'exclusion'] as const)
      expect(read(kind, 'Previous treatment with platinum-based chemotherapy').reasons ?? [], kind).toContain('oneMemberOfClass');
  });

  it('"at least 6 weeks since previous chemotherapy" does not require having had it', () => {
    expect(read('inclusion', 'At least 6 weeks since previous chemotherapy').rule).not.toMatchObject({ taking: true, history: true });
  });
});
