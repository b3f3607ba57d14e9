import type { CriterionRule } from '../../../contract/trials';
import { isPainScore, painSiteOfMeasure } from '../trials/criteria';
import { isDiagnosis } from '../trials/vocabulary';
import type { EligibilityLink, GeneratorCriterion, Template } from './types';

/**
 * What a patient can honestly say about a criterion only staff can settle (decision 150). The staff item stays and
 * decides; the patient's answer beside it is asked in plain words and never fails anyone on what only a test shows:
 *
 * - a diagnosis the criterion confirms by a test ("disc herniation on MRI"): "Have you been told by a doctor that you
 *   have ...?" A yes waits for staff to check the test; a no means no such diagnosis was made.
 * - a blood-test result people are commonly given: "If you know your most recent ... result, what was it?" It may be
 *   left unanswered; a remembered value within the limit counts, any other waits for staff.
 * - a symptom the person rates themselves (pain from 0 to 10): asked as the measure itself.
 * - consent and study visits: whether the person is willing; whether they are able to consent stays with staff.
 *
 * Never: the investigator's opinion, a multiple of a lab's normal range, imaging findings, clinician-rated scales.
 */
export interface PatientSide {
  key: string;
  template: Template;
  /** In eligibility terms; absent: the rule's own links (the person's answer is the measure). */
  links?: EligibilityLink[];
}

/** Blood-test results patients are commonly told or see in their records; a value remembered wrongly only waits for staff. */
const RESULTS_PATIENTS_ARE_GIVEN = new Set([
  'egfr',
  'creatinine',
  'hemoglobin',
  'platelets',
  'wbc',
  'anc',
  'lymphocytes',
  'inr',
  'potassium',
  'albumin',
  'alt',
  'ast',
  'bilirubin',
  'crp',
  'lvef',
  'oxygen saturation',
]);
/** Plain names for the results above, as a patient hears them. */
const PLAIN_RESULT: Record<string, { en: string; es: string }> = {
  egfr: { en: 'kidney function (eGFR)', es: 'función renal (TFGe)' },
  creatinine: { en: 'creatinine (kidney test)', es: 'creatinina (prueba del riñón)' },
  hemoglobin: { en: 'hemoglobin', es: 'hemoglobina' },
  platelets: { en: 'platelet count', es: 'recuento de plaquetas' },
  wbc: { en: 'white blood cell count', es: 'recuento de glóbulos blancos' },
  anc: { en: 'neutrophil count', es: 'recuento de neutrófilos' },
  lymphocytes: { en: 'lymphocyte count', es: 'recuento de linfocitos' },
  inr: { en: 'INR (blood clotting test)', es: 'INR (prueba de coagulación)' },
  potassium: { en: 'potassium', es: 'potasio' },
  albumin: { en: 'albumin', es: 'albúmina' },
  alt: { en: 'ALT (liver test)', es: 'ALT (prueba del hígado)' },
  ast: { en: 'AST (liver test)', es: 'AST (prueba del hígado)' },
  bilirubin: { en: 'bilirubin', es: 'bilirrubina' },
  crp: { en: 'CRP (inflammation test)', es: 'PCR (prueba de inflamación)' },
  lvef: { en: 'heart ejection fraction', es: 'fracción de eyección del corazón' },
  'oxygen saturation': { en: 'oxygen level (saturation)', es: 'nivel de oxígeno (saturación)' },
};

const wording = (en: string, es: string) => ({ phone: { en, es }, chat: { en, es } });

/** The patient's side of a staff-only rule, or null where a patient cannot honestly answer it. */
export function patientSide(
  rule: CriterionRule,
  criterion: GeneratorCriterion,
  diagnosisTemplate: () => { key: string; template: Template } | null,
): PatientSide | null {
  switch (rule.type) {
    case 'condition':
      return diagnosisSide(rule, diagnosisTemplate);
    case 'lab':
      return resultSide(rule);
    case 'site_judgement':
      return willingSide(rule, criterion);
    default:
      return null;
  }
}

function diagnosisSide(
  rule: Extract<CriterionRule, { type: 'condition' }>,
  diagnosisTemplate: () => { key: string; template: Template } | null,
): PatientSide | null {
  const concepts = rule.concepts ?? [];
  if (!concepts.length || !concepts.every((concept) => isDiagnosis(concept.id))) return null;
  const found = diagnosisTemplate();
  if (!found) return null;
  // Yes: staff check the test the criterion names. No: no doctor found it, so the test cannot have either.
  return { ...found, links: [{ when: { op: 'is_yes' }, then: 'review', otherwise: rule.present ? 'ineligible' : 'eligible' }] };
}

function resultSide(rule: Extract<CriterionRule, { type: 'lab' }>): PatientSide | null {
  const measure = rule.measure.trim().toLowerCase();
  if (rule.relativeTo) return null;
  if (isPainScore(measure)) return painSide(rule);
  const plain = PLAIN_RESULT[measure];
  if (!RESULTS_PATIENTS_ARE_GIVEN.has(measure) || !plain) return null;
  const unit = rule.unit?.trim();
  const inUnit = unit ? { en: ` (in ${unit})`, es: ` (en ${unit})` } : { en: '', es: '' };
  return {
    key: `result:${measure}:${unit ?? ''}`,
    template: {
      block: 'medical',
      idBase: `result-${measure.replace(/[^a-z0-9]+/g, '-')}`,
      question: {
        type: 'number',
        wording: {
          phone: {
            en: `Do you know your most recent ${plain.en} result${inUnit.en}? If you do not know, just say so.`,
            es: `¿Conoce su resultado más reciente de ${plain.es}${inUnit.es}? Si no lo sabe, dígamelo.`,
          },
          chat: {
            en: `If you know your most recent ${plain.en} result${inUnit.en}, what was it? Leave it empty if you do not know.`,
            es: `Si conoce su resultado más reciente de ${plain.es}${inUnit.es}, ¿cuál fue? Déjelo vacío si no lo sabe.`,
          },
        },
        ...(unit ? { unit } : {}),
        required: false,
        source: 'rule',
      },
    },
    links: withinLimit(rule),
  };
}

/** A remembered value inside the limit (beyond the borderline band) counts; every other value waits for staff. */
function withinLimit(rule: Extract<CriterionRule, { type: 'lab' }>): EligibilityLink[] {
  const margin = (value: number) => Math.abs(value) * 0.05;
  const low = rule.value;
  const high = rule.upperValue ?? rule.value;
  switch (rule.comparator) {
    case '>':
    case '>=':
      return [{ when: { op: 'gt', value: low + margin(low) }, then: 'eligible', otherwise: 'review' }];
    case '<':
    case '<=':
      return [{ when: { op: 'lt', value: low - margin(low) }, then: 'eligible', otherwise: 'review' }];
    case 'between':
      return high - margin(high) > low + margin(low)
        ? [{ when: { op: 'between', value: low + margin(low), upper: high - margin(high) }, then: 'eligible', otherwise: 'review' }]
        : [{ when: { op: 'answered' }, then: 'review' }];
    default:
      return [{ when: { op: 'answered' }, then: 'review' }];
  }
}

/** Pain is what the person says it is: the 0-10 rating is the measure, decided like the rule's own links. */
function painSide(rule: Extract<CriterionRule, { type: 'lab' }>): PatientSide | null {
  if (rule.unit && rule.unit !== '/10') return null;
  // "Leg pain score": the pain of that region, asked by its name (decision 350); one question per region.
  const site = painSiteOfMeasure(rule.measure.trim().toLowerCase());
  const [en, es] = site ? [`your ${site.en} pain`, `su dolor de ${site.es}`] : ['your pain', 'su dolor'];
  return {
    key: site ? `pain-rating:${site.en}` : 'pain-rating',
    template: {
      block: 'medical',
      idBase: site ? `pain-rating-${site.en}` : 'pain-rating',
      question: {
        type: 'number',
        wording: wording(
          `On a scale from 0 (no pain) to 10 (the worst pain you can imagine), how strong is ${en} on a usual day?`,
          `En una escala de 0 (sin dolor) a 10 (el peor dolor imaginable), ¿qué tan fuerte es ${es} en un día normal?`,
        ),
        unit: '/10',
        required: true,
        source: 'rule',
      },
    },
  };
}

/** Consent and study visits: the person says whether they are willing; a no is talked through with staff, never a failure. */
function willingSide(rule: Extract<CriterionRule, { type: 'site_judgement' }>, criterion: GeneratorCriterion): PatientSide | null {
  const links: EligibilityLink[] = [{ when: { op: 'is_yes' }, then: 'eligible', otherwise: 'review' }];
  // A language criterion is read as consent too: the willingness question would not ask it.
  if (rule.reason === 'consent_capacity' && /\bconsent|\bagree|\bvolunteer/i.test(criterion.text))
    return {
      key: 'willing-to-consent',
      template: {
        block: 'logistics',
        idBase: 'willing-to-consent',
        question: {
          type: 'yes_no',
          wording: wording(
            'If you qualify, would you be willing to sign a consent form to take part, after the study has been explained to you?',
            'Si cumple los requisitos, ¿estaría dispuesto a firmar un formulario de consentimiento para participar, después de que le expliquen el estudio?',
          ),
          required: true,
          source: 'rule',
        },
      },
      links,
    };
  if (rule.reason === 'protocol_compliance')
    return {
      key: 'willing-to-follow',
      template: {
        block: 'logistics',
        idBase: 'willing-to-follow',
        question: {
          type: 'yes_no',
          wording: wording(
            "Are you willing and able to come to all the study visits and follow the study's instructions?",
            '¿Está dispuesto y puede acudir a todas las visitas del estudio y seguir sus instrucciones?',
          ),
          required: true,
          source: 'rule',
        },
      },
      links,
    };
  return null;
}
