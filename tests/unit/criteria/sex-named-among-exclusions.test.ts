import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 327: a sex named alone among the exclusions leaves the other one. Wording new to this file. */
const read = (text: string) => readTextRule('exclusion', text, {});

describe('a sex named alone among the exclusions', () => {
  it('is read as the other sex taking part', () => {
    expect(read('Female gender')).toMatchObject({ rule: { type: 'sex', sex: 'male' }, needsReview: false });
    expect(read('Men')).toMatchObject({ rule: { type: 'sex', sex: 'female' }, needsReview: false });
    expect(read('Male participants')).toMatchObject({ rule: { type: 'sex', sex: 'female' }, needsReview: false });
  });

  it('reads nothing from a heading, both sexes, or a sex with more said of it', () => {
    expect(read('Female participants:')).toEqual({ rule: null, needsReview: true });
    expect(read('Men or women')).toEqual({ rule: null, needsReview: true });
    expect(read('Women (of childbearing potential)').rule?.type).not.toBe('sex');
  });
});
