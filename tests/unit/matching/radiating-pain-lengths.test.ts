import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 259. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-03-10T12:00:00Z');
const facts = (text: string) => extractNoteFacts(text, { today });
const fromNote = matchFact('note');
const herniation = (text: string) => facts(text).find((fact) => fact.conceptId === 'mesh:D007405');
const herniationFor = (duration: { minDays?: number; maxDays?: number }): CriterionRule => ({
  type: 'condition',
  condition: 'a slipped (herniated) disc',
  present: true,
  concepts: [{ id: 'mesh:D007405', name: 'a slipped (herniated) disc' }],
  duration,
});
const outcome = (note: string, rule: CriterionRule) => {
  const read = facts(note).map(({ kind, name, conceptId, status, value, unit, valueText, observedOn }) =>
    fromNote({ kind, name, conceptId, status, value, unit, valueText, observedOn }),
  );
  return evaluateCriterion(ruleCriterion(rule, 'inclusion'), { dateOfBirth: null, sex: 'unknown', facts: read }, today).outcome;
};

const neckNote =
  '39-year-old man, a carpenter, with 5 weeks of pain in the arm running from the neck to the middle finger. ' +
  'Cervical MRI: left C6-C7 disc herniation narrowing the foramen.';
const backNote = '61-year-old woman with 7 months of right-sided sciatica. Lumbar MRI demonstrates an L5-S1 disc herniation contacting the S1 root.';

describe('a herniation seen on a scan lasts as long as the limb pain it sends down the arm or leg', () => {
  it('takes the length of the arm pain for a neck herniation and of the sciatica for a low-back one', () => {
    expect(herniation(neckNote)).toMatchObject({ value: 5, unit: 'weeks' });
    expect(herniation(backNote)).toMatchObject({ value: 7, unit: 'months' });
  });

  it('so a symptom-length criterion on the herniation is answered both ways', () => {
    expect(outcome(neckNote, herniationFor({ maxDays: 180 }))).toBe('met');
    expect(outcome(neckNote, herniationFor({ minDays: 90 }))).toBe('not_met');
    expect(outcome(backNote, herniationFor({ minDays: 90 }))).toBe('met');
    expect(outcome(backNote, herniationFor({ maxDays: 90 }))).toBe('not_met');
  });

  it('leaves the herniation undated when the pain is in another part of the spine or the lengths disagree', () => {
    const armPainLumbarDisc = '50-year-old woman with 3 months of pain down the right arm. MRI lumbar spine: L4-L5 disc herniation.';
    expect(herniation(armPainLumbarDisc)?.value ?? null).toBeNull();
    const twoLengths = '45-year-old man with 2 weeks of left leg pain and 9 months of right leg pain. MRI: lumbar L3-L4 disc herniation.';
    expect(herniation(twoLengths)?.observedOn ?? null).toBeNull();
  });

  it('does not date the herniation by a long back pain alone', () => {
    const backPainOnly = '58-year-old man with 12 years of low back pain. MRI shows a lumbar L4-L5 disc herniation.';
    expect(herniation(backPainOnly)?.value ?? null).toBeNull();
    expect(outcome(backPainOnly, herniationFor({ maxDays: 365 }))).toBe('unknown');
  });
});

// Decision 261.
describe('a herniation with pain running down the limb of its part of the spine is symptomatic', () => {
  const symptomaticLumbar: CriterionRule = {
    type: 'condition',
    condition: 'a slipped (herniated) disc',
    present: true,
    concepts: [{ id: 'mesh:D007405', name: 'a slipped (herniated) disc' }],
    qualifiers: ['symptomatic', 'lumbar'],
  };

  it('meets a trial asking for a symptomatic lumbar herniation when the note gives leg pain', () => {
    const note = '48-year-old woman with left leg pain since a fall. MRI of the low back: L5-S1 disc herniation on the left.';
    expect(herniation(note)?.name).toMatch(/symptomatic/);
    expect(outcome(note, symptomaticLumbar)).toBe('met');
  });

  it('is not said of a herniation found beside back pain alone or a pain of the other end of the spine', () => {
    expect(herniation('70-year-old man with chronic low back pain. CT: lumbar L2-L3 disc herniation.')?.name).not.toMatch(/symptomatic/);
    expect(herniation('40-year-old man with right arm pain. MRI: L4-L5 lumbar disc herniation.')?.name).not.toMatch(/symptomatic/);
  });
});
