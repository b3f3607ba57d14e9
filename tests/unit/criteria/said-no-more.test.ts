import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';

/**
 * Words that say no more than the rule (decision 229): a part of the spine named with the spine after any condition, "of
 * any cause" and its kin, and an exclusion that restates that such people are refused. New wording.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => {
  const { rule, needsReview } = readTextRule(kind, text);
  return { words: rule ? ruleInWords(rule) : null, needsReview };
};

describe('a part of the spine named with the spine', () => {
  it('is held as the place of any one condition', () => {
    expect(read('exclusion', 'Osteomyelitis of the cervical spine')).toEqual({
      words: 'Must not have a bone infection (osteomyelitis) (cervical) [ICD-10-CM M86.9]',
      needsReview: false,
    });
    expect(read('exclusion', 'Prior arthrodesis at any level of the lumbar spine')).toMatchObject({ needsReview: false });
    expect(read('exclusion', 'Prior arthrodesis at any level of the lumbar spine').words).toContain('(lumbar)');
    expect(read('inclusion', 'Gout of the thoracic vertebrae').words).toContain('(thoracic)');
  });

  it('the study’s own level, one level, a second place or a second condition stay for a person', () => {
    for (const text of [
      'Osteomyelitis at the index level of the lumbar spine',
      'Osteomyelitis at one level of the lumbar spine',
      'Osteomyelitis of the cervical spine or hip',
      'Gout or osteomyelitis of the lumbar spine',
      // "Cervical" with no spine word is the cervix.
      'Osteomyelitis of the cervix',
    ])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });

  it('a general fracture or tumour is never a fracture "in your mid or upper back" by this path', () => {
    // These have spine forms of their own (decision 193); a place they do not read keeps the rule in review.
    expect(read('exclusion', 'Previous fracture at any level of the thoracic spine').needsReview).toBe(true);
    expect(read('exclusion', 'Tumour at any level of the lumbar spine').needsReview).toBe(true);
  });
});

describe('every cause or kind of a condition', () => {
  it('reads the condition whole', () => {
    const cases: Array<[string, string]> = [
      ['Anaemia regardless of cause', 'Must not have anemia [ICD-10-CM D64.9]'],
      ['Hepatitis of any aetiology', 'Must not have hepatitis'],
      ['Neuropathy, whatever its cause', 'Must not have nerve damage (neuropathy) [ICD-10-CM G62.9]'],
      ['Pancreatitis irrespective of the severity', 'Must not have pancreatitis [ICD-10-CM K85]'],
      ['Any degree of heart failure', 'Must not have heart failure [ICD-10-CM I50]'],
      ['Liver disease of any severity', 'Must not have liver disease [ICD-10-CM K76.9]'],
    ];
    for (const [text, words] of cases) expect(read('exclusion', text), text).toEqual({ words, needsReview: false });
  });

  it('"regardless of whether ..." says something else, and stays for a person', () => {
    expect(read('exclusion', 'Asthma, regardless of whether it is controlled').needsReview).toBe(true);
  });
});

describe('an exclusion that restates the refusal', () => {
  it('says nothing a person must check', () => {
    expect(read('exclusion', 'Participants with gout are not eligible')).toEqual({ words: 'Must not have gout [ICD-10-CM M10.9]', needsReview: false });
    expect(read('exclusion', 'People with epilepsy cannot take part in this study')).toMatchObject({ needsReview: false });
    expect(read('exclusion', 'Those with glaucoma may not be enrolled.')).toMatchObject({ needsReview: false });
  });

  it('not at the clause’s end, or a permission, is not a restatement', () => {
    // A statement about the person, not about the study.
    expect(read('exclusion', 'Patients with diabetes not eligible for surgery').needsReview).toBe(true);
    // In an exclusion list, "are eligible" permits: never read as refusing them.
    expect(read('exclusion', 'Patients with hypothyroidism are eligible').needsReview).toBe(true);
    expect(read('exclusion', 'Anyone with psoriasis cannot participate in the follow-up visits').needsReview).toBe(true);
  });
});

describe('who diagnosed it, when, and how much it matters, in other words', () => {
  it('a named specialist is a doctor', () => {
    expect(read('exclusion', 'Epilepsy diagnosed by a neurologist')).toEqual({
      words: 'Must not have epilepsy or seizures [ICD-10-CM G40]',
      needsReview: false,
    });
    expect(read('exclusion', 'Diagnosis of psoriasis confirmed by a dermatologist')).toMatchObject({ needsReview: false });
  });

  it('"told they have" is the question’s own words; "lifetime history" is ever', () => {
    expect(read('exclusion', 'Persons who have been told they have diabetes')).toEqual({ words: 'Must not have diabetes', needsReview: false });
    expect(read('exclusion', 'Told by a doctor that they have glaucoma')).toMatchObject({ needsReview: false });
    expect(read('exclusion', 'Lifetime history of schizophrenia')).toEqual({ words: 'Must not have schizophrenia (ever) [ICD-10-CM F20]', needsReview: false });
  });

  it('"past or present" is ever', () => {
    expect(read('exclusion', 'Past or present asthma')).toEqual({ words: 'Must not have asthma (ever) [ICD-10-CM J45]', needsReview: false });
    expect(read('exclusion', 'Present or previous gout').words).toBe('Must not have gout (ever) [ICD-10-CM M10.9]');
  });

  it('"clinically relevant" and "clinically important" are clinically significant; "relevant" alone is not read', () => {
    expect(read('exclusion', 'Clinically important liver disease')).toEqual({
      words: 'Must not have liver disease (clinically significant) [ICD-10-CM K76.9]',
      needsReview: false,
    });
    expect(read('exclusion', 'Clinically relevant cardiovascular disease').words).toContain('(clinically significant)');
    expect(read('exclusion', 'Relevant liver disease').needsReview).toBe(true);
  });
});
