import { describe, expect, it } from 'vitest';
import { parseCriteria, readTextRule } from '../../src/server/features/trials/criteria';
import { splitCriteria, splitInlineList } from '../../src/server/features/trials/criteria/structure';

/**
 * The error classes hand-check Q found (docs/criteria-reading.md, decision 090), each on phrasings that are not a
 * corpus record's.
 */
describe('fixes from hand-check Q: structure', () => {
  it('a cohort heading over a lead-in paragraph tags the items under it, and is no criterion', () => {
    const text = [
      'Inclusion Criteria:',
      '',
      'Healthy Volunteers',
      '',
      'Up to 20 volunteers will be enrolled. Volunteers are eligible only if all of the following criteria apply:',
      '',
      '1. Aged 18 to 45 years',
      '2. No chronic illness',
      '',
      'Patients With Gout',
      '',
      'Patients will be eligible if all of the following criteria apply:',
      '',
      '1. Gout flare in the last 30 days',
      '',
      'Exclusion Criteria:',
      '',
      '1. Kidney transplant',
    ].join('\n');
    const items = splitCriteria(text);
    expect(items.map((item) => [item.text, item.population ?? null])).toEqual([
      ['Aged 18 to 45 years', 'Healthy Volunteers'],
      ['No chronic illness', 'Healthy Volunteers'],
      ['Gout flare in the last 30 days', 'Patients With Gout'],
      ['Kidney transplant', null],
    ]);
  });

  it('a cohort heading with its lead-in on one line tags the items too', () => {
    const items = splitCriteria(
      ['Exclusion Criteria:', '', 'Control Subjects: Subjects will be excluded if any of the following criteria apply:', '', '1. Fever at screening'].join(
        '\n',
      ),
    );
    expect(items).toEqual([{ kind: 'exclusion', text: 'Fever at screening', population: 'Control Subjects' }]);
  });

  it('a numbered list written on one line is one criterion per number', () => {
    const text = ['Exclusion Criteria:', '', '- 1. Prior fusion at any lumbar level 2. Scoliosis of more than 20 degrees 3. A spinal tumour'].join('\n');
    expect(splitCriteria(text).map((item) => item.text)).toEqual(['Prior fusion at any lumbar level', 'Scoliosis of more than 20 degrees', 'A spinal tumour']);
    // The line's own marker was the first number: the text before the run is an item too.
    expect(splitInlineList('Prior hip replacement 10. Gout 11. Psoriasis 12. Lupus')).toEqual(['Prior hip replacement', 'Gout', 'Psoriasis', 'Lupus']);
  });

  it('a lead-in before a one-line list gives the items their context, and a bare one adds nothing', () => {
    expect(splitInlineList('Any of these ocular conditions: 1. Glaucoma 2. Uveitis 3. Cataract')).toEqual([
      'Any of these ocular conditions: Glaucoma',
      'Any of these ocular conditions: Uveitis',
      'Any of these ocular conditions: Cataract',
    ]);
    expect(splitInlineList('All of the following: 1. Gout 2. Psoriasis 3. Lupus')).toEqual(['Gout', 'Psoriasis', 'Lupus']);
  });

  it('numbers that are not a run of three counting up split nothing', () => {
    for (const text of [
      'Neuropathy of grade 2. Patients with grade 1 may enrol.',
      'Modic changes 2-3 2. The patient has a fused segment',
      'Took 5. Then 7. Then 9. Doses of aspirin',
    ])
      expect(splitInlineList(text)).toEqual([text]);
  });
});

describe('fixes from hand-check Q: rules', () => {
  it('a window in a list lead-in reaches its items', () => {
    const [item] = parseCriteria(
      'Exclusion Criteria:\n\n* Has taken any of the following within 30 days before the screening visit:\n  * medicines containing warfarin',
    );
    expect(item.text).toBe('Has taken any of the following within 30 days before the screening visit: medicines containing warfarin');
    expect(item.rule).toMatchObject({ type: 'medication', taking: false, within: { value: 30, unit: 'days' } });
    // Without a lead-in the far window is still another clause's.
    expect(readTextRule('exclusion', 'Surgery within 30 days of screening; long-term use of warfarin').rule).not.toMatchObject({ within: expect.anything() });
  });

  it('a concept named as planned stays planned when its clause names it again', () => {
    expect(readTextRule('inclusion', 'Children scheduled to receive the measles vaccine on the clinic vaccination day').rule).toBeNull();
    expect(readTextRule('inclusion', 'Adults due to undergo knee surgery, listed for the surgery at the district hospital').rule).toBeNull();
  });

  it('"active or prior", "current or past", "history or presence" are ever, not only now', () => {
    expect(readTextRule('exclusion', 'Current or past diagnosis of epilepsy').rule).toMatchObject({ type: 'condition', present: false, history: true });
    expect(readTextRule('exclusion', 'History or presence of psoriasis').rule).toMatchObject({ type: 'condition', history: true });
    expect(readTextRule('exclusion', 'Present or previous use of opioids').rule).toMatchObject({ type: 'medication', taking: false, history: true });
    // "Active" alone is now.
    expect(readTextRule('exclusion', 'Active tuberculosis').rule).not.toHaveProperty('history');
  });

  it('several investigators judging eligibility is their judgement, and the study drug a point in time', () => {
    expect(
      readTextRule('inclusion', 'Judged by the treating physicians as suitable after the screening tests, before the administration of the study drug').rule,
    ).toMatchObject({ type: 'site_judgement', reason: 'investigator_judgement' });
    expect(readTextRule('inclusion', 'In the opinion of the investigators, able to attend every visit').rule).toMatchObject({
      type: 'site_judgement',
      reason: 'investigator_judgement',
    });
    expect(readTextRule('exclusion', 'Took a steroid in the 2 weeks before the administration of the investigational drug').rule).toMatchObject({
      type: 'medication',
      medication: expect.stringMatching(/steroid/),
    });
  });
});

describe('a label that a threshold defines (decision 090)', () => {
  const review = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text).needsReview;

  it('reads the label with its threshold: the rule is the whole criterion', () => {
    expect(readTextRule('exclusion', 'Severe renal impairment (eGFR < 30 mL/min/1.73 m2)')).toMatchObject({
      rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 30 },
      needsReview: false,
    });
    expect(review('exclusion', 'Known kidney insufficiency, defined as creatinine clearance < 40 mL/min')).toBe(false);
    expect(review('exclusion', 'Uncontrolled type 2 diabetes (HbA1c > 9%)')).toBe(true); // the "2" is a number the rule did not take
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

describe('words a careful reader removes (decision 090)', () => {
  it('the "or" of two times is not an alternative a qualifier stops at', () => {
    expect(readTextRule('exclusion', 'Current or past severe asthma')).toMatchObject({
      rule: { type: 'condition', history: true, qualifiers: ['severe'] },
      needsReview: false,
    });
    // An "or" between two conditions still stops it, and a course word may be the history's alone.
    expect(readTextRule('exclusion', 'Active infection or history of recurrent infections').needsReview).toBe(true);
    expect(readTextRule('exclusion', 'Current or previous recurrent urinary tract infections').needsReview).toBe(true);
  });

  it('words of taking part beside an age, of who diagnosed, and a given diagnosis say no more than the rule', () => {
    expect(readTextRule('inclusion', 'Only patients aged 40 or older are considered for inclusion')).toMatchObject({
      rule: { minYears: 40 },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Children under the age of 12 will be excluded as well').needsReview).toBe(false);
    expect(readTextRule('inclusion', 'Diagnosed by a physician with gout').needsReview).toBe(false);
    expect(readTextRule('inclusion', 'Has been given a diagnosis of psoriasis').needsReview).toBe(false);
    // A sex beside the age is still more than the age.
    expect(readTextRule('inclusion', 'Only women aged 40 or older are eligible').needsReview).toBe(true);
  });
});

describe('two spine red flags in the vocabulary (decision 090)', () => {
  it('reads neurogenic bladder or bowel and a cord compression beside cauda equina syndrome', () => {
    const read = readTextRule('exclusion', 'Signs of cord compression, cauda equina syndrome or neurogenic bladder');
    expect(read.rule).toMatchObject({
      type: 'condition',
      present: false,
      concepts: [{ id: 'cohortly:myelopathy' }, { id: 'cohortly:cauda-equina-syndrome' }, { id: 'cohortly:neurogenic-bladder-bowel', icd10: 'N31.9' }],
    });
  });
});

describe('fixes from hand-check R', () => {
  it('"the 2 prior weeks" is a window, not history', () => {
    expect(readTextRule('exclusion', 'Chest infection within the 4 prior weeks').rule).toMatchObject({ within: { value: 4, unit: 'weeks' } });
    expect(readTextRule('exclusion', 'Chest infection within the 4 prior weeks').rule).not.toHaveProperty('history');
  });

  it('"previous, or current" with its comma is ever; "currently" of a segment is not the condition\'s time', () => {
    expect(readTextRule('exclusion', 'Previous, or current, pancreatitis').rule).toMatchObject({ history: true });
    expect(readTextRule('exclusion', 'History of back surgery at the currently symptomatic level').rule).toMatchObject({ history: true });
  });

  it('"All patients had X" in an inclusion describes the trial\'s patients: now, not ever', () => {
    expect(readTextRule('inclusion', 'All patients had sciatica confirmed by a neurologist').rule).not.toHaveProperty('history');
  });

  it('what a condition can cause, or would affect, is not what excludes or is required', () => {
    expect(readTextRule('exclusion', 'Conditions that can induce back pain, such as gout').rule).not.toMatchObject({
      condition: expect.stringMatching(/back pain/),
    });
    expect(readTextRule('inclusion', 'No events during surgery that would affect recovery or depression scores').rule).toBeNull();
  });

  it('the condition an operation "to treat" is for, written with a slash, is not what excludes', () => {
    expect(readTextRule('exclusion', 'Subject requires bilateral facet joint surgery to treat neck/back pain').rule).toBeNull();
    expect(readTextRule('exclusion', 'Facet injections to treat neck/back pain in the past month').rule).not.toMatchObject({ condition: 'back pain' });
  });
});

describe('a plural mark and the reaction of an allergy (decision 090)', () => {
  it('"severe hypersensitivity reactions to the study drug(s)" is a severe allergy to it, whole', () => {
    expect(readTextRule('exclusion', 'History of severe allergic reactions to the study drug(s)')).toMatchObject({
      rule: { type: 'condition', qualifiers: ['severe'] },
      needsReview: false,
    });
    // A named allergen is not "medicines like this one": it is an allergy to that medicine (decision 107).
    expect(readTextRule('exclusion', 'Allergic reactions to penicillin(s)')).toMatchObject({
      rule: { type: 'condition', condition: 'an allergy to penicillin antibiotics (such as amoxicillin)' },
      needsReview: false,
    });
  });
});

describe('a parenthesis that describes the concept before it (hand-check R)', () => {
  it('"(with evidence of recent infection)" after a hepatitis is no alternative of any infection', () => {
    const read = readTextRule('exclusion', 'History of chronic hepatitis C (with evidence of recent infection and/or viral replication)');
    expect(read.rule).toMatchObject({ type: 'condition', concepts: [{ id: 'cohortly:hepatitis-c' }] });
    // Without a concept before it, the infection is what excludes.
    expect(readTextRule('exclusion', 'Patients with evidence of active infection').rule).toMatchObject({
      type: 'condition',
      concepts: [{ id: 'mesh:D000007239' }],
    });
  });
});
