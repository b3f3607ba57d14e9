import { describe, expect, it } from 'vitest';
import { meshIdByName } from '../../src/server/features/trials/vocabulary';
import { lexicon } from '../../src/server/features/trials/vocabulary/lexicon';
import { phraseKey } from '../../src/server/features/trials/vocabulary/normalize';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';
import { relatedReading } from '../../src/server/features/trials/vocabulary/related-terms';

/** MeSH's non-preferred concepts read by what they name, and short forms supported by the body system treated (decisions 302, 303). */

const id = (name: string) => {
  const found = meshIdByName(name);
  if (!found) throw new Error(`no heading ${name}`);
  return found;
};
const ids = (text: string, context: string[] = []) => recognize(text, { context }).map((found) => found.conceptId);
const written = (text: string) => recognize(text).map((found) => text.slice(found.start, found.end));

describe('a finding MeSH files under one of its causes is not that disease (decision 302)', () => {
  it.each([
    ['Weakness of dorsiflexion with a right foot drop since the fall.', 'Peroneal Neuropathies'],
    ['Left wrist drop after sleeping on the arm.', 'Radial Neuropathy'],
    ['Constant drooling noted by the family.', 'Sialorrhea'],
    ['Fundus exam: retinal edema on the left.', 'Papilledema'],
  ])('%s', (text, disease) => {
    expect(ids(text)).not.toContain(id(disease));
  });

  it('still reads the disease by its own names and its narrower kinds that say a disease', () => {
    expect(ids('Known peroneal neuropathy of the left leg.')).toContain(id('Peroneal Neuropathies'));
    expect(ids('Bilateral peroneal nerve entrapment.')).toContain(id('Peroneal Neuropathies'));
    expect(written('History of toxic epidermal necrolysis after a sulfa drug.')).toContain('toxic epidermal necrolysis');
  });

  it('touches only the terms of a non-preferred concept', () => {
    const lex = lexicon();
    const key = phraseKey('Peroneal Neuropathy');
    expect(relatedReading(lex, key, lex.term(key) as number)).toBeNull();
  });
});

describe("a kind named by its sibling heading's words reads as that heading (decision 302)", () => {
  it('reads idiopathic PAH as pulmonary arterial hypertension, never the familial kind', () => {
    for (const text of ['Followed for idiopathic pulmonary arterial hypertension on two oral agents.', 'Diagnosed with idiopathic PAH in 2019.']) {
      expect(ids(text)).toContain(id('Pulmonary Arterial Hypertension'));
      expect(ids(text)).not.toContain(id('Familial Primary Pulmonary Hypertension'));
    }
    expect(ids('Heritable pulmonary arterial hypertension in her mother.')).toContain(id('Familial Primary Pulmonary Hypertension'));
  });

  it('keeps a term whose qualifier may name another condition where MeSH files it', () => {
    // "Male Turner syndrome" is Noonan syndrome, not Turner syndrome.
    expect(ids('Male Turner syndrome suspected in childhood.')).not.toContain(id('Turner Syndrome'));
  });
});

describe('an ambiguous short form is supported by the body system its context treats (decision 303)', () => {
  it('reads "MI" beside a coronary stent and antiplatelet medicines', () => {
    expect(written('Had an MI two years ago, stented, now on aspirin and clopidogrel.')).toContain('MI');
    expect(written('MI in 2015; takes metoprolol.')).toContain('MI');
  });

  it('leaves "MI" unread with no cardiovascular context (mitral insufficiency is another expansion)', () => {
    expect(written('MI noted on a prior report. Takes levothyroxine for hypothyroidism.')).not.toContain('MI');
    expect(written('MI, follow up in clinic.')).toEqual([]);
  });
});
