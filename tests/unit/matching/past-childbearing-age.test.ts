import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { compileTrial, matchCompact } from '../../../src/server/features/matching/compiled';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 328: a woman past childbearing age is not pregnant, without asking. Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const rule = readTextRule('exclusion', 'Currently pregnant or nursing', {}).rule as CriterionRule;
const criterion = ruleCriterion(rule, 'exclusion');
const woman = (note: string, dateOfBirth: string | null = null): MatchPerson => ({ dateOfBirth, sex: 'female', facts: noteFacts(note, today) });

describe('a pregnancy exclusion for a woman past childbearing age', () => {
  it('is met for a woman of 60 or more by her note or her date of birth, and says why', () => {
    const older = evaluateCriterion(criterion, woman('A 67-year-old woman with knee osteoarthritis.'), today);
    expect(older).toMatchObject({ outcome: 'met' });
    expect(older.reason).toMatch(/past childbearing age/);
    expect(evaluateCriterion(criterion, woman('Knee osteoarthritis.', '1958-02-11'), today).outcome).toBe('met');
  });

  it('stays unknown for a younger woman, or one whose age is not known; a pregnancy on record still decides', () => {
    expect(evaluateCriterion(criterion, woman('A 48-year-old woman with knee osteoarthritis.'), today).outcome).toBe('unknown');
    expect(evaluateCriterion(criterion, woman('Knee osteoarthritis.'), today).outcome).toBe('unknown');
    expect(evaluateCriterion(criterion, woman('A 61-year-old woman, currently pregnant after IVF.'), today).outcome).toBe('not_met');
  });

  it('is the same in the match run', () => {
    const trial = compileTrial([{ ...criterion, id: 'c1' }], today);
    const person = {
      dateOfBirth: '1950-05-05',
      sex: 'female' as const,
      completeness: 2,
      start: 0,
      end: 0,
      columns: { sig: new Int32Array(0), value: new Float64Array(0), hasValue: new Uint8Array(0), day: new Int32Array(0) },
    };
    expect(matchCompact(trial, person)).toMatchObject({ metCount: 1, unknownIds: [] });
    expect(matchCompact(trial, { ...person, dateOfBirth: '1990-05-05' })).toMatchObject({ metCount: 0, unknownIds: ['c1'] });
  });
});
