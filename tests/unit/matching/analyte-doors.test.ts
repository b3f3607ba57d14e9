import { describe, expect, it } from 'vitest';
import { CandidateFactInputSchema, type CandidateFactInput } from '../../../src/contract/matching';
import { clinicalColumns, measureOfHeader, readClinicalRow } from '../../../src/server/features/candidates/import-facts';
import { normalizeDate } from '../../../src/server/features/candidates/import';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readFhirBundle } from '../../../src/server/features/matching/fhir';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 308: a FHIR Observation or an import column of an analyte the measures table does not hold gives a lab fact
// under the name the criteria reader gives the analyte (decision 304). Bundles and rows written for this file.
const today = new Date('2026-06-15T12:00:00Z');
const PATIENT = { resourceType: 'Patient', id: 'p', name: [{ family: 'Roe', given: ['Sam'] }], gender: 'male' };
const observation = (display: string, quantity: object, code = '00000-0') => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code, display }] },
  effectiveDateTime: '2026-05-02T09:00:00Z',
  valueQuantity: quantity,
});
const labsOfBundle = (...observations: object[]) =>
  readFhirBundle({ resourceType: 'Bundle', type: 'collection', entry: [PATIENT, ...observations].map((resource) => ({ resource })) }).facts.filter(
    (fact) => fact.kind === 'lab',
  );
const short = (facts: CandidateFactInput[]) => facts.map(({ name, value, unit }) => ({ name, value, unit }));

const readRow = (values: Record<string, string>) =>
  readClinicalRow(values, clinicalColumns(Object.fromEntries(Object.keys(values).map((column) => [column, 'lab' as const]))), {
    runId: 'run-9',
    label: 'Clinic export',
    defaultCountry: 'US',
    normalizeDate,
  });

const fact = matchFact('fhir');
const outcomeOf = (criterion: string, facts: CandidateFactInput[]) => {
  const rule = readTextRule('inclusion', criterion).rule!;
  const person: MatchPerson = { dateOfBirth: '1958-03-01', sex: 'male', facts: facts.map((item) => fact({ ...item })) };
  return evaluateCriterion(ruleCriterion(rule), person, today).outcome;
};

describe('a FHIR Observation of an analyte the measures table does not hold', () => {
  const psa = (value: number) => observation('Prostate specific Ag [Mass/volume] in Serum or Plasma', { value, unit: 'ng/mL', code: 'ng/mL' }, '2857-1');

  it("is a lab fact in its UCUM unit, under the criteria reader's name, that the contract accepts", () => {
    const facts = labsOfBundle(
      psa(6.2),
      observation('Ferritin [Mass/volume] in Serum or Plasma', { value: 14, unit: 'ug/L', code: 'ug/L' }),
      observation('Thyrotropin [Units/volume] in Serum or Plasma', { value: 7.5, unit: 'micro international unit per milliliter', code: 'u[IU]/mL' }),
      observation('Sodium [Moles/volume] in Serum or Plasma', { value: 129, unit: 'mmol/L', code: 'mmol/L' }),
    );
    expect(short(facts)).toEqual([
      { name: 'prostate-specific antigen', value: 6.2, unit: 'ng/mL' },
      { name: 'ferritins', value: 14, unit: 'µg/L' },
      { name: 'thyrotropin', value: 7.5, unit: 'µIU/mL' },
      { name: 'sodium', value: 129, unit: 'mmol/L' },
    ]);
    expect(facts[0]).toMatchObject({ source: 'fhir', observedOn: '2026-05-02', code: 'http://loinc.org|2857-1' });
    expect(facts[0].sourceText).toBe('Prostate specific Ag [Mass/volume] in Serum or Plasma: 6.2 ng/mL');
    for (const item of facts) expect(CandidateFactInputSchema.safeParse(item).success).toBe(true);
  });

  it('meets or fails "PSA > 4 ng/mL" through the matcher', () => {
    expect(outcomeOf('PSA > 4 ng/mL', labsOfBundle(psa(6.2)))).toBe('met');
    expect(outcomeOf('PSA > 4 ng/mL', labsOfBundle(psa(1.9)))).toBe('not_met');
    // µg/L is ng/mL: a ferritin in either unit decides the rule.
    const ferritin = labsOfBundle(observation('Ferritin [Mass/volume] in Serum or Plasma', { value: 14, code: 'ug/L' }));
    expect(outcomeOf('Ferritin below 30 ng/mL', ferritin)).toBe('met');
  });

  it("reads a LOINC component with its bracketed synonym, or a record's plain name", () => {
    const facts = labsOfBundle(observation('Estradiol (E2) [Mass/volume] in Serum or Plasma', { value: 38, code: 'pg/mL' }), {
      ...observation('', { value: 41, code: 'ng/mL' }),
      code: { text: 'Serum PSA' },
    });
    expect(short(facts)).toEqual([
      { name: 'estradiol', value: 38, unit: 'pg/mL' },
      { name: 'prostate-specific antigen', value: 41, unit: 'ng/mL' },
    ]);
    expect(labsOfBundle(observation('Calcium (ionized) [Moles/volume] in Blood', { value: 1.2, code: 'mmol/L' }))).toEqual([]);
  });

  it('keeps only the latest value of the analyte', () => {
    const older = { ...psa(9.8), effectiveDateTime: '2025-01-10' };
    expect(short(labsOfBundle(older, psa(3.1)))).toEqual([{ name: 'prostate-specific antigen', value: 3.1, unit: 'ng/mL' }]);
  });

  it('gives nothing for another sample, a fraction, a ratio, a bound, or a value in no laboratory unit', () => {
    expect(
      labsOfBundle(
        observation('Sodium [Moles/volume] in Urine', { value: 40, code: 'mmol/L' }),
        observation('Sodium [Moles/volume] in 24 hour Urine', { value: 150, code: 'mmol/(24.h)' }),
        observation('Thyroxine (T4) free [Mass/volume] in Serum or Plasma', { value: 1.1, code: 'ng/dL' }),
        observation('Calcium.ionized [Moles/volume] in Blood', { value: 1.2, code: 'mmol/L' }),
        observation('Cholesterol in HDL [Mass/volume] in Serum or Plasma', { value: 41, code: 'mg/dL' }),
        observation('Ferritin [Mass/volume] in Serum or Plasma', { value: 5, comparator: '<', code: 'ug/L' }),
        observation('Prostate specific Ag [Mass/volume] in Serum or Plasma', { value: 6.2 }),
        observation('Testosterone [Mass] in Gel', { value: 50, code: 'mg' }),
      ),
    ).toEqual([]);
  });
});

describe('an import column of an analyte the measures table does not hold', () => {
  it('names the analyte from the header as a whole, and no other header', () => {
    expect(measureOfHeader('Ferritin (ng/mL)')).toMatchObject({ measure: { name: 'ferritins' }, unit: 'ng/mL' });
    expect(measureOfHeader('Serum PSA')).toMatchObject({ measure: { name: 'prostate-specific antigen' } });
    expect(measureOfHeader('TSH level [mIU/L]')).toMatchObject({ measure: { name: 'thyrotropin' }, unit: 'mIU/L' });
    // The table's own measures keep their names.
    expect(measureOfHeader('Potassium')).toMatchObject({ measure: { name: 'potassium' } });
    for (const header of ['Urine sodium', 'Free testosterone', 'PSA velocity', 'Calcium (mg)', 'PSA date', 'Ferritin and iron'])
      expect(measureOfHeader(header), header).toBeNull();
  });

  it('reads each value in its laboratory unit, and lists a value without one', () => {
    const { facts, unrecognised } = readRow({ 'Ferritin (ng/mL)': '22', PSA: '5.4 ng/mL', Na: '127', TSH: '3.1' });
    expect(short(facts)).toEqual([
      { name: 'ferritins', value: 22, unit: 'ng/mL' },
      { name: 'prostate-specific antigen', value: 5.4, unit: 'ng/mL' },
      // Sodium's bare value is in mmol/L in every laboratory, as a note's is read.
      { name: 'sodium', value: 127, unit: 'mmol/L' },
    ]);
    expect(unrecognised).toEqual([{ column: 'TSH', value: '3.1', problem: 'A thyrotropin value needs a laboratory unit (e.g. ng/mL)', kept: false }]);
  });

  it('decides "PSA > 4 ng/mL" through the matcher', () => {
    const psa = (value: string) => readRow({ 'PSA (ng/mL)': value }).facts;
    expect(outcomeOf('PSA > 4 ng/mL', psa('6.0'))).toBe('met');
    expect(outcomeOf('PSA > 4 ng/mL', psa('2,5'))).toBe('not_met');
  });
});
