import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 334: a substance named as a test, or as what a medicine lowers, is not a medicine taken. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const medicines = (note: string) =>
  extractNoteFacts(note)
    .filter((fact) => fact.kind === 'medication')
    .map((fact) => fact.name.toLowerCase());

describe('a substance named as a test in a criterion', () => {
  it('reads no medicine from a test named after a substance, in either list', () => {
    for (const text of [
      'Activated partial thromboplastin time above 1.5 times the upper limit of normal',
      'Spot urine calcium above the reference range',
      'Alanine aminotransferase more than three times the upper limit',
      'Diffusing capacity of the lungs for carbon monoxide below half of predicted',
      'Marked insulin resistance on a clamp study',
    ])
      for (const kind of ['inclusion', 'exclusion'] as const) expect(read(kind, text).rule?.type, `${kind}: ${text}`).not.toBe('medication');
  });

  it('reads no medicine from what a medicine is for', () => {
    // What it lowers is no medicine; the class named by it is (decision 371).
    expect(read('exclusion', 'Started a new glucose-lowering drug in the last 3 months').rule).not.toMatchObject({ medication: 'glucose' });
    expect(read('exclusion', 'Started a new glucose-lowering drug in the last 3 months').rule).toMatchObject({ medication: 'hypoglycemic agents' });
  });

  it('still reads a medicine named as an antibody against something, and a medicine plainly taken', () => {
    expect(read('exclusion', 'Previous treatment with an anti-CD20 antibody such as obinutuzumab').rule).toMatchObject({ type: 'medication', taking: false });
    expect(read('exclusion', 'Currently taking calcium supplements').rule).toMatchObject({ type: 'medication', taking: false });
  });
});

describe('a substance named as a test in a note', () => {
  it('is no medicine the person takes', () => {
    expect(medicines('Labs: urine calcium was high. Known insulin resistance.')).toEqual([]);
  });

  it('leaves a medicine the note says is taken', () => {
    expect(medicines('She takes insulin glargine nightly and calcium carbonate with meals.').length).toBeGreaterThan(0);
  });
});
