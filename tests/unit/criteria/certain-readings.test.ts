import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Readings sent to review though the words say no more than the rule (issue 30, helper "crit", decision 278): the start
 * of the study's treatment as a point in time, "no upper age limit", a positive status of an infection, a sex word beside
 * a condition only women have, a spelled number or a plural test beside pregnancy. New wording, not corpus sentences.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => {
  const { rule, needsReview } = readTextRule(kind, text);
  return { rule: rule ? JSON.parse(JSON.stringify({ ...rule, span: undefined, concepts: undefined })) : null, needsReview };
};

describe('the start of the study’s own treatment', () => {
  it('is a point in time the window is counted from', () => {
    expect(read('exclusion', 'Myocardial infarction within 3 months of starting trial therapy')).toMatchObject({
      rule: { type: 'condition', present: false, within: { value: 3, unit: 'months' } },
      needsReview: false,
    });
    expect(read('exclusion', 'Pneumonia in the 4 weeks before beginning protocol treatment').needsReview).toBe(false);
    expect(read('exclusion', 'Deep vein thrombosis within 8 weeks prior to commencing study medication').needsReview).toBe(false);
    expect(read('exclusion', 'Stroke within 6 weeks of the first receipt of study drug').needsReview).toBe(false);
  });

  it('a named medicine started, or a time after the start, stays for a person', () => {
    for (const text of [
      'Pneumonia within 4 weeks of starting treatment with rituximab',
      'Pneumonia within 4 weeks before starting insulin',
      'Pneumonia within 4 weeks after starting study therapy',
    ])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });
});

describe('no upper age limit', () => {
  it('says what an age rule with no maximum says', () => {
    expect(read('inclusion', 'Adults of 21 years or more, with no upper age limit')).toEqual({
      rule: { type: 'age', minYears: 21, maxYears: null },
      needsReview: false,
    });
    expect(read('inclusion', 'At least 40 years old; no maximum age').needsReview).toBe(false);
  });

  it('is not said by a rule that has a maximum, nor by a limit that applies', () => {
    expect(read('inclusion', 'Aged 30 to 60, upper age limit applies').needsReview).toBe(true);
  });
});

describe('a positive status of an infection', () => {
  it('is the infection', () => {
    expect(read('exclusion', 'Known positive HIV status')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('exclusion', 'Documented positivity for hepatitis B')).toMatchObject({ needsReview: false });
  });

  it('a status that is not said positive stays for a person', () => {
    expect(read('inclusion', 'Unknown HIV status').needsReview).toBe(true);
    expect(read('exclusion', 'HIV status not documented').needsReview).toBe(true);
  });
});

describe('a sex word beside a condition only women have', () => {
  it('says no more than the condition', () => {
    expect(read('exclusion', 'Women with a past diagnosis of endometriosis')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    expect(read('exclusion', 'Female participants with gestational diabetes').needsReview).toBe(false);
    expect(read('inclusion', 'Women with ovarian cancer').needsReview).toBe(false);
  });

  it('stays for a person beside a condition men have too', () => {
    for (const text of ['Women with breast cancer', 'Female participants with asthma', 'HIV-infected women']) {
      expect(read('exclusion', text).needsReview, text).toBe(true);
      expect(read('inclusion', text).needsReview, text).toBe(true);
    }
  });
});

describe('pregnancy with a spelled number or a plural test', () => {
  it('is the pregnancy rule', () => {
    expect(read('exclusion', 'Pregnant, or hoping to conceive in the coming two years')).toEqual({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: false,
    });
    expect(read('exclusion', 'Positive urine pregnancy tests during screening').needsReview).toBe(false);
  });
});

describe('transaminases named as a pair', () => {
  it('are ALT and AST, as "ALT or AST" is', () => {
    expect(read('inclusion', 'Hepatic transaminases at most 2.5 times the upper limit of normal')).toEqual({
      rule: { type: 'lab', measure: 'ALT/AST', comparator: '<=', value: 2.5, relativeTo: 'ULN' },
      needsReview: false,
    });
    expect(read('exclusion', 'Aminotransferases above 5 × ULN')).toMatchObject({
      rule: { measure: 'ALT/AST', comparator: '<=', value: 5 },
      needsReview: false,
    });
    expect(read('exclusion', 'Raised liver enzymes (ALT or AST) over 3 x ULN')).toMatchObject({ rule: { measure: 'ALT/AST' } });
  });

  it('liver enzymes with no pair named, or a second bound, stay for a person', () => {
    expect(read('exclusion', 'Liver enzymes above 3 x ULN').needsReview).toBe(true);
    expect(read('inclusion', 'Transaminases at most 3 x ULN, or at most 5 x ULN with hepatic metastases').needsReview).toBe(true);
  });
});

describe('a criterion of sex words alone', () => {
  it('names the sex its word of sex names', () => {
    expect(read('inclusion', 'Sex: male')).toEqual({ rule: { type: 'sex', sex: 'male' }, needsReview: false });
    expect(read('inclusion', 'Of female gender')).toEqual({ rule: { type: 'sex', sex: 'female' }, needsReview: false });
    expect(read('inclusion', 'Males only')).toEqual({ rule: { type: 'sex', sex: 'male' }, needsReview: false });
    expect(read('inclusion', 'Either sex')).toEqual({ rule: { type: 'sex', sex: 'all' }, needsReview: false });
  });
});

describe('one treatment given as another', () => {
  it('is not either of two', () => {
    expect(read('exclusion', 'Radiotherapy as palliative treatment for bone pain within 2 weeks').needsReview).toBe(true);
    expect(read('exclusion', 'Corticosteroids as anti-emetic therapy within 7 days of the first dose').needsReview).toBe(true);
  });
});
