import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 374: "ritonavir-containing products" give ritonavir, which the rule names. New wording, not a record's. */

describe('what contains a medicine', () => {
  it('is the medicine, with no word left for staff', () => {
    expect(readTextRule('exclusion', 'Current use of lopinavir- or ritonavir-containing regimens')).toMatchObject({
      rule: { type: 'medication', taking: false, medication: expect.stringMatching(/ritonavir/) },
    });
    expect(readTextRule('exclusion', 'Use of any carbamazepine-containing medication in the past 14 days')).toMatchObject({
      rule: { type: 'medication', medication: 'carbamazepine', taking: false, within: { value: 14, unit: 'days' } },
      needsReview: false,
    });
  });

  it('leaves a word between the medicine and what contains it for staff', () => {
    expect(readTextRule('exclusion', 'Any carbamazepine containing extended-release product').needsReview).toBe(true);
  });
});
