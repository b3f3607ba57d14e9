import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/server/http/errors';
import { ageToYears, draftFromStudy, formatPhases } from '../../../src/server/features/trials/ctgov';
import type { CriterionRule } from '../../../src/contract/trials';
import { parseCriteria, readTextRule, splitCriteria, unescapeMarkdown } from '../../../src/server/features/trials/criteria';

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov', name), 'utf8'));
const SHARED = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');

describe('splitting eligibility text', () => {
  it('splits numbered and bulleted lists under inclusion and exclusion headings', () => {
    const items = splitCriteria('Inclusion Criteria:\n\n1. Age 18 or older\n2. Asthma\n\nExclusion Criteria:\n\n* Smoker\n- Pregnant\n• Prior surgery');
    expect(items).toEqual([
      { kind: 'inclusion', text: 'Age 18 or older' },
      { kind: 'inclusion', text: 'Asthma' },
      { kind: 'exclusion', text: 'Smoker' },
      { kind: 'exclusion', text: 'Pregnant' },
      { kind: 'exclusion', text: 'Prior surgery' },
    ]);
  });

  it('reads key / lower-case / colon-less headings and keeps a qualified heading as a label', () => {
    const items = splitCriteria('Key Inclusion Criteria :\n* A\n\nExclusion criteria\n* B\n\nRadiological Exclusion Criteria\n\n1. C');
    expect(items).toEqual([
      { kind: 'inclusion', text: 'A' },
      { kind: 'exclusion', text: 'B' },
      { kind: 'exclusion', text: 'Radiological Exclusion Criteria: C' },
    ]);
  });

  it('splits a nested list into one criterion per child carrying its parent as context; wrapped lines joined', () => {
    const items = splitCriteria(
      'Inclusion Criteria:\n\n1. Diagnosed with one of the following:\n\n   * cervical spondylosis;\n   * disc herniation\n2. Willing to\n   return for visits\n\nExclusion Criteria:\n\n* Any of the following ocular conditions:\n  * glaucoma\n  * cataract',
    );
    expect(items).toEqual([
      // Alternatives in an inclusion: split, but none is required by itself.
      { kind: 'inclusion', text: 'Diagnosed with one of the following: cervical spondylosis;', alternative: true },
      { kind: 'inclusion', text: 'Diagnosed with one of the following: disc herniation', alternative: true },
      { kind: 'inclusion', text: 'Willing to return for visits' },
      { kind: 'exclusion', text: 'Any of the following ocular conditions: glaucoma' },
      { kind: 'exclusion', text: 'Any of the following ocular conditions: cataract' },
    ]);
  });

  it('keeps exceptions and all-of exclusions with their parent; drops a bare lead-in parent', () => {
    const items = splitCriteria(
      'Inclusion Criteria:\n\n1. The following criteria must be satisfied:\n   * Asthma\n   * FEV1 60-80%\n\nExclusion Criteria:\n\n* History of another malignancy except for:\n  * basal cell carcinoma\n  * carcinoma in situ\n* Both of the following:\n  * smoker\n  * over 60',
    );
    expect(items).toEqual([
      { kind: 'inclusion', text: 'Asthma' },
      { kind: 'inclusion', text: 'FEV1 60-80%' },
      { kind: 'exclusion', text: 'History of another malignancy except for:\n- basal cell carcinoma\n- carcinoma in situ' },
      { kind: 'exclusion', text: 'Both of the following:\n- smoker\n- over 60' },
    ]);
  });

  it('reads cohort headings as a population, drops placeholders and lead-ins, attaches footnotes to their marker', () => {
    const items = splitCriteria(
      'Inclusion Criteria:\n\nParticipants are eligible to be included in the study only if all of the following criteria apply:\n\nHealthy controls:\n\n* Age 18-65\n\nAsthmatic subjects\n\n* Asthma for 6 months\n* Uses contraception*\n\n*Acceptable methods are the pill or an IUD\n\nExclusion Criteria:\n\n* None\n* n/a\n* -',
    );
    expect(items).toEqual([
      { kind: 'inclusion', text: 'Age 18-65', population: 'Healthy controls' },
      { kind: 'inclusion', text: 'Asthma for 6 months', population: 'Asthmatic subjects' },
      { kind: 'inclusion', text: 'Uses contraception*\n* Acceptable methods are the pill or an IUD', population: 'Asthmatic subjects' },
    ]);
    expect(splitCriteria('Inclusion Criteria:\n\n* A\n\nSpecific inclusion criteria for healthy participants:\n\n* B\n\nExclusion Criteria:\n\n* C')).toEqual([
      { kind: 'inclusion', text: 'A' },
      { kind: 'inclusion', text: 'B', population: 'healthy participants' },
      { kind: 'exclusion', text: 'C' },
    ]);
  });

  it('turns short lead-ins into labels and text after a heading colon into a lead-in', () => {
    const items = splitCriteria('Exclusion Criteria:Patients with\n\n* vertebral fracture,\n* diabetes mellitus\n\nMedical conditions:\n\n* Seizures');
    expect(items).toEqual([
      { kind: 'exclusion', text: 'Patients with vertebral fracture,' },
      { kind: 'exclusion', text: 'Patients with diabetes mellitus' },
      { kind: 'exclusion', text: 'Medical conditions: Seizures' },
    ]);
  });

  it('keeps notes and paragraphs as items; never treats "criteria may apply" as a heading', () => {
    const items = splitCriteria('Inclusion Criteria:\n\n* A\n\nExclusion Criteria:\n\n* B\n\nOther protocol-defined inclusion/exclusion criteria may apply');
    expect(items.at(-1)).toEqual({ kind: 'exclusion', text: 'Other protocol-defined inclusion/exclusion criteria may apply' });
  });

  it('unescapes Markdown (\\> \\< \\[ \\])', () => {
    expect(unescapeMarkdown('eGFR \\< 45 \\[x\\] and ALT \\> 3')).toBe('eGFR < 45 [x] and ALT > 3');
    expect(splitCriteria('* BMI \\> 35 kg/m2')).toEqual([{ kind: 'inclusion', text: 'BMI > 35 kg/m2' }]);
  });
});

/** A rule without its source span (the span is checked on its own). */
const bare = (value: { rule: CriterionRule | null; needsReview: boolean }) => {
  if (!value.rule) return value;
  const { span: _span, concepts: _concepts, ...rule } = value.rule as CriterionRule & { concepts?: unknown };
  return { rule, needsReview: value.needsReview };
};

describe('rules from text', () => {
  const rule = (kind: 'inclusion' | 'exclusion', text: string) => bare(readTextRule(kind, text));

  it('reads clinical scores, trailing comparators and more site-judgement phrasings (issue 10)', () => {
    expect(rule('inclusion', 'Montreal Cognitive Assessement test (MOCA) ≥ 22;').rule).toMatchObject({
      type: 'lab',
      measure: 'MoCA score',
      comparator: '>=',
      value: 22,
    });
    expect(rule('exclusion', 'ASA ≥ 4').rule).toMatchObject({ type: 'lab', measure: 'ASA physical status', comparator: '<', value: 4 });
    // "ASA" with a dose is aspirin, not the anaesthesia class.
    expect(rule('exclusion', 'Taking ASA > 325 mg per day').rule?.type).not.toBe('lab');
    expect(rule('exclusion', 'BMI of 30.0 kg/m2 or more.').rule).toMatchObject({ type: 'lab', measure: 'BMI', comparator: '<', value: 30, unit: 'kg/m2' });
    expect(rule('inclusion', 'Age greater than to or equal 18 years at the time of signing informed consent').rule).toMatchObject({
      type: 'age',
      minYears: 18,
      maxYears: null,
    });
    expect(rule('inclusion', 'Have a predicted life expectancy of >12 weeks').rule).toMatchObject({ type: 'site_judgement', reason: 'investigator_judgement' });
    expect(rule('inclusion', 'Be likely to return for all follow-up visits; and').rule).toMatchObject({
      type: 'site_judgement',
      reason: 'protocol_compliance',
    });
    expect(rule('inclusion', 'Volunteered to participate in the study,').rule).toMatchObject({ type: 'site_judgement', reason: 'consent_capacity' });
    expect(rule('exclusion', 'Severe pulmonary hypertension as defined by the protocol')).toMatchObject({
      rule: { type: 'condition', qualifiers: ['severe'] },
      needsReview: true,
    });
    expect(rule('exclusion', 'Significant comorbidity as defined by the protocol').rule).toMatchObject({ type: 'site_judgement', reason: 'protocol' });
    // An exception is never one of the rule's concepts: it is held as what the rule excepts (decision 305).
    const malignancy = readTextRule(
      'exclusion',
      'History of another primary malignancy except for: - Malignancy treated with curative intent - Adequately treated non-melanoma skin cancer',
    ).rule;
    expect(JSON.stringify(malignancy?.type === 'condition' ? malignancy.concepts : null)).not.toContain('skin cancer');
    // A disc's height is not the person's; a duration is not a recent window (the 2026-11-23 hand-check).
    expect(rule('exclusion', 'Loss of disc height significantly (> 60%) compared with the adjacent higher level').rule?.type).not.toBe('lab');
    const herniation = rule(
      'inclusion',
      'presence of posterolateral disc herniation of more than 3 months of evolution diagnosed by magnetic resonance imaging',
    ).rule;
    expect(herniation && 'within' in herniation ? herniation.within : undefined).toBeUndefined();
  });

  it('reads ages', () => {
    expect(rule('inclusion', '18 years of age or older')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('inclusion', 'Aged 18 to 65')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: 65 }, needsReview: false });
    expect(rule('inclusion', '≥ 18 years')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('inclusion', 'Subject is between 18 and 75 years of age.').rule).toEqual({ type: 'age', minYears: 18, maxYears: 75 });
    // In an exclusion the rule says who is eligible: "under 18" excluded -> at least 18.
    expect(rule('exclusion', 'under 18 years old')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('exclusion', 'Age < 18 or > 70 years').rule).toEqual({ type: 'age', minYears: 18, maxYears: 70 });
    // Not an age: the investigator's estimate of survival, decided by site staff.
    expect(rule('exclusion', 'Life expectancy less than 2 years').rule).toMatchObject({ type: 'site_judgement', reason: 'investigator_judgement' });
    expect(rule('exclusion', 'Cancer within 5 years').rule?.type).toBe('condition');
  });

  it('reads ages in all their phrasings, with both bounds, never from numbers that are not ages', () => {
    expect(rule('inclusion', 'Being between the ages of 18-65.').rule).toEqual({ type: 'age', minYears: 18, maxYears: 65 });
    expect(rule('inclusion', '18+').rule).toEqual({ type: 'age', minYears: 18, maxYears: null });
    // "< 60" in completed years is at most 59 (decision 263).
    expect(rule('inclusion', 'aged >= 18 and < 60').rule).toEqual({ type: 'age', minYears: 18, maxYears: 59 });
    // "More than 18" is past the 18th birthday: at least 18 completed years, to the day (decision 351).
    expect(rule('inclusion', 'more than 18 years old')).toEqual({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(rule('inclusion', 'b/w 25 to 65 years').rule).toEqual({ type: 'age', minYears: 25, maxYears: 65 });
    expect(rule('inclusion', 'Children aged 6 to 24 months').rule).toEqual({ type: 'age', minYears: 0.5, maxYears: 2 });
    // "18 or younger" excluded: eligible people are at least 19, in whole years.
    expect(rule('exclusion', '18 years of age or younger').rule).toEqual({ type: 'age', minYears: 19, maxYears: null });
    expect(rule('exclusion', 'Pulse > 100 bpm').rule?.type).toBe('lab');
    expect(rule('inclusion', 'Asthma, if < 16 at disease onset').rule?.type).not.toBe('age');
    expect(rule('inclusion', 'Longterm history (≥ 6 month) of neuropathic pain').rule?.type).not.toBe('age');
    // The age of majority in words is at least 18, the common legal adult age (decision 300).
    expect(rule('inclusion', 'Of full age of consent at screening.')).toEqual({
      rule: { type: 'age', minYears: 18, maxYears: null },
      needsReview: false,
    });
    const spanned = readTextRule('inclusion', 'Patients aged 18 to 74 years old (both inclusive)').rule!;
    expect('Patients aged 18 to 74 years old (both inclusive)'.slice(spanned.span!.start, spanned.span!.end)).toBe('aged 18 to 74 years old');
  });

  it('reads BMI ranges and lab thresholds', () => {
    expect(rule('inclusion', 'BMI between 18.5 and 35 kg/m2')).toEqual({
      rule: { type: 'lab', measure: 'BMI', comparator: 'between', value: 18.5, upperValue: 35, unit: 'kg/m2' },
      needsReview: false,
    });
    expect(rule('inclusion', 'BMI ≥ 30')).toEqual({ rule: { type: 'lab', measure: 'BMI', comparator: '>=', value: 30, unit: 'kg/m2' }, needsReview: false });
    expect(rule('exclusion', 'eGFR < 45 mL/min')).toEqual({
      rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' },
      needsReview: false,
    });
    expect(rule('inclusion', 'HbA1c ≥ 7.0%')).toEqual({ rule: { type: 'lab', measure: 'HbA1c', comparator: '>=', value: 7, unit: '%' }, needsReview: false });
    // Relative to the upper limit of normal: never an absolute number.
    expect(rule('exclusion', 'ALT > 3 x ULN')).toEqual({
      rule: { type: 'lab', measure: 'ALT', comparator: '<=', value: 3, relativeTo: 'ULN' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Platelet count < 50,000').rule).toMatchObject({ measure: 'platelets', comparator: '>=', value: 50, unit: '10^9/L' });
  });

  it('keeps both bounds of compound thresholds and normalises units', () => {
    expect(rule('inclusion', 'BMI >= 18.5 and <= 32 kg/m2').rule).toEqual({
      type: 'lab',
      measure: 'BMI',
      comparator: 'between',
      value: 18.5,
      upperValue: 32,
      unit: 'kg/m2',
    });
    expect(rule('exclusion', 'HbA1c > 64 mmol/mol').rule).toEqual({ type: 'lab', measure: 'HbA1c', comparator: '<=', value: 8, unit: '%' });
    expect(rule('exclusion', 'Weight > 220 lb').rule).toMatchObject({ measure: 'weight', comparator: '<=', unit: 'kg' });
    expect(rule('exclusion', 'ANC < 1500/mm3').rule).toEqual({ type: 'lab', measure: 'ANC', comparator: '>=', value: 1.5, unit: '10^9/L' });
    expect(rule('exclusion', 'Hemoglobin < 9 g/dL').rule).toEqual({ type: 'lab', measure: 'hemoglobin', comparator: '>=', value: 9, unit: 'g/dL' });
    expect(rule('exclusion', 'Systolic blood pressure > 160 mmHg').rule).toEqual({
      type: 'lab',
      measure: 'systolic blood pressure',
      comparator: '<=',
      value: 160,
      unit: 'mmHg',
    });
    expect(rule('exclusion', 'AST or ALT > 2.5 times the upper limit of normal (ULN)').rule).toEqual({
      type: 'lab',
      measure: 'ALT/AST',
      comparator: '<=',
      value: 2.5,
      relativeTo: 'ULN',
    });
  });

  it('reads conditions and medicines as vocabulary concepts, with history and time windows', () => {
    const mi = readTextRule('exclusion', 'History of myocardial infarction within the last 6 months');
    expect(mi).toMatchObject({ rule: { type: 'condition', present: false, history: true, within: { value: 6, unit: 'months' } }, needsReview: false });
    const t2dm = readTextRule('inclusion', 'Diagnosed with T2DM').rule;
    const written = readTextRule('inclusion', 'Diagnosis of type 2 diabetes mellitus').rule;
    expect(t2dm).toMatchObject({ type: 'condition', present: true, concepts: [{ name: 'type 2 diabetes', icd10: 'E11' }] });
    // The same concept however the trial writes it.
    expect((written as { concepts: Array<{ id: string }> }).concepts[0].id).toBe((t2dm as { concepts: Array<{ id: string }> }).concepts[0].id);
    expect(readTextRule('exclusion', 'Use of systemic corticosteroids within 4 weeks prior to screening').rule).toMatchObject({
      type: 'medication',
      taking: false,
      within: { value: 4, unit: 'weeks' },
    });
    expect(readTextRule('inclusion', 'No history of COPD').rule).toMatchObject({ type: 'condition', present: false });
  });

  it('reads performance status, smoking, contraception; consent and judgement are for the site', () => {
    expect(rule('exclusion', 'ECOG performance status ≥ 2').rule).toEqual({ type: 'performance_status', scale: 'ECOG', min: null, max: 1 });
    expect(rule('inclusion', 'Karnofsky ≥ 70%').rule).toEqual({ type: 'performance_status', scale: 'Karnofsky', min: 70, max: null });
    expect(rule('exclusion', 'Current smoker').rule).toEqual({ type: 'smoking', smoker: false });
    expect(rule('inclusion', 'Must agree to use highly effective contraception').rule).toEqual({ type: 'contraception', required: true });
    expect(rule('inclusion', 'Able to provide written informed consent')).toEqual({
      rule: { type: 'site_judgement', reason: 'consent_capacity' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Any condition that, in the opinion of the investigator, would interfere with the study').rule).toEqual({
      type: 'site_judgement',
      reason: 'investigator_judgement',
    });
  });

  it('reads pregnancy in exclusions; the rest needs a person', () => {
    expect(rule('exclusion', 'Pregnant or breastfeeding')).toEqual({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    expect(rule('exclusion', 'Pregnant or planning pregnancy, unless using contraception').needsReview).toBe(true);
    // A duration beside the condition is the rule's (decision 045); one it does not hold leaves it for a person.
    expect(rule('inclusion', 'Diagnosis of asthma for at least 12 months')).toMatchObject({
      rule: { type: 'condition', condition: 'asthma', present: true, duration: { minDays: 365 } },
      needsReview: false,
    });
    expect(rule('inclusion', 'Asthma, treated for at least 12 months')).toMatchObject({ rule: { type: 'condition', condition: 'asthma' }, needsReview: true });
  });

  // Issue 10, second pass: general patterns (texts written for these tests).
  const names = (result: { rule: CriterionRule | null }) =>
    ((result.rule as { concepts?: Array<{ name: string }> } | null)?.concepts ?? []).map((concept) => concept.name);

  it('matches a synonym in either grammatical number', () => {
    expect(rule('exclusion', 'Known psychiatric disorders')).toMatchObject({
      rule: { type: 'condition', present: false, condition: 'a mental health condition' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Subjects on a blood thinner')).toMatchObject({
      rule: { type: 'medication', taking: false, medication: 'blood thinners (such as warfarin)' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Enrolled in other clinical studies')).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: false });
    // Words that end in "s" without being plurals are left alone.
    expect(rule('exclusion', 'Diabetes').rule).toMatchObject({ type: 'condition', condition: 'diabetes' });
  });

  it('reads "hepatitis B or C" as both viruses, and repeated mentions of one concept as one rule', () => {
    const hepatitis = readTextRule('exclusion', 'Chronic hepatitis B or C infection');
    expect(names(hepatitis)).toEqual(['hepatitis B', 'hepatitis C']);
    // "Chronic" narrows the concept (decision 036); without it nothing is left unread.
    expect(hepatitis.needsReview).toBe(true);
    expect(readTextRule('exclusion', 'Hepatitis B or C infection').needsReview).toBe(false);
    expect(names(readTextRule('exclusion', 'Positive for hepatitis B/C'))).toEqual(['hepatitis B', 'hepatitis C']);
    // "AIDS or HIV": MeSH files AIDS under HIV infections (decision 346); nothing left unread.
    expect(rule('exclusion', 'Known AIDS or HIV')).toMatchObject({
      rule: { type: 'condition', condition: 'acquired immunodeficiency syndrome or HIV' },
      needsReview: false,
    });
    expect(names(readTextRule('exclusion', 'Acquired immunodeficiency syndrome'))).toEqual(['acquired immunodeficiency syndrome']);
    expect(names(readTextRule('exclusion', 'Known HIV/AIDS'))).toEqual(['HIV']);
  });

  it('reads common conditions, procedures and therapy classes of the second vocabulary pass', () => {
    expect(readTextRule('exclusion', 'Spondylolisthesis').rule).toMatchObject({ type: 'condition', present: false, concepts: [{ icd10: 'M43.1' }] });
    expect(rule('exclusion', 'Peripheral neuropathy.')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(names(readTextRule('exclusion', 'History of myasthenia gravis'))).toEqual(['myasthenia gravis']);
    expect(readTextRule('exclusion', 'Has a cardiac pacemaker')).toMatchObject({
      rule: { type: 'condition', present: false, concepts: [{ icd10: 'Z95.0' }] },
      needsReview: false,
    });
    expect(rule('exclusion', 'Current use of anticonvulsants')).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: false });
    expect(rule('inclusion', 'No physical therapy in the past 2 months')).toMatchObject({
      rule: { type: 'medication', taking: false, within: { value: 2, unit: 'months' } },
      needsReview: false,
    });
    expect(rule('exclusion', 'Immunologically suppressed persons').rule).toMatchObject({ type: 'condition', condition: 'a weak immune system' });
    expect(rule('exclusion', 'Currently receiving ketoconazole or another strong CYP3A inhibitor').rule).toMatchObject({ type: 'medication', taking: false });
  });

  it('never reads a planned, contraindicated, allowed or modifying mention as the rule', () => {
    // A planned procedure is not one the person has had.
    expect(rule('exclusion', 'Preplanned pacemaker implantation during the trial').rule).toBeNull();
    // A contraindication is the site's judgement, not "must not take".
    expect(rule('exclusion', 'Contraindication to ibuprofen').rule).toEqual({ type: 'site_judgement', reason: 'investigator_judgement' });
    expect(rule('exclusion', 'Any contraindication for magnetic resonance imaging').rule).toEqual({ type: 'site_judgement', reason: 'investigator_judgement' });
    expect(rule('exclusion', 'Patients in whom acupuncture would be unsafe').rule).toEqual({ type: 'site_judgement', reason: 'investigator_judgement' });
    // What a later sentence allows is not excluded.
    expect(names(readTextRule('exclusion', 'Use of anticoagulants. Low-dose aspirin is allowed.'))).toEqual(['blood thinners (such as warfarin)']);
    // "a physical therapy physician" names a doctor, not a therapy.
    expect(rule('inclusion', 'Referred by a physical therapy physician').rule).toBeNull();
    // A concept whose effect is discussed is not the rule's concept.
    expect(names(readTextRule('exclusion', 'Taking diuretics, which may change the effects of lithium'))).toEqual(['water pills (diuretics)']);
  });

  it('reads ages whose age word is inside the bound or names the group', () => {
    expect(rule('exclusion', 'Persons under the age of 21').rule).toEqual({ type: 'age', minYears: 21, maxYears: null });
    expect(rule('inclusion', 'Participant above age 40').rule).toEqual({ type: 'age', minYears: 40, maxYears: null });
    expect(rule('exclusion', 'Age older than 75')).toEqual({ rule: { type: 'age', minYears: null, maxYears: 75 }, needsReview: false });
    expect(rule('exclusion', 'Minors (< 18)').rule).toEqual({ type: 'age', minYears: 18, maxYears: null });
    // A count next to a group word is not an age.
    expect(rule('inclusion', 'Adults with more than 2 exacerbations').rule?.type).not.toBe('age');
  });

  it('reads more lab phrasings: unitless INR, mEq/L, ALP, total bilirubin as TBL', () => {
    expect(rule('exclusion', 'INR above 1.5')).toEqual({ rule: { type: 'lab', measure: 'INR', comparator: '<=', value: 1.5 }, needsReview: false });
    expect(rule('exclusion', 'Serum potassium > 5.5 mEq/L')).toEqual({
      rule: { type: 'lab', measure: 'potassium', comparator: '<=', value: 5.5, unit: 'mmol/L' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Alkaline phosphatase > 2.5 x ULN').rule).toEqual({
      type: 'lab',
      measure: 'ALP',
      comparator: '<=',
      value: 2.5,
      relativeTo: 'ULN',
    });
    expect(rule('exclusion', 'TBL > 2 mg/dL').rule).toMatchObject({ measure: 'bilirubin', comparator: '<=', value: 2 });
    // Direct bilirubin is not total bilirubin.
    expect(rule('exclusion', 'Direct bilirubin > 1.5 x ULN').rule).toMatchObject({ measure: 'direct bilirubin' });
    // A salt's name is not a lab value.
    expect(rule('inclusion', 'Naproxen sodium 550 mg twice daily').rule?.type).not.toBe('lab');
  });

  it('reads consent, language, refusal and custody as site checks', () => {
    expect(rule('exclusion', 'No written consent')).toEqual({ rule: { type: 'site_judgement', reason: 'consent_capacity' }, needsReview: false });
    expect(rule('exclusion', 'Lack of informed consent').rule).toEqual({ type: 'site_judgement', reason: 'consent_capacity' });
    expect(rule('exclusion', 'Refuses to take part in the trial').rule).toEqual({ type: 'site_judgement', reason: 'consent_capacity' });
    expect(rule('inclusion', 'Able to read and speak Spanish').rule).toEqual({ type: 'site_judgement', reason: 'consent_capacity' });
    expect(rule('exclusion', 'Persons who are incarcerated').rule).toEqual({ type: 'site_judgement', reason: 'protocol' });
    expect(rule('exclusion', 'Other exclusion criteria may apply').rule).toEqual({ type: 'site_judgement', reason: 'protocol' });
    // Consent as a point in time is still not a consent criterion.
    expect(rule('exclusion', 'Surgery within 14 days of informed consent').rule?.type).not.toBe('site_judgement');
  });

  it('reads smoking amounts, a positive hCG, plans to conceive; a nursing home is not breastfeeding', () => {
    expect(rule('inclusion', 'Smokes at least 10 cigarettes a day')).toMatchObject({ rule: { type: 'smoking', smoker: true }, needsReview: true });
    expect(rule('exclusion', 'Positive serum β-hCG')).toEqual({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
    expect(rule('exclusion', 'Pregnant, breastfeeding, or wishing to conceive while in the study')).toEqual({
      rule: { type: 'pregnancy', allowed: false },
      needsReview: false,
    });
    expect(rule('exclusion', 'Resident of a nursing home').rule?.type).not.toBe('pregnancy');
  });

  it('reads windows in whole days from hours, and "over the past" as a window', () => {
    expect(rule('exclusion', 'Antibiotics within 48 hours before randomization').rule).toMatchObject({
      type: 'medication',
      within: { value: 2, unit: 'days' },
    });
    expect(rule('exclusion', 'Opioid use over the past 3 months').rule).toMatchObject({ type: 'medication', within: { value: 3, unit: 'months' } });
    // "Over 6 months" is a duration, never a recent window.
    const duration = rule('inclusion', 'Back pain over 6 months').rule;
    expect(duration && 'within' in duration ? duration.within : undefined).toBeUndefined();
  });

  it('reads a list of words sharing one head noun as one concept per word', () => {
    expect(names(readTextRule('exclusion', 'Known renal or hepatic impairment'))).toEqual(['kidney disease', 'liver disease']);
    // "Chronic" narrows both (decision 036: course words are not filler); since decision 077 the rule holds it for both.
    expect(readTextRule('exclusion', 'Chronic heart or kidney failure')).toMatchObject({ rule: { qualifiers: ['chronic'] }, needsReview: false });
    expect(readTextRule('exclusion', 'Heart or kidney failure').needsReview).toBe(false);
    expect(names(readTextRule('exclusion', 'Chronic heart or kidney failure'))).toEqual(['heart failure', 'kidney disease']);
    // A word the vocabulary does not pair with the head stays unread, and the rule says so.
    expect(readTextRule('exclusion', 'Severe unexplained or liver disease').needsReview).toBe(true);
    // Since decision 083 the organ adjectives are classes of their own.
    expect(readTextRule('exclusion', 'Severe endocrine or liver disease')).toMatchObject({ rule: { qualifiers: ['severe'] }, needsReview: false });
    // Not a list of single words: "active or chronic hepatitis B infection" is not "active infection".
    expect(names(readTextRule('exclusion', 'Active or chronic hepatitis B infection'))).toEqual(['hepatitis B']);
  });

  it("reads adequate organ function as the protocol's laboratory table, checked by staff", () => {
    expect(rule('inclusion', 'Adequate bone marrow, renal and hepatic function')).toEqual({
      rule: { type: 'site_judgement', reason: 'protocol' },
      needsReview: false,
    });
    expect(rule('inclusion', 'Adequate end-organ function as defined below').rule).toEqual({ type: 'site_judgement', reason: 'protocol' });
  });

  it('durations, past treatment, heavy smoking, other causes, radicular pain', () => {
    // "Healthy controls aged 20-60": the age range is more than the healthy-volunteer rule.
    expect(rule('inclusion', 'Healthy control subjects aged 20 to 60').needsReview).toBe(true);
    // Past treatment in an inclusion is not "taking now".
    expect(rule('inclusion', 'Failure of at least 8 weeks of physical therapy').rule).toBeNull();
    expect(rule('inclusion', 'Stable dose of metformin for at least 4 weeks prior to screening').rule).toMatchObject({ type: 'medication', taking: true });
    // Heavy smoking excluded: light smokers may take part, so no "must not smoke".
    expect(rule('exclusion', 'Smoking more than 15 cigarettes per day').rule?.type).not.toBe('smoking');
    // "Of other aetiologies": the trial's own disease is not excluded, the named other causes are.
    expect(names(readTextRule('exclusion', 'Kidney disease of other aetiologies (e.g., lupus)'))).toEqual(['lupus']);
    // Radicular pain may be cervical: not sciatica unless the text says lumbar.
    expect(names(readTextRule('inclusion', 'Cervical radicular pain'))).toEqual(['a pinched nerve in the spine (radiculopathy)']);
    expect(names(readTextRule('inclusion', 'Lumbar radiculopathy'))).toEqual(['sciatica']);
    // "for 6 weeks" is a duration, "in 6 months" is ahead; "in the 3 months before screening" is a window.
    const duration = rule('inclusion', 'Leg pain from a herniated disc for 6 weeks');
    expect(duration.rule && 'within' in duration.rule ? duration.rule.within : undefined).toBeUndefined();
    expect(rule('exclusion', 'Stroke in the 3 months before screening').rule).toMatchObject({ within: { value: 3, unit: 'months' } });
  });

  it('"at least N days before", plans to receive, "other X", judgement examples', () => {
    // "At least 180 days before" is how long ago, never "in the last 180 days" (nor "80 days").
    const since = rule('inclusion', 'Diagnosed with asthma greater than or equal to 180 days before screening').rule;
    expect(since && 'within' in since ? since.within : undefined).toBeUndefined();
    // Registered or due to receive a vaccine is not having received one.
    expect(rule('inclusion', 'Due to receive a flu vaccine this season').rule).toBeNull();
    // "Other X" (other than the trial's) is not "must not have X"; "X or other Y" adds Y.
    expect(rule('exclusion', 'History of other heart disease').rule).toBeNull();
    expect(names(readTextRule('exclusion', 'Lupus or other autoimmune disease'))).toEqual(['lupus', 'an autoimmune disease']);
    // The investigator's judgement with examples is the judgement, not its example.
    expect(rule('exclusion', "Conditions that in the investigator's opinion preclude surgery (e.g., smoking, pregnancy)").rule).toEqual({
      type: 'site_judgement',
      reason: 'investigator_judgement',
    });
  });

  it('"with or without", diabetic complications, "prior to" is no history', () => {
    // "With or without back pain": back pain is neither required nor excluded.
    expect(names(readTextRule('inclusion', 'Leg pain from sciatica with or without low back pain'))).toEqual(['sciatica']);
    // A complication of diabetes is not diabetes ("must not have diabetes" would exclude a diabetes trial's people):
    // the complication itself, when the vocabulary has it (MeSH's diabetic retinopathy since issue 30).
    expect(rule('exclusion', 'Unstable diabetic retinopathy').rule).toEqual({
      type: 'condition',
      condition: 'diabetic retinopathy',
      present: false,
    });
    expect(names(readTextRule('exclusion', 'Diabetic ketoacidosis in the last 6 months'))).toEqual(['diabetic ketoacidosis (DKA)']);
    // "Prior to the first dose" is a point in time, not a history.
    const steroid = rule('exclusion', 'Immunodeficiency diagnosed prior to the first dose').rule;
    expect(steroid && 'history' in steroid ? steroid.history : undefined).toBeUndefined();
    expect(names(readTextRule('inclusion', 'Herniated lumbar disc on imaging'))).toEqual(['a slipped (herniated) disc']);
    expect(rule('inclusion', 'Plans of receiving treatment for a herniated disc').rule).toBeNull();
  });

  it('flags a rule that misses an item of a list, and ignores a plain section label', () => {
    // "unexplained" is an alternative the rule did not read: a person checks.
    expect(rule('exclusion', 'Any unexplained or autoimmune disease')).toMatchObject({ rule: { condition: 'an autoimmune disease' }, needsReview: true });
    // Tenth pass (decision 107): a terminal disease is a concept of its own, so the list is read whole.
    expect(rule('exclusion', 'Any terminal or autoimmune disease')).toMatchObject({
      rule: { condition: 'a terminal illness or an autoimmune disease' },
      needsReview: false,
    });
    expect(rule('exclusion', 'Medical conditions: Active systemic infection')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    // A label that says when the criterion is checked is not a plain label.
    expect(rule('exclusion', 'Found during the operation: active infection').needsReview).toBe(true);
  });
});

describe('study records', () => {
  it('maps the fixture record to a draft trial', () => {
    const draft = draftFromStudy(fixture('asthma-study.json'));
    expect(draft).toMatchObject({
      title: 'A Randomized, Placebo-Controlled Phase 2/3 Study of an Inhaled Study Drug in Adults With Moderate Persistent Asthma',
      publicTitle: 'Inhaled Study Drug for Adults With Moderate Asthma',
      nctId: 'NCT09900001',
      sponsor: 'Cohortly Test Sponsor',
      phase: 'Phase 2/Phase 3',
      conditions: ['Asthma', 'Moderate Persistent Asthma'],
      targetEnrollment: 120,
      minimumAgeYears: 18,
      maximumAgeYears: 65,
      sex: 'all',
      healthyVolunteers: false,
    });
    // The site's zone comes from its coordinates; no imported site is marked ours (decision 015).
    expect(draft.sites[0]).toEqual({
      name: 'Lakeside Clinical Research',
      city: 'Chicago',
      region: 'Illinois',
      postalCode: '60601',
      country: 'United States',
      latitude: 41.88,
      longitude: -87.62,
      isOwnSite: false,
      timeZone: 'America/Chicago',
      timeZoneSource: 'geo',
    });
    expect(draft.sites[1].timeZone).toBe('America/Halifax');
    expect(draft.criteria.map((c) => [c.kind, c.ruleSource, c.needsReview, c.text])).toEqual([
      ['inclusion', 'structured', false, 'Age at least 18 years and at most 65 years old'],
      ['inclusion', 'structured', false, 'Healthy volunteers not accepted'],
      ['inclusion', 'text', false, 'Adults aged 18 to 65 years'],
      ['inclusion', 'text', false, 'Diagnosis of asthma for at least 12 months'],
      ['inclusion', 'text', false, 'BMI between 18.5 and 35 kg/m2'],
      // Alternatives: one criterion each, none required by itself.
      ['inclusion', 'text', true, 'On one of the following controller therapies: inhaled corticosteroid'],
      ['inclusion', 'text', true, 'On one of the following controller therapies: inhaled corticosteroid with a long-acting beta agonist'],
      ['exclusion', 'text', false, 'Pregnant or breastfeeding'],
      ['exclusion', 'text', false, 'eGFR < 45 mL/min'],
      ['exclusion', 'text', false, 'HbA1c ≥ 7.0%'],
      ['exclusion', 'text', false, 'ALT > 3 x ULN'],
      ['exclusion', 'text', true, 'Current smoker or a smoking history of more than 10 pack-years'],
    ]);
    expect(draft.criteria[0].rule).toEqual({ type: 'age', minYears: 18, maxYears: 65 });
    expect(draft.criteria[9].rule).toEqual({ type: 'lab', measure: 'HbA1c', comparator: '<', value: 7, unit: '%', span: { start: 0, end: 12 } });
    expect(draft.criteria.every((criterion) => criterion.population === null)).toBe(true);
  });

  it('ignores unknown keys; reads sex and a missing maximum age', () => {
    const draft = draftFromStudy(fixture('womens-health-study.json'));
    expect(draft).toMatchObject({
      title: 'Bone Density in Postmenopausal Women',
      sex: 'female',
      minimumAgeYears: 50,
      maximumAgeYears: null,
      phase: null,
      sites: [],
    });
    expect(draft.criteria.slice(0, 2).map((c) => c.rule)).toEqual([
      { type: 'age', minYears: 50, maxYears: null },
      { type: 'sex', sex: 'female' },
    ]);
  });

  it('answers 400 naming what is wrong for a body that is not a study record', () => {
    const failure = (body: unknown) => {
      try {
        draftFromStudy(body);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(400);
        return (error as AppError).message;
      }
      throw new Error('expected a failure');
    };
    expect(failure({ hello: 'world' })).toContain('protocolSection: Required');
    expect(failure({ protocolSection: { identificationModule: {} } })).toContain('protocolSection.identificationModule.nctId: Required');
    expect(failure({ protocolSection: { identificationModule: { nctId: 'NCT09900001' }, eligibilityModule: { sex: 3 } } })).toContain(
      'protocolSection.eligibilityModule.sex',
    );
    expect(failure([1, 2])).toContain('(body)');
  });

  it('converts ages and phases', () => {
    expect(ageToYears('18 Years')).toBe(18);
    expect(ageToYears('6 Months')).toBe(0.5);
    expect(ageToYears('18 Months')).toBe(1.5);
    expect(ageToYears(undefined)).toBeUndefined();
    expect(formatPhases(['PHASE2', 'PHASE3'])).toBe('Phase 2/Phase 3');
    expect(formatPhases(['EARLY_PHASE1'])).toBe('Early Phase 1');
    expect(formatPhases(['NA'])).toBeNull();
  });
});

/** The parser on every record of the shared ClinicalTrials.gov set (read in place, never copied). */
describe.skipIf(!existsSync(SHARED))('the shared ClinicalTrials.gov records', () => {
  type Study = {
    protocolSection: {
      identificationModule: { nctId: string };
      eligibilityModule?: { eligibilityCriteria?: string; minimumAge?: string; maximumAge?: string; sex?: string };
    };
  };
  const studies: Study[] = existsSync(SHARED) ? JSON.parse(readFileSync(SHARED, 'utf8')) : [];
  const byId = (nctId: string) => studies.find((study) => study.protocolSection.identificationModule.nctId === nctId)!;
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  /** A heading line, read independently of the parser: "(Key) Inclusion/Exclusion Criteria(:)". */
  const headingKind = (line: string): 'inclusion' | 'exclusion' | null => {
    const text = squash(line.replace(/^[*•-]\s*/, ''));
    const head = text.split(':')[0];
    if (head.split(' ').length > 12 || /\b(apply|may|could|following|must)\b/i.test(head)) return null;
    const inclusion = /\binclusion\b/i.test(head);
    const exclusion = /\bexclusion\b/i.test(head);
    if (inclusion === exclusion || !/criteri/i.test(head)) return null;
    return inclusion ? 'inclusion' : 'exclusion';
  };

  it('reads all 94 records', () => expect(studies.length).toBe(94));

  it('gives every record a title, its NCT id and structured age/sex rules matching the record', () => {
    for (const study of studies) {
      const draft = draftFromStudy(study);
      const eligibility = study.protocolSection.eligibilityModule ?? {};
      expect(draft.title.length).toBeGreaterThan(0);
      expect(draft.nctId).toBe(study.protocolSection.identificationModule.nctId);
      const age = draft.criteria.find((c) => c.ruleSource === 'structured' && c.rule?.type === 'age');
      if (eligibility.minimumAge || eligibility.maximumAge) {
        expect(age?.rule).toEqual({ type: 'age', minYears: ageToYears(eligibility.minimumAge) ?? null, maxYears: ageToYears(eligibility.maximumAge) ?? null });
      } else {
        expect(age).toBeUndefined();
      }
      expect(draft.maximumAgeYears).toBe(eligibility.maximumAge ? Math.floor(ageToYears(eligibility.maximumAge)!) : null);
      expect(draft.sex).toBe((eligibility.sex ?? 'ALL').toLowerCase());
      const sex = draft.criteria.find((c) => c.rule?.type === 'sex' && c.ruleSource === 'structured');
      expect(sex?.rule ?? null).toEqual(eligibility.sex && eligibility.sex !== 'ALL' ? { type: 'sex', sex: eligibility.sex.toLowerCase() } : null);
    }
  });

  it('keeps every criterion line, in the section it came from', () => {
    for (const study of studies) {
      const nctId = study.protocolSection.identificationModule.nctId;
      const original = study.protocolSection.eligibilityModule?.eligibilityCriteria ?? '';
      const text = unescapeMarkdown(original);
      const criteria = parseCriteria(original);
      if (text.trim()) expect(criteria.length, nctId).toBeGreaterThan(0);
      const squashed = criteria.map((c) => ({ kind: c.kind, text: squash(c.text.replace(/\n- /g, ' ')) }));
      let section: 'inclusion' | 'exclusion' = 'inclusion';
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        const heading = headingKind(raw);
        if (heading) {
          section = heading;
          continue;
        }
        const whole = squash(raw.replace(/^\s*(?:[*+•·-]|\d{1,3}[.)]|[a-zA-Z][.)])\s+/, '').replace(/^\d{1,3}[.)]\s+/, ''));
        // A numbered list written on one line ("1. The patient ... 2. The patient ... 3. ...") is one criterion per number.
        const numbered = (whole.match(/(?:^|\s)\d{1,2}\.\s+[A-Z]/g) ?? []).length >= 3;
        const lines = numbered ? whole.split(/\s(?=\d{1,2}\.\s+[A-Z])/).map((part) => part.replace(/^\d{1,2}\.\s+/, '')) : [whole];
        for (const line of lines) {
          const holders = squashed.filter((c) => c.text.includes(line) || c.text.includes(line.replace(/:$/, '')));
          // Only headings, lead-ins and placeholders may be left out: short, or ending with ":", or "None"-like.
          const droppable = /:$/.test(line) || line.split(' ').length <= 6 || /^(?:none|n\/?a|not applicable|-|<!-- -->)$/i.test(line);
          if (holders.length === 0 && droppable) continue;
          expect(holders.length, `${nctId}: "${line}" is in no criterion`).toBeGreaterThan(0);
          expect(
            holders.some((c) => c.kind === section),
            `${nctId}: "${line}" should be ${section}`,
          ).toBe(true);
        }
      }
    }
  });

  it('reads NCT05925803 (key criteria, eGFR in a history item)', () => {
    const draft = draftFromStudy(byId('NCT05925803'));
    const inclusion = draft.criteria.filter((c) => c.kind === 'inclusion' && c.ruleSource !== 'structured');
    const exclusion = draft.criteria.filter((c) => c.kind === 'exclusion');
    expect(inclusion).toHaveLength(10);
    expect(exclusion).toHaveLength(13);
    expect(inclusion[0]).toMatchObject({
      kind: 'inclusion',
      text: 'Adult patients from 18 to 70 years of age inclusive',
      rule: { type: 'age', minYears: 18, maxYears: 70 },
      ruleSource: 'text',
      needsReview: false,
      population: null,
    });
    expect(inclusion[5].text).toBe('mRSS > 10 with early disease or rapid progression as defined by the protocol');
    // "Renal crisis within past 12 months (eGFR < 45)": the eGFR of a past crisis, not today's (hand-check K, decision 077).
    expect(exclusion[2]).toMatchObject({ text: expect.stringMatching(/renal crisis within past 12 months/), rule: null, needsReview: true });
    expect(draft).toMatchObject({ phase: 'Phase 3', minimumAgeYears: 18, maximumAgeYears: 70, sponsor: 'AstraZeneca', healthyVolunteers: false });
  });

  it('reads NCT01640457 (BMI and CRP thresholds, pregnancy with contraception text)', () => {
    const draft = draftFromStudy(byId('NCT01640457'));
    expect(draft.criteria.find((c) => c.text === 'BMI > 35 kg/m2')).toEqual({
      kind: 'exclusion',
      text: 'BMI > 35 kg/m2',
      rule: { type: 'lab', measure: 'BMI', comparator: '<=', value: 35, unit: 'kg/m2', span: { start: 0, end: 14 } },
      ruleSource: 'text',
      needsReview: false,
      population: null,
    });
    expect(draft.criteria.find((c) => c.text.startsWith('The patient is pregnant'))).toMatchObject({
      kind: 'exclusion',
      rule: { type: 'pregnancy', allowed: false },
      needsReview: true,
    });
    expect(draft.criteria.find((c) => c.text === 'The patient is between 18-60 years of age.')?.rule).toMatchObject({
      type: 'age',
      minYears: 18,
      maxYears: 60,
    });
  });

  it('reads NCT05313997 (a lead-in on the heading line, ages in exclusions)', () => {
    const exclusion = draftFromStudy(byId('NCT05313997')).criteria.filter((c) => c.kind === 'exclusion');
    expect(exclusion.map((c) => c.text)).toContain('Patients with vertebral fracture,');
    expect(exclusion.find((c) => c.text === 'Patients with under 18 years old')?.rule).toMatchObject({ type: 'age', minYears: 18, maxYears: null });
    expect(exclusion.find((c) => c.text === 'Patients with over 65 years old')?.rule).toMatchObject({ type: 'age', minYears: null, maxYears: 65 });
  });
});

describe('whole criteria read, qualifiers and durations kept honest (decision 036)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('reads a criterion that only says who may take part by sex', () => {
    for (const text of [
      'Male or female',
      'Any gender',
      'Both sexes.',
      'Men and women',
      '2) Both male and female participants',
      'Males and females are eligible',
    ])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'sex', sex: 'all' }, needsReview: false });
    expect(read('inclusion', 'Women')).toMatchObject({ rule: { type: 'sex', sex: 'female' }, needsReview: false });
    // "Only" says no more than the one sex named (decision 278).
    expect(read('inclusion', 'Male participants only')).toMatchObject({ rule: { type: 'sex', sex: 'male' }, needsReview: false });
    expect(read('inclusion', 'Gender').rule).toBeNull();
  });

  it('does not drop the one sex a criterion names when its rule is about something else', () => {
    expect(read('inclusion', 'Female patients with asthma')).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
    expect(read('inclusion', 'Men aged 40-75 years')).toMatchObject({ rule: { type: 'age', minYears: 40, maxYears: 75 }, needsReview: true });
    expect(read('inclusion', 'Male or female patients with asthma')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
    expect(read('exclusion', 'Women who are breastfeeding')).toMatchObject({ rule: { type: 'pregnancy', allowed: false }, needsReview: false });
  });

  it('reads pain scores on the 0-10 scale, with 0-100 and millimetre scales converted', () => {
    expect(read('inclusion', 'VAS > 4.0')).toMatchObject({
      rule: { type: 'lab', measure: 'pain score', comparator: '>', value: 4, unit: '/10' },
      needsReview: false,
    });
    expect(read('inclusion', 'NRS pain score of at least 5')).toMatchObject({
      rule: { measure: 'pain score', comparator: '>=', value: 5 },
      needsReview: false,
    });
    expect(read('inclusion', 'Pain intensity >= 40 mm on a 100 mm visual analogue scale')).toMatchObject({
      rule: { measure: 'pain score', value: 4, unit: '/10' },
      needsReview: false,
    });
    expect(read('inclusion', 'Visual analog scale score ≥ 60/100')).toMatchObject({ rule: { measure: 'pain score', value: 6 } });
    expect(read('exclusion', 'Numeric rating scale > 8')).toMatchObject({ rule: { measure: 'pain score', comparator: '<=', value: 8 }, needsReview: false });
    // Where the pain is, one region of the list, is the score's measure (decision 350).
    expect(read('inclusion', 'VAS leg pain of at least 40/100 at baseline')).toMatchObject({
      rule: { measure: 'leg pain score', value: 4 },
      needsReview: false,
    });
    expect(read('inclusion', 'NRS for neck pain more than 5')).toMatchObject({ rule: { measure: 'neck pain score', value: 5 }, needsReview: false });
    // "Vasectomy" is not a VAS.
    expect(read('inclusion', 'Partner with a vasectomy at least 90 days prior').rule?.type).not.toBe('lab');
  });

  it('never treats severity, course and control words as filler: the rule holds them (decision 077)', () => {
    for (const [kind, text, qualifier] of [
      ['exclusion', 'Severe asthma', 'severe'],
      ['exclusion', 'Clinically significant cardiac disease', 'serious'],
      ['exclusion', 'Chronic kidney stones', 'chronic'],
      ['exclusion', 'Uncontrolled hypertension', 'uncontrolled'],
      ['exclusion', 'Poorly controlled diabetes', 'uncontrolled'],
      ['exclusion', 'Recurrent urinary tract infections', 'recurrent'],
      ['inclusion', 'Mild to moderate psoriasis', 'mild_or_moderate'],
      ['inclusion', 'Symptomatic heart failure', 'symptomatic'],
    ] as const)
      expect(read(kind, text), text).toMatchObject({ rule: { type: 'condition', qualifiers: [qualifier] }, needsReview: false });
    // Both courses together are the whole concept.
    expect(read('exclusion', 'History of chronic or acute pancreatitis')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('exclusion', 'Active hepatitis B')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });

  it('flags a duration written in words or digits that the rule does not hold', () => {
    // Since decision 045 the rule holds a duration beside its condition, in words or digits.
    for (const [text, minDays] of [
      ['History of low back pain for greater than three months', 91],
      ['Sciatica lasting six weeks or more', 42],
      ['Asthma diagnosed at least two years ago', 731],
      ['Type 2 diabetes for 1 year or longer', 365],
    ] as const)
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'condition', duration: { minDays } }, needsReview: false });
    // One that is not beside it (a treatment's) still is not the rule's.
    for (const text of ['Asthma with inhaled steroids for at least two years', 'Sciatica, physiotherapy for six weeks or more'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
    // A window the rule holds is not left over.
    expect(read('exclusion', 'Myocardial infarction within the past six months')).toMatchObject({
      rule: { type: 'condition', within: { value: 6, unit: 'months' } },
      needsReview: false,
    });
  });

  it('flags an allergy to a named drug class; an allergy to a food or a metal is not "an allergy to medicines like this one"', () => {
    // An allergen the vocabulary does not know, or one medicine of a class, still needs a person.
    // ("Penicillin" is the class of penicillin antibiotics, and cephalosporins a class MeSH names: read whole, below.)
    for (const text of ['Patients allergic to rosuvastatin', 'Hypersensitivity to pembrolizumab'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: true });
    // Tenth pass (decision 107): an allergy to a named class of medicines is that allergy, whole.
    expect(read('exclusion', 'Patients allergic to opioids')).toMatchObject({
      rule: { type: 'condition', condition: 'an allergy to opioid pain medicines', present: false },
      needsReview: false,
    });
    // Fourth pass (decision 040): the concept is worded for medicines, so a food or metal allergen leaves it to a person,
    // unless MeSH names that allergy ("peanut hypersensitivity", decision 332).
    for (const text of ['Known allergy to nickel', 'Allergic to any ingredient of the test food or to any other food or drug'])
      expect(read('exclusion', text), text).toEqual({ rule: null, needsReview: true });
    expect(read('exclusion', 'Allergy to peanuts')).toMatchObject({ rule: { condition: 'peanut hypersensitivity' }, needsReview: false });
    for (const text of ['Known hypersensitivity to the study drug', 'Allergy to any of the excipients'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
  });

  it('flags anatomy and pattern-of-use words that narrow the concept, unless the rule holds them (decision 077)', () => {
    for (const [text, qualifier] of [
      ['Prior spine surgery at any lumbar level', 'lumbar'],
      ['Cervical spine fracture', 'cervical'],
      ['Bilateral sciatica', 'both_sides'],
    ] as const)
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', qualifiers: [qualifier] }, needsReview: false });
    expect(read('exclusion', 'Primary immunodeficiency')).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
    for (const text of ['Continuous painkiller use', 'Regular use of opioids', 'Daily use of NSAIDs', 'Long-term oral corticosteroids'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: true });
    expect(read('exclusion', 'Spinal fracture')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
    // A subtype is never a synonym of its class: "lumbar fracture" and "cervical spine surgery" keep their anatomy, now
    // as the rule's qualifier; "lumbar fusion" is a kind of spine surgery that no qualifier says, so a person reads it.
    expect(read('exclusion', 'Lumbar fracture')).toMatchObject({ rule: { type: 'condition', qualifiers: ['lumbar'] }, needsReview: false });
    expect(read('exclusion', 'History of prior cervical spine surgery')).toMatchObject({ rule: { qualifiers: ['cervical'] }, needsReview: false });
    expect(read('exclusion', 'Previous lumbar fusion')).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
  });

  it('reads the investigator judgement, not its examples ("e.g.", "such as")', () => {
    for (const text of [
      'Any other inflammatory disease, eg, inflammatory bowel disease, that in the opinion of the investigator could interfere with the assessments',
      'Other conditions such as asthma or COPD which, in the judgement of the investigator, would compromise safety',
    ])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'site_judgement', reason: 'investigator_judgement' } });
  });

  it('attaches a window written as "seventy-two (72) hours" or after an "e.g." list', () => {
    expect(read('exclusion', 'Use of NSAIDs within seventy-two (72) hours before surgery').rule).toMatchObject({
      type: 'medication',
      taking: false,
      within: { value: 3, unit: 'days' },
    });
    expect(read('exclusion', 'Myocardial infarction within six (6) months').rule).toMatchObject({ type: 'condition', within: { value: 6, unit: 'months' } });
    expect(read('exclusion', 'Received opioids (e.g., morphine, i.e. any strength) within 30 days prior to screening').rule).toMatchObject({
      type: 'medication',
      within: { value: 30, unit: 'days' },
    });
    // A real sentence break still keeps a window from a concept in another sentence.
    expect(read('exclusion', 'Surgery within 30 days. Opioid use.').rule).not.toMatchObject({ within: { value: 30 } });
    // Nor across the lines of a list: the first item's concept does not take the second item's window.
    expect(read('exclusion', 'Asthma,\n- an infection (e.g. pneumonia, etc.) within three days').rule).not.toMatchObject({ within: { value: 3 } });
  });

  it('does not require the examples an inclusion names in parentheses', () => {
    // The class MeSH names is the rule (in review); the examples are never required on their own.
    const antidiabetic = read('inclusion', 'On a stable dose of oral antidiabetic drugs (metformin, sulphonylureas) for 3 months');
    expect(antidiabetic).toMatchObject({ rule: { type: 'medication', medication: 'hypoglycemic agents', taking: true }, needsReview: true });
    expect(JSON.stringify(antidiabetic.rule)).not.toContain('metformin');
    expect(read('inclusion', 'Treated with a DMARD (e.g. methotrexate)')).toMatchObject({ rule: { medication: 'antirheumatic agents' }, needsReview: true });
    // A concept named outside the parenthesis is still read; its synonym inside is the same concept.
    expect(read('inclusion', 'Type 2 diabetes (T2DM)').rule).toMatchObject({ type: 'condition', condition: 'type 2 diabetes' });
    // Examples in an exclusion are still excluded (each is a member of the excluded class): read.
    expect(read('exclusion', 'Systemic inflammatory arthritis (e.g., rheumatoid arthritis, lupus)').rule).toMatchObject({
      type: 'condition',
      present: false,
      condition: 'inflammatory arthritis, rheumatoid arthritis or lupus',
    });
  });

  it('reads "type 1 or type 2 diabetes" as diabetes, never type 2 alone', () => {
    for (const text of ['History of type 1 or type 2 diabetes', 'Type I or II diabetes mellitus', 'Type 1 or 2 diabetes'])
      expect(read('exclusion', text).rule, text).toMatchObject({ type: 'condition', condition: 'diabetes', present: false });
  });

  it('reads common site checks: preclusion, refused consent, cooperation, questionnaires, records, staff, litigation', () => {
    const cases: Array<[CriterionKindText, string, string]> = [
      ['exclusion', 'Any condition that precludes the use of general anesthesia.', 'investigator_judgement'],
      ['exclusion', 'Any medical illness which would contraindicate surgery', 'investigator_judgement'],
      ['exclusion', 'Patients who do not consent to the use of their data', 'consent_capacity'],
      ['exclusion', 'Unsigned informed consent', 'consent_capacity'],
      ['inclusion', 'Able to cooperate with the study procedures', 'protocol_compliance'],
      ['inclusion', 'Able to fill out questionnaires', 'protocol_compliance'],
      ['exclusion', 'Incomplete medical records', 'protocol'],
      ['exclusion', 'Study site personnel and their families', 'protocol'],
      ['exclusion', 'Pending litigation related to the injury', 'protocol'],
      ['exclusion', "Receiving workers' compensation for back pain", 'protocol'],
    ];
    for (const [kind, text, reason] of cases) expect(read(kind, text), text).toMatchObject({ rule: { type: 'site_judgement', reason }, needsReview: false });
  });
});
type CriterionKindText = 'inclusion' | 'exclusion';

describe('precision first: allergens, product kinds, what a treatment is for, ASA classes (decision 040)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
  const named = (rule: CriterionRule | null) =>
    (rule && (rule.type === 'condition' ? rule.condition : rule.type === 'medication' ? rule.medication : '')) || '';

  it('reads the ASA physical status in Roman numerals, never an aspirin dose', () => {
    expect(read('inclusion', 'ASA physical status I or II')).toMatchObject({
      rule: { type: 'lab', measure: 'ASA physical status', comparator: 'between', value: 1, upperValue: 2, unit: 'class', span: { start: 0 } },
      needsReview: false,
    });
    expect(read('inclusion', 'ASA class I-III patients scheduled for surgery').rule).toMatchObject({ comparator: 'between', value: 1, upperValue: 3 });
    // Excluding "III or higher" leaves I and II; excluding "IV" alone does not say whether V is excluded.
    expect(read('exclusion', 'ASA grade III or higher')).toMatchObject({ rule: { comparator: '<', value: 3 }, needsReview: false });
    expect(read('exclusion', 'ASA grade IV')).toMatchObject({ rule: { comparator: '<', value: 4 }, needsReview: true });
    for (const text of ['Taking ASA 81 mg daily', 'Use of ASA 3 times a day']) expect(read('exclusion', text).rule?.type, text).not.toBe('lab');
  });

  it('never reads what a person consents or agrees to, or the kinds of an investigational product, as the rule', () => {
    expect(read('inclusion', 'Agrees to receive a lumbar epidural steroid injection as part of usual care').rule).toBeNull();
    // (A willingness to undergo the study's procedures is a site check, never "must be taking physical therapy".)
    expect(read('inclusion', 'Willing to undergo physical therapy twice a week').rule?.type).not.toBe('medication');
    const product = read('exclusion', 'Use of any experimental product (drug, biologic or vaccine) within 60 days before randomisation');
    expect(named(product.rule)).not.toMatch(/vaccine/);
  });

  it('reads an allergy as "an allergy to medicines like this one" only when it is to a medicine', () => {
    for (const text of [
      'Known allergy to latex or adhesive tape',
      'Seasonal allergies',
      'Allergic symptoms such as hay fever in spring',
      'Allergy to implant materials',
    ])
      expect(named(read('exclusion', text).rule), text).not.toMatch(/medicines like this one/);
    expect(read('exclusion', 'Hypersensitivity to cephalosporins')).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('exclusion', 'Known hypersensitivity to the study drug or its excipients')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });

  it('reads past use of a medicine in an exclusion as "ever taken", and a later sentence as unread', () => {
    expect(read('exclusion', 'Prior use of opioids')).toMatchObject({ rule: { type: 'medication', taking: false, history: true }, needsReview: false });
    expect(read('exclusion', 'Use of opioids prior to screening').rule).not.toHaveProperty('history');
    const later = read('exclusion', 'Received chemotherapy within 21 days before enrolment. Participants must not require insulin.');
    expect(later).toMatchObject({ rule: { type: 'medication', taking: false, within: { value: 21, unit: 'days' } }, needsReview: true });
    expect(named(later.rule)).not.toMatch(/insulin/);
  });

  it('keeps definitions, indications and plans out of the rule', () => {
    const defined = read('exclusion', 'Severe neuropathy, defined as a patient with diabetes and loss of sensation in both feet');
    expect(named(defined.rule)).not.toMatch(/diabetes/);
    expect(read('exclusion', 'Needs spinal fusion to treat sciatica').rule).toBeNull();
    expect(named(read('inclusion', 'Scheduled for elective surgery for the treatment of spinal stenosis').rule)).toMatch(/spinal stenosis/);
    expect(read('exclusion', 'Planned start of chemotherapy during the study').rule).toBeNull();
    // A restatement of the same concept is not a definition of another one.
    expect(read('exclusion', 'Acute kidney injury (i.e., acute renal failure)')).toMatchObject({ rule: { type: 'condition' }, needsReview: false });
  });

  it('flags a rule that leaves one content word, a time phrase or a list item unread', () => {
    for (const text of ['Idiopathic spinal deformity', 'Interstitial pneumonia', 'Recent myocardial infarction', 'Spinal fracture, scoliosis, and foobaritis'])
      expect(read('exclusion', text), text).toMatchObject({ needsReview: true });
    expect(read('exclusion', 'Steroid Use İn The Last Month')).toMatchObject({ rule: { type: 'medication', within: { value: 1, unit: 'months' } } });
    // History words of another clause do not make the concept "ever".
    expect(read('exclusion', 'Exercised regularly in the past; claustrophobia').rule).not.toHaveProperty('history');
  });

  it('reads weights in grams and pounds, "lesser than", and flags a second measure or a smoking amount', () => {
    expect(read('exclusion', 'Body weight < 3000 g at screening').rule).toMatchObject({ measure: 'weight', comparator: '>=', value: 3, unit: 'kg' });
    expect(read('inclusion', 'Weight of 110 pounds or more').rule).toMatchObject({ measure: 'weight', comparator: '>=', value: 49.896, unit: 'kg' });
    expect(read('exclusion', 'eGFR lesser than 30 mL/min/1.73 m2').rule).toMatchObject({ measure: 'eGFR', comparator: '>=', value: 30 });
    expect(read('inclusion', 'BMI from 19 to under 30 and body weight of 45 kg or over')).toMatchObject({ needsReview: true });
    expect(read('inclusion', 'Smokes 1 to 2 packs a day')).toMatchObject({ rule: { type: 'smoking', smoker: true }, needsReview: true });
    expect(read('inclusion', 'BMI of at least 25 kilograms per square meter').rule).toMatchObject({ measure: 'BMI', value: 25, unit: 'kg/m2' });
  });

  it('reads the time of a medicine honestly: reference points, "within a minimum of", durations and perfect tenses', () => {
    // The study product after "first dose of" is a point in time, not a medicine the person takes.
    const before = read('exclusion', 'Systemic corticosteroids within 14 days before the first dose of pembrolizumab');
    expect(before).toMatchObject({ rule: { type: 'medication', taking: false, within: { value: 14, unit: 'days' } }, needsReview: false });
    expect(named(before.rule)).not.toMatch(/immunotherapy|pembrolizumab/);
    expect(read('exclusion', 'Investigational drug within a minimum of 60 days before randomisation').rule).toMatchObject({
      within: { value: 60, unit: 'days' },
    });
    // "For at least 90 days" is how long, never "in the last 90 days".
    expect(read('inclusion', 'Stable dose of metformin for at least 90 days before screening').rule).not.toHaveProperty('within');
    // "Have received X" with no window is ever; with a window anywhere in the criterion it is left to that window.
    expect(read('exclusion', 'Patients who have received opioids').rule).toMatchObject({ type: 'medication', taking: false, history: true });
    expect(read('exclusion', 'Have received opioids, muscle relaxants or acupuncture to the back within 7 days').rule).not.toHaveProperty('history');
    expect(read('exclusion', 'Recent treatment with opioids').rule).not.toHaveProperty('history');
  });

  it('prefixes, glosses, sterilisation, history-taking, never-received, how a condition is treated', () => {
    // A "non-" prefix negates its own word: "non-microdiscectomy lumbar surgery" is still surgery, and excluded.
    expect(read('exclusion', 'Prior fusion or non-discectomy spine surgery').rule).toMatchObject({ type: 'condition', present: false });
    expect(read('inclusion', 'Non-diabetic adults').rule).toMatchObject({ type: 'condition', present: false });
    // In an inclusion a concept in parentheses beside one named outside is a gloss, never an alternative met on its own.
    const gloss = read('inclusion', 'Leg pain with a list (scoliosis) on walking, and radiculopathy');
    expect(named(gloss.rule)).not.toMatch(/scoliosis/);
    // Being sterilised or postmenopausal is not a method to use; "non-pregnant" is negated pregnancy.
    expect(read('inclusion', 'Women must be non-pregnant, non-lactating, sterilized or postmenopausal').rule).toMatchObject({
      type: 'pregnancy',
      allowed: false,
    });
    expect(read('inclusion', 'Partners of men must be sterilized or use two methods of contraception').rule).toMatchObject({ type: 'contraception' });
    // "Based on history and examination" is history-taking, not "ever".
    expect(read('inclusion', 'Sciatica confirmed based on history and examination').rule).not.toHaveProperty('history');
    // "Must not have received prior X" in an inclusion is never taken, not "not taking now".
    expect(read('inclusion', 'Must not have received prior chemotherapy').rule).toMatchObject({ type: 'medication', taking: false, history: true });
    // How the condition is treated narrows it.
    expect(read('exclusion', 'Known diabetes, drug treated')).toMatchObject({ rule: { type: 'condition' }, needsReview: true });
  });

  it('allowed therapies, planned examples, an unread alternative, "the past year", the current episode', () => {
    // Allowed, never required: since decision 224 a permission is a site check of what it permits, never a medicine rule;
    // with no proviso it refuses no one (decision 333).
    expect(read('inclusion', 'Background therapies can be continued, including methotrexate or oral steroids')).toMatchObject({
      rule: { type: 'site_judgement', reason: 'permission' },
      needsReview: false,
    });
    // Never the example as a condition: a procedure planned inside the study is the site's check (decision 161).
    expect(read('exclusion', 'A planned procedure such as pacemaker implantation during the study').rule).toMatchObject({
      type: 'site_judgement',
      reason: 'protocol',
    });
    // In an inclusion, an alternative the reader does not know would make the rule require the other one.
    expect(read('inclusion', 'Epidural fibrosis and/or disc herniation on MRI').rule).toBeNull();
    expect(read('inclusion', 'Disc herniation at L4-L5 or L5-S1 on MRI')).toMatchObject({ rule: { type: 'condition', present: true }, needsReview: true });
    // "Over the past year" belongs to its own clause and is a window, never "ever".
    expect(read('exclusion', 'Immunosuppressed, or received steroids over the past year').rule).not.toHaveProperty('history');
    expect(read('exclusion', 'Prior epidural steroid injections for the current episode').rule).toMatchObject({
      type: 'medication',
      taking: false,
      history: true,
    });
  });

  it('a criterion opening with a past participle is past use; adherence to a medicine is not taking it', () => {
    expect(read('exclusion', 'Treated with opioids.').rule).toMatchObject({ type: 'medication', taking: false, history: true });
    expect(read('exclusion', 'Taking opioids').rule).not.toHaveProperty('history');
    expect(read('exclusion', 'Poor adherence to opioids prescribed for back pain').rule?.type).not.toBe('medication');
  });
});

describe('side clauses: adverse events, waiting lists, subgroups (decision 045)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('adhering to a medicine is neither taking nor not taking it', () => {
    // Since decision 110 they are staff's judgement, a site check never asked of the patient.
    expect(read('exclusion', 'Documented nonadherence to prescribed antiepileptic medication').rule?.type).toBe('site_judgement');
    expect(read('exclusion', 'History of poor compliance with inhaled corticosteroids or bronchodilators').rule?.type).toBe('site_judgement');
    expect(read('exclusion', 'Unable to adhere to the anticoagulant regimen').rule?.type).not.toBe('medication');
    // Taking it is still read.
    expect(read('exclusion', 'Current use of anticoagulants').rule).toMatchObject({ type: 'medication', taking: false });
  });

  it('an inclusion whose list lines are joined by "or" names alternatives, none required alone', () => {
    expect(read('inclusion', 'Stable treatment for 4 weeks with one of:\n- metformin\n- or sulfonylureas\n- or insulin')).toEqual({
      rule: null,
      needsReview: true,
    });
    expect(read('inclusion', 'Background therapy with\n* methotrexate;\n* and/or hydroxychloroquine')).toEqual({ rule: null, needsReview: true });
    // An exclusion of any of them stays: each one excludes.
    expect(read('exclusion', 'Treatment with\n- methotrexate\n- or azathioprine').rule).toMatchObject({ type: 'medication', taking: false });
  });

  it('products a surgeon applies during the operation are not medicines the person takes', () => {
    expect(read('exclusion', 'Use of hemostatic agents or steroids on the dura at the end of the procedure').rule).toBeNull();
    expect(read('exclusion', 'Corticosteroids placed into the epidural space at surgery').rule).toBeNull();
    // What the surgeon does in the operation is checked there by staff (decision 110).
    expect(read('exclusion', 'Intraoperative administration of dexamethasone').rule?.type).toBe('site_judgement');
    expect(read('exclusion', 'Systemic corticosteroids within 14 days').rule).toMatchObject({ type: 'medication', within: { value: 14, unit: 'days' } });
  });

  it('"cardiac" names the heart, not the blood vessels', () => {
    expect(read('exclusion', 'Heart pathology of any kind').rule).toMatchObject({ condition: 'heart disease' });
    expect(read('exclusion', 'Cardiac disorders').rule).toMatchObject({ condition: 'heart disease' });
    expect(read('exclusion', 'Cardiovascular disorder').rule).toMatchObject({ condition: 'heart or blood vessel disease' });
  });
});

describe('causes, notes, transplants, other causes of pain (decision 045)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
  const names = (kind: 'inclusion' | 'exclusion', text: string) =>
    ((read(kind, text).rule as { concepts?: Array<{ name: string }> } | null)?.concepts ?? []).map((concept) => concept.name);

  it('"with exception of" names exceptions, never the rule', () => {
    expect(names('exclusion', 'History of cancer within 3 years, with exception of adequately treated basal cell carcinoma of the skin')).toEqual(['cancer']);
  });

  it('a cause of adverse events, a waiting list and the examples of a risk are not what the person has or takes', () => {
    // A toxicity not yet resolved is graded by the clinician: a site check, never the medicine that caused it (decision 161).
    expect(read('exclusion', 'Unresolved adverse events from previous chemotherapy').rule).toMatchObject({ type: 'site_judgement' });
    expect(read('exclusion', 'Toxicities related to prior radiotherapy that have not resolved').rule).toMatchObject({ type: 'site_judgement' });
    expect(read('exclusion', 'Currently on a waiting list for kidney transplant').rule).toBeNull();
    expect(read('exclusion', 'Patients at increased risk of fracture (e.g., those on chronic corticosteroids) with osteopenia').rule).not.toMatchObject({
      type: 'medication',
    });
  });

  it('the examples of a negated class are negated; other causes are not the condition; "only" is not the whole condition', () => {
    expect(read('inclusion', 'Adults without chronic conditions, including diabetes or asthma').rule).toMatchObject({ type: 'condition', present: false });
    expect(read('exclusion', 'Back pain resulting from causes other than disc herniation').rule).toBeNull();
    expect(read('exclusion', 'Neck pain only, without arm symptoms').rule).toBeNull();
    expect(read('exclusion', 'Only axial back pain').rule).toBeNull();
  });

  it('"morbid" narrows obesity; a note\'s judgement is not the criterion', () => {
    // Since decision 077 the rule holds it: severe obesity, asked as such.
    expect(read('exclusion', 'Morbid obesity')).toMatchObject({ rule: { condition: 'obesity', qualifiers: ['severe'] }, needsReview: false });
    expect(read('exclusion', "Active tuberculosis; Note: patients on isoniazid may enrol at the investigator's discretion").rule).toMatchObject({
      type: 'condition',
      present: false,
    });
  });
});

describe('two thresholds of one measure (decision 045)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('of two thresholds of one measure, the rule keeps the least strict: the other is an alternative', () => {
    expect(read('inclusion', 'BMI ≥ 35 kg/m2, or BMI ≥ 30 kg/m2 with type 2 diabetes')).toMatchObject({
      rule: { type: 'lab', measure: 'BMI', comparator: '>=', value: 30 },
      needsReview: true,
    });
    expect(read('inclusion', 'Body weight of at least 60 kg, or at least 50 kg for women')).toMatchObject({ rule: { measure: 'weight', value: 50 } });
    // An exclusion's thresholds are inverted first: excluded above 40, or above 35 with apnoea, so eligible at most 40.
    expect(read('exclusion', 'BMI > 40 kg/m2, or > 35 kg/m2 with sleep apnea').rule).toMatchObject({ comparator: '<=', value: 40 });
    // A count is no threshold, and another measure's bound is that measure's.
    expect(read('inclusion', 'BMI ≥ 30 kg/m2 and at least 1 comorbidity').rule).toMatchObject({ value: 30 });
    expect(read('inclusion', 'HbA1c ≥ 7.5% and LVEF ≥ 5%').rule).toMatchObject({ measure: 'HbA1c', value: 7.5 });
  });
});
