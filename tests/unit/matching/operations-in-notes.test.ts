import { describe, expect, it } from 'vitest';
import type { CriterionRule, TimeWindow } from '../../../src/contract/trials';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 306. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const fromNote = matchFact('note');
const factsOf = (text: string) =>
  extractNoteFacts(`52-year-old woman. ${text}`, { today }).map(({ kind, name, conceptId, status, value, unit, valueText, observedOn }) =>
    fromNote({ kind, name, conceptId, status, value, unit, valueText, observedOn }),
  );
const outcome = (note: string, rule: CriterionRule) =>
  evaluateCriterion(ruleCriterion(rule, 'exclusion'), { dateOfBirth: null, sex: 'unknown', facts: factsOf(note) }, today).outcome;

const anyOperation = (within?: TimeWindow): CriterionRule => ({
  type: 'condition',
  condition: 'an operation (surgery)',
  present: false,
  concepts: [{ id: 'cohortly:prior-surgery', name: 'an operation (surgery)' }],
  history: true,
  ...(within ? { within } : {}),
});
const spineOperation = (part: 'lumbar' | 'cervical'): CriterionRule => ({
  type: 'condition',
  condition: 'back or spine surgery',
  present: false,
  concepts: [{ id: 'cohortly:spine-surgery', name: 'back or spine surgery' }],
  history: true,
  qualifiers: [part],
});

describe('the note reader dates a past operation by the year or month after it', () => {
  it.each([
    ['Status post laminectomy 2017, no complications.', '2017-01-01'],
    ['She underwent L5-S1 discectomy in October 2021.', '2021-10-01'],
    ['PSH: tonsillectomy (1990).', '1990-01-01'],
  ])('%s', (text, day) => {
    const operation = factsOf(text).find((fact) => fact.status === 'history');
    expect(operation?.observedOn).toBe(day);
  });

  it("leaves one in the note's own year undated: any window may hold it", () => {
    const operation = factsOf('Appendectomy in 2026.').find((fact) => fact.status === 'history');
    expect(operation?.observedOn).toBeNull();
  });
});

describe('an operation on record answers "any operation within a window"', () => {
  const fourWeeks = anyOperation({ value: 4, unit: 'weeks' });
  it('fails it when done within the window, and meets it when done long before', () => {
    expect(outcome('Laparoscopic cholecystectomy 10 days ago.', fourWeeks)).toBe('not_met');
    expect(outcome('Status post appendectomy 2008.', fourWeeks)).toBe('met');
  });

  it('is undecided by an undated operation, by silence, and by one only planned', () => {
    expect(outcome('History of cholecystectomy.', fourWeeks)).toBe('unknown');
    expect(outcome('Hypertension, on lisinopril.', fourWeeks)).toBe('unknown');
    expect(outcome('Scheduled for a hernia repair next month.', fourWeeks)).toBe('unknown');
  });

  it('a note that denies any operation meets it, and any named operation too', () => {
    expect(outcome('Past surgical history: none.', fourWeeks)).toBe('met');
    const laminectomy: CriterionRule = {
      type: 'condition',
      condition: 'laminectomy',
      present: false,
      concepts: [{ id: 'mesh:D007796', name: 'laminectomy' }],
      history: true,
    };
    expect(outcome('She has never had any surgery.', laminectomy)).toBe('met');
  });
});

describe('a spine operation on record answers a spine surgery rule by its part', () => {
  it('a lumbar laminectomy fails "prior lumbar spine surgery" and meets "prior cervical spine surgery"', () => {
    expect(outcome('Status post lumbar laminectomy.', spineOperation('lumbar'))).toBe('not_met');
    expect(outcome('Status post lumbar laminectomy.', spineOperation('cervical'))).toBe('met');
  });

  it('one with no part named leaves the part unknown', () => {
    expect(outcome('Prior discectomy.', spineOperation('lumbar'))).toBe('unknown');
  });

  it('an operation elsewhere is not a spine operation', () => {
    expect(outcome('Status post cholecystectomy.', spineOperation('lumbar'))).toBe('unknown');
  });
});

describe('what the note reader does not take for "no operation ever"', () => {
  const deniesAny = (text: string) => factsOf(text).some((fact) => fact.conceptId === 'cohortly:prior-surgery' && fact.status === 'absent');
  it.each(['No surgery indicated at this time; continue physical therapy.', 'Managed conservatively, no surgery.', 'He has never had surgery on his knee.'])(
    '%s',
    (text) => {
      expect(deniesAny(text)).toBe(false);
    },
  );

  it.each(['No previous operations.', 'Denies any prior surgeries.', 'PSH: none.', 'No surgical history.'])('but does read %s', (text) => {
    expect(deniesAny(text)).toBe(true);
  });
});
