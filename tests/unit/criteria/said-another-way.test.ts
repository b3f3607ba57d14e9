import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Rules that need no review because the words left say the same thing another way (issue 30, decisions 263-264): an
 * included age below a whole number of years, and when or how a lab value is measured. New wording.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => {
  const { rule, needsReview } = readTextRule(kind, text);
  return { rule: rule ? { ...rule, span: undefined } : null, needsReview };
};

describe('an included age below a whole number of years (decision 263)', () => {
  it('is the year before it, in completed years', () => {
    expect(read('inclusion', 'Participants younger than 12 years')).toEqual({
      rule: { type: 'age', minYears: null, maxYears: 11, span: undefined },
      needsReview: false,
    });
    expect(read('inclusion', 'Aged under 40').rule).toMatchObject({ maxYears: 39 });
    expect(read('inclusion', 'Age at least 5 years and under 16 years')).toMatchObject({
      rule: { minYears: 5, maxYears: 15 },
      needsReview: false,
    });
  });

  it('an included older-than bound in whole years is the birthday passed: that many completed years (decision 351)', () => {
    expect(read('inclusion', 'Older than 21 years')).toMatchObject({ rule: { minYears: 21, maxYears: null }, needsReview: false });
    expect(read('inclusion', 'Aged over 45 years and under 70 years')).toMatchObject({ rule: { minYears: 45, maxYears: 69 }, needsReview: false });
    // A bound in months is a fraction of a year: a person still reads it.
    expect(read('inclusion', 'Infants older than 3 months')).toMatchObject({ rule: { minYears: 0.25 }, needsReview: true });
  });

  it('a bound in months or a number left unread stays for a person', () => {
    for (const text of [
      'Babies under 9 months old',
      'Aged 7 to under 15 years',
      'Between 7 and less than 15 years of age',
      'Aged 30 or over or under 30 years',
    ])
      expect(read('inclusion', text).needsReview, text).toBe(true);
  });

  it('an exclusion of the young is read as before', () => {
    expect(read('exclusion', 'Younger than 21 years')).toMatchObject({ rule: { minYears: 21, maxYears: null }, needsReview: false });
  });
});

describe('when a lab value is measured before the study starts (decision 264)', () => {
  it('is the time of the screening test, which the rule already is', () => {
    expect(read('inclusion', 'Haemoglobin of at least 10 g/dL measured within 28 days before enrolment')).toMatchObject({
      rule: { type: 'lab', measure: 'hemoglobin', comparator: '>=', value: 10 },
      needsReview: false,
    });
    expect(read('exclusion', 'Platelet count below 75 x 10^9/L (in the 14 days prior to the first dose of study drug)')).toMatchObject({
      rule: { measure: 'platelets', comparator: '>=', value: 75 },
      needsReview: false,
    });
    expect(read('inclusion', 'QTcF of 450 ms or less within 10 days of randomisation').needsReview).toBe(false);
  });

  it('a requirement written among the exclusions is never turned round without a person', () => {
    // Inverted, "must have at least 60" would refuse everyone the study wants.
    expect(read('exclusion', 'Participants must have a creatinine clearance of at least 60 mL/min').needsReview).toBe(true);
    expect(read('exclusion', 'Creatinine clearance under 30 mL/min')).toMatchObject({ rule: { comparator: '>=', value: 30 }, needsReview: false });
  });

  it('a value from the past, or a point that is no start of the study, stays for a person', () => {
    for (const text of [
      'Haemoglobin of at least 10 g/dL within the last 3 weeks',
      'Platelet count of 50 x 10^9/L or more within 7 days after surgery',
      'Haemoglobin of at least 10 g/dL within 28 days of a transfusion',
    ])
      expect(read('inclusion', text).needsReview, text).toBe(true);
  });
});

describe('how long contraception goes on after the study treatment (decision 265)', () => {
  it('is the period of the contraception rule, by whatever name the treatment has', () => {
    for (const text of [
      'Willing to use effective birth control for 4 months after the last infusion of XYZ-101',
      'Must agree to use contraception for at least six weeks following transplant',
      'Agrees to utilise a reliable contraceptive method for one year post gene transfer',
    ])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'contraception', required: true }, needsReview: false });
  });

  it('a second requirement after the period, or a refusal read as an inclusion, stays for a person', () => {
    expect(read('inclusion', 'Must use contraception for 3 months after surgery and not donate eggs').needsReview).toBe(true);
    expect(read('inclusion', 'Must use birth control for 90 days after the last dose, and avoid sperm donation').needsReview).toBe(true);
    expect(read('inclusion', 'Women who decline to use birth control during the study').needsReview).toBe(true);
    // As an exclusion, a refusal is what the rule already says: willing to use it.
    expect(read('exclusion', 'Women who decline to use birth control during the study')).toMatchObject({ needsReview: false });
  });
});

describe('"recent" beside the window the rule holds (decision 266)', () => {
  it('says no more than the window', () => {
    expect(read('exclusion', 'Recent heart attack in the past 6 months')).toMatchObject({
      rule: { type: 'condition', present: false, within: { value: 6, unit: 'months' } },
      needsReview: false,
    });
    expect(read('exclusion', 'Recent use of systemic steroids within 4 weeks').needsReview).toBe(false);
  });

  it('without a window, or beside another time word, it stays for a person', () => {
    expect(read('exclusion', 'Recent heart attack').needsReview).toBe(true);
    expect(read('exclusion', 'Recent or remote head injury within 2 years').needsReview).toBe(true);
  });
});

describe('an infection named by its germ (decision 266)', () => {
  it('is that one infection, not any infection besides it', () => {
    expect(read('exclusion', 'Known active infection with the human immunodeficiency virus')).toMatchObject({
      rule: { type: 'condition', condition: 'HIV', present: false },
      needsReview: false,
    });
    expect(read('exclusion', 'Current infection by hepatitis B virus').rule).toMatchObject({ condition: 'hepatitis B' });
  });

  it('an infection beside something that is no germ stays any infection', () => {
    expect(read('exclusion', 'Infection requiring intravenous antibiotics').needsReview).toBe(true);
  });
});
