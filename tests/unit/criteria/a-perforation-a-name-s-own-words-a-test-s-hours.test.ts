import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 378: a gastrointestinal perforation, which MeSH has no heading for, holds the bowel's, a peptic ulcer's, the
 * oesophagus' and the stomach's; a word of a concept's own name is read only beside that concept; a pregnancy test's window
 * in hours may end the criterion. New wording.
 */

const today = new Date('2026-06-15T12:00:00Z');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1965-01-01', sex: 'male', facts });
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a gastrointestinal perforation', () => {
  it('is one concept, with no word left', () => {
    expect(read('exclusion', 'Prior GI perforation within the past year')).toMatchObject({
      rule: { type: 'condition', present: false, concepts: [{ id: 'cohortly:gi-perforation' }] },
      needsReview: false,
    });
  });

  it("is met by a note's bowel perforation, and a bowel perforation alone is not any perforation", () => {
    const rule = read('exclusion', 'History of gastrointestinal tract perforation').rule!;
    const outcome = (note: string) => evaluateCriterion(ruleCriterion(rule, 'exclusion'), person(noteFacts(note, today)), today).outcome;
    expect(outcome('He had a perforated bowel repaired in 2021.')).toBe('not_met');
    const bowel = read('exclusion', 'Bowel perforation').rule!;
    expect(bowel).toMatchObject({ concepts: [{ id: 'cohortly:bowel-perforation' }] });
  });
});

describe("a word of a concept's own name", () => {
  it('is read beside its concept, never beside another item of the list', () => {
    // "Abdominal" of "intra-abdominal abscess" says nothing of the fistula, which the rule reads as any fistula.
    expect(read('exclusion', 'Abdominal fistula or intra-abdominal abscess')).toMatchObject({ needsReview: true });
    expect(read('exclusion', 'Cirrhosis of the liver').needsReview).toBe(false);
    expect(read('exclusion', 'Implanted pacemaker or defibrillator').needsReview).toBe(false);
    expect(read('exclusion', 'Substance use disorders, including alcohol, active within 3 months').needsReview).toBe(false);
  });
});

describe("a pregnancy test's window in hours, last in the criterion", () => {
  it('is when the site runs the test, no word of the rule', () => {
    expect(read('inclusion', 'Females able to bear children must have a negative urine pregnancy test within 48 hours')).toMatchObject({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: false,
    });
  });
});
