import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Lab values of analytes the measures table does not hold, named by the vocabulary (decision 304,
 * trials/criteria/analyte-labs.ts). Every phrasing here is new wording, not a corpus record's.
 */

const ruleOf = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text).rule;

describe('an analyte named with a bound in a laboratory unit', () => {
  it('is a lab rule on the analyte, by its plain name, in the unit written', () => {
    expect(readTextRule('exclusion', 'Total cholesterol above 320 mg/dL')).toMatchObject({
      rule: { type: 'lab', measure: 'cholesterol', comparator: '<=', value: 320, unit: 'mg/dL' },
    });
    expect(readTextRule('exclusion', 'Serum sodium below 128 mmol/L')).toMatchObject({
      rule: { type: 'lab', measure: 'sodium', comparator: '>=', value: 128, unit: 'mmol/L' },
      needsReview: false,
    });
    expect(ruleOf('inclusion', 'PSA ≥ 2.5 ng/mL at screening')).toMatchObject({
      measure: 'prostate-specific antigen',
      comparator: '>=',
      value: 2.5,
      unit: 'ng/mL',
    });
    expect(ruleOf('exclusion', 'TSH greater than 7.5 mIU/L')).toMatchObject({ measure: 'thyrotropin', comparator: '<=', value: 7.5, unit: 'mIU/L' });
    expect(ruleOf('inclusion', 'Ferritin of at least 50 µg/L')).toMatchObject({ measure: 'ferritins', comparator: '>=', value: 50, unit: 'µg/L' });
    expect(ruleOf('exclusion', 'Haematocrit under 33%')).toMatchObject({ measure: 'hematocrit', comparator: '>=', value: 33, unit: '%' });
    expect(ruleOf('inclusion', 'Serum magnesium equal or above 1.7 mg/dL')).toMatchObject({ measure: 'magnesium', comparator: '>=', value: 1.7 });
  });

  it('reads a range and a multiple of the normal range limit', () => {
    expect(ruleOf('inclusion', 'Prostate-specific antigen between 3 and 20 ng/mL')).toMatchObject({
      measure: 'prostate-specific antigen',
      comparator: 'between',
      value: 3,
      upperValue: 20,
      unit: 'ng/mL',
    });
    expect(ruleOf('exclusion', 'Lipase more than 2.5 x ULN')).toMatchObject({ measure: 'lipase', comparator: '<=', value: 2.5, relativeTo: 'ULN' });
    // An excluded range is two rules, which a person writes.
    expect(readTextRule('exclusion', 'Serum calcium 8.0-10.5 mg/dL')).toMatchObject({ needsReview: true });
  });

  it('keeps the measures table first', () => {
    expect(ruleOf('inclusion', 'Serum albumin ≥ 3 g/dL')).toMatchObject({ measure: 'albumin' });
    expect(ruleOf('exclusion', 'Fasting blood sugar over 140 mg/dL')).toMatchObject({ measure: 'fasting glucose' });
  });

  it('leaves to a person what the rule does not hold', () => {
    expect(readTextRule('exclusion', 'Thyroid disease not controlled on treatment (TSH > 10 mIU/L)').needsReview).toBe(true);
    expect(readTextRule('exclusion', 'Total cholesterol > 300 mg/dL or known familial hypercholesterolaemia').needsReview).toBe(true);
  });
});

describe('what is no lab rule of an analyte', () => {
  const notLab = (kind: 'inclusion' | 'exclusion', text: string) => expect(ruleOf(kind, text)?.type).not.toBe('lab');

  it('a number without a laboratory unit, or a dose, is never a level', () => {
    notLab('exclusion', 'Ferritin above 500');
    notLab('exclusion', 'Taking aspirin 100 mg daily');
    notLab('exclusion', 'Calcium supplements of more than 1000 mg/day');
    notLab('exclusion', 'Testosterone replacement at 50 mg/kg');
    notLab('exclusion', 'Estradiol 0.1% cream applied daily');
  });

  it('a medicine named with a concentration is a level only with a level word', () => {
    notLab('exclusion', 'Vitamin D 50000 IU/mL drops');
    expect(ruleOf('inclusion', 'Vitamin D level below 20 ng/mL')).toMatchObject({ measure: 'vitamin d', comparator: '<', value: 20 });
  });

  it('another sample, a fraction or a rate of the analyte is another measure', () => {
    notLab('exclusion', 'Urine sodium over 40 mmol/L');
    notLab('exclusion', 'Free testosterone below 5 pg/mL');
    notLab('exclusion', 'PSA velocity above 0.75 ng/mL/year');
    notLab('exclusion', 'Ionized calcium > 1.4 mmol/L');
  });
});
