import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 344: "<condition> treatment" is the treatment of the condition, never the condition. New wording. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe("a condition's treatment", () => {
  it('is medicines for the condition, not the condition', () => {
    for (const [text, medicine] of [
      ['Gout therapy started in the past 3 months', 'medicines for gout'],
      ['Any migraine medication within 14 days', 'medicines for migraine'],
    ])
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'medication', medication: medicine, taking: false });
  });

  it('is no rule when the words say it is past, which "taking now" cannot hold', () => {
    expect(read('exclusion', 'Previous hepatitis B treatment').rule).toBeNull();
  });

  it('in an inclusion, keeps the condition it implies, for a person to check', () => {
    expect(read('inclusion', 'On stable gout therapy for 8 weeks')).toMatchObject({ rule: { type: 'condition', present: true }, needsReview: true });
  });

  it('leaves "treatment-naive" to the condition it describes', () => {
    expect(read('inclusion', 'Chronic hepatitis B, treatment-naive').rule).toMatchObject({ type: 'condition', present: true });
  });
});
