import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 232. Every criterion below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('note');
const onAdalimumab: MatchPerson = {
  dateOfBirth: null,
  sex: 'unknown',
  facts: [fact({ kind: 'medication', name: 'antibodies', conceptId: 'mesh:D000906', status: 'present' })],
};
const antibodies = (start: number, taking = false): CriterionRule => ({
  type: 'medication',
  medication: 'antibodies',
  taking,
  concepts: [{ id: 'mesh:D000906', name: 'antibodies' }],
  span: { start, end: start + 'antibody'.length },
});
const criterion = (text: string, rule: CriterionRule, more: Partial<MatchCriterion> = {}): MatchCriterion =>
  ruleCriterion(rule, 'exclusion', { needsReview: true, text, ...more });
const judged = (text: string, word: string, more: Partial<MatchCriterion> = {}) =>
  evaluateCriterion(criterion(text, antibodies(text.indexOf(word)), more), onAdalimumab, today);

describe('a medicine rule over a test result decides nothing', () => {
  it.each([
    'Hepatitis B core antibody positive at screening',
    'Known to be seropositive for an HIV antibody',
    'Anti-thyroid peroxidase antibody titer above 1:100',
  ])('%s: unknown, and says why', (text) => {
    const outcome = judged(text, 'antibody');
    expect(outcome.outcome).toBe('unknown');
    expect(outcome.reason).toMatch(/test result/);
  });

  it('still decides a medicine named as one, and a rule a person reviewed or wrote', () => {
    expect(judged('Treatment with a monoclonal antibody in the past 3 months', 'antibody').outcome).toBe('not_met');
    expect(judged('Hepatitis B core antibody positive at screening', 'antibody', { needsReview: false }).outcome).toBe('not_met');
    expect(judged('Hepatitis B core antibody positive at screening', 'antibody', { ruleSource: 'manual' }).outcome).toBe('not_met');
  });
});
