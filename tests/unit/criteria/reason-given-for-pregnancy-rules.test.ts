import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 320: the reason a criterion gives for a pregnancy or contraception rule asks nothing. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('the reason given for refusing pregnancy or breastfeeding', () => {
  it('is no requirement, and the medicines it names are none either', () => {
    const exclusion = read(
      'exclusion',
      'Pregnant women are excluded from this trial because sotorasib is an agent with the potential for teratogenic or abortifacient effects',
    );
    expect(exclusion).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    const nursing = read(
      'exclusion',
      'Nursing mothers, since there is an unknown but potential risk of adverse events in breastfed infants secondary to treatment of the mother with cabozantinib',
    );
    expect(nursing).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    expect(read('exclusion', 'Pregnancy, because of the possible risks to the unborn child from the contrast agent')).toMatchObject({
      rule: { type: 'pregnancy' },
      needsReview: false,
    });
  });

  it('is no requirement of a contraception rule', () => {
    const text =
      'The effects of tucatinib on the developing human foetus are not known; for this reason and because kinase inhibitors are known to be teratogenic, women of child-bearing potential must agree to use adequate contraception';
    expect(read('inclusion', text)).toMatchObject({ rule: { type: 'contraception', required: true }, needsReview: false });
  });

  it('leaves every other word for a person to read', () => {
    const more = read('exclusion', 'Pregnant women with gestational diabetes, because the effects of metformin on the developing fetus are unknown');
    expect(more.needsReview).toBe(true);
  });
});
