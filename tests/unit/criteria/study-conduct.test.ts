import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * What the study itself arranges, which its site answers (trials/criteria/study-conduct.ts, decision 224), and the site
 * checks widened by decision 226. Every phrasing here is new wording, not a corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const siteCheck = (reason: string) => ({ rule: { type: 'site_judgement', reason }, needsReview: false });

describe("the study's own schedule", () => {
  it('when the study may start for a person is a site check, counted from an event of their illness', () => {
    for (const text of [
      'Can be randomised within 48 hours of symptom onset',
      'Randomization possible no later than 12 hours after arrival at hospital',
      'Start of study treatment within 14 days of surgery',
      'Patients who can be enrolled within 6 h from the first hospital visit',
    ])
      expect(read('inclusion', text), text).toMatchObject(siteCheck('protocol'));
  });

  it("the person's own past treatment is not the study's schedule", () => {
    // A medicine taken before randomisation is a question for the person (the concept reader's), never a site check.
    expect(read('exclusion', 'Received any vaccine within 14 days prior to randomization').rule).toMatchObject({ type: 'medication' });
    expect(read('inclusion', 'Enrolment possible within six hours after the onset of chest pain').rule).not.toMatchObject({ type: 'site_judgement' });
  });
});

describe('the setting the study recruits from', () => {
  it('the index admission, a registry, a participating centre, an index participant, where the person lives', () => {
    for (const [kind, text] of [
      ['inclusion', 'Admitted through the emergency department'],
      ['exclusion', 'Elective admission'],
      ['exclusion', 'Admission for palliative care'],
      ['inclusion', 'Recorded in the national claims database'],
      ['inclusion', 'Followed at one of the participating centres'],
      ['inclusion', 'Household contact of an index participant'],
      ['inclusion', 'Lives in the same home as an enrolled case'],
      ['inclusion', 'Lives within 30 km of the study site'],
      ['inclusion', 'Resident of the hospital catchment area'],
    ] as const)
      expect(read(kind, text), text).toMatchObject(siteCheck('protocol'));
  });

  it('a past admission, or an admission for a named illness, is for a person to read', () => {
    expect(read('exclusion', 'Hospital admission in the past 3 months').rule).toBeNull();
    expect(read('exclusion', 'Admission for acute heart failure').rule).toMatchObject({ type: 'condition' });
  });

  it("the study's own product, which the site knows by name", () => {
    expect(read('inclusion', 'Patients prescribed this drug in routine care')).toMatchObject(siteCheck('protocol'));
    expect(read('exclusion', 'Treated with the study drug in a previous trial')).toMatchObject(siteCheck('protocol'));
    // An allergy to it is read by the allergy readers, as before.
    expect(read('exclusion', 'Known hypersensitivity to the study drug').rule).not.toMatchObject({ type: 'site_judgement' });
  });

  it('what the study needs of a person: a phone or the internet, accepting randomisation', () => {
    for (const text of [
      'Access to a telephone',
      'Owns a smartphone with internet access',
      'Has access to a mobile phone and email',
      'Willing to be randomised',
    ])
      expect(read('inclusion', text), text).toMatchObject(siteCheck('protocol_compliance'));
    // A phone beside something else is not the whole criterion.
    expect(read('inclusion', 'Access to a telephone and a carer at home').rule).toBeNull();
  });
});

describe('the standing the law and the study ask of a participant', () => {
  it('enrolled before in this study, social insurance, where the study sees the person, its own timetable', () => {
    for (const [kind, text] of [
      ['exclusion', 'Already randomised in the present trial'],
      ['exclusion', 'Not affiliated to a national health insurance scheme'],
      ['inclusion', 'Beneficiary of a social security system'],
      ['inclusion', 'Outpatients'],
      ['exclusion', 'Treated in the intensive care unit'],
      ['inclusion', 'Anticipated length of stay of at least 2 nights'],
      ['inclusion', 'Able to begin the allocated therapy within 5 days after randomisation'],
      ['exclusion', 'Urgent operations'],
      ['inclusion', 'Estimated duration of anaesthesia longer than 90 minutes'],
      ['exclusion', 'Planned postoperative admission to intensive care'],
      ['inclusion', 'Registered with a family doctor'],
    ] as const)
      expect(read(kind, text), text).toMatchObject(siteCheck('protocol'));
  });

  it('a legal protection measure and reading are checks of who may consent', () => {
    for (const text of ['Adults under tutorship or trusteeship', 'Vulnerable populations', 'Cannot read nor write'])
      expect(read('exclusion', text), text).toMatchObject(siteCheck('consent_capacity'));
  });

  it("what the study's procedures need: a partner, being there, a phone that takes messages", () => {
    for (const [kind, text] of [
      ['inclusion', 'Must have a reliable study partner'],
      ['exclusion', 'Intends to spend more than a month abroad on holiday during the follow-up'],
      ['inclusion', 'Has a cell phone able to receive SMS'],
    ] as const)
      expect(read(kind, text), text).toMatchObject(siteCheck('protocol_compliance'));
  });

  it("the investigator's estimate: survival, and what no one named that would stop the study", () => {
    for (const text of ['Anticipated survival of 6 months or more', 'Other reasons which would hinder completing the study visits'])
      expect(read(text.startsWith('Other') ? 'exclusion' : 'inclusion', text), text).toMatchObject(siteCheck('investigator_judgement'));
  });

  it('an earlier treatment, or an operation for a named condition, is still a question for a person', () => {
    expect(read('exclusion', 'Patients previously treated for asthma').rule).toMatchObject({ type: 'condition' });
    expect(read('exclusion', 'Emergency surgery for bowel obstruction').rule).toMatchObject({ type: 'condition' });
  });
});

describe('an inclusion that only permits', () => {
  it('permits without refusing: a site check of the conditions it sets', () => {
    for (const text of [
      'Stable concomitant analgesics may be continued',
      'Patients with treated epilepsy are eligible provided they meet the following: | - seizure-free on medication',
    ])
      expect(read('inclusion', text), text).toMatchObject(siteCheck('protocol'));
    // Nothing set: it refuses no one (decision 333).
    expect(read('inclusion', 'Participants on hormone replacement are also eligible')).toMatchObject(siteCheck('permission'));
  });

  it('"eligible for", "must", "only" and "not" are requirements, not permissions', () => {
    expect(read('inclusion', 'Patients must be eligible for chemotherapy').rule).toBeNull();
    // A condition "eligible" with no proviso may be whom the trial takes: a person reads it; "also" permits it.
    expect(read('inclusion', 'Participants with confirmed rheumatoid arthritis are eligible').rule).toBeNull();
    expect(read('inclusion', 'Participants with mild psoriasis are also eligible')).toMatchObject(siteCheck('permission'));
    expect(read('inclusion', 'Inhaled steroids may be continued only at a stable dose').rule).not.toMatchObject({ type: 'site_judgement' });
    expect(read('inclusion', 'Oral anticoagulants are not allowed').rule).not.toMatchObject({ type: 'site_judgement' });
  });
});

describe("what the study's operation will need", () => {
  it('in an exclusion, the surgical plan is the surgeon’s', () => {
    for (const text of [
      'Requires an additional discectomy at an adjacent level',
      'Need for a laminectomy to decompress the canal',
      'Posterior fixation needed at the treated segment',
    ])
      expect(read('exclusion', text), text).toMatchObject(siteCheck('investigator_judgement'));
  });

  it('an operation the person had, or one for a named condition, is not the plan', () => {
    expect(read('exclusion', 'Previous fusion required at the same level').rule).toBeNull();
    expect(read('exclusion', 'Need for surgery to treat a herniated disc').rule).not.toMatchObject({ type: 'site_judgement' });
  });
});

describe('site checks widened (decision 226)', () => {
  it("a finding at the place the study will treat is a finding, not the person's past treatment", () => {
    expect(read('exclusion', 'Disc height under 4 mm on MRI at the segment to be operated on')).toMatchObject(siteCheck('investigator_judgement'));
    expect(read('exclusion', 'Low echogenicity of the tendon to be injected')).toMatchObject(siteCheck('investigator_judgement'));
    // A place treated before is the person's history: a person reads it.
    expect(read('exclusion', 'Modic changes at a level previously treated with fusion').rule).toBeNull();
  });

  it('a diagnosis made on the scan, a change of treatment that may affect the study, a long list of planned procedures', () => {
    expect(read('inclusion', 'Confirmed as a result of a cervical MRI scan')).toMatchObject(siteCheck('investigator_judgement'));
    expect(
      read('exclusion', 'Any procedure (for example an operation) or change in medication (for example new insulin) that could alter the study assessments'),
    ).toMatchObject(siteCheck('investigator_judgement'));
    expect(
      read(
        'exclusion',
        'Scheduled procedures, for instance ablation, valve repair, defibrillator placement or a cataract operation, during the follow-up period',
      ),
    ).toMatchObject(siteCheck('protocol'));
  });
});

describe('who may take part (decision 225)', () => {
  it('a bracket that says how sex is counted names no other requirement', () => {
    expect(read('inclusion', 'Participants may be male or female (self-identified)')).toMatchObject({ rule: { type: 'sex', sex: 'all' }, needsReview: false });
    expect(read('inclusion', 'Men or women (women only if postmenopausal)').rule).toBeNull();
    // One sex with a bracket says more than the sex: a person reads it.
    expect(read('inclusion', 'Men (whose partners could become mothers)').rule).toBeNull();
  });

  it('"adults" with no age written is the age of majority, at least 18 (decision 300); never an exclusion of adults', () => {
    for (const text of ['All adult patients', 'Adults', 'Adult volunteers'])
      expect(read('inclusion', text), text).toMatchObject({ rule: { type: 'age', minYears: 18, maxYears: null }, needsReview: false });
    expect(read('inclusion', 'Adult women').rule).toBeNull();
    expect(read('exclusion', 'Adults').rule).toBeNull();
  });
});

describe('a permission said as what a person may have had (decision 246)', () => {
  it('refuses no one, among inclusions or exclusions', () => {
    for (const kind of ['inclusion', 'exclusion'] as const)
      for (const text of [
        'Participants may have had any number of earlier treatment regimens',
        'No limit on the number of previous systemic therapies',
        'May receive blood transfusions during screening',
      ])
        expect(read(kind, text), `${kind}: ${text}`).toMatchObject(siteCheck('permission'));
    // A count is a check staff make (decision 333).
    for (const kind of ['inclusion', 'exclusion'] as const)
      expect(read(kind, 'Two prior lines of immunotherapy are permissible'), kind).toMatchObject(siteCheck('protocol'));
  });

  it('a condition it allows among exclusions is never refused', () => {
    expect(read('exclusion', 'Patients with mild psoriasis are allowed to enter the trial').rule).toBeNull();
  });
});
