import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 354: an age written in words and in digits ("Eighteen (18)") is the one age. New wording throughout. */
describe('an age written twice, in words and in digits', () => {
  it('is read as the digits say, either way round', () => {
    expect(readTextRule('inclusion', 'Twenty-one (21) years of age or older')).toMatchObject({
      rule: { type: 'age', minYears: 21, maxYears: null },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Aged between 40 (forty) and 80 (eighty) years')).toMatchObject({
      rule: { minYears: 40, maxYears: 80 },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Younger than sixteen (16) years')).toMatchObject({ rule: { minYears: 16, maxYears: null }, needsReview: false });
  });
});
