import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 300: the adult age group written in words, with no number, is at least 18 years (the common legal adult
 * age); where the text says the country sets it, a person checks the bound. New wording, not corpus sentences.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const atLeast18 = { rule: { type: 'age', minYears: 18, maxYears: null } };

describe('the adult age written in words', () => {
  it('reads "adults", "of legal age" and "of full age of consent" as at least 18 years', () => {
    for (const text of ['Adult subjects', 'All adult individuals', 'Persons of legal age', 'Participant of full age', 'Reached the age of majority'])
      expect(read('inclusion', text), text).toMatchObject({ ...atLeast18, needsReview: false });
  });

  it('leaves the bound to a person where the law of the place sets it', () => {
    expect(read('inclusion', 'Of legal age according to local law')).toMatchObject({ ...atLeast18, needsReview: true });
  });

  it('never reads an age from "adult" inside the name of a condition', () => {
    for (const text of ['Adult-onset Still disease', 'Adult onset diabetes', 'Adult respiratory distress syndrome'])
      expect(read('inclusion', text).rule?.type ?? null, text).not.toBe('age');
  });

  it('never reads the age of majority from "N years of age"', () => {
    for (const text of ['Infants 6 months of age or younger', 'Subjects 40 years of age or above', '5 to 3 years of age'])
      expect(read('inclusion', text).rule, text).not.toMatchObject({ minYears: 18 });
    expect(read('inclusion', '5 to 3 years of age').rule?.type ?? null).not.toBe('site_judgement');
  });

  it('never turns the adult age into an exclusion of adults', () => {
    expect(read('exclusion', 'Adult volunteers').rule?.type ?? null).not.toBe('age');
  });
});
