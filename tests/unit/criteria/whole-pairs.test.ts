import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';

/**
 * Modifiers that together name every form of a condition (decision 227), and an inclusion that wants several conditions
 * absent (decision 228). New wording, written for these tests.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => {
  const { rule, needsReview } = readTextRule(kind, text);
  return { words: rule ? ruleInWords(rule) : null, needsReview };
};

describe('two opposites before a condition name all of it', () => {
  it('reads the whole condition, with no qualifier and no review', () => {
    const cases: Array<[string, string]> = [
      ['Controlled or uncontrolled hypertension', 'Must not have high blood pressure [ICD-10-CM I10]'],
      ['Treated or untreated glaucoma', 'Must not have glaucoma [ICD-10-CM H40]'],
      ['Active or inactive tuberculosis', 'Must not have tuberculosis (TB) [ICD-10-CM A15]'],
      ['Complete or partial paralysis', 'Must not have paralysis'],
      ['Single or multiple kidney stones', 'Must not have kidney stones [ICD-10-CM N20.0]'],
      ['Ischemic or non-ischemic cardiomyopathy', 'Must not have heart muscle disease (cardiomyopathy) [ICD-10-CM I42.9]'],
      ['Traumatic or nontraumatic spinal cord injury', 'Must not have a spinal cord injury [ICD-10-CM S14.109]'],
      ['Epilepsy, controlled or uncontrolled', 'Must not have epilepsy or seizures [ICD-10-CM G40]'],
      ['Acute or chronic systemic or localised fungal infections', 'Must not have mycoses'],
      ['Gout, whether treated or not', 'Must not have gout [ICD-10-CM M10.9]'],
      ['Asthma, controlled or not', 'Must not have asthma [ICD-10-CM J45]'],
    ];
    for (const [text, words] of cases) expect(read('exclusion', text), text).toEqual({ words, needsReview: false });
    expect(read('inclusion', 'Unilateral or bilateral sciatica')).toEqual({ words: 'Must have sciatica [ICD-10-CM M54.3]', needsReview: false });
  });

  it('every severity is no severity: the question does not narrow to the worse ones', () => {
    expect(read('exclusion', 'Mild, moderate or severe rosacea')).toEqual({ words: 'Must not have rosacea [ICD-10-CM L71.9]', needsReview: false });
    expect(read('exclusion', 'Mild to severe rosacea')).toEqual({ words: 'Must not have rosacea [ICD-10-CM L71.9]', needsReview: false });
    // Two of three severities still narrow.
    expect(read('exclusion', 'Moderate or severe rosacea')).toEqual({
      words: 'Must not have rosacea (moderate or severe) [ICD-10-CM L71.9]',
      needsReview: false,
    });
  });

  it('a qualifier beside the pair is still held', () => {
    expect(read('exclusion', 'Severe, controlled or uncontrolled asthma').words).toContain('(severe)');
  });

  it('words that leave out a form, or are not opposites, stay for a person', () => {
    for (const text of [
      // Permanent atrial fibrillation is neither.
      'Paroxysmal or persistent atrial fibrillation',
      // Two ways of being inadequately treated, not every form.
      'Uncontrolled or untreated hypertension',
      'Small cell or non-small cell lung cancer',
      // "Severe or not" is no pair of opposites the reader knows.
      'Gout, whether severe or not',
      // In remission is a past the rule's present would not say.
      'Cancer, either active or in remission',
    ])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });
});

describe('an inclusion that wants several conditions absent', () => {
  it('"without A and B" wants none of them, as an exclusion would', () => {
    expect(read('inclusion', 'Without asthma and eczema')).toEqual({
      words: 'Must not have asthma or eczema (atopic dermatitis) [ICD-10-CM J45, L20]',
      needsReview: false,
    });
    expect(read('inclusion', 'No epilepsy, migraine and glaucoma')).toMatchObject({ needsReview: false });
    expect(read('inclusion', 'Free of gout and psoriasis').words).toBe('Must not have gout or psoriasis [ICD-10-CM M10.9, L40]');
  });

  it('an inclusion that wants them present, or absent only together, stays for a person', () => {
    expect(read('inclusion', 'Gout and psoriasis').needsReview).toBe(true);
    expect(read('inclusion', 'Not both asthma and eczema').needsReview).toBe(true);
    expect(read('inclusion', 'No asthma and eczema together').needsReview).toBe(true);
  });
});
