import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { vocabulary } from '../../../src/server/features/trials/vocabulary';

/** Decision 332: a bound spelled "< or =", an allergy named after "to", kidney "dysfunction". Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('a bound written with "or" or a slash', () => {
  it('reads "> or =" and "</=" as the sign they spell, with the span still on the words', () => {
    const neutrophils = read('inclusion', 'Absolute neutrophil count > or = 1,500/mcL');
    expect(neutrophils).toMatchObject({ rule: { type: 'lab', measure: 'ANC', comparator: '>=', value: 1.5 }, needsReview: false });
    const span = neutrophils.rule?.span;
    expect(span && 'Absolute neutrophil count > or = 1,500/mcL'.slice(span.start, span.end)).toContain('> or = 1,500');
    expect(read('inclusion', 'Serum creatinine </= 1.8 mg/dL')).toMatchObject({
      rule: { type: 'lab', measure: 'creatinine', comparator: '<=', value: 1.8, unit: 'mg/dL' },
      needsReview: false,
    });
    expect(read('inclusion', 'ECOG performance status < or = 1').rule).toMatchObject({ type: 'performance_status', max: 1 });
  });
});

describe('an allergy named after "to"', () => {
  it('reads a food allergen by the MeSH heading of its allergy', () => {
    const mentions = vocabulary().find('Known allergy to wheat', { reach: 'full' });
    expect(mentions.map((mention) => mention.concept.mesh)).toEqual(['D021182']);
    expect(read('exclusion', 'Hypersensitivity to peanuts').rule).toMatchObject({ type: 'condition', condition: 'peanut hypersensitivity', present: false });
  });

  it('leaves an allergy to a medicine to the medicine readers, and a place "of" a head as before', () => {
    expect(read('exclusion', 'Allergy to amoxicillin').rule).toMatchObject({ type: 'condition', present: false });
    expect(
      vocabulary()
        .find('Known allergy to amoxicillin', { reach: 'full' })
        .some((mention) => /hypersensitivity/.test(mention.concept.en)),
    ).toBe(false);
  });
});

describe('kidney dysfunction', () => {
  it('is kidney disease, with its severity held', () => {
    expect(read('exclusion', 'Patients with severe renal dysfunction')).toMatchObject({
      rule: { type: 'condition', condition: 'kidney disease', present: false, qualifiers: ['severe'] },
      needsReview: false,
    });
  });
});
