import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Issue 30, decisions 295 and 296: classes of wording that kept a correct rule in review, or read it wrong, in new
 * wording (none a corpus sentence). A negative test written after the infection, a MeSH heading named exactly, a
 * trial's registration as a point in time; and a history word that speaks of a later concept only goes to a person.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('a negative test of an infection a person knows the test of', () => {
  it('written after the infection is the infection absent, with no review', () => {
    for (const text of ['Documented HIV-negative serostatus', 'Hepatitis C negative at screening', 'SARS-CoV-2 negative', 'HBV sero-negative'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
  });

  it('written before it ("negative for", "seronegative for") reads the same, and the test words are understood', () => {
    expect(read('inclusion', 'Must be seronegative for hepatitis B')).toMatchObject({ rule: { present: false }, needsReview: false });
    expect(read('inclusion', 'A negative HIV test within the last 3 months')).toMatchObject({ rule: { present: false }, needsReview: false });
  });

  it('one negative after a list of the tested infections is every one negative', () => {
    for (const text of ['Hepatitis C or HIV negative', 'HIV, hepatitis B and hepatitis C seronegative'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('inclusion', 'Hepatitis C positive or HIV negative').needsReview).toBe(true);
  });

  it('not an antibody (no immunity is not no infection), nor a text that also says positive', () => {
    expect(read('inclusion', 'Anti-HBs antibody negative').needsReview).toBe(true);
    const mixed = read('inclusion', 'HIV negative but hepatitis B positive');
    expect(mixed.needsReview).toBe(true);
  });
});

describe('a condition named exactly by a MeSH heading under a hand class', () => {
  it('is that heading, not the broader class in review', () => {
    const reading = read('exclusion', 'Previously diagnosed oligodendroglioma');
    expect(reading.needsReview).toBe(false);
    expect(reading.rule).toMatchObject({ type: 'condition', present: false });
    expect(reading.rule && 'condition' in reading.rule ? reading.rule.condition : '').toMatch(/oligodendroglioma/i);
    const lymphoma = read('inclusion', 'Untreated non-Hodgkin lymphoma');
    expect(lymphoma.rule && 'condition' in lymphoma.rule ? lymphoma.rule.condition : '').toMatch(/non-hodgkin/i);
  });
});

describe('an apostrophe plural of a medicine class short form', () => {
  it('reads as the class: "SNRI\'s" is the SNRIs, never every antidepressant', () => {
    const reading = read('exclusion', "Current treatment with SNRI's");
    expect(reading).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: false });
    expect(reading.rule && 'medication' in reading.rule ? reading.rule.medication : '').toMatch(/SNRI/);
  });
});

describe("the trial's registration is a point in time", () => {
  it('says no more than enrolment does', () => {
    expect(read('inclusion', 'Negative urine pregnancy test at registration')).toMatchObject({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: false,
    });
  });
});

describe('a history word that speaks of a later concept only (decision 296)', () => {
  it('goes to a person: "ever" would reach the earlier concepts too', () => {
    const reading = read('exclusion', 'Has active gout, or has had a previous kidney stone');
    expect(reading.needsReview).toBe(true);
    expect(reading.reasons).toContain('historyOfLater');
  });

  it('not a window ("within the previous 6 months"), nor a history word before the first concept', () => {
    expect(read('exclusion', 'Gout or kidney stones within the previous 6 months').reasons ?? []).not.toContain('historyOfLater');
    expect(read('exclusion', 'History of gout or kidney stones')).toMatchObject({ rule: { history: true }, needsReview: false });
  });
});
