import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 341: a transplant "recipient" has had the transplant, whenever it was. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const read = (text: string) => readTextRule('exclusion', text, {});

describe('transplant recipients', () => {
  it('are read as ever having had the transplant, with no word left for a person', () => {
    for (const text of ['Heart transplant recipients', 'Recipient of a lung transplant'])
      expect(read(text), text).toMatchObject({ rule: { type: 'condition', present: false, history: true }, needsReview: false });
  });

  it('refuse a person whose transplant was years ago', () => {
    const rule = read('Heart transplant recipients').rule as CriterionRule;
    const person = { dateOfBirth: '1961-07-07', sex: 'female' as const, facts: noteFacts('Orthotopic heart transplant in 2011, on tacrolimus.', today) };
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person, today).outcome).toBe('not_met');
  });

  it('is no history word for anything but a transplant', () => {
    expect(read('Seronegative recipients of a CMV-negative donor').rule).not.toMatchObject({ history: true });
  });
});
