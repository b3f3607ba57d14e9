import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 377: diabetes called uncontrolled is what the glucose threshold after it defines; an electrolyte's or a
 * hormone's named abnormality is what the analyte's threshold after it defines; C. difficile infection is itself. New
 * wording, not a record's.
 */

const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a named abnormality before its threshold', () => {
  it('is uncontrolled diabetes, said by a fasting or random glucose', () => {
    expect(read('exclusion', 'Inadequately controlled type 2 diabetes (fasting plasma glucose above 240 mg/dL)')).toMatchObject({
      rule: { type: 'lab', measure: 'fasting glucose', comparator: '<=', value: 240 },
      needsReview: false,
    });
    expect(read('exclusion', 'Uncontrolled diabetes, defined as random glucose > 350 mg/dL')).toMatchObject({
      rule: { type: 'lab', measure: 'blood glucose', comparator: '<=', value: 350 },
      needsReview: false,
    });
  });

  it('keeps a plain diagnosis, an example and hypoglycaemia for a person: a threshold at screening does not say them', () => {
    expect(read('exclusion', 'Type 1 diabetes (fasting glucose > 126 mg/dL)').needsReview).toBe(true);
    expect(read('exclusion', 'Uncontrolled diabetes (e.g. fasting glucose over 250 mg/dL)').needsReview).toBe(true);
    expect(read('exclusion', 'Recurrent hypoglycaemia (blood glucose < 54 mg/dL)').needsReview).toBe(true);
    // A negated label turns its threshold around, which the lab reading does not.
    expect(read('inclusion', 'Subject does not have uncontrolled diabetes (i.e. fasting glucose > 270 mg/dL)')).toMatchObject({
      needsReview: true,
      reasons: expect.arrayContaining(['negatedLabel']),
    });
  });

  it("is an electrolyte's or a hormone's abnormality, said by the analyte's threshold", () => {
    expect(read('exclusion', 'Hypernatraemia (plasma sodium > 150 mmol/L)')).toMatchObject({
      rule: { type: 'lab', measure: 'sodium', comparator: '<=', value: 150 },
      needsReview: false,
    });
    expect(read('exclusion', 'Hypophosphataemia: phosphate below 0.6 mmol/L')).toMatchObject({ rule: { measure: 'phosphates' }, needsReview: false });
    expect(read('exclusion', 'Poorly controlled hyperthyroidism (TSH < 0.1 mIU/L)')).toMatchObject({ rule: { measure: 'thyrotropin' }, needsReview: false });
    // A thyroid diagnosis without "uncontrolled" may be treated, with a normal TSH now.
    expect(read('exclusion', 'Hypothyroidism (TSH > 5 mIU/L)').needsReview).toBe(true);
  });
});

describe('Clostridioides difficile infection', () => {
  it('is C. difficile, not any clostridium infection', () => {
    expect(read('exclusion', 'Clostridioides difficile infection within 90 days')).toMatchObject({
      rule: { type: 'condition', concepts: [{ id: 'cohortly:c-difficile' }] },
      needsReview: false,
    });
  });
});
