import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 325: the year a past condition was treated, past the place it was in and without "in". Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const facts = (note: string) => extractNoteFacts(note, { today }).filter((fact) => fact.kind === 'condition');
const person = (note: string): MatchPerson => ({
  dateOfBirth: '1958-04-11',
  sex: 'female',
  facts: noteFacts(note, today),
});

describe('the year a past condition was treated', () => {
  it('is read past the place it was in, and with or without "in"', () => {
    expect(facts('Squamous cell carcinoma of the tongue resected in 2021.')[0]).toMatchObject({ observedOn: '2021-12-31' });
    expect(facts('Prior renal cell carcinoma, removed 2017.')[0]).toMatchObject({ observedOn: '2017-12-31' });
  });

  it('is never read from a place alone, or from a year of something else', () => {
    expect(facts('Melanoma of the back in a 2019 photograph.')[0]?.observedOn ?? null).toBeNull();
  });

  it('is had, not now, once taken out, and still now while the removal is planned', () => {
    expect(facts('Squamous cell carcinoma of the scalp removed 2020.')[0]).toMatchObject({ status: 'history' });
    expect(facts('Colon polyp completely excised at colonoscopy.')[0]).toMatchObject({ status: 'history' });
    expect(facts('Renal cell carcinoma, to be resected next month.')[0]).toMatchObject({ status: 'present' });
    expect(facts('Thyroid nodule, to be removed if it grows.')[0]).toMatchObject({ status: 'present' });
  });

  it('decides a window on another cancer either way', () => {
    const rule = readTextRule('exclusion', 'Another malignancy within the last 4 years', {}).rule as CriterionRule;
    const criterion = ruleCriterion(rule, 'exclusion');
    expect(evaluateCriterion(criterion, person('Renal cell carcinoma of the left kidney excised in 2024.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(criterion, person('Renal cell carcinoma of the left kidney excised in 2012.'), today).outcome).toBe('met');
  });
});
