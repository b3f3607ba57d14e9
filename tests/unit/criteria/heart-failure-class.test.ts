import { describe, expect, it } from 'vitest';
import { heartFailureClassOf, NYHA_CLASS, nyhaRange } from '../../../src/contract/heart-failure-class';
import { qualifierPhrase, QUALIFIER_WORDS } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 370: a heart failure's NYHA class, named as a range in a criterion and as the person's class in a note, is a
 * qualifier of the condition that decides it both ways. New wording, not a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1960-01-01', sex: 'male', facts });
const rangeIn = (text: string) => {
  const match = [...text.matchAll(NYHA_CLASS)][0];
  return match ? nyhaRange(match) : undefined;
};

describe('the NYHA classes a criterion names', () => {
  it('are read as one range, however the range is written', () => {
    expect(rangeIn('NYHA class III or IV')).toEqual([3, 4]);
    expect(rangeIn('New York Heart Association (NYHA) functional class II through IV')).toEqual([2, 4]);
    expect(rangeIn('NYHA class ≥ II')).toEqual([2, 4]);
    expect(rangeIn('NYHA class greater than II')).toEqual([3, 4]);
    expect(rangeIn('NYHA class II or worse')).toEqual([2, 4]);
    expect(rangeIn('NYHA class I, II or III')).toEqual([1, 3]);
    expect(rangeIn('NYHA class 1-2')).toEqual([1, 2]);
    expect(rangeIn('NYHA IV')).toEqual([4, 4]);
    // Two classes with a gap are not one range.
    expect(rangeIn('NYHA class I or III')).toBeNull();
    // Every class narrows nothing.
    expect(heartFailureClassOf(1, 4)).toBeNull();
  });

  it('qualify the heart failure the rule is about, asked in plain words', () => {
    expect(readTextRule('exclusion', 'Congestive heart failure of NYHA class III or IV').rule).toMatchObject({
      type: 'condition',
      condition: 'heart failure',
      present: false,
      qualifiers: ['nyha_3_to_4'],
    });
    // A list of classes with a gap is no range: the words stay for staff to read.
    const gapped = readTextRule('exclusion', 'NYHA class I or III heart failure');
    expect(gapped.rule).not.toHaveProperty('qualifiers');
    expect(gapped.needsReview).toBe(true);
    expect(qualifierPhrase(['nyha_3_to_4'])?.en).toBe('that limits your everyday activities a lot or gives you symptoms at rest');
    expect(QUALIFIER_WORDS.nyha_2_to_4.label).toBe('NYHA class II–IV');
  });
});

describe('the NYHA class a note names', () => {
  it('is written into the heart failure fact', () => {
    const facts = noteFacts('Ischaemic cardiomyopathy with heart failure, NYHA class II, on bisoprolol.', today);
    expect(facts.find((item) => item.kind === 'condition' && /heart failure/.test(item.name))?.name).toMatch(/NYHA class II\)/);
  });

  it('decides a criterion on a range of classes both ways, and a bare diagnosis leaves it unknown', () => {
    const rule = readTextRule('exclusion', 'Congestive heart failure of NYHA class III or IV').rule!;
    const outcome = (note: string) => evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(noteFacts(note, today)), today).outcome;
    expect(outcome('Heart failure with reduced ejection fraction, NYHA class II.')).toBe('met');
    expect(outcome('Heart failure with reduced ejection fraction, NYHA class IV.')).toBe('not_met');
    expect(outcome('Heart failure with reduced ejection fraction.')).toBe('unknown');
  });
});
