import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 362: a word of the concept's own plain name, written beside the words the vocabulary read, says no more than
 * the concept; a word of its example, or one that sets a thing apart ("other"), is never taken so. New wording throughout.
 */
const exclusion = (text: string) => readTextRule('exclusion', text);

describe("a word of the concept's own name", () => {
  it('says no more than the concept', () => {
    expect(exclusion('Known cirrhosis of the liver')).toMatchObject({ rule: { condition: 'cirrhosis of the liver', present: false }, needsReview: false });
    expect(exclusion('A pacemaker or an implanted defibrillator')).toMatchObject({
      rule: { condition: 'a pacemaker or implanted defibrillator' },
      needsReview: false,
    });
  });

  it('does not take a word the name does not hold', () => {
    expect(exclusion('Heart attack in a close relative')).toMatchObject({ needsReview: true, reasons: ['words: close relative'] });
  });
});
