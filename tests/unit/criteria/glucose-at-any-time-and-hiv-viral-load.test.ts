import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readFhirBundle } from '../../../src/server/features/matching/fhir';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { matchFact, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 367: a glucose measured at any time and HIV's viral load are measures of their own, read the same way in a
 * criterion, a note and a FHIR record; the sample word before them ("plasma") is no blood product. New wording, not a
 * record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('note');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1970-01-01', sex: 'female', facts });
const noteFacts = (note: string) =>
  extractNoteFacts(note).map((item) =>
    fact({ kind: item.kind, name: item.name, value: item.value ?? null, unit: item.unit ?? null, status: item.status ?? null }),
  );
const outcomeOf = (rule: CriterionRule, facts: MatchFact[]) => evaluateCriterion(ruleCriterion(rule), person(facts), today).outcome;

describe('a glucose measured at any time', () => {
  it('is read from plasma, serum, blood or a random sample, in either unit', () => {
    expect(readTextRule('inclusion', 'Plasma glucose of 140 mg/dL or more')).toMatchObject({
      rule: { type: 'lab', measure: 'blood glucose', comparator: '>=', value: 140, unit: 'mg/dL' },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Random serum glucose above 16.7 mmol/L')).toMatchObject({
      rule: { type: 'lab', measure: 'blood glucose', comparator: '<=', unit: 'mg/dL' },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Random serum glucose above 16.7 mmol/L').rule).toMatchObject({ value: expect.closeTo(300.6, 1) });
  });

  it('leaves the fasting glucose, a tolerance test and another fluid their own readings', () => {
    expect(readTextRule('inclusion', 'Fasting serum glucose below 126 mg/dL').rule).toMatchObject({ measure: 'fasting glucose' });
    expect(readTextRule('inclusion', 'Two-hour glucose of 200 mg/dL or more on a 75 g oral glucose tolerance test').rule).not.toMatchObject({
      measure: 'blood glucose',
    });
    expect(readTextRule('inclusion', '2-hour plasma glucose of 200 mg/dL or more').rule).toBeNull();
    expect(readTextRule('exclusion', 'Urine glucose above 100 mg/dL').rule).not.toMatchObject({ measure: 'blood glucose' });
    expect(readTextRule('exclusion', 'Glucose-6-phosphate dehydrogenase deficiency').rule).toMatchObject({ type: 'condition' });
  });

  it('is read from a note, and a plasma sample in a note is no blood product', () => {
    const facts = noteFacts('Seen in clinic. Random plasma glucose 212 mg/dL; HbA1c pending.');
    expect(facts.filter((item) => item.kind === 'lab').map(({ name, value, unit }) => ({ name, value, unit }))).toEqual([
      { name: 'blood glucose', value: 212, unit: 'mg/dL' },
    ]);
    expect(facts.some((item) => item.kind === 'medication')).toBe(false);
    // Plasma given to the person is still a blood product.
    expect(noteFacts('She was given fresh frozen plasma before the procedure.').some((item) => item.name === 'immunoglobulin or blood products')).toBe(true);
  });

  it('decides the criterion from the note, with the units converted', () => {
    const rule = readTextRule('exclusion', 'Blood glucose above 300 mg/dL at screening').rule!;
    expect(outcomeOf(rule, noteFacts('Labs today: serum glucose 18.5 mmol/L.'))).toBe('not_met');
    expect(outcomeOf(rule, noteFacts('Labs today: serum glucose 150 mg/dL.'))).toBe('met');
    expect(outcomeOf(rule, noteFacts('Labs today: fasting glucose 150 mg/dL.'))).toBe('unknown');
  });
});

describe("HIV's viral load", () => {
  it('is a measure in copies per millilitre, read only with HIV named and its unit written', () => {
    expect(readTextRule('inclusion', 'Plasma HIV-1 RNA below 50 copies/mL on two occasions')).toMatchObject({
      rule: { type: 'lab', measure: 'HIV viral load', comparator: '<', value: 50, unit: 'copies/mL' },
    });
    expect(readTextRule('inclusion', 'HIV viral load of at least 5,000 copies/mL at screening')).toMatchObject({
      rule: { type: 'lab', measure: 'HIV viral load', comparator: '>=', value: 5000, unit: 'copies/mL' },
      needsReview: false,
    });
    // Hepatitis B's viral load is another measure.
    expect(readTextRule('exclusion', 'HBV viral load above 2,000 copies/mL').rule).not.toMatchObject({ measure: 'HIV viral load' });
  });

  it('is read from a note beside the condition, and decides the criterion', () => {
    const facts = noteFacts('Known HIV on antiretrovirals; HIV viral load 23,000 copies/mL last week.');
    expect(facts.find((item) => item.kind === 'lab')).toMatchObject({ name: 'HIV viral load', value: 23000, unit: 'copies/mL' });
    expect(facts.some((item) => item.kind === 'condition' && item.name === 'HIV')).toBe(true);
    const rule = readTextRule('inclusion', 'HIV-1 RNA under 200 copies/mL').rule!;
    expect(outcomeOf(rule, facts)).toBe('not_met');
  });

  it('comes from a FHIR Observation by its LOINC code', () => {
    const observation = (code: string, value: number, unit: string) => ({
      resourceType: 'Observation',
      id: code,
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code }] },
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
      effectiveDateTime: '2026-05-01',
    });
    const { facts } = readFhirBundle({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', id: 'p', gender: 'male' } },
        { resource: observation('20447-9', 800, '{copies}/mL') },
        { resource: observation('2345-7', 7.5, 'mmol/L') },
      ],
    });
    expect(facts.filter((item) => item.kind === 'lab').map(({ name, value, unit }) => ({ name, value, unit }))).toEqual([
      { name: 'HIV viral load', value: 800, unit: 'copies/mL' },
      { name: 'blood glucose', value: 135, unit: 'mg/dL' },
    ]);
  });
});

describe("a laboratory's reference limit", () => {
  it('is its normal limit, and a hyphenated multiple of it is still a multiple', () => {
    expect(readTextRule('exclusion', 'Serum glucose (random) greater than 1.5-times the upper reference limit').rule).toMatchObject({
      type: 'lab',
      measure: 'blood glucose',
      value: 1.5,
      relativeTo: 'ULN',
    });
    expect(readTextRule('exclusion', 'ALT above 2 times the upper limit of the reference range').rule).toMatchObject({
      type: 'lab',
      measure: 'ALT',
      value: 2,
      relativeTo: 'ULN',
    });
    // Never a value in the measure's own unit.
    expect(readTextRule('exclusion', 'Serum glucose (random) greater than 1.5-times the upper reference limit').rule).not.toHaveProperty('unit');
  });
});
