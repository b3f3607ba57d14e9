import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandidateFactInputSchema, type CandidateFactInput, type FactKind } from '../../src/contract/matching';
import { isA, meshIdByName } from '../../src/server/features/trials/vocabulary';
import { extractNoteFacts, splitSentences } from '../../src/server/features/matching/note-extractor';

const facts = (text: string) => extractNoteFacts(text);
const one = (text: string, kind: FactKind, name?: string) =>
  facts(text).find((fact) => fact.kind === kind && (name === undefined || fact.name === name || fact.conceptId === name));
/** A fact's status by the words of its mention ("chest pain"), or undefined when there is no such fact. */
const statusOf = (text: string, mention: string) => {
  const found = facts(text).find((fact) => fact.span && text.slice(fact.span.start, fact.span.end).toLowerCase() === mention.toLowerCase());
  return found ? found.status : undefined;
};

describe('age and sex', () => {
  it.each([
    ['A 58-year-old woman presents with chest pain.', 58, 'female', '58-year-old'],
    ['45 yo M with HTN and DM2.', 45, 'male', '45'],
    ['Patient is a 45-year-old man with diabetes.', 45, 'male', '45-year-old'],
    ['An 8-year-old male presents with fever.', 8, 'male', '8-year-old'],
    ['Seen today: a 2-month-old girl with cough.', 0.167, 'female', '2-month-old'],
    ['72 year old female with COPD.', 72, 'female', '72 year old'],
    ['74M hx of CAD.', 74, 'male', '74'],
    ['Pt is a 22yo F otherwise healthy.', 22, 'female', '22'],
    ['A 57-year old farmer was seen. He reports tremor.', 57, 'male', '57-year old'],
    ['The patient is a 41 year man with epilepsy.', 41, 'male', '41 year'],
    ['A 3-week-old infant with jaundice. She is feeding well.', 0.057, 'female', '3-week-old'],
    ['A 3-day-old female infant with jaundice.', 0.008, 'female', '3-day-old'],
    ['Patient is 67 years of age. He denies pain.', 67, 'male', '67 years of age'],
  ])('%s', (text, years, sex, ageWords) => {
    const age = one(text, 'age')!;
    expect(age.value).toBeCloseTo(years, 3);
    expect(age.unit).toBe('years');
    expect(text.slice(age.span!.start, age.span!.end)).toBe(ageWords);
    expect(one(text, 'sex')?.valueText).toBe(sex);
  });

  it('takes sex from a title, and from pronouns only when they clearly agree', () => {
    const title = 'Mrs. Lee was seen today for asthma.';
    const sex = one(title, 'sex')!;
    expect(sex.valueText).toBe('female');
    expect(title.slice(sex.span!.start, sex.span!.end)).toBe('Mrs.');
    expect(one('Mr. Lee was seen today for asthma.', 'sex')?.valueText).toBe('male');
    expect(one('Seen for cough. She denies fever. Her cough is dry.', 'sex')?.valueText).toBe('female');
    expect(one('Seen for cough. She says he was with her.', 'sex')).toBeUndefined();
  });

  it("does not read a relative's age or an event's age as the patient's", () => {
    expect(one('Seizures began at age 13. The patient is a 41 year old man.', 'age')?.value).toBe(41);
    expect(one('Her 70-year-old father has hypertension. She is 35 years old.', 'age')?.value).toBe(35);
    expect(one('A 5 yr history of asthma.', 'age')).toBeUndefined();
  });

  it('computes an age from a written date of birth on the given day', () => {
    expect(extractNoteFacts('DOB: 1980-05-20. Female.', { today: new Date('2026-05-19T12:00:00Z') }).find((fact) => fact.kind === 'age')?.value).toBe(45);
    expect(extractNoteFacts('DOB: 05/20/1980.', { today: new Date('2026-05-20T12:00:00Z') }).find((fact) => fact.kind === 'age')?.value).toBe(46);
  });
});

describe('conditions and negation', () => {
  it.each<[string, string, CandidateFactInput['status'] | undefined]>([
    // pre-negation
    ['She denies chest pain.', 'chest pain', 'absent'],
    ['No history of diabetes.', 'diabetes', 'absent'],
    ['Without evidence of heart failure.', 'heart failure', 'absent'],
    ['Negative for COPD; has hypertension.', 'COPD', 'absent'],
    ['Free of cancer since surgery.', 'cancer', 'absent'],
    ['Absence of atrial fibrillation on monitoring.', 'atrial fibrillation', 'absent'],
    ['He does not have asthma.', 'asthma', 'absent'],
    ["He is alert and doesn't have any signs of dementia.", 'dementia', 'absent'],
    ['She has no prior stroke.', 'stroke', 'absent'],
    // post-negation
    ['Pulmonary embolism was ruled out.', 'pulmonary embolism', 'absent'],
    ['Pneumonia is unlikely.', 'pneumonia', 'absent'],
    ['HIV negative.', 'HIV', 'absent'],
    // the scope ends at a conjunction or a new clause
    ['No fever, but she has asthma.', 'asthma', 'present'],
    ['Negative for COPD; has hypertension.', 'hypertension', 'present'],
    ['No cough and she presents with pneumonia.', 'pneumonia', 'present'],
    ['Denies fever, however reports chest pain.', 'chest pain', 'present'],
    // denying a disease's kind leaves the disease unsaid (decision 088): no fact, not an absent one
    ['Imaging was negative for obstructive pancreatitis.', 'pancreatitis', undefined],
    // pseudo-negation: not a negation of what follows
    ['She is not compliant with her diabetes medication.', 'diabetes', 'present'],
    // history cues
    ['History of myocardial infarction.', 'myocardial infarction', 'history'],
    ['h/o DVT on warfarin.', 'DVT', 'history'],
    ['Status post stroke with no deficits.', 'stroke', 'history'],
    ['Prior stroke in 2015.', 'stroke', 'history'],
    ['Remote pneumonia as a child.', 'pneumonia', 'history'],
    ['Breast cancer in remission.', 'breast cancer', 'history'],
    ['Pneumonia, now resolved.', 'pneumonia', 'history'],
    ['He had a myocardial infarction 2 years ago.', 'myocardial infarction', 'history'],
    // A lifelong diagnosis in a "history of" is still had (decision 164); one that often resolves stays history.
    ['His past medical history is notable for psoriasis.', 'psoriasis', 'present'],
    ['Her past medical history is notable for asthma.', 'asthma', 'history'],
    ['Known case of COPD since 2 years ago.', 'COPD', 'present'],
    ['Prior to the onset of fever he was well.', 'fever', undefined],
    // present
    ['She is known to have hypertension and obesity.', 'obesity', 'present'],
    ['58-year-old woman with asthma.', 'asthma', 'present'],
  ])('%s -> %s %s', (text, mention, status) => {
    expect(statusOf(text, mention)).toBe(status);
  });

  it('carries a negation over a list, and leaves out a family history inside it', () => {
    const text = 'She denies smoking, diabetes, hypercholesterolemia, or a family history of heart disease.';
    expect(statusOf(text, 'diabetes')).toBe('absent');
    expect(statusOf(text, 'hypercholesterolemia')).toBe('absent');
    expect(statusOf(text, 'smoking')).toBe('absent');
    expect(statusOf(text, 'heart disease')).toBeUndefined();
    expect(facts(text).filter((fact) => fact.kind === 'condition')).toHaveLength(2);
  });

  it.each([
    'Family history of breast cancer.',
    'Her mother had a stroke.',
    'Father with type 2 diabetes.',
    'Asthma in his brother.',
    'His family history is positive for hypertension.',
    'Both siblings are currently well without any findings of cancer.',
    'Her husband was recently diagnosed with colon cancer and he is starting his chemotherapy.',
  ])("someone else's: %s", (text) => {
    expect(facts(text).filter((fact) => fact.kind === 'condition' || fact.kind === 'medication')).toEqual([]);
  });

  it.each([
    'Rule out pneumonia.',
    'r/o MI.',
    'Concern for sepsis.',
    'Possible asthma.',
    'Suspected pulmonary embolism.',
    'Chest x-ray: ? pneumonia.',
    'Hypothyroidism?',
    'The differential diagnosis includes lymphoma vs leukemia.',
    'At risk for osteoporosis.',
    'He might have had a stroke years ago.',
    'She is considering gastric bypass.',
    'Plan: chemotherapy to start next week.',
  ])('not asserted: %s', (text) => {
    expect(facts(text).filter((fact) => fact.kind === 'condition' || fact.kind === 'medication')).toEqual([]);
  });

  it('keeps the patient fact when the same sentence also has a family one', () => {
    const text = 'Father with type 2 diabetes; patient has asthma.';
    expect(statusOf(text, 'asthma')).toBe('present');
    expect(statusOf(text, 'type 2 diabetes')).toBeUndefined();
  });

  it('names conditions and medications by their vocabulary concept', () => {
    const fact = one('She has COPD.', 'condition')!;
    expect(fact.conceptId).toBe('cohortly:copd');
    expect(fact.name).toBe('COPD (chronic lung disease)');
    expect(one('45 yo M with HTN.', 'condition')?.conceptId).toMatch(/^mesh:/);
    expect(one('Takes metformin.', 'medication')?.conceptId).toBe('cohortly:metformin');
  });

  // Phrasings read on the second pass (docs/note-extraction.md): each a general pattern, with text written here.
  it.each<[string, string, CandidateFactInput['status'] | undefined]>([
    // a new clause with its own subject ends a negation's reach
    ['No nausea, vomiting, she has asthma.', 'asthma', 'present'],
    ['Denies headache, he reports gout flares.', 'gout', 'present'],
    // a finding stated after a denial is asserted
    ['Negative for influenza, positive for hepatitis C.', 'hepatitis C', 'present'],
    ['No lymph node involvement, consistent with early breast cancer.', 'breast cancer', 'present'],
    ['The exam was unremarkable, biopsy significant for melanoma.', 'melanoma', 'present'],
    ['Imaging not consistent with pneumonia.', 'pneumonia', 'absent'],
    ['Culture inconsistent with tuberculosis.', 'tuberculosis', 'absent'],
    // "other than" after a denial's words ends it
    ['Reports no problems other than her migraine.', 'migraine', 'present'],
    ['Without treatment his psoriasis spread.', 'psoriasis', 'present'],
    // a duration is how long it has been had, not a past condition
    ['He has a 12-year history of type 2 diabetes.', 'type 2 diabetes', 'present'],
    ['Long-standing history of hypertension.', 'hypertension', 'present'],
    ['Known history of epilepsy, on levetiracetam.', 'epilepsy', 'present'],
    ['A 3 year history of Crohn disease.', 'Crohn disease', 'present'],
    ['She has a 5-day history of cellulitis of the shin.', 'cellulitis', 'present'],
    ['Comes in with a history of 4 days of gout pain.', 'gout', 'present'],
    ['A recent history of influenza.', 'influenza', 'present'],
    ['History of influenza as a child.', 'influenza', 'history'],
    // a date of diagnosis is when it began, not that it ended
    ['Diagnosed with multiple sclerosis 4 years ago, she uses a cane.', 'multiple sclerosis', 'present'],
    ['Her lupus was confirmed two years ago.', 'lupus', 'present'],
    ['He had a stroke 6 years ago.', 'stroke', 'history'],
    // being treated is now; was treated is past
    ['She is currently being treated for lymphoma.', 'lymphoma', 'present'],
    ['He was treated for lymphoma as a teenager.', 'lymphoma', 'history'],
    // "now", "currently" end the reach of a history cue
    ['History of asthma and gout, now with cellulitis.', 'cellulitis', 'present'],
    ['Prior TIA, currently admitted with atrial fibrillation.', 'atrial fibrillation', 'present'],
    // "not due to" denies the cause; no recurrence / residual, "-free" say it was had
    ['Her dyspnea is not due to heart failure.', 'heart failure', 'absent'],
    ['Cough due to GERD.', 'GERD', 'present'],
    ['Surveillance scan: no evidence of recurrence of his colon cancer.', 'colon cancer', 'history'],
    ['PET without residual lymphoma.', 'lymphoma', 'history'],
    ['Melanoma-free since the excision in 2019.', 'melanoma', 'history'],
    ['No melanoma on skin check.', 'melanoma', 'absent'],
    // a disease named as the vaccine's
    ['No hepatitis B vaccination on record.', 'hepatitis B', undefined],
    ['She had her HPV vaccine at 12.', 'HPV', undefined],
  ])('second pass: %s -> %s %s', (text, mention, status) => {
    expect(statusOf(text, mention)).toBe(status);
  });

  // Diagnoses and abbreviations added to the vocabulary for notes (issue 11's second pass), in sentences written here.
  it.each<[string, string, string]>([
    ['Admitted with ACS, troponin rising.', 'ACS', 'acute coronary syndrome'],
    ['Seen for an AECOPD, on nebulisers.', 'AECOPD', 'COPD (chronic lung disease)'],
    ['CT confirmed acute appendicitis.', 'acute appendicitis', 'appendicitis (acute)'],
    ['Ultrasound shows cholelithiasis without cholecystitis.', 'cholelithiasis', 'gallstones or gallbladder disease'],
    // MeSH's own heading under hyperthyroidism, which a rule of an overactive thyroid still meets by the tree (decision 346).
    ['Known Graves disease, on methimazole.', 'Graves disease', 'Graves disease'],
    ["She was diagnosed with Hashimoto's thyroiditis last spring.", "Hashimoto's thyroiditis", "Hashimoto's thyroiditis"],
    ['MRI showed a pituitary macroadenoma.', 'pituitary macroadenoma', 'a pituitary tumor'],
    ['Presents in DKA with a glucose of 540.', 'DKA', 'diabetic ketoacidosis (DKA)'],
    ['Urine culture grew E. coli; treated for pyelonephritis.', 'pyelonephritis', 'pyelonephritis'],
    ['At 34 weeks she developed preeclampsia.', 'preeclampsia', 'preeclampsia (high blood pressure in pregnancy)'],
    ['Hx of PTSD after deployment.', 'PTSD', 'post-traumatic stress disorder (PTSD)'],
    ['Fell at home and sustained a hip fracture.', 'hip fracture', 'a broken bone (fracture)'],
    ['Found to have a subdural hematoma on CT.', 'subdural hematoma', 'subdural hematoma'],
    ['Blood cultures positive, consistent with infective endocarditis.', 'infective endocarditis', 'an infection of the heart valves (endocarditis)'],
    ['Chest film shows a right pneumothorax.', 'pneumothorax', 'a collapsed lung (pneumothorax)'],
    ['Small bowel biopsy confirmed celiac disease.', 'celiac disease', 'celiac disease'],
    ['He has polycystic kidney disease like his father.', 'polycystic kidney disease', 'polycystic kidney disease'],
    ['Toddler with an undescended testis on the left.', 'undescended testis', 'an undescended testicle'],
    ['Stool studies positive for cholera.', 'cholera', 'cholera'],
    ['A diabetic foot ulcer on the right heel.', 'diabetic foot ulcer', 'diabetic foot'],
    ['Longstanding DM type 2, diet controlled.', 'DM type 2', 'type 2 diabetes'],
    ['Type II DM with neuropathy.', 'Type II DM', 'type 2 diabetes'],
    // MeSH's own neoplasm heading, a lymphoma by the tree (decision 295).
    ["Remote Hodgkin's disease, treated with ABVD.", "Hodgkin's disease", 'Hodgkin disease'],
    ["Flare of her Crohn's on budesonide.", "Crohn's", "Crohn's disease"],
    ['PAF on apixaban.', 'PAF', 'atrial fibrillation'],
    ['Lung ca diagnosed on biopsy.', 'Lung ca', 'lung cancer'],
    ['Hx of ca prostate, on ADT.', 'ca prostate', 'prostate cancer'],
  ])('reads the diagnosis in: %s', (text, words, name) => {
    const fact = facts(text).find((found) => found.kind === 'condition' && found.span && text.slice(found.span.start, found.span.end) === words);
    expect(fact?.name).toBe(name);
    expect(fact?.status).toMatch(/^(?:present|history)$/);
  });

  it('keeps a complication apart from the disease, and a disease apart from its vaccine', () => {
    // "Diabetic foot ulcer": MeSH's complication of diabetes, the longest match, which sits under diabetes in the hierarchy.
    const [foot] = facts('A diabetic foot ulcer on the right heel.');
    expect(foot.name).toBe('diabetic foot');
    expect(isA(foot.conceptId!, 'mesh:D000003920')).toBe(true);
    // "Iron deficiency anemia": MeSH's one heading for it, an anemia in the hierarchy.
    const [anemia] = facts('Iron deficiency anemia on oral iron.');
    expect(anemia.name).toBe('iron-deficiency anemia');
    expect(isA(anemia.conceptId!, meshIdByName('Anemia')!)).toBe(true);
    expect(statusOf('Her HPV vaccine series is complete.', 'HPV')).toBeUndefined();
    expect(statusOf('She tested positive for HPV.', 'HPV')).toBe('present');
    // "Ca" alone is calcium.
    expect(facts('Ca 9.2, Mg 2.0, K 4.1.').filter((fact) => fact.kind === 'condition')).toEqual([]);
  });

  it('carries a "Family History:" heading to the lines under it, up to a blank line or the next heading', () => {
    const note = 'Family History:\nFather: stroke at 60\nSister - lupus\n\nPast Medical History:\nGout\nGlaucoma\n\nAssessment:\nCellulitis of the left leg';
    expect(statusOf(note, 'stroke')).toBeUndefined();
    expect(statusOf(note, 'lupus')).toBeUndefined();
    // A past-medical-history list names conditions still had: not carried (the matcher reads history as "not now").
    expect(statusOf(note, 'gout')).toBe('present');
    expect(statusOf(note, 'glaucoma')).toBe('present');
    expect(statusOf(note, 'cellulitis')).toBe('present');
    // A relative as a list item's label, without a heading.
    expect(statusOf('Mother: type 1 diabetes. The patient has asthma.', 'type 1 diabetes')).toBeUndefined();
    expect(statusOf('Mother: type 1 diabetes. The patient has asthma.', 'asthma')).toBe('present');
    expect(statusOf('Social history: lives with her mother. Gout since age 50.', 'gout')).toBe('present');
  });

  it('keeps "currently" inside a denial and a relative\'s clause', () => {
    expect(statusOf('He is not currently taking metformin.', 'metformin')).toBe('absent');
    expect(statusOf('Her sisters are currently well without asthma.', 'asthma')).toBeUndefined();
    expect(statusOf('She does not currently have angina.', 'angina')).toBe('absent');
  });

  it('reads "PE:", "on RA" and "MS:" in a note as the examination, room air and mental status', () => {
    expect(facts('PE: normal. SpO2 97% on RA. MS: alert.').filter((fact) => fact.kind === 'condition')).toEqual([]);
    // "PE" is also the physical examination: read only with support, here the embolism named in the same note (decision 127).
    expect(statusOf('History of PE on warfarin.', 'PE')).toBeUndefined();
    expect(statusOf('History of PE on warfarin. CT angiogram in 2019 showed a pulmonary embolism.', 'PE')).toBe('history');
  });

  // The third pass (decision 088): each a general pattern, with text written here, not taken from the shared vignettes.
  it.each<[string, string, CandidateFactInput['status'] | undefined]>([
    // a treatment about to start speaks for the treatment, not for the disease named before it
    ['He has gout and allopurinol will be started.', 'gout', 'present'],
    ['New diabetes; metformin will be started.', 'diabetes', 'present'],
    ['New diabetes; metformin will be started.', 'metformin', undefined],
    ['Sarcoidosis was confirmed on biopsy and prednisone is to be started.', 'sarcoidosis', 'present'],
    ['Dialysis will be started next week.', 'dialysis', undefined],
    ['Insulin is to be started tomorrow.', 'insulin', undefined],
    // a stated diagnosis ends a cue reaching back; an unconfirmed one is not asserted
    ['Celiac disease was confirmed, and a gluten-free diet will be considered.', 'celiac disease', 'present'],
    ['Celiac disease was not confirmed.', 'celiac disease', undefined],
    // the kind of a disease denied, before or after it: the disease is neither asserted nor denied
    ['No metastatic breast cancer on the staging scan.', 'breast cancer', undefined],
    ['CT negative for embolic stroke.', 'stroke', undefined],
    ['Alcoholic cirrhosis was ruled out.', 'cirrhosis', undefined],
    ['No invasive breast cancer in the excised tissue.', 'breast cancer', undefined],
    // a plain denial still denies, and a qualifier is not read where no denial is
    ['No breast cancer in her past history.', 'breast cancer', 'absent'],
    ['Metastatic breast cancer on letrozole.', 'breast cancer', 'present'],
    ['No IV antibiotics were given; on metformin.', 'metformin', 'present'],
  ])('%s -> %s %s', (text, mention, status) => {
    expect(statusOf(text, mention)).toBe(status);
  });

  it("reads a disease with its site written after it as the site's disease", () => {
    const read = (text: string) =>
      facts(text)
        .filter((fact) => fact.kind === 'condition')
        .map((fact) => [fact.name, fact.status, text.slice(fact.span!.start, fact.span!.end)]);
    expect(read('Duplex: severe stenosis in the right internal carotid artery.')).toEqual([
      ['narrowed neck arteries (carotid stenosis) (severe)', 'present', 'stenosis in the right internal carotid artery'],
    ]);
    // "..., no recurrence" speaks for what came before it: had it, not now.
    expect(read('Resected cancer of the stomach in 2012, no recurrence.')).toContainEqual(['stomach cancer', 'history', 'cancer of the stomach']);
    expect(read('Infarction of the myocardium was excluded.')).toEqual([['a heart attack', 'absent', 'Infarction of the myocardium']]);
    expect(read('She has an ulcer of the duodenum.')).toEqual([['duodenal ulcer', 'present', 'ulcer of the duodenum']]);
    // A stage III written after a cancer is advanced (decision 316).
    expect(read('Carcinoma of the ovary, stage III.')).toContainEqual(['ovarian cancer (advanced)', 'present', 'Carcinoma of the ovary']);
    // a site that makes no concept with the disease adds nothing
    expect(read('Fracture of the left femur.')).toEqual([['a broken bone (fracture)', 'present', 'Fracture']]);
  });

  it('names a disease by its organism when the organism causes that one disease only', () => {
    expect(one('Stool microscopy showed Vibrio cholerae.', 'condition')?.name).toBe('cholera');
    expect(one('Thick smear positive for P. falciparum.', 'condition')?.name).toBe('malaria');
    expect(one('Serology positive for Borrelia burgdorferi.', 'condition')?.name).toBe('Lyme disease');
    expect(one('Urine antigen positive for Legionella pneumonia.', 'condition')?.name).toBe('pneumonia');
    expect(statusOf('Stool negative for Giardia.', 'Giardia')).toBe('absent');
  });

  it('reads the concepts added on the third pass (decision 088)', () => {
    const named = (text: string) =>
      facts(text)
        .filter((fact) => fact.kind === 'condition' && fact.status === 'present')
        .map((fact) => fact.name);
    expect(named('Follows in hematology clinic for indolent systemic mastocytosis.')).toEqual(['mastocytosis (too many mast cells)']);
    expect(named('A 70 yo man with bothersome LUTS, nocturia x3.')).toEqual(['bladder or prostate symptoms (LUTS)', 'nocturia']);
    // Cognitive decline is a cognitive impairment, not dementia by itself (decision 192); dementia named is dementia.
    expect(named('Progressive cognitive decline over two years, now needs help with her bills.')).toEqual([
      'memory or thinking problems (cognitive impairment)',
    ]);
    expect(named('Dementia diagnosed two years ago, now needs help with her bills.')).toEqual(['dementia']);
    expect(named('Reports low mood and poor sleep for a month.')).toEqual(['depression']);
    expect(named('Known Gaucher disease type 1 on enzyme replacement.')).toEqual(['Gaucher disease']);
    expect(named('Cardiac amyloidosis on tafamidis.')).toEqual(['amyloidosis']);
    expect(named("Diagnosed with Waldenström's macroglobulinemia in 2019.")).toEqual(['Waldenström macroglobulinemia']);
    expect(named('MRI shows a convexity meningioma.')).toEqual(['meningioma']);
    expect(named('Admitted with acute liver failure after an overdose.')).toEqual(['liver failure (acute)']);
    expect(named('Ultrasound: moderate left hydronephrosis.')).toEqual(['a swollen kidney from blocked urine (hydronephrosis) (moderate)']);
    expect(named('Itchy rash in the web spaces consistent with scabies.')).toEqual(['scabies']);
  });
});

describe('medicines', () => {
  it.each<[string, string, CandidateFactInput['status'] | undefined]>([
    ['Takes metformin and insulin.', 'metformin', 'present'],
    ['Takes metformin and insulin.', 'insulin', 'present'],
    ['He is on warfarin.', 'warfarin', 'present'],
    ['Stopped metformin last year.', 'metformin', 'history'],
    ['Warfarin was discontinued.', 'warfarin', 'history'],
    ['Recently tapered off prednisone.', 'prednisone', 'history'],
    ['No aspirin.', 'aspirin', 'absent'],
  ])('%s -> %s %s', (text, mention, status) => {
    expect(statusOf(text, mention)).toBe(status);
  });

  it('reads "currently takes no medications" as one general denial, no medicine of its own (decision 142)', () => {
    const read = facts('She currently takes no medications.').filter((fact) => fact.kind === 'medication');
    expect(read.map((fact) => [fact.conceptId, fact.status])).toEqual([['cohortly:no-medications', 'absent']]);
  });

  it.each([
    ['A 34-year-old otherwise healthy man with a cough.', 'cohortly:no-other-conditions'],
    ['Past medical history: unremarkable.', 'cohortly:no-other-conditions'],
    ['He has no significant past medical history.', 'cohortly:no-other-conditions'],
    ['Previously healthy 7-year-old girl.', 'cohortly:no-other-conditions'],
    ['She takes no regular medications.', 'cohortly:no-medications'],
    ['Medications: none.', 'cohortly:no-medications'],
  ])('reads a general denial in "%s"', (text, conceptId) => {
    expect(facts(text).filter((fact) => fact.conceptId === conceptId && fact.status === 'absent')).toHaveLength(1);
  });

  it.each([
    'Her mother is otherwise healthy.',
    'No past medical history of asthma.',
    'Family history: no medical problems.',
    'She has diabetes and hypertension.',
    // The word names a headache, allergies, changes: not the medicines taken.
    'No medication-overuse headache.',
    'No medication allergies.',
    'No medication changes since the last visit.',
  ])('reads no general denial in "%s"', (text) => {
    expect(facts(text).filter((fact) => fact.conceptId?.startsWith('cohortly:no-'))).toEqual([]);
  });
});

describe('smoking', () => {
  it.each<[string, CandidateFactInput['status']]>([
    ['A 58-year-old nonsmoker.', 'absent'],
    ['Never smoker.', 'absent'],
    ['She denies smoking.', 'absent'],
    ["He doesn't smoke or drink.", 'absent'],
    ['The history is negative for smoking.', 'absent'],
    ['No tobacco use.', 'absent'],
    ['Former smoker.', 'history'],
    ['Ex-smoker, 20 pack-years.', 'history'],
    ['He quit smoking 5 years ago.', 'history'],
    ['30 pack-year smoking history.', 'history'],
    ['History of heavy smoking and drinking.', 'history'],
    ['He smokes 20 cigarettes per day.', 'present'],
    ['Current smoker with a 20 pack-year history.', 'present'],
    ['Tobacco abuse.', 'present'],
  ])('%s -> %s', (text, status) => {
    const smoking = one(text, 'smoking')!;
    expect(smoking.status).toBe(status);
    expect(smoking).toMatchObject({ name: 'smoking', conceptId: null, value: null, unit: null });
  });
});

describe('pregnancy', () => {
  it.each<[string, CandidateFactInput['status'] | undefined]>([
    ['She is pregnant.', 'present'],
    ['29 yo G2P1 at 30 weeks, here for a check.', 'present'],
    ['A woman at 11 weeks gestation.', 'present'],
    ['Admitted for an ectopic pregnancy.', 'present'],
    ['She is not pregnant.', 'absent'],
    ['Negative pregnancy test today.', 'absent'],
    ['Urine pregnancy test was negative.', 'absent'],
    ['Beta hCG: negative for pregnancy.', 'absent'],
    ['She was born at 38 weeks gestation.', undefined],
    ['History of gestational diabetes.', undefined],
  ])('%s -> %s', (text, status) => {
    expect(one(text, 'pregnancy')?.status).toBe(status);
  });

  it('reads no pregnancy for a man', () => {
    expect(one('45 yo M. His wife is pregnant.', 'pregnancy')).toBeUndefined();
  });
});

describe('labs and vitals', () => {
  it.each<[string, string, number, string | null]>([
    ['HbA1c 8.2% last month.', 'HbA1c', 8.2, '%'],
    ['A BMI of 32.', 'BMI', 32, 'kg/m2'],
    ['BMI: 41.54', 'BMI', 41.54, 'kg/m2'],
    ['HbA1c 58 mmol/mol.', 'HbA1c', 7.5, '%'],
    ['Serum creatinine is 1.3 mg/dL.', 'creatinine', 1.3, 'mg/dL'],
    ['LDL 3.1 mmol/L.', 'LDL-C', 119.877, 'mg/dL'],
    ['EF was 25%.', 'LVEF', 25, '%'],
    ['Oxygen saturation 92% on room air.', 'oxygen saturation', 92, '%'],
    ['Hemoglobin (Hb) of 9.0 g/dL.', 'hemoglobin', 9, 'g/dL'],
    ['Blood pressure 150/95 mmHg.', 'systolic blood pressure', 150, 'mmHg'],
    ['Blood pressure 150/95 mmHg.', 'diastolic blood pressure', 95, 'mmHg'],
    ['HR of 132 bpm.', 'heart rate', 132, 'bpm'],
    ['His pulse is 141/min.', 'heart rate', 141, 'bpm'],
    // Short forms and units written against the number.
    ['Cr 1.4 mg/dL, up from 1.1.', 'creatinine', 1.4, 'mg/dL'],
    ['Plt 90k on admission.', 'platelets', 90, '10^9/L'],
    ['Platelet count 98,000/uL.', 'platelets', 98, '10^9/L'],
    ['WBC 11.2K.', 'WBC', 11.2, '10^9/L'],
    // Spirometry in percent of predicted, as criteria write it, preferred to the volume beside it.
    ['FEV1 55% predicted.', 'FEV1', 55, '%'],
    ['FEV1 of 1.8 L (62% predicted) after bronchodilator.', 'FEV1', 62, '%'],
    ['Pulmonary function: FVC 82% of predicted.', 'FVC', 82, '%'],
  ])('%s -> %s %s', (text, name, value, unit) => {
    const lab = one(text, 'lab', name)!;
    expect(lab.value).toBeCloseTo(value, 3);
    expect(lab.unit).toBe(unit);
    expect(lab.status).toBeNull();
  });

  it.each([
    'Weight loss of 20 pounds.',
    'Goal HbA1c below 7%.',
    'C-reactive protein 4.5 mg.',
    'Elevated HbA1c.',
    'O2 sats 70s at home.',
    'WBC count of 17,580/mm.',
    'Creatinine 1.2/1.4 on two visits.',
    'Complete response (CR) 2 years ago.',
  ])('reads no value from: %s', (text) => {
    expect(facts(text).filter((fact) => fact.kind === 'lab')).toEqual([]);
  });

  it('reads no hemoglobin from "glycated hemoglobin", only the HbA1c it is', () => {
    const read = facts('Glycated hemoglobin 8.1 percent; hemoglobin 12.4 g/dL.').filter((fact) => fact.kind === 'lab');
    expect(read.map((fact) => [fact.name, fact.value])).toEqual([
      ['HbA1c', 8.1],
      ['hemoglobin', 12.4],
    ]);
  });
});

describe('sentences, spans and the one-fact rule', () => {
  it('splits sentences without breaking at titles, decimals, s/p or wrapped lines', () => {
    const text = 'Dr. Smith saw the patient. Temp 39.5 C. No cough. s/p CABG. Denies chest pain.\nPMH:\n- HTN\n- DM2, on\nmetformin';
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual([
      'Dr. Smith saw the patient.',
      'Temp 39.5 C.',
      'No cough.',
      's/p CABG.',
      'Denies chest pain.',
      'PMH:',
      '- HTN',
      '- DM2, on\nmetformin',
    ]);
    for (const sentence of splitSentences(text)) expect(text.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('gives every fact its span in the whole note, its sentence and the note id', () => {
    const text = 'A 58-year-old woman.  She denies chest pain.\nHistory of asthma; takes metformin. HbA1c 8.2%.';
    const read = extractNoteFacts(text, { noteId: 'note-1' });
    expect(read.map((fact) => [fact.kind, text.slice(fact.span!.start, fact.span!.end)])).toEqual([
      ['age', '58-year-old'],
      ['sex', 'woman'],
      ['condition', 'chest pain'],
      ['condition', 'asthma'],
      ['medication', 'metformin'],
      ['lab', 'HbA1c 8.2%'],
    ]);
    const asthma = read.find((fact) => fact.name === 'asthma')!;
    expect(asthma).toMatchObject({
      source: 'note',
      sourceRef: 'note-1',
      sourceText: 'History of asthma; takes metformin.',
      criterionId: null,
      code: null,
      observedOn: null,
      value: null,
      unit: null,
    });
    for (const fact of read) expect(CandidateFactInputSchema.safeParse(fact).success).toBe(true);
    expect(extractNoteFacts(text)[0].sourceRef).toBeNull();
  });

  it('keeps one fact per concept: the first assertion, else the denial', () => {
    expect(facts('Denies asthma. Asthma diagnosed in 2010.').filter((fact) => fact.name === 'asthma')).toMatchObject([{ status: 'present' }]);
    expect(facts('History of asthma. Asthma is well controlled.').filter((fact) => fact.name === 'asthma')).toMatchObject([{ status: 'history' }]);
    expect(facts('No asthma. Denies asthma attacks.').filter((fact) => fact.name === 'asthma')).toMatchObject([
      { status: 'absent', span: { start: 3, end: 9 } },
    ]);
  });

  it('reads an empty or wordless note as nothing', () => {
    expect(extractNoteFacts('')).toEqual([]);
    expect(extractNoteFacts(' \n--- \n')).toEqual([]);
  });
});

describe('the project-own synthetic notes', () => {
  const read = (name: string) => {
    const text = readFileSync(path.resolve(process.cwd(), 'tests/fixtures/matching/notes', name), 'utf8');
    const found = extractNoteFacts(text, { noteId: name });
    const by = (kind: FactKind, name: string) => found.find((fact) => fact.kind === kind && fact.name === name);
    const status = (mention: string) =>
      found.find((fact) => fact.span && text.slice(fact.span.start, fact.span.end).toLowerCase() === mention.toLowerCase())?.status;
    return { text, found, by, status };
  };

  it('a cardiology follow-up', () => {
    const { found, by, status } = read('cardiology-follow-up.txt');
    expect(by('age', 'age')?.value).toBe(67);
    expect(by('sex', 'sex')?.valueText).toBe('male');
    // "A h/o CAD ..., HTN, HLD and DM2": lifelong diagnoses he still has (decision 164).
    expect(status('CAD')).toBe('present');
    expect(status('DM2')).toBe('present');
    expect(status('chest pressure')).toBe('present');
    expect(status('syncope')).toBe('absent');
    expect(status('stroke')).toBe('absent');
    expect(by('smoking', 'smoking')?.status).toBe('history');
    expect(status('metformin')).toBe('present');
    expect(status('warfarin')).toBe('history');
    expect(status('stable angina')).toBe('present');
    expect(status('heart failure')).toBeUndefined();
    expect(by('lab', 'HbA1c')?.value).toBe(7.9);
    expect(by('lab', 'systolic blood pressure')?.value).toBe(148);
    expect(by('lab', 'LDL-C')?.value).toBeCloseTo(92.808, 3);
    expect(by('lab', 'BMI')?.value).toBe(31.4);
    expect(found.every((fact) => fact.sourceRef === 'cardiology-follow-up.txt')).toBe(true);
  });

  it('an oncology consult', () => {
    const { by, status, found } = read('oncology-consult.txt');
    expect(by('age', 'age')?.value).toBe(54);
    expect(by('sex', 'sex')?.valueText).toBe('female');
    expect(status('non-small cell lung cancer')).toBe('present');
    expect(status('COPD')).toBe('present');
    expect(status('Breast cancer')).toBe('history');
    expect(by('smoking', 'smoking')?.status).toBe('history');
    expect(status('fever')).toBe('absent');
    expect(status('brain metastases')).toBe('absent');
    expect(found.some((fact) => fact.conceptId === 'cohortly:ovarian-cancer')).toBe(false);
    expect(status('pneumonitis')).toBeUndefined();
    expect(found.some((fact) => fact.conceptId === 'cohortly:chemotherapy')).toBe(false);
  });

  it('a prenatal visit', () => {
    const { by, status } = read('prenatal-visit.txt');
    expect(by('age', 'age')?.value).toBe(31);
    expect(by('sex', 'sex')?.valueText).toBe('female');
    expect(by('pregnancy', 'pregnancy')?.status).toBe('present');
    expect(by('smoking', 'smoking')?.status).toBe('absent');
    expect(status('type 1 diabetes')).toBe('present');
    expect(status('insulin')).toBe('present');
    expect(status('hypertension')).toBe('absent');
    expect(status('metformin')).toBe('history');
  });

  it('a pediatric emergency note', () => {
    const { by, found } = read('pediatric-emergency.txt');
    expect(by('age', 'age')?.value).toBe(0.5);
    expect(by('sex', 'sex')?.valueText).toBe('male');
    // The cough is had, the vomiting denied; the asthma is asked and a sister's, the pneumonia to be ruled out. The
    // fever had now is an acute illness (decision 298).
    expect(found.filter((fact) => fact.kind === 'condition').map((fact) => [fact.name, fact.status])).toEqual([
      ['an infection that needs treatment (acute)', 'present'],
      ['cough', 'present'],
      ['vomiting', 'absent'],
    ]);
    expect(by('lab', 'oxygen saturation')?.value).toBe(95);
  });
});

describe('findings named in notes (vocabulary additions, 2026-11-24)', () => {
  const concepts = (text: string) => facts(text).map((fact) => [fact.conceptId, fact.status]);

  it('reads swallowing trouble, a ruptured spleen, blood in the abdomen and the signs of GI bleeding, with their cues', () => {
    expect(concepts('Reports trouble swallowing solids for two months.')).toContainEqual(['cohortly:dysphagia', 'present']);
    expect(concepts('No dysphagia or odynophagia.')).toContainEqual(['cohortly:dysphagia', 'absent']);
    expect(concepts('CT: ruptured spleen with hemoperitoneum.')).toEqual(
      expect.arrayContaining([
        ['cohortly:splenic-rupture', 'present'],
        ['cohortly:hemoperitoneum', 'present'],
      ]),
    );
    expect(concepts('Presents with melena since yesterday.')).toContainEqual(['cohortly:gi-bleeding', 'present']);
    expect(concepts('Denies hematemesis.')).toContainEqual(['cohortly:gi-bleeding', 'absent']);
  });
});

describe('the note reader on the whole vocabulary (issue 30)', () => {
  it('reads a substance with a measured value as a lab, never as a medicine taken; a dose keeps a medicine', () => {
    const medicines = (text: string) => facts(text).filter((fact) => fact.kind === 'medication');
    expect(medicines('Creatinine: 0.5 mg/dl. Urea of 8.5, glucose level of 15.')).toEqual([]);
    expect(medicines('Started cilostazol 100 mg twice daily.').map((fact) => fact.status)).toEqual(['present']);
  });

  it('reads an "Allergy:" list as allergies, and "without recurrence" for what came before it only', () => {
    expect(facts('Allergy: lidocaine (hives). Allergies: penicillin, sulfa.').filter((fact) => fact.kind === 'medication')).toEqual([]);
    const read = facts('Past medical history: breast cancer treated with lumpectomy 10 years ago without recurrence, osteoporosis on alendronate, obesity.');
    const status = (name: RegExp) => read.find((fact) => name.test(fact.name))?.status;
    expect(status(/breast cancer/)).toBe('history');
    expect(status(/osteoporosis/)).toBe('present');
    expect(status(/obesity/)).toBe('present');
    expect(status(/alendronate/)).toBe('present');
    expect(facts('No recurrence of her breast cancer.').find((fact) => /breast cancer/.test(fact.name))?.status).toBe('history');
  });

  it('dates a medicine stopped in its own words, for a washout window; a year alone or a start is not a stop', () => {
    const today = new Date('2026-11-29T00:00:00Z');
    const stoppedOn = (text: string) =>
      extractNoteFacts(text, { today })
        .filter((fact) => fact.kind === 'medication')
        .map((fact) => [fact.status, fact.observedOn]);
    expect(stoppedOn('Stopped methotrexate 6 months ago.')).toEqual([['history', '2026-05-29']]);
    expect(stoppedOn('Took prednisone 10 mg daily until 2 weeks ago.')).toEqual([['history', '2026-11-15']]);
    expect(stoppedOn('Last dose of rituximab 8 months ago.')).toEqual([['history', '2026-03-29']]);
    expect(stoppedOn('Completed chemotherapy in March 2025.')).toEqual([['history', null]]);
    // Taken now, started long ago: no stop, and the start is not its date.
    expect(stoppedOn('On prednisone, started 3 years ago.')).toEqual([['present', null]]);
  });

  it('reads a pain rating out of 10 as the pain score, the first one written', () => {
    const pain = (text: string) => facts(text).find((fact) => fact.kind === 'lab' && / ?pain score$/.test(fact.name));
    expect(pain('Pain 7/10 on a numeric rating scale despite physical therapy.')).toMatchObject({ name: 'pain score', value: 7, unit: '/10' });
    // Each with the region it names (decision 350).
    expect(pain('Leg pain 6/10, back pain 3/10.')).toMatchObject({ name: 'leg pain score', value: 6 });
    expect(facts('Leg pain 6/10, back pain 3/10.').find((fact) => fact.name === 'back pain score')).toMatchObject({ value: 3 });
    expect(pain('She rates it 8/10 leg pain at night.')).toMatchObject({ name: 'leg pain score', value: 8 });
    // A number between the pain and the rating is something else's.
    expect(pain('Pain began 3 months ago, radiates to the calf, 8/10.')).toBeUndefined();
    expect(pain('Strength 4/5 in ankle dorsiflexion.')).toBeUndefined();
  });

  it('reads a substance with a test result as a test, never as a medicine taken', () => {
    const medicines = (text: string) => facts(text).filter((fact) => fact.kind === 'medication');
    expect(medicines('Serum anti-PLA2R antibodies positive (145 RU/mL); kidney biopsy shows membranous nephropathy.')).toEqual([]);
    expect(medicines('Anti-dsDNA antibodies were negative. Negative for hepatitis B surface antigen.')).toEqual([]);
    expect(medicines('Insulin antibodies not detected.')).toEqual([]);
    // A medicine with a result word elsewhere in its sentence is still a medicine.
    expect(medicines('On insulin glargine; urine culture negative.').map((fact) => fact.status)).toEqual(['present']);
  });

  it('reads a course of a medicine as taken before, and a vaccine as given once, dated when the note says when (decision 179)', () => {
    const today = new Date('2026-11-29T00:00:00Z');
    const medicines = (text: string) =>
      extractNoteFacts(text, { today })
        .filter((fact) => fact.kind === 'medication')
        .map((fact) => [fact.name, fact.status, fact.observedOn]);
    // A course is over once written as one; the medicine named without it is still taken.
    expect(medicines('Knee swelling improved after a 10-day course of doxycycline.')).toEqual([
      [expect.stringMatching(/doxycycline|antibiotic/), 'history', null],
    ]);
    expect(medicines('Given a brief course of prednisolone last winter; remains on metformin.').map(([, status]) => status)).toEqual(['history', 'present']);
    // "The course of" an illness or a treatment is not a course given.
    expect(medicines('Over the course of treatment with methotrexate her joints improved.').map(([, status]) => status)).toEqual(['present']);
    // A vaccine received is had, not taken now; its time right after it dates it; a denial stays a denial.
    expect(medicines('Had a flu shot 2 weeks ago.')).toEqual([['a vaccine', 'history', '2026-11-15']]);
    expect(medicines('Pneumococcal vaccine given at his last visit.')).toEqual([[expect.stringMatching(/vaccine/), 'history', null]]);
    expect(medicines('Has not had any COVID-19 vaccine.')).toEqual([['a COVID-19 vaccine', 'absent', null]]);
  });

  it("keeps an infant's age as a fraction of a year", () => {
    expect(one('A 6-week-old girl with bronchiolitis.', 'age')?.value).toBeCloseTo(0.115, 3);
    expect(one('9 month old boy, febrile.', 'age')?.value).toBe(0.75);
  });

  it('reads an ambiguous short form with the trial as context', () => {
    expect(extractNoteFacts('MS flare last spring.').filter((fact) => fact.kind === 'condition')).toEqual([]);
    const context = [meshIdByName('Multiple Sclerosis')!];
    expect(extractNoteFacts('MS flare last spring.', { context }).map((fact) => fact.name)).toEqual(['multiple sclerosis']);
  });
});

describe('medicines taken before, tests that name a substance, results and performance status (decision 194)', () => {
  const medicines = (text: string) =>
    facts(text)
      .filter((fact) => fact.kind === 'medication')
      .map((fact) => [fact.name, fact.status]);

  it('reads a treatment the narrative places in the past as taken before, and the one taken now as now', () => {
    expect(medicines('Amitriptyline was prescribed in the past, stopped after a month.').map(([, status]) => status)).toEqual(['history']);
    expect(medicines('Sertraline and bupropion tried previously, stopped because of nausea.').map(([, status]) => status)).toEqual(['history', 'history']);
    expect(medicines('She was first treated with cyclophosphamide, then rituximab.').map(([, status]) => status)[0]).toBe('history');
    expect(medicines('The boy used to be managed with albuterol.').map(([, status]) => status)).toEqual(['history']);
    // "previously" that opens the next clause speaks for what follows, not for the medicine before the comma.
    expect(medicines('Takes lisinopril, previously on losartan.').map(([, status]) => status)).toEqual(['present', 'history']);
    expect(medicines('Currently on apixaban.').map(([, status]) => status)).toEqual(['present']);
  });

  it('reads a substance named as what a test measures as a test, not a medicine', () => {
    expect(medicines('Invasive ductal carcinoma, progesterone receptor positive.')).toEqual([]);
    expect(medicines('Urine protein-to-creatinine ratio 2.8 g/g; cortisol level high after a dexamethasone suppression test.')).toEqual([]);
    expect(medicines('Two-hour glucose tolerance test 210 mg/dL.')).toEqual([]);
    // The medicine itself is still a medicine.
    expect(medicines('Treated with dexamethasone 4 mg daily.').map(([, status]) => status)).toEqual(['present']);
  });

  it('keeps a bare "negative" with its own test: a list of results does not deny the disease named before it', () => {
    expect(statusOf('Carcinoma of the breast, HER2 positive, estrogen receptor negative.', 'carcinoma of the breast')).toBe('present');
    expect(statusOf('Lung adenocarcinoma; EGFR positive, ALK negative.', 'lung adenocarcinoma')).toBe('present');
    // A result right after its test still denies it.
    expect(statusOf('Stool Clostridioides difficile negative.', 'Clostridioides difficile')).toBe('absent');
  });

  it('reads pain spreading down a limb as pain, not radiotherapy; "no prior radiation" still denies radiotherapy', () => {
    expect(medicines('Neck ache without arm radiation.')).toEqual([]);
    expect(medicines('Burning pain in the buttock with radiation into the calf.')).toEqual([]);
    expect(medicines('Never had radiation to the head or neck.')).toEqual([[expect.stringMatching(/radiation/), 'absent']]);
  });

  it('does not widen a denied kind of a disease to the disease ("no congenital heart disease")', () => {
    expect(statusOf('He has no congenital heart disease.', 'heart disease')).toBeUndefined();
  });

  it('reads a performance status on the ECOG and Karnofsky scales, never a range or another WHO scale', () => {
    const statuses = (text: string) =>
      facts(text)
        .filter((fact) => fact.kind === 'performance_status')
        .map((fact) => [fact.valueText, fact.value]);
    expect(statuses('Performance: ECOG 2, walking with a cane.')).toEqual([['ECOG', 2]]);
    expect(statuses('Zubrod score 0 at the visit.')).toEqual([['ECOG', 0]]);
    expect(statuses('Karnofsky score of 60% on admission.')).toEqual([['Karnofsky', 60]]);
    expect(statuses('Eligible with ECOG 0 to 1; WHO grade 2 glioma; WHO functional class II.')).toEqual([]);
    for (const fact of facts('KPS 90.')) expect(CandidateFactInputSchema.safeParse(fact).success).toBe(true);
  });
});

describe('an event dated to a past year, and a medicine the clause says is taken now (decision 194)', () => {
  it('reads "in <year>" as had, dated, unless the year dates an onset or the diagnosis is lifelong', () => {
    const today = new Date('2026-11-29T00:00:00Z');
    const condition = (text: string) => {
      const found = extractNoteFacts(text, { today }).find((fact) => fact.kind === 'condition');
      return [found?.status, found?.observedOn];
    };
    expect(condition('She suffered a transient ischemic attack in 2012.')).toEqual(['history', '2012-12-31']);
    expect(condition('Ulcerative colitis first diagnosed in 2018, now in a flare.')[0]).toBe('present');
    expect(condition('Hypertension since 2009.')[0]).toBe('present');
    expect(condition('Type 1 diabetes in 2001.')[0]).toBe('present');
  });

  it('keeps a medicine the clause says is taken as taken now, past a history cue further back', () => {
    expect(statusOf('Gout diagnosed previously, on allopurinol.', 'allopurinol')).toBe('present');
    expect(statusOf('Hip fracture previously, remains on alendronate.', 'alendronate')).toBe('present');
    expect(statusOf('Formerly on allopurinol.', 'allopurinol')).toBe('history');
  });
});

describe('a dated last dose, a woman who cannot be pregnant, and a test of the condition itself (decision 194)', () => {
  const today = new Date('2026-11-29T00:00:00Z');
  const medicines = (text: string) =>
    extractNoteFacts(text, { today })
      .filter((fact) => fact.kind === 'medication')
      .map((fact) => [fact.status, fact.observedOn]);

  it('reads a last dose dated after a treatment as taken before, that day; a medicine the person is on stays taken', () => {
    expect(medicines('Given gemcitabine and cisplatin, with the last cycle 5 weeks ago.')).toEqual([
      ['history', '2026-10-25'],
      ['history', '2026-10-25'],
    ]);
    expect(medicines('Last infusion of rituximab 4 months ago.')).toEqual([['history', '2026-07-29']]);
    expect(medicines('Remains on infliximab, last infusion 3 weeks ago.')).toEqual([['present', null]]);
  });

  it('reads a woman past the menopause or after a hysterectomy as not pregnant, unless the note says she is', () => {
    const pregnancy = (text: string) => extractNoteFacts(text, { today }).find((fact) => fact.kind === 'pregnancy')?.status;
    expect(pregnancy('A 61-year-old postmenopausal woman with osteoporosis.')).toBe('absent');
    expect(pregnancy('She had a vaginal hysterectomy for fibroids years ago.')).toBe('absent');
    expect(pregnancy('A hysterectomy is being considered for her fibroids.')).toBeUndefined();
    expect(pregnancy('Perimenopausal woman with hot flushes.')).toBeUndefined();
  });

  it('lets a negative test of the condition itself deny it, past a comma', () => {
    expect(statusOf('Strep throat suspected last week, rapid antigen test negative.', 'strep throat')).not.toBe('present');
    expect(statusOf('Ovarian cancer, BRCA1 negative.', 'ovarian cancer')).toBe('present');
  });
});

describe('an allergy to a named medicine (decision 194)', () => {
  const read = (text: string) => facts(text).map((fact) => [fact.kind, fact.conceptId, fact.status]);

  it('reads an allergy to a medicine as that allergy, never as the medicine taken', () => {
    const found = read('Allergic to aspirin.');
    expect(found.some(([kind]) => kind === 'medication')).toBe(false);
    expect(found).toContainEqual(['condition', expect.stringMatching(/^cohortly:allergy-to:/), 'present']);
  });

  it('reads every medicine of an allergy list, and a list answered with nothing as no allergy', () => {
    const found = read('Drug allergies: ampicillin (hives), morphine (itching).');
    expect(found.some(([kind]) => kind === 'medication')).toBe(false);
    expect(found.filter(([, id]) => String(id).startsWith('cohortly:allergy-to:')).length).toBe(2);
    expect(read('Allergies: nil.').every(([, , status]) => status === 'absent')).toBe(true);
  });

  it('does not read a denied allergy as one', () => {
    expect(read('She has no known allergy to aspirin.').some(([, id, status]) => String(id).startsWith('cohortly:allergy-to:') || status === 'present')).toBe(
      false,
    );
  });
});

describe('a past medical history written as not significant (decision 194)', () => {
  it('reads it as the general denial "no other medical conditions"', () => {
    for (const text of ['Her past medical history is non-significant.', 'PMH nonsignificant.'])
      expect(facts(text).find((fact) => fact.conceptId === 'cohortly:no-other-conditions')?.status).toBe('absent');
  });
});

describe('an operation is done once (decision 194)', () => {
  it('reads an operation the note states as had, and what stays in place as present', () => {
    expect(statusOf('She had a hysterectomy for fibroids.', 'hysterectomy')).toBe('history');
    expect(statusOf('He underwent coronary artery bypass.', 'coronary artery bypass')).toBe('history');
    expect(statusOf('Her colostomy is functioning well.', 'colostomy')).toBe('present');
    expect(statusOf('A hysterectomy is being considered.', 'hysterectomy')).toBeUndefined();
  });
});
