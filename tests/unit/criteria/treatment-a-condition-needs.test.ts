import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';
import { matchFact, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 357: "requiring systemic therapy" after a condition is the rule's qualifier (treated by mouth, injection or
 * drip), and the infection concept's own "needs treatment" is what its name says. A narrower class stays in review.
 * New wording throughout.
 */
const exclusion = (text: string) => readTextRule('exclusion', text);
const today = new Date('2026-06-01');
const fact = matchFact('note');

describe('the treatment a condition needs', () => {
  it('holds "systemic" treatment as the rule\'s qualifier, with no review', () => {
    expect(exclusion('Ongoing infection that requires systemic anti-infective therapy')).toMatchObject({
      rule: { type: 'condition', present: false, qualifiers: ['systemic_treatment'] },
      needsReview: false,
    });
    expect(exclusion('Autoimmune disorder which has needed systemic therapy during the last 3 years')).toMatchObject({
      rule: { type: 'condition', condition: 'an autoimmune disease', within: { value: 3, unit: 'years' }, qualifiers: ['systemic_treatment'] },
      needsReview: false,
    });
  });

  it('reads an infection "needing therapy" as the infection concept, whose name says it', () => {
    const read = exclusion('Current infection needing therapy');
    expect(read).toMatchObject({ rule: { type: 'condition', condition: 'an infection that needs treatment', present: false }, needsReview: false });
    expect(read.rule).not.toHaveProperty('qualifiers');
  });

  it("keeps a narrower treatment, or another condition's plain need, in review", () => {
    // Intravenous is narrower than by mouth; one class of medicine narrower than any treatment.
    expect(exclusion('Ongoing infection needing parenteral antibiotics').needsReview).toBe(true);
    expect(exclusion('Eczema requiring systemic corticosteroids').needsReview).toBe(true);
    expect(exclusion('Psoriasis requiring systemic immunosuppressants').needsReview).toBe(true);
    // "Requiring treatment" of a condition whose name does not say it narrows the condition (decision 180).
    expect(exclusion('Gout requiring treatment')).toMatchObject({ needsReview: true, reasons: ['treatmentRequired'] });
  });

  it('asks the person in plain words and shows staff the qualifier', () => {
    const { rule } = exclusion('Ongoing infection that requires systemic anti-infective therapy');
    const { blocks } = generateStudyBlocks({
      criteria: [
        { id: 'c1', position: 0, kind: 'exclusion', text: 'Ongoing infection that requires systemic anti-infective therapy', rule, needsReview: false },
      ],
    });
    const question = blocks.flatMap((block) => block.questions).find((one) => one.criterionLinks.length);
    expect(question?.wording.chat.en).toContain('an infection that needs treatment (needing medicine by mouth, injection or drip)');
    expect(question?.wording.chat.es).toContain('por boca, inyección o suero');
    expect(ruleInWords(rule as CriterionRule)).toContain('needing systemic treatment');
  });

  it('is unknown, never decided, for a diagnosis that does not say how it was treated', () => {
    const { rule } = exclusion('Ongoing infection that requires systemic anti-infective therapy');
    const outcome = (facts: MatchFact[]) =>
      evaluateCriterion(ruleCriterion(rule as CriterionRule, 'exclusion'), { dateOfBirth: null, sex: 'unknown', facts }, today).outcome;
    const pneumonia = 'mesh:D011014';
    expect(outcome([fact({ kind: 'condition', name: 'pneumonia', conceptId: pneumonia, status: 'present' })])).toBe('unknown');
    expect(outcome([fact({ kind: 'condition', name: 'pneumonia treated with IV antibiotics', conceptId: pneumonia, status: 'present' })])).toBe('not_met');
  });
});
