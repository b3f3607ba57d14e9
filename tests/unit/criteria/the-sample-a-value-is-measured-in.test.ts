import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 366: "plasma" right before a lab value's analyte is the sample it is measured in, not a blood product the
 * person receives. New wording, not a record's.
 */

describe('the sample a lab value is measured in', () => {
  it('reads "plasma" before the analyte as the sample, with no review', () => {
    expect(readTextRule('inclusion', 'Plasma aldosterone of at least 12 ng/dL at screening')).toMatchObject({
      rule: { type: 'lab', measure: 'aldosterone', comparator: '>=', value: 12 },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Fasting plasma triglycerides above 400 mg/dL')).toMatchObject({
      rule: { type: 'lab', measure: 'triglycerides', comparator: '<=', value: 400 },
      needsReview: false,
    });
  });

  it('still reads plasma given to the person, and plasma cells, as before', () => {
    expect(readTextRule('exclusion', 'Received convalescent plasma in the last 60 days').rule).toMatchObject({ type: 'medication', taking: false });
    expect(readTextRule('exclusion', 'Plasma cell leukaemia').rule).toMatchObject({ type: 'condition', present: false });
  });

  it('keeps a blood product named apart from the value in review', () => {
    expect(readTextRule('exclusion', 'Fresh frozen plasma within 7 days, or potassium above 5.5 mmol/L').needsReview).toBe(true);
  });
});
