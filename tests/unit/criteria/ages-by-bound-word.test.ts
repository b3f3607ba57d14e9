import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 269: "minimum age" and "maximum age" before the number are the bound's comparator, as "at least" and "at
 * most" are. Every phrasing here is new wording, not a corpus sentence.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('an age written after "minimum" or "maximum"', () => {
  it('reads the youngest and the oldest age a person may be', () => {
    expect(read('inclusion', 'Minimum age of 21 years').rule).toMatchObject({ type: 'age', minYears: 21, maxYears: null });
    expect(read('inclusion', 'Maximum age: 80 years at consent').rule).toMatchObject({ type: 'age', minYears: null, maxYears: 80 });
    expect(read('inclusion', 'Min age 16 and max age 40').rule).toMatchObject({ type: 'age', minYears: 16, maxYears: 40 });
  });

  it('keeps the words the bound leaves for a person', () => {
    expect(read('inclusion', 'Maximum age 70 years for the transplant cohort').needsReview).toBe(true);
  });

  it('reads no age from a minimum of something else', () => {
    expect(read('inclusion', 'Minimum weight 40 kg').rule).not.toMatchObject({ type: 'age' });
  });
});

describe('a minimum or maximum age written among exclusions', () => {
  it('never turns the limit around to refuse the people the trial takes', () => {
    expect(read('exclusion', 'Maximum age of 60 years').rule).toBeNull();
  });
});
