import { describe, expect, it } from 'vitest';
import { QuestionSchema, StudyBlockSchema, type AnswerPredicate, type CriterionLink, type Question } from '../../src/contract/prescreen-forms';
import type { CriterionRule } from '../../src/contract/trials';
import { generateStudyBlocks, type GeneratorCriterion } from '../../src/server/features/prescreen-forms/generator';
import { meshIdByName } from '../../src/server/features/trials/vocabulary';

let position = 0;
const criterion = (kind: 'inclusion' | 'exclusion', rule: CriterionRule | null, text = 'Some criterion', needsReview = false): GeneratorCriterion => ({
  id: `c${++position}`,
  position: position - 1,
  kind,
  text,
  rule,
  needsReview,
});

const questions = (blocks: ReturnType<typeof generateStudyBlocks>['blocks']) => blocks.flatMap((block) => block.questions);
const question = (blocks: ReturnType<typeof generateStudyBlocks>['blocks'], id: string) => questions(blocks).find((item) => item.id === id)!;

/** What the links of one question say about a criterion for an answer: every firing link's outcome. */
function outcomes(links: CriterionLink[], criterionId: string, answer: number | boolean | string): string[] {
  const holds = (when: AnswerPredicate): boolean => {
    switch (when.op) {
      case 'is_yes':
        return answer === true;
      case 'is_no':
        return answer === false;
      case 'in':
        return when.values.includes(String(answer));
      case 'age_lt':
        return (answer as number) < when.value;
      case 'age_gte':
        return (answer as number) >= when.value;
      case 'lt':
        return (answer as number) < (when.value as number);
      case 'lte':
        return (answer as number) <= (when.value as number);
      case 'gt':
        return (answer as number) > (when.value as number);
      case 'gte':
        return (answer as number) >= (when.value as number);
      case 'between':
        return (answer as number) >= (when.value as number) && (answer as number) <= (when.upper as number);
      default:
        return false;
    }
  };
  return links.filter((link) => link.criterionId === criterionId).flatMap((link) => (holds(link.when) ? [link.then] : link.otherwise ? [link.otherwise] : []));
}

/** The criterion's outcome with "the disqualifying outcome wins" (inclusion: not_met; exclusion: met). */
function decide(q: Question, c: GeneratorCriterion, answer: number | boolean | string) {
  const said = outcomes(q.criterionLinks, c.id, answer);
  const against = c.kind === 'inclusion' ? 'not_met' : 'met';
  if (said.includes(against)) return against;
  if (said.includes('review')) return 'review';
  return said[0] ?? 'undecided';
}

describe('the study-block generator', () => {
  it('produces valid blocks in the fixed order, with a closing logistics block naming the first site', () => {
    const { blocks, uncoveredCriterionIds } = generateStudyBlocks({
      criteria: [
        criterion('inclusion', { type: 'medication', medication: 'metformin', taking: true }),
        criterion('inclusion', { type: 'age', minYears: 18, maxYears: 65 }),
        criterion('inclusion', { type: 'condition', condition: 'type 2 diabetes', present: true }),
      ],
      siteName: 'Main clinic',
    });
    expect(blocks.map((block) => block.id)).toEqual(['about-you', 'medical-history', 'medications', 'logistics']);
    for (const block of blocks) expect(StudyBlockSchema.safeParse(block).success).toBe(true);
    expect(blocks[3].questions.map((item) => [item.id, item.type, item.criterionLinks.length])).toEqual([
      ['travel', 'yes_no', 0],
      ['contact-time', 'text', 0],
    ]);
    expect(blocks[3].questions[0].wording.chat.en).toBe('Are you able to travel to Main clinic for visits?');
    expect(blocks[3].questions[0].wording.chat.es).toBe('¿Puede desplazarse a Main clinic para las visitas?');
    expect(uncoveredCriterionIds).toEqual([]);
    expect(generateStudyBlocks({ criteria: [] }).blocks[0].questions[0].wording.chat.en).toBe('Are you able to travel to the study site for visits?');
  });

  it('age: one shared date-of-birth question; an inclusion range checks both bounds', () => {
    const adults = criterion('inclusion', { type: 'age', minYears: 18, maxYears: 65 });
    const over12 = criterion('inclusion', { type: 'age', minYears: 12, maxYears: null });
    const { blocks } = generateStudyBlocks({ criteria: [adults, over12] });
    const dob = question(blocks, 'date-of-birth');
    expect(questions(blocks).filter((item) => item.type === 'date')).toHaveLength(1);
    expect(dob.wording.chat).toEqual({ en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' });
    expect(dob.criterionLinks.filter((link) => link.criterionId === adults.id)).toEqual([
      { criterionId: adults.id, when: { op: 'age_gte', value: 18 }, then: 'met', otherwise: 'not_met' },
      { criterionId: adults.id, when: { op: 'age_gte', value: 66 }, then: 'not_met' },
    ]);
    expect([17, 18, 40, 65, 66, 90].map((age) => decide(dob, adults, age))).toEqual(['not_met', 'met', 'met', 'met', 'not_met', 'not_met']);
    expect([11, 12, 99].map((age) => decide(dob, over12, age))).toEqual(['not_met', 'met', 'met']);
  });

  it('age: an exclusion whose eligible range is 18..70 is met (applies) outside it; a max-only rule checks the upper bound', () => {
    const outside = criterion('exclusion', { type: 'age', minYears: 18, maxYears: 70 }, 'Age < 18 or > 70');
    const upTo50 = criterion('inclusion', { type: 'age', minYears: null, maxYears: 50 });
    const { blocks } = generateStudyBlocks({ criteria: [outside, upTo50] });
    const dob = question(blocks, 'date-of-birth');
    expect([17, 18, 70, 71].map((age) => decide(dob, outside, age))).toEqual(['met', 'not_met', 'not_met', 'met']);
    expect([30, 50, 51].map((age) => decide(dob, upTo50, age))).toEqual(['met', 'met', 'not_met']);
  });

  it('sex: single choice female/male/other; in [allowed] -> met', () => {
    const women = criterion('inclusion', { type: 'sex', sex: 'female' });
    const { blocks } = generateStudyBlocks({ criteria: [women] });
    const sex = question(blocks, 'sex');
    expect(sex.type).toBe('single_choice');
    expect(sex.options!.map((option) => option.value)).toEqual(['female', 'male', 'other']);
    expect(sex.criterionLinks).toEqual([{ criterionId: women.id, when: { op: 'in', values: ['female'] }, then: 'met', otherwise: 'not_met' }]);
    expect(QuestionSchema.safeParse(sex).success).toBe(true);
  });

  it('condition and medication: yes/no, in the criterion terms for inclusions and exclusions; same subject shares a question', () => {
    const diabetes = criterion('inclusion', { type: 'condition', condition: 'Type 2 diabetes', present: true });
    const noDiabetes = criterion('exclusion', { type: 'condition', condition: 'type 2 diabetes', present: true }, 'Someone odd');
    const heartFailure = criterion('exclusion', { type: 'condition', condition: 'heart failure', present: false }, 'Heart failure');
    const insulin = criterion('exclusion', { type: 'medication', medication: 'insulin', taking: false }, 'Taking insulin');
    const { blocks } = generateStudyBlocks({ criteria: [diabetes, noDiabetes, heartFailure, insulin] });
    const t2d = question(blocks, 'condition-type-2-diabetes');
    // A rule naming no concept has no Spanish name: no Spanish sentence with the English words in it (decision 223).
    expect(t2d.wording.chat).toEqual({ en: 'Have you been told by a doctor that you have Type 2 diabetes?' });
    expect(t2d.needsSpanish).toBe(true);
    expect(t2d.criterionLinks.map((link) => link.criterionId)).toEqual([diabetes.id, noDiabetes.id]);
    expect(decide(t2d, diabetes, true)).toBe('met');
    expect(decide(t2d, diabetes, false)).toBe('not_met');
    const hf = question(blocks, 'condition-heart-failure');
    expect(decide(hf, heartFailure, true)).toBe('met');
    expect(decide(hf, heartFailure, false)).toBe('not_met');
    const med = question(blocks, 'medication-insulin');
    expect(blocks.find((block) => block.id === 'medications')!.questions).toContain(med);
    expect(med.wording.phone.en).toBe('Are you currently taking insulin?');
    expect(med.wording.phone.es).toBeUndefined();
    expect(med.needsSpanish).toBe(true);
    expect([t2d, hf, med].every((item) => item.audience === undefined)).toBe(true);
    expect(decide(med, insulin, true)).toBe('met');
    expect(decide(med, insulin, false)).toBe('not_met');
  });

  it('lab: a number with unit; values within 5% of the threshold need review', () => {
    // Exclusion "eGFR < 45" is stored as what an eligible person satisfies: eGFR >= 45.
    const egfr = criterion('exclusion', { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' }, 'eGFR < 45');
    const hba1c = criterion('inclusion', { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10, unit: '%' }, 'HbA1c 7-10%');
    const { blocks } = generateStudyBlocks({ criteria: [egfr, hba1c] });
    // eGFR is a value a patient would not know: a site_review item staff fill in, with the same links.
    const q = question(blocks, 'site-lab-egfr');
    expect(q).toMatchObject({ type: 'number', unit: 'mL/min/1.73m2', audience: 'site' });
    expect(q.wording.chat.en).toBe('Staff: most recent eGFR (mL/min/1.73m2)?');
    expect(blocks.at(-1)!.id).toBe('site-review');
    expect(q.criterionLinks).toContainEqual({ criterionId: egfr.id, when: { op: 'between', value: 42.75, upper: 47.25 }, then: 'review' });
    expect([30, 42.7, 42.75, 45, 47.25, 47.3, 90].map((value) => decide(q, egfr, value))).toEqual([
      'met',
      'met',
      'review',
      'review',
      'review',
      'not_met',
      'not_met',
    ]);
    // Exactly one link fires for any value.
    for (const value of [30, 42.75, 45, 47.25, 90]) expect(outcomes(q.criterionLinks, egfr.id, value)).toHaveLength(1);
    const a1c = question(blocks, 'lab-hba1c');
    expect(a1c.wording.chat.en).toBe('What was your most recent HbA1c result (%)?');
    expect(a1c.audience).toBeUndefined();
    expect([5, 6.64, 6.65, 8, 9.5, 10.5, 10.6].map((value) => decide(a1c, hba1c, value))).toEqual([
      'not_met',
      'not_met',
      'review',
      'met',
      'review',
      'review',
      'not_met',
    ]);
  });

  it('pregnancy and healthy volunteers', () => {
    const pregnant = criterion('exclusion', { type: 'pregnancy', allowed: false }, 'Pregnant or breastfeeding');
    const alsoPregnant = criterion('exclusion', { type: 'pregnancy', allowed: false }, 'Planning pregnancy');
    const patients = criterion('inclusion', { type: 'healthy_volunteers', accepted: false }, 'Healthy volunteers not accepted');
    const healthy = criterion('inclusion', { type: 'healthy_volunteers', accepted: true }, 'Healthy volunteers accepted');
    const { blocks, uncoveredCriterionIds } = generateStudyBlocks({ criteria: [pregnant, alsoPregnant, patients, healthy] });
    const preg = question(blocks, 'pregnancy');
    expect(preg.wording.chat.en).toBe('Are you currently pregnant, breastfeeding, or planning a pregnancy during the study?');
    expect(preg.wording.chat.es).toBe('¿Está embarazada, amamantando o planea un embarazo durante el estudio?');
    expect(preg.criterionLinks.map((link) => link.criterionId)).toEqual([pregnant.id, alsoPregnant.id]);
    expect([decide(preg, pregnant, true), decide(preg, pregnant, false)]).toEqual(['met', 'not_met']);
    const longTerm = question(blocks, 'long-term-conditions');
    expect([decide(longTerm, patients, true), decide(longTerm, patients, false)]).toEqual(['met', 'review']);
    // A rule that restricts nobody is asked nothing, and shown as uncovered.
    expect(uncoveredCriterionIds).toEqual([healthy.id]);
  });

  it('a criterion without a rule is a site_review item for staff, never asked of the patient as written', () => {
    const histology = criterion('inclusion', null, 'Histologically confirmed adenocarcinoma with measurable disease per RECIST 1.1');
    const { blocks } = generateStudyBlocks({ criteria: [histology] });
    const item = questions(blocks).find((entry) => entry.criterionLinks.some((link) => link.criterionId === histology.id))!;
    expect(item).toMatchObject({ type: 'yes_no', audience: 'site', source: 'criterion_text' });
    expect(item.wording.chat.en).toBe('Staff: is this criterion met? Histologically confirmed adenocarcinoma with measurable disease per RECIST 1.1');
    expect([decide(item, histology, true), decide(item, histology, false)]).toEqual(['met', 'not_met']);
    expect(
      blocks
        .filter((block) => block.id !== 'site-review')
        .flatMap((block) => block.questions)
        .every((entry) => entry.audience !== 'site'),
    ).toBe(true);
  });

  it('with textQuestions, a short criterion without a rule is asked as written, English only, marked as from criterion text', () => {
    const smokers = criterion('exclusion', null, 'Current smokers');
    const consent = criterion('inclusion', null, 'Able to give informed consent');
    const { blocks } = generateStudyBlocks({ criteria: [smokers, consent], textQuestions: true });
    const q = questions(blocks).find((item) => item.criterionLinks.some((link) => link.criterionId === smokers.id))!;
    expect(q).toMatchObject({ type: 'yes_no', source: 'criterion_text', wording: { chat: { en: 'Does this describe you? Current smokers' } } });
    expect(q.wording.chat.es).toBeUndefined();
    expect([decide(q, smokers, true), decide(q, smokers, false)]).toEqual(['met', 'not_met']);
    const c = questions(blocks).find((item) => item.criterionLinks.some((link) => link.criterionId === consent.id))!;
    expect([decide(c, consent, true), decide(c, consent, false)]).toEqual(['met', 'not_met']);
  });

  it('a rule whose criterion needs review never disqualifies on its own, and the rest of the criterion is still checked', () => {
    const mi = criterion('exclusion', { type: 'condition', condition: 'myocardial infarction', present: false }, 'MI within 6 months', true);
    const { blocks } = generateStudyBlocks({ criteria: [mi] });
    const q = question(blocks, 'condition-myocardial-infarction');
    expect([decide(q, mi, true), decide(q, mi, false)]).toEqual(['review', 'not_met']);
    const rest = questions(blocks).find((item) => item.audience === 'site' && item.criterionLinks.some((link) => link.criterionId === mi.id))!;
    expect(rest.wording.chat.en).toBe('Staff: does this criterion apply, in full? MI within 6 months');
  });

  it('asks plain-language questions in English and Spanish from concepts and time windows', () => {
    const mi = criterion(
      'exclusion',
      {
        type: 'condition',
        condition: 'a heart attack',
        present: false,
        history: true,
        within: { value: 6, unit: 'months' },
        concepts: [{ id: 'cohortly:myocardial-infarction', name: 'a heart attack', icd10: 'I21' }],
      },
      'History of myocardial infarction within the last 6 months',
    );
    const steroids = criterion(
      'exclusion',
      {
        type: 'medication',
        medication: 'steroid pills or injections (such as prednisone)',
        taking: false,
        within: { value: 4, unit: 'weeks' },
        concepts: [{ id: 'cohortly:systemic-corticosteroids', name: 'steroid pills or injections (such as prednisone)' }],
      },
      'Systemic corticosteroids within 4 weeks prior to screening',
    );
    const t2d = criterion(
      'inclusion',
      { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: 'cohortly:type-2-diabetes', name: 'type 2 diabetes' }] },
      'T2DM',
    );
    const { blocks } = generateStudyBlocks({ criteria: [mi, steroids, t2d] });
    const wordings = questions(blocks)
      .filter((item) => item.criterionLinks.length)
      .map((item) => item.wording.chat);
    expect(wordings).toEqual([
      { en: 'In the last 6 months, have you had a heart attack?', es: 'En los últimos 6 meses, ¿ha tenido un infarto (ataque al corazón)?' },
      { en: 'Have you been told by a doctor that you have type 2 diabetes?', es: '¿Un médico le ha dicho que tiene diabetes tipo 2?' },
      {
        en: 'In the last 4 weeks, have you taken or received steroid pills or injections (such as prednisone)?',
        es: 'En las últimas 4 semanas, ¿ha tomado o recibido esteroides en pastillas o inyecciones (como prednisona)?',
      },
    ]);
  });

  it('never names an English term in a Spanish question: without a Spanish name the question is marked for staff to translate (decision 223)', () => {
    const asthma = { id: 'mesh:D001249', name: 'asthma' };
    const sjogren = { id: 'mesh:D012859', name: "Sjogren's syndrome" };
    const withSpanish = criterion('inclusion', { type: 'condition', condition: 'asthma', present: true, concepts: [asthma] }, 'Asthma');
    const withoutSpanish = criterion('exclusion', { type: 'condition', condition: "Sjogren's syndrome", present: false, concepts: [sjogren] }, 'Sjogren');
    const either = criterion('exclusion', { type: 'condition', condition: 'asthma or Sjogren', present: false, concepts: [asthma, sjogren] }, 'Either');
    const { blocks } = generateStudyBlocks({ criteria: [withSpanish, withoutSpanish, either] });
    const asked = questions(blocks).filter((item) => item.criterionLinks.length);
    const spanish = asked.find((item) => item.wording.chat.en.endsWith('that you have asthma?'))!;
    expect(spanish.wording.chat.es).toBe('¿Un médico le ha dicho que tiene asma?');
    expect(spanish.needsSpanish).toBeUndefined();
    const untranslated = asked.filter((item) => item.wording.chat.en.includes('Sjogren'));
    expect(untranslated).toHaveLength(2);
    for (const item of untranslated) {
      expect(item.needsSpanish).toBe(true);
      expect([item.wording.chat.es, item.wording.phone.es]).toEqual([undefined, undefined]);
      expect(QuestionSchema.parse(item).needsSpanish).toBe(true);
    }
  });

  it('asks about a medicine ever taken when the rule says "history of use" (decision 071), apart from "taking now"', () => {
    const concepts = [{ id: 'cohortly:opioids', name: 'opioid pain medicines' }];
    const ever = criterion(
      'exclusion',
      { type: 'medication', medication: 'opioid pain medicines', taking: false, history: true, concepts },
      'Prior use of opioids',
    );
    const now = criterion('exclusion', { type: 'medication', medication: 'opioid pain medicines', taking: false, concepts }, 'Current opioid use');
    const { blocks } = generateStudyBlocks({ criteria: [ever, now] });
    const asked = questions(blocks).filter((item) => item.criterionLinks.length);
    expect(asked.map((item) => item.wording.chat.en)).toEqual([
      'Have you ever taken or received opioid pain medicines?',
      'Are you currently taking or receiving opioid pain medicines?',
    ]);
    expect(asked[0].wording.chat.es).toMatch(/^¿Alguna vez ha tomado o recibido /);
    // Ever taken excludes; never taken does not.
    expect(decide(asked[0], ever, true)).toBe('met');
    expect(decide(asked[0], ever, false)).toBe('not_met');
  });

  it('site judgement is for staff and never disqualifies; a cohort criterion never disqualifies by itself', () => {
    const consent = criterion('inclusion', { type: 'site_judgement', reason: 'consent_capacity' }, 'Able to give informed consent');
    const controls = { ...criterion('inclusion', { type: 'smoking', smoker: false }, 'Non-smoker'), population: 'Healthy controls' };
    const { blocks } = generateStudyBlocks({ criteria: [consent, controls] });
    const staff = question(blocks, 'site-consent');
    expect(staff.audience).toBe('site');
    expect([decide(staff, consent, true), decide(staff, consent, false)]).toEqual(['met', 'review']);
    const smoking = question(blocks, 'smoking');
    expect(smoking.audience).toBeUndefined();
    expect([decide(smoking, controls, false), decide(smoking, controls, true)]).toEqual(['met', 'review']);
  });

  describe('what a patient can honestly answer beside a staff check (decision 150)', () => {
    const concept = (name: string) => {
      const id = meshIdByName(name);
      if (!id) throw new Error(`no MeSH heading ${name}`);
      return { id, name: name.toLowerCase() };
    };
    const patientLinked = (blocks: ReturnType<typeof generateStudyBlocks>['blocks'], c: GeneratorCriterion) =>
      questions(blocks).filter((item) => item.audience !== 'site' && item.criterionLinks.some((link) => link.criterionId === c.id));
    const staffLinked = (blocks: ReturnType<typeof generateStudyBlocks>['blocks'], c: GeneratorCriterion) =>
      questions(blocks).filter((item) => item.audience === 'site' && item.criterionLinks.some((link) => link.criterionId === c.id));

    it('a diagnosis confirmed on imaging: the patient says whether a doctor told them, staff still check the scan', () => {
      const disc = concept('Intervertebral Disc Displacement');
      const onMri = criterion('inclusion', { type: 'condition', condition: 'a slipped disc', present: true, concepts: [disc] }, 'Disc herniation seen on MRI');
      const stenosis = concept('Spinal Stenosis');
      const onCt = criterion(
        'exclusion',
        { type: 'condition', condition: 'spinal stenosis', present: false, concepts: [stenosis] },
        'Spinal stenosis on CT scan',
      );
      const { blocks } = generateStudyBlocks({ criteria: [onMri, onCt] });
      const [asked] = patientLinked(blocks, onMri);
      expect(asked.wording.chat.en).toBe('Have you been told by a doctor that you have intervertebral disc displacement?');
      expect(staffLinked(blocks, onMri)).toHaveLength(1);
      // Told yes: staff check the scan. Never told: no scan found it.
      expect([decide(asked, onMri, true), decide(asked, onMri, false)]).toEqual(['review', 'not_met']);
      const [stenosisAsked] = patientLinked(blocks, onCt);
      expect([decide(stenosisAsked, onCt, true), decide(stenosisAsked, onCt, false)]).toEqual(['review', 'not_met']);
    });

    it('a procedure or finding named with a test is not asked as a diagnosis', () => {
      const biopsy = criterion(
        'inclusion',
        { type: 'condition', condition: 'biopsy', present: true, concepts: [concept('Biopsy')] },
        'Lesion accessible to biopsy',
      );
      const { blocks } = generateStudyBlocks({ criteria: [biopsy] });
      expect(patientLinked(blocks, biopsy)).toEqual([]);
      expect(staffLinked(blocks, biopsy)).toHaveLength(1);
    });

    it('a blood result people are given may be left unanswered and never fails anyone; a multiple of the normal range stays with staff', () => {
      const platelets = criterion('inclusion', { type: 'lab', measure: 'platelets', comparator: '>=', value: 100, unit: '10^9/L' }, 'Platelets ≥ 100 x 10^9/L');
      const alt = criterion('exclusion', { type: 'lab', measure: 'ALT', comparator: '<=', value: 3, relativeTo: 'ULN' }, 'ALT > 3 x ULN');
      const { blocks } = generateStudyBlocks({ criteria: [platelets, alt] });
      const [asked] = patientLinked(blocks, platelets);
      expect(asked).toMatchObject({ type: 'number', required: false, unit: '10^9/L' });
      expect(asked.wording.chat.en).toBe('If you know your most recent platelet count result (in 10^9/L), what was it? Leave it empty if you do not know.');
      expect([250, 103, 90, 20].map((value) => decide(asked, platelets, value))).toEqual(['met', 'review', 'review', 'review']);
      expect(staffLinked(blocks, platelets)).toHaveLength(1);
      expect(patientLinked(blocks, alt)).toEqual([]);
    });

    it('pain is rated by the person: the 0-10 rating decides like the rule', () => {
      const pain = criterion(
        'inclusion',
        { type: 'lab', measure: 'pain score', comparator: '>=', value: 4, unit: '/10' },
        'Pain score of at least 4 out of 10',
      );
      const { blocks } = generateStudyBlocks({ criteria: [pain] });
      const [asked] = patientLinked(blocks, pain);
      expect(asked.wording.chat.en).toMatch(/^On a scale from 0 \(no pain\) to 10/);
      expect([2, 7].map((value) => decide(asked, pain, value))).toEqual(['not_met', 'met']);
    });

    it('consent and visits: the person says whether they are willing; a no is talked through, a language criterion is not asked so', () => {
      const consent = criterion('inclusion', { type: 'site_judgement', reason: 'consent_capacity' }, 'Signed written informed consent');
      const visits = criterion('inclusion', { type: 'site_judgement', reason: 'protocol_compliance' }, 'Able and willing to return for follow-up visits');
      const dutch = criterion('inclusion', { type: 'site_judgement', reason: 'consent_capacity' }, 'Understanding the Dutch language');
      const judged = criterion('exclusion', { type: 'site_judgement', reason: 'investigator_judgement' }, 'Unsuitable in the opinion of the investigator');
      const { blocks } = generateStudyBlocks({ criteria: [consent, visits, dutch, judged] });
      const [willing] = patientLinked(blocks, consent);
      expect(willing.wording.chat.en).toMatch(/willing to sign a consent form/);
      expect([decide(willing, consent, true), decide(willing, consent, false)]).toEqual(['met', 'review']);
      const [follow] = patientLinked(blocks, visits);
      expect([decide(follow, visits, true), decide(follow, visits, false)]).toEqual(['met', 'review']);
      expect(patientLinked(blocks, dutch)).toEqual([]);
      expect(patientLinked(blocks, judged)).toEqual([]);
    });
  });

  it('is deterministic and gives unique ids', () => {
    const criteria = [
      criterion('inclusion', { type: 'condition', condition: 'asthma', present: true }),
      criterion('inclusion', null, 'Something'),
      criterion('exclusion', { type: 'lab', measure: 'BMI', comparator: '<=', value: 35, unit: 'kg/m2' }),
    ];
    const one = generateStudyBlocks({ criteria, siteName: 'Clinic' });
    expect(generateStudyBlocks({ criteria, siteName: 'Clinic' })).toEqual(one);
    const ids = questions(one.blocks).map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('site review items in the form editor', () => {
  it('stay staff-only when the edited blocks are saved', async () => {
    const { normalizeBlocks } = await import('../../src/web/features/prescreen-forms/format');
    const histology = criterion('inclusion', null, 'Histologically confirmed adenocarcinoma');
    const { blocks } = generateStudyBlocks({ criteria: [histology] });
    const saved = normalizeBlocks(blocks).flatMap((block) => block.questions);
    expect(saved.find((item) => item.criterionLinks.some((link) => link.criterionId === histology.id))?.audience).toBe('site');
  });
});

describe('a long technical name asked of a patient (decision 247)', () => {
  const asked = (name: string) => {
    const rule: CriterionRule = { type: 'condition', condition: name, present: true, concepts: [{ id: `test:${name}`, name }] };
    const { blocks } = generateStudyBlocks({ criteria: [criterion('inclusion', rule, name)] });
    return questions(blocks).find((item) => item.audience !== 'site')!.wording.chat.en;
  };

  it('leads with the disease it is a kind of, so the question never copies the criterion', () => {
    expect(asked('nodular lymphocyte predominant hodgkin lymphoma')).toBe(
      'Have you been told by a doctor that you have a lymphoma of the nodular lymphocyte predominant hodgkin type?',
    );
    expect(asked('juvenile onset facioscapulohumeral muscular dystrophy')).toBe(
      'Have you been told by a doctor that you have a muscular dystrophy of the juvenile onset facioscapulohumeral type?',
    );
  });

  it('keeps a short name, a list or a name with no disease word as written', () => {
    expect(asked('small cell lung cancer')).toBe('Have you been told by a doctor that you have small cell lung cancer?');
    expect(asked('chronic inflammatory demyelinating polyradiculoneuropathy')).toBe(
      'Have you been told by a doctor that you have chronic inflammatory demyelinating polyradiculoneuropathy?',
    );
    expect(asked('cancer of the head and neck region')).toBe('Have you been told by a doctor that you have cancer of the head and neck region?');
  });
});
