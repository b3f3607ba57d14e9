import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../src/contract/trials';
import { addSignatures, compileTrial, decodeFacts, matchCompact, PACKED_FACT_BYTES, type CompactPerson } from '../../src/server/features/matching/compiled';
import { matchPerson, type MatchCriterion, type MatchFact, type MatchPerson } from '../../src/server/features/matching/evaluate';
import { completenessOf } from '../../src/server/features/matching/score';
import { criteriaForMatching } from '../../src/server/features/matching/target-condition';
import { seededRandom } from '../support/seeded-random';

/**
 * The match run's compact evaluation (decision 084) against the reference, evaluate.ts `matchPerson`: the same
 * class, score, counts and criterion lists for every person, on random pools and rules of every kind. The facts go
 * through the same bytes and signatures the digest's SQL writes (migration 0032), in the same order.
 */

const today = new Date('2026-06-15T09:30:00Z');
const DAY = 86_400_000;

const daysAgo = (days: number) => new Date(today.getTime() - days * DAY).toISOString().slice(0, 10);

const asthma = [{ id: 'mesh:D001249', name: 'asthma' }];
const RULES: CriterionRule[] = [
  { type: 'age', minYears: 18, maxYears: 65 },
  { type: 'age', minYears: 40, maxYears: null },
  { type: 'sex', sex: 'female' },
  { type: 'sex', sex: 'all' },
  { type: 'condition', condition: 'asthma', present: true, concepts: asthma },
  { type: 'condition', condition: 'asthma', present: true, concepts: asthma, qualifiers: ['severe'] },
  { type: 'condition', condition: 'asthma', present: false, concepts: asthma, qualifiers: ['severe'] },
  // One side or both, and the part of the spine (decision 183): a fact saying the other one decides.
  { type: 'condition', condition: 'sciatica', present: true, qualifiers: ['one_side'] },
  { type: 'condition', condition: 'sciatica', present: false, qualifiers: ['both_sides'] },
  { type: 'condition', condition: 'sciatica', present: true, qualifiers: ['lumbar', 'one_side'] },
  { type: 'condition', condition: 'type 2 diabetes', present: false, history: true },
  { type: 'condition', condition: 'type 2 diabetes', present: true, history: true },
  { type: 'condition', condition: 'myocardial infarction', present: false, within: { value: 6, unit: 'months' } },
  { type: 'condition', condition: 'low back pain', present: true, duration: { minDays: 91 } },
  { type: 'condition', condition: 'low back pain', present: false, history: true, duration: { maxDays: 42 } },
  { type: 'condition', condition: 'low back pain', present: true, history: true, duration: { minDays: 30, maxDays: 365 } },
  // A length the note states bounds a duration from above (decision 230).
  { type: 'condition', condition: 'low back pain', present: true, duration: { maxDays: 90 } },
  // A denial of spine surgery clears an exclusion of one spine operation, never meets a wanted one (decision 205).
  { type: 'condition', condition: 'laminectomy', present: false, concepts: [{ id: 'mesh:D007796', name: 'laminectomy' }] },
  { type: 'condition', condition: 'diskectomy', present: true, concepts: [{ id: 'mesh:D017586', name: 'diskectomy' }] },
  // "No prior neck surgery" clears cervical spine surgery only (decision 284).
  {
    type: 'condition',
    condition: 'spine surgery',
    present: false,
    history: true,
    qualifiers: ['cervical'],
    concepts: [{ id: 'cohortly:spine-surgery', name: 'spine surgery' }],
  },
  {
    type: 'condition',
    condition: 'spine surgery',
    present: false,
    history: true,
    qualifiers: ['lumbar'],
    concepts: [{ id: 'cohortly:spine-surgery', name: 'spine surgery' }],
  },
  { type: 'medication', medication: 'budesonide', taking: true, concepts: [{ id: 'rx:budesonide', name: 'budesonide' }] },
  { type: 'medication', medication: 'prednisone', taking: false, within: { value: 3, unit: 'months' } },
  { type: 'medication', medication: 'prednisone', taking: false, history: true },
  { type: 'medication', medication: 'zunolimab', taking: false, history: true, concepts: [{ id: 'cohortly:medicine-named:zunolimab', name: 'zunolimab' }] },
  { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10, unit: '%' },
  { type: 'lab', measure: 'ALT/AST', comparator: '<=', value: 100 },
  { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' },
  { type: 'lab', measure: 'creatinine', comparator: '<=', value: 1.5, unit: 'mg/dL' },
  { type: 'lab', measure: 'creatinine', comparator: '<=', value: 130, unit: 'µmol/L' },
  { type: 'lab', measure: 'bilirubin', comparator: '<=', value: 1.5, relativeTo: 'ULN' },
  // Multiples of the upper limit decided where every adult laboratory's limit agrees (decision 251).
  { type: 'lab', measure: 'ALT/AST', comparator: '<=', value: 2.5, relativeTo: 'ULN' },
  { type: 'lab', measure: 'creatinine', comparator: '>', value: 1.5, relativeTo: 'ULN', unit: 'mg/dL' },
  { type: 'lab', measure: 'AST', comparator: '<=', value: 3, relativeTo: 'LLN' },
  { type: 'pregnancy', allowed: false },
  { type: 'pregnancy', allowed: true },
  { type: 'smoking', smoker: false },
  { type: 'smoking', smoker: true },
  { type: 'performance_status', scale: 'ECOG', min: 0, max: 1 },
  { type: 'performance_status', scale: 'Karnofsky', min: 70, max: null },
  { type: 'healthy_volunteers', accepted: false },
  { type: 'healthy_volunteers', accepted: true },
  { type: 'contraception', required: true },
  { type: 'contraception', required: false },
  { type: 'site_judgement', reason: 'investigator_judgement' },
  // An infant's bounds, in months and weeks (two decimals of a year, as the criteria reader writes them).
  { type: 'age', minYears: 0.25, maxYears: 2 },
  { type: 'age', minYears: 0.11, maxYears: 0.5 },
  // A measure with no unit of its own: a value without a unit is not compared with percent of predicted.
  { type: 'lab', measure: 'FEV1', comparator: '>=', value: 60, unit: '%' },
  // Analytes the measures table does not hold (decision 304): converted within one kind of unit, else unknown.
  { type: 'lab', measure: 'ferritins', comparator: '<', value: 30, unit: 'ng/mL' },
  // A measure a diagnosis bounds, with no value on record (decision 285): obesity for an adult's BMI, no diabetes for HbA1c.
  { type: 'lab', measure: 'BMI', comparator: '>=', value: 27, unit: 'kg/m2' },
  { type: 'lab', measure: 'BMI', comparator: '<', value: 25, unit: 'kg/m2' },
  { type: 'lab', measure: 'BMI', comparator: '<=', value: 35, unit: 'kg/m2' },
  { type: 'lab', measure: 'HbA1c', comparator: '>=', value: 8, unit: '%' },
];

function randomCriteria(random: ReturnType<typeof seededRandom>): MatchCriterion[] {
  const count = 3 + Math.floor(random.next() * 14);
  const criteria: MatchCriterion[] = Array.from({ length: count }, (_, index) => ({
    id: `criterion-${index}`,
    kind: random.pick(['inclusion', 'exclusion'] as const),
    rule: random.chance(0.07) ? null : random.pick(RULES),
    ruleSource: random.chance(0.1) ? 'llm' : random.chance(0.1) ? 'target' : 'text',
    needsReview: random.chance(0.3),
    population: random.chance(0.15) ? random.pick(POPULATIONS) : null,
  }));
  // A trial for asthma with site checks asking for it confirmed by a test (test-confirmed-checks.ts, decision 250).
  if (random.chance(0.4)) {
    criteria.push({
      id: 'target',
      kind: 'inclusion',
      rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma },
      ruleSource: 'target',
      needsReview: false,
      population: null,
    });
    for (const text of TESTED_TEXTS)
      if (random.chance(0.5))
        criteria.push({
          id: `tested-${criteria.length}`,
          kind: random.pick(['inclusion', 'exclusion'] as const),
          rule: { type: 'site_judgement', reason: 'investigator_judgement' },
          ruleSource: 'text',
          needsReview: false,
          population: random.chance(0.1) ? 'women' : null,
          text,
        });
  }
  return criteria;
}

/** Site checks a test-confirmed reading takes, and one it leaves to the site (a second condition). */
const TESTED_TEXTS = [
  'Asthma confirmed by CT',
  'Lumbar asthma shown on imaging',
  'MRI to confirm the diagnosis and level(s)',
  'Histologically confirmed diagnosis',
  'Asthma with two lesions on MRI',
];

/** Cohorts read as who a person is (cohorts.ts, decision 218), and one that says nothing of it. */
const POPULATIONS = ['women', 'asthmatics', 'non-smokers', 'participants without type 2 diabetes', 'participants aged 40 or older', 'Expansion Part'];

const CONDITIONS: Array<Partial<MatchFact>> = [
  { conceptId: 'mesh:D001249', name: 'asthma' },
  { conceptId: 'mesh:D009765', name: 'obesity' },
  { conceptId: 'cohortly:neck-surgery', name: 'neck surgery' },
  { conceptId: 'mesh:D003920', name: 'diabetes' },
  { name: 'Severe Asthma' },
  { name: 'asthma' },
  { name: 'Asthme sévère' },
  { name: 'Type 2 Diabetes Mellitus' },
  { name: 'diabetes' },
  { name: 'Myocardial infarction' },
  { name: 'infarction' },
  { name: 'chronic low back pain' },
  { name: 'low back pain' },
  { conceptId: 'mesh:D006973', name: 'hypertension' },
  { name: 'sciatica (bilateral)' },
  { name: 'sciatica (unilateral)' },
  { name: 'sciatica (cervical, unilateral)' },
  { name: 'sciatica' },
  { conceptId: 'cohortly:spine-surgery', name: 'back or spine surgery' },
  // The test a condition was reported on (note-test-findings.ts, decision 250).
  { conceptId: 'mesh:D001249', name: 'asthma (lumbar, L4-L5)', valueText: 'MRI' },
  { conceptId: 'mesh:D001249', name: 'asthma', valueText: 'CT' },
  { name: 'severe asthma', valueText: 'biopsy' },
  { conceptId: 'mesh:D001249', name: 'asthma', valueText: 'X-ray' },
  // "Otherwise healthy" (general-denials.ts): answers exclusions only, after every named fact.
  { conceptId: 'cohortly:no-other-conditions', name: 'other medical conditions' },
];
const MEDICATIONS: Array<Partial<MatchFact>> = [
  { conceptId: 'rx:budesonide', name: 'Pulmicort' },
  { name: 'budesonide inhaler' },
  { name: 'Prednisone' },
  { name: 'prednisone 5 mg' },
  { name: 'metformin' },
  { conceptId: 'cohortly:no-medications', name: 'regular medicines' },
  // "Never had a biologic" clears a "-mab" medicine known by its stem (decision 282).
  { conceptId: 'cohortly:biologics', name: 'a biologic medicine' },
];

function randomPerson(random: ReturnType<typeof seededRandom>, index: number): MatchPerson {
  let id = 0;
  // The person's sources decide how complete their record is (score.ts): a note, a health record, or a file's row.
  const source = random.pick(['import', 'import', 'note', 'fhir', 'prescreen'] as const);
  const facts: MatchFact[] = [];
  const date = () => (random.chance(0.25) ? null : daysAgo(random.pick([0, 1, 20, 40, 45, 60, 100, 120, 200, 400, 800, 3000])));
  const add = (partial: Partial<MatchFact> & Pick<MatchFact, 'kind' | 'name'>) =>
    facts.push({
      id: `p${index}-f${++id}`,
      conceptId: null,
      status: null,
      value: null,
      unit: null,
      valueText: null,
      observedOn: date(),
      source,
      ...partial,
    });
  const statuses = ['present', 'history', 'absent', null] as const;
  for (let i = 0, n = Math.floor(random.next() * 6); i < n; i++)
    add({
      kind: 'condition',
      name: '',
      ...random.pick(CONDITIONS),
      status: random.pick(statuses),
      // How long a note says it has lasted (decision 230), in a duration's units or another.
      ...(random.chance(0.3) ? { value: random.pick([1, 2, 6, 8]), unit: random.pick(['days', 'weeks', 'months', 'years', 'kg']) } : {}),
    });
  for (let i = 0, n = Math.floor(random.next() * 4); i < n; i++)
    add({ kind: 'medication', name: '', ...random.pick(MEDICATIONS), status: random.pick(statuses) });
  for (let i = 0, n = Math.floor(random.next() * 5); i < n; i++)
    add({
      kind: 'lab',
      name: random.pick(['HbA1c', 'hba1c', 'ALT', 'AST', 'eGFR', 'bilirubin', 'creatinine', 'FEV1', 'ferritins']),
      value: random.chance(0.1) ? null : Math.round(random.next() * 1500) / 10,
      // Units the criterion's converts from (mmol/mol, µmol/L, mg/dL) and ones it cannot (U/L for HbA1c).
      unit: random.pick(['%', null, 'U/L', 'mL/min/1.73m2', '', 'mmol/mol', 'µmol/L', 'mg/dL', 'µg/L', 'ng/mL']),
    });
  if (random.chance(0.6)) add({ kind: 'smoking', name: 'smoking', status: random.pick(statuses) });
  if (random.chance(0.2)) add({ kind: 'smoking', name: 'smoking', status: random.pick(statuses) });
  if (random.chance(0.3)) add({ kind: 'pregnancy', name: 'pregnancy', status: random.pick(statuses) });
  if (random.chance(0.4))
    add({
      kind: 'performance_status',
      name: 'ECOG',
      value: random.chance(0.1) ? null : Math.floor(random.next() * 5),
      valueText: random.pick(['ECOG', null, '']),
    });
  if (random.chance(0.2)) add({ kind: 'performance_status', name: 'KPS', value: 50 + Math.floor(random.next() * 50), valueText: 'Karnofsky' });
  if (random.chance(0.3))
    add({
      kind: 'age',
      name: 'age',
      value: random.chance(0.1) ? null : random.chance(0.3) ? Math.round(random.next() * 2000) / 1000 : 15 + random.next() * 70,
    });
  if (random.chance(0.3)) add({ kind: 'sex', name: 'sex', valueText: random.pick(['female', 'male', '', null]) });
  return {
    dateOfBirth: random.chance(0.7) ? daysAgo(Math.floor(random.next() * (random.chance(0.2) ? 800 : 30_000))) : null,
    sex: random.pick(['female', 'male', 'unknown', 'other']),
    facts,
  };
}

/** A fact's signature as `candidate_fact_signature_text` writes it (migration 0032). */
const signatureOf = (fact: MatchFact) =>
  [fact.kind, fact.status ?? '', fact.conceptId ?? '', fact.name, fact.unit ?? '', fact.valueText === null ? '' : `=${fact.valueText}`].join('\x1f');

/**
 * People's facts packed as `candidate_fact_digest_packed` packs them (17 bytes a fact, big-endian), with the
 * signature rows they name; ids start high and skip, as a table shared with other people would give them.
 */
function pack(people: MatchPerson[], as: PackedAs = {}) {
  const ids = new Map<string, number>();
  // Every other signature's id far past the first ones, as a table grown over years gives them.
  const idOf = (n: number) => (as.farIds && n % 2 === 1 ? 3_000_000 + n * 7 : 1000 + n * 7);
  const packed = people.map((person) => {
    if (!person.facts.length) return null;
    const bytes = new Uint8Array(person.facts.length * PACKED_FACT_BYTES);
    const view = new DataView(bytes.buffer);
    person.facts.forEach((fact, index) => {
      const signature = signatureOf(fact);
      if (!ids.has(signature)) ids.set(signature, idOf(ids.size));
      const at = index * PACKED_FACT_BYTES;
      view.setInt32(at, ids.get(signature) ?? 0);
      view.setFloat64(at + 4, fact.value ?? 0);
      view.setInt32(at + 12, fact.observedOn === null ? -2147483648 : Date.parse(`${fact.observedOn}T00:00:00Z`) / DAY);
      bytes[at + 16] = fact.value === null ? 0 : 1;
    });
    return bytes;
  });
  return { packed: as.shared ? shareOneBuffer(packed) : packed, signatures: [...ids].map(([signature, id]) => ({ id, signature })) };
}

/** `farIds`: ids past the decoder's typed array; `shared`: everyone's bytes in one buffer at odd offsets, as the driver hands them. */
type PackedAs = { farIds?: boolean; shared?: boolean };

function shareOneBuffer(packed: Array<Uint8Array | null>): Array<Uint8Array | null> {
  const whole = new Uint8Array(3 + packed.reduce((sum, bytes) => sum + (bytes?.byteLength ?? 0) + 1, 0));
  let at = 3;
  return packed.map((bytes) => {
    if (!bytes) return null;
    whole.set(bytes, at);
    at += bytes.byteLength + 1;
    return whole.subarray(at - bytes.byteLength - 1, at - 1);
  });
}

function compact(people: MatchPerson[], criteria: MatchCriterion[], alter?: (packed: Array<Uint8Array | null>) => void, as: PackedAs = {}) {
  const trial = compileTrial(criteria, today);
  const { packed, signatures } = pack(people, as);
  alter?.(packed);
  // As the run does: ask for the ids it has not met, then add their rows.
  const wanted = new Set(decodeFacts(trial, packed).unknown);
  addSignatures(
    trial,
    signatures.filter((row) => wanted.has(row.id)),
  );
  const { columns, starts, irregular } = decodeFacts(trial, packed);
  const rows: CompactPerson[] = people.map((person, index) => ({
    dateOfBirth: person.dateOfBirth,
    sex: person.sex,
    // As the slice's statement reads it from the facts' sources.
    completeness: completenessOf(person.facts),
    start: starts[index],
    end: starts[index + 1],
    columns,
  }));
  return { trial, rows, irregular };
}

const reference = (criteria: MatchCriterion[], person: MatchPerson) => {
  const { matchClass, score, metCount, notMetIds, unknownIds } = matchPerson(criteria, person, today, { explain: false });
  return { matchClass, score, metCount, notMetIds, unknownIds };
};

describe('the compact evaluation of a match run', () => {
  it('gives every person the class, score and criterion lists evaluate.ts gives them, on random pools and rules', () => {
    const classes = { likely: 0, possible: 0, excluded: 0 };
    let compared = 0;
    for (let round = 0; round < 60; round++) {
      const random = seededRandom(round + 7);
      const criteria = randomCriteria(random);
      const people = Array.from({ length: 120 }, (_, index) => randomPerson(random, index));
      const { trial, rows, irregular } = compact(people, criteria);
      expect(irregular).toEqual([]);
      for (let i = 0; i < people.length; i++) {
        const expected = reference(criteria, people[i]);
        expect(matchCompact(trial, rows[i]), `round ${round}, person ${i}`).toEqual(expected);
        classes[expected.matchClass]++;
        compared++;
      }
    }
    expect(compared).toBe(7200);
    // Varied enough to test something: every class, in numbers.
    expect(Math.min(classes.likely, classes.possible, classes.excluded)).toBeGreaterThan(50);
  });

  it("does not read the trial's own condition for its broad exclusion, as the evidence screen does not (decision 154)", () => {
    const criteria: MatchCriterion[] = [
      {
        id: 't',
        kind: 'inclusion',
        rule: { type: 'condition', condition: 'herniated disc', present: true, concepts: [{ id: 'mesh:D007405', name: 'herniated disc' }] },
        ruleSource: 'target',
        needsReview: false,
        population: null,
      },
      {
        id: 'x',
        kind: 'exclusion',
        rule: {
          type: 'condition',
          condition: 'any musculoskeletal disease',
          present: false,
          concepts: [{ id: 'mesh:D009140', name: 'musculoskeletal diseases' }],
        },
        ruleSource: 'text',
        needsReview: false,
        population: null,
      },
    ];
    const condition = (conceptId: string, name: string): MatchFact => ({
      id: conceptId,
      kind: 'condition',
      conceptId,
      name,
      status: 'present',
      value: null,
      unit: null,
      valueText: null,
      observedOn: null,
      source: 'note',
    });
    const herniation = condition('mesh:D007405', 'a slipped (herniated) disc (lumbar)');
    const arthritis = condition('mesh:D001172', 'rheumatoid arthritis');
    const people: MatchPerson[] = [
      { dateOfBirth: null, sex: 'female', facts: [herniation] },
      { dateOfBirth: null, sex: 'female', facts: [herniation, arthritis] },
    ];
    const { trial, rows } = compact(people, criteria);
    const results = people.map((person, i) => {
      const expected = reference(criteria, person);
      expect(matchCompact(trial, rows[i])).toEqual(expected);
      return expected;
    });
    // The herniation is what the trial is for: the exclusion stays unknown; another musculoskeletal disease excludes.
    expect(results[0]).toMatchObject({ matchClass: 'likely', notMetIds: [], unknownIds: ['x'] });
    expect(results[1]).toMatchObject({ matchClass: 'excluded', notMetIds: ['x'] });
  });

  it('lets "otherwise healthy" answer a broad exclusion the trial\'s own condition falls under, as evaluate.ts does', () => {
    // A migraine trial excluding "neurologic disease": the migraine it is for does not keep "otherwise healthy" from
    // answering it; another neurologic illness (or none said) still leaves it to the facts.
    const criteria: MatchCriterion[] = [
      {
        id: 't',
        kind: 'inclusion',
        rule: { type: 'condition', condition: 'migraine', present: true, concepts: [{ id: 'mesh:D000008881', name: 'migraine' }] },
        ruleSource: 'target',
        needsReview: false,
        population: null,
      },
      {
        id: 'x',
        kind: 'exclusion',
        rule: { type: 'condition', condition: 'neurologic disease', present: false, concepts: [{ id: 'mesh:D009422', name: 'nervous system diseases' }] },
        ruleSource: 'text',
        needsReview: false,
        population: null,
      },
    ];
    const base = { value: null, unit: null, valueText: null, observedOn: null, source: 'note' } as const;
    const migraine: MatchFact = { ...base, id: 'm', kind: 'condition', conceptId: 'mesh:D000008881', name: 'migraine', status: 'present' };
    const healthy: MatchFact = {
      ...base,
      id: 'h',
      kind: 'condition',
      conceptId: 'cohortly:no-other-conditions',
      name: 'other medical conditions',
      status: 'absent',
    };
    const epilepsy: MatchFact = { ...base, id: 'e', kind: 'condition', conceptId: 'mesh:D004827', name: 'epilepsy', status: 'present' };
    const people: MatchPerson[] = [
      { dateOfBirth: null, sex: 'female', facts: [migraine, healthy] },
      { dateOfBirth: null, sex: 'female', facts: [migraine] },
      { dateOfBirth: null, sex: 'female', facts: [migraine, epilepsy, healthy] },
    ];
    const { trial, rows } = compact(people, criteria);
    for (let i = 0; i < people.length; i++) expect(matchCompact(trial, rows[i]), `person ${i}`).toEqual(reference(criteria, people[i]));
    expect(reference(criteria, people[0])).toMatchObject({ metCount: 2, unknownIds: [] });
    expect(reference(criteria, people[1])).toMatchObject({ metCount: 1, unknownIds: ['x'] });
    expect(reference(criteria, people[2])).toMatchObject({ matchClass: 'excluded', notMetIds: ['x'] });
  });

  it('a trial that also takes healthy volunteers does not shield its condition unless an inclusion asks for it (decision 189)', () => {
    const flu = [{ id: 'mesh:D007251', name: 'influenza' }];
    const listed: MatchCriterion = {
      id: 't',
      kind: 'inclusion',
      rule: { type: 'condition', condition: 'influenza', present: true, concepts: flu },
      ruleSource: 'target-open',
      needsReview: false,
      population: null,
    };
    const feverish: MatchCriterion = {
      id: 'x',
      kind: 'exclusion',
      rule: {
        type: 'condition',
        condition: 'an acute infectious illness on the day of the shot',
        present: false,
        concepts: [{ id: 'mesh:D007239', name: 'infections' }],
      },
      ruleSource: 'text',
      needsReview: false,
      population: null,
    };
    // A flu study with a cohort of people ill with it beside healthy volunteers: the cohort's flu is what it studies.
    const cohort: MatchCriterion = {
      id: 'c',
      kind: 'inclusion',
      rule: { type: 'condition', condition: 'influenza confirmed by a swab', present: true, concepts: flu },
      ruleSource: 'text',
      needsReview: false,
      population: 'the infected group',
    };
    const ill: MatchPerson = {
      dateOfBirth: null,
      sex: 'male',
      facts: [
        {
          id: 'f',
          kind: 'condition',
          conceptId: 'mesh:D007251',
          name: 'influenza',
          status: 'present',
          value: null,
          unit: null,
          valueText: null,
          observedOn: null,
          source: 'note',
        },
      ],
    };
    const outcomeFor = (criteria: MatchCriterion[]) => {
      const { trial, rows } = compact([ill], criteria);
      const expected = reference(criteria, ill);
      expect(matchCompact(trial, rows[0])).toEqual(expected);
      return expected;
    };
    // A vaccine against the flu prevents it: someone ill with it now has the acute infection the exclusion names.
    expect(outcomeFor([listed, feverish])).toMatchObject({ matchClass: 'excluded', notMetIds: ['x'] });
    // With a cohort that has it, the flu is the trial's own condition again (decision 154).
    expect(outcomeFor([listed, cohort, feverish])).toMatchObject({ notMetIds: [] });
    expect(outcomeFor([{ ...listed, ruleSource: 'target' }, feverish])).toMatchObject({ notMetIds: [] });
  });

  it('reads disc levels and the conditions the inclusions require as evaluate.ts does (decision 183)', () => {
    const criteria: MatchCriterion[] = [
      {
        id: 'level',
        kind: 'inclusion',
        rule: { type: 'condition', condition: 'herniated disc', present: true, concepts: [{ id: 'mesh:D007405', name: 'herniated disc' }] },
        ruleSource: 'text',
        needsReview: false,
        population: null,
        text: 'A single herniated disc at C5-6 or C6-7 on MRI',
      },
      {
        id: 'root',
        kind: 'inclusion',
        rule: { type: 'condition', condition: 'radiculopathy', present: true, concepts: [{ id: 'mesh:D011843', name: 'radiculopathy' }] },
        ruleSource: 'text',
        needsReview: false,
        population: null,
      },
      {
        id: 'nerves',
        kind: 'exclusion',
        rule: { type: 'condition', condition: 'nervous system disease', present: false, concepts: [{ id: 'mesh:D009422', name: 'nervous system diseases' }] },
        ruleSource: 'text',
        needsReview: false,
        population: null,
      },
    ];
    const condition = (id: string, conceptId: string, name: string): MatchFact => ({
      id,
      kind: 'condition',
      conceptId,
      name,
      status: 'present',
      value: null,
      unit: null,
      valueText: null,
      observedOn: null,
      source: 'note',
    });
    const root = condition('r', 'mesh:D011843', 'a pinched nerve in the spine (radiculopathy)');
    const people: MatchPerson[] = [
      { dateOfBirth: null, sex: 'male', facts: [condition('a', 'mesh:D007405', 'a slipped (herniated) disc (cervical, C6-C7)'), root] },
      { dateOfBirth: null, sex: 'male', facts: [condition('b', 'mesh:D007405', 'a slipped (herniated) disc (cervical, C4-C5)'), root] },
      { dateOfBirth: null, sex: 'male', facts: [condition('c', 'mesh:D007405', 'a slipped (herniated) disc (cervical)'), root] },
    ];
    const { trial, rows } = compact(people, criteria);
    const results = people.map((person, i) => {
      const expected = reference(criteria, person);
      expect(matchCompact(trial, rows[i])).toEqual(expected);
      return expected;
    });
    // The radiculopathy the trial asks for is not the nervous system disease it excludes: "nerves" stays unknown.
    expect(results[0]).toMatchObject({ notMetIds: [], unknownIds: ['nerves'] });
    expect(results[1]).toMatchObject({ matchClass: 'excluded', notMetIds: ['level'] });
    expect(results[2]).toMatchObject({ notMetIds: [], unknownIds: ['level', 'nerves'] });
  });

  it('reads a condition near a wanted one as evaluate.ts does: unknown, with its own chance', () => {
    const pah = [{ id: 'mesh:D000081029', name: 'pulmonary arterial hypertension' }];
    const inclusion: MatchCriterion = {
      id: 'pah',
      kind: 'inclusion',
      rule: { type: 'condition', condition: 'pulmonary arterial hypertension', present: true, concepts: pah, qualifiers: ['symptomatic'] },
      ruleSource: 'text',
      needsReview: true,
      population: null,
    };
    const criteria = criteriaForMatching({ conditions: ['Pulmonary Arterial Hypertension'], criteria: [inclusion] }) as MatchCriterion[];
    const person = (conceptId: string, status: 'present' | 'history' | 'absent'): MatchPerson => ({
      dateOfBirth: null,
      sex: 'female',
      facts: [{ id: 'f', kind: 'condition', conceptId, name: conceptId, status, value: null, unit: null, valueText: null, observedOn: null, source: 'note' }],
    });
    const people = [person('mesh:D010547', 'present'), person('mesh:D010547', 'history'), person('mesh:D010547', 'absent'), person('mesh:D001249', 'present')];
    const { trial, rows } = compact(people, criteria);
    for (let i = 0; i < people.length; i++) expect(matchCompact(trial, rows[i]), `person ${i}`).toEqual(reference(criteria, people[i]));
    expect(matchCompact(trial, rows[0]).score).toBeGreaterThan(matchCompact(trial, rows[3]).score);
  });

  it('reads sciatica as the leg pain an inclusion wants, and never against an exclusion of it, as evaluate.ts does (decision 297)', () => {
    const legPain = [{ id: 'cohortly:leg-pain', name: 'leg pain' }];
    const criteria: MatchCriterion[] = [
      {
        id: 'want',
        kind: 'inclusion',
        rule: { type: 'condition', condition: 'leg pain', present: true, concepts: legPain },
        ruleSource: 'text',
        needsReview: false,
        population: null,
      },
      {
        id: 'bar',
        kind: 'exclusion',
        rule: { type: 'condition', condition: 'leg pain', present: false, concepts: legPain },
        ruleSource: 'text',
        needsReview: true,
        population: null,
      },
    ];
    const person = (status: 'present' | 'history' | 'absent'): MatchPerson => ({
      dateOfBirth: null,
      sex: 'male',
      facts: [
        {
          id: 'f',
          kind: 'condition',
          conceptId: 'mesh:D012585',
          name: 'sciatica',
          status,
          value: null,
          unit: null,
          valueText: null,
          observedOn: null,
          source: 'note',
        },
      ],
    });
    const people = [person('present'), person('history'), person('absent')];
    const { trial, rows } = compact(people, criteria);
    for (let i = 0; i < people.length; i++) expect(matchCompact(trial, rows[i]), `person ${i}`).toEqual(reference(criteria, people[i]));
    expect(matchCompact(trial, rows[0])).toMatchObject({ unknownIds: ['bar'], notMetIds: [] });
  });

  it('reads a qualified condition as the evidence screen does: "asthma" does not prove "severe asthma"', () => {
    const criteria: MatchCriterion[] = [
      { id: 'c', kind: 'inclusion', rule: RULES[5], ruleSource: 'text', needsReview: false, population: null },
      { id: 'd', kind: 'exclusion', rule: RULES[6], ruleSource: 'text', needsReview: false, population: null },
    ];
    const person = (name: string): MatchPerson => ({
      dateOfBirth: null,
      sex: 'female',
      facts: [
        { id: 'f', kind: 'condition', conceptId: null, name, status: 'present', value: null, unit: null, valueText: null, observedOn: null, source: 'note' },
      ],
    });
    const { trial, rows } = compact([person('asthma'), person('severe asthma')], criteria);
    expect(matchCompact(trial, rows[0])).toMatchObject({ matchClass: 'possible', unknownIds: ['c', 'd'], notMetIds: [] });
    expect(matchCompact(trial, rows[1])).toMatchObject({ matchClass: 'excluded', notMetIds: ['d'], metCount: 1 });
  });

  it("judges a cohort's criterion for its cohort's people only, as evaluate.ts does (decision 218)", () => {
    // A smokers' cohort wants 40 or older and no budesonide; a non-smokers' one the same budesonide exclusion.
    const criteria: MatchCriterion[] = [
      { id: 'age', kind: 'inclusion', rule: RULES[1], ruleSource: 'text', needsReview: false, population: 'Smokers' },
      {
        id: 'steroid',
        kind: 'exclusion',
        rule: { type: 'medication', medication: 'budesonide', taking: false, concepts: [{ id: 'rx:budesonide', name: 'budesonide' }] },
        ruleSource: 'text',
        needsReview: false,
        population: 'Smokers',
      },
      { id: 'asthma', kind: 'inclusion', rule: RULES[4], ruleSource: 'text', needsReview: false, population: 'Non-smokers' },
    ];
    const person = (dateOfBirth: string, smoking: 'present' | 'absent' | null, budesonide: boolean): MatchPerson => {
      const facts: MatchFact[] = [];
      const base = { conceptId: null, value: null, unit: null, valueText: null, observedOn: null, source: 'note' } as const;
      if (smoking) facts.push({ ...base, id: 's', kind: 'smoking', name: 'smoking', status: smoking });
      if (budesonide) facts.push({ ...base, id: 'b', kind: 'medication', conceptId: 'rx:budesonide', name: 'Pulmicort', status: 'present' });
      return { dateOfBirth, sex: 'female', facts };
    };
    const people = [
      person('1970-01-01', 'present', false),
      person('2000-01-01', 'present', true),
      person('2000-01-01', 'absent', true),
      person('2000-01-01', null, true),
    ];
    const { trial, rows } = compact(people, criteria);
    for (let i = 0; i < people.length; i++) expect(matchCompact(trial, rows[i]), `person ${i}`).toEqual(reference(criteria, people[i]));
    // A smoker over 40 meets the smokers' age (budesonide not said: unknown); a young smoker on budesonide fails both; a
    // non-smoker and a person whose smoking is not known are judged by none of them (the non-smoker's asthma is asked).
    expect(matchCompact(trial, rows[0])).toMatchObject({ metCount: 1, notMetIds: [], unknownIds: ['steroid'] });
    expect(matchCompact(trial, rows[1])).toMatchObject({ matchClass: 'excluded', notMetIds: ['age', 'steroid'] });
    expect(matchCompact(trial, rows[2])).toMatchObject({ metCount: 0, notMetIds: [], unknownIds: ['asthma'] });
    expect(matchCompact(trial, rows[3])).toMatchObject({ metCount: 0, notMetIds: [], unknownIds: [] });
  });

  it('reports a candidate whose facts cannot be read whole, instead of misreading them', () => {
    const criteria: MatchCriterion[] = [{ id: 'c', kind: 'inclusion', rule: RULES[4], ruleSource: 'text', needsReview: false, population: null }];
    const fact = (name: string, value: number | null = null): MatchFact => ({
      id: 'f',
      kind: 'condition',
      conceptId: null,
      name,
      status: 'present',
      value,
      unit: null,
      valueText: null,
      observedOn: '2026-01-01',
      source: 'import',
    });
    const people: MatchPerson[] = [
      { dateOfBirth: null, sex: 'female', facts: [fact('asthma')] },
      // A signature holding the separator (written by hand in SQL): its words do not split into six fields.
      { dateOfBirth: null, sex: 'female', facts: [fact('asthma\x1fx')] },
      // A fact whose signature row is missing, after one that reads: the whole person is read as rows.
      { dateOfBirth: null, sex: 'female', facts: [fact('eczema', 3), fact('asthma')] },
      // Bytes cut short.
      { dateOfBirth: null, sex: 'female', facts: [fact('asthma'), fact('asthma')] },
      { dateOfBirth: null, sex: 'female', facts: [] },
      { dateOfBirth: null, sex: 'female', facts: [fact('copd')] },
    ];
    const { trial, rows, irregular } = compact(people, criteria, (packed) => {
      const third = packed[2] as Uint8Array;
      new DataView(third.buffer).setInt32(PACKED_FACT_BYTES, 999_999);
      packed[3] = (packed[3] as Uint8Array).subarray(0, PACKED_FACT_BYTES + 3);
    });
    expect(irregular).toEqual([1, 2, 3]);
    expect(matchCompact(trial, rows[0]).matchClass).toBe('likely');
    expect(rows[1].end - rows[1].start).toBe(0);
    expect(rows[2].end - rows[2].start).toBe(0);
    expect(matchCompact(trial, rows[4]).unknownIds).toEqual(['c']);
    // The person after a partly read one starts clean: no value left behind by the facts given up.
    expect(rows[5].end - rows[5].start).toBe(1);
    expect(rows[5].columns.hasValue[rows[5].start]).toBe(0);
  });
  it('reads the same facts from bytes sharing one buffer and from signature ids far past the first ones', () => {
    for (let round = 0; round < 10; round++) {
      const random = seededRandom(round + 101);
      const criteria = randomCriteria(random);
      const people = Array.from({ length: 80 }, (_, index) => randomPerson(random, index));
      const { trial, rows, irregular } = compact(people, criteria, undefined, { farIds: true, shared: true });
      expect(irregular).toEqual([]);
      for (let i = 0; i < people.length; i++) expect(matchCompact(trial, rows[i]), `round ${round}, person ${i}`).toEqual(reference(criteria, people[i]));
    }
  });
});
