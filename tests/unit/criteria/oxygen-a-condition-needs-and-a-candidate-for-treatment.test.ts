import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';
import { matchFact, noteFacts, ruleCriterion } from '../../support/match-facts';

/**
 * Decision 365: extra oxygen a condition needs is the rule's qualifier, as systemic treatment is (decision 357); a
 * candidate for the study's treatment is the site's to judge (decision 246). New wording throughout.
 */
const today = new Date('2026-06-01');
const fact = matchFact('note');

describe('the oxygen a condition needs', () => {
  it('holds home, supplemental or long-term oxygen as the qualifier, with no review', () => {
    expect(readTextRule('exclusion', 'Chronic lung disease that requires supplemental oxygen')).toMatchObject({
      rule: { type: 'condition', present: false, qualifiers: ['chronic', 'oxygen_treatment'] },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Emphysema needing long-term oxygen therapy')).toMatchObject({
      rule: { type: 'condition', present: true, qualifiers: ['oxygen_treatment'] },
    });
    expect(readTextRule('exclusion', 'Heart failure requiring continuous oxygen')).toMatchObject({
      rule: { type: 'condition', condition: 'heart failure', present: false, qualifiers: ['oxygen_treatment'] },
      needsReview: false,
    });
  });

  it('keeps bare "oxygen", which may be oxygen in an emergency, in review', () => {
    expect(readTextRule('exclusion', 'Asthma requiring oxygen').needsReview).toBe(true);
  });

  it('asks the person in plain words and shows staff the qualifier', () => {
    const text = 'Chronic lung disease that requires supplemental oxygen';
    const { rule } = readTextRule('exclusion', text);
    const { blocks } = generateStudyBlocks({ criteria: [{ id: 'c1', position: 0, kind: 'exclusion', text, rule, needsReview: false }] });
    const question = blocks.flatMap((block) => block.questions).find((one) => one.criterionLinks.length);
    expect(question?.wording.chat.en).toContain('(needing extra oxygen to breathe)');
    expect(question?.wording.chat.es).toContain('oxígeno adicional');
    expect(ruleInWords(rule as CriterionRule)).toContain('needing oxygen therapy');
  });

  it('is unknown for a diagnosis alone, and decided by a note that names the oxygen', () => {
    const { rule } = readTextRule('exclusion', 'COPD that requires home oxygen');
    const outcome = (facts: MatchFact[]) =>
      evaluateCriterion(ruleCriterion(rule as CriterionRule, 'exclusion'), { dateOfBirth: null, sex: 'unknown', facts }, today).outcome;
    const copd = 'cohortly:copd';
    expect(outcome([fact({ kind: 'condition', name: 'COPD', conceptId: copd, status: 'present' })])).toBe('unknown');
    expect(outcome([fact({ kind: 'condition', name: 'COPD on 2 L home oxygen', conceptId: copd, status: 'present' })])).toBe('not_met');
  });
});

describe("a note's oxygen", () => {
  const { rule } = readTextRule('exclusion', 'Lung disease that requires home oxygen therapy');
  const outcome = (note: string) =>
    evaluateCriterion(ruleCriterion(rule as CriterionRule, 'exclusion'), { dateOfBirth: null, sex: 'unknown', facts: noteFacts(note, today) }, today).outcome;

  it('names the condition with the oxygen given over time, which decides the criterion', () => {
    expect(outcome('Retired teacher with emphysema, on 3 L home oxygen, and hypertension.')).toBe('not_met');
    expect(outcome('Known interstitial lung disease requiring supplemental O2.')).toBe('not_met');
  });

  it('leaves oxygen given for the day, or none said, unknown', () => {
    expect(outcome('Emphysema; placed on oxygen in the emergency department.')).toBe('unknown');
    expect(outcome('Emphysema since 2015.')).toBe('unknown');
  });
});

describe('a candidate for the study treatment', () => {
  it('is a site check, for systemic treatment, light treatment or an operation', () => {
    for (const text of ['Candidates for systemic treatment or phototherapy', 'Considered a suitable candidate for arthroscopic surgery'])
      expect(readTextRule('inclusion', text)).toMatchObject({ rule: { type: 'site_judgement', reason: 'protocol' }, needsReview: false });
  });

  it('is not read from a past treatment', () => {
    expect(readTextRule('inclusion', 'Previously a candidate for phototherapy').rule?.type).not.toBe('site_judgement');
  });
});
