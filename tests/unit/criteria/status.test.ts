import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Pregnancy, contraception, smoking (trials/criteria/status.ts). Every phrasing here is new wording, not a corpus record's. */

describe('contraception with its alternatives', () => {
  it('post-menopausal or sterile, or using birth control, is what the question asks', () => {
    const read = readTextRule(
      'inclusion',
      'Women must be at least 2 years postmenopausal, surgically sterile, or using a highly effective method of contraception',
    );
    expect(read.rule).toMatchObject({ type: 'contraception', required: true });
    expect(read.needsReview).toBe(false);
  });

  it('sterility required without contraception, or beside a "not", stays in review', () => {
    expect(
      readTextRule('inclusion', 'Female participants must be post-menopausal or surgically sterile; hormonal contraception is not acceptable').needsReview,
    ).toBe(true);
    expect(readTextRule('inclusion', 'Postmenopausal women; sexually active men must use condoms').needsReview).toBe(true);
  });
});

describe('a wish to become pregnant (decision 184)', () => {
  it('is the plan the pregnancy question asks about, however it is said', () => {
    for (const text of [
      'Pregnant, or hoping to conceive during the study',
      'Breastfeeding women or women with a desire to become pregnant',
      'Pregnant or wanting to get pregnant in the coming months',
    ])
      expect(readTextRule('exclusion', text), text).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
  });
});

describe('a status rule in review names why (decision 241)', () => {
  it('gives the words it left, as the concept reader does', () => {
    expect(readTextRule('exclusion', 'Pregnant women with gestational diabetes').reasons).toEqual(['words: gestational diabetes']);
    expect(readTextRule('inclusion', 'Former smokers who quit at least a year ago').reasons).toContain('formerSmoker');
  });
});
