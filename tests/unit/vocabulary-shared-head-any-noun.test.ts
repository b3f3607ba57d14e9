import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';
import { vocabulary } from '../../src/server/features/trials/vocabulary';

/** Decision 331: a word sharing any head noun names the concept it forms with that head. Wording new to this file. */
const found = (text: string) =>
  vocabulary()
    .find(text, { reach: 'full' })
    .map((mention) => ({ words: text.slice(mention.start, mention.end), mesh: mention.concept.mesh }));

describe('a list of words sharing any head noun', () => {
  it('reads the first word with the head when both readings are concepts', () => {
    expect(found('ischaemic or haemorrhagic stroke')).toEqual([
      { words: 'ischaemic', mesh: 'D000083242' },
      { words: 'haemorrhagic stroke', mesh: 'D000083302' },
    ]);
    expect(found('bacterial or viral pneumonia')).toEqual([
      { words: 'bacterial', mesh: 'D018410' },
      { words: 'viral pneumonia', mesh: 'D011024' },
    ]);
  });

  it('reads nothing more where the first word forms no concept with the head, or is a course or a concept alone', () => {
    // "Arterial thrombosis" is no MeSH term: the word stays unread, and the rule keeps it for a person.
    expect(found('arterial or venous thrombosis').map((item) => item.words)).toEqual(['venous thrombosis']);
    expect(found('acute or chronic pancreatitis').map((item) => item.words)).toEqual(['chronic pancreatitis']);
    expect(found('smoking or lung disease').map((item) => item.words)).toEqual(['smoking', 'lung disease']);
  });

  it('makes an exclusion of both alternatives a rule needing no person', () => {
    expect(readTextRule('exclusion', 'A history of ischaemic or haemorrhagic stroke', {})).toMatchObject({
      rule: { type: 'condition', condition: 'ischemic stroke or hemorrhagic stroke', present: false, history: true },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Arterial or venous thrombosis within 6 months', {}).needsReview).toBe(true);
  });
});
