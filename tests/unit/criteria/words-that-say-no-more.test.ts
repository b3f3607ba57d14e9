import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 360: words that say no more than the rule: "receipt of" a medicine, a "solid" or "allogeneic" organ
 * transplant, "the active substance" of a European label. New wording throughout.
 */
const exclusion = (text: string) => readTextRule('exclusion', text);

describe('words that say no more than the rule', () => {
  it('reads "receipt of" as having taken the medicine', () => {
    expect(exclusion('Receipt of a live virus vaccine in the 4 weeks before randomisation')).toMatchObject({
      rule: { type: 'medication', taking: false, within: { value: 4, unit: 'weeks' } },
      needsReview: false,
    });
  });

  it('reads a solid or allogeneic organ transplant as an organ transplant', () => {
    expect(exclusion('Allogeneic organ transplant recipients')).toMatchObject({ rule: { condition: 'an organ transplant' }, needsReview: false });
    expect(exclusion('Previous solid-organ transplantation')).toMatchObject({ rule: { condition: 'an organ transplant' }, needsReview: false });
  });

  it('keeps "allogeneic" beside a stem cell transplant or a tissue graft in review: those are often the person\'s own', () => {
    expect(exclusion('Allogeneic kidney or stem cell transplant').needsReview).toBe(true);
    expect(exclusion('Earlier allogeneic haematopoietic stem cell transplantation').needsReview).toBe(true);
  });

  it('reads "the active substance" of an allergy as the study\'s own medicine', () => {
    expect(exclusion('Known allergy to the active substance or to any excipient of the product')).toMatchObject({
      rule: { condition: 'an allergy to medicines like this one', present: false },
      needsReview: false,
    });
  });
});
