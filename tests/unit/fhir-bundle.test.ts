import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandidateFactInputSchema, type CandidateFactInput } from '../../src/contract/matching';
import { FhirBundleError, readFhirBundle } from '../../src/server/features/matching/fhir';
import { vocabulary } from '../../src/server/features/trials/vocabulary';

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/fhir', name), 'utf8'));
const SHARED = path.resolve(process.cwd(), '../shared/data/fhir');

const conceptOf = (words: string) => vocabulary().find(words, { reach: 'full' })[0].concept.id;

/** The fields every FHIR fact has the same way. */
const fhirFact = (fields: Partial<CandidateFactInput> & Pick<CandidateFactInput, 'kind' | 'name'>): CandidateFactInput => ({
  conceptId: null,
  status: null,
  value: null,
  unit: null,
  valueText: null,
  observedOn: null,
  source: 'fhir',
  sourceRef: null,
  sourceText: null,
  span: null,
  criterionId: null,
  code: null,
  ...fields,
});

const bundleOf = (...resources: object[]) => ({ resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) });
const PATIENT = { resourceType: 'Patient', id: 'p', name: [{ family: 'Doe1', given: ['Jo2'] }], gender: 'male' };
const loinc = (code: string, display: string) => ({ coding: [{ system: 'http://loinc.org', code, display }] });

describe('reading a FHIR bundle: the project fixture', () => {
  const reading = readFhirBundle(fixture('small-bundle.json'));

  it('reads the patient: official name without digits, the mobile phone, the home address, Spanish', () => {
    expect(reading.patient).toEqual({
      firstName: 'Ana',
      lastName: 'Ruiz',
      dateOfBirth: '1980-02-14',
      sex: 'female',
      phone: '(555) 010-0199',
      email: 'ana.ruiz@example.org',
      addressLine: '12 Elm St, Apt 3',
      city: 'Springfield',
      region: 'IL',
      postalCode: '62701',
      country: 'US',
      preferredLanguage: 'es',
      fhirId: 'pat-1',
    });
  });

  it('reads conditions, medications, the latest labs and vitals and smoking; skips the refuted condition and unknown resources', () => {
    expect(reading.facts).toEqual([
      fhirFact({
        kind: 'condition',
        conceptId: conceptOf('type 2 diabetes'),
        name: 'type 2 diabetes',
        status: 'present',
        observedOn: '2015-06-01',
        sourceRef: 'cond-diabetes',
        sourceText: 'Diabetes mellitus type 2 (disorder)',
        code: 'http://snomed.info/sct|44054006',
      }),
      // MeSH has bronchitis (no heading for its acute form); no onset, so the recorded date.
      fhirFact({
        kind: 'condition',
        conceptId: conceptOf('bronchitis'),
        name: 'bronchitis',
        status: 'history',
        observedOn: '2019-01-10',
        sourceRef: 'cond-bronchitis',
        sourceText: 'Acute bronchitis (disorder)',
        code: 'http://snomed.info/sct|10509002',
      }),
      fhirFact({
        kind: 'medication',
        conceptId: 'cohortly:metformin',
        name: 'metformin',
        status: 'present',
        observedOn: '2021-03-02',
        sourceRef: 'medreq-metformin',
        sourceText: '24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet',
        code: 'http://www.nlm.nih.gov/research/umls/rxnorm|860975',
      }),
      // The medication is a referenced Medication resource, read as MeSH's lisinopril (an ACE inhibitor by its action).
      fhirFact({
        kind: 'medication',
        name: 'lisinopril',
        conceptId: 'mesh:D017706',
        status: 'history',
        observedOn: '2018-05-01',
        sourceRef: 'medreq-lisinopril',
        sourceText: 'lisinopril 10 MG Oral Tablet',
        code: 'http://www.nlm.nih.gov/research/umls/rxnorm|314076',
      }),
      // The blood-pressure panel's components, in their own order.
      fhirFact({
        kind: 'lab',
        name: 'diastolic blood pressure',
        value: 84,
        unit: 'mmHg',
        observedOn: '2022-04-05',
        sourceRef: 'obs-bp',
        sourceText: 'Diastolic Blood Pressure: 84 mmHg',
        code: 'http://loinc.org|8462-4',
      }),
      fhirFact({
        kind: 'lab',
        name: 'systolic blood pressure',
        value: 132,
        unit: 'mmHg',
        observedOn: '2022-04-05',
        sourceRef: 'obs-bp',
        sourceText: 'Systolic Blood Pressure: 132 mmHg',
        code: 'http://loinc.org|8480-6',
      }),
      // The 2022 BMI, not the 2020 one.
      fhirFact({
        kind: 'lab',
        name: 'BMI',
        value: 30.4,
        unit: 'kg/m2',
        observedOn: '2022-04-05',
        sourceRef: 'obs-bmi',
        sourceText: 'Body mass index (BMI) [Ratio]: 30.4 kg/m2',
        code: 'http://loinc.org|39156-5',
      }),
      // Pounds into kilograms, by the criteria parser's own conversion.
      fhirFact({
        kind: 'lab',
        name: 'weight',
        value: 79.834,
        unit: 'kg',
        observedOn: '2022-04-05',
        sourceRef: 'obs-weight',
        sourceText: 'Body weight: 176 lb',
        code: 'http://loinc.org|29463-7',
      }),
      // An unknown LOINC code whose display names HbA1c; mmol/mol into %.
      fhirFact({
        kind: 'lab',
        name: 'HbA1c',
        value: 7.5,
        unit: '%',
        observedOn: '2022-04-05',
        sourceRef: 'obs-a1c',
        sourceText: 'Hemoglobin A1c in Blood (IFCC): 58 mmol/mol',
        code: 'http://loinc.org|99999-9',
      }),
      fhirFact({
        kind: 'smoking',
        name: 'smoking',
        status: 'history',
        valueText: 'Ex-smoker (finding)',
        observedOn: '2022-04-05',
        sourceRef: 'obs-smoking',
        sourceText: 'Tobacco smoking status: Ex-smoker (finding)',
        code: 'http://loinc.org|72166-2',
      }),
    ]);
  });

  it('names what it skipped, by resource type and id only', () => {
    expect(reading.warnings).toEqual([
      'Entry 6 was skipped: it has no resource, or the resource does not say its type.',
      'Condition cond-malformed was skipped: code could not be read.',
    ]);
  });

  it('gives facts the contract accepts', () => {
    for (const fact of reading.facts) expect(CandidateFactInputSchema.safeParse(fact).success, fact.name).toBe(true);
  });
});

describe('reading a FHIR bundle: statuses and observations', () => {
  const read = (...resources: object[]) => readFhirBundle(bundleOf(PATIENT, ...resources));

  it('maps MedicationStatement statuses and reads a contained Medication', () => {
    const medication = { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1', display: 'metformin 500 MG Oral Tablet' }] };
    const statement = (id: string, status: string) => ({
      resourceType: 'MedicationStatement',
      id,
      status,
      medicationCodeableConcept: medication,
      effectiveDateTime: '2023-01-02',
    });
    const { facts, warnings } = read(
      statement('a', 'active'),
      statement('b', 'completed'),
      statement('c', 'not-taken'),
      statement('d', 'entered-in-error'),
      statement('e', 'intended'),
      {
        resourceType: 'MedicationStatement',
        id: 'f',
        status: 'stopped',
        contained: [{ resourceType: 'Medication', id: 'm1', code: medication }],
        medicationReference: { reference: '#m1' },
      },
      { resourceType: 'MedicationRequest', id: 'g', status: 'on-hold', medicationCodeableConcept: medication },
      { resourceType: 'MedicationRequest', id: 'h', status: 'cancelled', medicationCodeableConcept: medication },
      { resourceType: 'MedicationRequest', id: 'i', status: 'entered-in-error', medicationCodeableConcept: medication },
      { resourceType: 'MedicationRequest', id: 'j', status: 'active', medicationReference: { reference: 'Medication/missing' } },
    );
    expect(facts.map((fact) => [fact.sourceRef, fact.name, fact.status, fact.observedOn])).toEqual([
      ['a', 'metformin', 'present', '2023-01-02'],
      ['b', 'metformin', 'history', '2023-01-02'],
      ['c', 'metformin', 'absent', '2023-01-02'],
      ['f', 'metformin', 'history', null],
      ['g', 'metformin', 'present', null],
      ['h', 'metformin', 'history', null],
    ]);
    expect(warnings).toEqual(['MedicationRequest j was skipped: it names no medication that can be read.']);
  });

  it('maps condition statuses: recurrence and remission; no clinical status reads abatement; unconfirmed and suspected give no fact', () => {
    const code = (display: string) => ({ coding: [{ system: 'http://snomed.info/sct', code: '1', display }] });
    const status = (value: string) => ({ coding: [{ code: value }] });
    const { facts } = read(
      { resourceType: 'Condition', id: 'a', code: code('Asthma'), clinicalStatus: status('recurrence') },
      { resourceType: 'Condition', id: 'b', code: code('Asthma'), clinicalStatus: status('remission') },
      { resourceType: 'Condition', id: 'c', code: code('Asthma') },
      { resourceType: 'Condition', id: 'd', code: code('Asthma'), abatementString: 'as a child' },
      { resourceType: 'Condition', id: 'e', code: code('Asthma'), clinicalStatus: status('active'), verificationStatus: status('unconfirmed') },
      { resourceType: 'Condition', id: 'f', code: code('Asthma'), clinicalStatus: status('active'), verificationStatus: status('provisional') },
      { resourceType: 'Condition', id: 'g', code: code('Suspected COVID-19'), clinicalStatus: status('active') },
      { resourceType: 'Condition', id: 'h', code: code('Asthma'), clinicalStatus: status('active'), verificationStatus: status('entered-in-error') },
    );
    expect(facts.map((fact) => [fact.sourceRef, fact.conceptId, fact.status])).toEqual([
      ['a', conceptOf('asthma'), 'present'],
      ['b', conceptOf('asthma'), 'history'],
      ['c', conceptOf('asthma'), 'present'],
      ['d', conceptOf('asthma'), 'history'],
    ]);
  });

  it('keeps the latest value per measure, a panel component competing with a lone observation', () => {
    const systolic = (id: string, when: string, value: number) => ({
      resourceType: 'Observation',
      id,
      code: loinc('8480-6', 'Systolic blood pressure'),
      effectiveDateTime: when,
      valueQuantity: { value, code: 'mm[Hg]' },
    });
    const { facts } = read(
      systolic('s1', '2021-05-01T10:00:00Z', 150),
      {
        resourceType: 'Observation',
        id: 'panel',
        code: loinc('85354-9', 'Blood pressure panel'),
        effectiveDateTime: '2022-05-01T10:00:00Z',
        component: [{ code: loinc('8480-6', 'Systolic blood pressure'), valueQuantity: { value: 120, code: 'mm[Hg]' } }],
      },
      systolic('s2', '2020-01-01T10:00:00Z', 170),
      // An hour later in UTC though its local date is earlier.
      {
        resourceType: 'Observation',
        id: 'hr1',
        code: loinc('8867-4', 'Heart rate'),
        effectiveDateTime: '2022-05-01T23:30:00-05:00',
        valueQuantity: { value: 70, code: '/min' },
      },
      {
        resourceType: 'Observation',
        id: 'hr2',
        code: loinc('8867-4', 'Heart rate'),
        effectiveDateTime: '2022-05-02T03:30:00Z',
        valueQuantity: { value: 90, code: '/min' },
      },
      {
        resourceType: 'Observation',
        id: 'hr3',
        status: 'entered-in-error',
        code: loinc('8867-4', 'Heart rate'),
        effectiveDateTime: '2023-01-01',
        valueQuantity: { value: 200, code: '/min' },
      },
    );
    expect(facts.map((fact) => [fact.sourceRef, fact.name, fact.value, fact.unit, fact.observedOn])).toEqual([
      ['panel', 'systolic blood pressure', 120, 'mmHg', '2022-05-01'],
      ['hr1', 'heart rate', 70, 'bpm', '2022-05-01'],
    ]);
  });

  it('converts lab units (UCUM) into the measure units criteria use; a display that only resembles a measure is left out', () => {
    const lab = (id: string, code: string, display: string, value: number, unit: string) => ({
      resourceType: 'Observation',
      id,
      code: loinc(code, display),
      effectiveDateTime: '2024-01-01',
      valueQuantity: { value, code: unit },
    });
    const { facts, warnings } = read(
      lab('plt', '777-3', 'Platelets [#/volume] in Blood by Automated count', 250, '10*3/uL'),
      lab('egfr', '33914-3', 'Glomerular filtration rate/1.73 sq M.predicted', 72, 'mL/min/{1.73_m2}'),
      lab('cr', '2160-0', 'Creatinine [Moles/volume] in Serum or Plasma', 88.4, 'umol/L'),
      lab('ht', '8302-2', 'Body height', 65, '[in_i]'),
      lab('bmi-pct', '59576-9', 'Body mass index (BMI) [Percentile] Per age and sex', 80, '%'),
      lab('pmv', '32623-1', 'Platelet mean volume [Entitic volume] in Blood by Automated count', 10, 'fL'),
      lab('ucr', '2161-8', 'Creatinine [Mass/volume] in Urine', 120, 'mg/dL'),
      lab('alb', '1751-7', 'Albumin [Mass/volume] in Serum or Plasma', 4, 'mg/mL'),
      { resourceType: 'Observation', id: 'bili', code: loinc('1975-2', 'Bilirubin.total'), valueQuantity: { value: 0.1, comparator: '<', code: 'mg/dL' } },
    );
    expect(facts.map((fact) => [fact.sourceRef, fact.name, fact.value, fact.unit])).toEqual([
      ['plt', 'platelets', 250, '10^9/L'],
      ['egfr', 'eGFR', 72, 'mL/min/1.73m2'],
      ['cr', 'creatinine', 1, 'mg/dL'],
      ['ht', 'height', 165.1, 'cm'],
      ['alb', 'albumin', 4, 'mg/ml'],
    ]);
    expect(warnings).toEqual([
      'Observation alb: albumin kept in its own unit (mg/mL).',
      'Observation bili was skipped: its bilirubin is a bound ("<"), not a value.',
    ]);
  });

  it('reads pregnancy status and ECOG / Karnofsky scores', () => {
    const { facts } = read(
      {
        resourceType: 'Observation',
        id: 'preg',
        code: loinc('82810-3', 'Pregnancy status'),
        effectiveDateTime: '2024-02-01',
        valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '60001007', display: 'Not pregnant' }] },
      },
      {
        resourceType: 'Observation',
        id: 'ecog',
        code: loinc('89247-1', 'ECOG Performance Status score'),
        effectiveDateTime: '2024-02-01',
        valueCodeableConcept: { coding: [{ system: 'http://loinc.org', code: 'LA9623-5' }] },
      },
      {
        resourceType: 'Observation',
        id: 'kps',
        code: loinc('89243-0', 'Karnofsky Performance Status score'),
        effectiveDateTime: '2024-02-01',
        valueInteger: 80,
      },
      { resourceType: 'Observation', id: 'smoke', code: loinc('72166-2', 'Tobacco smoking status'), valueCodeableConcept: { text: 'Never smoker' } },
    );
    expect(facts.map((fact) => [fact.sourceRef, fact.kind, fact.name, fact.status, fact.value, fact.valueText])).toEqual([
      ['preg', 'pregnancy', 'pregnancy', 'absent', null, 'Not pregnant'],
      ['ecog', 'performance_status', 'ECOG performance status', null, 1, 'ECOG'],
      ['kps', 'performance_status', 'Karnofsky performance status', null, 80, 'Karnofsky'],
      ['smoke', 'smoking', 'smoking', 'absent', null, 'Never smoker'],
    ]);
  });

  it('skips a malformed resource with a warning and reads the rest', () => {
    const { facts, warnings } = read(
      { resourceType: 'Observation', id: 'bad', code: loinc('39156-5', 'BMI'), valueQuantity: { value: 'thirty' } },
      { resourceType: 'MedicationRequest', id: 'no-status', medicationCodeableConcept: { text: 'metformin' } },
      { resourceType: 'Observation', id: 'good', code: loinc('39156-5', 'BMI'), valueQuantity: { value: 22, code: 'kg/m2' } },
    );
    expect(facts.map((fact) => fact.sourceRef)).toEqual(['good']);
    expect(warnings).toEqual([
      'Observation bad was skipped: valueQuantity.value could not be read.',
      'MedicationRequest no-status was skipped: status could not be read.',
    ]);
  });
});

describe('reading a FHIR bundle: what it refuses', () => {
  const refusal = (bundle: unknown) => {
    try {
      readFhirBundle(bundle);
    } catch (error) {
      expect(error).toBeInstanceOf(FhirBundleError);
      expect((error as FhirBundleError).status).toBe(400);
      return (error as Error).message;
    }
    throw new Error('expected the bundle to be refused');
  };

  it('refuses what is not a FHIR bundle', () => {
    for (const input of [null, 'a string', [], { resourceType: 'Patient', id: 'p' }, { resourceType: 'Bundle', entry: 'none' }])
      expect(refusal(input)).toBe('The file is not a FHIR bundle');
  });

  it('refuses a bundle with no Patient', () => {
    expect(refusal({ resourceType: 'Bundle', type: 'collection' })).toBe('The bundle has no Patient');
    expect(refusal(bundleOf({ resourceType: 'Condition', id: 'c', code: { text: 'Asthma' } }))).toBe('The bundle has no Patient');
  });

  it('refuses a bundle with two Patients', () => {
    expect(refusal(bundleOf(PATIENT, { ...PATIENT, id: 'q' }))).toBe('The bundle has 2 Patients: one patient per bundle');
  });
});

const sharedFiles = existsSync(SHARED) ? readdirSync(SHARED).filter((name) => name.endsWith('.json')) : [];

describe.skipIf(!sharedFiles.length)('reading the shared Synthea bundles', () => {
  const readings = new Map(sharedFiles.map((name) => [name.split('_')[0], readFhirBundle(JSON.parse(readFileSync(path.join(SHARED, name), 'utf8')))]));
  const reading = (prefix: string) => {
    const found = readings.get(prefix);
    if (!found) throw new Error(`no shared bundle ${prefix}`);
    return found;
  };
  const conditions = (prefix: string) => reading(prefix).facts.filter((fact) => fact.kind === 'condition');

  it('the girl with childhood asthma has an asthma condition fact on the vocabulary concept, and her inhalers', () => {
    const asthma = conditions('Samella245').find((fact) => fact.conceptId === conceptOf('asthma'));
    expect(asthma).toMatchObject({ name: 'asthma', status: 'history', observedOn: '2008-09-29', code: 'http://snomed.info/sct|233678006' });
    expect(reading('Samella245').patient).toMatchObject({ sex: 'female', dateOfBirth: '2005-07-08' });
    expect(
      reading('Samella245')
        .facts.filter((fact) => fact.kind === 'medication' && fact.status === 'present')
        .map((fact) => fact.conceptId),
    ).toEqual(['cohortly:inhaled-corticosteroids', conceptOf('albuterol')]);
  });

  it('the two children with COVID-19 have a COVID-19 condition fact (and none from the suspicion)', () => {
    for (const prefix of ['Bibi254', 'Hipolito984']) {
      const covid = conditions(prefix).filter((fact) => fact.conceptId === conceptOf('COVID-19'));
      expect(covid.map((fact) => fact.sourceText)).toEqual(['COVID-19']);
    }
  });

  it('the child with no conditions yields no condition facts', () => {
    expect(conditions('Roland928')).toEqual([]);
  });

  it('gives names without digits, dates as YYYY-MM-DD, contract-valid facts and no warnings', () => {
    expect(readings.size).toBe(4);
    for (const [prefix, { patient, facts, warnings }] of readings) {
      expect(patient.firstName, prefix).toMatch(/^\D+$/);
      expect(patient.lastName, prefix).toMatch(/^\D+$/);
      expect(patient.dateOfBirth, prefix).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(warnings, prefix).toEqual([]);
      for (const fact of facts) {
        expect(fact.observedOn, `${prefix} ${fact.name}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(CandidateFactInputSchema.safeParse(fact).success, `${prefix} ${fact.name}`).toBe(true);
      }
    }
  });
});
