import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 342: an exclusion naming a contraceptive in use refuses its users; it requires no contraception. New wording. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a contraceptive named among the exclusions', () => {
  it('in use, is never a requirement to use contraception', () => {
    for (const text of ['Taking combined oral contraceptives in the last 4 weeks', 'Has a levonorgestrel intrauterine system in place'])
      expect(read('exclusion', text).rule, text).not.toMatchObject({ type: 'contraception' });
    expect(read('exclusion', 'Taking combined oral contraceptives in the last 4 weeks').rule).toMatchObject({ type: 'medication', taking: false });
  });

  it('lacking or refused, or required in so many words, is the requirement', () => {
    for (const text of [
      'Sexually active women of childbearing potential who will not use a reliable method of birth control',
      'Women able to conceive, unless on a highly effective method of contraception',
      'Participants must agree to use effective contraception until 90 days after the last infusion',
    ])
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'contraception', required: true });
  });
});
