import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 330: a year alone after a condition, as problem lists write it, dates it. Wording new to this file. */
const today = new Date('2026-06-15T12:00:00Z');
const dated = (note: string, name: string) => extractNoteFacts(note, { today }).find((fact) => fact.name === name)?.observedOn;

describe('a year alone after a condition', () => {
  it('dates the condition when it closes its item in a list or a bracket', () => {
    expect(dated('Past history: ovarian cancer 2009, hypothyroidism.', 'ovarian cancer')).toBe('2009-12-31');
    expect(dated('Prostate cancer (2018) on surveillance.', 'prostate cancer')).toBe('2018-12-31');
  });

  it('reads no year that begins more words, nor one still to come', () => {
    expect(dated('Migraine 2015 to 2019, none since.', 'migraine')).toBeNull();
    expect(dated('Ovarian cancer 2029.', 'ovarian cancer')).toBeNull();
  });

  it('decides a window on another cancer', () => {
    const rule = readTextRule('exclusion', 'Any other malignancy diagnosed within the past 5 years', {}).rule as CriterionRule;
    const person = (note: string): MatchPerson => ({ dateOfBirth: '1955-01-01', sex: 'female', facts: noteFacts(note, today) });
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person('Ovarian cancer 2009, in remission.'), today).outcome).toBe('met');
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person('Ovarian cancer 2024, in remission.'), today).outcome).toBe('not_met');
  });
});
