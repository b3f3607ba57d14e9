import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 352: an inclusion that says who is refused is read as the words say, in review. New wording throughout. */
const read = (text: string) => readTextRule('inclusion', text);

describe('a refusal written among the inclusions', () => {
  it('is read as the exclusion it states, for a person to confirm', () => {
    expect(read('Current smokers will be excluded from the trial')).toMatchObject({ rule: { type: 'smoking', smoker: false }, needsReview: true });
    expect(read('Participants aged 70 or older cannot be enrolled')).toMatchObject({ rule: { type: 'age', maxYears: 69 }, needsReview: true });
    expect(read('People with epilepsy are ineligible')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: true });
    expect(read('People with epilepsy are ineligible').reasons).toContain('exclusionInInclusion');
  });

  it('is not a refusal when it names a treatment the person cannot have, or permits', () => {
    // "Not eligible for radiotherapy" describes the person the trial wants.
    expect(read('Patients not eligible for radiotherapy').reasons ?? []).not.toContain('exclusionInInclusion');
    // A permission requires nothing: no rule that would take only people with asthma.
    expect(read('Volunteers with mild asthma will not be excluded').rule).toBeNull();
    expect(read('Volunteers with mild asthma may be enrolled').rule).toBeNull();
  });
});
