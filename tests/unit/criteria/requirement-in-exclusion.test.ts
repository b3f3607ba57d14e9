import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** An exclusion worded as a requirement is read as its words require, never turned round (reader.ts, decision 277). New wording. */
const excluded = (text: string) => readTextRule('exclusion', text);

describe('a requirement written among the exclusions', () => {
  it('keeps what the words require, in review, instead of refusing the people the trial takes', () => {
    expect(excluded('Candidates must be aged 21 years or more')).toMatchObject({ rule: { type: 'age', minYears: 21, maxYears: null }, needsReview: true });
    expect(excluded('Volunteers must be a never-smoker')).toMatchObject({ rule: { type: 'smoking', smoker: false }, needsReview: true });
    expect(excluded('All subjects are required to have a platelet count of at least 100 x 10^9/L')).toMatchObject({
      rule: { type: 'lab', comparator: '>=' },
      needsReview: true,
    });
    expect(excluded('Candidates must be aged 21 years or more').reasons).toContain('requirementInExclusion');
  });

  it("reads a measure's requirement as the words require, after the measure as after a group (decision 355)", () => {
    expect(excluded('Neutrophils must be at least 1.5 x 10^9/L')).toMatchObject({ rule: { type: 'lab', comparator: '>=', value: 1.5 }, needsReview: true });
    expect(excluded('Fasting glucose should not exceed 7 mmol/L')).toMatchObject({
      rule: { type: 'lab', comparator: '<=', value: 126, unit: 'mg/dL' },
      needsReview: false,
    });
  });

  it('reads a requirement of absence as the exclusion it is, with no one to confirm it (decision 355)', () => {
    expect(excluded('Participants should not have epilepsy')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(excluded('Candidates must not be older than 70 years')).toMatchObject({ rule: { type: 'age', minYears: null, maxYears: 70 }, needsReview: false });
  });

  it('leaves alone what reads the same either way, and exclusions that only say who is excluded', () => {
    expect(excluded('Women must not be breastfeeding')).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    expect(excluded('Subjects should be excluded if they have asthma')).toMatchObject({ rule: { type: 'condition', present: false } });
    // Not a requirement's opening: the person takes warfarin, and that excludes them.
    expect(excluded('Patients who must take warfarin')).toMatchObject({ rule: { type: 'medication', taking: false } });
    expect(excluded('Aged 65 years or older')).toMatchObject({ rule: { type: 'age', maxYears: 64 }, needsReview: false });
  });

  it('sends a negated opening that would require a condition or medicine to a person', () => {
    // Read as written, only people who had the condition may take part: a trial of it, or inclusion wording misplaced.
    expect(excluded('No previous diagnosis of a stroke')).toMatchObject({ rule: { type: 'condition', present: true }, needsReview: true });
    expect(excluded('Without any insulin use')).toMatchObject({ rule: { type: 'medication', taking: true }, needsReview: true });
    expect(excluded('No previous diagnosis of a stroke').reasons).toContain('negatedExclusion');
    // Consent is staff's check either way.
    expect(excluded('No signed consent form')).toMatchObject({ rule: { type: 'site_judgement' } });
  });
});
