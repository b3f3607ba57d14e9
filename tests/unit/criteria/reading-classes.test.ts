import { describe, expect, it } from 'vitest';
import { parseCriteria, readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Issue 30: criteria read for what they say, not what their words touch. Each class on new wording (none of these
 * sentences is a corpus record's). Precision first: where the reader cannot say it, a person reads the criterion.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const ruleOf = (kind: 'inclusion' | 'exclusion', text: string) => read(kind, text).rule;

describe('a parenthesis that qualifies is not an alternative', () => {
  it('a cause and then "any other" names the whole condition, read with no review', () => {
    expect(read('inclusion', 'Polyneuropathy (alcoholic or other)')).toMatchObject({
      rule: { type: 'condition', condition: 'nerve damage (neuropathy)', present: true },
      needsReview: false,
    });
    expect(read('inclusion', 'Anaemia (any cause)').rule).toMatchObject({ type: 'condition', present: true });
    expect(JSON.stringify(ruleOf('inclusion', 'Polyneuropathy (diabetic or other)'))).not.toContain('diabetes');
  });

  it('named causes without "other" narrow the condition: one condition, in review', () => {
    const reading = read('inclusion', 'Peripheral neuropathy (toxic, alcoholic or idiopathic)');
    expect(reading.rule).toMatchObject({ type: 'condition', condition: 'nerve damage (neuropathy)' });
    expect(reading.needsReview).toBe(true);
  });

  it('what follows "with or without" in its clause is optional, however many words it takes', () => {
    expect(read('inclusion', 'Liver cirrhosis with or without hepatitis C co-infection')).toMatchObject({
      rule: { type: 'condition', condition: 'cirrhosis of the liver', present: true },
      needsReview: false,
    });
    // The infection is optional: never required, never "must not have an infection".
    const rule = ruleOf('inclusion', 'Portal hypertension with or without a viral co-infection');
    expect(rule).toMatchObject({ type: 'condition', condition: 'portal hypertension', present: true });
    expect(JSON.stringify(rule)).not.toMatch(/infection/);
  });
});

describe('a medicine the person cannot take is not one they take', () => {
  it('intolerance written before or after the medicine', () => {
    for (const text of [
      'Statin-intolerant familial hypercholesterolaemia',
      'High cholesterol in people unable to tolerate statins',
      'Intolerance to metformin',
    ]) {
      const rule = ruleOf('inclusion', text);
      expect(rule?.type === 'medication' && rule.taking).not.toBe(true);
    }
    expect(read('inclusion', 'Statin-intolerant familial hypercholesterolaemia')).toMatchObject({
      rule: { type: 'condition', present: true },
      needsReview: true,
    });
  });
});

describe('what a negation reaches', () => {
  it('not meeting the criteria for a condition is the condition negated, not a neighbouring concept', () => {
    expect(read('exclusion', 'Does not fulfil the diagnostic criteria for multiple sclerosis').rule).toMatchObject({
      condition: 'multiple sclerosis',
      present: true,
    });
  });

  it('two conditions written together are one thing: the rule reads the last and a person checks it', () => {
    const reading = read('exclusion', "Alzheimer's disease psychosis");
    expect(JSON.stringify(reading.rule)).not.toMatch(/ or /);
    expect(reading.needsReview).toBe(true);
  });

  it('a condition after a negation the first is not under is set aside: never "no Parkinson\'s disease"', () => {
    const reading = read('inclusion', "Parkinson's disease, not meeting the criteria for its dementia");
    expect(reading.rule).toMatchObject({ type: 'condition', condition: "Parkinson's disease", present: true });
    expect(reading.needsReview).toBe(true);
  });
});

describe('a value relative to a reference population', () => {
  it('standard deviations, percentiles and z-scores are never an absolute threshold', () => {
    for (const text of [
      'Height more than 2.5 SD below the mean for age and sex',
      'Body weight under the 10th percentile for age',
      'Weight-for-length z-score below -2',
      'Haemoglobin more than 2 standard deviations below the normal for age',
    ])
      expect(ruleOf('inclusion', text)?.type ?? null).not.toBe('lab');
  });

  it('an absolute threshold of the same measure is still read', () => {
    expect(ruleOf('inclusion', 'Body weight of at least 45 kg')).toMatchObject({ type: 'lab', measure: 'weight', comparator: '>=', value: 45 });
  });
});

describe('ages joined by "or" are alternatives', () => {
  it('the rule is their union, never the last one read', () => {
    expect(ruleOf('inclusion', 'Aged 2 years or more and/or adolescents aged 12-17')).toMatchObject({ type: 'age', minYears: 2, maxYears: null });
    expect(ruleOf('inclusion', 'Adults 18 years or older, or children aged 6-17 years with a guardian')).toMatchObject({ minYears: 6, maxYears: null });
    expect(ruleOf('inclusion', 'Children aged 2-11 or adolescents aged 12-17 years')).toMatchObject({ minYears: 2, maxYears: 17 });
  });

  it('alternatives that are not one range, or in an exclusion, go to a person', () => {
    expect(read('inclusion', 'Aged 5-10 years or 60-70 years')).toMatchObject({ rule: null, needsReview: true });
    expect(read('exclusion', 'Aged under 2 years or adolescents aged 16-17 years')).toMatchObject({ rule: null, needsReview: true });
  });

  it('"18 or older" is one age, not two', () => {
    expect(ruleOf('inclusion', 'Aged 21 years or older')).toMatchObject({ minYears: 21, maxYears: null });
  });

  it('a score "2 or greater" beside a group word is no age', () => {
    expect(ruleOf('inclusion', 'Adult outpatients whose tremor item is scored 3 or greater')?.type ?? null).not.toBe('age');
  });
});

describe("an infant's age stays a fraction of a year", () => {
  it('weeks, months and mixed units convert, never rounded to 0', () => {
    expect(ruleOf('inclusion', 'Infants aged 4 weeks to 9 months')).toMatchObject({ type: 'age', minYears: 0.08, maxYears: 0.75 });
    expect(ruleOf('inclusion', 'Children aged 9 months to 4 years')).toMatchObject({ minYears: 0.75, maxYears: 4 });
    expect(ruleOf('exclusion', 'Infants younger than 10 weeks')).toMatchObject({ type: 'age', minYears: 0.19, maxYears: null });
  });

  it('weeks without an age word or an infant are a duration, never an age', () => {
    expect(ruleOf('exclusion', 'Antibiotics for less than 6 weeks')?.type ?? null).not.toBe('age');
  });

  it('"from birth" is age 0, never the condition of being born (decision 180)', () => {
    const newborns = ruleOf('inclusion', 'Newborns and children from birth up to 11 years');
    expect(newborns).toMatchObject({ type: 'age', maxYears: 11 });
    expect(newborns?.type === 'age' && (newborns.minYears ?? 0)).toBe(0);
    expect(readTextRule('inclusion', 'Babies from birth to 3 months old')).toMatchObject({ rule: { type: 'age', maxYears: 0.25 }, needsReview: false });
    // Not an age range: left to the other readers.
    expect(ruleOf('exclusion', 'Hearing loss from birth')?.type ?? null).not.toBe('age');
  });
});

describe('cohorts that are alternatives', () => {
  it('two inclusions no one can meet together are cohorts: either is enough, neither fails a person alone', () => {
    const criteria = parseCriteria('Inclusion Criteria:\n\n* Emphysema, current smoker\n* Emphysema, never smoked\n* Age 45-80');
    const [smoker, never, age] = criteria;
    expect(smoker).toMatchObject({ rule: { type: 'smoking', smoker: true }, needsReview: true, population: 'Emphysema, current smoker' });
    expect(never).toMatchObject({ rule: { type: 'smoking', smoker: false }, needsReview: true, population: 'Emphysema, never smoked' });
    expect(age).toMatchObject({ needsReview: false, population: null });
  });

  it('"non-smoker" is never read as requiring a smoker, and "smokers or non-smokers" restricts nobody', () => {
    expect(ruleOf('inclusion', 'Non-smoking adults')).toMatchObject({ type: 'smoking', smoker: false });
    expect(read('inclusion', 'Smokers or non-smokers')).toMatchObject({ rule: null });
  });

  it('a smoking rule that leaves a named condition unread is for a person', () => {
    expect(read('inclusion', 'Emphysema, non-smoker')).toMatchObject({ rule: { type: 'smoking', smoker: false }, needsReview: true });
  });
});

describe('issue 30, decision 188: what a treatment, a comparison and a negative test say', () => {
  it('"naive to" a medicine, written before or after it, is never having taken it', () => {
    for (const text of ['Naive to biologic therapy', 'Methotrexate-naive adults', 'Treatment naive for chemotherapy']) {
      const rule = ruleOf('inclusion', text);
      expect(rule).toMatchObject({ type: 'medication', taking: false, history: true });
    }
    // "Treatment-naive" before a condition says what the condition has not had, not that the person lacks it.
    expect(ruleOf('inclusion', 'Treatment-naive hepatitis C infection')).not.toMatchObject({ present: false });
    // In an exclusion, excluding those never given it requires it.
    expect(ruleOf('exclusion', 'Chemotherapy-naive patients')).toMatchObject({ type: 'medication', taking: true });
  });

  it('a negated treatment keeps its "not", and what it was for is not an alternative', () => {
    expect(ruleOf('inclusion', 'Patients who were not treated with chemotherapy')).toMatchObject({ type: 'medication', taking: false });
    const reading = read('exclusion', 'People not treated with laminectomy for their spinal stenosis');
    expect(reading.rule).toMatchObject({ type: 'condition', condition: 'laminectomy', present: true });
    expect(JSON.stringify(reading.rule)).not.toMatch(/stenosis/);
    expect(reading.needsReview).toBe(true);
  });

  it('a comparison of two things is for a person, never "has either"', () => {
    for (const text of [
      'Knee pain more severe than hip pain',
      'Leg pain worse than back pain',
      'Arm symptoms predominant over neck pain',
      'Radiating leg pain that exceeds low back pain',
    ]) {
      for (const kind of ['inclusion', 'exclusion'] as const) expect(read(kind, text)).toMatchObject({ rule: null, needsReview: true });
    }
    // A number or a length of time after the comparison is a threshold, read as before.
    expect(ruleOf('inclusion', 'Asthma for greater than six months')).toMatchObject({ type: 'condition', duration: { minDays: 183 } });
    expect(ruleOf('inclusion', 'Diabetes with HbA1c greater than 8%')).toMatchObject({ type: 'lab', value: 8 });
  });

  it('a list that ends in a negative test for a condition does not exclude that condition', () => {
    const reading = read('exclusion', 'Spinal infection, vertebral fracture or a negative CT scan for spinal stenosis');
    expect(JSON.stringify(reading.rule)).not.toMatch(/stenosis/);
    expect(reading.needsReview).toBe(true);
  });
});
