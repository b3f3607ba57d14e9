import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 361: a lab bound restated in another unit of the measure ("or >= 5.6 mmol/L", "(100,000/mm3)") says nothing
 * more; a second bound for some people, or another value, stays in review. A superscript nine is the unit's nine. New
 * wording throughout.
 */
const inclusion = (text: string) => readTextRule('inclusion', text);

describe('a lab bound written in two units', () => {
  it('reads the restatement after "or" as the same bound, among inclusions and exclusions', () => {
    expect(inclusion('Haemoglobin of at least 10 g/dL or ≥ 6.2 mmol/L at screening')).toMatchObject({
      rule: { type: 'lab', measure: 'hemoglobin', comparator: '>=', value: 10, unit: 'g/dL' },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Serum creatinine > 2.0 mg/dL or > 177 µmol/L')).toMatchObject({
      rule: { measure: 'creatinine', comparator: '<=', value: 2 },
      needsReview: false,
    });
  });

  it('reads a bracket whose unit carries digits as the same bound', () => {
    expect(inclusion('Platelet count ≥ 75 x 10^9/L (75,000/mm3)')).toMatchObject({ rule: { measure: 'platelets', value: 75 }, needsReview: false });
  });

  it('keeps another value, another comparator or a bound for some people in review', () => {
    expect(inclusion('Haemoglobin of at least 10 g/dL or ≥ 8.5 mmol/L').needsReview).toBe(true);
    expect(inclusion('Haemoglobin of at least 10 g/dL or ≤ 6.2 mmol/L').needsReview).toBe(true);
    expect(inclusion('Platelet count ≥ 75 x 10^9/L (≥ 50 x 10^9/L for patients with marrow involvement)').needsReview).toBe(true);
    expect(inclusion('Platelet count ≥ 75 x 10^9/L (≥ 75 x 10^9/L for patients with marrow involvement)').needsReview).toBe(true);
  });

  it('reads "10⁹/L" with a superscript nine', () => {
    expect(inclusion('Absolute neutrophil count ≥ 1.0 × 10⁹/L')).toMatchObject({
      rule: { measure: 'ANC', comparator: '>=', value: 1, unit: '10^9/L' },
      needsReview: false,
    });
  });
});
