import { describe, expect, it } from 'vitest';
import { CriterionRuleSchema, type CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { factsFromAnswers } from '../../../src/server/features/matching/facts';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { evaluatePrescreen } from '../../../src/server/features/prescreen/engine';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { EMPTY_FIELDS, fieldsOf, ruleOf, type EditableCriterion } from '../../../src/web/features/trials/criteria-editor';
import { ruleInWords } from '../../../src/web/features/trials/format';

/**
 * Qualifiers a condition rule holds (decision 077): read from the criterion, asked in the question, decided by the
 * prescreen engine from the answer and left unknown by the matcher unless a fact says them. None of these phrasings is
 * a corpus record's.
 */
const gout = { id: 'mesh:D006073', name: 'gout' };
const severeGout = { type: 'condition', condition: 'gout', present: false, concepts: [gout], qualifiers: ['severe'] } as const satisfies CriterionRule;

describe('the contract', () => {
  it('parses rules stored before qualifiers, and only the listed qualifiers', () => {
    expect(CriterionRuleSchema.safeParse({ type: 'condition', condition: 'gout', present: true }).success).toBe(true);
    expect(CriterionRuleSchema.safeParse(severeGout).success).toBe(true);
    expect(CriterionRuleSchema.safeParse({ ...severeGout, qualifiers: ['terrible'] }).success).toBe(false);
    // A duration whose shortest is above its longest says nothing anybody can meet.
    expect(CriterionRuleSchema.safeParse({ ...severeGout, duration: { minDays: 365, maxDays: 30 } }).success).toBe(false);
    expect(ruleInWords(severeGout)).toBe('Must not have gout (severe)');
  });
});

describe('reading qualifiers', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => {
    const { rule, needsReview } = readTextRule(kind, text);
    return { qualifiers: rule?.type === 'condition' ? rule.qualifiers : undefined, needsReview };
  };

  it('severity, course and control words beside one condition', () => {
    for (const [text, qualifier] of [
      ['Severe gout', 'severe'],
      ['Moderate-to-severe rosacea', 'moderate_or_severe'],
      ['Mild or moderate eczema', 'mild_or_moderate'],
      ['Clinically significant kidney disease', 'serious'],
      ['Poorly controlled epilepsy', 'uncontrolled'],
      ['Recurrent pancreatitis', 'recurrent'],
      ['Symptomatic gallstones', 'symptomatic'],
      ['Chronic migraine', 'chronic'],
      ['Congenital scoliosis', 'congenital'],
    ] as const)
      expect(read('exclusion', text), text).toEqual({ qualifiers: [qualifier], needsReview: false });
  });

  it('the part of the spine and the side, only for spine conditions', () => {
    expect(read('inclusion', 'Thoracic disc herniation')).toEqual({ qualifiers: ['thoracic'], needsReview: false });
    expect(read('inclusion', 'Unilateral cervical radiculopathy')).toEqual({ qualifiers: ['cervical', 'one_side'], needsReview: false });
    expect(read('exclusion', 'Bilateral sciatica')).toEqual({ qualifiers: ['both_sides'], needsReview: false });
    // "Cervical" of something else is the cervix, never the neck.
    expect(read('exclusion', 'Cervical cancer').qualifiers).toBeUndefined();
    expect(read('exclusion', 'Lumbar abscess')).toMatchObject({ needsReview: true });
  });

  it('one qualifier for a plain list of conditions when it stands before them', () => {
    expect(read('exclusion', 'Severe kidney or liver disease')).toEqual({ qualifiers: ['severe'], needsReview: false });
  });

  it('precision first: what a qualifier cannot say keeps the review flag', () => {
    for (const text of [
      // A comparison or a negation of the word.
      'History of more than mild gout',
      'Non-severe asthma',
      // Two severities that no pair reads.
      'Mild or severe asthma',
      // A word after "or" may qualify one alternative only.
      'Active tuberculosis or history of recurrent pneumonia',
      // A qualifier inside one concept's words belongs to that concept alone.
      'Lumbar stenosis or cervical myelopathy',
      // A synonym naming a kind of the concept ("fusion" of spine surgery) is more than a part of the spine.
      'Prior lumbar fusion',
    ])
      expect(read('exclusion', text), text).toMatchObject({ needsReview: true });
    // "Radiculopathy caused by disc herniation" needs both, which a rule of alternatives does not say.
    expect(read('inclusion', 'Cervical radiculopathy caused by a herniated disc')).toMatchObject({ needsReview: true });
    // "Local or systemic" together is the whole concept, no qualifier.
    expect(read('exclusion', 'Any local or systemic infection')).toEqual({ qualifiers: undefined, needsReview: false });
  });

  it("marks the qualifier's words with the concept's, so the UI highlights them", () => {
    const { rule } = readTextRule('exclusion', 'Patients with severe gout');
    expect(rule?.span).toEqual({ start: 14, end: 25 });
  });
});

describe('the patient question and the prescreen engine', () => {
  const lumbarDisc = { id: 'mesh:D007405', name: 'a slipped (herniated) disc' };
  const criteria = [
    {
      id: 'c1',
      position: 0,
      kind: 'inclusion' as const,
      text: 'Lower-back disc herniation',
      rule: { type: 'condition', condition: 'a slipped (herniated) disc', present: true, concepts: [lumbarDisc], qualifiers: ['lumbar'] } as CriterionRule,
      needsReview: false,
    },
    { id: 'c2', position: 1, kind: 'exclusion' as const, text: 'Severe gout', rule: severeGout, needsReview: false },
  ];
  const { blocks } = generateStudyBlocks({ criteria });
  const asked = blocks.flatMap((block) => block.questions).filter((question) => question.criterionLinks.length);

  it('asks the qualifier in plain words, in English and Spanish', () => {
    expect(asked.map((question) => question.wording.chat.en)).toEqual([
      'Have you been told by a doctor that you have a slipped (herniated) disc in your lower back?',
      'Have you been told by a doctor that you have gout in a severe form?',
    ]);
    expect(asked[1].wording.chat.es).toMatch(/gota en forma grave\?$|gout en forma grave\?$/);
  });

  it('a qualified question and the bare one are two questions', () => {
    const both = generateStudyBlocks({
      criteria: [
        criteria[1],
        { id: 'c3', position: 2, kind: 'exclusion' as const, text: 'Gout', rule: { ...severeGout, qualifiers: undefined }, needsReview: false },
      ],
    });
    expect(both.blocks.flatMap((block) => block.questions).filter((question) => question.criterionLinks.length)).toHaveLength(2);
  });

  it('the engine decides each criterion from its own answer', () => {
    const run = (disc: boolean, severe: boolean) =>
      evaluatePrescreen({
        blocks,
        criteria: criteria.map(({ id, kind, text }) => ({ id, kind, text })),
        answers: [
          { questionId: asked[0].id, value: disc },
          { questionId: asked[1].id, value: severe },
        ],
        today: '2026-06-15',
      });
    expect(run(true, false).recommendation).toBe('PASS');
    expect(run(false, false).recommendation).toBe('FAIL');
    expect(run(true, true).recommendation).toBe('FAIL');
  });

  it('a yes is recorded with the qualifier; a no says nothing (it may be milder)', () => {
    const facts = factsFromAnswers(
      [
        { criterionId: 'c2', rule: severeGout, question: asked[1].wording.chat.en, answer: true },
        { criterionId: 'c2', rule: severeGout, question: asked[1].wording.chat.en, answer: false },
      ],
      'result-1',
      '2026-06-15',
    );
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ kind: 'condition', conceptId: gout.id, name: 'gout, severe', status: 'present' });
  });
});

describe('the matcher', () => {
  const today = new Date('2026-06-15T12:00:00Z');
  const fact = (name: string, status: MatchFact['status'], observedOn: string | null = null): MatchFact => ({
    id: `f-${name}-${status}`,
    kind: 'condition',
    conceptId: gout.id,
    name,
    status,
    value: null,
    unit: null,
    valueText: null,
    observedOn,
    source: 'fhir',
  });
  const who = (...facts: MatchFact[]): MatchPerson => ({ dateOfBirth: null, sex: 'female', facts });
  const outcome = (rule: CriterionRule, person: MatchPerson, kind: 'inclusion' | 'exclusion') =>
    evaluateCriterion({ id: 'c1', kind, rule, ruleSource: 'text', needsReview: false, population: null }, person, today);
  const wantsSevere = { ...severeGout, present: true } as const satisfies CriterionRule;

  const cases: Array<[string, CriterionRule, 'inclusion' | 'exclusion', MatchFact[], string]> = [
    ['exclusion: a bare diagnosis may be mild', severeGout, 'exclusion', [fact('gout', 'present')], 'unknown'],
    ['exclusion: a fact that says severe decides', severeGout, 'exclusion', [fact('severe gout', 'present')], 'not_met'],
    ['exclusion: no gout is no severe gout', severeGout, 'exclusion', [fact('gout', 'absent')], 'met'],
    ['exclusion: gout in the past, not "ever"', severeGout, 'exclusion', [fact('gout', 'history')], 'met'],
    ['inclusion: a bare diagnosis may not be severe', wantsSevere, 'inclusion', [fact('gout', 'present')], 'unknown'],
    ['inclusion: a prescreen yes to the qualified question', wantsSevere, 'inclusion', [fact('gout, severe', 'present')], 'met'],
    ['inclusion: no gout at all', wantsSevere, 'inclusion', [fact('gout', 'absent')], 'not_met'],
    ['inclusion: nothing on record', wantsSevere, 'inclusion', [], 'unknown'],
    [
      'exclusion with a window: gout outside it passes whatever its severity',
      { ...severeGout, within: { value: 6, unit: 'months' } },
      'exclusion',
      [fact('gout', 'history', '2020-01-01')],
      'met',
    ],
    [
      // Decision 154: present now, begun before the window: whether it counts as "in the last 6 months" is not said.
      'exclusion with a window: gout present now, begun before it, stays unknown',
      { ...severeGout, within: { value: 6, unit: 'months' } },
      'exclusion',
      [fact('gout', 'present', '2020-01-01')],
      'unknown',
    ],
    [
      'inclusion with a duration: too short fails whatever its severity',
      { ...wantsSevere, duration: { maxDays: 30 } },
      'inclusion',
      [fact('gout', 'present', '2025-01-01')],
      'not_met',
    ],
  ];
  it.each(cases)('%s', (_name, rule, kind, facts, expected) => {
    expect(outcome(rule, who(...facts), kind).outcome).toBe(expected);
  });

  it('says which qualifier is unknown', () => {
    expect(outcome(severeGout, who(fact('gout', 'present')), 'exclusion').reason).toMatch(/severe\?$/);
  });
});

describe('the criteria editor', () => {
  const editable = (fields: Partial<typeof EMPTY_FIELDS>, original: CriterionRule | null = null): EditableCriterion => ({
    key: 'k1',
    kind: 'inclusion',
    text: 'Knee osteoarthritis for at least 6 months',
    ruleType: 'condition',
    fields: { ...EMPTY_FIELDS, condition: 'knee osteoarthritis', present: 'yes', ...fields },
    ruleSource: 'text',
    needsReview: false,
    population: null,
    original,
  });

  it('shows a stored duration and qualifiers in their fields', () => {
    const fields = fieldsOf({ type: 'condition', condition: 'gout', present: true, duration: { minDays: 183, maxDays: 731 }, qualifiers: ['chronic'] });
    expect(fields).toMatchObject({ durationMin: '6', durationMinUnit: 'months', durationMax: '2', durationMaxUnit: 'years', qualifiers: ['chronic'] });
  });

  it('sets a duration and qualifiers, keeping the concepts of the same condition', () => {
    const original: CriterionRule = {
      type: 'condition',
      condition: 'knee osteoarthritis',
      present: true,
      concepts: [{ id: 'mesh:D020370', name: 'knee osteoarthritis' }],
    };
    const { rule, errors } = ruleOf(editable({ durationMin: '6', durationMinUnit: 'months', qualifiers: ['symptomatic'] }, original));
    expect(errors).toEqual({});
    expect(rule).toEqual({ ...original, duration: { minDays: 183 }, qualifiers: ['symptomatic'] });
  });

  it('refuses a duration that is not a positive number, or whose shortest is above its longest', () => {
    expect(ruleOf(editable({ durationMin: '-2' })).errors.durationMin).toMatch(/above 0/);
    expect(ruleOf(editable({ durationMax: 'soon' })).errors.durationMax).toMatch(/above 0/);
    const backwards = ruleOf(editable({ durationMin: '2', durationMinUnit: 'years', durationMax: '6', durationMaxUnit: 'months' }));
    expect(backwards.rule).toBeNull();
    expect(backwards.errors.durationMax).toBe('The shortest duration must not be above the longest');
  });
});

describe('a qualifier of another word, history-taking, a threshold that defines control', () => {
  it('a qualifier separated from the concept by an unread word qualifies that word, not the concept', () => {
    const read = readTextRule('exclusion', 'Any history of acute injury such as gout or psoriasis');
    expect(read.rule?.type === 'condition' ? read.rule.qualifiers : 'no rule').toBeUndefined();
    expect(read.needsReview).toBe(true);
  });

  it('history-taking in a list of evidence is not "ever had it"', () => {
    const { rule } = readTextRule('exclusion', 'Pneumonia as established by physical examination, history and chest X-ray');
    expect(rule).toMatchObject({ type: 'condition', present: false });
    expect(rule).not.toHaveProperty('history');
  });

  it('a threshold that defines control or a past event is not a current limit', () => {
    // Inverting "150 or less" in an exclusion of uncontrolled pressure would admit only the uncontrolled.
    expect(readTextRule('exclusion', 'Diabetes not well controlled (HbA1c 8% or less on two drugs)')).toEqual({ rule: null, needsReview: true });
    expect(readTextRule('exclusion', 'History of a hepatitis flare in the past 3 months (ALT > 5 x ULN)')).toEqual({ rule: null, needsReview: true });
    // A threshold that defines what is excluded still reads, inverted.
    expect(readTextRule('exclusion', 'Poorly controlled hypertension (diastolic BP > 105 mmHg)').rule).toMatchObject({
      type: 'lab',
      comparator: '<=',
      value: 105,
    });
  });
});

describe('a qualifier before a list, a window of another concept, "systemic therapy", attributed events', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('a qualifier before a list of whole names is not distributed over them', () => {
    const { rule, needsReview } = read('exclusion', 'Comorbidities including severe lung disease, heart disease, diabetes');
    expect(rule?.type === 'condition' ? rule.qualifiers : 'no rule').toBeUndefined();
    expect(needsReview).toBe(true);
  });

  it("a window after a concept of another kind is not the first concept's", () => {
    const { rule } = read('inclusion', 'Diagnosed with lupus before consent and no steroids within 8 weeks before consent');
    expect(rule).toMatchObject({ type: 'condition', present: true });
    expect(rule).not.toHaveProperty('within');
  });

  it('"systemic therapy" is not cancer treatment, and a negation further back still negates', () => {
    expect(read('exclusion', 'Currently treated with oral or systemic therapy for psoriasis').rule).not.toMatchObject({ medication: 'cancer treatment' });
    // "Must not have received prior ... therapy for X" never becomes "must be taking medicines for X".
    expect(read('inclusion', 'Must not have received any prior treatment for multiple myeloma')).toEqual({ rule: null, needsReview: true });
  });

  it("what is attributed to a therapy, a product put into a wound, a scale named after a condition, a subgroup's requirement", () => {
    expect(read('exclusion', 'Grade 3 colitis attributed to previous checkpoint inhibitor therapy').rule).not.toMatchObject({ type: 'medication' });
    expect(read('exclusion', 'Implantation of antibiotic beads into the surgical wound').rule).toBeNull();
    // "Beck Depression Inventory < 10" asks for a low score, not for depression.
    expect(read('inclusion', 'Beck Depression Inventory score < 10').rule).toBeNull();
    expect(read('inclusion', 'Participants with asthma must use a stable inhaler dose').rule).toBeNull();
  });

  it('a guardian who helps with the visits is not a consent check', () => {
    expect(read('inclusion', 'A legal guardian must be available to accompany the child to each visit').rule).not.toMatchObject({ reason: 'consent_capacity' });
  });
});

describe('"non-" words, one of two measures, a change in a value, smoking history', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);

  it('a "non-" word is not its concept', () => {
    expect(JSON.stringify(read('inclusion', 'Arthritis for under 5 years since the first non-psoriasis symptom').rule)).not.toMatch(/psoriasis/);
    expect(read('inclusion', 'Non-diabetic adults').rule).toMatchObject({ type: 'condition', present: false });
  });

  it('one of two measures an inclusion offers is not required; a change in a value is not the value', () => {
    expect(read('inclusion', 'Either DAS28 > 3.2 or CDAI > 10')).toEqual({ rule: null, needsReview: true });
    expect(read('exclusion', 'Weight loss of more than 10 kg in the past 3 months')).toEqual({ rule: null, needsReview: true });
    expect(read('exclusion', 'Body weight > 150 kg').rule).toMatchObject({ measure: 'weight', comparator: '<=', value: 150 });
  });

  it('a smoking history is not smoking now; fluid around the heart is not pericarditis', () => {
    expect(read('inclusion', 'A smoking history of at least 10 pack-years')).toEqual({ rule: null, needsReview: true });
    expect(read('exclusion', 'Large pericardial effusion').rule).not.toMatchObject({ condition: 'pericarditis' });
  });
});

describe('the name as an adjective, a place after a part of the spine, a short form restated (decision 184)', () => {
  const read = (kind: 'inclusion' | 'exclusion', text: string) => {
    const { rule, needsReview } = readTextRule(kind, text);
    return { qualifiers: rule?.type === 'condition' ? rule.qualifiers : undefined, needsReview };
  };

  it('reads the severity beside the adjective of a condition', () => {
    expect(read('exclusion', 'Patients who are morbidly obese')).toEqual({ qualifiers: ['severe'], needsReview: false });
    // A plural MeSH term is a term of its own, narrower than its words: "recurrent infections" keeps its review.
    expect(read('exclusion', 'Active infection now or a history of recurrent infections').needsReview).toBe(true);
  });

  it('"the lumbar region", "the cervical level" say the part of the spine and no more', () => {
    expect(read('exclusion', 'Had spine surgery at the cervical level')).toEqual({ qualifiers: ['cervical'], needsReview: false });
    expect(read('exclusion', 'Fracture of the spine in the thoracic area')).toEqual({ qualifiers: ['thoracic'], needsReview: false });
    // A curvature of the spine is a spine concept too.
    expect(read('exclusion', 'Cervical kyphosis')).toEqual({ qualifiers: ['cervical'], needsReview: false });
  });

  it('a short form right after its condition restates it, even in an inclusion', () => {
    expect(read('inclusion', 'Low back pain (LBP) lasting at least 12 weeks').needsReview).toBe(false);
    expect(read('inclusion', 'Herniated lumbar disc (HLD)')).toEqual({ qualifiers: ['lumbar'], needsReview: false });
    expect(read('inclusion', 'Lumbar disc herniation (LDH)')).toEqual({ qualifiers: ['lumbar'], needsReview: false });
    // A gloss in brackets that names another concept is still set aside for a person.
    expect(read('inclusion', 'Back pain (sciatica)').needsReview).toBe(true);
  });
});

describe('"clinically-significant" with a hyphen (decision 240)', () => {
  it('is the serious qualifier, as without one', () => {
    expect(readTextRule('exclusion', 'Clinically-significant heart valve disease')).toMatchObject({
      rule: { type: 'condition', qualifiers: ['serious'] },
      needsReview: false,
    });
    expect(readTextRule('exclusion', 'Non-significant heart valve disease').needsReview).toBe(true);
  });
});

describe('a qualifier before a list that shares its head noun (decision 240)', () => {
  it('"uncontrolled fungal, viral or bacterial infection" holds the qualifier for every kind', () => {
    expect(readTextRule('exclusion', 'Uncontrolled fungal, viral or bacterial infection')).toMatchObject({
      rule: { type: 'condition', qualifiers: ['uncontrolled'] },
      needsReview: false,
    });
    // A whole name first ("asthma") does not share the head: the qualifier may be the second item's alone.
    expect(readTextRule('exclusion', 'Uncontrolled asthma or bacterial infection').needsReview).toBe(true);
  });
});

describe('"active or latent" (decision 240)', () => {
  it('names every form of an infection; latent alone is its own heading', () => {
    expect(readTextRule('exclusion', 'Evidence of active or latent tuberculosis')).toMatchObject({
      rule: { type: 'condition', condition: 'tuberculosis (TB)' },
      needsReview: false,
    });
    // MeSH's Latent Tuberculosis (decision 346), as its short form is: no longer every tuberculosis, in review.
    for (const text of ['Evidence of latent tuberculosis', 'Untreated LTBI'])
      expect(readTextRule('exclusion', text).rule, text).toMatchObject({ type: 'condition', condition: 'latent tuberculosis' });
    expect(readTextRule('exclusion', 'Evidence of latent tuberculosis').needsReview).toBe(false);
  });
});
