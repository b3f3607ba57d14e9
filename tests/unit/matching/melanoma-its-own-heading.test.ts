import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 324: melanoma is MeSH's own heading, not the hand entry for skin cancer. Notes and criteria new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const person = (note: string): MatchPerson => ({
  dateOfBirth: '1961-09-09',
  sex: 'male',
  facts: noteFacts(note, today),
});
const outcome = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(ruleCriterion(readTextRule(kind, criterion, {}).rule as CriterionRule, kind), person(note), today).outcome;

describe('melanoma', () => {
  it('meets a melanoma inclusion, and a basal cell carcinoma does not', () => {
    expect(outcome('inclusion', 'Unresectable stage III or IV cutaneous melanoma', 'Melanoma of the scalp with lung metastases.')).not.toBe('not_met');
    expect(outcome('inclusion', 'Histologically confirmed melanoma', 'Basal cell carcinoma of the cheek, awaiting excision.')).not.toBe('met');
  });

  it('is no "non-melanoma skin cancer" an exclusion excepts, and is a malignancy', () => {
    expect(outcome('exclusion', 'Any other cancer in the last 5 years, other than non-melanoma skin cancer', 'Melanoma of the calf, on follow-up.')).toBe(
      'not_met',
    );
    expect(outcome('exclusion', 'Prior malignancy', 'Melanoma of the calf excised in 2023.')).toBe('not_met');
  });

  it('is named as melanoma in a note', () => {
    expect(extractNoteFacts('Melanoma of the calf excised in 2023.', { today }).map((fact) => fact.name)).toContain('melanoma');
  });
});
