import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 355: "not less than", "no older than" is the other side of the bound, the bound included. New wording. */
describe('a negated comparison', () => {
  it('reads a lab bound as the other side, its value included', () => {
    expect(readTextRule('inclusion', 'Neutrophils not less than 1.5 x 10^9/L')).toMatchObject({
      rule: { type: 'lab', comparator: '>=', value: 1.5 },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Total bilirubin no higher than 1.5 mg/dL')).toMatchObject({
      rule: { type: 'lab', comparator: '<=', value: 1.5 },
      needsReview: false,
    });
  });

  it('reads an age bound so, the words of a requirement included', () => {
    expect(readTextRule('inclusion', 'Age not under 40 years')).toMatchObject({ rule: { type: 'age', minYears: 40, maxYears: null }, needsReview: false });
    expect(readTextRule('inclusion', 'Volunteers must not be older than 55 years')).toMatchObject({
      rule: { type: 'age', minYears: null, maxYears: 55 },
      needsReview: false,
    });
  });
});
