import { describe, expect, it } from 'vitest';
import { clinicalColumns, measureOfHeader, readClinicalRow } from '../../src/server/features/candidates/import-facts';
import { normalizeDate } from '../../src/server/features/candidates/import';

/** Import columns read into clinical facts (decision 079): headers, names, codes, values and units. */

describe('a header naming a lab measure as a whole', () => {
  it.each([
    ['HbA1c', 'HbA1c', undefined],
    ['HbA1c (%)', 'HbA1c', '%'],
    ['eGFR [mL/min/1.73m2]', 'eGFR', 'mL/min/1.73m2'],
    ['BMI', 'BMI', undefined],
    ['Systolic blood pressure', 'systolic blood pressure', undefined],
  ])('%s -> %s', (header, measure, unit) => {
    expect(measureOfHeader(header)).toMatchObject({ measure: { name: measure }, unit });
  });

  it.each(['Alt phone', 'Notes', 'HbA1c date', 'Source', ''])('%s names no measure', (header) => {
    expect(measureOfHeader(header)).toBeNull();
  });
});

const read = (values: Record<string, string>, mapping: Record<string, 'conditions' | 'medications' | 'lab' | 'clinicalDate'>) =>
  readClinicalRow(values, clinicalColumns(mapping), { runId: 'run-1', label: 'Registry', defaultCountry: 'US', normalizeDate });

describe('one row', () => {
  it('reads names and ICD-10 codes into concepts, "history of" as a past condition, and keeps unknown names by name', () => {
    const { facts, unrecognised } = read({ Dx: 'Type 2 diabetes; history of asthma; E11.65; Zorblax syndrome' }, { Dx: 'conditions' });
    expect(facts.map((fact) => [fact.name, fact.status, Boolean(fact.conceptId)])).toEqual([
      ['type 2 diabetes', 'present', true],
      ['asthma', 'history', true],
      ['type 2 diabetes', 'present', true],
      ['Zorblax syndrome', 'present', false],
    ]);
    expect(facts[2].code).toBe('http://hl7.org/fhir/sid/icd-10|E11.65');
    expect(facts.every((fact) => fact.source === 'import' && fact.sourceRef === 'run-1' && fact.observedOn === null)).toBe(true);
    expect(unrecognised).toEqual([{ column: 'Dx', value: 'Zorblax syndrome', problem: 'Not in the vocabulary', kept: true }]);
  });

  it('converts lab values to the criteria unit, dates them by the date column, and lists what it cannot read', () => {
    const mapping = { 'HbA1c (mmol/mol)': 'lab', Creatinine: 'lab', 'Lab date': 'clinicalDate', BMI: 'lab' } as const;
    const good = read({ 'HbA1c (mmol/mol)': '53', Creatinine: '88 µmol/L', 'Lab date': '3/4/2026', BMI: '31,5' }, mapping);
    expect(good.facts.map((fact) => [fact.name, fact.value, fact.unit, fact.observedOn])).toEqual([
      ['HbA1c', 7, '%', '2026-03-04'],
      ['creatinine', 0.995, 'mg/dL', '2026-03-04'],
      ['BMI', 31.5, 'kg/m2', '2026-03-04'],
    ]);
    const bad = read({ 'HbA1c (mmol/mol)': '<5', Creatinine: 'pending', 'Lab date': 'last week', BMI: '30 stone' }, mapping);
    expect(bad.facts.map((fact) => fact.name)).toEqual(['BMI']);
    expect(bad.unrecognised.map((item) => [item.column, item.kept])).toEqual([
      ['Lab date', false],
      ['HbA1c (mmol/mol)', false],
      ['Creatinine', false],
      ['BMI', true],
    ]);
  });

  it('refuses a column mapped to a lab whose header names none', () => {
    expect(() => clinicalColumns({ Favourite: 'lab' })).toThrow(/"Favourite"/);
  });
});

describe('a lab value no person could have in the measure’s unit (decision 315)', () => {
  it('is refused with a message saying what to write, and a value with its unit is kept', () => {
    const refused = read({ Haemoglobin: '104' }, { Haemoglobin: 'lab' });
    expect(refused.facts).toHaveLength(0);
    expect(refused.unrecognised[0]).toMatchObject({ column: 'Haemoglobin', kept: false, problem: expect.stringMatching(/unit/) });
    expect(read({ Haemoglobin: '104 g/L' }, { Haemoglobin: 'lab' }).facts[0]).toMatchObject({ name: 'hemoglobin', value: 10.4, unit: 'g/dL' });
  });
});
