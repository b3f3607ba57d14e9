import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 339: the medicine a class's plain name gives as its example is one member, never the class. New wording. */
const read = (text: string) => readTextRule('exclusion', text, {});

describe('one medicine read through a class named by its example', () => {
  it('goes to review, since the class would refuse every member', () => {
    for (const text of [
      'Started dapagliflozin in the past 8 weeks',
      'Any exposure to baricitinib',
      'On dulaglutide',
      'Received benralizumab in the last year',
    ]) {
      const reading = read(text);
      expect(reading.rule?.type, text).toBe('medication');
      expect(reading.needsReview, text).toBe(true);
      expect(reading.reasons, text).toContain('oneMemberOfClass');
    }
  });

  it('reads the class itself, named as a class, without review', () => {
    for (const text of ['Current SGLT2 inhibitor therapy', 'Any JAK inhibitor in the past', 'Biologic therapy within 12 weeks'])
      expect(read(text).needsReview, text).toBe(false);
  });
});
