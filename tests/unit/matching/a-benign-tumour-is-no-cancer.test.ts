import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 349: a benign tumour MeSH files under Neoplasms is no cancer for any rule of cancer. New wording throughout. */
const today = new Date('2026-06-15T12:00:00Z');
const judge = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(readTextRule(kind, criterion, {}).rule as CriterionRule, kind),
    { dateOfBirth: '1966-04-08', sex: 'female', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('a benign tumour', () => {
  it('never meets a rule of cancer or malignancy', () => {
    for (const note of [
      'Convexity meningioma resected in 2016, no residual.',
      'Uterine leiomyoma on pelvic ultrasound, asymptomatic.',
      'Vestibular schwannoma followed with yearly MRI.',
      'Pleomorphic adenoma of the parotid excised in 2012.',
    ]) {
      expect(judge('exclusion', 'Prior malignancy of any kind', note), note).toBe('unknown');
      expect(judge('inclusion', 'Diagnosis of cancer', note), note).toBe('unknown');
    }
  });

  it('still meets a rule that names it, and a malignant kind still meets the rule of cancer', () => {
    expect(judge('exclusion', 'Known meningioma', 'Small convexity meningioma, watched with yearly MRI.')).toBe('not_met');
    expect(judge('exclusion', 'Prior malignancy of any kind', 'Malignant pleural mesothelioma treated in 2018.')).toBe('not_met');
    expect(judge('exclusion', 'Prior malignancy of any kind', 'Leiomyosarcoma of the thigh, resected 2020.')).toBe('not_met');
  });
});
