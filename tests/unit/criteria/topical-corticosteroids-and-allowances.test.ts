import { describe, expect, it } from 'vitest';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 373: a corticosteroid put on the skin is its own medicine, never the steroid pills a criterion of systemic
 * steroids means; a cream's strength in percent is no lab value; what a criterion allows is no alternative of what it
 * refuses. New wording, not a record's.
 */

const today = new Date('2026-06-15T12:00:00Z');
const medicines = (note: string) =>
  extractNoteFacts(note)
    .filter((item) => item.kind === 'medication')
    .map((item) => item.name);
const outcome = (criterion: string, note: string) => {
  const person: MatchPerson = { dateOfBirth: '1990-01-01', sex: 'female', facts: noteFacts(note, today) };
  return evaluateCriterion(ruleCriterion(readTextRule('exclusion', criterion).rule!, 'exclusion'), person, today).outcome;
};

describe('a topical corticosteroid', () => {
  it('is read from a criterion as itself, not as steroid pills', () => {
    expect(readTextRule('exclusion', 'Use of topical steroids on the face within 7 days of baseline').rule).toMatchObject({
      type: 'medication',
      medication: 'a steroid cream or ointment (topical corticosteroid)',
      taking: false,
    });
    expect(readTextRule('exclusion', 'Oral or topical corticosteroids in the past month').rule).toMatchObject({
      concepts: expect.arrayContaining([expect.objectContaining({ id: 'cohortly:topical-corticosteroids' })]),
    });
  });

  it('is read from a note by its name or as a corticosteroid in a cream, with its strength', () => {
    expect(medicines('Eczema managed with topical steroids as needed.')).toContain('a steroid cream or ointment (topical corticosteroid)');
    expect(medicines('Applies betamethasone 0.1% ointment to the elbows.')).toEqual(['a steroid cream or ointment (topical corticosteroid)']);
    // A cream of another medicine keeps its own words, with its strength.
    expect(medicines('Uses terbinafine 1% cream between the toes.')).toEqual(['terbinafine cream']);
  });

  it('decides a criterion on topical steroids, and leaves one on steroid pills to the pills', () => {
    expect(outcome('Topical corticosteroids within 2 weeks', 'Applies betamethasone 0.1% ointment daily.')).toBe('not_met');
    expect(outcome('Systemic corticosteroids within 2 weeks', 'Applies betamethasone 0.1% ointment daily.')).not.toBe('not_met');
  });
});

describe('what a criterion allows', () => {
  it('is no alternative of what it refuses', () => {
    const read = readTextRule('exclusion', 'Systemic corticosteroids in the last month (inhaled corticosteroids are permitted)');
    expect(read.rule).toMatchObject({ type: 'medication', medication: 'steroid pills or injections (such as prednisone)' });
    expect(read.rule).not.toMatchObject({ medication: expect.stringMatching(/inhaler/) });
    // Nor a requirement of its own.
    expect(readTextRule('inclusion', 'A history of treated basal cell carcinoma is acceptable').rule).not.toMatchObject({ present: true });
    // What is not allowed is refused, as before.
    expect(readTextRule('exclusion', 'Concurrent warfarin is not permitted').rule).toMatchObject({ type: 'medication', taking: false });
  });
});
