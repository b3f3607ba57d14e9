import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 301: "X-associated Y", "X-induced Y", "X-related Y" name Y, caused by X; the rule is about Y (X a qualifier
 * the rule does not hold, so a person reviews it), never "has X" or "takes X". New wording, not corpus sentences.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const names = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule && 'concepts' in rule ? (rule.concepts ?? []).map((concept) => concept.name) : [];
};

describe('a condition named with its cause before it', () => {
  it('is about the condition, not the cause', () => {
    expect(names('inclusion', 'Confirmed HIV-associated pulmonary hypertension')).not.toContain('HIV');
    expect(names('inclusion', 'Hepatitis C-associated cryoglobulinemia')).toEqual(['cryoglobulinemia']);
    expect(names('exclusion', 'History of alcohol-induced pancreatitis').join()).toMatch(/pancreatitis/);
    expect(read('exclusion', 'History of alcohol-induced pancreatitis').rule).not.toMatchObject({ type: 'medication' });
  });

  it('never reads a medicine that caused it as one the person takes', () => {
    for (const text of ['Corticosteroid-induced osteoporosis', 'Chemotherapy induced nausea', 'Heparin-related thrombocytopenia']) {
      const rule = read('exclusion', text).rule;
      expect(rule?.type ?? null, text).not.toBe('medication');
    }
  });

  it('keeps the cause for a person to check', () => {
    expect(read('inclusion', 'Connective tissue disease-associated interstitial lung disease').needsReview).toBe(true);
    expect(read('exclusion', 'Steroid-induced hyperglycaemia').needsReview).toBe(true);
  });

  it('keeps the condition when the cause is written after it', () => {
    expect(names('inclusion', 'Pulmonary hypertension associated with portal hypertension').join()).toMatch(/pulmonary/i);
    expect(names('inclusion', 'Anaemia secondary to chronic kidney disease').join()).toMatch(/anemia/i);
  });

  it('still reads an illness of HIV as HIV', () => {
    expect(names('exclusion', 'HIV or AIDS-related disease')).toContain('HIV');
  });
});
