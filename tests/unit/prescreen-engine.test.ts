import { describe, expect, it } from 'vitest';
import type { AnswerPredicate, CriterionLink, Question, QuestionType, StudyBlock } from '../../src/contract/prescreen-forms';
import { localTimeToUtc, toLocalTime } from '../../src/contract/time-zones';
import {
  ageInYears,
  evaluatePrescreen,
  normalizeAnswers,
  PrescreenInputError,
  testPredicate,
  type EngineCriterion,
  type RawAnswer,
} from '../../src/server/features/prescreen/engine';

const TODAY = '2025-06-15';

function q(id: string, type: QuestionType, links: CriterionLink[], extra: Partial<Question> = {}): Question {
  return {
    id,
    type,
    wording: { phone: { en: `Phone ${id}?` }, chat: { en: `Chat ${id}?` } },
    required: true,
    criterionLinks: links,
    ...(type === 'single_choice' || type === 'multiple_choice'
      ? { options: ['a', 'b', 'c', 'none'].map((value) => ({ value, label: { en: value.toUpperCase() } })) }
      : {}),
    ...extra,
  };
}
const link = (criterionId: string, when: AnswerPredicate, then: CriterionLink['then'], otherwise?: CriterionLink['otherwise']): CriterionLink => ({
  criterionId,
  when,
  then,
  ...(otherwise ? { otherwise } : {}),
});
const blocks = (...questions: Question[]): StudyBlock[] => [{ id: 'b1', title: { en: 'About you' }, questions }];

/** A small asthma-style form: age, diagnosis, smoking, pregnancy, medications, notes. */
const criteria: EngineCriterion[] = [
  { id: 'c-age', kind: 'inclusion', text: 'Aged 18 to 65' },
  { id: 'c-asthma', kind: 'inclusion', text: 'Diagnosed with asthma' },
  { id: 'c-smoker', kind: 'exclusion', text: 'Current smoker' },
  { id: 'c-pregnant', kind: 'exclusion', text: 'Pregnant or breastfeeding' },
];
const form = blocks(
  q('dob', 'date', [link('c-age', { op: 'age_lt', value: 18 }, 'not_met'), link('c-age', { op: 'age_gte', value: 66 }, 'not_met')]),
  q('age', 'number', [link('c-age', { op: 'between', value: 18, upper: 65 }, 'met', 'not_met')], { required: false }),
  q('asthma', 'yes_no', [link('c-asthma', { op: 'is_yes' }, 'met', 'not_met')]),
  q('smoke', 'yes_no', [link('c-smoker', { op: 'is_yes' }, 'met', 'not_met')]),
  q('pregnant', 'yes_no', [link('c-pregnant', { op: 'is_yes' }, 'met', 'not_met')]),
);
const allGood: RawAnswer[] = [
  { questionId: 'age', value: 40 },
  { questionId: 'asthma', value: 'yes', evidence: 'I was diagnosed in 2010' },
  { questionId: 'smoke', value: false },
  { questionId: 'pregnant', value: 'no' },
];
const run = (answers: RawAnswer[], input: { blocks?: StudyBlock[]; criteria?: EngineCriterion[] } = {}) =>
  evaluatePrescreen({ blocks: input.blocks ?? form, criteria: input.criteria ?? criteria, answers, today: TODAY });
const statusOf = (output: ReturnType<typeof run>, id: string) => output.evaluations.find((evaluation) => evaluation.criterionId === id)!;

describe('recommendations', () => {
  const cases: Array<[string, RawAnswer[], string]> = [
    ['every criterion satisfied', allGood, 'PASS'],
    ['an exclusion met (smoker)', allGood.map((a) => (a.questionId === 'smoke' ? { ...a, value: true } : a)), 'FAIL'],
    ['an inclusion not met (no asthma)', allGood.map((a) => (a.questionId === 'asthma' ? { ...a, value: 'no' } : a)), 'FAIL'],
    ['an inclusion not met by age from a date (17)', [{ questionId: 'dob', value: '2008-01-01' }, ...allGood.slice(1)], 'FAIL'],
    ['the call dropped after one answer', [{ questionId: 'asthma', value: true }], 'INCONCLUSIVE'],
    ['nothing answered', [], 'INCONCLUSIVE'],
    ['a disqualifying answer decides even when most are missing', [{ questionId: 'smoke', value: 'yes' }], 'FAIL'],
    ['one of four covered criteria unknown (below half)', allGood.filter((a) => a.questionId !== 'pregnant'), 'POTENTIAL'],
    ['two of four covered criteria unknown (half)', allGood.filter((a) => a.questionId !== 'pregnant' && a.questionId !== 'smoke'), 'INCONCLUSIVE'],
    ['null answers count as missing', allGood.map((a) => (a.questionId === 'pregnant' ? { ...a, value: null } : a)), 'POTENTIAL'],
  ];
  for (const [name, answers, expected] of cases) {
    it(`${name}: ${expected}`, () => expect(run(answers).recommendation).toBe(expected));
  }

  it('FAIL reasons name the criterion and the deciding answer', () => {
    const output = run(allGood.map((a) => (a.questionId === 'smoke' ? { ...a, value: true } : a)));
    expect(output.reasons).toEqual(['Exclusion "Current smoker" applies: "Chat smoke?" answered "yes"']);
    expect(statusOf(output, 'c-smoker')).toMatchObject({ status: 'met', disqualifying: true, decidingQuestionId: 'smoke', decidingAnswer: true });
  });

  it("PASS evaluations carry the deciding answer, in the criterion's terms", () => {
    const output = run(allGood);
    expect(statusOf(output, 'c-asthma')).toMatchObject({
      status: 'met',
      decidingQuestionId: 'asthma',
      decidingAnswer: true,
      reason: 'Met: "Chat asthma?" answered "yes"',
    });
    expect(statusOf(output, 'c-smoker')).toMatchObject({ status: 'not_met', disqualifying: false, reason: 'Does not apply: "Chat smoke?" answered "no"' });
    expect(output.answers.find((a) => a.questionId === 'asthma')).toEqual({
      questionId: 'asthma',
      question: 'Chat asthma?',
      type: 'yes_no',
      value: true,
      evidence: 'I was diagnosed in 2010',
    });
  });
});

describe('unknown and uncovered criteria', () => {
  it('a criterion no question covers is unknown but does not block PASS; the reasons say so', () => {
    const output = run(allGood, { criteria: [...criteria, { id: 'c-uncovered', kind: 'inclusion', text: 'Able to attend visits' }] });
    expect(output.recommendation).toBe('PASS');
    expect(statusOf(output, 'c-uncovered')).toMatchObject({ status: 'unknown', covered: false, reason: 'No question of the form covers this criterion' });
    expect(output.reasons.at(-1)).toContain('1 criterion is not asked');
  });

  it('uncovered criteria alone never make a result INCONCLUSIVE', () => {
    const many = Array.from({ length: 10 }, (_, i): EngineCriterion => ({ id: `u${i}`, kind: 'exclusion', text: `Uncovered ${i}` }));
    expect(run(allGood, { criteria: [...criteria, ...many] }).recommendation).toBe('PASS');
  });

  it('a form that links nothing is INCONCLUSIVE', () => {
    const output = run([{ questionId: 'x', value: 'a' }], { blocks: blocks(q('x', 'single_choice', [])) });
    expect(output).toMatchObject({
      recommendation: 'INCONCLUSIVE',
      reasons: ['No question of the form is linked to a criterion', '4 criteria are not asked by the form; check at the screening visit'],
    });
  });

  it('no required question answered is INCONCLUSIVE even if optional ones settle criteria', () => {
    const smallForm = blocks(
      q('req', 'yes_no', [link('c-asthma', { op: 'is_yes' }, 'met', 'not_met')]),
      q('opt', 'number', [link('c-age', { op: 'gte', value: 18 }, 'met', 'not_met')], { required: false }),
    );
    const output = run([{ questionId: 'opt', value: 30 }], { blocks: smallForm, criteria: criteria.slice(0, 2) });
    expect(output.recommendation).toBe('INCONCLUSIVE');
    expect(output.reasons).toContain('None of the required questions was answered');
  });

  it('an answer that does not trigger a link without `otherwise` decides nothing', () => {
    const output = run([{ questionId: 'dob', value: '1980-01-01' }, ...allGood.slice(1)], {
      blocks: form.map((b) => ({ ...b, questions: b.questions.filter((x) => x.id !== 'age') })),
    });
    expect(statusOf(output, 'c-age')).toMatchObject({ status: 'unknown', covered: true });
    expect(statusOf(output, 'c-age').reason).toContain('no answer to "Chat dob?" settles it');
    expect(output.recommendation).toBe('POTENTIAL');
  });
});

describe('review and conflicts', () => {
  it('a borderline value flagged review makes POTENTIAL', () => {
    const borderline = blocks(
      q('bmi', 'number', [
        link('c-bmi', { op: 'gt', value: 40 }, 'not_met'),
        link('c-bmi', { op: 'between', value: 38, upper: 40 }, 'review'),
        link('c-bmi', { op: 'lt', value: 38 }, 'met'),
      ]),
    );
    const bmiCriteria: EngineCriterion[] = [{ id: 'c-bmi', kind: 'inclusion', text: 'BMI under 40' }];
    expect(run([{ questionId: 'bmi', value: '39.5' }], { blocks: borderline, criteria: bmiCriteria })).toMatchObject({
      recommendation: 'POTENTIAL',
      reasons: ['Inclusion "BMI under 40" needs review: "Chat bmi?" answered "39.5"'],
    });
    expect(run([{ questionId: 'bmi', value: 41 }], { blocks: borderline, criteria: bmiCriteria }).recommendation).toBe('FAIL');
    expect(run([{ questionId: 'bmi', value: 30 }], { blocks: borderline, criteria: bmiCriteria }).recommendation).toBe('PASS');
  });

  it('free text linked with `answered` -> review -> POTENTIAL', () => {
    const textForm = blocks(q('meds', 'text', [link('c-meds', { op: 'answered' }, 'review')]));
    const output = run([{ questionId: 'meds', value: '  Some inhaler  ' }], {
      blocks: textForm,
      criteria: [{ id: 'c-meds', kind: 'exclusion', text: 'Uses biologics' }],
    });
    expect(output.recommendation).toBe('POTENTIAL');
    expect(output.answers[0].value).toBe('Some inhaler');
    expect(output.evaluations[0]).toMatchObject({ status: 'review', decidingQuestionId: 'meds' });
  });

  it('conflicting answers are flagged review and counted against: FAIL with "conflicting"', () => {
    const output = run([{ questionId: 'dob', value: '2010-01-01' }, { questionId: 'age', value: 30 }, ...allGood.slice(1)]);
    const age = statusOf(output, 'c-age');
    expect(age).toMatchObject({ status: 'review', conflict: true, disqualifying: true, decidingQuestionId: 'dob' });
    expect(age.reason).toMatch(/^Conflicting answers/);
    expect(age.outcomes).toEqual([
      { questionId: 'dob', outcome: 'not_met' },
      { questionId: 'age', outcome: 'met' },
    ]);
    expect(output.recommendation).toBe('FAIL');
    expect(output.reasons[0]).toContain('conflicting answers');
  });

  it('two bounds on one answer are one rule, not a conflict: over the maximum age is simply not met', () => {
    // The generator's shape for an 18-65 inclusion: two links on the date of birth, each with an otherwise.
    const range = blocks(
      q('dob', 'date', [link('c-age', { op: 'age_gte', value: 18 }, 'met', 'not_met'), link('c-age', { op: 'age_lt', value: 66 }, 'met', 'not_met')]),
    );
    const ageOnly: EngineCriterion[] = [{ id: 'c-age', kind: 'inclusion', text: 'Aged 18 to 65' }];
    const seventy = run([{ questionId: 'dob', value: '1955-01-01' }], { blocks: range, criteria: ageOnly });
    expect(seventy.evaluations[0]).toMatchObject({ status: 'not_met', conflict: false, decidingQuestionId: 'dob' });
    expect(seventy.evaluations[0].reason).toMatch(/^Not met/);
    expect(seventy.recommendation).toBe('FAIL');
    expect(run([{ questionId: 'dob', value: '1985-01-01' }], { blocks: range, criteria: ageOnly }).recommendation).toBe('PASS');
  });

  it('a definite disqualification beats a review flag on the same criterion', () => {
    const f = blocks(q('x', 'yes_no', [link('c1', { op: 'is_yes' }, 'met')]), q('y', 'text', [link('c1', { op: 'answered' }, 'review')]));
    const output = run(
      [
        { questionId: 'x', value: true },
        { questionId: 'y', value: 'maybe' },
      ],
      { blocks: f, criteria: [{ id: 'c1', kind: 'exclusion', text: 'Heart disease' }] },
    );
    expect(output.evaluations[0]).toMatchObject({ status: 'met', decidingQuestionId: 'x' });
    expect(output.recommendation).toBe('FAIL');
  });

  it('a rule that does not fit the answer type needs review instead of guessing', () => {
    const f = blocks(q('x', 'number', [link('c1', { op: 'is_yes' }, 'met', 'not_met')]));
    const output = run([{ questionId: 'x', value: 3 }], { blocks: f, criteria: [{ id: 'c1', kind: 'inclusion', text: 'Something' }] });
    expect(output.evaluations[0].status).toBe('review');
    expect(output.evaluations[0].reason).toContain('does not fit a number answer');
  });

  it('links to criteria the trial no longer has are ignored', () => {
    const f = blocks(q('x', 'yes_no', [link('gone', { op: 'is_yes' }, 'met'), link('c1', { op: 'is_yes' }, 'met', 'not_met')]));
    const output = run([{ questionId: 'x', value: true }], { blocks: f, criteria: [{ id: 'c1', kind: 'inclusion', text: 'Something' }] });
    expect(output.evaluations.map((e) => e.criterionId)).toEqual(['c1']);
    expect(output.recommendation).toBe('PASS');
  });
});

describe('predicates', () => {
  const cases: Array<[string, AnswerPredicate, QuestionType, boolean | number | string | string[], boolean | null]> = [
    ['is_yes true', { op: 'is_yes' }, 'yes_no', true, true],
    ['is_no true', { op: 'is_no' }, 'yes_no', false, true],
    ['is_no false', { op: 'is_no' }, 'yes_no', true, false],
    ['lt', { op: 'lt', value: 18 }, 'number', 17, true],
    ['lt at the bound', { op: 'lt', value: 18 }, 'number', 18, false],
    ['lte at the bound', { op: 'lte', value: 18 }, 'number', 18, true],
    ['gt', { op: 'gt', value: '40' }, 'number', 40.5, true],
    ['gte at the bound', { op: 'gte', value: 40 }, 'number', 40, true],
    ['eq number', { op: 'eq', value: 2 }, 'number', 2, true],
    ['neq number', { op: 'neq', value: 2 }, 'number', 3, true],
    ['eq option', { op: 'eq', value: 'a' }, 'single_choice', 'a', true],
    ['between inclusive low', { op: 'between', value: 18, upper: 65 }, 'number', 18, true],
    ['between inclusive high', { op: 'between', value: 18, upper: 65 }, 'number', 65, true],
    ['between outside', { op: 'between', value: 18, upper: 65 }, 'number', 66, false],
    ['date lt', { op: 'lt', value: '2025-01-01' }, 'date', '2024-12-31', true],
    ['date between', { op: 'between', value: '2025-01-01', upper: '2025-12-31' }, 'date', '2025-06-01', true],
    ['date vs number bound: not applicable', { op: 'lt', value: 5 }, 'date', '2024-12-31', null],
    ['in single choice', { op: 'in', values: ['a', 'b'] }, 'single_choice', 'b', true],
    ['in single choice miss', { op: 'in', values: ['a', 'b'] }, 'single_choice', 'c', false],
    ['in multiple choice: any of', { op: 'in', values: ['c'] }, 'multiple_choice', ['a', 'c'], true],
    ['in multiple choice: none', { op: 'in', values: ['c'] }, 'multiple_choice', ['a', 'b'], false],
    ['in multiple choice: empty answer', { op: 'in', values: ['c'] }, 'multiple_choice', [], false],
    ['age_lt: 17 the day before the 18th birthday', { op: 'age_lt', value: 18 }, 'date', '2007-06-16', true],
    ['age_lt: 18 on the birthday', { op: 'age_lt', value: 18 }, 'date', '2007-06-15', false],
    ['age_gte: 65', { op: 'age_gte', value: 65 }, 'date', '1960-06-15', true],
    ['age_gte on a number: not applicable', { op: 'age_gte', value: 65 }, 'number', 70, null],
    ['answered', { op: 'answered' }, 'text', 'anything', true],
    ['numeric compare on text: not applicable', { op: 'gt', value: 3 }, 'text', 'abc', null],
  ];
  for (const [name, predicate, type, value, expected] of cases) {
    it(name, () => expect(testPredicate(predicate, type, value, TODAY)).toBe(expected));
  }

  it('age in whole years, leap-day birthdays included', () => {
    expect(ageInYears('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageInYears('2000-02-29', '2025-03-01')).toBe(25);
    expect(ageInYears('1990-12-31', '2025-06-15')).toBe(34);
  });

  it('multiple choice through the engine: any listed condition excludes', () => {
    const f = blocks(q('conditions', 'multiple_choice', [link('c1', { op: 'in', values: ['b', 'c'] }, 'met', 'not_met')]));
    const crit: EngineCriterion[] = [{ id: 'c1', kind: 'exclusion', text: 'Heart or kidney disease' }];
    expect(run([{ questionId: 'conditions', value: ['a', 'c'] }], { blocks: f, criteria: crit }).recommendation).toBe('FAIL');
    expect(run([{ questionId: 'conditions', value: ['none'] }], { blocks: f, criteria: crit }).recommendation).toBe('PASS');
    expect(run([{ questionId: 'conditions', value: [] }], { blocks: f, criteria: crit }).recommendation).toBe('PASS');
  });
});

describe('answer validation', () => {
  const all = blocks(
    q('yn', 'yes_no', []),
    q('n', 'number', []),
    q('sc', 'single_choice', []),
    q('mc', 'multiple_choice', []),
    q('d', 'date', []),
    q('t', 'text', []),
  );
  const good: Array<[string, unknown, unknown]> = [
    ['yn', 'Yes', true],
    ['yn', 'no', false],
    ['yn', true, true],
    ['n', '12.5', 12.5],
    ['n', -3, -3],
    ['sc', 'b', 'b'],
    ['mc', ['a', 'a', 'c'], ['a', 'c']],
    ['d', '1990-02-28', '1990-02-28'],
    ['t', ' hi ', 'hi'],
    ['t', '', null],
    ['n', null, null],
  ];
  for (const [questionId, value, expected] of good) {
    it(`${questionId} accepts ${JSON.stringify(value)}`, () => {
      const result = normalizeAnswers(all, [{ questionId, value }]);
      expect(result.issues).toEqual([]);
      expect(result.answers[0].value).toEqual(expected);
    });
  }
  const bad: Array<[string, unknown]> = [
    ['yn', 'maybe'],
    ['yn', 1],
    ['n', '12 years'],
    ['n', true],
    ['sc', 'z'],
    ['sc', ['a']],
    ['mc', 'a'],
    ['mc', ['a', 'z']],
    ['d', '1990-02-30'],
    ['d', '02/03/1990'],
    ['t', 42],
  ];
  for (const [questionId, value] of bad) {
    it(`${questionId} refuses ${JSON.stringify(value)}, naming the question`, () => {
      const result = normalizeAnswers(all, [{ questionId, value }]);
      expect(result.issues).toHaveLength(1);
      expect(result.issues[0].message).toContain(`Question ${questionId}`);
    });
  }
  it('refuses unknown and repeated question ids; the engine throws', () => {
    const result = normalizeAnswers(all, [
      { questionId: 'nope', value: 1 },
      { questionId: 'n', value: 1 },
      { questionId: 'n', value: 2 },
    ]);
    expect(result.issues.map((issue) => issue.message)).toEqual(['Question nope: not a question of this form version', 'Question n: answered more than once']);
    expect(() => evaluatePrescreen({ blocks: all, criteria: [], answers: [{ questionId: 'nope', value: 1 }], today: TODAY })).toThrow(PrescreenInputError);
  });
  it('is deterministic', () => {
    expect(run(allGood)).toEqual(run(allGood));
  });
});

describe('local time in a zone -> UTC', () => {
  it('converts in winter and summer (New York)', () => {
    expect(localTimeToUtc('2030-01-15T09:30', 'America/New_York')).toEqual({ ok: true, instant: new Date('2030-01-15T14:30:00Z') });
    expect(localTimeToUtc('2030-07-15T09:30', 'America/New_York')).toEqual({ ok: true, instant: new Date('2030-07-15T13:30:00Z') });
    expect(localTimeToUtc('2030-07-15T09:30', 'Asia/Kolkata')).toEqual({ ok: true, instant: new Date('2030-07-15T04:00:00Z') });
  });
  it('refuses the skipped hour and impossible dates; takes the first of a repeated hour', () => {
    expect(localTimeToUtc('2030-03-10T02:30', 'America/New_York').ok).toBe(false);
    expect(localTimeToUtc('2030-02-30T10:00', 'America/New_York').ok).toBe(false);
    expect(localTimeToUtc('2030-11-03T01:30', 'America/New_York')).toEqual({ ok: true, instant: new Date('2030-11-03T05:30:00Z') });
  });
  it('round-trips', () => {
    const converted = localTimeToUtc('2030-03-31T08:00', 'Europe/Berlin');
    expect(converted.ok && toLocalTime(converted.instant, 'Europe/Berlin')).toBe('2030-03-31T08:00');
  });
});
