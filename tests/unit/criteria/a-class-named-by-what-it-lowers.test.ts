import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 371: "glucose-lowering medication", "lipid-lowering therapy", "blood pressure lowering drugs": a class of
 * medicines named by what it lowers is the class MeSH holds by that action, met by any of its members. New wording, not
 * a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const outcome = (criterion: string, note: string) => {
  const person: MatchPerson = { dateOfBirth: '1965-01-01', sex: 'female', facts: noteFacts(note, today) };
  return evaluateCriterion(ruleCriterion(readTextRule('inclusion', criterion).rule!), person, today).outcome;
};

describe('a class of medicines named by what it lowers', () => {
  it('is read as the class, in every wording of the noun', () => {
    expect(readTextRule('inclusion', 'Stable dose of glucose-lowering agents for 3 months')).toMatchObject({
      rule: { type: 'medication', medication: 'hypoglycemic agents', taking: true },
    });
    expect(readTextRule('exclusion', 'Started lipid-lowering treatment in the last 6 weeks').rule).toMatchObject({
      type: 'medication',
      medication: 'hypolipidemic agents',
      taking: false,
    });
    expect(readTextRule('exclusion', 'Receiving blood-pressure-lowering drugs').rule).toMatchObject({ medication: 'blood pressure medicines' });
  });

  it('is met by a member of the class, and not by a medicine of another', () => {
    expect(outcome('Currently taking glucose-lowering medications', 'Type 2 diabetes on metformin 1 g twice daily.')).toBe('met');
    expect(outcome('Currently on lipid-lowering therapy', 'Hyperlipidaemia treated with ezetimibe.')).toBe('met');
    expect(outcome('Currently on cholesterol-lowering medication', 'Takes atorvastatin 40 mg nightly.')).toBe('met');
    expect(outcome('Currently taking glucose-lowering medications', 'Takes atorvastatin 40 mg nightly.')).not.toBe('met');
  });

  it('is no longer read as a statin alone', () => {
    expect(readTextRule('inclusion', 'On lipid-lowering therapy').rule).not.toMatchObject({ medication: expect.stringMatching(/statin/) });
  });
});
