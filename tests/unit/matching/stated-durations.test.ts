import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchCriterion } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 230. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(`47-year-old man. ${text}`, { today });
const fromNote = matchFact('note');
const asMatchFacts = (read: ReturnType<typeof facts>) =>
  read.map(({ kind, name, conceptId, status, value, unit, valueText, observedOn }) =>
    fromNote({ kind, name, conceptId, status, value, unit, valueText, observedOn }),
  );
const condition = (text: string, name: RegExp) => facts(text).find((fact) => fact.kind === 'condition' && name.test(fact.name));

const criterion = ruleCriterion;
const neckPain = (duration: { minDays?: number; maxDays?: number }, present = true): CriterionRule => ({
  type: 'condition',
  condition: 'neck pain',
  present,
  concepts: [{ id: 'mesh:D019547', name: 'neck pain' }],
  duration,
});
const outcome = (note: string, rule: CriterionRule, kind: MatchCriterion['kind'] = 'inclusion') =>
  evaluateCriterion(criterion(rule, kind), { dateOfBirth: null, sex: 'unknown', facts: asMatchFacts(facts(note)) }, today).outcome;

describe('the note reader keeps how long a condition has lasted when the note states a length', () => {
  it.each([
    ['Ten days of neck pain after lifting a suitcase.', 10, 'days'],
    ['Neck pain for the last 5 weeks, worse at night.', 5, 'weeks'],
    ['He reports a 4-month history of neck pain.', 4, 'months'],
    ['Neck pain x 2 wks.', 2, 'weeks'],
  ])('%s', (text, value, unit) => {
    const fact = condition(text, /neck pain/);
    expect(fact?.value).toBe(value);
    expect(fact?.unit).toBe(unit);
  });

  it.each([
    'Neck pain for at least 3 months.',
    'More than 6 weeks of neck pain.',
    'Neck pain since 2024.',
    'Neck pain, started 3 weeks ago.',
    'Six weeks of physical therapy for neck pain.',
  ])('a bound, a year or an event dates the start but is not a length: %s', (text) => {
    const fact = condition(text, /neck pain/);
    expect(fact?.observedOn).not.toBeNull();
    expect(fact?.value).toBeNull();
  });
});

describe('a stated length answers a duration from both sides', () => {
  it('meets a maximum the length stays under, and leaves one it may pass unknown', () => {
    expect(outcome('Three weeks of neck pain.', neckPain({ maxDays: 90 }))).toBe('met');
    expect(outcome('Neck pain for 5 months.', neckPain({ maxDays: 365 }))).toBe('met');
    // "3 months" may be 3 months and 3 weeks: not under "at most 100 days".
    expect(outcome('Neck pain for 3 months.', neckPain({ maxDays: 100 }))).toBe('unknown');
    // A length longer than the maximum fails it, as a dated start always did.
    expect(outcome('Neck pain for 2 years.', neckPain({ maxDays: 365 }))).toBe('not_met');
  });

  it('fails a minimum the length falls short of, and only then', () => {
    expect(outcome('Neck pain for 4 weeks.', neckPain({ minDays: 42 }))).toBe('not_met');
    expect(outcome('Neck pain for 5 weeks.', neckPain({ minDays: 42 }))).toBe('not_met');
    // "2 months" may be 2 months and 3 weeks: not known to be short of 10 weeks.
    expect(outcome('Neck pain for 2 months.', neckPain({ minDays: 70 }))).toBe('unknown');
    expect(outcome('Neck pain for 8 weeks.', neckPain({ minDays: 42 }))).toBe('met');
  });

  it('decides a range from both ends', () => {
    expect(outcome('Seven weeks of neck pain.', neckPain({ minDays: 42, maxDays: 365 }))).toBe('met');
    expect(outcome('Two weeks of neck pain.', neckPain({ minDays: 42, maxDays: 365 }))).toBe('not_met');
  });

  it('leaves a bound or a start without a length as before: a maximum stays unknown', () => {
    expect(outcome('Neck pain for at least 3 weeks.', neckPain({ maxDays: 90 }))).toBe('unknown');
    expect(outcome('Neck pain, started 3 weeks ago.', neckPain({ maxDays: 90 }))).toBe('unknown');
    expect(outcome('Neck pain for at least 3 weeks.', neckPain({ minDays: 60 }))).toBe('unknown');
  });

  it('clears an exclusion of a long-standing condition for a recent one', () => {
    expect(outcome('Neck pain for 10 days.', neckPain({ minDays: 90 }, false), 'exclusion')).toBe('met');
    expect(outcome('Neck pain for 10 months.', neckPain({ minDays: 90 }, false), 'exclusion')).toBe('not_met');
  });
});
