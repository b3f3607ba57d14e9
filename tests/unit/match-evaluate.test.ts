import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../src/contract/trials';
import {
  ageOn,
  evaluateCriterion,
  factNames,
  matchPerson,
  type MatchCriterion,
  type MatchFact,
  type MatchPerson,
} from '../../src/server/features/matching/evaluate';
import { matchTrial, TARGET_CONDITION_ID, targetConditionOf } from '../../src/server/features/matching/target-condition';
import { matchFact } from '../support/match-facts';

const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('manual');
const person = (facts: MatchFact[], extra: Partial<MatchPerson> = {}): MatchPerson => ({ dateOfBirth: null, sex: 'unknown', facts, ...extra });
const criterion = (rule: CriterionRule | null, extra: Partial<MatchCriterion> = {}): MatchCriterion => ({
  id: 'c1',
  kind: 'inclusion',
  rule,
  ruleSource: 'text',
  needsReview: false,
  population: null,
  ...extra,
});
const outcome = (rule: CriterionRule | null, who: MatchPerson, extra: Partial<MatchCriterion> = {}) =>
  evaluateCriterion(criterion(rule, extra), who, today).outcome;

const asthma = { type: 'condition', condition: 'asthma', present: true, concepts: [{ id: 'mesh:D001249', name: 'asthma' }] } as const satisfies CriterionRule;
const noMi = {
  type: 'condition',
  condition: 'a heart attack',
  present: false,
  history: true,
  concepts: [{ id: 'cohortly:myocardial-infarction', name: 'a heart attack' }],
} as const satisfies CriterionRule;
const noSteroidsRecently = {
  type: 'medication',
  medication: 'steroids',
  taking: false,
  concepts: [{ id: 'mesh:D005938', name: 'steroids' }],
  within: { value: 4, unit: 'weeks' },
} as const satisfies CriterionRule;
const hba1c = { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10, unit: '%' } as const satisfies CriterionRule;

describe('each rule kind against facts', () => {
  const cases: Array<[string, CriterionRule, MatchPerson, string]> = [
    ['age in range from the date of birth', { type: 'age', minYears: 18, maxYears: 65 }, person([], { dateOfBirth: '1980-06-16' }), 'met'],
    ['age one day short of 46 still 45', { type: 'age', minYears: 46, maxYears: null }, person([], { dateOfBirth: '1980-06-16' }), 'not_met'],
    ['age over the maximum', { type: 'age', minYears: 18, maxYears: 65 }, person([], { dateOfBirth: '1950-01-01' }), 'not_met'],
    [
      'age from a note when no date of birth',
      { type: 'age', minYears: 18, maxYears: 65 },
      person([fact({ kind: 'age', name: 'age', value: 58, source: 'note' })]),
      'met',
    ],
    ['age unknown', { type: 'age', minYears: 18, maxYears: 65 }, person([]), 'unknown'],
    ['sex matches', { type: 'sex', sex: 'female' }, person([], { sex: 'female' }), 'met'],
    ['sex differs', { type: 'sex', sex: 'female' }, person([], { sex: 'male' }), 'not_met'],
    ['sex from a fact', { type: 'sex', sex: 'male' }, person([fact({ kind: 'sex', name: 'sex', valueText: 'male' })]), 'met'],
    ['any sex: everyone meets it', { type: 'sex', sex: 'all' }, person([]), 'met'],
    ['healthy volunteers accepted: everyone meets it', { type: 'healthy_volunteers', accepted: true }, person([]), 'met'],
    ['wanted condition present', asthma, person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })]), 'met'],
    ['wanted condition named more specifically', asthma, person([fact({ kind: 'condition', name: 'childhood asthma', status: 'present' })]), 'met'],
    ['wanted condition denied', asthma, person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'absent' })]), 'not_met'],
    [
      'wanted condition only in the past',
      asthma,
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'history' })]),
      'unknown',
    ],
    ['wanted condition not on record', asthma, person([]), 'unknown'],
    // Qualifiers (decision 077): a bare diagnosis cannot say "severe"; a fact that says it, or a denial, decides.
    [
      'wanted severe condition, diagnosis without severity',
      { ...asthma, qualifiers: ['severe'] },
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })]),
      'unknown',
    ],
    [
      'wanted severe condition, severe on record',
      { ...asthma, qualifiers: ['severe'] },
      person([fact({ kind: 'condition', name: 'severe persistent asthma', conceptId: 'mesh:D001249', status: 'present' })]),
      'met',
    ],
    [
      'wanted severe condition denied',
      { ...asthma, qualifiers: ['severe'] },
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'absent' })]),
      'not_met',
    ],
    // The other side or another part of the spine on record (decision 183) answers the qualifier with certainty.
    [
      'wanted one-sided nerve pain, pain down both legs on record',
      { type: 'condition', condition: 'radiculopathy', present: true, qualifiers: ['one_side'] },
      person([fact({ kind: 'condition', name: 'radiculopathy (bilateral)', status: 'present' })]),
      'not_met',
    ],
    [
      'unwanted two-sided nerve pain, one side on record',
      { type: 'condition', condition: 'radiculopathy', present: false, qualifiers: ['both_sides'] },
      person([fact({ kind: 'condition', name: 'radiculopathy (unilateral)', status: 'present' })]),
      'met',
    ],
    [
      'wanted lumbar disc disease, a neck disc on record',
      { type: 'condition', condition: 'disc herniation', present: true, qualifiers: ['lumbar'] },
      person([fact({ kind: 'condition', name: 'disc herniation (cervical)', status: 'present' })]),
      'not_met',
    ],
    [
      'wanted one-sided nerve pain, side not on record',
      { type: 'condition', condition: 'radiculopathy', present: true, qualifiers: ['one_side'] },
      person([fact({ kind: 'condition', name: 'radiculopathy (lumbar)', status: 'present' })]),
      'unknown',
    ],
    [
      'unwanted uncontrolled condition, controlled status unknown',
      { ...asthma, present: false, qualifiers: ['uncontrolled'] },
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })]),
      'unknown',
    ],
    [
      'a broader denial rules out the narrower condition',
      { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: 'x:t2d', name: 'type 2 diabetes' }] },
      person([fact({ kind: 'condition', name: 'diabetes', status: 'absent' })]),
      'not_met',
    ],
    [
      'a broader condition present does not prove the narrower one',
      { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: 'x:t2d', name: 'type 2 diabetes' }] },
      person([fact({ kind: 'condition', name: 'diabetes', status: 'present' })]),
      'unknown',
    ],
    [
      'a broader name does not satisfy a narrower concept',
      { ...asthma, concepts: [{ id: 'x:severe-asthma', name: 'severe asthma' }] },
      person([fact({ kind: 'condition', name: 'asthma', status: 'present' })]),
      'unknown',
    ],
    [
      '"no MI ever": had one before',
      noMi,
      person([fact({ kind: 'condition', name: 'myocardial infarction', conceptId: 'cohortly:myocardial-infarction', status: 'history' })]),
      'not_met',
    ],
    [
      '"no MI ever": denies it',
      noMi,
      person([fact({ kind: 'condition', name: 'a heart attack', conceptId: 'cohortly:myocardial-infarction', status: 'absent' })]),
      'met',
    ],
    ['"no MI ever": nothing known', noMi, person([]), 'unknown'],
    // today is 2026-06-15: a heart attack in 2021 is longer ago than 6 months; one present now since 2021 is not said.
    [
      '"no MI in 6 months": one 5 years ago',
      { ...noMi, history: false, within: { value: 6, unit: 'months' } },
      person([fact({ kind: 'condition', name: 'a heart attack', conceptId: 'cohortly:myocardial-infarction', status: 'history', observedOn: '2021-06-15' })]),
      'met',
    ],
    [
      '"no infection in 2 weeks": present, since 3 weeks',
      {
        type: 'condition',
        condition: 'an infection',
        present: false,
        within: { value: 2, unit: 'weeks' },
        concepts: [{ id: 'mesh:D007239', name: 'an infection' }],
      },
      person([fact({ kind: 'condition', name: 'an infection', conceptId: 'mesh:D007239', status: 'present', observedOn: '2026-05-25' })]),
      'unknown',
    ],
    [
      'current-only exclusion, past condition',
      { type: 'condition', condition: 'infection', present: false, concepts: [{ id: 'x:infection', name: 'infection' }] },
      person([fact({ kind: 'condition', name: 'infection', conceptId: 'x:infection', status: 'history' })]),
      'met',
    ],
    [
      'washout: stopped long ago',
      noSteroidsRecently,
      person([fact({ kind: 'medication', name: 'prednisone', conceptId: 'mesh:D005938', status: 'history', observedOn: '2025-01-01' })]),
      'met',
    ],
    [
      'washout: stopped last week',
      noSteroidsRecently,
      person([fact({ kind: 'medication', name: 'prednisone', conceptId: 'mesh:D005938', status: 'history', observedOn: '2026-06-10' })]),
      'not_met',
    ],
    [
      'washout: stopped, date unknown',
      noSteroidsRecently,
      person([fact({ kind: 'medication', name: 'prednisone', conceptId: 'mesh:D005938', status: 'history' })]),
      'unknown',
    ],
    [
      'washout: still taking',
      noSteroidsRecently,
      person([fact({ kind: 'medication', name: 'prednisone', conceptId: 'mesh:D005938', status: 'present' })]),
      'not_met',
    ],
    // Taken now is taken within any washout, however long ago it was started (a FHIR statement's start date).
    [
      'washout: still taking, started years ago',
      noSteroidsRecently,
      person([fact({ kind: 'medication', name: 'prednisone', conceptId: 'mesh:D005938', status: 'present', observedOn: '2019-03-01' })]),
      'not_met',
    ],
    ['lab in range', hba1c, person([fact({ kind: 'lab', name: 'HbA1c', value: 8.1, unit: '%' })]), 'met'],
    ['lab out of range', hba1c, person([fact({ kind: 'lab', name: 'HbA1c', value: 6.2, unit: '%' })]), 'not_met'],
    [
      'the latest lab decides',
      hba1c,
      person([
        fact({ kind: 'lab', name: 'HbA1c', value: 6.2, unit: '%', observedOn: '2024-01-01' }),
        fact({ kind: 'lab', name: 'HbA1c', value: 8, unit: '%', observedOn: '2026-01-01' }),
      ]),
      'met',
    ],
    // Another unit is converted where the measures table can (lab-units.ts): 64 mmol/mol is 8.0%, 42 is 6.0%.
    ['lab in another unit, converted', hba1c, person([fact({ kind: 'lab', name: 'HbA1c', value: 64, unit: 'mmol/mol' })]), 'met'],
    ['lab in another unit, converted, out of range', hba1c, person([fact({ kind: 'lab', name: 'HbA1c', value: 42, unit: 'mmol/mol' })]), 'not_met'],
    [
      'creatinine in µmol/L against mg/dL',
      { type: 'lab', measure: 'creatinine', comparator: '<=', value: 1.5, unit: 'mg/dL' },
      person([fact({ kind: 'lab', name: 'creatinine', value: 97, unit: 'µmol/L' })]),
      'met',
    ],
    [
      'creatinine in mg/dL against µmol/L',
      { type: 'lab', measure: 'creatinine', comparator: '<=', value: 130, unit: 'µmol/L' },
      person([fact({ kind: 'lab', name: 'creatinine', value: 1.8, unit: 'mg/dL' })]),
      'not_met',
    ],
    ['lab in a unit with no conversion', hba1c, person([fact({ kind: 'lab', name: 'HbA1c', value: 64, unit: 'U/L' })]), 'unknown'],
    // FEV1 has no unit of its own: a value without one (litres?) is not compared with percent of predicted.
    [
      'FEV1 without its unit against percent of predicted',
      { type: 'lab', measure: 'FEV1', comparator: 'between', value: 60, upperValue: 85, unit: '%' },
      person([fact({ kind: 'lab', name: 'FEV1', value: 1.8, unit: null })]),
      'unknown',
    ],
    [
      'FEV1 in percent of predicted',
      { type: 'lab', measure: 'FEV1', comparator: 'between', value: 60, upperValue: 85, unit: '%' },
      person([fact({ kind: 'lab', name: 'FEV1', value: 55, unit: '%' })]),
      'not_met',
    ],
    [
      'lab relative to the normal range',
      { type: 'lab', measure: 'ALT', comparator: '<=', value: 2.5, relativeTo: 'ULN' },
      person([fact({ kind: 'lab', name: 'ALT', value: 40, unit: 'U/L' })]),
      'unknown',
    ],
    [
      'pregnancy excluded, pregnant',
      { type: 'pregnancy', allowed: false },
      person([fact({ kind: 'pregnancy', name: 'pregnancy', status: 'present' })], { sex: 'female' }),
      'not_met',
    ],
    ['pregnancy excluded, a man', { type: 'pregnancy', allowed: false }, person([], { sex: 'male' }), 'met'],
    // A record without its sex: a note's sex fact says it; a woman's note silent on pregnancy leaves it unknown.
    ['pregnancy excluded, a man by his note', { type: 'pregnancy', allowed: false }, person([fact({ kind: 'sex', name: 'sex', valueText: 'male' })]), 'met'],
    [
      'pregnancy excluded, a woman by her note',
      { type: 'pregnancy', allowed: false },
      person([fact({ kind: 'sex', name: 'sex', valueText: 'female' })]),
      'unknown',
    ],
    ['non-smokers only, smokes', { type: 'smoking', smoker: false }, person([fact({ kind: 'smoking', name: 'smoking', status: 'present' })]), 'not_met'],
    ['non-smokers only, former smoker', { type: 'smoking', smoker: false }, person([fact({ kind: 'smoking', name: 'smoking', status: 'history' })]), 'met'],
    [
      'ECOG 0-1, ECOG 2',
      { type: 'performance_status', scale: 'ECOG', min: 0, max: 1 },
      person([fact({ kind: 'performance_status', name: 'ECOG', value: 2, valueText: 'ECOG' })]),
      'not_met',
    ],
    [
      'not accepting healthy volunteers, has a condition',
      { type: 'healthy_volunteers', accepted: false },
      person([fact({ kind: 'condition', name: 'asthma', status: 'present' })]),
      'met',
    ],
    ['contraception is asked, never decided', { type: 'contraception', required: true }, person([]), 'unknown'],
    [
      'site judgement never decided',
      { type: 'site_judgement', reason: 'investigator_judgement' },
      person([fact({ kind: 'condition', name: 'asthma', status: 'present' })]),
      'unknown',
    ],
  ];
  it.each(cases)('%s', (_name, rule, who, expected) => {
    expect(outcome(rule, who)).toBe(expected);
  });

  it('a criterion for a subgroup is not applicable; one without a rule is unknown; an unaccepted suggestion never decides', () => {
    const who = person([], { dateOfBirth: '1950-01-01' });
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, who, { population: 'Healthy controls' })).toBe('not_applicable');
    expect(outcome(null, who)).toBe('unknown');
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, who, { ruleSource: 'llm', needsReview: true })).toBe('unknown');
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, who, { ruleSource: 'llm', needsReview: false })).toBe('not_met');
  });

  it("judges a cohort's criterion for the people its words put in the cohort, and leaves it out for the rest (decision 218)", () => {
    const diabetic = fact({ kind: 'condition', name: 'type 2 diabetes', status: 'present' });
    const a1c = (value: number) => fact({ kind: 'lab', name: 'HbA1c', value, unit: '%' });
    const forDiabetics = { population: 'participants with type 2 diabetes' };
    // In the cohort: its HbA1c range decides, either way, and says which cohort it was judged for.
    const inRange = evaluateCriterion(criterion(hba1c, forDiabetics), person([diabetic, a1c(8.1)]), today);
    expect(inRange.outcome).toBe('met');
    expect(inRange.reason).toContain('participants with type 2 diabetes: Has type 2 diabetes');
    expect(outcome(hba1c, person([diabetic, a1c(11.2)]), forDiabetics)).toBe('not_met');
    // Out of it (diabetes denied), or not known to be in it: the cohort's rules are not theirs.
    const denied = fact({ kind: 'condition', name: 'type 2 diabetes', status: 'absent' });
    expect(outcome(hba1c, person([denied, a1c(11.2)]), forDiabetics)).toBe('not_applicable');
    expect(outcome(hba1c, person([a1c(11.2)]), forDiabetics)).toBe('not_applicable');
    // Smokers and non-smokers, by the person's smoking fact.
    const smoker = person([fact({ kind: 'smoking', name: 'smoking', status: 'present' })], { dateOfBirth: '1950-01-01' });
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, smoker, { population: 'Smokers' })).toBe('not_met');
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, smoker, { population: 'Non-smokers' })).toBe('not_applicable');
    // Words that say nothing of who is in it, and "healthy", which protocols use loosely, place nobody.
    expect(outcome(hba1c, person([diabetic, a1c(11.2)]), { population: 'Expansion Part' })).toBe('not_applicable');
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, smoker, { population: 'healthy participants' })).toBe('not_applicable');
  });

  it('says why, with the source and date of the deciding fact', () => {
    const result = evaluateCriterion(
      criterion(hba1c),
      person([fact({ id: 'lab1', kind: 'lab', name: 'HbA1c', value: 8.1, unit: '%', source: 'fhir', observedOn: '2026-02-01' })]),
      today,
    );
    expect(result).toMatchObject({ factId: 'lab1', key: true, reason: 'HbA1c 8.1 % (health record, 1 Feb 2026); the trial needs 7-10 %' });
  });

  it('says a one-sided threshold in words, never as a comparison sign', () => {
    const bmi: CriterionRule = { type: 'lab', measure: 'BMI', comparator: '>=', value: 27, unit: 'kg/m2' };
    const result = evaluateCriterion(criterion(bmi), person([fact({ kind: 'lab', name: 'BMI', value: 31.4, unit: 'kg/m2', observedOn: '2026-03-09' })]), today);
    expect(result.reason).toBe('BMI 31.4 kg/m2 (entered by staff, 9 Mar 2026); the trial needs at least 27 kg/m2');
  });
});

describe('classes and score', () => {
  const criteria: MatchCriterion[] = [
    criterion({ type: 'age', minYears: 18, maxYears: 65 }, { id: 'age' }),
    criterion(asthma, { id: 'asthma' }),
    criterion({ type: 'smoking', smoker: false }, { id: 'smoking', kind: 'exclusion' }),
    criterion({ type: 'site_judgement', reason: 'investigator_judgement' }, { id: 'judgement', kind: 'exclusion' }),
  ];
  const adult = { dateOfBirth: '1980-01-01' };
  it('likely: nothing unmet and every key fact known (site judgement and exclusions may stay unknown)', () => {
    const result = matchPerson(criteria, person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })], adult), today);
    expect(result).toMatchObject({ matchClass: 'likely', notMetIds: [], unknownIds: ['smoking', 'judgement'] });
  });
  it('possible: a key fact unknown', () => {
    expect(matchPerson(criteria, person([], adult), today)).toMatchObject({ matchClass: 'possible', unknownIds: ['asthma', 'smoking', 'judgement'] });
  });
  it('excluded: lists every criterion not met', () => {
    const result = matchPerson(criteria, person([fact({ kind: 'smoking', name: 'smoking', status: 'present' })], { dateOfBirth: '1940-01-01' }), today);
    expect(result).toMatchObject({ matchClass: 'excluded', notMetIds: ['age', 'smoking'] });
  });
  it('scores the chance of eligibility: a met criterion counts fully, an unknown one by its prior', () => {
    const all = matchPerson(
      criteria,
      person(
        [
          fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' }),
          fact({ kind: 'smoking', name: 'smoking', status: 'absent' }),
        ],
        adult,
      ),
      today,
    );
    const some = matchPerson(criteria, person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })], adult), today);
    expect(all.score).toBeGreaterThan(some.score);
    // Age, asthma and smoking met; the site judgement unknown, usually satisfied (0.97).
    expect(all.score).toBe(0.97);
    // The non-smoking criterion unknown too (0.8): 0.97 x 0.8.
    expect(some.score).toBe(0.776);
  });
});

describe('the calibrated score (decision 131)', () => {
  const noStroke: CriterionRule = {
    type: 'condition',
    condition: 'a stroke',
    present: false,
    history: true,
    concepts: [{ id: 'mesh:D020521', name: 'a stroke' }],
  };
  const criteria: MatchCriterion[] = [
    criterion(asthma, { id: 'asthma' }),
    criterion(noStroke, { id: 'stroke', kind: 'exclusion' }),
    criterion(noMi, { id: 'mi', kind: 'exclusion', needsReview: true }),
  ];
  const hasAsthma = (source: MatchFact['source']) => fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present', source });

  it('weighs an exclusion a full note does not mention as probably clear, a file row less so, and keeps it unknown', () => {
    const fromNote = matchPerson(criteria, person([hasAsthma('note')]), today);
    const fromRow = matchPerson(criteria, person([hasAsthma('import')]), today);
    expect(fromNote.outcomes.find((item) => item.criterionId === 'stroke')?.outcome).toBe('unknown');
    expect(fromRow.outcomes.find((item) => item.criterionId === 'stroke')?.outcome).toBe('unknown');
    expect(fromNote.score).toBeGreaterThan(fromRow.score);
    expect(fromNote.summary).toMatch(/^Likely eligible \(\d+% chance\): has asthma \(clinical note\); 2 exclusions not mentioned in a full clinical note$/);
    expect(fromRow.summary).toMatch(/2 exclusions not mentioned in what is on file/);
  });

  it('says a reason once when two criteria give the same one', () => {
    const twice = [...criteria, criterion(asthma, { id: 'asthma-again' })];
    expect(matchPerson(twice, person([hasAsthma('note')]), today).summary).toMatch(/: has asthma \(clinical note\); /);
  });

  it('keeps a measure named by its acronym as written inside the sentence ("BMI 33", "eGFR 58"), and lowers a word ("age")', () => {
    const bmi: CriterionRule = { type: 'lab', measure: 'BMI', comparator: '>=', value: 30, unit: 'kg/m2' };
    const egfr: CriterionRule = { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' };
    const result = matchPerson(
      [criterion(asthma, { id: 'asthma' }), criterion(bmi, { id: 'bmi' }), criterion(egfr, { id: 'egfr' })],
      person([
        hasAsthma('note'),
        fact({ kind: 'lab', name: 'BMI', value: 33, unit: 'kg/m2', source: 'note' }),
        fact({ kind: 'lab', name: 'eGFR', value: 58, unit: 'mL/min/1.73m2', source: 'note' }),
      ]),
      today,
    );
    expect(result.summary).toContain('BMI 33');
    expect(result.summary).toContain('eGFR 58');
    expect(result.summary).not.toMatch(/bMI|EGFR/);
    expect(result.summary).toContain('has asthma');
  });

  it('an unreviewed rule not met lowers the score and flags; a reviewed one excludes', () => {
    const hadMi = fact({ kind: 'condition', name: 'a heart attack', conceptId: 'cohortly:myocardial-infarction', status: 'history', source: 'note' });
    const hadStroke = fact({ kind: 'condition', name: 'a stroke', conceptId: 'mesh:D020521', status: 'history', source: 'note' });
    const clear = matchPerson(criteria, person([hasAsthma('note')]), today);
    const flagged = matchPerson(criteria, person([hasAsthma('note'), hadMi]), today);
    const excluded = matchPerson(criteria, person([hasAsthma('note'), hadStroke]), today);
    expect(flagged).toMatchObject({ matchClass: 'possible', flagged: 1, notMetIds: ['mi'] });
    expect(flagged.score).toBeLessThan(clear.score);
    expect(flagged.summary).toMatch(/1 rule not yet reviewed says not met: had a heart attack/);
    expect(excluded).toMatchObject({ matchClass: 'excluded', flagged: 0, notMetIds: ['stroke'] });
    expect(excluded.score).toBeLessThan(flagged.score);
    expect(excluded.summary).toMatch(/^Excluded \(\d+% chance\): not met: had a stroke/);
  });

  it('an unreviewed rule that says not met costs about nine chances in ten: such rules are mostly right (decision 179)', () => {
    const hadInfarct = fact({ kind: 'condition', name: 'an old infarct', conceptId: 'cohortly:myocardial-infarction', status: 'history', source: 'note' });
    const silent = matchPerson(criteria, person([hasAsthma('note')]), today);
    const flagged = matchPerson(criteria, person([hasAsthma('note'), hadInfarct]), today);
    expect(flagged.matchClass).toBe('possible');
    expect(flagged.score / silent.score).toBeGreaterThan(0.08);
    expect(flagged.score / silent.score).toBeLessThan(0.15);
  });
});

describe("inclusions that depend on the trial's condition (decision 143)", () => {
  const target = criterion(asthma, { id: 'target', ruleSource: 'target' });
  const wheeze = criterion(
    { type: 'condition', condition: 'wheezing', present: true, concepts: [{ id: 'mesh:D012135', name: 'wheezing' }] },
    { id: 'wheeze', needsReview: true },
  );
  it('an unknown one weighs as usually met for a person who has the condition, and stays unknown in the evidence', () => {
    const withAsthma = matchPerson(
      [target, wheeze],
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present', source: 'note' })]),
      today,
    );
    expect(withAsthma.outcomes.find((item) => item.criterionId === 'wheeze')?.outcome).toBe('unknown');
    expect(withAsthma.score).toBe(0.8);
  });
  it("for a person without the condition, the doubt is the condition's and the inclusion's own prior", () => {
    const without = matchPerson([target, wheeze], person([fact({ kind: 'age', name: 'age', value: 40, source: 'note' })]), today);
    expect(without.score).toBe(0.04);
    expect(without.unknownIds).toEqual(['target', 'wheeze']);
  });
});

describe("the trial's target condition (decision 130)", () => {
  it('a condition named without its qualifier weighs as probably met, not as nothing on record', () => {
    const lumbar = criterion({
      type: 'condition',
      condition: 'disc herniation',
      present: true,
      qualifiers: ['lumbar'],
      concepts: [{ id: 'mesh:D007405', name: 'disc herniation' }],
    });
    const named = matchPerson(
      [lumbar],
      person([fact({ kind: 'condition', name: 'a slipped disc', conceptId: 'mesh:D007405', status: 'present', source: 'note' })]),
      today,
    );
    const silent = matchPerson([lumbar], person([fact({ kind: 'condition', name: 'asthma', status: 'present', source: 'note' })]), today);
    expect(named.outcomes[0].outcome).toBe('unknown');
    expect(silent.outcomes[0].outcome).toBe('unknown');
    expect(named.score).toBe(0.75);
    expect(silent.score).toBe(0.4);
  });

  const trial = { conditions: ['Asthma'], criteria: [criterion({ type: 'age', minYears: 18, maxYears: 65 }, { id: 'age' })] };
  const adult = { dateOfBirth: '1980-01-01' };

  it('is a key inclusion read from the listed conditions', () => {
    const target = targetConditionOf(trial);
    expect(target).toMatchObject({ id: TARGET_CONDITION_ID, kind: 'inclusion', rule: { type: 'condition', present: true } });
    expect(target?.rule?.type === 'condition' && target.rule.concepts?.map((concept) => concept.id)).toEqual(['mesh:D001249']);
  });

  it('no one is likely on age alone: the condition must be in their facts', () => {
    const nothing = matchTrial(trial, person([], adult), today);
    expect(nothing.matchClass).toBe('possible');
    expect(nothing.summary).toMatch(/1 key criterion not known/);
    const asthmatic = matchTrial(
      trial,
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present', source: 'note' })], adult),
      today,
    );
    expect(asthmatic.matchClass).toBe('likely');
    expect(asthmatic.score).toBeGreaterThan(nothing.score * 2);
    const denies = matchTrial(
      trial,
      person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'absent', source: 'note' })], adult),
      today,
    );
    expect(denies.matchClass).toBe('excluded');
  });

  it("a condition next to the trial's in the tree raises the chance but never meets it (decision 164)", () => {
    const pah = { conditions: ['Pulmonary Arterial Hypertension'], criteria: [criterion({ type: 'age', minYears: 18, maxYears: 65 }, { id: 'age' })] };
    const condition = (name: string, conceptId: string) => fact({ kind: 'condition', name, conceptId, status: 'present', source: 'note' });
    // Persistent fetal circulation (a newborn's pulmonary hypertension) sits beside pulmonary arterial hypertension, under
    // pulmonary hypertension (familial primary PH, the example before decision 183, is now a form of PAH).
    const sibling = matchTrial(pah, person([condition('persistent fetal circulation syndrome', 'mesh:D010547')], adult), today);
    const farAway = matchTrial(pah, person([condition('asthma', 'mesh:D001249')], adult), today);
    expect(sibling.outcomes[0]).toMatchObject({ criterionId: TARGET_CONDITION_ID, outcome: 'unknown' });
    expect(sibling.outcomes[0].reason).toMatch(/close to pulmonary arterial hypertension/i);
    expect(sibling.matchClass).toBe('possible');
    // Both from a full note: asthma says nothing of the trial's condition, the sibling hints at it.
    expect(farAway.outcomes[0]).toMatchObject({ outcome: 'unknown', factId: null });
    expect(sibling.score).toBeGreaterThan(farAway.score * 2);
    // The same for any inclusion wanting a condition, not only the trial's target: unknown, the sibling named.
    const familial = condition('persistent fetal circulation syndrome', 'mesh:D010547');
    const wanted = evaluateCriterion(
      criterion({ type: 'condition', condition: 'PAH', present: true, concepts: [{ id: 'mesh:D000081029', name: 'pulmonary arterial hypertension' }] }),
      person([familial]),
      today,
    );
    expect(wanted).toMatchObject({ outcome: 'unknown', factId: familial.id });
  });

  it('a listed condition the vocabulary does not know is kept by its words; populations are not conditions', () => {
    const target = targetConditionOf({ conditions: ['Zorblax syndrome', 'Healthy Subjects'], criteria: [] });
    expect(target?.rule).toMatchObject({ concepts: [{ name: 'Zorblax syndrome' }] });
    expect(targetConditionOf({ conditions: ['Healthy Subjects', 'Older Adults'], criteria: [] })).toBeNull();
    const named = matchTrial(
      { conditions: ['Zorblax syndrome'], criteria: [] },
      person([fact({ kind: 'condition', name: 'zorblax syndrome, mild', status: 'present' })]),
      today,
    );
    expect(named.outcomes[0]).toMatchObject({ criterionId: TARGET_CONDITION_ID, outcome: 'met' });
  });

  it('a trial that also takes healthy volunteers keeps it as key, with an even prior', () => {
    const open = matchTrial({ ...trial, healthyVolunteers: true }, person([], adult), today);
    const closed = matchTrial(trial, person([], adult), today);
    expect(open.matchClass).toBe('possible');
    expect(open.score).toBeGreaterThan(closed.score);
  });
});

describe('helpers', () => {
  it('counts whole years', () => {
    expect(ageOn('2000-06-15', today)).toBe(26);
    expect(ageOn('2000-06-16', today)).toBe(25);
  });
  it('names a concept by id or by a more specific name', () => {
    expect(factNames({ conceptId: 'a', name: 'x' }, [{ id: 'a', name: 'y' }], 'y')).toBe(true);
    expect(factNames({ conceptId: null, name: 'type 2 diabetes mellitus' }, [{ id: 'b', name: 'diabetes mellitus' }], '')).toBe(true);
    expect(factNames({ conceptId: null, name: 'diabetes' }, [{ id: 'b', name: 'type 1 diabetes' }], '')).toBe(false);
  });
});

describe('a medicine ever taken (decision 071)', () => {
  const everOpioids = {
    type: 'medication',
    medication: 'opioid pain medicines',
    taking: false,
    history: true,
    concepts: [{ id: 'cohortly:opioids', name: 'opioid pain medicines' }],
  } as const satisfies CriterionRule;

  it('a past use fails "never taken", which "not taking now" would pass', () => {
    const past = person([fact({ kind: 'medication', name: 'opioid pain medicines', conceptId: 'cohortly:opioids', status: 'history' })]);
    expect(outcome(everOpioids, past, { kind: 'exclusion' })).toBe('not_met');
    const { history: _ever, ...nowOnly } = everOpioids;
    expect(outcome(nowOnly, past, { kind: 'exclusion' })).toBe('met');
  });

  it('a yes to "Have you ever taken ...?" is recorded as past use, not as taking it now', async () => {
    const { factsFromAnswers } = await import('../../src/server/features/matching/facts');
    const [recorded] = factsFromAnswers(
      [{ criterionId: 'c1', rule: everOpioids, question: 'Have you ever taken or received opioid pain medicines?', answer: true }],
      'r1',
      '2026-06-15',
    );
    expect(recorded).toMatchObject({ kind: 'medication', conceptId: 'cohortly:opioids', status: 'history' });
  });
});

describe('the MeSH hierarchy (concept-hierarchy.ts)', () => {
  it('a more specific condition meets the general criterion, and a general exclusion catches it', () => {
    const mi = criterion({
      type: 'condition',
      condition: 'myocardial infarction',
      present: true,
      concepts: [{ id: 'mesh:D009203', name: 'myocardial infarction' }],
    });
    const noNeoplasm = criterion(
      { type: 'condition', condition: 'any malignancy', present: false, history: true, concepts: [{ id: 'mesh:D009369', name: 'neoplasms' }] },
      { kind: 'exclusion' },
    );
    const nstemi = fact({ kind: 'condition', name: 'NSTEMI', conceptId: 'mesh:D000072658', status: 'history' });
    const nsclc = fact({ kind: 'condition', name: 'NSCLC', conceptId: 'mesh:D002289', status: 'present' });
    expect(
      evaluateCriterion({ ...mi, rule: { ...(mi.rule as Extract<CriterionRule, { type: 'condition' }>), history: true } }, person([nstemi]), today).outcome,
    ).toBe('met');
    expect(evaluateCriterion(noNeoplasm, person([nsclc]), today).outcome).toBe('not_met');
    // Unrelated concepts stay apart.
    expect(
      evaluateCriterion(noNeoplasm, person([fact({ kind: 'condition', name: 'asthma', conceptId: 'mesh:D001249', status: 'present' })]), today).outcome,
    ).toBe('unknown');
  });
});

describe('a symptom is not the nervous system disease MeSH files it under (decision 179)', () => {
  const noNervousDisease = criterion(
    { type: 'condition', condition: 'a neurological disorder', present: false, concepts: [{ id: 'mesh:D009422', name: 'nervous system diseases' }] },
    { kind: 'exclusion' },
  );
  const noNeurologicSigns = criterion(
    { type: 'condition', condition: 'focal neurological signs', present: false, concepts: [{ id: 'mesh:D009461', name: 'neurologic manifestations' }] },
    { kind: 'exclusion' },
  );
  const has = (name: string, meshName: string) => person([fact({ kind: 'condition', name, conceptId: `mesh:${meshName}`, status: 'present' })]);

  it('a headache or a sore shoulder leaves "no neurological disorder" to check, never excluded by the tree alone', () => {
    expect(evaluateCriterion(noNervousDisease, has('headache', 'D006261'), today).outcome).toBe('unknown');
    expect(evaluateCriterion(noNeurologicSigns, has('shoulder pain', 'D020069'), today).outcome).toBe('unknown');
  });

  it('a disease of the nerves still excludes, and so does a symptom the exclusion names', () => {
    // Epilepsy and migraine are diseases of the nervous system, not only complaints.
    expect(evaluateCriterion(noNervousDisease, has('epilepsy', 'D004827'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(noNervousDisease, has('migraine', 'D008881'), today).outcome).toBe('not_met');
    const noHeadache = criterion(
      { type: 'condition', condition: 'headache', present: false, concepts: [{ id: 'mesh:D006261', name: 'headache' }] },
      { kind: 'exclusion' },
    );
    expect(evaluateCriterion(noHeadache, has('headache', 'D006261'), today).outcome).toBe('not_met');
  });
});

describe("an infant's age stays a fraction of a year", () => {
  const threeMonthsToTwo = { type: 'age', minYears: 0.25, maxYears: 2 } as const satisfies CriterionRule;
  const noteAge = (years: number) => person([fact({ kind: 'age', name: 'age', value: years, unit: 'years', source: 'note' })]);

  it('a 5-month-old from a note meets ">= 3 months", and the reason says months', () => {
    const judged = evaluateCriterion(criterion(threeMonthsToTwo), noteAge(0.417), today);
    expect(judged.outcome).toBe('met');
    expect(judged.reason).toMatch(/^Age 5 months .* is 3 months-2$/);
  });

  it('a 2-month-old does not, from a note or from a date of birth', () => {
    expect(outcome(threeMonthsToTwo, noteAge(0.167))).toBe('not_met');
    expect(outcome(threeMonthsToTwo, person([], { dateOfBirth: '2026-04-20' }))).toBe('not_met');
  });

  it('a baby born 5 months ago meets it from the date of birth; one born 3 months ago to the day too', () => {
    expect(outcome(threeMonthsToTwo, person([], { dateOfBirth: '2026-01-10' }))).toBe('met');
    expect(outcome(threeMonthsToTwo, person([], { dateOfBirth: '2026-03-15' }))).toBe('met');
    expect(outcome(threeMonthsToTwo, person([], { dateOfBirth: '2026-03-16' }))).toBe('not_met');
  });

  it('bounds in weeks are compared in days: 6 weeks meets ">= 6 weeks", 5 weeks does not', () => {
    const sixWeeks = { type: 'age', minYears: 0.11, maxYears: null } as const satisfies CriterionRule;
    expect(outcome(sixWeeks, person([], { dateOfBirth: '2026-05-04' }))).toBe('met');
    expect(outcome(sixWeeks, person([], { dateOfBirth: '2026-05-11' }))).toBe('not_met');
  });

  it('whole-year bounds still count completed years: 65 and a half is "up to 65", 2 years and 1 month is not "up to 2"', () => {
    expect(outcome({ type: 'age', minYears: 18, maxYears: 65 }, noteAge(65.5))).toBe('met');
    expect(outcome(threeMonthsToTwo, person([], { dateOfBirth: '2024-05-10' }))).toBe('met');
    expect(outcome({ type: 'age', minYears: null, maxYears: 1 }, person([], { dateOfBirth: '2024-05-10' }))).toBe('not_met');
  });
});

describe('"otherwise healthy" and "takes no medicines" (decision 142)', () => {
  const healthy = fact({ kind: 'condition', name: 'other medical conditions', conceptId: 'cohortly:no-other-conditions', status: 'absent', source: 'note' });
  const noMedicines = fact({ kind: 'medication', name: 'regular medicines', conceptId: 'cohortly:no-medications', status: 'absent', source: 'note' });

  it('answers an exclusion of a condition, ever or lately', () => {
    expect(outcome(noMi, person([healthy]), { kind: 'exclusion' })).toBe('met');
    const judged = evaluateCriterion(criterion(noMi, { kind: 'exclusion' }), person([healthy]), today);
    expect(judged.reason).toMatch(/^Otherwise healthy: nothing of a heart attack/);
  });

  it('never answers an inclusion, and a condition the note names decides first', () => {
    expect(outcome(asthma, person([healthy]))).toBe('unknown');
    const mi = fact({ kind: 'condition', name: 'a heart attack', conceptId: 'cohortly:myocardial-infarction', status: 'history' });
    expect(outcome(noMi, person([healthy, mi]), { kind: 'exclusion' })).toBe('not_met');
  });

  it("never answers an exclusion about the person's own illness, nor an allergy", async () => {
    const { vocabulary } = await import('../../src/server/features/trials/vocabulary');
    const concept = (words: string) => vocabulary().find(words, { reach: 'full' })[0].concept;
    const caudaEquina = concept('cauda equina syndrome');
    const noCaudaEquina = {
      type: 'condition',
      condition: 'cauda equina',
      present: false,
      concepts: [{ id: caudaEquina.id, name: 'cauda equina syndrome' }],
    } satisfies CriterionRule;
    const sciatica = fact({ kind: 'condition', name: 'sciatica', conceptId: concept('sciatica').id, status: 'present', source: 'note' });
    expect(outcome(noCaudaEquina, person([healthy]), { kind: 'exclusion' })).toBe('met');
    expect(outcome(noCaudaEquina, person([sciatica, healthy]), { kind: 'exclusion' })).toBe('unknown');
    // A symptom MeSH files under nervous system diseases only as a neurologic manifestation is not such an illness.
    const noNeurologicDisease = {
      type: 'condition',
      condition: 'neurologic disease',
      present: false,
      concepts: [{ id: concept('nervous system disease').id, name: 'nervous system diseases' }],
    } satisfies CriterionRule;
    const photophobia = fact({ kind: 'condition', name: 'photophobia', conceptId: concept('photophobia').id, status: 'present', source: 'note' });
    expect(outcome(noNeurologicDisease, person([photophobia, healthy]), { kind: 'exclusion' })).toBe('met');
    // Sciatica is a nerve disease, not only a symptom: it decides the exclusion itself.
    expect(outcome(noNeurologicDisease, person([sciatica, healthy]), { kind: 'exclusion' })).toBe('not_met');
    const noAllergy = {
      type: 'condition',
      condition: 'allergy',
      present: false,
      concepts: [{ id: 'mesh:D006967', name: 'an allergy' }],
    } satisfies CriterionRule;
    expect(outcome(noAllergy, person([healthy]), { kind: 'exclusion' })).toBe('unknown');
  });

  it('"takes no medicines" answers a medicine taken now, not a course in a past window', () => {
    const noBudesonideNow = {
      type: 'medication',
      medication: 'budesonide',
      taking: false,
      concepts: [{ id: 'rx:budesonide', name: 'budesonide' }],
    } satisfies CriterionRule;
    expect(outcome(noBudesonideNow, person([noMedicines]), { kind: 'exclusion' })).toBe('met');
    expect(outcome(noSteroidsRecently, person([noMedicines]), { kind: 'exclusion' })).toBe('unknown');
    expect(outcome(noMi, person([noMedicines]), { kind: 'exclusion' })).toBe('unknown');
  });
});

describe('a denial of a broader concept in the hierarchy', () => {
  it('"no liver disease" rules out cirrhosis', async () => {
    const { vocabulary } = await import('../../src/server/features/trials/vocabulary');
    const liver = vocabulary().find('liver disease', { reach: 'full' })[0].concept;
    const cirrhosis = vocabulary().find('liver cirrhosis', { reach: 'full' })[0].concept;
    const noCirrhosis = {
      type: 'condition',
      condition: 'cirrhosis',
      present: false,
      concepts: [{ id: cirrhosis.id, name: 'cirrhosis' }],
    } satisfies CriterionRule;
    const denied = fact({ kind: 'condition', name: 'liver disease', conceptId: liver.id, status: 'absent', source: 'note' });
    expect(outcome(noCirrhosis, person([denied]), { kind: 'exclusion' })).toBe('met');
    // Not the other way: "no cirrhosis" says nothing of every liver disease.
    const noLiver = {
      type: 'condition',
      condition: 'liver disease',
      present: false,
      concepts: [{ id: liver.id, name: 'liver disease' }],
    } satisfies CriterionRule;
    const deniedCirrhosis = fact({ kind: 'condition', name: 'cirrhosis', conceptId: cirrhosis.id, status: 'absent', source: 'note' });
    expect(outcome(noLiver, person([deniedCirrhosis]), { kind: 'exclusion' })).toBe('unknown');
  });
});

describe('disc levels as a qualifier of a spine condition (decision 183)', () => {
  const herniation = { type: 'condition', condition: 'herniated disc', present: true, span: { start: 12, end: 26 } } as const satisfies CriterionRule;
  const at = (name: string) => person([fact({ kind: 'condition', name, status: 'present' })]);
  const text = 'Symptomatic herniated disc at L4-5 or L5-S1, confirmed by imaging';

  it('meets a criterion naming levels only when the note names one of them, fails it when the note names only others', () => {
    expect(outcome(herniation, at('herniated disc (lumbar, L5-S1)'), { text })).toBe('met');
    expect(outcome(herniation, at('herniated disc (lumbar, L3-L4)'), { text })).toBe('not_met');
    expect(outcome(herniation, at('herniated disc (lumbar)'), { text })).toBe('unknown');
    // Without the criterion's words (an older caller), levels are not read.
    expect(outcome(herniation, at('herniated disc (lumbar, L3-L4)'))).toBe('met');
  });

  it('an exclusion at a level is met by a disc at another one', () => {
    const elsewhere = { ...herniation, present: false, span: { start: 10, end: 24 } } as const;
    const words = 'Excluded: herniated disc at L2-L3 on imaging';
    expect(outcome(elsewhere, at('herniated disc (L4-L5)'), { kind: 'exclusion', text: words })).toBe('met');
    expect(outcome(elsewhere, at('herniated disc (L2-L3)'), { kind: 'exclusion', text: words })).toBe('not_met');
  });

  it('reads no levels from a clause that sets them aside, or from a range', () => {
    expect(outcome(herniation, at('herniated disc (L3-L4)'), { text: 'Symptomatic herniated disc at any level other than L4-L5' })).toBe('met');
    expect(outcome(herniation, at('herniated disc (L3-L4)'), { text: 'Symptomatic herniated disc between L1-L5' })).toBe('met');
  });
});

describe('a form of a condition MeSH files beside it (decision 183)', () => {
  it('idiopathic pulmonary arterial hypertension in a note meets "pulmonary arterial hypertension"', async () => {
    const { extractNoteFacts } = await import('../../src/server/features/matching/note-extractor');
    const facts = extractNoteFacts('Known idiopathic pulmonary arterial hypertension on ambrisentan.', { today }).map((item, index) => ({
      ...item,
      id: `n${index}`,
    })) as MatchFact[];
    const pah: CriterionRule = {
      type: 'condition',
      condition: 'PAH',
      present: true,
      concepts: [{ id: 'mesh:D000081029', name: 'pulmonary arterial hypertension' }],
    };
    expect(outcome(pah, person(facts))).toBe('met');
  });
});

describe('a kind of lung cancer named in a note (decision 194)', () => {
  const nsclc: CriterionRule = {
    type: 'condition',
    condition: 'non-small cell lung cancer',
    present: true,
    concepts: [{ id: 'cohortly:nsclc', name: 'non-small cell lung cancer' }],
  };
  const sclc: CriterionRule = { ...nsclc, condition: 'small cell lung cancer', concepts: [{ id: 'cohortly:sclc', name: 'small cell lung cancer' }] };
  const lung: CriterionRule = { ...nsclc, condition: 'lung cancer', concepts: [{ id: 'mesh:D000008175', name: 'lung cancer' }] };
  const read = async (note: string) => {
    const { extractNoteFacts } = await import('../../src/server/features/matching/note-extractor');
    return person(extractNoteFacts(note, { today }).map((item, index) => ({ ...item, id: `n${index}` })) as MatchFact[]);
  };

  it('an adenocarcinoma or a squamous cell carcinoma of the lung meets "NSCLC" and "lung cancer", never "small cell"', async () => {
    for (const note of ['Stage IIIB adenocarcinoma of the lung, EGFR exon 19 deletion.', 'Squamous cell carcinoma of the lung on the right.']) {
      const who = await read(note);
      expect(outcome(nsclc, who)).toBe('met');
      expect(outcome(lung, who)).toBe('met');
      expect(outcome(sclc, who)).toBe('unknown');
    }
  });

  it('a lung cancer of no stated kind does not meet "NSCLC"', async () => {
    expect(outcome(nsclc, await read('Lung cancer found on a screening CT.'))).not.toBe('met');
  });
});

describe('an allergy to a named medicine answers allergy criteria through its class (decision 194)', () => {
  const allergyTo = (id: string, name: string): CriterionRule => ({
    type: 'condition',
    condition: `an allergy to ${name}`,
    present: true,
    concepts: [{ id: `cohortly:allergy-to:${id}`, name: `an allergy to ${name}` }],
  });
  const read = async (note: string) => {
    const { extractNoteFacts } = await import('../../src/server/features/matching/note-extractor');
    return person(extractNoteFacts(note, { today }).map((item, index) => ({ ...item, id: `n${index}` })) as MatchFact[]);
  };

  it('an allergy to ampicillin is an allergy to penicillins and a drug allergy, not to codeine', async () => {
    const who = await read('Allergies: ampicillin (hives).');
    expect(outcome(allergyTo('cohortly:penicillins', 'penicillins'), who)).toBe('met');
    const drugAllergy: CriterionRule = {
      type: 'condition',
      condition: 'drug allergy',
      present: true,
      concepts: [{ id: 'mesh:D004342', name: 'drug allergy' }],
    };
    expect(outcome(drugAllergy, who)).toBe('met');
    expect(outcome(allergyTo('mesh:D003061', 'codeine'), who)).not.toBe('met');
  });
});
