import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Lab values and vitals: thresholds, their units and the words around them (trials/criteria/labs.ts). Every phrasing here is new wording, not a corpus record's. */

describe('a label that a threshold defines (decision 090)', () => {
  const review = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text).needsReview;

  it('reads the label with its threshold: the rule is the whole criterion', () => {
    expect(readTextRule('exclusion', 'Severe renal impairment (eGFR < 30 mL/min/1.73 m2)')).toMatchObject({
      rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 30 },
      needsReview: false,
    });
    expect(review('exclusion', 'Known kidney insufficiency, defined as creatinine clearance < 40 mL/min')).toBe(false);
    expect(review('exclusion', 'Uncontrolled type 2 diabetes (HbA1c > 9%)')).toBe(false); // the "2" is the label's (decision 377)
    expect(review('exclusion', 'Inadequately controlled diabetes, i.e. HbA1c above 10%')).toBe(false);
    expect(review('exclusion', 'Anaemia with haemoglobin below 10 g/dL')).toBe(false);
    expect(review('exclusion', 'Morbid obesity: BMI > 45 kg/m2')).toBe(false);
  });

  it('an alternative joined by "or" and a label of another measure stay in review', () => {
    expect(review('exclusion', 'Diabetes or HbA1c > 8%')).toBe(true);
    expect(review('exclusion', 'Thrombocytopenia (platelets < 100 x 10^9/L) or neutropenia')).toBe(true);
    expect(review('exclusion', 'Anaemia or eGFR < 30 mL/min/1.73 m2')).toBe(true);
    expect(review('exclusion', 'Obesity and renal impairment (eGFR < 30 mL/min/1.73 m2)')).toBe(true);
  });
});

describe('a threshold in two units, and a heading that says when criteria are checked', () => {
  it('the same threshold in another unit, in parentheses, says nothing more', () => {
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['inclusion', 'HbA1c ≥ 7.5% (58 mmol/mol) at the screening visit', { measure: 'HbA1c', comparator: '>=', value: 7.5 }],
      ['inclusion', 'HbA1c from 6.5 to 9.0 per cent (48 to 75 mmol/mol), both inclusive', { comparator: 'between', value: 6.5, upperValue: 9 }],
      ['exclusion', 'Serum creatinine above 2.0 mg/dL (177 µmol/L)', { measure: 'creatinine', comparator: '<=', value: 2 }],
      ['exclusion', 'Fasting triglycerides > 5.6 mmol/L (500 mg/dL) as measured by the local laboratory', { measure: 'triglycerides', comparator: '<=' }],
    ];
    for (const [kind, text, rule] of cases) {
      const read = readTextRule(kind as 'inclusion' | 'exclusion', text);
      expect(read.rule, text).toMatchObject({ type: 'lab', ...rule });
      expect(read.needsReview, text).toBe(false);
    }
  });

  it('a parenthesis with another value, or another measure, stays in review', () => {
    for (const text of [
      // 2.0 mg/dL is 177 µmol/L, not 250: one of the two is not the rule.
      'Serum creatinine above 2.0 mg/dL (250 µmol/L)',
      'Serum creatinine above 2.0 mg/dL (or creatinine clearance below 40 mL/min)',
      'HbA1c above 10% (86 mmol/mol) on two readings 3 months apart',
    ]) {
      expect(readTextRule('exclusion', text).needsReview, text).toBe(true);
    }
  });

  it('a heading that says how the criteria under it are checked is no part of the criterion', () => {
    const read = readTextRule('exclusion', 'Laboratory Exclusion Criteria: Platelet count below 75 x 10^9/L');
    expect(read.rule).toMatchObject({ type: 'lab', measure: 'platelets', comparator: '>=', value: 75 });
    expect(read.needsReview).toBe(false);
    const condition = readTextRule('exclusion', 'Clinical exclusion criteria: ankylosing spondylitis');
    expect(condition.rule).toMatchObject({ type: 'condition', present: false });
    expect(condition.needsReview).toBe(false);
    // A heading that names a group narrows who the criterion applies to: still read by a person.
    expect(readTextRule('exclusion', 'Clinical exclusion criteria for the surgical arm: ankylosing spondylitis').needsReview).toBe(true);
    // An imaging heading says how staff find an excluded condition, no more than having it (decision 184, as decision
    // 161's blood tests); in an inclusion the imaging is a requirement, which a person reads.
    expect(readTextRule('exclusion', 'Radiologic exclusion criteria: ankylosing spondylitis')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Radiologic inclusion criteria: ankylosing spondylitis').reasons).toContain('clinician');
  });
});

describe('the words of a measure and of a point in time', () => {
  it('how a filtration rate was estimated, when a value was measured, and the ASA class by its full name', () => {
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['inclusion', 'eGFR ≥ 45 mL/min/1.73 m2 (CKD-EPI equation) during the screening period', { measure: 'eGFR', comparator: '>=', value: 45 }],
      ['exclusion', 'Creatinine clearance < 50 mL/min (Cockcroft-Gault)', { measure: 'creatinine clearance', comparator: '>=', value: 50 }],
      ['inclusion', 'Physical Status Classification of the American Society of Anesthesiologists (ASA) ≤ 2', { measure: 'ASA physical status', value: 2 }],
    ];
    for (const [kind, text, rule] of cases) {
      const read = readTextRule(kind as 'inclusion' | 'exclusion', text);
      expect(read.rule, text).toMatchObject({ type: 'lab', ...rule });
      expect(read.needsReview, text).toBe(false);
    }
    // Another period than screening is more than the rule.
    expect(readTextRule('exclusion', 'Creatinine clearance < 50 mL/min during the treatment period').needsReview).toBe(true);
  });

  it('"investigational therapy" is a medicine tested in another study, and the start of a treatment is a point in time', () => {
    const read = readTextRule('exclusion', 'Received any investigational therapy within 30 days before the start of study treatment');
    expect(read.rule).toMatchObject({ type: 'medication', taking: false, within: { value: 30, unit: 'days' } });
    expect(read.rule?.type === 'medication' && read.rule.concepts?.map((concept) => concept.id)).toEqual(['cohortly:investigational-drug']);
    expect(read.needsReview).toBe(false);
    // "Prior to initiation of radiotherapy": the radiotherapy is when, not a second treatment that excludes.
    const point = readTextRule('exclusion', 'Chemotherapy within 3 weeks prior to initiation of radiotherapy');
    expect(point.rule?.type === 'medication' && point.rule.medication).toBe('chemotherapy');
  });
});

describe('a bound written before the measure, or as its minimum or maximum', () => {
  it('"minimum X of N" and "maximum X of N" are the bound, read as usual', () => {
    expect(readTextRule('inclusion', 'Minimum NRS of 30/100')).toMatchObject({
      rule: { type: 'lab', measure: 'pain score', comparator: '>=', value: 3, unit: '/10' },
      needsReview: false,
    });
    expect(readTextRule('inclusion', 'Maximum body mass index of 32 kg/m2')).toMatchObject({
      rule: { type: 'lab', measure: 'BMI', comparator: '<=', value: 32 },
      needsReview: false,
    });
    // An exclusion's maximum: an eligible person is above it.
    expect(readTextRule('exclusion', 'Minimum platelets of 50 x 10^9/L')).toMatchObject({ rule: { comparator: '<', value: 50 } });
  });

  it('a value before the scale that measures it is the rule, in review: what the words before it say is not read', () => {
    expect(readTextRule('inclusion', 'Worst pain rated at least 6 on the VAS')).toMatchObject({
      rule: { type: 'lab', measure: 'pain score', comparator: '>=', value: 6, unit: '/10' },
      needsReview: true,
    });
    // Relative to a reference population: never an absolute value.
    expect(readTextRule('inclusion', 'Height less than 2 SD below the mean by the BMI charts').rule).toBeNull();
  });

  it('the Oswestry score by any of its names, on its 0-100 scale', () => {
    for (const text of ['Oswestry questionnaire score of at least 35/100', 'ODI ≥ 35%', 'Oswestry Low Back Pain Disability Questionnaire ≥ 35'])
      expect(readTextRule('inclusion', text).rule).toMatchObject({ type: 'lab', measure: 'Oswestry Disability Index', comparator: '>=', value: 35 });
  });
});

describe('units written in words (decision 180)', () => {
  it('read as their symbols, converted to the measure’s unit, and the words are the rule’s', () => {
    expect(readTextRule('exclusion', 'Serum creatinine greater than 177 micromoles per liter')).toMatchObject({
      rule: { type: 'lab', measure: 'creatinine', comparator: '<=', unit: 'mg/dL' },
      needsReview: false,
    });
    expect((readTextRule('exclusion', 'Serum creatinine greater than 177 micromoles per liter').rule as { value: number }).value).toBeCloseTo(2, 1);
    expect(readTextRule('inclusion', 'Haemoglobin of at least 11 grams per decilitre')).toMatchObject({
      rule: { type: 'lab', measure: 'hemoglobin', comparator: '>=', value: 11, unit: 'g/dL' },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Diastolic blood pressure above 95 millimetres of mercury')).toMatchObject({
      rule: { type: 'lab', measure: 'diastolic blood pressure', comparator: '<=', value: 95, unit: 'mmHg' },
      needsReview: false,
    });
  });

  it('the symbol restated in a parenthesis says nothing more; the rule’s span covers the words', () => {
    const text = 'BMI under 40 kilograms per square metre (kg/m2)';
    const read = readTextRule('inclusion', text);
    expect(read).toMatchObject({ rule: { type: 'lab', measure: 'BMI', comparator: '<', value: 40, unit: 'kg/m2' }, needsReview: false });
    expect(text.slice(read.rule!.span!.start, read.rule!.span!.end)).toBe('BMI under 40 kilograms per square metre (kg/m2)');
    expect(readTextRule('exclusion', 'Estimated GFR lower than 60 millilitres per minute per 1.73 square metres (mL/min/1.73m²)')).toMatchObject({
      rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 60, unit: 'mL/min/1.73m2' },
      needsReview: false,
    });
    // Another value in the parenthesis is more than the rule: a person reads it.
    expect(readTextRule('inclusion', 'BMI under 40 kilograms per square metre (35 for women)').needsReview).toBe(true);
  });
});

describe("an organ's function called adequate, defined by its threshold (decision 243)", () => {
  it('is the threshold, with nothing else said', () => {
    const cases: Array<[string, string]> = [
      ['Participants must have adequate kidney function, defined as serum creatinine of 1.4 mg/dL or less', 'creatinine'],
      ['Adequate liver function: total bilirubin ≤ 1.5 x ULN', 'bilirubin'],
      ['Adequate bone marrow reserve with platelets ≥ 75,000/mm3', 'platelets'],
      ['Normal cardiac function with LVEF ≥ 50%', 'LVEF'],
    ];
    for (const [text, measure] of cases) expect(readTextRule('inclusion', text), text).toMatchObject({ rule: { type: 'lab', measure }, needsReview: false });
  });

  it('a second measure of the definition, or an alternative to it, stays in review with its reason', () => {
    const two = readTextRule('inclusion', 'Adequate liver function: total bilirubin ≤ 1.5 x ULN and AST ≤ 3 x ULN');
    expect(two.needsReview).toBe(true);
    expect(two.reasons).toContain('anotherMeasure');
    const alternative = readTextRule('inclusion', 'Adequate renal function or creatinine ≤ 2 mg/dL');
    expect(alternative.needsReview).toBe(true);
    expect(alternative.reasons).toContain('alternative');
  });
});

describe('counts and fractions with their unit in words or with a caret (decision 243)', () => {
  it('reads "per mm3", "per microliter", "/mm^3" and "percent" as the unit', () => {
    const cases: Array<[string, number, string]> = [
      ['Neutrophils ≥ 1200 per mm3', 1.2, '10^9/L'],
      ['Platelets of at least 90,000 per microliter', 90, '10^9/L'],
      ['WBC count ≥ 3000/mm^3', 3, '10^9/L'],
      ['Left ventricular ejection fraction of 45 percent or more', 45, '%'],
    ];
    for (const [text, value, unit] of cases)
      expect(readTextRule('inclusion', text), text).toMatchObject({ rule: { type: 'lab', value, unit }, needsReview: false });
  });

  it('a length per millimetre is not a count', () => {
    expect(readTextRule('inclusion', 'Platelets ≥ 100 per millimetre of film').needsReview).toBe(true);
  });
});

describe('a multiple of the normal range, however its limit is written (decision 243)', () => {
  it('is a bound relative to the limit, never a value in the measure unit', () => {
    for (const text of [
      'Creatinine no higher than 1.8 x the upper limit of institutional normal',
      'ALT ≤ 4 x upper normal limit',
      'AST < 2 x IULN',
      'Bilirubin ≤ 2 × local ULN',
    ])
      expect(readTextRule('inclusion', text).rule, text).toMatchObject({ type: 'lab', relativeTo: 'ULN' });
  });

  it('a normal-range word the bound did not take keeps an absolute bound in review', () => {
    const read = readTextRule('inclusion', 'Haemoglobin within normal limits and at least 11 g/dL');
    expect(read.needsReview).toBe(true);
    expect(read.reasons).toContain('normalRangeUnread');
  });
});
