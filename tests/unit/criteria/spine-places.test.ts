import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 193: a general concept placed on a part of the spine is its spine form, with that part. New wording. */
const read = (text: string) => readTextRule('exclusion', text, {});
const conditionOf = (text: string) => {
  const rule = read(text).rule;
  return rule?.type === 'condition' ? rule : null;
};

describe('an earlier operation on a part of the spine', () => {
  it('is a spine operation with its part, needing no review', () => {
    for (const [text, part] of [
      ['Prior operations of the lumbar spine', 'lumbar'],
      ['Any previous surgery in the thoracic region', 'thoracic'],
      ['Surgical history at the cervical levels', 'cervical'],
      ['History of surgery on the lumbosacral segments within 2 years', 'lumbar'],
    ] as const) {
      const rule = conditionOf(text);
      expect(rule?.condition, text).toBe('back or spine surgery');
      expect(rule?.qualifiers, text).toEqual([part]);
      expect(read(text).needsReview, text).toBe(false);
    }
  });

  it('is a spine operation when the spine itself is named', () => {
    expect(conditionOf('A previous operation on the vertebral column')?.condition).toBe('back or spine surgery');
    expect(read('A previous operation on the vertebral column').needsReview).toBe(false);
  });

  it('leaves the cervix, the study level and other places alone', () => {
    // "Cervical region" alone may be the cervix; "the index level" is the study's own; the knee is not the spine.
    for (const text of ['Previous surgery in the cervical region', 'Prior surgery on the lumbar spine at the index level', 'Previous surgery on the knee'])
      expect(read(text).needsReview, text).toBe(true);
    expect(conditionOf('Previous surgery in the cervical region')?.condition).toBe('an operation (surgery)');
  });
});

describe('a list of general concepts placed on the spine', () => {
  it("reads every item in its spine form, and the part as the whole list's", () => {
    for (const text of ['Infection, tumour or fracture in the thoracic spine', 'A fracture or a tumour at the lumbar levels']) {
      const rule = conditionOf(text);
      expect(rule?.condition, text).not.toMatch(/a tumor or growth|a broken bone \(fracture\)|needs treatment/);
      expect(rule?.qualifiers?.length, text).toBe(1);
      expect(read(text).needsReview, text).toBe(false);
    }
  });

  it('keeps the place to the last item when another item has no spine form', () => {
    const rule = conditionOf('Heart failure or a fracture in the lumbar region');
    expect(rule?.condition).toContain('heart failure');
    expect(read('Heart failure or a fracture in the lumbar region').needsReview).toBe(true);
  });

  it('never holds a qualifier before the list with the place after it', () => {
    expect(read('Severe infection, tumour or fracture of the lumbar spine').needsReview).toBe(true);
  });
});
