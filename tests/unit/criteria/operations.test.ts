import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 306: an operation named by the generic words, with its place and window. New wording. */
const read = (text: string, kind: 'inclusion' | 'exclusion' = 'exclusion') => readTextRule(kind, text, {});
const conditionOf = (text: string, kind: 'inclusion' | 'exclusion' = 'exclusion') => {
  const rule = read(text, kind).rule;
  return rule?.type === 'condition' ? rule : null;
};

describe('any operation within a window before the study', () => {
  it.each([
    ['Any operation within 14 days before randomisation', 14, 'days'],
    ['Surgery within 6 weeks prior to enrolment', 6, 'weeks'],
    ['Has had a surgical procedure within the past 2 months', 2, 'months'],
  ])('%s: any operation, in the window, no review', (text, value, unit) => {
    const rule = conditionOf(text);
    expect(rule?.concepts?.[0].id).toBe('cohortly:prior-surgery');
    expect(rule?.present).toBe(false);
    expect(rule?.history).toBe(true);
    expect(rule?.within).toEqual({ value, unit });
    expect(read(text).needsReview).toBe(false);
  });
});

describe('an operation on a part of the spine keeps the part', () => {
  it('a fusion or a spine word with the part: a spine operation with it', () => {
    const rule = conditionOf('Earlier lumbar fusion surgery, at any level');
    expect(rule?.concepts?.[0].id).toBe('cohortly:spine-surgery');
    const fused = conditionOf('Previous cervical fusion operation');
    expect(fused?.qualifiers).toEqual(['cervical']);
    expect(read('Previous cervical fusion operation').needsReview).toBe(false);
  });

  it('"cervical" alone may be the cervix: the spine rule goes to review', () => {
    const text = 'Subjects who underwent cervical surgery in the last 6 months';
    expect(conditionOf(text)?.qualifiers).toEqual(['cervical']);
    expect(read(text).reasons).toContain('partWithoutSpine');
  });
});

describe('a place the rule cannot hold, or a narrower word, goes to review', () => {
  it.each(['Prior shoulder surgery', 'Hand surgery within the last 3 months', 'Recent operation'])('%s', (text) => {
    expect(conditionOf(text)?.concepts?.[0].id).toBe('cohortly:prior-surgery');
    expect(read(text).needsReview).toBe(true);
  });
});

describe('what is not a past operation is not read as one', () => {
  it.each([
    'An operation is planned as part of this trial',
    'Subjects scheduled to undergo surgery within 30 days',
    'Need for surgery during the study period',
    'Unable to tolerate surgery within 2 weeks',
    'Knee surgery or hip surgery within 3 months',
  ])('%s', (text) => {
    const rule = conditionOf(text);
    expect(rule?.concepts?.some((concept) => concept.id === 'cohortly:prior-surgery') && !read(text).needsReview).toBeFalsy();
  });

  it('a candidate for an operation, as an inclusion, is not one had', () => {
    const rule = conditionOf('Suitable candidates for spinal surgery', 'inclusion');
    expect(rule?.history).toBeFalsy();
  });

  it('a past operation an inclusion wants stays in review (its window is not checked for a wanted fact)', () => {
    expect(read('Had an operation within the past year', 'inclusion').reasons).toContain('pastOperationWanted');
  });
});
