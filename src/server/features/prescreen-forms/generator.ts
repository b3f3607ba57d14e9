import type { AnswerPredicate, CriterionLink, CriterionOutcome, LocalizedText, Question, StudyBlock } from '../../../contract/prescreen-forms';
import type { CriterionKind, CriterionRule } from '../../../contract/trials';

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

export interface GeneratorCriterion {
  id: string;
  position: number;
  kind: CriterionKind;
  text: string;
  rule: CriterionRule | null;
  needsReview: boolean;
}

export interface GeneratorInput {
  criteria: GeneratorCriterion[];
  /** The first site's name, for the travel question. */
  siteName?: string | null;
}

export interface GeneratorOutput {
  blocks: StudyBlock[];
  uncoveredCriterionIds: string[];
}

type Eligibility = 'eligible' | 'ineligible' | 'review';
interface EligibilityLink {
  when: AnswerPredicate;
  then: Eligibility;
  otherwise?: Eligibility;
}

type BlockKey = 'about' | 'medical' | 'medications' | 'logistics';
const BLOCKS: Array<{ key: BlockKey; id: string; title: LocalizedText }> = [
  { key: 'about', id: 'about-you', title: { en: 'About you', es: 'Sobre usted' } },
  { key: 'medical', id: 'medical-history', title: { en: 'Medical history', es: 'Historial médico' } },
  { key: 'medications', id: 'medications', title: { en: 'Medications', es: 'Medicamentos' } },
  { key: 'logistics', id: 'logistics', title: { en: 'Logistics', es: 'Logística' } },
];

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

interface Template {
  block: BlockKey;
  question: Omit<Question, 'criterionLinks' | 'id'>;
  idBase: string;
}

/** The one question that asks what a rule needs, keyed so that rules asking the same thing share it. */
function templateFor(rule: CriterionRule): { key: string; template: Template } | null {
  switch (rule.type) {
    case 'age':
      if (rule.minYears == null && rule.maxYears == null) return null;
      return {
        key: 'age',
        template: {
          block: 'about',
          idBase: 'date-of-birth',
          question: {
            type: 'date',
            wording: {
              phone: { en: 'Could you tell me your date of birth?', es: '¿Me podría decir su fecha de nacimiento?' },
              chat: { en: 'What is your date of birth?', es: '¿Cuál es su fecha de nacimiento?' },
            },
            required: true,
            source: 'rule',
          },
        },
      };
    case 'sex':
      if (rule.sex === 'all') return null;
      return {
        key: 'sex',
        template: {
          block: 'about',
          idBase: 'sex',
          question: {
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
          },
        },
      };
    case 'condition':
      return {
        key: `condition:${normalize(rule.condition)}`,
        template: {
          block: 'medical',
          idBase: `condition-${slug(rule.condition)}`,
          question: {
            type: 'yes_no',
            wording: same(`Have you ever been diagnosed with ${rule.condition.trim()}?`, `¿Alguna vez le han diagnosticado ${rule.condition.trim()}?`),
            required: true,
            source: 'rule',
          },
        },
      };
    case 'medication':
      return {
        key: `medication:${normalize(rule.medication)}`,
        template: {
          block: 'medications',
          idBase: `medication-${slug(rule.medication)}`,
          question: {
            type: 'yes_no',
            wording: same(`Are you currently taking ${rule.medication.trim()}?`, `¿Está tomando ${rule.medication.trim()} actualmente?`),
            required: true,
            source: 'rule',
          },
        },
      };
    case 'lab': {
      const unit = rule.unit?.trim();
      const measure = rule.measure.trim();
      return {
        key: `lab:${normalize(measure)}`,
        template: {
          block: 'medical',
          idBase: `lab-${slug(measure)}`,
          question: {
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
          },
        },
      };
    }
    case 'pregnancy':
      if (rule.allowed) return null;
      return {
        key: 'pregnancy',
        template: {
          block: 'medical',
          idBase: 'pregnancy',
          question: {
            type: 'yes_no',
            wording: same(
              'Are you currently pregnant, breastfeeding, or planning a pregnancy during the study?',
              '¿Está embarazada, amamantando o planea un embarazo durante el estudio?',
            ),
            required: true,
            source: 'rule',
          },
        },
      };
    case 'healthy_volunteers':
      if (rule.accepted) return null;
      return {
        key: 'healthy_volunteers',
        template: {
          block: 'medical',
          idBase: 'long-term-conditions',
          question: {
            type: 'yes_no',
            wording: same('Do you have any long-term medical conditions?', '¿Tiene alguna enfermedad crónica o de larga duración?'),
            required: true,
            source: 'rule',
          },
        },
      };
  }
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
      if (over !== null) links.push(min === null ? { when: { op: 'age_gte', value: over }, then: 'ineligible', otherwise: 'eligible' } : { when: { op: 'age_gte', value: over }, then: 'ineligible' });
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
      const links: EligibilityLink[] = [{ when: { op: 'lt', value: low }, then: 'ineligible' }, { when: { op: 'gt', value: upperHigh }, then: 'ineligible' }];
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

function criterionLinks(criterion: GeneratorCriterion, rule: CriterionRule): CriterionLink[] {
  return eligibilityLinks(rule).map((link) => ({
    criterionId: criterion.id,
    when: link.when,
    then: toCriterionOutcome(criterion.kind, link.then, criterion.needsReview),
    ...(link.otherwise ? { otherwise: toCriterionOutcome(criterion.kind, link.otherwise, criterion.needsReview) } : {}),
  }));
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
      wording: same(`Are you able to travel to ${site || 'the study site'} for visits?`, `¿Puede desplazarse a ${site || 'el centro del estudio'} para las visitas?`),
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

  for (const criterion of criteria) {
    const rule = criterion.rule;
    const found = rule ? templateFor(rule) : null;
    if (rule && !found) {
      // A rule that restricts nobody (any sex, no age bound, pregnancy allowed, healthy volunteers accepted).
      uncovered.push(criterion.id);
      continue;
    }
    if (!rule || !found) {
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
  }

  const byBlock = new Map<BlockKey, Question[]>();
  for (const { block, question } of questions.values()) byBlock.set(block, [...(byBlock.get(block) ?? []), question]);
  byBlock.set('logistics', logisticsQuestions(input.siteName));
  const blocks = BLOCKS.filter(({ key }) => (byBlock.get(key) ?? []).length > 0).map(({ key, id, title }) => ({ id, title, questions: byBlock.get(key)! }));
  return { blocks, uncoveredCriterionIds: uncovered };
}
