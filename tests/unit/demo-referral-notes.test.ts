import { describe, expect, it } from 'vitest';
import { referralNote } from '../../src/server/features/demo/referral-notes';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';
import { seededRandom } from '../../src/server/seeded-random';

/** The demo's referral notes (decision 132): varied, deterministic, and read by the note reader into the facts they say. */

const people = (trialIndex: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ trialIndex, age: 20 + ((i * 7) % 45), female: trialIndex === 2 || i % 2 === 0 }));

function notesFor(trialIndex: number, count = 200, seed = 11) {
  const random = seededRandom(seed);
  return people(trialIndex, count).map((person) => ({ person, note: referralNote(random, person) }));
}

const share = (items: unknown[], test: (item: any) => boolean) => items.filter(test).length / items.length;

describe('the demo referral notes', () => {
  it('are the same for the same seed and differ for another', () => {
    expect(notesFor(0, 20, 5).map((item) => item.note)).toEqual(notesFor(0, 20, 5).map((item) => item.note));
    expect(notesFor(0, 20, 5).map((item) => item.note)).not.toEqual(notesFor(0, 20, 6).map((item) => item.note));
  });

  it('vary their wording: many different notes and openings', () => {
    const notes = notesFor(1).map((item) => item.note);
    expect(new Set(notes).size).toBe(notes.length);
    expect(new Set(notes.map((note) => note.split(' ').slice(0, 3).join(' '))).size).toBeGreaterThan(10);
  });

  it('say the person’s own age and sex, as the note reader reads them', () => {
    for (const { person, note } of notesFor(0, 60)) {
      const facts = extractNoteFacts(note);
      expect(facts.find((fact) => fact.kind === 'age')?.value, note).toBe(person.age);
      expect(facts.find((fact) => fact.kind === 'sex')?.valueText, note).toBe(person.female ? 'female' : 'male');
    }
  });

  it('give most people referred for a trial its condition, some not, and a few what excludes them', () => {
    const conditionOf = (trialIndex: number, words: RegExp) =>
      notesFor(trialIndex).map(({ note }) => extractNoteFacts(note).find((fact) => fact.kind === 'condition' && words.test(fact.name))?.status ?? 'silent');
    const asthma = conditionOf(0, /asthma/i);
    expect(share(asthma, (status) => status === 'present')).toBeGreaterThan(0.6);
    expect(share(asthma, (status) => status === 'absent')).toBeGreaterThan(0.03);
    expect(share(asthma, (status) => status === 'silent')).toBeGreaterThan(0.03);
    expect(share(conditionOf(1, /diabetes/i), (status) => status === 'present')).toBeGreaterThan(0.7);
    expect(share(conditionOf(2, /migraine/i), (status) => status === 'present')).toBeGreaterThan(0.7);

    const diabetes = notesFor(1).map(({ note }) => extractNoteFacts(note));
    expect(share(diabetes, (facts) => facts.some((fact: any) => fact.kind === 'lab' && fact.name === 'HbA1c'))).toBeGreaterThan(0.5);
    expect(
      share(diabetes, (facts) => facts.some((fact: any) => fact.kind === 'medication' && /insulin/i.test(fact.name) && fact.status === 'present')),
    ).toBeGreaterThan(0.02);
    const smokers = notesFor(0).map(({ note }) => extractNoteFacts(note).find((fact) => fact.kind === 'smoking')?.status);
    expect(share(smokers, (status) => status === 'present')).toBeGreaterThan(0.05);
    expect(share(smokers, (status) => status === 'absent')).toBeGreaterThan(0.3);
  });
});
