import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * A side word follows the condition it is written before, wherever that condition sits in the criterion (issue 31,
 * decision 293). None of these phrasings is a corpus record's.
 */
const qualifiersOf = (text: string) => {
  const { rule } = readTextRule('inclusion', text);
  return rule?.type === 'condition' ? rule.qualifiers : undefined;
};

describe('a side word before a later condition of the criterion', () => {
  it('is held by the rule when the condition comes second', () => {
    for (const [text, side] of [
      ['Neck pain accompanied by unilateral radiculopathy', 'one_side'],
      ['Lower back pain and unilateral sciatica', 'one_side'],
      ['Hip pain with bilateral sciatica', 'both_sides'],
      ['Back pain with one-sided sciatica', 'one_side'],
    ] as const)
      expect(qualifiersOf(text), text).toEqual([side]);
  });

  it('is held when a limb after the condition is placed on one side', () => {
    expect(qualifiersOf('Radiculopathy with leg pain down the unilateral leg')).toEqual(['one_side']);
  });

  it('is not held when both sides are named, or a "non-" stands before it', () => {
    expect(qualifiersOf('Back pain with unilateral or bilateral sciatica')).toBeUndefined();
    expect(qualifiersOf('Back pain with non-bilateral sciatica')).toBeUndefined();
  });

  it('is not held when the two conditions of the list name different sides', () => {
    expect(qualifiersOf('Unilateral sciatica or bilateral radiculopathy')).toBeUndefined();
  });
});

describe('a side in two words', () => {
  it('is held before one condition', () => {
    expect(qualifiersOf('One-sided sciatica')).toEqual(['one_side']);
    expect(qualifiersOf('Two sided knee osteoarthritis')).toEqual(['both_sides']);
  });
});

describe('the rule that holds a side of one condition of a list', () => {
  it('stays in review, and an alternative ("or") holds no side', () => {
    expect(readTextRule('inclusion', 'Shoulder pain with unilateral radiculopathy').needsReview).toBe(true);
    expect(qualifiersOf('Bilateral sciatica or shoulder pain')).toBeUndefined();
    expect(qualifiersOf('Shoulder pain or unilateral radiculopathy')).toBeUndefined();
  });
});
