import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 345: major depressive disorder is its own condition, under depression. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const judge = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(readTextRule(kind, criterion, {}).rule as CriterionRule, kind),
    { dateOfBirth: '1985-05-05', sex: 'male', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe('major depressive disorder', () => {
  it('is met by a note that names it, by name or short form, and caught by any depression', () => {
    expect(judge('inclusion', 'Current episode of major depression', 'Known MDD, second episode since spring.')).toBe('met');
    expect(judge('exclusion', 'Any depressive disorder', 'Major depressive disorder, single episode, 2022.')).toBe('not_met');
  });

  it('is not met by low mood or depression named without more', () => {
    expect(judge('exclusion', 'Major depressive disorder', 'Low mood since losing his job.')).toBe('unknown');
    expect(judge('inclusion', 'Major depressive disorder', 'Depressed mood on and off for years.')).toBe('unknown');
  });
});
