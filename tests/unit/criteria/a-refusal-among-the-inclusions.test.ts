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

/** Decision 356: the verbs of taking part refuse too, where nothing but the study follows them. New wording. */
describe('a refusal by the verb of taking part', () => {
  it('is read as the exclusion it states among the inclusions, for a person to confirm', () => {
    expect(read('Breastfeeding mothers may not take part in the trial')).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: true });
    expect(read('People with glaucoma cannot participate')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: true });
    expect(read('Pregnant women are not permitted to participate.').reasons).toContain('exclusionInInclusion');
  });

  it('is no refusal when another study follows: keeping out of other trials is asked of the person', () => {
    expect(read('Volunteers may not participate in any other interventional study while enrolled').reasons ?? []).not.toContain('exclusionInInclusion');
  });

  it('says no more than the exclusion it ends', () => {
    expect(readTextRule('exclusion', 'Pregnant or breastfeeding mothers are not allowed to take part')).toMatchObject({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: false,
    });
  });
});
