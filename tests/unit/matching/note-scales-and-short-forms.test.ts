import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';

// Decision 298. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(text, { today });
const lab = (text: string, name: string) => facts(text).find((fact) => fact.kind === 'lab' && fact.name === name);

describe('a rating scale named after another symptom is not a pain score', () => {
  it.each(['Eczema flaring; itch NRS 7 this week.', 'Worst pruritus VAS 9 at night.', 'Dyspnoea NRS 5 on stairs.'])('%s', (text) => {
    expect(lab(`A 45-year-old woman. ${text}`, 'pain score')).toBeUndefined();
  });

  it('keeps a pain rating on the same scale', () => {
    expect(lab('A 45-year-old woman with pain in both knees, NRS 6 on walking.', 'pain score')?.value).toBe(6);
    // Its region named before it is kept (decision 350).
    expect(lab('A 45-year-old woman with knee pain, NRS 6 on walking.', 'knee pain score')?.value).toBe(6);
  });
});

describe("a lab sheet's short forms", () => {
  it('reads FBS as fasting glucose and Alk P / alk phos as alkaline phosphatase', () => {
    expect(lab('Labs today:\nFBS: 112 mg/dl\nCreatinine 0.9 mg/dL', 'fasting glucose')?.value).toBe(112);
    expect(lab('Liver panel: Alk P: 188 U/L, bilirubin 0.8 mg/dL.', 'ALP')?.value).toBe(188);
    expect(lab('Alk phos 95, ALT 20.', 'ALP')?.value).toBe(95);
  });
});

describe('"does not use" denies the medicine', () => {
  it.each(['She does not use insulin at home.', "He doesn't take aspirin or other blood thinners."])('%s', (text) => {
    const medicines = facts(`A 38-year-old. ${text}`).filter((fact) => fact.kind === 'medication');
    expect(medicines.length).toBeGreaterThan(0);
    for (const fact of medicines) expect(fact.status).toBe('absent');
  });
});

describe("a tumour's PD-L1 score is a test, not immunotherapy", () => {
  const medicines = (text: string) => facts(text).filter((fact) => fact.kind === 'medication');
  it.each([
    'Adenocarcinoma of the lung, PD-L1 TPS 75%, KRAS G12C.',
    'Gastric primary: PD-L1 (22C3) CPS 15, HER2 negative.',
    'PD-L1 expression under 1% on the core biopsy.',
  ])('%s', (text) => {
    expect(medicines(`A 66-year-old man. ${text}`)).toEqual([]);
  });

  it('keeps an immunotherapy the person was given', () => {
    expect(medicines('A 66-year-old man who had four cycles of pembrolizumab last year.').length).toBeGreaterThan(0);
  });
});

describe('a treatment the disease progressed after was given before', () => {
  const status = (text: string, name: RegExp) => facts(text).find((fact) => fact.kind === 'medication' && name.test(fact.name))?.status;
  it('reads the first line as given before and what the person is on now as taken', () => {
    const text = 'A 61-year-old with metastatic breast cancer, relapsed after letrozole; now receiving fulvestrant.';
    expect(status(text, /letrozole/)).toBe('history');
    expect(status(text, /fulvestrant/)).toBe('present');
  });

  it('reads "after second-line" treatment as given before', () => {
    expect(status('A 70-year-old man with colon cancer after second-line irinotecan.', /irinotecan|chemotherapy/)).toBe('history');
  });
});

describe('a substance said to be low or high is a test result, not a medicine', () => {
  it.each(['Flare with low complement and a rising anti-dsDNA.', 'Elevated troponin at presentation, normal ECG.'])('%s', (text) => {
    expect(facts(`A 35-year-old woman. ${text}`).filter((fact) => fact.kind === 'medication')).toEqual([]);
  });

  it('keeps a low-dose medicine', () => {
    expect(facts('A 35-year-old woman on low dose aspirin.').some((fact) => fact.kind === 'medication' && fact.status === 'present')).toBe(true);
  });
});

describe('a denied medicine for a condition does not deny the condition', () => {
  const conditions = (text: string) => facts(`A 64-year-old man. ${text}`).filter((fact) => fact.kind === 'condition');
  it.each(['Glucose managed by diet; he is not on diabetes medication.', 'Takes no blood pressure pills at present.'])('%s', (text) => {
    expect(conditions(text).filter((fact) => fact.status === 'absent')).toEqual([]);
  });

  it('still reads a denied condition', () => {
    expect(conditions('No diabetes and no hypertension.').every((fact) => fact.status === 'absent')).toBe(true);
  });
});
