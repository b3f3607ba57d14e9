import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';

/**
 * The error classes hand-check S found (docs/criteria-reading.md, decision 105), and what this pass cleared, each on
 * phrasings that are not a corpus record's.
 */
describe('fixes from hand-check S', () => {
  it('the examples of who is at risk are not what excludes, however long the risk and its examples run', () => {
    for (const text of [
      'Patients considered by their surgeon to be at a high risk of vertebral compression fracture (such as women after the menopause and people receiving long-term treatment with corticosteroids) with a T-score below -2.5',
      'Patients at increased risk of gastrointestinal bleeding, for example people who have been taking aspirin or other antiplatelet medicines for many years',
      'Participants at risk of bleeding, e.g. those on anticoagulants',
    ]) {
      const read = readTextRule('exclusion', text);
      expect(read.rule?.type === 'medication' ? read.rule.medication : null).toBeNull();
    }
  });

  it('the examples of risk factors are what the person has, and are still read (flagged beside the count)', () => {
    const read = readTextRule('exclusion', 'At least two risk factors for heart disease, such as diabetes or kidney disease');
    expect(read.rule).toMatchObject({ type: 'condition', present: false });
    expect(read.needsReview).toBe(true);
  });

  it('a medicine named plainly, with its own examples, is still read', () => {
    const read = readTextRule('exclusion', 'Current use of anticoagulants, e.g. warfarin or apixaban');
    expect(read.rule).toMatchObject({ type: 'medication', taking: false });
  });

  it('a treatment "for the current episode" keeps its review: no rule can say since when the episode runs', () => {
    for (const text of [
      'Physiotherapy received for this episode',
      'Opioid injections for treatment of the present episode.',
      'Previous epidural injection for the current episode',
    ]) {
      const read = readTextRule('exclusion', text);
      expect(read.rule, text).not.toBeNull();
      expect(read.needsReview, text).toBe(true);
      expect(read.reasons, text).toContain('timeUnread');
    }
    // Without an episode, past use is plainly "ever".
    const plain = readTextRule('exclusion', 'Prior opioid injections.');
    expect(plain.rule).toMatchObject({ type: 'medication', taking: false, history: true });
  });
});

describe('what this pass cleared: rules that hold their whole criterion', () => {
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
    // A heading that names a group narrows who the criterion applies to, and what imaging finds is for staff to
    // confirm: both still read by a person.
    expect(readTextRule('exclusion', 'Clinical exclusion criteria for the surgical arm: ankylosing spondylitis').needsReview).toBe(true);
    const imaging = readTextRule('exclusion', 'Radiologic exclusion criteria: ankylosing spondylitis');
    expect(imaging.needsReview).toBe(true);
    expect(imaging.reasons).toContain('clinician');
  });
});

describe('what this pass cleared: the words of a measure and of a point in time', () => {
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

describe('what this pass cleared: contraception with its alternatives', () => {
  it('post-menopausal or sterile, or using birth control, is what the question asks', () => {
    const read = readTextRule(
      'inclusion',
      'Women must be at least 2 years postmenopausal, surgically sterile, or using a highly effective method of contraception',
    );
    expect(read.rule).toMatchObject({ type: 'contraception', required: true });
    expect(read.needsReview).toBe(false);
  });

  it('sterility required without contraception, or beside a "not", stays in review', () => {
    expect(
      readTextRule('inclusion', 'Female participants must be post-menopausal or surgically sterile; hormonal contraception is not acceptable').needsReview,
    ).toBe(true);
    expect(readTextRule('inclusion', 'Postmenopausal women; sexually active men must use condoms').needsReview).toBe(true);
  });
});

describe('fix from hand-check T', () => {
  it('two parts of the spine joined as alternatives are not both required, nor one of them', () => {
    for (const [kind, text] of [
      ['inclusion', 'Thoracic and/or lumbar spinal stenosis'],
      ['exclusion', 'Cervical or lumbar spine surgery in the past'],
      ['inclusion', 'Lumbar or cervical disc herniation on imaging'],
    ] as const) {
      const read = readTextRule(kind, text);
      expect(read.rule?.type === 'condition' ? (read.rule.qualifiers ?? []) : [], text).toEqual([]);
      expect(read.needsReview, text).toBe(true);
    }
    // One part is still held.
    const one = readTextRule('inclusion', 'Thoracic spinal stenosis');
    expect(one.rule).toMatchObject({ type: 'condition', qualifiers: ['thoracic'] });
  });
});
