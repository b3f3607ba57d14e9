import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 340: the condition after "<procedure> for" is what the procedure was for, never an alternative. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const read = (text: string) => readTextRule('exclusion', text, {});

describe('a condition a procedure was for', () => {
  it('is not a condition the person must not have', () => {
    for (const [text, procedure] of [
      ['Haemodialysis for end-stage renal failure', 'dialysis'],
      ['Endotracheal intubation for an asthma attack in the last 2 years', 'intubation'],
    ]) {
      const reading = read(text);
      expect(reading.rule, text).toMatchObject({ type: 'condition', condition: expect.stringContaining(procedure), present: false });
      expect(reading.needsReview, text).toBe(true);
    }
  });

  it('refuses no one for having the condition alone', () => {
    const rule = read('Haemodialysis for end-stage renal failure').rule as CriterionRule;
    const person = { dateOfBirth: '1950-02-02', sex: 'male' as const, facts: noteFacts('Known end-stage renal failure; transplant work-up under way.', today) };
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person, today).outcome).not.toBe('not_met');
  });

  it('leaves two procedures joined by "or" both read', () => {
    expect(read('Previous dialysis or kidney transplantation').rule).toMatchObject({ condition: 'dialysis or a kidney transplant' });
  });
});
