import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 338: a condition MeSH files apart is no synonym of its neighbour; a word after "or" takes the first word. */
const today = new Date('2026-06-15T12:00:00Z');
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const judge = (criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(read('exclusion', criterion).rule as CriterionRule, 'exclusion'),
    { dateOfBirth: '1955-09-09', sex: 'male', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('a condition MeSH files apart', () => {
  it('is not refused by its neighbour', () => {
    expect(judge('Shingles in the past year', 'Had chickenpox at age 6. Hypertension, on amlodipine.')).toBe('unknown');
    expect(judge('Shingles in the past year', 'Herpes zoster rash on the left flank, started on valacyclovir today.')).toBe('not_met');
    expect(judge('Known atrial fibrillation', 'Atrial flutter, ablated in 2021; in sinus rhythm since.')).toBe('unknown');
    expect(judge('Known atrial fibrillation', 'Permanent atrial fibrillation, rate controlled.')).toBe('not_met');
  });

  it('is read by its own name', () => {
    expect(read('exclusion', 'Active bullous pemphigoid').rule).toMatchObject({ condition: 'bullous pemphigoid' });
    expect(read('exclusion', 'Tardive dyskinesia of any severity').rule).toMatchObject({ condition: 'tardive dyskinesia' });
  });
});

describe('a word after "or" that is no condition alone', () => {
  it('names the condition it forms with the first word of the one before', () => {
    const reading = read('exclusion', 'History of atrial fibrillation or flutter');
    expect(reading.rule).toMatchObject({ type: 'condition', condition: 'atrial fibrillation or atrial flutter', present: false });
    expect(reading.needsReview).toBe(false);
    expect(judge('History of atrial fibrillation or flutter', 'Atrial flutter, ablated in 2021.')).toBe('not_met');
  });
});
