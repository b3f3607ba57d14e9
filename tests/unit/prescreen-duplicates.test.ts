import { describe, expect, it } from 'vitest';
import type { CriterionLink, Question, StudyBlock } from '../../src/contract/prescreen-forms';
import { applyDeduplication, detectDuplicates, stem, tokens } from '../../src/server/features/prescreen-forms/duplicates';
import { AppError } from '../../src/server/http/errors';

const q = (id: string, type: Question['type'], en: string, links: CriterionLink[] = [], extra: Partial<Question> = {}): Question => ({
  id,
  type,
  wording: { phone: { en }, chat: { en } },
  required: true,
  criterionLinks: links,
  ...extra,
});
const block = (id: string, ...questions: Question[]): StudyBlock => ({ id, title: { en: id }, questions });
const sexOptions = [
  { value: 'f', label: { en: 'Female' } },
  { value: 'm', label: { en: 'Male' } },
];

describe('normalizing wording', () => {
  it('lowercases, strips punctuation, accents and stop words, and stems', () => {
    expect(tokens('Have you EVER been diagnosed with Diabetes?')).toEqual(['diagnos', 'diabet']);
    expect(stem('medications')).toBe('medic');
    expect(tokens('¿Cuál es su fecha?')).toEqual(['cual', 'es', 'su', 'fecha']);
  });
});

describe('unrelated questions that merely share words', () => {
  it('never pairs date of birth with sex at birth, ANC with platelets, or two conditions asked alike', () => {
    const form = [
      block(
        'about',
        q('dob', 'date', 'What is your date of birth?'),
        q('sex', 'single_choice', 'What sex were you assigned at birth?', [], { options: sexOptions }),
      ),
      block(
        'medical',
        q('t2d', 'yes_no', 'Have you been told by a doctor that you have type 2 diabetes?'),
        q('copd', 'yes_no', 'Have you been told by a doctor that you have COPD?'),
        q('mi', 'yes_no', 'In the last 6 months, have you had a heart attack?'),
        q('stroke', 'yes_no', 'In the last 6 months, have you had a stroke?'),
      ),
      block(
        'site-review',
        q('anc', 'number', 'Staff: most recent ANC (10^9/L)?', [], { unit: '10^9/L' }),
        q('plt', 'number', 'Staff: most recent platelets (10^9/L)?', [], { unit: '10^9/L' }),
      ),
    ];
    expect(detectDuplicates(form)).toEqual([]);
    // The same thing asked twice is still found.
    const twice = [
      block(
        'a',
        q('t2d', 'yes_no', 'Have you been told by a doctor that you have type 2 diabetes?'),
        q('t2d-again', 'yes_no', 'Has a doctor told you that you have type 2 diabetes?'),
      ),
    ];
    expect(detectDuplicates(twice).map((pair) => [pair.questionA, pair.questionB])).toEqual([['t2d', 't2d-again']]);
  });
});

describe('detecting duplicates', () => {
  const blocks = [
    block(
      'about',
      q('dob', 'date', 'What is your date of birth?', [{ criterionId: 'c1', when: { op: 'age_gte', value: 18 }, then: 'met' }]),
      q('preg-1', 'yes_no', 'Are you pregnant?', [{ criterionId: 'c3', when: { op: 'is_yes' }, then: 'met' }]),
    ),
    block(
      'history',
      q('birth', 'date', 'When were you born?'),
      q('asthma', 'yes_no', 'Have you been diagnosed with asthma?'),
      q('asthma-2', 'yes_no', 'Have you ever been diagnosed with Asthma!'),
      q('copd', 'yes_no', 'Have you been diagnosed with COPD?'),
      q('preg-2', 'yes_no', 'Are you currently breastfeeding or pregnant?', [{ criterionId: 'c3', when: { op: 'is_yes' }, then: 'met' }]),
    ),
  ];

  it('finds the pairs with a score and a human reason, and skips different subjects', () => {
    const pairs = detectDuplicates(blocks, { criterionLabel: (id) => `criterion ${id.slice(1)}` });
    const byPair = new Map(pairs.map((pair) => [`${pair.questionA}+${pair.questionB}`, pair]));
    expect(byPair.get('asthma+asthma-2')).toMatchObject({ blockA: 'history', blockB: 'history', score: 1, reason: 'Same wording after normalization' });
    expect(byPair.get('dob+birth')).toMatchObject({ blockA: 'about', blockB: 'history', reason: 'Both ask about date of birth' });
    expect(byPair.get('dob+birth')!.score).toBeGreaterThanOrEqual(0.9);
    expect(byPair.get('preg-1+preg-2')).toMatchObject({ reason: 'Both linked to criterion 3 and ask a yes/no about pregnancy' });
    expect(byPair.has('asthma+copd')).toBe(false);
    for (const pair of pairs) expect(pair.score).toBeGreaterThanOrEqual(0.6);
    expect(pairs.map((pair) => pair.score)).toEqual([...pairs.map((pair) => pair.score)].sort((a, b) => b - a));
    expect(detectDuplicates(blocks)).toEqual(detectDuplicates(blocks));
  });

  it('scores related wording with boosts for type, unit and a shared criterion', () => {
    const labs = [
      block(
        'labs',
        q('a', 'number', 'What was your most recent HbA1c result?', [], { unit: '%' }),
        q('b', 'number', 'Latest HbA1c value, if you know it?', [], { unit: '%' }),
      ),
    ];
    const [pair] = detectDuplicates(labs);
    expect(pair).toMatchObject({ questionA: 'a', questionB: 'b' });
    expect(pair.reason).toBe('Similar wording (shared words: recent, hba1c, result)');
    expect(pair.score).toBe(0.95);
  });
});

describe('measurements in different units', () => {
  it('are not duplicates, however alike the generated wording', () => {
    const labs = [
      block(
        'history',
        q('bmi', 'number', 'What was your most recent BMI result, if you are sure of it?', [], { unit: 'kg/m2' }),
        q('egfr', 'number', 'What was your most recent eGFR result, if you are sure of it?', [], { unit: 'mL/min' }),
        q('egfr-again', 'number', 'What was your latest eGFR reading?', [], { unit: 'mL/min' }),
      ),
    ];
    const pairs = detectDuplicates(labs).map((pair) => `${pair.questionA}~${pair.questionB}`);
    expect(pairs).not.toContain('bmi~egfr');
    expect(pairs).not.toContain('bmi~egfr-again');
    expect(pairs).toContain('egfr~egfr-again');
  });
});

describe('applying deduplication', () => {
  it('moves every criterion link to the kept question, rewrites option values, removes empty blocks', () => {
    const blocks = [
      block(
        'one',
        q('sex-a', 'single_choice', 'What is your sex?', [{ criterionId: 'c1', when: { op: 'in', values: ['f'] }, then: 'met', otherwise: 'not_met' }], {
          options: sexOptions,
        }),
      ),
      block(
        'two',
        q(
          'sex-b',
          'single_choice',
          'Your sex?',
          [
            { criterionId: 'c2', when: { op: 'in', values: ['female'] }, then: 'not_met', otherwise: 'met' },
            { criterionId: 'c1', when: { op: 'in', values: ['female'] }, then: 'met', otherwise: 'not_met' },
          ],
          {
            options: [
              { value: 'female', label: { en: 'female' } },
              { value: 'male', label: { en: 'Male' } },
            ],
            required: false,
          },
        ),
      ),
    ];
    const { blocks: merged, notes } = applyDeduplication(blocks, [{ keep: 'sex-a', remove: 'sex-b' }]);
    expect(merged.map((item) => item.id)).toEqual(['one']);
    expect(merged[0].questions[0].criterionLinks).toEqual([
      { criterionId: 'c1', when: { op: 'in', values: ['f'] }, then: 'met', otherwise: 'not_met' },
      { criterionId: 'c2', when: { op: 'in', values: ['f'] }, then: 'not_met', otherwise: 'met' },
    ]);
    expect(notes).toEqual([]);
    // The input is untouched.
    expect(blocks[1].questions).toHaveLength(1);
  });

  it('keeps a link that cannot be read by the kept question as review, with a note; follows chains', () => {
    const blocks = [
      block(
        'a',
        q('dob', 'date', 'Date of birth?', [{ criterionId: 'c1', when: { op: 'age_gte', value: 18 }, then: 'met', otherwise: 'not_met' }]),
        q('age', 'number', 'How old are you?', [{ criterionId: 'c2', when: { op: 'gte', value: 65 }, then: 'met' }]),
        q('born', 'date', 'When were you born?', [{ criterionId: 'c3', when: { op: 'age_lt', value: 80 }, then: 'met' }]),
      ),
    ];
    const { blocks: merged, notes } = applyDeduplication(blocks, [
      { keep: 'born', remove: 'age' },
      { keep: 'dob', remove: 'born' },
    ]);
    expect(merged[0].questions.map((item) => item.id)).toEqual(['dob']);
    expect(merged[0].questions[0].criterionLinks).toEqual([
      { criterionId: 'c1', when: { op: 'age_gte', value: 18 }, then: 'met', otherwise: 'not_met' },
      { criterionId: 'c3', when: { op: 'age_lt', value: 80 }, then: 'met' },
      { criterionId: 'c2', when: { op: 'answered' }, then: 'review' },
    ]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('criterion c2');
    const linked = (list: StudyBlock[]) =>
      new Set(list.flatMap((item) => item.questions.flatMap((question) => question.criterionLinks.map((link) => link.criterionId))));
    expect(linked(merged)).toEqual(linked(blocks));
  });

  it('answers 400 naming the pair for unknown or self-merging ids', () => {
    const blocks = [block('a', q('x', 'yes_no', 'X?'))];
    expect(() => applyDeduplication(blocks, [{ keep: 'x', remove: 'nope' }])).toThrowError(/pairs\.0\.remove: No question "nope"/);
    try {
      applyDeduplication(blocks, [{ keep: 'x', remove: 'x' }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
    }
  });
});
