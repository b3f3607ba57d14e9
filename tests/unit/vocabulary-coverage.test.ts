import { describe, expect, it } from 'vitest';
import { inClass, isA, meshIdByName } from '../../src/server/features/trials/vocabulary';
import { phraseKey } from '../../src/server/features/trials/vocabulary/normalize';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';

/**
 * Coverage the recognizer gains from MeSH itself (issue 30, decision 295), in new wording: a short form's apostrophe
 * plural, spellings MeSH never writes, and a hand synonym that is a MeSH heading of its own read as that heading.
 */
const whole = (text: string) => {
  const [found] = recognize(text);
  return found?.start === 0 && found.end === text.length ? found : undefined;
};
const heading = (name: string) => {
  const found = meshIdByName(name);
  if (!found) throw new Error(`no heading ${name}`);
  return found;
};

describe("a short form written with an apostrophe plural ('s)", () => {
  it('reads as the short form, in capitals or in a text written in lower case', () => {
    expect(whole("NSAID's")?.conceptId).toBe(whole('NSAIDs')?.conceptId);
    expect(whole("SNRI's")?.conceptId).toBe(whole('SNRIs')?.conceptId);
    expect(whole("ssri's")?.conceptId).toBe(whole('ssris')?.conceptId);
    expect(recognize("on two SSRI's since spring").map((found) => found.name)).toEqual(['SSRI antidepressants (such as sertraline)']);
  });

  it('leaves a possessive of an ordinary word or an eponym alone', () => {
    expect(recognize("the mother's consent")).toEqual([]);
    expect(whole("parkinson's disease")?.mesh).toBe('D010300');
  });
});

describe('SSRIs and SNRIs are their own MeSH classes, narrower than any antidepressant', () => {
  it('a member meets its class and the broader class; another antidepressant does not meet the narrower one', () => {
    const [ssri, snri, antidepressants] = [whole('SSRIs'), whole('SNRI'), whole('antidepressant medication')];
    expect(ssri?.conceptId).not.toBe(antidepressants?.conceptId);
    expect(inClass(heading('Sertraline'), ssri!.conceptId)).toBe(true);
    expect(inClass(heading('Venlafaxine Hydrochloride'), snri!.conceptId)).toBe(true);
    expect(inClass(heading('Sertraline'), antidepressants!.conceptId)).toBe(true);
    expect(inClass(heading('Bupropion'), ssri!.conceptId)).toBe(false);
  });
});

describe('spellings MeSH never writes', () => {
  it('keys them as MeSH spells them', () => {
    expect(phraseKey('Allogenic grafts')).toBe(phraseKey('allogeneic graft'));
    expect(phraseKey('syngenic')).toBe('syngeneic');
    expect(phraseKey('Leucopenia')).toBe('leukopenia');
    expect(phraseKey('faecal urgency')).toBe('fecal urgency');
  });

  it('reads them as the concept of the usual spelling', () => {
    expect(whole('leucopenia')?.conceptId).toBe(whole('leukopenia')?.conceptId);
    expect(whole('faecal incontinence')?.conceptId).toBe(whole('fecal incontinence')?.conceptId);
    expect(whole('allogenic stem cell transplantation')?.conceptId).toBe(whole('allogeneic stem cell transplantation')?.conceptId);
  });
});

describe("a hand synonym that names a MeSH heading under the entry's own", () => {
  it('reads as that heading, which the class still holds by the tree', () => {
    const found = whole('anaplastic astrocytoma') ?? whole('astrocytoma');
    expect(found?.mesh).toBeTruthy();
    const glioma = whole('glioma');
    expect(isA(found!.conceptId, glioma!.conceptId)).toBe(true);
    expect(whole('Glioblastoma')?.conceptId).toBe(heading('Glioblastoma'));
  });

  it('not an entry term of a narrower heading: "haemophilia" stays the class the hand file names', () => {
    expect(whole('haemophilia')?.conceptId).not.toBe(heading('Hemophilia A'));
  });
});
