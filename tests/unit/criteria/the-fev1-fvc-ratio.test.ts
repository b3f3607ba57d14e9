import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readFhirBundle } from '../../../src/server/features/matching/fhir';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 372: the FEV1/FVC ratio is a measure of its own, neither FEV1 nor FVC; a value in percent of predicted
 * belongs to the spirometry measure it is written after; "post-bronchodilator" is when the test is done, no medicine
 * taken. New wording, not a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const labs = (note: string) =>
  extractNoteFacts(note)
    .filter((item) => item.kind === 'lab')
    .map(({ name, value, unit }) => ({ name, value, unit }));

describe('the FEV1/FVC ratio', () => {
  it('is read from a criterion as a ratio in percent, written as a fraction or a percentage', () => {
    expect(readTextRule('inclusion', 'FEV1/FVC ratio below 0.7 at screening')).toMatchObject({
      rule: { type: 'lab', measure: 'FEV1/FVC ratio', comparator: '<', value: 70, unit: '%' },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'FEV1:FVC of less than 65%').rule).toMatchObject({ measure: 'FEV1/FVC ratio', value: 65 });
  });

  it('is read from a note without giving FEV1 or FVC a value that is not theirs', () => {
    expect(labs('PFTs: FEV1/FVC 0.64; FEV1 48% predicted.')).toEqual([
      { name: 'FEV1/FVC ratio', value: 64, unit: '%' },
      { name: 'FEV1', value: 48, unit: '%' },
    ]);
    expect(labs('FVC 2.9 L, FEV1 61% predicted.').find((item) => item.name === 'FVC')).not.toMatchObject({ value: 61 });
  });

  it('decides a criterion from a note and a FHIR Observation', () => {
    const rule = readTextRule('inclusion', 'FEV1/FVC ratio below 0.7 at screening').rule!;
    const person = (facts: MatchPerson['facts']): MatchPerson => ({ dateOfBirth: '1955-01-01', sex: 'male', facts });
    expect(evaluateCriterion(ruleCriterion(rule), person(noteFacts('Spirometry: FEV1/FVC 0.58.', today)), today).outcome).toBe('met');
    expect(evaluateCriterion(ruleCriterion(rule), person(noteFacts('Spirometry: FEV1/FVC 0.81.', today)), today).outcome).toBe('not_met');
    const { facts } = readFhirBundle({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', id: 'p', gender: 'male' } },
        {
          resource: {
            resourceType: 'Observation',
            id: 'ratio',
            status: 'final',
            code: { coding: [{ system: 'http://loinc.org', code: '19926-5' }] },
            valueQuantity: { value: 62, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
          },
        },
      ],
    });
    expect(facts.filter((item) => item.kind === 'lab').map(({ name, value }) => ({ name, value }))).toEqual([{ name: 'FEV1/FVC ratio', value: 62 }]);
  });

  it('leaves "post-bronchodilator" a time of the test, not a medicine taken', () => {
    expect(extractNoteFacts('Post-bronchodilator FEV1/FVC 0.66.').some((item) => item.kind === 'medication')).toBe(false);
    expect(extractNoteFacts('Uses a bronchodilator inhaler twice daily.').some((item) => item.kind === 'medication')).toBe(true);
  });
});
