import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 364: a clinical scale written out in full before its short form is the scale's name; an optional phrase ("with
 * or without aura") before the words that say how the condition is known narrows nothing. New wording, not a record's.
 */

describe('a scale written out in full before its short form', () => {
  it('reads the full name as the scale, with no review', () => {
    expect(readTextRule('inclusion', 'Psoriasis Area and Severity Index (PASI) score of at least 10 at baseline')).toMatchObject({
      rule: { type: 'lab', measure: 'PASI score', comparator: '>=', value: 10 },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Eczema Area and Severity Index (EASI) below 12 at the baseline visit')).toMatchObject({
      rule: { type: 'lab', measure: 'EASI score', comparator: '>=', value: 12 },
      needsReview: false,
    });
  });

  it('holds the full name in the rule, so the condition in it is no second requirement', () => {
    const read = readTextRule('inclusion', 'Psoriasis Area and Severity Index (PASI) of 14 or more');
    expect(read.rule?.span?.start).toBe(0);
  });

  it('still reviews words that do not spell the short form', () => {
    expect(readTextRule('inclusion', 'Scalp psoriasis severity on the PASI of 14 or more').needsReview).toBe(true);
  });
});

describe('an optional phrase after a condition', () => {
  it('narrows nothing when the words that say how it is known follow', () => {
    expect(readTextRule('inclusion', 'Migraine with or without aura diagnosed per ICHD-3')).toMatchObject({
      rule: { type: 'condition', condition: 'migraine', present: true },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Migraine with or without aura for at least one year')).toMatchObject({
      rule: { type: 'condition', condition: 'migraine', present: true, duration: { minDays: 365 } },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Diagnosis of migraine with or without aura according to the ICHD-3 criteria')).toMatchObject({
      rule: { type: 'condition', condition: 'migraine', present: true },
      needsReview: false,
    });
  });

  it('leaves a requirement after the optional phrase to a person', () => {
    expect(readTextRule('inclusion', 'Migraine with or without aura and at least 4 attacks each month').needsReview).toBe(true);
  });
});
