import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';

import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 346: a kind MeSH names under a hand entry's class is read as its own heading, in criteria and notes, with its
 * short form; a pair of opposite courses before a head is the whole head. Every phrasing is new wording.
 */
const today = new Date('2026-06-15T12:00:00Z');
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const judge = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(read(kind, criterion).rule as CriterionRule, kind),
    { dateOfBirth: '1961-03-02', sex: 'female', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('a kind MeSH names under a class', () => {
  it('is the rule, needing no review, never the whole class', () => {
    for (const [text, condition] of [
      ['Antisocial personality disorder by clinical interview', 'antisocial personality disorder'],
      ['Common variable immunodeficiency on immunoglobulin', 'common variable immunodeficiency'],
      ['Receiving peritoneal dialysis', 'peritoneal dialysis'],
      ['Prior Roux-en-Y gastric bypass', 'gastric bypass'],
      ["Probable Alzheimer's disease", 'Alzheimer disease'],
    ] as const) {
      const reading = read('exclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'condition', condition, present: false });
    }
    expect(read('exclusion', 'Known panic disorder').needsReview).toBe(false);
    for (const text of ['Acquired immune deficiency syndrome', 'Known AIDS', 'Acquired immunodeficiency syndrome'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { condition: 'acquired immunodeficiency syndrome' }, needsReview: false });
  });

  it('refuses only the kind it names, and its class still takes the kind', () => {
    // A person with another overactive thyroid (a toxic nodule) is not refused by "Graves disease".
    expect(judge('exclusion', 'Graves disease', 'Toxic nodular goitre with hyperthyroidism, on carbimazole.')).toBe('unknown');
    expect(judge('exclusion', 'Graves disease', "Graves' disease with eye involvement, on methimazole.")).toBe('not_met');
    // A rule of the class meets a note that names the kind.
    expect(judge('exclusion', 'History of hyperthyroidism', "Graves' disease with eye involvement, on methimazole.")).toBe('not_met');
    expect(judge('inclusion', 'Diagnosis of dementia', "Alzheimer's disease diagnosed 2023, MMSE 21.")).toBe('met');
  });

  it('reads its short form as its own heading too', () => {
    expect(read('exclusion', 'Aneurysmal SAH within 90 days').rule).toMatchObject({ condition: 'subarachnoid hemorrhage' });
    expect(read('exclusion', 'Chronic SDH').rule).toMatchObject({ concepts: [expect.objectContaining({ name: 'subdural hematoma' })] });
    expect(read('exclusion', 'Known HAE').rule).toMatchObject({ concepts: [expect.objectContaining({ mesh: 'D054179' })] });
    // A person who had a subdural bleed after a fall is not refused by a rule of subarachnoid haemorrhage.
    expect(judge('exclusion', 'Aneurysmal SAH within 90 days', 'Subdural hematoma after a fall in 2019, evacuated.')).toBe('unknown');
  });
});

describe('two opposite courses before a head the vocabulary reads with the second', () => {
  it('name the whole head', () => {
    for (const text of ['Primary or secondary hyperparathyroidism', 'Active or latent TB infection, or acute or chronic hepatitis B']) {
      const reading = read('exclusion', text);
      expect(JSON.stringify(reading.rule), text).not.toMatch(/latent tuberculosis|secondary hyperparathyroidism|chronic hepatitis/);
    }
    expect(read('exclusion', 'Latent or active tuberculosis').rule).toMatchObject({ condition: 'tuberculosis (TB)' });
  });
});
