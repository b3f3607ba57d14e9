import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchFact } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { matchFact, ruleCriterion } from '../../support/match-facts';

/**
 * A one-sided condition written after another one ("back pain together with unilateral sciatica"; issue 31, decision
 * 293): a note that says the condition on both sides does not meet it; one that says no side leaves it unknown.
 */
const fact = matchFact('note');
const today = new Date('2026-06-01');
const sciatica = 'mesh:D012585';
const outcome = (text: string, facts: MatchFact[]) => {
  const { rule } = readTextRule('inclusion', text);
  if (!rule) throw new Error(`no rule: ${text}`);
  return evaluateCriterion(ruleCriterion(rule), { dateOfBirth: null, sex: 'unknown', facts }, today).outcome;
};
const criterion = 'Lower back pain together with unilateral sciatica';

describe('a one-sided condition written second', () => {
  it('is not met by sciatica said on both sides', () => {
    expect(outcome(criterion, [fact({ kind: 'condition', name: 'sciatica (bilateral)', conceptId: sciatica, status: 'present' })])).toBe('not_met');
  });

  it('is met by sciatica said on one side', () => {
    expect(outcome(criterion, [fact({ kind: 'condition', name: 'sciatica (unilateral)', conceptId: sciatica, status: 'present' })])).toBe('met');
  });

  it('is unknown, never not met, when the note says no side', () => {
    expect(outcome(criterion, [fact({ kind: 'condition', name: 'sciatica', conceptId: sciatica, status: 'present' })])).toBe('unknown');
  });
});
