import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 301: "of non-childbearing potential" is the childbearing potential the pregnancy rules are about, negated:
 * the rule is "not pregnant", which a woman past the menopause or surgically sterile meets, in review (whether a woman
 * could become pregnant is more than whether she is). Never a surgery "on both sides" she must have had. New wording.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a woman who cannot become pregnant', () => {
  it('is read as not pregnant, for a person to confirm', () => {
    for (const text of [
      'Females must be of non-child-bearing potential',
      'Women who are not of childbearing potential',
      'Female volunteers without childbearing potential, defined as bilateral tubal ligation, hysterectomy or amenorrhoea for 12 months',
    ])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: true });
  });

  it('never asks for the operations or the menopause its definition lists', () => {
    expect(read('inclusion', 'Non-childbearing potential, i.e. bilateral oophorectomy or postmenopausal state').rule?.type).toBe('pregnancy');
  });

  it('leaves contraception beside it to the contraception reading', () => {
    expect(read('inclusion', 'Of non-childbearing potential, or agrees to use contraception').rule?.type).toBe('contraception');
  });

  it('never turns an exclusion of such women into a rule about pregnancy', () => {
    expect(read('exclusion', 'Females not of child-bearing potential').rule?.type ?? null).not.toBe('pregnancy');
  });
});
