import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 358: "hepatitis B or C virus infection" names hepatitis C by its letter and the virus again before the head
 * noun; a letter that names a type keeps its capital in a plain name. New wording throughout.
 */
const exclusion = (text: string) => readTextRule('exclusion', text);

describe('a virus named again before its infection', () => {
  it('reads every lettered sibling as its own condition, with no review', () => {
    expect(exclusion('Documented hepatitis B or C virus infection')).toMatchObject({
      rule: { type: 'condition', condition: 'hepatitis B or hepatitis C', present: false },
      needsReview: false,
    });
    expect(exclusion('Hepatitis A, B or C viral disease, or HIV')).toMatchObject({
      rule: { condition: 'hepatitis A, hepatitis B, hepatitis C or HIV' },
      needsReview: false,
    });
  });

  it('keeps the capital of a letter that names a type', () => {
    expect(exclusion('Vitamin K deficiency')).toMatchObject({ rule: { condition: 'vitamin K deficiency' } });
  });
});
