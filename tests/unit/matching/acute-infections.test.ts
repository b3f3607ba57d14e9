import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { ruleCriterion } from '../../support/match-facts';

// Decision 298. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(text, { today });
const named = (text: string) =>
  facts(text)
    .filter((fact) => fact.kind === 'condition' && fact.status !== 'absent')
    .map((fact) => fact.name);
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: facts(text).map((fact, index) => ({ ...fact, id: `n${index}`, source: 'note' }) as MatchFact),
});
const acuteIllness = ruleCriterion(
  {
    type: 'condition',
    condition: 'an infection that needs treatment',
    present: false,
    qualifiers: ['acute'],
    concepts: [{ id: 'mesh:D000007239', name: 'an infection that needs treatment' }],
  } satisfies CriterionRule,
  'exclusion',
);

describe('an infection acute by its nature, had now, is acute', () => {
  it.each([
    ['A 74-year-old man in the ward since Tuesday; swab positive for influenza A.', /flu.*\(acute\)/],
    ['Woman of 59, nasal swab PCR detected respiratory syncytial virus.', /RSV infection \(acute\)/],
    ['A 33-year-old nurse with COVID-19 confirmed by antigen test this morning.', /COVID-19 \(acute\)/],
    ['A 41-year-old man with a sore throat and a fever of 38.9 since last night.', /\(acute\)/],
  ])('%s', (text, name) => {
    expect(named(text).some((item) => name.test(item))).toBe(true);
  });

  it.each([
    ['an infection that may be chronic', 'A 50-year-old with hepatitis C, genotype 1, untreated.'],
    ['a past infection', 'A 46-year-old who had COVID-19 in 2021, fully recovered.'],
    ['an infection that began long ago', 'A 62-year-old with COVID-19 diagnosed 3 months ago and fatigue since.'],
    ['a fever the note calls recurrent', 'A 19-year-old with recurrent fevers since childhood.'],
  ])('not %s', (_, text) => {
    expect(named(text).some((item) => /\(acute\)|\bacute\b/.test(item))).toBe(false);
  });

  it('fails an exclusion of an acute illness and leaves a person without one unknown', () => {
    expect(evaluateCriterion(acuteIllness, person('A 68-year-old woman admitted with 2 days of cough and fever.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(acuteIllness, person('A 68-year-old woman seen for a yearly review; hypertension.'), today).outcome).toBe('unknown');
  });

  it('leaves an exclusion of a chronic infection unknown for an acute one', () => {
    const chronic = ruleCriterion(
      {
        type: 'condition',
        condition: 'an infection that needs treatment',
        present: false,
        qualifiers: ['chronic'],
        concepts: [{ id: 'mesh:D000007239', name: 'an infection that needs treatment' }],
      } satisfies CriterionRule,
      'exclusion',
    );
    expect(evaluateCriterion(chronic, person('Man of 30, influenza B on a rapid test today.'), today).outcome).toBe('unknown');
  });
});

describe('a measured fever is an acute illness (decision 298)', () => {
  const feverish = (text: string) => named(text).some((item) => /\(acute\)/.test(item));
  it.each(['Vitals: temperature 38.3 C, pulse 104.', 'On arrival T 101.6 F and shivering.', 'Tmax 39.0 in the last 24 hours.'])('%s', (text) => {
    expect(feverish(`A 52-year-old woman. ${text}`)).toBe(true);
  });

  it.each(['Temperature 37.4 C, afebrile.', 'Temp 99.5 F.', 'A T2 lesion measuring 39 mm.'])('not from %s', (text) => {
    expect(feverish(`A 52-year-old woman. ${text}`)).toBe(false);
  });

  it('fails an exclusion of an acute illness', () => {
    expect(evaluateCriterion(acuteIllness, person('A 70-year-old man, temperature 38.7 C this morning.'), today).outcome).toBe('not_met');
  });
});

describe('a spinal injection the note dates was given that day (decision 298)', () => {
  const injection = (weeks: number) =>
    ruleCriterion(
      {
        type: 'medication',
        medication: 'a spinal (epidural) injection',
        taking: false,
        within: { value: weeks, unit: 'weeks' },
        concepts: [{ id: 'cohortly:epidural-injection', name: 'a spinal (epidural) injection' }],
      } satisfies CriterionRule,
      'exclusion',
    );
  const note = 'A 44-year-old roofer with L5 radicular pain; a transforaminal epidural steroid injection 5 weeks ago gave two weeks of relief.';

  it('fails an exclusion of an injection in a window that holds its day, and clears a shorter one', () => {
    expect(evaluateCriterion(injection(8), person(note), today).outcome).toBe('not_met');
    expect(evaluateCriterion(injection(4), person(note), today).outcome).toBe('met');
  });

  it('leaves an undated injection as the note says it', () => {
    const undated = facts('A 44-year-old with an epidural injection in the past.').find((fact) => fact.kind === 'medication');
    expect(undated?.observedOn).toBeNull();
  });
});
