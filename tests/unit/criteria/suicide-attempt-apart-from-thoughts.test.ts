import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 343: a suicide attempt is told apart from thoughts of suicide. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const judge = (criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(readTextRule('exclusion', criterion, {}).rule as CriterionRule, 'exclusion'),
    { dateOfBirth: '1990-01-01', sex: 'female', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('a suicide attempt and thoughts of suicide', () => {
  it('are two conditions: thoughts alone do not meet an exclusion of attempts', () => {
    expect(readTextRule('exclusion', 'Any suicide attempt in the past 12 months', {}).rule).toMatchObject({
      condition: 'a suicide attempt or suicidal behaviour',
    });
    expect(judge('Any suicide attempt in the past 12 months', 'Major depression with passive suicidal ideation, no plan.')).not.toBe('not_met');
    expect(judge('Current suicidal ideation', 'Major depression with passive suicidal ideation, no plan.')).toBe('not_met');
  });
});
