import type { CriterionLink, CriterionOutcome, LocalizedText, Question, StudyBlock } from '../../../contract/prescreen-forms';
import {
  durationWords,
  qualifierPhrase,
  type ConceptRef,
  type ConditionDuration,
  type CriterionKind,
  type CriterionRule,
  type TimeWindow,
} from '../../../contract/trials';
import { ALLERGY_PREFIX, spanishName } from '../trials/vocabulary';
import { kindFirst } from './long-names';
import { patientSide } from './patient-side';
import type { BlockKey, Eligibility, EligibilityLink, GeneratorCriterion, Template } from './types';

export type { GeneratorCriterion } from './types';

/**
 * The deterministic, offline study-block generator (docs/decisions/007-prescreen-forms.md).
 *
 * A trial criterion's rule states what an ELIGIBLE person satisfies, whatever its kind. Each rule is turned
 * into links in eligibility terms ('eligible' | 'ineligible' | 'review'), then into the criterion's own terms:
 * for an inclusion eligible -> met, ineligible -> not_met; for an exclusion eligible -> not_met (it does not
 * apply), ineligible -> met (it applies). When the criterion says more than its rule (`needsReview`), the
 * disqualifying outcome becomes 'review': nobody is failed on a rule a reader was unsure of.
 *
 * Links of one criterion on one question are written so that at most one fires for any answer, except the
 * two age bounds, where the later (upper-bound) link is also the disqualifying one: an engine that lets
 * "the disqualifying outcome win" or "the last firing link win" reads them alike.
 */

export interface GeneratorInput {
  criteria: GeneratorCriterion[];
  /** The first site's name, for the travel question. */
  siteName?: string | null;
  /** Ask short criteria without a rule of the patient as written ("Does this describe you? ..."); default: staff review them. */
  textQuestions?: boolean;
}

export interface GeneratorOutput {
  blocks: StudyBlock[];
  uncoveredCriterionIds: string[];
}

const BLOCKS: Array<{ key: BlockKey; id: string; title: LocalizedText }> = [
  { key: 'about', id: 'about-you', title: { en: 'About you', es: 'Sobre usted' } },
  { key: 'medical', id: 'medical-history', title: { en: 'Medical history', es: 'Historial médico' } },
  { key: 'medications', id: 'medications', title: { en: 'Medications', es: 'Medicamentos' } },
  { key: 'logistics', id: 'logistics', title: { en: 'Logistics', es: 'Logística' } },
  { key: 'site', id: 'site-review', title: { en: 'Site review (staff only)', es: 'Revisión del centro (solo personal)' } },
];

/** Measures a patient may know from their own records; the others are for staff (site_review). */
const PATIENT_MEASURES = new Set([
  'bmi',
  'hba1c',
  'weight',
  'height',
  'systolic blood pressure',
  'diastolic blood pressure',
  'heart rate',
  'ldl-c',
  'triglycerides',
  'fasting glucose',
]);
/** Words of a criterion only a clinician can answer: findings on imaging, histology, staging, lab results. */
const CLINICIAN_ONLY =
  /\b(?:histolog\w*|cytolog\w*|patholog\w*|biops\w*|mri|ct scan|imaging|radiograph\w*|x-ray|ultrasound|echocardiogra\w*|ecg|ekg|electrocardiogra\w*|measurable|recist|staging|tnm|mutation|positive for|expression|pd-l1|her2|kras|braf|biomarker|lesions?|refractory|line of therapy|lines of therapy|nyha|child-pugh|spirometr\w*|culture|pcr|serolog\w*|laborator\w*|uln|upper limit of normal|score|grade|classification|qtc|ejection fraction|investigator|protocol|randomi[sz]\w*|dosing|study drug|study intervention|study treatment|screening visit|per the|as defined)\b/i;
const WORDS = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Values within this fraction of a lab threshold are borderline: a person judges them. */
export const BORDERLINE_FRACTION = 0.05;

const round = (value: number) => Math.round(value * 10_000) / 10_000;
const normalize = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'item';

const same = (en: string, es?: string) => ({ phone: { en, es }, chat: { en, es } });

const UNIT_ES: Record<string, string> = { days: 'días', weeks: 'semanas', months: 'meses', years: 'años' };
const windowEn = (within: TimeWindow) => `${within.value} ${within.value === 1 ? within.unit.replace(/s$/, '') : within.unit}`;
const windowEs = (within: TimeWindow) =>
  `${within.value} ${within.value === 1 ? { days: 'día', weeks: 'semana', months: 'mes', years: 'año' }[within.unit] : UNIT_ES[within.unit]}`;
/** "En los últimos 6 meses" / "En las últimas 4 semanas" (semana is feminine). */
const inTheLastEs = (within: TimeWindow) => (within.unit === 'weeks' ? `En las últimas ${windowEs(within)}` : `En los últimos ${windowEs(within)}`);

/** "for at least 3 months", "for less than 6 weeks", "for at least 6 weeks but no longer than 1 year" (English and Spanish). */
function durationPhrase(duration: ConditionDuration): { en: string; es: string } {
  const min = duration.minDays ? durationWords(duration.minDays) : null;
  const max = duration.maxDays ? durationWords(duration.maxDays) : null;
  if (min && max) return { en: `for at least ${min.en} but no longer than ${max.en}`, es: `durante al menos ${min.es} pero no más de ${max.es}` };
  if (min) return { en: `for at least ${min.en}`, es: `durante al menos ${min.es}` };
  return { en: `for less than ${max!.en}`, es: `durante menos de ${max!.es}` };
}

/** "A, B or C" / "A, B o C". */
const join = (items: string[], or: string) => (items.length <= 1 ? items[0] : `${items.slice(0, -1).join(', ')} ${or} ${items.at(-1)}`);

/**
 * The plain names of a rule's concepts, English and Spanish. The Spanish is null where the vocabulary has no Spanish
 * name for one of them (or the rule names no concept): a Spanish question never names an English term (decision 223).
 */
function names(rule: Extract<CriterionRule, { type: 'condition' | 'medication' }>): Names {
  const fallback = rule.type === 'condition' ? rule.condition : rule.medication;
  const concepts = rule.concepts ?? [];
  if (!concepts.length) return { en: fallback.trim(), es: null };
  const known = [...concepts, ...(rule.except ?? [])].every((concept) => spanishName(concept.id) !== null);
  const both = bilingualNames(rule, concepts);
  return known ? both : { en: both.en, es: null };
}

/** English and Spanish names (Spanish built with English where a name is missing; names() keeps it only when none is). */
function bilingualNames(rule: Extract<CriterionRule, { type: 'condition' | 'medication' }>, concepts: ConceptRef[]): { en: string; es: string } {
  // Allergies to several named medicines: "an allergy to X or Y", not "an allergy to X or an allergy to Y".
  const allergies = concepts.filter((concept) => concept.id.startsWith(ALLERGY_PREFIX));
  if (rule.type === 'condition' && allergies.length > 1) {
    const others = concepts.filter((concept) => !allergies.includes(concept));
    // Several medicines are named without their examples ("numbing medicines or opioid pain medicines"), to stay short.
    const medicine = (concept: ConceptRef) => concept.name.replace(/^an allergy to /, '').replace(/\s*\(such as [^)]*\)/g, '');
    return {
      en: join([`an allergy to ${join(allergies.map(medicine), 'or')}`, ...others.map((concept) => concept.name)], 'or'),
      es: join(
        [
          `una alergia a ${join(
            allergies.map((concept) => (spanishName(concept.id.slice(ALLERGY_PREFIX.length)) ?? medicine(concept)).replace(/\s*\(como [^)]*\)/g, '')),
            'o',
          )}`,
          ...others.map((concept) => spanishName(concept.id) ?? concept.name),
        ],
        'o',
      ),
    };
  }
  const en =
    rule.type === 'medication' && rule.medication.startsWith('medicines for ')
      ? rule.medication
      : join(
          concepts.map((concept) => concept.name),
          'or',
        );
  const es =
    rule.type === 'medication' && rule.medication.startsWith('medicines for ')
      ? `medicamentos para ${join(
          concepts.map((concept) => spanishName(concept.id) ?? concept.name),
          'o',
        )}`
      : join(
          concepts.map((concept) => spanishName(concept.id) ?? concept.name),
          'o',
        );
  return withException(rule, { en, es });
}

/** A rule's names: the Spanish one null where a term has no Spanish name (names()). */
type Names = { en: string; es: string | null };
/** The Spanish sentence around the rule's Spanish name, or null when it has none. */
const spanish = (name: Names, sentence: (es: string) => string) => (name.es === null ? null : sentence(name.es));

/** "Lung disease other than asthma": what the rule excepts is part of the question (decision 202). */
function withException(rule: Extract<CriterionRule, { type: 'condition' | 'medication' }>, name: { en: string; es: string }): { en: string; es: string } {
  const except = rule.except ?? [];
  const excepted = except.length
    ? {
        en: `${name.en} other than ${join(
          except.map((concept) => concept.name),
          'or',
        )}`,
        es: `${name.es} aparte de ${join(
          except.map((concept) => spanishName(concept.id) ?? concept.name),
          'o',
        )}`,
      }
    : name;
  // "Another cancer" (decision 305): not the one the study is for.
  if (rule.type !== 'condition' || !rule.otherThanTrialCondition) return excepted;
  return { en: `${excepted.en} (not the one this study is for)`, es: `${excepted.es} (no la que estudia este ensayo)` };
}

/** The key part that keeps "cancer" and "cancer other than skin cancer" two questions. */
const exceptKey = (rule: Extract<CriterionRule, { type: 'condition' | 'medication' }>) =>
  (rule.except?.length ? `:except=${rule.except.map((concept) => concept.id).join('+')}` : '') +
  (rule.type === 'condition' && rule.otherThanTrialCondition ? ':other' : '');

/** A yes/no question; without Spanish wording (a term with no Spanish name) a patient question is marked for staff to translate. */
const yesNo = (block: BlockKey, idBase: string, en: string, es: string | null, audience?: 'site'): Template => ({
  block,
  idBase,
  question: {
    type: 'yes_no',
    wording: es === null ? { phone: { en }, chat: { en } } : same(en, es),
    required: true,
    source: 'rule',
    ...(audience ? { audience } : {}),
    ...(es === null && !audience ? { needsSpanish: true as const } : {}),
  },
});

const SITE_JUDGEMENT: Record<string, { idBase: string; en: string; es: string }> = {
  consent_capacity: {
    idBase: 'site-consent',
    en: 'Staff: can the person give informed consent (or a legal representative for them)?',
    es: 'Personal: ¿puede la persona dar su consentimiento informado (o un representante legal)?',
  },
  investigator_judgement: {
    idBase: 'site-investigator',
    en: 'Staff: does the investigator consider the person suitable for this study?',
    es: 'Personal: ¿considera el investigador que la persona es apta para este estudio?',
  },
  protocol_compliance: {
    idBase: 'site-compliance',
    en: 'Staff: is the person willing and able to follow the study visits and procedures?',
    es: 'Personal: ¿puede y quiere la persona seguir las visitas y procedimientos del estudio?',
  },
  protocol: {
    idBase: 'site-protocol',
    en: 'Staff: does the person meet the other criteria of the full protocol?',
    es: 'Personal: ¿cumple la persona los demás criterios del protocolo completo?',
  },
};

/** A rule's question, and the key that rules asking the same thing share. */
type RuleTemplate = { key: string; template: Template };
/** A rule template from its key and its question, asked in a block under an id built from `idBase`. */
const asks = (key: string, block: BlockKey, idBase: string, question: Template['question']): RuleTemplate => ({ key, template: { block, idBase, question } });
type RuleOf<T extends CriterionRule['type']> = Extract<CriterionRule, { type: T }>;

/** A condition: asked of the person (ever, lately, for how long), or of staff when only a clinician can tell. */
function conditionTemplate(rule: RuleOf<'condition'>, criterion?: GeneratorCriterion): RuleTemplate | null {
  // "Severe", "lumbar", "on both sides" are part of what is asked (decision 077): "a slipped disc in your lower back".
  const qualified = qualifierPhrase(rule.qualifiers);
  const bare = names(rule);
  // "Primary cutaneous anaplastic large cell lymphoma": a long name leads with the disease it is a kind of (decision 247).
  const name: Names = qualified
    ? { en: `${bare.en} ${qualified.en}`, es: bare.es === null ? null : `${bare.es} ${qualified.es}` }
    : { ...bare, en: kindFirst(bare.en) };
  const site = Boolean(criterion && CLINICIAN_ONLY.test(criterion.text));
  const window = rule.within ? `:${rule.within.value}${rule.within.unit}` : '';
  // A duration is part of what is asked: "for at least 3 months" and "for less than 6 weeks" are different questions.
  const lasting = rule.duration && (rule.duration.minDays || rule.duration.maxDays) ? durationPhrase(rule.duration) : null;
  const durationKey = lasting ? `:${rule.duration?.minDays ?? ''}-${rule.duration?.maxDays ?? ''}d` : '';
  const qualifierKey = rule.qualifiers?.length ? `:${[...rule.qualifiers].sort().join('+')}` : '';
  const conceptKey =
    (rule.concepts?.map((concept) => concept.id).join('+') || normalize(rule.condition)) +
    window +
    durationKey +
    qualifierKey +
    exceptKey(rule) +
    (rule.history ? ':ever' : '');
  if (site) {
    return {
      key: `site-condition:${conceptKey}`,
      template: yesNo(
        'site',
        `site-condition-${slug(name.en)}`,
        `Staff: does the person have ${name.en}${rule.within ? ` (in the last ${windowEn(rule.within)})` : ''}${lasting ? ` (${lasting.en})` : ''}, as the criterion defines it?`,
        spanish(
          name,
          (es) =>
            `Personal: ¿tiene la persona ${es}${rule.within ? ` (${inTheLastEs(rule.within).toLowerCase()})` : ''}${lasting ? ` (${lasting.es})` : ''}, según el criterio?`,
        ),
        'site',
      ),
    };
  }
  // A maximum alone asks when it began: "for less than 6 weeks" would read as "yes" to someone who never had it.
  const onlyMax = rule.duration?.maxDays && !rule.duration.minDays ? durationWords(rule.duration.maxDays) : null;
  const [en, es] = onlyMax
    ? [`Did you first have ${name.en} less than ${onlyMax.en} ago?`, (n: string) => `¿Tuvo ${n} por primera vez hace menos de ${onlyMax.es}?`]
    : lasting
      ? [`Have you had ${name.en} ${lasting.en}?`, (n: string) => `¿Ha tenido ${n} ${lasting.es}?`]
      : rule.within
        ? [`In the last ${windowEn(rule.within)}, have you had ${name.en}?`, (n: string) => `${inTheLastEs(rule.within!)}, ¿ha tenido ${n}?`]
        : rule.history
          ? [`Have you ever had ${name.en}?`, (n: string) => `¿Alguna vez ha tenido ${n}?`]
          : [`Have you been told by a doctor that you have ${name.en}?`, (n: string) => `¿Un médico le ha dicho que tiene ${n}?`];
  return {
    key: `condition:${conceptKey}`,
    template: yesNo('medical', `condition-${slug(rule.concepts?.[0]?.name ?? rule.condition)}`, en, spanish(name, es)),
  };
}

/** A lab value: the person's own number when they would know it, else staff enter it. */
function labTemplate(rule: RuleOf<'lab'>): RuleTemplate | null {
  const unit = rule.unit?.trim();
  const measure = rule.measure.trim();
  if (rule.relativeTo || !PATIENT_MEASURES.has(measure.toLowerCase())) {
    // A patient would not know it: staff enter the value (a multiple of the ULN/LLN for relative rules).
    const scale = rule.relativeTo ? ` (times the ${rule.relativeTo})` : unit ? ` (${unit})` : '';
    return asks(
      `site-lab:${normalize(measure)}:${rule.relativeTo ?? unit ?? ''}`,
      'site',
      `site-lab-${slug(measure)}${rule.relativeTo ? `-${rule.relativeTo.toLowerCase()}` : ''}`,
      {
        type: 'number',
        wording: same(`Staff: most recent ${measure}${scale}?`, `Personal: ¿último valor de ${measure}${scale}?`),
        ...(rule.relativeTo ? { unit: `x ${rule.relativeTo}` } : unit ? { unit } : {}),
        required: false,
        source: 'rule',
        audience: 'site',
      },
    );
  }
  return asks(`lab:${normalize(measure)}`, 'medical', `lab-${slug(measure)}`, {
    type: 'number',
    wording: {
      phone: {
        en: `What was your most recent ${measure} result${unit ? `, in ${unit}` : ''}? If you are not sure, just say so.`,
        es: `¿Cuál fue su resultado más reciente de ${measure}${unit ? `, en ${unit}` : ''}? Si no está seguro, dígamelo.`,
      },
      chat: {
        en: `What was your most recent ${measure} result${unit ? ` (${unit})` : ''}?`,
        es: `¿Cuál fue su resultado más reciente de ${measure}${unit ? ` (${unit})` : ''}?`,
      },
    },
    ...(unit ? { unit } : {}),
    required: true,
    source: 'rule',
  });
}

/** The question each kind of rule asks (one entry per rule type, so a new type is a type error until it has one). */
const TEMPLATES: { [T in CriterionRule['type']]: (rule: RuleOf<T>, criterion?: GeneratorCriterion) => RuleTemplate | null } = {
  age: (rule) => {
    if (rule.minYears == null && rule.maxYears == null) return null;
    return asks('age', 'about', 'date-of-birth', {
      type: 'date',
      wording: {
        phone: { en: 'Could you tell me your date of birth?', es: '¿Me podría decir su fecha de nacimiento?' },
        chat: { en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' },
      },
      required: true,
      source: 'rule',
    });
  },
  sex: (rule) => {
    if (rule.sex === 'all') return null;
    return asks('sex', 'about', 'sex', {
      type: 'single_choice',
      wording: {
        phone: { en: 'What sex were you assigned at birth: female, male, or other?', es: '¿Qué sexo se le asignó al nacer: femenino, masculino u otro?' },
        chat: { en: 'What sex were you assigned at birth?', es: '¿Qué sexo se le asignó al nacer?' },
      },
      options: [
        { value: 'female', label: { en: 'Female', es: 'Femenino' } },
        { value: 'male', label: { en: 'Male', es: 'Masculino' } },
        { value: 'other', label: { en: 'Other', es: 'Otro' } },
      ],
      required: true,
      source: 'rule',
    });
  },
  condition: conditionTemplate,
  medication: (rule) => {
    const name = names(rule);
    const window = rule.within ? `:${rule.within.value}${rule.within.unit}` : '';
    const conceptKey =
      (rule.concepts?.map((concept) => concept.id).join('+') || normalize(rule.medication)) + window + exceptKey(rule) + (rule.history ? ':ever' : '');
    const [en, es] = rule.within
      ? [
          `In the last ${windowEn(rule.within)}, have you taken or received ${name.en}?`,
          (n: string) => `${inTheLastEs(rule.within!)}, ¿ha tomado o recibido ${n}?`,
        ]
      : rule.history
        ? [`Have you ever taken or received ${name.en}?`, (n: string) => `¿Alguna vez ha tomado o recibido ${n}?`]
        : rule.concepts?.length
          ? [`Are you currently taking or receiving ${name.en}?`, (n: string) => `¿Está tomando o recibiendo ${n} actualmente?`]
          : [`Are you currently taking ${name.en}?`, (n: string) => `¿Está tomando ${n} actualmente?`];
    return {
      key: `medication:${conceptKey}`,
      template: yesNo('medications', `medication-${slug(rule.concepts?.[0]?.name ?? rule.medication)}`, en, spanish(name, es)),
    };
  },
  lab: labTemplate,
  pregnancy: (rule) => {
    if (rule.allowed) return null;
    return {
      key: 'pregnancy',
      template: yesNo(
        'medical',
        'pregnancy',
        'Are you currently pregnant, breastfeeding, or planning a pregnancy during the study?',
        '¿Está embarazada, amamantando o planea un embarazo durante el estudio?',
      ),
    };
  },
  contraception: (rule) => {
    if (!rule.required) return null;
    return {
      key: 'contraception',
      template: yesNo(
        'medical',
        'contraception',
        'If you or your partner could get pregnant, will you use birth control during the study?',
        'Si usted o su pareja pudieran quedar embarazados, ¿usará anticonceptivos durante el estudio?',
      ),
    };
  },
  smoking: () => {
    return {
      key: 'smoking',
      template: yesNo(
        'medical',
        'smoking',
        'Do you currently smoke or use tobacco or nicotine products?',
        '¿Fuma actualmente o usa productos de tabaco o nicotina?',
      ),
    };
  },
  performance_status: (rule) => {
    return asks(`performance:${rule.scale}`, 'site', `site-${rule.scale.toLowerCase()}`, {
      type: 'number',
      wording: same(`Staff: ${rule.scale} performance status?`, `Personal: ¿estado funcional ${rule.scale}?`),
      required: false,
      source: 'rule',
      audience: 'site',
    });
  },
  site_judgement: (rule) => {
    // A permission asks nothing of anyone (decision 333).
    if (rule.reason === 'permission') return null;
    const item = SITE_JUDGEMENT[rule.reason] ?? SITE_JUDGEMENT.protocol;
    return { key: `site:${rule.reason}`, template: yesNo('site', item.idBase, item.en, item.es, 'site') };
  },
  healthy_volunteers: (rule) => {
    if (rule.accepted) return null;
    return asks('healthy_volunteers', 'medical', 'long-term-conditions', {
      type: 'yes_no',
      wording: same('Do you have any long-term medical conditions?', '¿Tiene alguna enfermedad crónica o de larga duración?'),
      required: true,
      source: 'rule',
    });
  },
};

/** The one question that asks what a rule needs, keyed so that rules asking the same thing share it. */
function templateFor(rule: CriterionRule, criterion?: GeneratorCriterion): RuleTemplate | null {
  return (TEMPLATES[rule.type] as (rule: CriterionRule, criterion?: GeneratorCriterion) => RuleTemplate | null)(rule, criterion);
}

/** The links of a rule, in eligibility terms. */
export function eligibilityLinks(rule: CriterionRule): EligibilityLink[] {
  switch (rule.type) {
    case 'age': {
      const links: EligibilityLink[] = [];
      const min = rule.minYears == null ? null : Math.ceil(rule.minYears);
      // Whole years: "at most 65" is "younger than 66".
      const over = rule.maxYears == null ? null : Math.floor(rule.maxYears) + 1;
      if (min !== null) links.push({ when: { op: 'age_gte', value: min }, then: 'eligible', otherwise: 'ineligible' });
      if (over !== null)
        links.push(
          min === null
            ? { when: { op: 'age_gte', value: over }, then: 'ineligible', otherwise: 'eligible' }
            : { when: { op: 'age_gte', value: over }, then: 'ineligible' },
        );
      return links;
    }
    case 'sex':
      return rule.sex === 'all' ? [] : [{ when: { op: 'in', values: [rule.sex] }, then: 'eligible', otherwise: 'ineligible' }];
    case 'condition':
      return [{ when: { op: 'is_yes' }, then: rule.present ? 'eligible' : 'ineligible', otherwise: rule.present ? 'ineligible' : 'eligible' }];
    case 'medication':
      return [{ when: { op: 'is_yes' }, then: rule.taking ? 'eligible' : 'ineligible', otherwise: rule.taking ? 'ineligible' : 'eligible' }];
    case 'pregnancy':
      return rule.allowed ? [] : [{ when: { op: 'is_yes' }, then: 'ineligible', otherwise: 'eligible' }];
    case 'healthy_volunteers':
      // Not accepting healthy volunteers: a long-term condition fits; none at all needs a person (acute illness).
      return rule.accepted ? [] : [{ when: { op: 'is_yes' }, then: 'eligible', otherwise: 'review' }];
    case 'lab':
      return labLinks(rule);
    case 'contraception':
      return rule.required ? [{ when: { op: 'is_yes' }, then: 'eligible', otherwise: 'ineligible' }] : [];
    case 'smoking':
      return [{ when: { op: 'is_yes' }, then: rule.smoker ? 'eligible' : 'ineligible', otherwise: rule.smoker ? 'ineligible' : 'eligible' }];
    case 'performance_status': {
      const links: EligibilityLink[] = [];
      if (rule.min != null) links.push({ when: { op: 'lt', value: rule.min }, then: 'ineligible' });
      if (rule.max != null) links.push({ when: { op: 'gt', value: rule.max }, then: 'ineligible' });
      links.push({ when: { op: 'between', value: rule.min ?? 0, upper: rule.max ?? 100 }, then: 'eligible' });
      return links;
    }
    case 'site_judgement':
      // Staff say yes (suitable, can consent...): eligible; no: a person reviews it, never a failure by itself.
      return [{ when: { op: 'is_yes' }, then: 'eligible', otherwise: 'review' }];
  }
}

const band = (value: number): [number, number] => {
  const margin = Math.abs(value) * BORDERLINE_FRACTION;
  return [round(value - margin), round(value + margin)];
};

/** Below the band, in it ('review'), above it: exactly one link fires for any number. */
function labLinks(rule: Extract<CriterionRule, { type: 'lab' }>): EligibilityLink[] {
  const [low, high] = band(rule.value);
  const review: EligibilityLink = { when: { op: 'between', value: low, upper: high }, then: 'review' };
  switch (rule.comparator) {
    case '>':
    case '>=':
      return [{ when: { op: 'lt', value: low }, then: 'ineligible' }, { when: { op: 'gt', value: high }, then: 'eligible' }, review];
    case '<':
    case '<=':
      return [{ when: { op: 'lt', value: low }, then: 'eligible' }, { when: { op: 'gt', value: high }, then: 'ineligible' }, review];
    case '=':
      return [{ when: { op: 'lt', value: low }, then: 'ineligible' }, { when: { op: 'gt', value: high }, then: 'ineligible' }, review];
    case 'between': {
      const upper = rule.upperValue ?? rule.value;
      const [upperLow, upperHigh] = band(upper);
      const links: EligibilityLink[] = [
        { when: { op: 'lt', value: low }, then: 'ineligible' },
        { when: { op: 'gt', value: upperHigh }, then: 'ineligible' },
      ];
      if (high < upperLow) links.push({ when: { op: 'between', value: high, upper: upperLow }, then: 'eligible' });
      // Review bands last: on a band's exact edge they follow the decisive link.
      links.push(review, { when: { op: 'between', value: upperLow, upper: upperHigh }, then: 'review' });
      return links;
    }
  }
}

/** An eligibility outcome in the criterion's terms. */
export function toCriterionOutcome(kind: CriterionKind, outcome: Eligibility, needsReview: boolean): CriterionOutcome {
  if (outcome === 'review') return 'review';
  const disqualifying = outcome === 'ineligible';
  if (disqualifying && needsReview) return 'review';
  if (kind === 'inclusion') return outcome === 'eligible' ? 'met' : 'not_met';
  return outcome === 'eligible' ? 'not_met' : 'met';
}

function criterionLinks(criterion: GeneratorCriterion, rule: CriterionRule, links = eligibilityLinks(rule)): CriterionLink[] {
  // A cohort's criterion (population) is as unsure as a rule needing review: it never fails someone by itself.
  const unsure = criterion.needsReview || Boolean(criterion.population);
  return links.map((link) => ({
    criterionId: criterion.id,
    when: link.when,
    then: toCriterionOutcome(criterion.kind, link.then, unsure),
    ...(link.otherwise ? { otherwise: toCriterionOutcome(criterion.kind, link.otherwise, unsure) } : {}),
  }));
}

/**
 * A criterion's text for staff: a site_review item. Used for criteria only a clinician can answer, criteria
 * without a rule, and the part of a criterion its rule did not cover (its rule needs review). Staff answer
 * whether the criterion is met (for an exclusion: applies).
 */
function siteReviewItem(criterion: GeneratorCriterion, id: string, rest: boolean): Question {
  const text = criterion.text.replace(/\s+/g, ' ').trim();
  const ask = criterion.kind === 'inclusion' ? 'is this criterion met' : 'does this criterion apply';
  const pregunta = criterion.kind === 'inclusion' ? '¿se cumple este criterio' : '¿aplica este criterio';
  const en = rest ? `Staff: ${ask}, in full? ${text}` : `Staff: ${ask}? ${text}`;
  const es = rest ? `Personal: ${pregunta} por completo? ${text}` : `Personal: ${pregunta}? ${text}`;
  return {
    id,
    type: 'yes_no',
    wording: same(en, es),
    required: false,
    source: 'criterion_text',
    audience: 'site',
    criterionLinks: [{ criterionId: criterion.id, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
  };
}

/** Whether a patient can answer the criterion as written: short, and nothing only a clinician would know. */
function patientAnswerable(criterion: GeneratorCriterion): boolean {
  return WORDS(criterion.text) <= 14 && !CLINICIAN_ONLY.test(criterion.text) && !/\n/.test(criterion.text);
}

/**
 * A criterion without a rule: ask it as written. The person's answer is taken at face value ("yes" means the
 * criterion is met, for an exclusion that it applies; "no" that it is not), and `source: 'criterion_text'`
 * tells the reviewer it came from unparsed text. No Spanish: the criterion text is English only.
 */
function textQuestion(criterion: GeneratorCriterion, id: string): Question {
  const text = criterion.text.replace(/\s+/g, ' ').trim();
  return {
    id,
    type: 'yes_no',
    wording: {
      phone: { en: `Does this describe you? ${text}` },
      chat: { en: `Does this describe you? ${text}` },
    },
    required: true,
    source: 'criterion_text',
    criterionLinks: [{ criterionId: criterion.id, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
  };
}

function logisticsQuestions(siteName: string | null | undefined): Question[] {
  const site = siteName?.trim();
  return [
    {
      id: 'travel',
      type: 'yes_no',
      wording: same(
        `Are you able to travel to ${site || 'the study site'} for visits?`,
        `¿Puede desplazarse a ${site || 'el centro del estudio'} para las visitas?`,
      ),
      required: true,
      source: 'rule',
      criterionLinks: [],
    },
    {
      id: 'contact-time',
      type: 'text',
      wording: same('What is the best time of day to contact you?', '¿Cuál es el mejor momento del día para contactarle?'),
      required: false,
      source: 'rule',
      criterionLinks: [],
    },
  ];
}

/** Study blocks for a trial's ordered criteria. Same input, same output. */
export function generateStudyBlocks(input: GeneratorInput): GeneratorOutput {
  const criteria = [...input.criteria].sort((a, b) => a.position - b.position);
  const questions = new Map<string, { block: BlockKey; question: Question }>();
  const usedIds = new Set(['travel', 'contact-time']);
  const uniqueId = (base: string) => {
    let id = base;
    for (let n = 2; usedIds.has(id); n++) id = `${base}-${n}`;
    usedIds.add(id);
    return id;
  };
  const uncovered: string[] = [];

  const addSiteReview = (criterion: GeneratorCriterion, rest: boolean) => {
    const key = `site-text:${criterion.id}`;
    if (!questions.has(key))
      questions.set(key, { block: 'site', question: siteReviewItem(criterion, uniqueId(`site-criterion-${criterion.position + 1}`), rest) });
  };

  for (const criterion of criteria) {
    const rule = criterion.rule;
    const found = rule ? templateFor(rule, criterion) : null;
    if (rule && !found) {
      // A rule that restricts nobody (any sex, no age bound, pregnancy allowed, healthy volunteers accepted).
      uncovered.push(criterion.id);
      continue;
    }
    if (!rule || !found) {
      // No rule: nothing to ask a patient in plain words. Staff read the criterion (a site_review item);
      // `textQuestions: true` asks it of the patient as written instead (the behaviour of forms before issue 10).
      if (!input.textQuestions || !patientAnswerable(criterion)) {
        addSiteReview(criterion, false);
        continue;
      }
      const key = `text:${normalize(criterion.text)}`;
      const existing = questions.get(key);
      if (existing) existing.question.criterionLinks.push(...textQuestion(criterion, existing.question.id).criterionLinks);
      else questions.set(key, { block: 'medical', question: textQuestion(criterion, uniqueId(`criterion-${criterion.position + 1}`)) });
      continue;
    }
    let entry = questions.get(found.key);
    if (!entry) {
      entry = { block: found.template.block, question: { ...found.template.question, id: uniqueId(found.template.idBase), criterionLinks: [] } };
      questions.set(found.key, entry);
    }
    if (rule.type === 'lab' && !entry.question.unit && rule.unit) entry.question.unit = rule.unit;
    entry.question.criterionLinks.push(...criterionLinks(criterion, rule));
    // Staff settle it; what the patient can honestly say is asked beside it (decision 150).
    const side = found.template.question.audience === 'site' ? patientSide(rule, criterion, () => templateFor(rule)) : null;
    if (side) {
      let asked = questions.get(side.key);
      if (!asked) {
        asked = { block: side.template.block, question: { ...side.template.question, id: uniqueId(side.template.idBase), criterionLinks: [] } };
        questions.set(side.key, asked);
      }
      asked.question.criterionLinks.push(...criterionLinks(criterion, rule, side.links));
    }
    // What the rule did not cover is still asked: staff check the rest of the criterion.
    if (
      criterion.needsReview &&
      rule.type !== 'site_judgement' &&
      criterion.text.trim().length > 0 &&
      !/^(?:Age at least|Sex:|Healthy volunteers)/.test(criterion.text)
    )
      addSiteReview(criterion, true);
  }

  const byBlock = new Map<BlockKey, Question[]>();
  for (const { block, question } of questions.values()) byBlock.set(block, [...(byBlock.get(block) ?? []), question]);
  byBlock.set('logistics', [...logisticsQuestions(input.siteName), ...(byBlock.get('logistics') ?? [])]);
  const blocks = BLOCKS.filter(({ key }) => (byBlock.get(key) ?? []).length > 0).map(({ key, id, title }) => ({ id, title, questions: byBlock.get(key)! }));
  return { blocks, uncoveredCriterionIds: uncovered };
}
