import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 319: a diagnostic test named as the way a disease was found is no alternative to it. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const condition = (rule: CriterionRule | null) => (rule?.type === 'condition' ? rule.condition : null);

describe('a test that found the disease', () => {
  it('is not read as a second condition, before or after the disease', () => {
    expect(condition(read('inclusion', 'Biopsy-confirmed bladder cancer').rule)).toBe('bladder cancer');
    expect(condition(read('inclusion', "Crohn's disease diagnosed on colonoscopy").rule)).toBe("Crohn's disease");
    expect(condition(read('exclusion', 'Relapse of lymphoma shown after a lymph node biopsy').rule)).not.toMatch(/biopsy/);
  });

  it('needs no review for a cancer known from its tissue', () => {
    expect(read('inclusion', 'Biopsy-proven cancer of the prostate')).toMatchObject({ rule: { type: 'condition', present: true }, needsReview: false });
  });

  it('leaves the test for a person to read when another disease is usually diagnosed without it', () => {
    const read_ = read('inclusion', 'Coeliac disease proven by duodenal biopsy');
    expect(condition(read_.rule)).toBe('celiac disease');
    expect(read_.needsReview).toBe(true);
  });

  it('stays a condition of its own when no disease is found with it', () => {
    expect(condition(read('exclusion', 'Endoscopy within the last 4 weeks').rule)).toBe('endoscopy');
    expect(condition(read('exclusion', 'Stroke or colonoscopy in the past 3 months').rule)).toMatch(/stroke.*colonoscopy/);
  });
});

describe('"not limited to" opens examples', () => {
  it('never negates the examples, however its "but" is written', () => {
    expect(read('inclusion', 'Malignant lesion of the colon, including by not limited to adenocarcinoma').rule).toMatchObject({
      type: 'condition',
      present: true,
    });
  });
});
