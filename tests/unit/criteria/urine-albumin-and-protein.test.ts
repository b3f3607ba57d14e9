import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { clinicalColumns, readClinicalRow } from '../../../src/server/features/candidates/import-facts';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 323: urine albumin and protein over creatinine, and protein in a day's urine. Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const person = (note: string): MatchPerson => ({
  dateOfBirth: '1966-01-20',
  sex: 'male',
  facts: noteFacts(note, today),
});
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const labs = (note: string) =>
  extractNoteFacts(note, { today })
    .filter((fact) => fact.kind === 'lab')
    .map((fact) => [fact.name, fact.value, fact.unit]);

describe('urine albumin and protein in criteria', () => {
  it('reads each ratio and the day’s protein in its own unit, converting the others', () => {
    expect(read('inclusion', 'Urinary albumin/creatinine ratio of at least 200 mg/g creatinine')).toMatchObject({
      rule: { type: 'lab', measure: 'UACR', comparator: '>=', value: 200, unit: 'mg/g' },
      needsReview: false,
    });
    expect(read('inclusion', 'UACR ≥ 22.6 mg/mmol').rule).toMatchObject({ measure: 'UACR', value: 199.784, unit: 'mg/g' });
    expect(read('exclusion', 'UPCR above 2 g/g').rule).toMatchObject({ measure: 'UPCR', comparator: '<=', value: 2, unit: 'g/g' });
    expect(read('inclusion', 'Proteinuria of 0.75 g/24 hours or more').rule).toMatchObject({ measure: 'urine protein', value: 0.75, unit: 'g/day' });
  });

  it('leaves a bound without its unit to a person', () => {
    expect(read('inclusion', 'UACR over 150')).toMatchObject({ needsReview: true, reasons: expect.arrayContaining(['noUnit']) });
    expect(read('inclusion', 'Proteinuria of 3+ or more by dipstick').needsReview).toBe(true);
  });
});

describe('urine albumin and protein in a note and an import', () => {
  it('are read with their unit and left unread without one', () => {
    expect(labs('Diabetic kidney disease: UACR 610 mg/g, eGFR 48.')).toContainEqual(['UACR', 610, 'mg/g']);
    expect(labs('Spot urine protein-to-creatinine ratio 2.3 g/g.')).toContainEqual(['UPCR', 2.3, 'g/g']);
    expect(labs('24 h urine protein 5.1 g/day, albumin 2.4 g/dL.')).toContainEqual(['urine protein', 5.1, 'g/day']);
    // A mass alone is the day's collection.
    expect(labs('Twenty-four hour collection: 24-hour urine protein 4.4 g.')).toContainEqual(['urine protein', 4.4, 'g/day']);
    expect(labs('UACR 45 at the last visit.').some(([name]) => name === 'UACR')).toBe(false);
    // Measures without a unit of their own are still read without one.
    expect(labs('INR 2.4 on warfarin; FEV1 1.9 L.')).toEqual(
      expect.arrayContaining([
        ['INR', 2.4, null],
        ['FEV1', 1.9, null],
      ]),
    );
  });

  it('decide a ratio criterion', () => {
    const criterion = ruleCriterion(read('inclusion', 'UACR ≥ 300 mg/g').rule as CriterionRule, 'inclusion');
    expect(evaluateCriterion(criterion, person('CKD 3b. UACR 610 mg/g.'), today).outcome).toBe('met');
    expect(evaluateCriterion(criterion, person('CKD 3b. UACR 12 mg/mmol.'), today).outcome).toBe('not_met');
  });

  it('refuse an imported value without its unit, saying so', () => {
    const reading = readClinicalRow({ UACR: '45' }, clinicalColumns({ UACR: 'lab' }), {
      runId: 'run-1',
      label: 'Registry',
      defaultCountry: 'US',
      normalizeDate: (value) => value,
    });
    expect(reading.facts.some((fact) => fact.name === 'UACR')).toBe(false);
    expect(reading.unrecognised).toContainEqual(expect.objectContaining({ column: 'UACR', problem: expect.stringMatching(/needs its unit/), kept: false }));
  });
});
