import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { ruleCriterion } from '../../support/match-facts';

// Decision 297. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(text, { today });
const present = (text: string) =>
  facts(text)
    .filter((fact) => fact.kind === 'condition' && fact.status === 'present')
    .map((fact) => fact.name);
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: facts(text).map((fact, index) => ({ ...fact, id: `n${index}`, source: 'note' }) as MatchFact),
});
const rule = (id: string, condition: string, present: boolean): CriterionRule => ({
  type: 'condition',
  condition,
  present,
  concepts: [{ id, name: condition }],
});

const NEPHROTIC = 'nephrotic syndrome';
const CES = 'cauda equina syndrome';

describe('nephrotic syndrome from heavy proteinuria with a low albumin (decision 297)', () => {
  it.each([
    'A 61-year-old woman with puffy ankles. 24 hr urinary protein excretion: 5.2 g; albumin 2.6 g/dL.',
    'Man of 44 with frothy urine; proteinuria of 7 g/day and serum albumin 21 g/L.',
    'Seen in renal clinic, aged 38: UPCR 4.4 g/g, hypoalbuminemia, creatinine normal.',
    'Spot urine protein-to-creatinine ratio 6100 mg/g with serum albumin 1.9 g/dL in a 55-year-old.',
    'Heavy, nephrotic-range proteinuria and an albumin of 2.4 g/dL in this 29-year-old man.',
  ])('%s', (text) => {
    expect(present(text)).toContain(NEPHROTIC);
  });

  it.each([
    ['proteinuria under the threshold', 'A 52-year-old with 24-hour urine protein 2.1 g and albumin 2.7 g/dL.'],
    ['a normal albumin', 'A 47-year-old with 24-hour urine protein 4.8 g and albumin 3.6 g/dL.'],
    ['heavy proteinuria with no albumin stated', 'A 47-year-old with 24-hour urine protein 4.8 g.'],
    ['a low albumin without proteinuria', 'A 70-year-old, malnourished, albumin 2.2 g/dL.'],
    ["a day's amount the note does not say", 'A 40-year-old with proteinuria 4 g and albumin 2.5 g/dL.'],
    ['a ratio under the threshold in mg/mmol', 'A 36-year-old with uPCR 210 mg/mmol and albumin 2.8 g/dL.'],
    ["a child's albumin above the paediatric cut-off", 'A 9-year-old boy, 24-hour urine protein 3.9 g, albumin 2.8 g/dL.'],
  ])('not from %s', (_, text) => {
    expect(present(text)).not.toContain(NEPHROTIC);
  });

  it('a note that names the syndrome keeps its own reading', () => {
    expect(present('A 33-year-old with nephrotic syndrome from minimal change disease, on prednisone.')).toContain(NEPHROTIC);
  });

  it('meets an inclusion asking for nephrotic syndrome and fails an exclusion of it', () => {
    const note = 'A 58-year-old man with six weeks of swollen legs. 24-hour urine protein 9.1 g, albumin 2.0 g/dL.';
    const wanted = ruleCriterion(rule('mesh:D000009404', NEPHROTIC, true));
    const excluded = ruleCriterion(rule('mesh:D000009404', NEPHROTIC, false), 'exclusion');
    expect(evaluateCriterion(wanted, person(note), today).outcome).toBe('met');
    expect(evaluateCriterion(excluded, person(note), today).outcome).toBe('not_met');
  });
});

describe('cauda equina syndrome from a compressed cauda equina with a red flag (decision 297)', () => {
  it.each([
    'A 41-year-old roofer. CT myelogram: sequestered L4-L5 fragment compressing the cauda equina. Saddle anaesthesia on examination.',
    'Woman of 63 unable to pass urine since yesterday; MRI shows cauda equina compression from an L3-L4 extrusion.',
    'MRI: massive central disc effacing the cauda equina. Anal tone is reduced and he has faecal incontinence.',
  ])('%s', (text) => {
    expect(present(text)).toContain(CES);
  });

  it.each([
    ['a compression alone', 'MRI: broad central disc at L4-L5 compressing the cauda equina. Strength full, reflexes symmetric.'],
    ['denied red flags', 'MRI shows mild impingement of the cauda equina. No saddle anesthesia, no urinary retention, normal anal tone.'],
    ['a red flag without a compression', 'Urinary retention after his hernia repair; MRI of the lumbar spine normal.'],
    ['a compression the note rules out', 'Bladder incontinence for years from an overactive bladder. MRI without compression of the cauda equina.'],
  ])('not from %s', (_, text) => {
    expect(present(text)).not.toContain(CES);
  });

  it('fails an exclusion of cauda equina syndrome', () => {
    const note = 'A 37-year-old with perineal numbness and bilateral leg pain; MRI shows an L5-S1 extrusion compressing the cauda equina.';
    const excluded = ruleCriterion(rule('cohortly:cauda-equina-syndrome', CES, false), 'exclusion');
    expect(evaluateCriterion(excluded, person(note), today).outcome).toBe('not_met');
  });
});

describe('a condition that shows another by its definition: sciatica is leg pain (decision 297)', () => {
  const legPain = (present: boolean) => ruleCriterion(rule('cohortly:leg-pain', 'leg pain', present), present ? 'inclusion' : 'exclusion');
  const note = 'A 49-year-old electrician with five weeks of right-sided sciatica after moving furniture.';

  it('meets an inclusion asking for leg pain', () => {
    expect(evaluateCriterion(legPain(true), person(note), today).outcome).toBe('met');
  });

  it('never fails an exclusion of leg pain through the link (the reader may have narrowed it)', () => {
    expect(evaluateCriterion(legPain(false), person(note), today).outcome).toBe('unknown');
  });

  it('leaves leg pain unknown for back pain alone', () => {
    const back = 'A 49-year-old with five weeks of low back pain, no radiation.';
    expect(evaluateCriterion(legPain(true), person(back), today).outcome).toBe('unknown');
  });
});

describe('leg pain in the words spine notes use (decision 297)', () => {
  it.each([
    ['A 39-year-old with aching pain from the left buttock into the foot since March.', 'sciatica'],
    ['A 39-year-old whose pain radiates below the knee when he sits.', 'leg pain'],
  ])('%s', (text, name) => {
    expect(present(text).some((item) => item.startsWith(name))).toBe(true);
  });

  it('not from pain that stops at the thigh, nor from knee pain', () => {
    expect(present('A 39-year-old with pain from the low back to the thigh.').some((item) => /sciatica|leg pain/.test(item))).toBe(false);
    expect(present('A 39-year-old with knee pain below the kneecap.').some((item) => /sciatica|leg pain/.test(item))).toBe(false);
  });
});
