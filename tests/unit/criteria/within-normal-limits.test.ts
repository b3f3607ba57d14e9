import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 321: a measure "within normal limits", for measures whose low values refuse no one. Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const adult = (note: string): MatchPerson => ({
  dateOfBirth: '1970-03-02',
  sex: 'female',
  facts: noteFacts(note, today),
});
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a measure within normal limits', () => {
  it('is at most the upper limit of normal where a low value refuses no one', () => {
    expect(read('inclusion', 'Serum creatinine within institutional normal range')).toMatchObject({
      rule: { type: 'lab', measure: 'creatinine', comparator: '<=', value: 1, relativeTo: 'ULN' },
      needsReview: false,
    });
    expect(read('inclusion', 'AST/ALT must be within normal limits').rule).toMatchObject({ measure: 'ALT/AST', relativeTo: 'ULN' });
  });

  it('is never a medicine the person takes, and goes to a person where a low value matters', () => {
    expect(read('inclusion', 'Direct bilirubin within the normal range').rule).toMatchObject({ type: 'lab', measure: 'direct bilirubin' });
    expect(read('inclusion', 'Haemoglobin within normal limits')).toEqual({ rule: null, needsReview: true });
  });

  it('is decided from a value every laboratory calls normal, or clearly above normal', () => {
    const criterion = ruleCriterion(read('inclusion', 'Total bilirubin within normal institutional limits').rule as CriterionRule, 'inclusion');
    expect(evaluateCriterion(criterion, adult('Labs today: total bilirubin 0.5 mg/dL.'), today).outcome).toBe('met');
    expect(evaluateCriterion(criterion, adult('Labs today: total bilirubin 3.2 mg/dL.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(criterion, adult('Labs today: total bilirubin 1.2 mg/dL.'), today).outcome).toBe('unknown');
  });
});
