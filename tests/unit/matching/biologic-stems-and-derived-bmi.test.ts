import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decisions 282 and 283. Every note and criterion below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const fact = matchFact('note');
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: extractNoteFacts(`48-year-old man. ${text}`, { today }).map((read, index) => fact({ ...read, id: `n${index}` } as never)),
});
const medicine = (word: string, taking: boolean): CriterionRule => ({
  type: 'medication',
  medication: word,
  taking,
  history: true,
  concepts: [{ id: `cohortly:medicine-named:${word}`, name: word }],
});

describe('a denial of every biologic clears a "-mab" medicine known only by its stem', () => {
  it.each([
    'Plaque psoriasis for 12 years; has never received a biologic.',
    'Crohn disease, biologic-naive, on azathioprine.',
    'No prior biologic therapy; methotrexate stopped for nausea.',
  ])('%s', (note) => {
    const outcome = evaluateCriterion(ruleCriterion(medicine('tralokinumab', false), 'exclusion'), person(note), today).outcome;
    expect(outcome).toBe('met');
  });

  it('never fails an inclusion that wants the antibody, and leaves a stem that is not an antibody alone', () => {
    const note = 'Has never received a biologic.';
    expect(evaluateCriterion(ruleCriterion(medicine('tralokinumab', true)), person(note), today).outcome).toBe('unknown');
    expect(evaluateCriterion(ruleCriterion(medicine('upadacitinib', false), 'exclusion'), person(note), today).outcome).toBe('unknown');
  });

  it('a denial of one kind of biologic does not clear every antibody', () => {
    const note = 'No prior TNF inhibitor.';
    expect(evaluateCriterion(ruleCriterion(medicine('tralokinumab', false), 'exclusion'), person(note), today).outcome).toBe('unknown');
  });
});

const bmiOf = (text: string) => extractNoteFacts(`55-year-old woman. ${text}`, { today }).find((read) => read.kind === 'lab' && read.name === 'BMI');

describe('the body mass index worked out from a weight and a height', () => {
  it.each([
    ['Vitals: weight 95 kg, height 172 cm, BP 128/76.', 32.1],
    ['Height 1.60 m. Weight 58 kg.', 22.7],
    ['Weighs in at weight: 210 lb; height 180 cm.', 29.4],
  ])('%s', (note, bmi) => {
    expect(bmiOf(note)?.value).toBe(bmi);
  });

  it('keeps the BMI the note states, and works none out from a bare weight, two weights or a height out of an adult span', () => {
    expect(bmiOf('Weight 70 kg, height 170 cm, BMI 24.0.')?.value).toBe(24);
    expect(bmiOf('Weight 70, height 170 cm.')).toBeUndefined();
    expect(bmiOf('Weight 90 kg in January, weight 84 kg today; height 175 cm.')).toBeUndefined();
    expect(bmiOf('Weight 20 kg, height 95 cm.')).toBeUndefined();
  });

  it('decides a BMI criterion from it', () => {
    const criterion = ruleCriterion({ type: 'lab', measure: 'BMI', comparator: '>=', value: 30, unit: 'kg/m2' });
    expect(evaluateCriterion(criterion, person('Weight 102 kg and height 176 cm.'), today).outcome).toBe('met');
    expect(evaluateCriterion(criterion, person('Weight 64 kg and height 176 cm.'), today).outcome).toBe('not_met');
  });
});
