import { describe, expect, it } from 'vitest';
import { inClass, isA, vocabulary } from '../../src/server/features/trials/vocabulary';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';
import { meshId, recognizedAs, treatmentWords } from '../support/recognized';

/** Treatments, metastases and drug classes the recognizer finds (decisions 254, 255, 256). */

const id = meshId;
const read = recognizedAs;
const treatments = treatmentWords;

describe('what the recognizer offers as a treatment (decision 254)', () => {
  it('marks medicines, operations and therapies a person is given', () => {
    expect(treatments('She took metformin and later had a kidney transplantation.')).toEqual(['metformin', 'kidney transplantation']);
    expect(treatments('on haemodialysis three times weekly')).toEqual(['haemodialysis']);
    expect(treatments('completed a course of brachytherapy')).toEqual(['brachytherapy']);
    expect(treatments('a major operation six weeks ago')).toEqual(['major operation']);
  });

  it('reads therapies of E02 MeSH files beside chemotherapy and radiotherapy', () => {
    expect(read('received cryotherapy of the lesion')).toEqual([`cryotherapy=${id('Cryotherapy')}`]);
    expect(read('thrombolytic therapy for a clot')[0]).toBe(`thrombolytic therapy=${id('Thrombolytic Therapy')}`);
    expect(treatments('has had apheresis twice')).toEqual(['apheresis']);
  });

  it('does not offer a diagnostic procedure or a condition as a treatment', () => {
    const [biopsy] = recognize('a colonoscopy with a biopsy');
    expect(biopsy).toBeDefined();
    expect(treatments('a colonoscopy with a biopsy')).toEqual([]);
    expect(treatments('known asthma and gout')).toEqual([]);
  });

  it('keeps generic words and the timing of a chemotherapy as they were', () => {
    expect(read('any drug therapy or treatment')).toEqual([]);
    // "Adjuvant chemotherapy" stays the chemotherapy the hand file names, so a rule on chemotherapy still meets it.
    expect(read('adjuvant chemotherapy').map((found) => found.split('=')[0])).toEqual(['chemotherapy']);
  });

  it("reads a place's surgical procedures written as its surgery", () => {
    expect(read('prior thoracic surgery')).toEqual([`thoracic surgery=${id('Thoracic Surgical Procedures')}`]);
    expect(treatments('two cardiac surgeries')).toEqual(['cardiac surgeries']);
    // "Elective" says when an operation is planned, not where: no place, no concept.
    expect(read('an elective surgery next spring')).toEqual([]);
  });
});

describe('metastases (decision 255)', () => {
  const metastasis = () => id('Neoplasm Metastasis');

  it('reads metastases, a metastasis and metastatic disease as Neoplasm Metastasis', () => {
    expect(read('no evidence of metastatic disease')).toEqual([`metastatic disease=${metastasis()}`]);
    expect(read('adrenal metastases were treated')).toEqual([`metastases=${metastasis()}`]);
    expect(read('a single metastatic lesion')).toEqual([`metastatic lesion=${metastasis()}`]);
  });

  it('places metastases under the neoplasms, so a rule on any cancer meets them', () => {
    expect(isA(metastasis(), id('Neoplasms'))).toBe(true);
  });

  it("is left to the criteria reader's site check in criteria, where metastases are a clinician's staging", () => {
    const inCriteria = vocabulary().find('no measurable metastatic disease', { reach: 'full', trialIdioms: true });
    expect(inCriteria.map((found) => found.concept.id)).not.toContain(metastasis());
  });

  it('leaves "metastatic" alone, a qualifier of the cancer it names', () => {
    expect(read('metastatic')).toEqual([]);
  });
});

describe('drug classes named by their chemistry (decision 256)', () => {
  it('reads a chemical class whose members share an action, singular or plural', () => {
    expect(read('no previous taxanes')).toEqual([`taxanes=${id('Taxoids')}`]);
    expect(read('an anthracycline-based regimen')[0]).toBe(`anthracycline=${id('Anthracyclines')}`);
    expect(read('on fibrates')).toEqual([`fibrates=${id('Fibric Acids')}`]);
  });

  it('counts a member medicine in its chemical class', () => {
    expect(inClass(id('Epirubicin'), id('Anthracyclines'))).toBe(true);
    expect(inClass(id('Docetaxel'), id('Taxoids'))).toBe(true);
  });

  it('never lets a class take the name of a medicine or become a class of every kind of medicine', () => {
    expect(read('tetracyclines')).toEqual([`tetracyclines=${id('Tetracycline')}`]);
    expect(read('pyridines and piperidines')).toEqual([]);
  });
});
