import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** How a condition is known or held says nothing a person must check (criteria/how-known.ts, decision 214). New wording. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('who diagnosed or reports a condition, and the verb of having it', () => {
  it('reads the condition whole, with no review', () => {
    const cases: Array<[string, string]> = [
      ['Doctor-diagnosed psoriasis', 'psoriasis'],
      ['Gout confirmed by the treating physician', 'gout'],
      ['Medically documented history of epilepsy', 'epilepsy or seizures'],
      ['Self-reported migraine', 'migraine'],
      ['Patient reports a diagnosis of fibromyalgia', 'fibromyalgia'],
      ['An established diagnosis of heart failure', 'heart failure'],
      ['People suffering from Crohn disease', "Crohn's disease"],
      ['Adults presenting with gout', 'gout'],
      ['Persons living with HIV', 'HIV'],
      ['Comorbid fibromyalgia', 'fibromyalgia'],
      ['Pre-existing peripheral neuropathy', 'nerve damage (neuropathy)'],
      ['Past medical history of myocardial infarction', 'a heart attack'],
      ['Any form of epilepsy', 'epilepsy or seizures'],
    ];
    for (const [text, condition] of cases) {
      const rule = read('exclusion', text);
      expect(rule, text).toMatchObject({ rule: { type: 'condition', present: false, condition }, needsReview: false });
    }
  });

  it('a time word is read only where the rule holds the window that says it', () => {
    expect(read('exclusion', 'Recently diagnosed lung cancer (within the past 2 years)')).toMatchObject({
      rule: { type: 'condition', within: { value: 2, unit: 'years' } },
      needsReview: false,
    });
    expect(read('exclusion', 'Recent heart attack').needsReview).toBe(true);
  });

  it('a word that narrows the condition stays for a person', () => {
    // "Established" rheumatoid arthritis is a stage of it (against early arthritis), not a diagnosis made.
    for (const text of [
      'Established rheumatoid arthritis',
      'Asthma affecting daily activities',
      'Signs of cauda equina syndrome',
      'Hospital admission for heart failure in the past year',
    ])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });

  it('"those" is a person, "into" a preposition; planned pregnancy is the pregnancy rule', () => {
    expect(read('exclusion', 'Those with type 1 diabetes')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
    expect(read('exclusion', 'Angina within 3 months before entry into the trial')).toMatchObject({
      rule: { type: 'condition', within: { value: 3, unit: 'months' } },
      needsReview: false,
    });
    expect(read('exclusion', 'Pregnant, or a planned pregnancy while in the study')).toMatchObject({ rule: { type: 'pregnancy' }, needsReview: false });
    expect(read('exclusion', 'Breastfeeding or intending to breastfeed during the trial')).toMatchObject({ rule: { type: 'pregnancy' }, needsReview: false });
  });
});

describe('a named set of diagnostic criteria (decision 240)', () => {
  it('says how the diagnosis is made, version numbers and all', () => {
    const cases: Array<[string, string]> = [
      ['Meets DSM-5 criteria for schizophrenia', 'schizophrenia'],
      ['Bipolar disorder according to DSM-IV-TR criteria', 'bipolar disorder'],
      ['Irritable bowel syndrome by the Rome IV criteria', 'irritable bowel syndrome'],
      ['Multiple sclerosis by the revised McDonald criteria', 'multiple sclerosis'],
      ['A DSM-5 diagnosis of autism', 'autism'],
    ];
    for (const [text, condition] of cases)
      for (const kind of ['inclusion', 'exclusion'] as const) expect(read(kind, text), text).toMatchObject({ rule: { condition }, needsReview: false });
  });

  it('classification, response and toxicity criteria say more than the condition', () => {
    // Classification criteria are stricter than a diagnosis.
    for (const text of [
      'Glioma progressing by RANO criteria',
      'Neuropathy of grade 2 per CTCAE criteria',
      'Melanoma measurable per RECIST criteria',
      'Lupus meeting the 2019 EULAR/ACR classification criteria',
    ])
      expect(read('inclusion', text).needsReview, text).toBe(true);
  });
});

describe('"has experienced", "underwent" (decision 240)', () => {
  it('say the person had it: ever, with nothing left to read', () => {
    expect(read('exclusion', 'Has experienced a pulmonary embolism')).toMatchObject({ rule: { history: true }, needsReview: false });
    expect(read('exclusion', 'Underwent a cholecystectomy')).toMatchObject({ rule: { condition: 'cholecystectomy', history: true }, needsReview: false });
    expect(read('exclusion', 'Has undergone a nephrectomy')).toMatchObject({ rule: { history: true }, needsReview: false });
    // "Experiencing" is now, not ever.
    expect(read('exclusion', 'Currently experiencing gout flares').rule).not.toMatchObject({ history: true });
  });
});
