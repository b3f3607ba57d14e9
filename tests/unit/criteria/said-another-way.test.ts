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

  it('an older-than bound, a bound in months or a number left unread stays for a person', () => {
    for (const text of [
      'Older than 21 years',
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

  it('a value from the past, or a point that is no start of the study, stays for a person', () => {
    for (const text of [
      'Haemoglobin of at least 10 g/dL within the last 3 weeks',
      'Platelet count of 50 x 10^9/L or more within 7 days after surgery',
      'Haemoglobin of at least 10 g/dL within 28 days of a transfusion',
    ])
      expect(read('inclusion', text).needsReview, text).toBe(true);
  });
});
