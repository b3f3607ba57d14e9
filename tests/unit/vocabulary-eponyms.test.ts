import { describe, expect, it } from 'vitest';
import { plainName, vocabulary } from '../../src/server/features/trials/vocabulary';

/** What a patient or coordinator reads for a condition MeSH names after a person (decision 294). */
const namesRead = (text: string) =>
  vocabulary()
    .find(text)
    .map((found) => found.concept.en);

describe("a condition named after a person keeps the person's capital", () => {
  it.each([
    ['Prior diagnosis of Hodgkin disease', 'Hodgkin disease'],
    ['Known Kaposi sarcoma lesions', 'Kaposi sarcoma'],
    ['A family history of Creutzfeldt-Jakob disease', 'Creutzfeldt-Jakob disease'],
    ['Diagnosed with Charcot-Marie-Tooth disease type 1A', 'Charcot-Marie-Tooth disease'],
    ["Active adult-onset Still's disease", "adult-onset Still's disease"],
  ])('%s', (text, name) => {
    expect(namesRead(text)).toContain(name);
  });

  it('writes the other words of such a name in lower case, a prefix too', () => {
    expect(namesRead('Relapsed non-Hodgkin lymphoma')).toContain('non-Hodgkin lymphoma');
  });

  it('leaves a heading not named after a person in lower case, though one of its words is an eponym elsewhere', () => {
    // "Angle" is Angle's classification of malocclusion, an eponym; angle-closure glaucoma is not one.
    expect(namesRead('History of angle-closure glaucoma')).toContain('angle-closure glaucoma');
  });
});

describe('a heading in plain words', () => {
  it('reverses an inverted heading and lower-cases its words, keeping acronyms', () => {
    expect(plainName('Diabetes Mellitus, Type 2')).toBe('type 2 diabetes mellitus');
    expect(plainName('AIDS-Associated Nephropathy')).toBe('AIDS-associated nephropathy');
    expect(plainName('COVID-19')).toBe('COVID-19');
  });

  it('keeps the capital only of the eponyms it is given', () => {
    expect(plainName('Lymphoma, Non-Hodgkin', new Set(['Hodgkin']))).toBe('non-Hodgkin lymphoma');
    expect(plainName('Lymphoma, Non-Hodgkin')).toBe('non-hodgkin lymphoma');
  });
});
