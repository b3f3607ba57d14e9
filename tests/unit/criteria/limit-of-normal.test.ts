import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { evaluateCriterion, type MatchFact } from '../../../src/server/features/matching/evaluate';
import { matchFact, ruleCriterion } from '../../support/match-facts';

/** A lab bound at a limit of the normal range itself, with no multiple written (decision 310). Wording written for this file. */

const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('a lab bound at the limit of normal, without a number', () => {
  it('reads "above the upper limit of normal" as 1 x ULN, turned round for an exclusion', () => {
    expect(read('exclusion', 'Serum bilirubin above the upper limit of normal')).toMatchObject({
      rule: { type: 'lab', measure: 'bilirubin', comparator: '<=', value: 1, relativeTo: 'ULN' },
      needsReview: false,
    });
    expect(read('inclusion', 'AST > ULN at the screening visit').rule).toMatchObject({ measure: 'AST', comparator: '>', value: 1, relativeTo: 'ULN' });
    expect(read('inclusion', 'Creatinine not exceeding the institutional ULN').rule).toMatchObject({ comparator: '<=', value: 1, relativeTo: 'ULN' });
  });

  it('takes the side of "normal limits" from the comparison', () => {
    // Above them, or not more than them: the upper limit. Below them, or at least them: the lower.
    expect(read('exclusion', 'Creatinine higher than normal limits').rule).toMatchObject({ measure: 'creatinine', comparator: '<=', relativeTo: 'ULN' });
    expect(read('exclusion', 'Potassium less than normal limits').rule).toMatchObject({ measure: 'potassium', comparator: '>=', relativeTo: 'LLN' });
    expect(read('inclusion', 'Platelet count at least the lower limit of normal').rule).toMatchObject({
      measure: 'platelets',
      comparator: '>=',
      relativeTo: 'LLN',
    });
  });

  it('reads it for an analyte outside the measures table too', () => {
    expect(read('exclusion', 'Serum ferritin above the upper limit of normal').rule).toMatchObject({ comparator: '<=', value: 1, relativeTo: 'ULN' });
  });

  it('never reads an analyte named with a level as a medicine', () => {
    expect(read('exclusion', 'Creatinine above normal limits').rule?.type).toBe('lab');
  });

  it('leaves both sides of the range, and a number written, to what they say', () => {
    // "Within" or "outside" the range is both limits at once, which one rule cannot hold.
    expect(read('inclusion', 'Haemoglobin within the normal range').rule).toBeNull();
    expect(read('exclusion', 'Sodium outside normal limits').rule).toBeNull();
    expect(read('inclusion', 'Bilirubin at most 1.5 times the ULN').rule).toMatchObject({ value: 1.5, relativeTo: 'ULN' });
  });

  it('reads both aminotransferases named in full with their short forms', () => {
    expect(read('inclusion', 'Aspartate aminotransferase (AST) and alanine aminotransferase (ALT) ≤ 2.5 x ULN')).toMatchObject({
      rule: { measure: 'ALT/AST', comparator: '<=', value: 2.5, relativeTo: 'ULN' },
      needsReview: false,
    });
  });

  it('is decided by the matcher from a value where every adult laboratory agrees', () => {
    const rule = read('exclusion', 'Total bilirubin greater than the upper limit of normal').rule!;
    const fact = matchFact('note');
    const person = (bilirubin: number) => ({
      dateOfBirth: null,
      sex: 'female' as const,
      facts: [
        fact({ kind: 'age', name: 'age', value: 58, unit: 'years' }),
        fact({ kind: 'lab', name: 'bilirubin', value: bilirubin, unit: 'mg/dL' }),
      ] as MatchFact[],
    });
    const today = new Date('2026-06-15T12:00:00Z');
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(0.5), today).outcome).toBe('met');
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(2.4), today).outcome).toBe('not_met');
    // 1.2 mg/dL is above some laboratories' limit and below others': the laboratory decides.
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(1.2), today).outcome).toBe('unknown');
  });
});

describe('a multiple of "normal"', () => {
  it("is a multiple of the upper limit, never a value in the measure's unit", () => {
    // Read before as "ALT < 3 U/L", which would refuse everyone.
    expect(readTextRule('inclusion', 'ALT < 3 times the normal').rule).toMatchObject({ measure: 'ALT', comparator: '<', value: 3, relativeTo: 'ULN' });
    expect(readTextRule('exclusion', 'AST or ALT over 2 times normal range').rule).toMatchObject({
      measure: 'ALT/AST',
      comparator: '<=',
      value: 2,
      relativeTo: 'ULN',
    });
    expect(readTextRule('inclusion', 'Bilirubin below 1.5 x normal values').rule).toMatchObject({ value: 1.5, relativeTo: 'ULN' });
  });
});
