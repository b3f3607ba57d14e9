import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts } from '../../support/match-facts';

/** Decision 348: "impaired renal function" and its other word orders are the organ's impairment. New wording throughout. */
const read = (text: string) => readTextRule('exclusion', text, {});
const conditionOf = (text: string) => {
  const rule = read(text).rule;
  return rule?.type === 'condition' ? rule.condition : null;
};

describe("an organ's impaired function", () => {
  it('is the impairment the vocabulary reads, in every word order', () => {
    for (const text of ['Impaired renal function', 'Known kidney function impairment', 'Markedly reduced kidney function', 'Poor renal function'])
      expect(conditionOf(text), text).toBe('kidney disease');
    for (const text of ['Impaired hepatic function of any cause', 'Impairment of the liver function', 'Decreased liver function'])
      expect(conditionOf(text), text).toBe('liver disease');
    expect(read('Clinically significant hepatic function impairment')).toMatchObject({ rule: { qualifiers: ['serious'] }, needsReview: false });
  });

  it('stays unread where the vocabulary has no impairment of the organ, and "abnormal" is no impairment', () => {
    expect(read('Impaired cardiac function').rule).toBeNull();
    // Abnormal liver function is a finding of the liver tests, which a person reads.
    expect(read('Abnormal liver function').rule).toBeNull();
  });

  it('is read from a note too', () => {
    const today = new Date('2026-06-15T12:00:00Z');
    expect(noteFacts('Impaired renal function since 2019, followed by nephrology.', today)).toContainEqual(
      expect.objectContaining({ kind: 'condition', name: 'kidney disease', status: 'present' }),
    );
  });
});
