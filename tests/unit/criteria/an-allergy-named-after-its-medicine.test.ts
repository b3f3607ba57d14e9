import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 368: "penicillin allergy", "codeine and morphine allergies": medicines named before the allergy word are its
 * allergens, in a criterion and in a note, never medicines the person takes. New wording, not a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const person = (facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1970-01-01', sex: 'female', facts });
const named = (note: string) => extractNoteFacts(note).map((item) => `${item.kind}: ${item.name} (${item.status})`);
const outcomeOf = (rule: CriterionRule, facts: MatchFact[]) => evaluateCriterion(ruleCriterion(rule), person(facts), today).outcome;

describe('an allergy named after its medicines, in a criterion', () => {
  it('is an allergy to each medicine, not a medicine taken', () => {
    expect(readTextRule('exclusion', 'Documented sulfonamide or macrolide allergy')).toMatchObject({
      rule: { type: 'condition', present: false, condition: expect.stringMatching(/^an allergy to /) },
    });
    expect(readTextRule('exclusion', 'Documented sulfonamide or macrolide allergy').rule).not.toMatchObject({ type: 'medication' });
    expect(readTextRule('exclusion', 'Known cephalosporin hypersensitivity')).toMatchObject({
      rule: { type: 'condition', condition: 'an allergy to cephalosporins', present: false },
      needsReview: false,
    });
  });

  it('keeps a medicine taken apart from an allergy beside it, and a food allergy out', () => {
    expect(readTextRule('exclusion', 'Taking warfarin, penicillin allergy').rule).not.toMatchObject({
      condition: expect.stringMatching(/warfarin|blood thinner/),
    });
    expect(readTextRule('exclusion', 'Shellfish or iodine contrast allergy').rule).not.toMatchObject({
      condition: expect.stringMatching(/^an allergy to scan dye/),
    });
  });
});

describe('an allergy named after its medicines, in a note', () => {
  it('is an allergy to each medicine of the list', () => {
    expect(named('He reports codeine and tramadol allergies (hives).')).toEqual(
      expect.arrayContaining(['condition: an allergy to codeine (present)', 'condition: an allergy to tramadol (present)']),
    );
    expect(named('He reports codeine and tramadol allergies (hives).').some((line) => line.startsWith('medication:'))).toBe(false);
    expect(named('Sulfonamide-allergic since childhood.').some((line) => line.startsWith('medication:'))).toBe(false);
  });

  it('leaves a medicine taken before it, a denied allergy and an intolerance as they are', () => {
    expect(named('Takes lisinopril, penicillin allergy.')).toEqual(
      expect.arrayContaining(['medication: lisinopril (present)', 'condition: an allergy to penicillin antibiotics (such as amoxicillin) (present)']),
    );
    expect(named('No penicillin allergy.').some((line) => line.includes('penicillin'))).toBe(false);
    // Cannot take it: neither taking it nor allergic to it.
    expect(named('Metformin intolerance with diarrhoea; now on sitagliptin.').some((line) => /metformin/i.test(line))).toBe(false);
  });

  it('decides a criterion on taking the medicine, and one on the allergy', () => {
    const facts = noteFacts('Penicillin allergy (rash as a child). Otherwise well.', today);
    expect(outcomeOf(readTextRule('exclusion', 'Currently taking penicillin antibiotics').rule!, facts)).not.toBe('not_met');
    expect(outcomeOf(readTextRule('exclusion', 'Known allergy to penicillin').rule!, facts)).toBe('not_met');
  });
});
