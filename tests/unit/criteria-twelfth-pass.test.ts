import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';

/** The twelfth pass (decision 110), on phrasings that are not a corpus record's. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const conditionOf = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule?.type === 'condition' ? rule.condition : null;
};

describe('what the surgical team finds or decides in the operation', () => {
  it('is a site check, never asked of the patient', () => {
    for (const text of [
      'Cerebrospinal fluid leak noted during the index surgery',
      'Intraoperative finding of a nerve root anomaly',
      'Decision made by the operating surgeon to convert to an open approach',
      'Bone quality judged inadequate at the time of surgery',
      'Intra-surgical exclusion criteria: fragment larger than the cannula',
    ]) {
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'site_judgement', reason: 'investigator_judgement' }, needsReview: false });
    }
  });

  it('is not an event of a past operation, which the person can tell', () => {
    const rule = read('exclusion', 'History of a dural tear during a previous spine surgery').rule;
    expect(rule?.type).not.toBe('site_judgement');
  });
});

describe('clinically significant findings of the screening tests', () => {
  it("are the investigator's call", () => {
    for (const text of [
      'Any clinically significant laboratory abnormality at screening',
      'Clinically relevant electrocardiogram abnormalities',
      'Clinically significant vital sign or physical examination findings',
    ]) {
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'site_judgement' }, needsReview: false });
    }
  });

  it('a named condition beside them is still read', () => {
    expect(read('exclusion', 'Clinically significant laboratory abnormality or type 1 diabetes').rule?.type).not.toBe('site_judgement');
  });

  it('a section label no longer hides an illness nobody named', () => {
    expect(read('exclusion', 'Medical history: Serious or unstable illness that would prevent completion of the trial').rule?.type).toBe('site_judgement');
  });
});

describe('non-adherence, a planned move, a drug likely to interfere', () => {
  it('are site checks', () => {
    expect(read('exclusion', 'Known poor adherence to prescribed asthma inhalers').rule).toMatchObject({ type: 'site_judgement' });
    expect(read('exclusion', 'Plans to relocate out of the area before the last follow-up visit').rule).toMatchObject({
      type: 'site_judgement',
      reason: 'protocol_compliance',
    });
    expect(read('exclusion', 'Use of any medication considered likely to interfere with the study assessments').rule).toMatchObject({
      type: 'site_judgement',
    });
  });

  it('taking a medicine is still a medication rule', () => {
    expect(read('exclusion', 'Current use of anticoagulants').rule).toMatchObject({ type: 'medication', taking: false });
  });
});

describe('a section label that says when its criteria are checked', () => {
  it('says nothing about what they are', () => {
    const read12 = read('exclusion', 'Exclusion criteria checked at the baseline visit: hepatitis C infection');
    expect(read12).toMatchObject({ rule: { type: 'condition', condition: 'hepatitis C', present: false }, needsReview: false });
  });

  it('but what is found during an operation is not read as the patient knowing it', () => {
    expect(read('exclusion', 'Exclusion criteria assessed during surgery: hepatitis C infection').needsReview).toBe(true);
  });
});

describe('the condition a past operation was for', () => {
  it('is not the exclusion by itself', () => {
    // The instability is what excludes; the tumour or cancer the operation was for is not read as the person's.
    const instability = read('exclusion', 'Spinal instability after an earlier operation for a benign tumour or cancer');
    expect(instability.rule).toMatchObject({ type: 'condition', condition: 'spinal instability' });
    expect(instability.needsReview).toBe(true);
    const hernia = read('exclusion', 'History of surgery for an inguinal hernia');
    expect(JSON.stringify(hernia.rule ?? {})).not.toContain('hernia');
    // The operation itself is still read, with the rest left to a person.
    const spine = read('exclusion', 'Previous spine surgery for disc herniation');
    expect(conditionOf('exclusion', 'Previous spine surgery for disc herniation')).toBe('back or spine surgery');
    expect(spine.needsReview).toBe(true);
  });

  it('is still read when the operation is not a past one ("emergency surgery for X" may be the trial\'s own)', () => {
    expect(conditionOf('exclusion', 'Emergency surgery for a spinal infection')).toContain('infection');
    expect(read('exclusion', 'Prior surgery for a spinal infection').rule).toBeNull();
  });
});

describe('a positive test, "and/or", "active or chronic", and other whole readings', () => {
  it('a positive HIV test is HIV; a positive test of a tumour marker stays for staff', () => {
    expect(read('exclusion', 'Has tested positive for HIV')).toMatchObject({ rule: { type: 'condition', condition: 'HIV' }, needsReview: false });
    expect(read('exclusion', 'Tested positive for HER2').needsReview).toBe(true);
  });

  it('"and/or" in an inclusion is an "or", "and" still asks for both', () => {
    expect(read('inclusion', 'Sciatica and/or back pain')).toMatchObject({ rule: { condition: 'sciatica or back pain' }, needsReview: false });
    expect(read('inclusion', 'Sciatica and back pain').needsReview).toBe(true);
  });

  it('"active or chronic" hepatitis and an AIDS-related illness are read whole', () => {
    expect(read('exclusion', 'HIV or any AIDS-related illness, or active or chronic hepatitis B')).toMatchObject({
      rule: { condition: 'HIV or hepatitis B', present: false },
      needsReview: false,
    });
  });

  it('diabetes with poorly controlled blood sugar is uncontrolled diabetes', () => {
    expect(read('exclusion', 'Diabetes with poorly controlled blood sugar')).toMatchObject({
      rule: { condition: 'diabetes', qualifiers: ['uncontrolled'] },
      needsReview: false,
    });
  });

  it('meeting the diagnostic criteria for a condition is having it', () => {
    expect(read('inclusion', 'Fulfils the diagnostic criteria for fibromyalgia')).toMatchObject({
      rule: { condition: 'fibromyalgia', present: true },
      needsReview: false,
    });
    // A classification with its own name and year is more than the diagnosis.
    expect(read('inclusion', 'Fibromyalgia according to the 2016 ACR classification criteria').needsReview).toBe(true);
  });

  it('the reason a medicine is excluded says why, not what', () => {
    expect(read('exclusion', 'Participants already taking anticoagulants because they may raise the risk of bleeding')).toMatchObject({
      rule: { type: 'medication', taking: false },
      needsReview: false,
    });
  });

  it('an infection in the operative field is an infection where the treatment will be given', () => {
    for (const text of ['Infection in the operative field', 'Infection at the incision site', 'Infection at the device insertion site']) {
      expect(read('exclusion', text), text).toMatchObject({
        rule: { condition: 'an infection where the treatment will be given' },
        needsReview: false,
      });
    }
  });

  it('one sexually transmitted infection named alone is narrower than the rule', () => {
    expect(read('exclusion', 'Active gonorrhea infection').needsReview).toBe(true);
    expect(read('exclusion', 'Sexually transmitted infections such as syphilis').needsReview).toBe(false);
  });
});
