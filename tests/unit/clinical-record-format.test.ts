import { describe, expect, it } from 'vitest';
import type { CandidateFact } from '../../src/contract/matching';
import { factValue, formatDay, groupFacts, newestFirst, noteEvidence } from '../../src/web/features/clinical-record/format';

const spanOf = (text: string, words: string, from = 0) => {
  const start = text.indexOf(words, from);
  return { start, end: start + words.length };
};

describe('the words a note fact was read from', () => {
  const note = 'Referral from Dr. Lee. A 58-year-old woman with asthma. She denies smoking!\nMeds: albuterol as needed';

  it('shows the sentence that holds the mention, with the mention split out to be marked', () => {
    expect(noteEvidence(note, spanOf(note, 'asthma'))).toEqual({ before: 'A 58-year-old woman with ', mention: 'asthma', after: '.' });
    expect(noteEvidence(note, spanOf(note, 'smoking'))).toEqual({ before: 'She denies ', mention: 'smoking', after: '!' });
  });

  it('ends a sentence at a line break, and at the end of the note', () => {
    expect(noteEvidence(note, spanOf(note, 'albuterol'))).toEqual({ before: 'Meds: ', mention: 'albuterol', after: ' as needed' });
  });

  it("keeps the first sentence from the start of the note, past an abbreviation's stop", () => {
    expect(noteEvidence(note, spanOf(note, 'Referral'))).toEqual({ before: '', mention: 'Referral', after: ' from Dr. Lee.' });
    expect(noteEvidence(note, spanOf(note, 'Lee'))).toEqual({ before: 'Referral from Dr. ', mention: 'Lee', after: '.' });
  });

  it('answers null for a span that does not fit the note', () => {
    expect(noteEvidence(note, null)).toBeNull();
    expect(noteEvidence(note, { start: 5, end: 5 })).toBeNull();
    expect(noteEvidence(note, { start: 10, end: note.length + 1 })).toBeNull();
  });
});

const fact = (patch: Partial<CandidateFact>): CandidateFact => ({
  id: patch.name ?? 'f',
  candidateId: 'c',
  kind: 'condition',
  conceptId: null,
  name: 'asthma',
  status: null,
  value: null,
  unit: null,
  valueText: null,
  observedOn: null,
  source: 'manual',
  sourceRef: null,
  sourceText: null,
  span: null,
  criterionId: null,
  code: null,
  recordedAt: '2025-01-01T00:00:00.000Z',
  ...patch,
});

describe('facts in the table', () => {
  it('groups by kind in reading order and leaves out empty groups', () => {
    const groups = groupFacts([
      fact({ kind: 'age', name: 'age', value: 58 }),
      fact({ kind: 'condition', name: 'asthma' }),
      fact({ kind: 'smoking', name: 'smoking' }),
    ]);
    expect(groups.map((group) => [group.title, group.facts.map((item) => item.name)])).toEqual([
      ['Conditions', ['asthma']],
      ['Other', ['age', 'smoking']],
    ]);
  });

  it('says values with their unit or scale', () => {
    expect(factValue(fact({ kind: 'lab', value: 7.1, unit: '%' }))).toBe('7.1 %');
    expect(factValue(fact({ kind: 'age', value: 58, unit: 'years' }))).toBe('58 years');
    expect(factValue(fact({ kind: 'performance_status', value: 1, valueText: 'ECOG' }))).toBe('ECOG 1');
    expect(factValue(fact({ kind: 'sex', valueText: 'female' }))).toBe('Female');
    expect(factValue(fact({ kind: 'condition' }))).toBe('');
  });

  it('reads a day as that calendar day, and orders notes newest first', () => {
    expect(formatDay('2015-06-01')).toContain('2015');
    expect(formatDay(null)).toBe('—');
    expect(newestFirst([{ createdAt: '2025-01-01T00:00:00Z' }, { createdAt: '2025-03-01T00:00:00Z' }]).map((note) => note.createdAt)).toEqual([
      '2025-03-01T00:00:00Z',
      '2025-01-01T00:00:00Z',
    ]);
  });
});
