import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule, trialConceptsOf } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 318: an enzyme's inhibitors and inducers however written, "the disease" of a duration, counts per "mmc". Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: noteFacts(text, today),
});
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const names = (rule: CriterionRule | null) => (rule && 'concepts' in rule ? (rule.concepts ?? []).map((concept) => concept.mesh ?? concept.id) : []);

describe("an enzyme's inhibitors and inducers", () => {
  it('reads the enzyme written out, in brackets or after "of" as the MeSH class', () => {
    expect(names(read('exclusion', 'Receiving cytochrome P450 2C9 inhibitors at enrolment').rule)).toEqual(['D065688']);
    expect(names(read('exclusion', 'Ongoing use of inhibitors of cytochrome P-450 (CYP) 2C19').rule)).toEqual(['D065689']);
    expect(names(read('exclusion', 'Currently taking P450 1A2 inducers').rule)).toEqual(['D065694']);
  });

  it('reads both actions of one enzyme, whichever comes first', () => {
    const before = read('exclusion', 'Current therapy with inhibitors or inducers of CYP2C8').rule;
    expect(names(before)).toEqual(['D065687', 'D065696']);
    const after = read('exclusion', 'Current therapy with CYP2C8 inhibitors or inducers').rule;
    expect(names(after)).toEqual(['D065687', 'D065696']);
  });

  it('reads 3A4 and 3A5 as the 3A subfamily MeSH holds', () => {
    const rule = read('exclusion', 'Took CYP3A4/5 inducers in the last 2 weeks').rule;
    expect(rule).toMatchObject({ type: 'medication', taking: false, within: { value: 2, unit: 'weeks' } });
    expect(rule && 'medication' in rule ? rule.medication : '').toMatch(/CYP3A inducers/);
  });

  it('says what the class does in plain words', () => {
    const rule = read('exclusion', 'Receiving cytochrome P450 2C9 inhibitors at enrolment').rule;
    expect(rule && 'medication' in rule ? rule.medication : '').toBe('medicines that slow how the liver breaks down other drugs (CYP2C9 inhibitors)');
  });

  it('keeps a grade MeSH does not hold for a person to read', () => {
    const graded = read('exclusion', 'Potent cytochrome P450 2D6 inhibitors within 7 days');
    expect(graded.rule).toMatchObject({ type: 'medication', taking: false });
    expect(graded.needsReview).toBe(true);
  });

  it('excludes a person on a member of the class, and no one on the opposite class', () => {
    const rule = read('exclusion', 'Use of cytochrome P450 2D6 inhibitors').rule as CriterionRule;
    const criterion = ruleCriterion(rule, 'exclusion');
    expect(evaluateCriterion(criterion, person('Depression, on paroxetine 20 mg daily.'), today).outcome).toBe('not_met');
    const inducers = ruleCriterion(read('exclusion', 'Use of inducers of cytochrome P450 2C9').rule as CriterionRule, 'exclusion');
    expect(evaluateCriterion(inducers, person('Fungal infection treated with fluconazole.'), today).outcome).not.toBe('not_met');
  });

  it('reads no class from an enzyme named for another reason', () => {
    expect(read('exclusion', 'Known CYP2D6 poor metaboliser status').rule).toBeNull();
  });
});

describe('"the disease" of a duration is the trial\'s condition', () => {
  const inTrial = (text: string, conditions: string[], kind: 'inclusion' | 'exclusion' = 'inclusion') =>
    readTextRule(kind, text, { trialConcepts: trialConceptsOf(conditions) });

  it('reads "disease duration" and "duration of illness" against the one condition the trial studies', () => {
    expect(inTrial('Disease duration of 2 years or more', ['Psoriatic Arthritis'])).toMatchObject({
      rule: { type: 'condition', present: true, duration: { minDays: 731 } },
      needsReview: false,
    });
    expect(inTrial('Duration of illness: at most 5 years', ['Ulcerative Colitis']).rule).toMatchObject({ type: 'condition', duration: { maxDays: 1826 } });
  });

  it('leaves it to a person when the trial studies several conditions', () => {
    expect(inTrial('Disease duration of 2 years or more', ['Psoriatic Arthritis', 'Ankylosing Spondylitis']).needsReview).toBe(true);
  });

  it('reads nothing when the trial names no condition', () => {
    expect(inTrial('Disease duration of 2 years or more', []).rule).toBeNull();
  });
});

describe('a count per cubic millimetre written "mmc"', () => {
  it('is per microlitre, never thousands of millions per litre', () => {
    expect(read('inclusion', 'Platelet count ≥ 75,000/mmc').rule).toMatchObject({ measure: 'platelets', comparator: '>=', value: 75, unit: '10^9/L' });
    expect(read('exclusion', 'Absolute neutrophil count below 800 /mmc')).toMatchObject({
      rule: { measure: 'ANC', comparator: '>=', value: 0.8 },
      needsReview: false,
    });
  });
});
