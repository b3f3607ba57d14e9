import { describe, expect, it } from 'vitest';
import { vocabulary } from '../../src/server/features/trials/vocabulary';
import { tokenize } from '../../src/server/features/trials/vocabulary/normalize';
import { SYNONYMS } from '../../src/server/features/trials/vocabulary/synonyms';

/**
 * `Vocabulary.find` stops looking phrases up once the words read so far begin none: every proper prefix of a
 * phrase, written or case-sensitive, is kept in lower case. A short form the criteria write in lower case is looked up by
 * its capitalised form, so that form's words in lower case must be the lower-case words' own.
 */
const wordsOf = (phrase: string) =>
  tokenize(phrase)
    .map((token) => token.word)
    .join(' ');

describe('the phrase look-ups find stops early', () => {
  it('keeps every case-sensitive form tokenized alike in either case', () => {
    const forms = SYNONYMS.flatMap((entry) => entry.caseSensitive ?? []);
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(wordsOf(form).toLowerCase()).toBe(wordsOf(form.toLowerCase()));
  });

  it('still reads a phrase of several words after words that begin no phrase, and the longest one', () => {
    const names = (text: string) =>
      vocabulary()
        .find(text, { reach: 'full', trialIdioms: true })
        .map((m) => text.slice(m.start, m.end));
    expect(names('the patient reports chronic obstructive pulmonary disease since youth')).toContain('chronic obstructive pulmonary disease');
    expect(names('known type 2 diabetes mellitus and high blood pressure')).toEqual(expect.arrayContaining(['type 2 diabetes mellitus']));
  });
});
