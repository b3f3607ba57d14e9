import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 326: a named abnormality read with the threshold after it that defines it. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const today = new Date('2026-06-15T12:00:00Z');
const adult = (note: string): MatchPerson => ({ dateOfBirth: '1961-04-09', sex: 'male', facts: noteFacts(note, today) });

describe("the liver's abnormality its enzymes define", () => {
  it('reads "liver function abnormality" and "abnormal liver function tests" as the threshold after them (decision 375)', () => {
    expect(read('exclusion', 'Hepatic function abnormality (ALT or AST above 3 times the normal range)')).toMatchObject({
      rule: { type: 'lab', measure: 'ALT/AST', comparator: '<=', value: 3, relativeTo: 'ULN' },
      needsReview: false,
    });
    expect(read('exclusion', 'Abnormal liver function tests: total bilirubin > 2 x ULN')).toMatchObject({
      rule: { type: 'lab', measure: 'bilirubin', value: 2, relativeTo: 'ULN' },
      needsReview: false,
    });
  });
});

describe('a condition its threshold defines', () => {
  it('reads a low or uncontrolled pressure, a slow heart, low oxygen and low counts with their bounds, needing no person', () => {
    expect(read('exclusion', 'Arterial hypotension with systolic blood pressure below 85 mmHg')).toMatchObject({
      rule: { type: 'lab', measure: 'systolic blood pressure', comparator: '>=', value: 85 },
      needsReview: false,
    });
    expect(read('exclusion', 'Poorly controlled hypertension (diastolic blood pressure > 105 mmHg)')).toMatchObject({
      rule: { type: 'lab', measure: 'diastolic blood pressure', comparator: '<=', value: 105 },
      needsReview: false,
    });
    expect(read('exclusion', 'Sinus bradycardia (resting heart rate < 45 bpm)')).toMatchObject({
      rule: { type: 'lab', measure: 'heart rate', comparator: '>=', value: 45 },
      needsReview: false,
    });
    expect(read('exclusion', 'Hypoxaemia (oxygen saturation < 90% on room air)').rule).toMatchObject({ measure: 'oxygen saturation', value: 90 });
    expect(read('exclusion', 'Lymphopenia (lymphocytes < 0.5 x 10^9/L)')).toMatchObject({ rule: { measure: 'lymphocytes' }, needsReview: false });
  });

  it('reads chronic kidney disease and proteinuria by the value that defines them, naming no second measure', () => {
    expect(read('exclusion', 'Chronic kidney disease with an eGFR below 25 mL/min/1.73 m2')).toMatchObject({
      rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 25 },
      needsReview: false,
    });
    expect(read('inclusion', 'Nephrotic-range proteinuria (UPCR of at least 3 g/g)')).toMatchObject({
      rule: { type: 'lab', measure: 'UPCR', comparator: '>=', value: 3 },
      needsReview: false,
    });
  });

  it('leaves a diagnosis a treated person may still have, or a label that adds to the threshold, to a person', () => {
    // Treated hypertension with a normal pressure today is still hypertension: the bound alone would refuse it.
    expect(read('inclusion', 'Hypertension (systolic blood pressure 140 mmHg or more)').needsReview).toBe(true);
    expect(read('exclusion', 'Familial hypercholesterolaemia with LDL-C above 250 mg/dL').needsReview).toBe(true);
    // "Or" makes the label an alternative the bound does not hold.
    expect(read('exclusion', 'Hypotension or systolic blood pressure < 90 mmHg').needsReview).toBe(true);
  });

  it('decides the person by the measured value', () => {
    const rule = read('exclusion', 'Uncontrolled hypertension (systolic blood pressure > 170 mmHg)').rule as CriterionRule;
    const criterion = ruleCriterion(rule, 'exclusion');
    expect(evaluateCriterion(criterion, adult('Hypertension on amlodipine. BP 182/96 today.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(criterion, adult('Hypertension on amlodipine. BP 128/76 today.'), today).outcome).toBe('met');
  });
});
