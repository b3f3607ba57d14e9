import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** What staff judge or check, never asked of the patient (trials/criteria/judgement.ts). Every phrasing here is new wording, not a corpus record's. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

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

describe("what staff read off the study's scans, examination and records (decision 161)", () => {
  const siteCheck = (kind: 'inclusion' | 'exclusion', text: string, reason: string) =>
    expect(read(kind, text), text).toMatchObject({ rule: { type: 'site_judgement', reason }, needsReview: false });

  it('a finding on imaging or a measure only imaging gives is a site check', () => {
    siteCheck('inclusion', 'Foraminal narrowing demonstrated on CT of the neck', 'investigator_judgement');
    siteCheck('inclusion', 'Disc height of at least 4 mm at the operated level and the index level', 'investigator_judgement');
    siteCheck('exclusion', 'Modic type 3 changes at any level', 'investigator_judgement');
    siteCheck('exclusion', 'Hip T-score under -3.0 on DXA', 'investigator_judgement');
    siteCheck('exclusion', 'A calcified fragment behind the vertebral body', 'investigator_judgement');
    siteCheck('exclusion', 'Imaging exclusion criteria: a pars defect at any lumbar level', 'investigator_judgement');
    // A section's lead-in names no finding.
    expect(read('inclusion', 'Imaging inclusion criteria: subjects must meet all of the following').rule).toBeNull();
  });

  it('a sign of the screening examination, a graded toxicity and a tumour measure are site checks', () => {
    siteCheck('inclusion', "Positive Spurling's test on the affected side", 'investigator_judgement');
    siteCheck('exclusion', 'Hoffmann sign on examination', 'investigator_judgement');
    siteCheck('exclusion', 'Toxicities of earlier chemotherapy that have not recovered to grade 1 or baseline', 'investigator_judgement');
    siteCheck('inclusion', 'Measurable disease according to RECIST v1.1', 'investigator_judgement');
    siteCheck('inclusion', 'Archival tumour tissue block available for central testing', 'investigator_judgement');
  });

  it("in an inclusion, the study's own operation is checked against the protocol", () => {
    siteCheck('inclusion', 'Scheduled for elective single-level lumbar laminectomy', 'protocol');
    siteCheck('inclusion', 'Participants who are candidates for a total knee arthroplasty', 'protocol');
  });

  it('in an exclusion, a procedure planned inside the study period is checked against the schedule', () => {
    siteCheck('exclusion', 'Elective surgery of any kind scheduled during the trial period', 'protocol');
    siteCheck('exclusion', 'Planned hospital admission for any procedure during the follow-up phase', 'protocol');
  });

  it('a scan to undergo, a past operation or a preference is not a finding', () => {
    // Undergoing the scan is the study's procedure, not a finding on it; what is preferred is not required.
    expect(read('inclusion', 'Willing to undergo MRI of the knee')).toMatchObject({ rule: { reason: 'protocol_compliance' } });
    expect(read('inclusion', 'CT-confirmed stenosis preferred').rule).toBeNull();
    // An operation already had is the person's history, which the concept reader or a person reads, never a site check.
    expect(read('exclusion', 'Previous surgery at the index level').rule?.type).not.toBe('site_judgement');
    expect(read('inclusion', 'Patients who underwent a laminectomy').rule?.type).not.toBe('site_judgement');
  });

  it('consent beside staying in the study for its whole length holds one of two checks: a person reads it', () => {
    expect(read('inclusion', 'Signs the consent form and is able to complete all visits of the study')).toMatchObject({
      rule: { type: 'site_judgement', reason: 'consent_capacity' },
      needsReview: true,
    });
    expect(read('inclusion', 'Able to give written informed consent')).toMatchObject({ rule: { reason: 'consent_capacity' }, needsReview: false });
  });
});

describe('how a condition was found, in an exclusion (decision 161)', () => {
  it('says no more than having it; in an inclusion the test is a requirement a person reads', () => {
    expect(read('exclusion', 'Anaemia evident on blood testing')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    expect(read('inclusion', 'Anaemia found in the screening laboratory tests').needsReview).toBe(true);
  });
});

describe('findings and judgements the concept words only touch (decision 180)', () => {
  const siteCheck = (kind: 'inclusion' | 'exclusion', text: string, reason = 'investigator_judgement') =>
    expect(read(kind, text), text).toMatchObject({ rule: { type: 'site_judgement', reason }, needsReview: false });

  it('conditions nobody named, kept out when they may affect what the study measures, are the investigator’s call, examples and all', () => {
    siteCheck('exclusion', 'Other systemic illnesses (for example asthma or lupus) which could influence the results of the trial');
    siteCheck('exclusion', 'Any concomitant disorder that might confound the assessment of knee function, including gout or psoriasis');
    siteCheck('exclusion', 'Coexisting pathologies which may alter tendon healing');
    // The named conditions are not excluded on their own: the rule names none of them.
    expect(JSON.stringify(read('exclusion', 'Other chronic conditions (e.g. heart failure) that may affect the outcome').rule)).not.toContain('heart');
  });

  it('a condition named before them still stands on its own, and a cause is not a judgement', () => {
    expect(read('exclusion', 'Heart failure or other conditions that could affect walking tests').rule?.type).toBe('condition');
    expect(read('exclusion', 'Joint diseases that may cause knee pain (e.g. gout)').rule?.type).not.toBe('site_judgement');
    // A second sentence is another requirement, which a person reads.
    expect(read('exclusion', 'Other illnesses that may affect the results. Asthma is allowed.').rule?.type).not.toBe('site_judgement');
  });

  it('a neurological sign is what the examination finds, unless the criterion names more', () => {
    siteCheck('exclusion', 'Rapidly progressive motor deficit');
    siteCheck('exclusion', 'Severe sensory loss or muscle atrophy in the lower limbs');
    siteCheck('inclusion', 'Objective neurological signs');
    // A condition beside the sign keeps its own reading.
    expect(read('exclusion', 'Multiple sclerosis with motor weakness').rule?.type).not.toBe('site_judgement');
  });

  it('an allergy to what the study device is made of is checked by staff, an allergen the person can name is not', () => {
    siteCheck('exclusion', 'Known hypersensitivity to the implant materials');
    siteCheck('exclusion', 'History of allergy to any component of the investigational device');
    expect(read('exclusion', 'Allergy to nickel or cobalt').rule?.type).not.toBe('site_judgement');
    expect(read('exclusion', 'Hypersensitivity to the study drug or its excipients').rule).toMatchObject({ type: 'condition', present: false });
  });

  it('not being able to swallow is the same check as being able to', () => {
    siteCheck('exclusion', 'Inability to swallow film-coated tablets', 'protocol_compliance');
    siteCheck('inclusion', 'Able to swallow a capsule whole', 'protocol_compliance');
  });
});

describe('how a condition was seen on imaging, in an exclusion (decision 184)', () => {
  it('says no more than having it, as a blood test does', () => {
    for (const text of [
      'Vertebral fracture visible on plain X-ray',
      'Spondylolisthesis confirmed by CT scan',
      'Radiographic evidence of osteoporosis',
      'Imaging exclusion criteria: ankylosing spondylitis',
      'Radiological confirmation of a spinal tumour',
    ])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
  });

  it('the place of the scan, a grade or a measure on it, and an inclusion stay for a person', () => {
    // "Lumbar" names where the scan looked, which the condition does not say: read alone it would refuse neck herniations too.
    expect(read('exclusion', 'Disc herniation on a lumbar MRI').needsReview).toBe(true);
    expect(read('exclusion', 'Spondylolisthesis of grade 2 or more on X-ray').needsReview).toBe(true);
    expect(read('exclusion', 'Brain metastases seen on MRI').needsReview).toBe(true);
    expect(read('inclusion', 'Disc herniation confirmed on MRI').needsReview).toBe(true);
  });

  it('laboratory evidence of an infection is the infection; a nucleic acid found is hepatitis C now, not HIV or hepatitis B', () => {
    expect(read('exclusion', 'Laboratory evidence of hepatitis B infection')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    expect(read('exclusion', 'HCV RNA detectable at screening')).toMatchObject({ rule: { condition: 'hepatitis C', present: false }, needsReview: false });
    // Treated HIV and hepatitis B keep an undetectable load: a detectable one is narrower than having the infection.
    expect(read('exclusion', 'Detectable HIV viral load').needsReview).toBe(true);
    expect(read('exclusion', 'Hepatitis B DNA positive').needsReview).toBe(true);
    // The antibody is hepatitis C ever had (decision 376); the RNA that narrows it to a cured one is a person's to read.
    expect(read('exclusion', 'Hepatitis C antibody positive with undetectable RNA')).toMatchObject({
      rule: { condition: 'hepatitis C', history: true },
      needsReview: true,
    });
  });
});

describe('treatments that may affect the study, the age of majority, any age (decision 215)', () => {
  it("an unnamed treatment that may affect what the study measures is the investigator's call", () => {
    for (const text of [
      'Any medicine that might affect the trial outcomes',
      'Planned therapy which could interfere with the study assessments',
      'Subjects receiving drugs (for example sleeping pills) that could influence the primary endpoint',
    ])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'site_judgement', reason: 'investigator_judgement' }, needsReview: false });
  });

  it("a named treatment, or one that affects something other than the study, is not the investigator's call alone", () => {
    expect(read('exclusion', 'Drugs that may affect calcium metabolism').rule?.type).not.toBe('site_judgement');
    expect(read('exclusion', 'Heparin or other medicines that could affect the results').needsReview).toBe(true);
  });

  it("the age of majority is at least 18 (decision 300), checked by a person where the country sets it; an age group named beside it is a person's to read", () => {
    expect(read('inclusion', 'Adult of legal age')).toMatchObject({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(read('inclusion', 'Has reached the age of majority in their country')).toMatchObject({ rule: { type: 'age', minYears: 18 }, needsReview: true });
    expect(read('inclusion', 'Of legal age, with type 2 diabetes').needsReview).toBe(true);
  });

  it('"any age" bounds nobody, unless an age group is named beside it or it is an exclusion', () => {
    for (const text of ['Volunteers of all ages', 'Children or adults of any age', 'No age limit'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'age', minYears: null, maxYears: null }, needsReview: false });
    expect(read('inclusion', 'Adolescents of any age').rule?.type).not.toBe('age');
    expect(read('inclusion', 'Seniors of any age').rule).not.toMatchObject({ minYears: null, maxYears: null, type: 'age' });
    expect(read('exclusion', 'Infants of any age').rule).toBeNull();
  });
});

describe('site checks of what staff hold (decision 246)', () => {
  const site = (reason: string) => ({ rule: { type: 'site_judgement', reason }, needsReview: false });

  it("recovery from a past treatment's harms is graded by the clinician", () => {
    for (const text of [
      'Has not yet recovered from the side effects of earlier radiotherapy',
      'Resolution of all acute toxicities of previous anticancer treatment to grade 1 or less',
      'Recovered from complications of recent surgery',
    ])
      for (const kind of ['inclusion', 'exclusion'] as const) expect(read(kind, text), text).toMatchObject(site('investigator_judgement'));
  });

  it('the study language named first is a consent check', () => {
    for (const text of ['Spanish speakers', 'Native French speaker', 'Predominantly Mandarin', 'First language is not English'])
      expect(read('inclusion', text), text).toMatchObject(site('consent_capacity'));
    // A language disorder is a condition, never the study's language.
    expect(read('exclusion', 'Primary language impairment').rule?.type).not.toBe('site_judgement');
  });

  it('giving samples and keeping to restrictions are compliance', () => {
    for (const text of [
      'Willing to provide blood samples at every study visit',
      'Agrees to undergo a research bone marrow biopsy',
      'Able to abstain from caffeine for 12 hours before each visit',
      'Willing to forgo contact lens wear during the study',
    ])
      expect(read('inclusion', text), text).toMatchObject(site('protocol_compliance'));
  });

  it("the study's planned treatment in an inclusion is the site's, unless it is the person's past", () => {
    for (const text of ['Scheduled for adjuvant radiotherapy', 'Patients referred for definitive chemoradiotherapy', 'Candidates for a kidney biopsy'])
      expect(read('inclusion', text), text).toMatchObject(site('protocol'));
    expect(read('inclusion', 'Patients who had a previous kidney biopsy').rule?.type).not.toBe('site_judgement');
  });

  it("a donor's match, a scan's safety and the protocol's medicine list are staff's", () => {
    expect(read('inclusion', 'A 10/10 HLA-matched unrelated donor identified')).toMatchObject(site('protocol'));
    expect(read('exclusion', 'Taking any medicine on the protocol list of prohibited medications')).toMatchObject(site('protocol'));
    expect(read('exclusion', 'Drugs that interact with the study medicine')).toMatchObject(site('protocol'));
    expect(read('inclusion', 'Must be MRI-compatible')).toMatchObject(site('investigator_judgement'));
    expect(read('exclusion', 'Counter-indication to PET imaging')).toMatchObject(site('investigator_judgement'));
  });

  it("what a clinician decides about the person is the investigator's call, once no condition was read", () => {
    for (const text of [
      'Unfit for the procedure as assessed by the study physician',
      'Eligible for ablation per treating physician assessment',
      'Cleared for anaesthesia: medical clearance from the primary care doctor',
      'Estimated survival of less than 6 months',
    ])
      expect(read('exclusion', text), text).toMatchObject(site('investigator_judgement'));
    // A condition named beside it is still the condition, which a person reads.
    expect(read('exclusion', 'Asthma as determined by the treating physician').rule).toMatchObject({ type: 'condition' });
  });

  it("a kind of condition that stands in the way of the study itself is the investigator's call", () => {
    for (const text of [
      'Hearing problems that would prevent completing the study questionnaires by phone',
      'Skin, scalp or nail wounds that might interfere with the study device',
      'Serious psychiatric illness impacting study participation',
      'Medicines that may interfere with the breath testing',
    ])
      expect(read('exclusion', text), text).toMatchObject(site('investigator_judgement'));
    // What it affects is not the study's: a kind a person reads, not the investigator's call.
    expect(read('exclusion', 'Joint problems that may affect walking').rule?.type).not.toBe('site_judgement');
  });

  it("samples the site holds and medicines the protocol lists by how they are cleared are staff's", () => {
    expect(read('inclusion', 'Bone marrow aspirate samples available for central review')).toMatchObject(site('investigator_judgement'));
    expect(read('exclusion', 'Drugs mainly metabolised by CYP2D6 with a narrow therapeutic range')).toMatchObject(site('protocol'));
  });

  it('signing a release, a legal representative and being available for the follow-up are consent and compliance', () => {
    expect(read('inclusion', 'Must sign an authorization form for sharing registry data')).toMatchObject(site('consent_capacity'));
    expect(read('inclusion', "The participant's legal representative agrees to the randomisation")).toMatchObject(site('consent_capacity'));
    expect(read('inclusion', 'Available for a minimum of 12 months after the operation')).toMatchObject(site('protocol_compliance'));
  });
});
