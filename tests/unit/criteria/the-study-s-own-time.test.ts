import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 353: the study's own point in time, with its numbers and its product's code, is no number left. New wording. */
const read = (text: string) => readTextRule('exclusion', text);

describe("the study's own point in time", () => {
  it("holds a product's code and the schedule's day without review", () => {
    for (const text of [
      'Radiotherapy within 10 days before the first dose of XYZ-1234',
      'Major surgery within 3 weeks prior to the first administration of QRS 98765',
      'Chemotherapy within 28 days prior to Cycle 1, Day 1',
      'Radiotherapy within 7 days prior to Day 1',
    ])
      expect(read(text), text).toMatchObject({ rule: { within: expect.objectContaining({ value: expect.any(Number) }) }, needsReview: false });
  });

  it('still leaves any other number for a person', () => {
    expect(read('Radiotherapy of more than 30 Gy within 10 days before the first dose of XYZ-1234').needsReview).toBe(true);
    expect(read('Chemotherapy within 28 days prior to Cycle 2 Day 8').needsReview).toBe(true);
  });
});
