import { describe, expect, it } from 'vitest';
import { candidateFieldOf, knownAnswerOf, profileValueOf, type Question } from '../../src/contract/prescreen-forms';

/** Questions that ask for what the candidate record holds: chat answers fill the record, a manual prescreen is pre-filled from it. */

const question = (overrides: Partial<Question>): Question => ({
  id: 'q',
  type: 'text',
  wording: { phone: { en: 'Question?' }, chat: { en: 'Question?' } },
  required: true,
  criterionLinks: [],
  ...overrides,
});

const dob = question({ id: 'dob', type: 'date', wording: { phone: { en: 'When were you born?' }, chat: { en: 'What is your date of birth?' } } });
const ageRule = question({ id: 'age', type: 'date', criterionLinks: [{ criterionId: 'c1', when: { op: 'age_gte', value: 18 }, then: 'met' }] });
const sex = question({
  id: 'sex',
  type: 'single_choice',
  wording: { phone: { en: 'What is your sex?' }, chat: { en: 'What is your sex?' } },
  options: [
    { value: 'female', label: { en: 'Female' } },
    { value: 'male', label: { en: 'Male' } },
  ],
});
const smoker = question({ id: 'smoker', type: 'yes_no', wording: { phone: { en: 'Do you smoke?' }, chat: { en: 'Do you smoke?' } } });
const known = { dateOfBirth: '1970-03-15', sex: 'female', preferredLanguage: 'en', email: null, phone: null, customFields: { Smoker: 'Y', notes: 'x' } };

describe('questions that are candidate fields', () => {
  it('are recognized by wording, by an age rule, or by their explicit field', () => {
    expect(candidateFieldOf(dob)).toBe('dateOfBirth');
    expect(candidateFieldOf(ageRule)).toBe('dateOfBirth');
    expect(candidateFieldOf(sex)).toBe('sex');
    expect(candidateFieldOf(smoker)).toBeNull();
    expect(candidateFieldOf(question({ candidateField: 'email' }))).toBe('email');
  });

  it('turn answers into candidate values', () => {
    expect(profileValueOf(dob, 'dateOfBirth', '1970-03-15')).toBe('1970-03-15');
    expect(profileValueOf(dob, 'dateOfBirth', null)).toBeNull();
    expect(profileValueOf(sex, 'sex', 'female')).toBe('female');
  });

  it('are pre-filled from the record and from custom fields named like the question', () => {
    expect(knownAnswerOf(dob, known)).toEqual({ value: '1970-03-15', from: 'date of birth' });
    expect(knownAnswerOf(sex, known)).toEqual({ value: 'female', from: 'sex' });
    expect(knownAnswerOf(smoker, known)).toEqual({ value: true, from: 'Smoker' });
    expect(knownAnswerOf(dob, { ...known, dateOfBirth: null })).toBeNull();
    expect(knownAnswerOf(sex, { ...known, sex: 'unknown' })).toBeNull();
  });
});
