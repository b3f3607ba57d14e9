import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 369: "must not have a current or prior invasive malignancy": the requirement's negation reaches the whole
 * object of its verb, however many words describe it; never another verb it helps. New wording, not a record's.
 */

describe("a requirement's negation", () => {
  it('reaches a condition described by several words', () => {
    for (const kind of ['inclusion', 'exclusion'] as const) {
      expect(readTextRule(kind, 'Participants must not have a known current or past invasive malignancy').rule).toMatchObject({
        type: 'condition',
        condition: 'cancer',
        present: false,
      });
    }
    expect(readTextRule('inclusion', 'Subjects should not have been diagnosed with a prior or concurrent invasive malignancy').rule).toMatchObject({
      present: false,
    });
  });

  it('reaches a medicine the person must not be taking', () => {
    expect(readTextRule('inclusion', 'Should not be currently receiving any long-term systemic anticoagulant therapy').rule).toMatchObject({
      type: 'medication',
      taking: false,
    });
  });

  it('stops at another verb it helps, and at the end of its clause', () => {
    // "Must not have relapsed ... of receiving X": X was received; the negation is the relapse's.
    expect(readTextRule('inclusion', 'Must not have relapsed within 3 months of receiving previous rituximab').rule).not.toMatchObject({
      type: 'medication',
      taking: false,
    });
    expect(readTextRule('inclusion', 'Must not have smoked in the past year; confirmed type 2 diabetes').rule).not.toMatchObject({
      type: 'condition',
      present: false,
    });
  });
});
