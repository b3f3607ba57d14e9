import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../src/server/features/trials/criteria';
import { questionsAbout } from '../support/criteria-questions';

/**
 * The tenth pass (decision 107): more criteria read whole, each on phrasings that are not a corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

describe('an allergy to named medicines is that allergy', () => {
  it('reads an allergy to a class of medicines as one condition per class, needing no review', () => {
    const cases: Array<[string, string]> = [
      ['Known hypersensitivity to NSAIDs', 'an allergy to anti-inflammatory pain medicines (such as ibuprofen)'],
      ['Allergy or intolerance to opioids or benzodiazepines', 'an allergy to opioid pain medicines or benzodiazepines'],
      ['History of anaphylaxis to penicillins', 'an allergy to penicillin antibiotics (such as amoxicillin)'],
      ['Allergic reaction to iodinated contrast media', 'an allergy to scan dye (contrast)'],
      ['Patients allergic to local anaesthetics', 'an allergy to numbing medicines (such as lidocaine)'],
    ];
    for (const [text, condition] of cases) {
      const rule = read('exclusion', text);
      expect(rule.rule, text).toMatchObject({ type: 'condition', condition, present: false });
      expect(rule.needsReview, text).toBe(false);
    }
  });

  it('keeps one medicine of a class, an unknown allergen or a second clause in review', () => {
    for (const text of ['Known allergy to bupivacaine', 'Hypersensitivity to amoxicillin or cefazolin', 'Allergy to opioids. Asthma requiring steroids.']) {
      const rule = read('exclusion', text);
      expect(rule.rule, text).not.toBeNull();
      expect(rule.needsReview, text).toBe(true);
    }
  });

  it('never reads the medicines of an allergy as medicines taken, nor a food allergy as a medicine allergy', () => {
    expect(read('exclusion', 'Allergy to shellfish or opioids').rule).toBeNull();
    expect(read('exclusion', 'Allergy to latex')).toMatchObject({ rule: { type: 'condition', condition: 'an allergy to latex' }, needsReview: false });
    // The study's own product is still "an allergy to medicines like this one".
    expect(read('exclusion', 'Hypersensitivity to the investigational product or its excipients').rule).toMatchObject({
      condition: 'an allergy to medicines like this one',
    });
  });

  it('names the medicines once in the question, in English and Spanish', () => {
    const text = 'Allergy to opioids or NSAIDs';
    const asked = questionsAbout('exclusion', text, read('exclusion', text).rule);
    expect(asked).toHaveLength(1);
    const question = asked[0].wording.chat;
    expect(question.en).toBe('Have you been told by a doctor that you have an allergy to opioid pain medicines or anti-inflammatory pain medicines?');
    expect(question.es).toContain('una alergia a analgésicos opioides o');
    expect(question.en).not.toContain('or an allergy to');
  });
});

describe('concepts clinicians list that the vocabulary lacked', () => {
  it('reads organ-system and common conditions whole', () => {
    const cases: Array<[string, string]> = [
      ['Clinically significant cardiopulmonary disorder', 'a heart or lung disease'],
      ['Decompensated liver cirrhosis', 'advanced liver disease (decompensated)'],
      ['Known thrombophilia (such as factor V Leiden)', 'blood that clots too easily (thrombophilia)'],
      ['History of splenectomy', 'removal of the spleen (splenectomy)'],
      ['Diabetic gastroparesis', 'slow stomach emptying (gastroparesis)'],
      ['Chronic tension-type headache', 'headaches'],
      ['Severe hearing impairment', 'hearing loss'],
      ['Heavy alcohol consumption', 'alcohol or drug misuse'],
    ];
    for (const [text, condition] of cases) {
      const rule = read('exclusion', text);
      expect(rule.rule, text).toMatchObject({ type: 'condition', present: false });
      expect(rule.rule && 'condition' in rule.rule ? rule.rule.condition : '', text).toBe(condition);
    }
  });

  it('a positive test of an infection is the infection, an antibody alone is not', () => {
    for (const text of ['Known HIV seropositivity', 'Positive HIV test result', 'Positive hepatitis B surface antigen at screening'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('exclusion', 'Hepatitis C antibody positive').needsReview).toBe(true);
  });
});

describe('section labels, the place of an infection, gabapentinoids', () => {
  it('a section label of the common protocol template says nothing of the criterion, nor of its time', () => {
    expect(read('exclusion', 'Prior/Concurrent clinical study experience: Enrolled in another interventional trial')).toMatchObject({
      rule: { type: 'medication', taking: false },
      needsReview: false,
    });
    const rule = read('exclusion', 'Prior/Concomitant therapy: Current use of anticoagulants');
    expect(rule).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: false });
    expect(rule.rule && 'history' in rule.rule ? rule.rule.history : undefined).toBeUndefined();
  });

  it('an infection where the treatment will be given is not any infection', () => {
    for (const text of ['Skin infection at the injection site', 'Infection at the surgical site'])
      expect(read('exclusion', text), text).toMatchObject({
        rule: { type: 'condition', condition: 'an infection where the treatment will be given' },
        needsReview: false,
      });
  });

  it('reads an allergy to gabapentinoids as that class, not every nerve pain medicine', () => {
    expect(read('exclusion', 'Hypersensitivity to GABA analogs')).toMatchObject({
      rule: { type: 'condition', condition: 'an allergy to gabapentin or pregabalin (gabapentinoids)' },
      needsReview: false,
    });
  });
});

describe('taking part in another study, and what the investigator judges', () => {
  it('reads current or recent participation in another study whatever the study is called', () => {
    for (const text of [
      'Concurrently enrolled in another interventional trial',
      'Participation in a clinical trial within 60 days',
      'Currently participating in another experimental study',
    ])
      expect(read('exclusion', text), text).toMatchObject({
        rule: { type: 'medication', medication: 'a medicine being tested in another study', taking: false },
        needsReview: false,
      });
  });

  it("an illness no one named, whose seriousness the investigator weighs, is the site's judgement", () => {
    for (const text of [
      'Any serious or unstable medical illness',
      'Uncontrolled intercurrent illness',
      'Subjects with clinically significant systemic disease that would prevent completion of the study',
      'Unsuitable for the study per the decision of the investigator',
      'Unable to undergo an MRI scan',
    ])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'site_judgement', reason: 'investigator_judgement' }, needsReview: false });
    // A named condition is still read, and a bare "acute illness" is not a judgement.
    expect(read('exclusion', 'Serious medical illness such as heart failure').rule).toMatchObject({ type: 'condition' });
    expect(read('exclusion', 'Acute illness').rule).toBeNull();
    // Beside a condition, the scan is not the whole criterion.
    expect(read('exclusion', 'Unable to tolerate MRI or claustrophobia').rule).toMatchObject({ type: 'condition', condition: 'claustrophobia' });
  });

  it('telling conditions apart is not having them', () => {
    expect(read('exclusion', 'Unable to distinguish asthma attacks from panic attacks').rule).toBeNull();
    expect(read('exclusion', 'Cannot tell migraine and other headaches apart').rule).toBeNull();
  });
});
