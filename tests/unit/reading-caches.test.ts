import { describe, expect, it } from 'vitest';
import { isValidTimeZone } from '../../src/contract/time-zones';
import { criterionMentions } from '../../src/server/features/trials/criteria/criterion-mentions';
import { vocabulary } from '../../src/server/features/trials/vocabulary';

/** Decision 276: what the readers keep between calls answers exactly as a fresh reading does. */
describe('kept answers of the readers', () => {
  it('reads the same concepts from a criterion asked twice, and each caller may change its own copy', () => {
    const vocab = vocabulary();
    const words = 'Known chronic kidney disease or a past stroke';
    const first = criterionMentions(vocab, words);
    expect(first.length).toBeGreaterThan(0);
    first[0].end = 0;
    first.push({ ...first[0] });
    const again = criterionMentions(vocab, words);
    expect(again).toEqual(vocab.find(words, { reach: 'full', trialIdioms: true }));
    expect(again[0].end).toBeGreaterThan(0);
  });

  it('reads other words afresh after one criterion was kept', () => {
    const vocab = vocabulary();
    criterionMentions(vocab, 'History of epilepsy');
    const other = 'Currently taking warfarin';
    expect(criterionMentions(vocab, other)).toEqual(vocab.find(other, { reach: 'full', trialIdioms: true }));
  });

  it('answers a zone asked again as it did the first time, valid or not', () => {
    for (let round = 0; round < 2; round++) {
      expect(isValidTimeZone('Europe/Lisbon')).toBe(true);
      expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
      expect(isValidTimeZone('')).toBe(false);
    }
  });
});
