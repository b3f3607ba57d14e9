import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 305: a criterion about another cancer ("another malignancy within 3 years", "other than the disease under
 * study", "second primary cancer") is read as the rule "no cancer", in its window, with the cancers it excepts and, for
 * "other"/"another"/"second", marked as a cancer other than the trial's own. Every phrasing is new wording.
 */
type Kind = 'inclusion' | 'exclusion';
type ConditionRule = Extract<CriterionRule, { type: 'condition' }>;
const read = (kind: Kind, text: string) => readTextRule(kind, text, {});
const ruleOf = (kind: Kind, text: string) => read(kind, text).rule as ConditionRule | null;
const exceptedIds = (rule: ConditionRule | null) => (rule?.except ?? []).map((concept) => concept.id);

describe('another cancer, read as the rule "no cancer besides the trial\'s own"', () => {
  it('reads "another", "other", "second" with their window and no review', () => {
    for (const [text, within] of [
      ['Diagnosed with another malignancy during the last 4 years', { value: 4, unit: 'years' }],
      ['Any other cancer in the past two years before randomisation', { value: 2, unit: 'years' }],
      ['A second primary malignancy diagnosed within 36 months of study entry', { value: 36, unit: 'months' }],
    ] as const) {
      const result = read('exclusion', text);
      const rule = result.rule as ConditionRule;
      expect(rule?.type, text).toBe('condition');
      expect(rule.present, text).toBe(false);
      expect(
        rule.concepts?.map((concept) => concept.id),
        text,
      ).toEqual(['mesh:D000009369']);
      expect(rule.within, text).toEqual(within);
      expect(rule.otherThanTrialCondition, text).toBe(true);
      expect(result.needsReview, text).toBe(false);
    }
  });

  it('holds "ever" for a history word without a window, and "now" for an active one', () => {
    const prior = ruleOf('exclusion', 'Prior or coexisting second malignancy');
    expect(prior?.history).toBe(true);
    expect(prior?.within).toBeUndefined();
    const active = ruleOf('exclusion', 'Evidence of another active cancer');
    expect(active?.history).toBeUndefined();
    expect(active?.otherThanTrialCondition).toBe(true);
  });

  it("reads \"other than the condition under study\" as the trial's own cancer, the study's start as the window's end", () => {
    const result = read('exclusion', 'Malignancy other than the cancer being studied within 3 years prior to the first dose of study drug');
    expect((result.rule as ConditionRule).otherThanTrialCondition).toBe(true);
    expect((result.rule as ConditionRule).within).toEqual({ value: 3, unit: 'years' });
    expect(result.needsReview).toBe(false);
  });

  it('holds the excepted cancers as the concepts the vocabulary reads for them, their treatment words aside', () => {
    const rule = ruleOf(
      'exclusion',
      'History of another cancer in the last 3 years, apart from properly treated basal cell skin carcinoma, localized prostate cancer or carcinoma in situ of the breast',
    );
    const ids = exceptedIds(rule);
    expect(ids).toContain('cohortly:prostate-cancer');
    expect(ids).toContain('mesh:D002278');
    expect(read('exclusion', 'Any other malignancy within 5 years, excluding curatively treated superficial bladder cancer').needsReview).toBe(false);
  });

  it('reads an inclusion that asks for none the same way', () => {
    const plain = read('inclusion', 'Free of any other malignancy for the previous 5 years');
    expect(plain.rule?.type === 'condition' && plain.rule.present).toBe(false);
    const none = ruleOf('inclusion', 'Must have no other cancer within the previous 5 years');
    expect(none?.present).toBe(false);
    expect(none?.otherThanTrialCondition).toBe(true);
  });

  it("names the trial's own cancer and the exception in the question", () => {
    const text = 'Another cancer within 3 years other than basal cell carcinoma';
    const rule = ruleOf('exclusion', text);
    const form = JSON.stringify(generateStudyBlocks({ criteria: [{ id: 'c1', kind: 'exclusion', text, rule, needsReview: false }] } as never));
    expect(form).toContain('not the one this study is for');
  });
});

describe('what is not read as another cancer without review', () => {
  it('leaves a family history, a cancer treatment and a spread cancer to other readers', () => {
    for (const text of ['Family history of any other cancer', 'Another anti-cancer therapy within 4 weeks', 'Other cancer treatment ongoing']) {
      const rule = ruleOf('exclusion', text);
      expect(rule?.type === 'condition' && rule.otherThanTrialCondition && !read('exclusion', text).needsReview, text).toBeFalsy();
    }
  });

  it('never reads a permission as an exclusion', () => {
    const text = 'Patients with a second cancer treated over 3 years ago are eligible';
    const result = read('exclusion', text);
    expect(result.rule?.type === 'condition' && !result.rule.present && !result.needsReview).toBe(false);
  });

  it('never turns an inclusion that asks for another cancer into one that refuses it', () => {
    const rule = ruleOf('inclusion', 'Participants with another malignancy diagnosed in the past year');
    expect(rule?.type === 'condition' && rule.present === false).toBe(false);
  });

  it('sends an exception with a condition the rule cannot hold to review, the exception still held', () => {
    const result = read('exclusion', 'Another malignancy, except skin cancer treated with curative intent with no sign of disease for 2 years');
    expect(result.needsReview).toBe(true);
    expect(exceptedIds(result.rule as ConditionRule).length).toBeGreaterThan(0);
    expect(read('exclusion', 'Other cancer within 5 years except other cancers with a negligible risk of spreading').needsReview).toBe(true);
  });

  it('sends a narrower cancer to review: invasive, needing treatment', () => {
    expect(read('exclusion', 'Another invasive cancer within 2 years').needsReview).toBe(true);
    expect(read('exclusion', 'Other malignancy currently requiring systemic treatment').needsReview).toBe(true);
  });
});
