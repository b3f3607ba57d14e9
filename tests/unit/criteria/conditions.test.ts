import { describe, expect, it } from 'vitest';
import { parseCriteria, readTextRule } from '../../../src/server/features/trials/criteria';

/** Conditions a criterion names, read whole or left to a person (trials/criteria/concepts.ts, conditions.ts). Every phrasing here is new wording, not a corpus record's. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const conditionOf = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule?.type === 'condition' ? rule.condition : null;
};

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

  it('a positive test of an infection is the infection; an antibody alone is the infection ever had (decision 376)', () => {
    for (const text of ['Known HIV seropositivity', 'Positive HIV test result', 'Positive hepatitis B surface antigen at screening'])
      expect(read('exclusion', text), text).toMatchObject({ rule: { type: 'condition', present: false }, needsReview: false });
    expect(read('exclusion', 'Hepatitis C antibody positive')).toMatchObject({ rule: { present: false, history: true }, needsReview: false });
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

describe('a tumour, cancerous or not', () => {
  const readAny = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('reads a tumour named in a list of conditions as a tumour', () => {
    const rule = readAny('exclusion', 'History of stroke, epilepsy or tumours');
    expect(rule.rule).toMatchObject({ type: 'condition', present: false });
    expect(rule.rule?.type === 'condition' && rule.rule.concepts?.map((concept) => concept.id)).toContain('cohortly:tumor');
  });

  it('is no tumour the person has in a sample, a marker, a molecule, a treatment or a criteria name', () => {
    for (const text of [
      'Archival tumour tissue available for testing',
      'Tumor-related pain requiring opioids',
      'Elevated tumour markers at screening',
      'Prior tumor necrosis factor inhibitor therapy',
      'Received anti-tumor treatment within 4 weeks',
      'Measurable disease per Response Evaluation Criteria in Solid Tumors',
    ]) {
      expect(JSON.stringify(readAny('exclusion', text).rule ?? {}), text).not.toContain('cohortly:tumor');
    }
  });

  it('reads a tumour beside a place of the spine as the spine’s, with its part (decision 193)', () => {
    // Read as any infection or any tumour, it excluded more than the words; now both are the spine's, the part held.
    const rule = readAny('exclusion', 'Infection or tumor of the cervical spine');
    expect(rule.rule).toMatchObject({ condition: 'a spine infection (such as discitis) or a tumor of the spine', qualifiers: ['cervical'] });
    expect(rule.needsReview).toBe(false);
    // A tumour whose place is not the spine is still any tumour's place: in review.
    expect(readAny('exclusion', 'Infection or tumor of the shoulder').needsReview).toBe(true);
  });

  it('reads a solid or spreading tumour as cancer', () => {
    const rule = readAny('exclusion', 'Metastatic tumour');
    expect(rule.rule).toMatchObject({ type: 'condition', condition: 'cancer', present: false });
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
    // The past operation is read (decision 140), never the infection it was for; given a purpose, a person reads it.
    const prior = read('exclusion', 'Prior surgery for a spinal infection');
    expect(JSON.stringify(prior.rule)).not.toContain('infection');
    expect(prior.needsReview).toBe(true);
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
      rule: { condition: 'HIV, acquired immunodeficiency syndrome or hepatitis B', present: false },
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

describe('a window in a lead-in, a plan named twice, "active or prior", several investigators judging', () => {
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

describe('"the 2 prior weeks", "previous, or current", the trial\'s patients described, what a condition causes', () => {
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

describe('a parenthesis that describes the concept before it', () => {
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

describe('the examples of a risk, a medicine with its examples, the current episode', () => {
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

describe('two parts of the spine joined as alternatives', () => {
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

describe('pain where it is, and a list of places sharing "pain"', () => {
  it('leg and arm pain are symptoms of their own; "X and/or Y pain" is X pain or Y pain, a two-word place read whole', () => {
    expect(read('inclusion', 'Low back and/or leg pain lasting at least 12 weeks')).toMatchObject({
      rule: { type: 'condition', condition: 'back pain or leg pain', present: true, duration: { minDays: 84 } },
      needsReview: false,
    });
    expect(conditionOf('inclusion', 'Pain in the legs for at least 6 weeks')).toBe('leg pain');
    expect(conditionOf('exclusion', 'Chest or abdominal pain of unknown cause')).toBe('chest pain or abdominal pain');
    // What the words around it say (a cause) keeps it for a person.
    expect(read('exclusion', 'Chest or abdominal pain of unknown cause').needsReview).toBe(true);
  });
});

describe('one member of a class a hand entry names (decision 151)', () => {
  it('a narrower MeSH heading is read as itself; one route of a class named by several is narrower than the rule', () => {
    // "Duodenal ulcer" sits under the peptic ulcers in MeSH: the rule names it alone (decision 346), so a person with only
    // a stomach ulcer is not excluded by it.
    expect(read('exclusion', 'Duodenal ulcer in the past year')).toMatchObject({
      rule: { type: 'condition', condition: 'duodenal ulcer', present: false },
      needsReview: false,
    });
    expect(read('exclusion', 'Peptic ulcer in the past year').needsReview).toBe(false);
    // "Oral steroids" is one route of "steroid pills or injections".
    expect(read('exclusion', 'Use of oral steroids in the last 2 weeks')).toMatchObject({ rule: { type: 'medication', taking: false }, needsReview: true });
    expect(read('exclusion', 'Systemic steroids in the last 2 weeks').needsReview).toBe(false);
    // A course or severity is a qualifier the reader holds, not a member.
    expect(read('exclusion', 'Morbid obesity')).toMatchObject({ rule: { condition: 'obesity', qualifiers: ['severe'] }, needsReview: false });
  });
});

describe('before the study’s operation is now (decision 180)', () => {
  it('a condition "pre-operative" is the condition at screening, with its history when the criterion says one', () => {
    expect(readTextRule('exclusion', 'Preoperative urinary incontinence')).toMatchObject({
      rule: { type: 'condition', present: false },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'A history of pre-op deep vein thrombosis')).toMatchObject({
      rule: { type: 'condition', present: false, history: true },
      needsReview: false,
    });
  });

  it('a treatment given before another operation is one kind of it: a person reads it', () => {
    expect(readTextRule('exclusion', 'Received pre-operative chemotherapy for breast cancer').needsReview).toBe(true);
  });
});

describe('treatment without surgery that did not help, said as its missing benefit (decision 184)', () => {
  it('reads the trial idiom after "no benefit from", "unresponsive to", "despite"', () => {
    for (const text of [
      'Did not benefit from conservative management',
      'Symptoms unresponsive to non-operative treatment',
      'Persisting despite conservative care',
    ])
      expect(read('inclusion', text).rule, text).toMatchObject({ type: 'condition', concepts: [{ id: 'cohortly:conservative-treatment-failed' }] });
  });
});
