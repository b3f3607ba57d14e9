import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { vocabulary } from '../../../src/server/features/trials/vocabulary';
import { questionsAbout } from '../../support/criteria-questions';

/**
 * The concept reader on the whole MeSH 2024 vocabulary (decision 140): headings the hand file never listed are read,
 * with MeSH's own precision safeguards. Every phrasing is new wording, not a corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('conditions and medicines only the whole vocabulary names', () => {
  it('reads a disease heading the hand file never listed, whole and without review', () => {
    expect(read('exclusion', 'Known Behcet syndrome')).toMatchObject({
      rule: { type: 'condition', present: false, concepts: [{ mesh: 'D001528' }] },
      needsReview: false,
    });
    expect(read('exclusion', 'Prior history of pulmonary embolism').rule).toMatchObject({ type: 'condition', present: false, history: true });
  });

  it('reads a medicine class by its MeSH pharmacological action', () => {
    expect(read('exclusion', 'Current treatment with calcium channel blockers')).toMatchObject({
      rule: { type: 'medication', taking: false, concepts: [{ mesh: 'D002121' }] },
    });
  });

  it('reads a course written into the heading as that heading, not a qualifier left over', () => {
    expect(read('exclusion', 'Chronic pancreatitis')).toMatchObject({ rule: { type: 'condition', condition: 'chronic pancreatitis' }, needsReview: false });
  });
});

describe("MeSH's own precision safeguards", () => {
  it("a term of a heading's narrower concept keeps the rule in review, unless the rule holds the narrowing word", () => {
    // "Usual interstitial pneumonia" is a narrower concept of idiopathic pulmonary fibrosis in MeSH, not its synonym.
    expect(vocabulary().find('Usual interstitial pneumonia', { reach: 'full' })[0]).toMatchObject({ narrower: true });
    expect(read('exclusion', 'Usual interstitial pneumonia').needsReview).toBe(true);
    // "Bilateral" is a narrower concept of sciatica too, but the rule asks "on both sides".
    expect(read('exclusion', 'Sciatica on both legs, bilateral sciatica')).toMatchObject({ needsReview: true });
    expect(read('inclusion', 'Bilateral sciatica')).toMatchObject({ rule: { qualifiers: ['both_sides'] }, needsReview: false });
  });

  it('a term never spans a bracket: the parenthesis stays a parenthesis', () => {
    const found = vocabulary().find('Polyneuropathy (toxic or other)', { reach: 'full' });
    expect(found.every((mention) => !'Polyneuropathy (toxic or other)'.slice(mention.start, mention.end).includes('('))).toBe(true);
  });

  it('a substance named as a test result is a finding, never a medicine taken', () => {
    for (const text of ['Hepatitis B core antibody positive at screening', 'Positive for hepatitis C antibodies'])
      expect(read('exclusion', text).rule?.type, text).not.toBe('medication');
  });

  it("what the study's own operation finds or causes is staff's to check, not the person's condition", () => {
    expect(read('exclusion', 'Dural tear noted during the index operation').rule).toMatchObject({ type: 'site_judgement' });
    expect(read('exclusion', 'Surgical complications such as excessive bleeding').rule?.type).not.toBe('condition');
  });
});

describe('an operation the person had before (a trial idiom MeSH has no heading for)', () => {
  it('reads "previous operations" as ever having had an operation, with its window', () => {
    expect(read('exclusion', 'Earlier operations of any kind; previous operations')).toMatchObject({
      rule: { type: 'condition', present: false, history: true },
    });
    expect(read('exclusion', 'History of surgery in the past 9 months')).toMatchObject({
      rule: { type: 'condition', concepts: [{ id: 'cohortly:prior-surgery' }], within: { value: 9, unit: 'months' } },
      needsReview: false,
    });
  });

  it('an operation placed or given a purpose is narrower: a person reads it', () => {
    for (const text of ['Prior surgery for the disease being studied', 'Previous operations on the same shoulder'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
  });

  it("the study's own operation is never read as a past one", () => {
    expect(read('inclusion', 'Booked for an operation on the hip').rule?.type).not.toBe('condition');
    // Being a candidate for it is the site's to check against the protocol (decision 161).
    expect(read('inclusion', 'Candidates for surgery').rule).toMatchObject({ type: 'site_judgement', reason: 'protocol' });
  });
});

describe('treatment without surgery that did not help (a trial idiom no vocabulary names)', () => {
  it('is read with its duration and asked of the patient in plain words, in English and Spanish', () => {
    const reading = read('inclusion', 'At least 10 weeks of unsuccessful conservative therapy');
    expect(reading).toMatchObject({ rule: { type: 'condition', present: true, duration: { minDays: 70 } }, needsReview: false });
    const [question] = questionsAbout('inclusion', 'At least 10 weeks of unsuccessful conservative therapy', reading.rule);
    expect(question.wording.chat.en).toMatch(/treatment without surgery .* did not help/);
    expect(question.wording.chat.en).not.toMatch(/conservative/i);
    expect(question.wording.chat.es).toMatch(/sin cirugía/);
  });
});

describe('trial idioms are read in criteria only', () => {
  it('a note\'s "surgical history" heading is no operation; a criterion\'s is', () => {
    const ids = (trialIdioms: boolean) =>
      vocabulary()
        .find('Surgical history: appendix removed as a child', { reach: 'full', trialIdioms })
        .map((m) => m.concept.id);
    expect(ids(false)).not.toContain('cohortly:prior-surgery');
    expect(ids(true)).toContain('cohortly:prior-surgery');
  });
});

describe('lists and slashes are not one MeSH term', () => {
  it('an allergy to two medicines in a list is never the combination product MeSH names', () => {
    const { rule } = read('exclusion', 'Allergy to fluticasone propionate, salmeterol or any of their excipients');
    expect(JSON.stringify(rule)).not.toMatch(/combination/i);
  });

  it('one word after a slash that shares the words before it keeps the rule in review; two concepts do not', () => {
    expect(read('exclusion', 'Prior hyperosmolar state/coma').needsReview).toBe(true);
    expect(read('exclusion', 'Prior heart attack/stroke')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
    expect(read('exclusion', 'Active hepatitis B/C')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });
});
