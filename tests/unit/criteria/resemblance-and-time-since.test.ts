import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';

/**
 * Decision 314: three readings a hand check of no-review rules found wrong, each fixed as a class. Every phrasing here is
 * new wording, not a corpus sentence.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a length of time since an event', () => {
  it('is never read as the person’s age', () => {
    for (const text of ['At least 4 years postmenarche', 'At least 2 years postmenopausal', 'At least 8 weeks postpartum', 'Enrolled 6 months after delivery'])
      expect(read('inclusion', text).rule).not.toMatchObject({ type: 'age' });
  });

  it('among exclusions never turns into a highest age that would refuse every adult', () => {
    expect(read('exclusion', 'At least 3 years postmenarche').rule).not.toMatchObject({ type: 'age' });
  });

  it('leaves an age written with an age word beside the event', () => {
    expect(read('inclusion', 'Postmenopausal women aged 55 to 80 years').rule).toMatchObject({ type: 'age', minYears: 55, maxYears: 80 });
    expect(read('inclusion', 'Adults 21 years or older').rule).toMatchObject({ type: 'age', minYears: 21 });
  });
});

describe('what only resembles a condition', () => {
  it('is not the condition in a criterion', () => {
    for (const text of ['Influenza-like illness in the last 10 days', 'Measles-like rash', 'Lupus like syndrome caused by a drug'])
      expect(read('exclusion', text).rule).not.toMatchObject({ type: 'condition', condition: expect.stringMatching(/flu|measles|lupus/i) });
  });

  it('is not a fact read from a note', () => {
    const facts = extractNoteFacts('Two days of an influenza-like illness. Known asthma.');
    expect(facts.some((fact) => /\bflu\b/.test(fact.name))).toBe(false);
    expect(facts.some((fact) => fact.kind === 'condition' && /asthma/i.test(fact.name))).toBe(true);
  });

  it('leaves the condition itself and a list introduced by "like"', () => {
    expect(read('exclusion', 'Confirmed influenza within 2 weeks').rule).toMatchObject({ type: 'condition', present: false });
    expect(read('exclusion', 'Chronic illnesses like epilepsy').rule).toMatchObject({ type: 'condition' });
  });
});

describe('a type written in Roman numerals after its condition', () => {
  it('reads each type the criterion lists', () => {
    const rule = read('inclusion', 'Known diabetes mellitus, type I or II').rule;
    expect(rule).toMatchObject({ type: 'condition', present: true });
    const names = (rule as { concepts?: Array<{ name: string }> }).concepts?.map((concept) => concept.name);
    expect(names).toEqual(expect.arrayContaining(['type 1 diabetes', 'type 2 diabetes']));
  });
});
