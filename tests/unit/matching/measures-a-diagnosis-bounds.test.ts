import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { ruleCriterion } from '../../support/match-facts';

// Decision 285. Every note and criterion below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const person = (note: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: extractNoteFacts(note, { today }).map((read, index) => ({ ...read, id: `n${index}`, observedOn: null }) as unknown as MatchFact),
});
const lab = (measure: string, comparator: '<' | '<=' | '>' | '>=' | 'between', value: number, unit: string, upperValue?: number): CriterionRule => ({
  type: 'lab',
  measure,
  comparator,
  value,
  unit,
  ...(upperValue === undefined ? {} : { upperValue }),
});
const outcome = (rule: CriterionRule, note: string, kind: 'inclusion' | 'exclusion' = 'inclusion') =>
  evaluateCriterion(ruleCriterion(rule, kind), person(note), today).outcome;

describe('an adult with obesity has a BMI of 30 or more', () => {
  const note = '44-year-old man with obesity and sleep apnoea, referred by his GP.';
  it('decides the bounds every such BMI passes or fails', () => {
    expect(outcome(lab('BMI', '>=', 28, 'kg/m2'), note)).toBe('met');
    expect(outcome(lab('BMI', '>=', 30, 'kg/m2'), note)).toBe('met');
    expect(outcome(lab('BMI', 'between', 18.5, 'kg/m2', 24.9), note)).toBe('not_met');
    // An exclusion of "BMI under 18.5", read as what the trial asks (BMI 18.5 or more): clear of it.
    expect(outcome(lab('BMI', '>=', 18.5, 'kg/m2'), note, 'exclusion')).toBe('met');
  });

  it('leaves a bound inside the obese range unknown', () => {
    expect(outcome(lab('BMI', '>=', 35, 'kg/m2'), note)).toBe('unknown');
    expect(outcome(lab('BMI', '<=', 30, 'kg/m2'), note)).toBe('unknown');
    expect(outcome(lab('BMI', '<=', 40, 'kg/m2'), note, 'exclusion')).toBe('unknown');
  });

  it('a stated BMI wins, and a child or abdominal obesity says nothing of it', () => {
    expect(outcome(lab('BMI', '>=', 30, 'kg/m2'), '50-year-old woman, obese, BMI 29.1 today.')).toBe('not_met');
    expect(outcome(lab('BMI', '>=', 30, 'kg/m2'), '11-year-old boy with obesity and asthma.')).toBe('unknown');
    expect(outcome(lab('BMI', '>=', 30, 'kg/m2'), '58-year-old man with abdominal obesity and high blood pressure.')).toBe('unknown');
    expect(outcome(lab('BMI', '>=', 30, 'kg/m2'), 'Woman with obesity, age not given.')).toBe('unknown');
  });
});

describe('a person said not to have diabetes has an HbA1c under 6.5%', () => {
  it('clears an exclusion of a diabetic level and fails an inclusion that needs one', () => {
    const note = '62-year-old woman with rheumatoid arthritis; no diabetes, no kidney disease.';
    // An exclusion of "HbA1c 9% or more", read as what the trial asks (under 9%).
    expect(outcome(lab('HbA1c', '<', 9, '%'), note, 'exclusion')).toBe('met');
    expect(outcome(lab('HbA1c', 'between', 7, '%', 10.5), note)).toBe('not_met');
  });

  it('leaves a level under the diagnostic one unknown, and a denial of one kind of diabetes says nothing', () => {
    expect(outcome(lab('HbA1c', '<', 6, '%'), '62-year-old woman; no diabetes.')).toBe('unknown');
    expect(outcome(lab('HbA1c', '<', 9, '%'), '62-year-old woman; no type 1 diabetes.', 'exclusion')).toBe('unknown');
    expect(outcome(lab('HbA1c', '<', 9, '%'), '62-year-old woman with diabetes.', 'exclusion')).toBe('unknown');
  });
});
