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

describe('contraception examples and who the rule is about (decision 242)', () => {
  it('a list of methods given as examples says no more than the contraception required', () => {
    for (const text of [
      'Participants of child-bearing potential must agree to use effective birth control (for example the pill, an implant or condoms) during the study',
      'Women of reproductive potential agree to use contraception, such as an intrauterine device or hormonal injection, until the end of the study',
      'Men must use a reliable contraceptive method for the entire treatment period and 90 days after the last dose of study drug',
    ])
      expect(readTextRule('inclusion', text), text).toMatchObject({ rule: { type: 'contraception', required: true }, needsReview: false });
  });

  it('a method required by itself, or one set aside, is narrower and stays in review', () => {
    for (const text of [
      'Men must practise barrier contraception for the entire treatment period',
      'Must agree to use contraception (other than hormonal methods)',
      'Women on hormonal contraceptives',
      'Willing to use two barrier methods of contraception',
    ]) {
      const read = readTextRule('inclusion', text);
      expect(read.needsReview, text).toBe(true);
    }
    expect(readTextRule('inclusion', 'Men must practise barrier contraception for the entire treatment period').reasons).toContain('namedMethod');
    // A negative test (or not breastfeeding) beside contraception is a second requirement the rule does not hold.
    expect(
      readTextRule('inclusion', 'Those able to conceive need a negative hCG test at baseline and must agree to use birth control (e.g. an implant or the pill)')
        .reasons,
    ).toContain('pregnancyToo');
  });
});

describe("an exclusion's own words beside pregnancy (decision 242)", () => {
  it('"are excluded", "may not take part", "nursing a child" say no more than the pregnancy rule', () => {
    for (const text of [
      'Participants who are pregnant or breastfeeding will be excluded from this trial',
      'Women who are nursing an infant may not take part',
      'Pregnant or lactating women are not eligible',
    ])
      expect(readTextRule('exclusion', text), text).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
  });

  it('a condition on the exclusion, or an inclusion, is not read so', () => {
    expect(readTextRule('exclusion', 'Pregnant women are excluded unless the pregnancy has ended').needsReview).toBe(true);
    expect(readTextRule('exclusion', 'Pregnant women are not eligible for the surgical arm').needsReview).toBe(true);
    // Among the inclusions, the words say who is refused: read so, and a person confirms the section (decision 352).
    expect(readTextRule('inclusion', 'Pregnant women are excluded')).toMatchObject({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: true,
      reasons: ['exclusionInInclusion'],
    });
  });
});

describe('a status rule in review names why (decision 241)', () => {
  it('gives the words it left, as the concept reader does', () => {
    expect(readTextRule('exclusion', 'Pregnant women with gestational diabetes').reasons).toEqual(['words: gestational diabetes']);
    expect(readTextRule('inclusion', 'Former smokers who quit at least a year ago').reasons).toContain('formerSmoker');
  });
});

describe("the site's pregnancy test and a negation written as a prefix (decision 242)", () => {
  it('when and how the test is run says no more than "not pregnant"', () => {
    for (const text of [
      'A negative urine pregnancy test within 48 hours before the first dose of study drug',
      'Negative serum beta human chorionic gonadotropin (hCG) result within 5 days prior to enrolment',
      'Non-lactating and non-pregnant participants',
    ])
      expect(readTextRule('inclusion', text), text).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
  });

  it("a pregnancy in the past is not today's, and stays in review", () => {
    for (const text of ['Pregnant within the last 9 months', 'Gave birth less than 6 weeks ago or pregnant']) {
      const read = readTextRule('exclusion', text);
      expect(read.needsReview, text).toBe(true);
    }
    expect(readTextRule('exclusion', 'Pregnant within the last 9 months').reasons).toContain('pastPregnancy');
  });
});

describe('"the last dose" ends the period of a plan, not a past pregnancy (decision 242)', () => {
  it('gives no past-pregnancy reason', () => {
    const read = readTextRule('exclusion', 'Pregnant, or planning a pregnancy before 60 days after the last dose of study drug');
    expect(read.reasons ?? []).not.toContain('pastPregnancy');
  });
});

describe('being able to become pregnant listed as an item of its own', () => {
  it('is more than "not pregnant", so the rule goes to a person', () => {
    for (const text of [
      'Expectant mothers, nursing mothers, or women of child-bearing potential',
      'Currently pregnant or breast-feeding, or of reproductive potential.',
    ]) {
      const read = readTextRule('exclusion', text);
      expect(read.rule, text).toMatchObject({ type: 'pregnancy', allowed: false });
      expect(read.needsReview, text).toBe(true);
    }
  });

  it('names who the rule is about when the pregnancy follows it', () => {
    const read = readTextRule('exclusion', 'Females of reproductive potential who are currently pregnant or nursing');
    expect(read.rule).toMatchObject({ type: 'pregnancy', allowed: false });
    expect(read.needsReview).toBe(false);
  });
});
