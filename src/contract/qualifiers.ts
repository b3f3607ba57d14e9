/**
 * The plain-words qualifiers a condition rule can carry (decision 077): a severity, course or control word, or the
 * part of the spine or the side, that narrows the condition ("severe osteoporosis", "lumbar disc herniation",
 * "bilateral radiculopathy"). The question asks them in plain words; the matcher cannot verify them from a bare
 * diagnosis, so a diagnosis without them is "unknown", never "not met". No zod here: the web's rule words load it.
 */
import { HEART_FAILURE_CLASS_WORDS, HEART_FAILURE_CLASSES, type HeartFailureClass, heartFailureClassHeld, nyhaLabel, rangeOf } from './heart-failure-class';

/** A severity, course or control word. */
const SEVERITY_AND_COURSE = [
  'mild',
  'mild_or_moderate',
  'moderate_or_severe',
  'severe',
  'serious',
  'chronic',
  'acute',
  'uncontrolled',
  'recurrent',
  'symptomatic',
  'congenital',
  'degenerative',
] as const;
/** The part of the spine, or the side. */
const SPINE_AND_SIDE = ['lumbar', 'cervical', 'thoracic', 'both_sides', 'one_side'] as const;
/** A cancer's extent and its receptors (decision 316): read only beside a cancer. */
const CANCER_EXTENT_AND_RECEPTORS = [
  'metastatic',
  'advanced',
  'unresectable',
  'refractory',
  'relapsed_or_refractory',
  'her2_positive',
  'her2_negative',
  'hormone_receptor_positive',
  'hormone_receptor_negative',
  'triple_negative',
] as const;
/**
 * The treatment a condition needs: by mouth, injection or drip, not only creams or drops (decision 357); extra oxygen
 * (decision 365).
 */
const TREATMENT_NEEDED = ['systemic_treatment', 'oxygen_treatment'] as const;
export const CONDITION_QUALIFIERS = [
  ...SEVERITY_AND_COURSE,
  ...SPINE_AND_SIDE,
  ...CANCER_EXTENT_AND_RECEPTORS,
  ...TREATMENT_NEEDED,
  ...HEART_FAILURE_CLASSES,
] as const;
export type ConditionQualifier = (typeof CONDITION_QUALIFIERS)[number];

/**
 * Each qualifier: `label`, the clinical word staff read (and the one a fact's name carries once a patient confirmed
 * it); `en`/`es`, the words a question adds after the condition's name; `held`, the words of a fact's name that say
 * the qualifier holds ("lumbar disc herniation", "herniated disc in the lower back").
 */
export const QUALIFIER_WORDS: Record<ConditionQualifier, { label: string; en: string; es: string; held: RegExp }> = {
  mild: { label: 'mild', en: 'in a mild form', es: 'en forma leve', held: /\bmild\b/i },
  mild_or_moderate: { label: 'mild or moderate', en: 'in a mild or moderate form', es: 'en forma leve o moderada', held: /\b(?:mild|moderate)\b/i },
  moderate_or_severe: {
    label: 'moderate or severe',
    en: 'in a moderate or severe form',
    es: 'en forma moderada o grave',
    held: /\b(?:moderate|severe)\b/i,
  },
  severe: { label: 'severe', en: 'in a severe form', es: 'en forma grave', held: /\b(?:severe|morbid)\b/i },
  serious: { label: 'clinically significant', en: 'that is serious', es: 'que es grave', held: /\b(?:serious|significant|severe)\b/i },
  chronic: { label: 'chronic', en: 'that is long-term (chronic)', es: 'de larga duración', held: /\bchronic\b/i },
  acute: { label: 'acute', en: 'that started suddenly (acute)', es: 'de aparición repentina', held: /\bacute\b/i },
  uncontrolled: { label: 'uncontrolled', en: 'that is not under control', es: 'que no está bajo control', held: /\b(?:uncontrolled|poorly controlled)\b/i },
  recurrent: { label: 'recurrent', en: 'that keeps coming back', es: 'que vuelve a aparecer', held: /\b(?:recurr|relaps)\w*/i },
  symptomatic: { label: 'symptomatic', en: 'that causes you symptoms', es: 'que le causa síntomas', held: /\bsymptomatic\b/i },
  congenital: { label: 'congenital', en: 'that you were born with', es: 'de nacimiento', held: /\b(?:congenital|from birth|born with)\b/i },
  degenerative: { label: 'degenerative', en: 'from wear and tear (degenerative)', es: 'por desgaste (degenerativo)', held: /\bdegenerat\w*/i },
  lumbar: { label: 'lumbar', en: 'in your lower back', es: 'en la parte baja de la espalda', held: /\b(?:lumbar|lumbosacral|lower back|low back)\b/i },
  cervical: { label: 'cervical', en: 'in your neck', es: 'en el cuello', held: /\b(?:cervical|neck)\b/i },
  thoracic: {
    label: 'thoracic',
    en: 'in your mid or upper back',
    es: 'en la parte media o alta de la espalda',
    held: /\b(?:thoracic|mid[- ]back|upper back)\b/i,
  },
  both_sides: { label: 'bilateral', en: 'on both sides', es: 'en ambos lados', held: /\b(?:bilateral|both sides)\b/i },
  one_side: { label: 'unilateral', en: 'on one side only', es: 'en un solo lado', held: /\b(?:unilateral|one side)\b/i },
  metastatic: {
    label: 'metastatic',
    en: 'that has spread to other parts of the body',
    es: 'que se ha extendido a otras partes del cuerpo',
    held: /\bmetasta\w*|\bstage\s*(?:iv|4)\b/i,
  },
  // "Advanced" cancer is locally advanced or metastatic: a note saying either (or that it cannot be removed) holds it.
  advanced: {
    label: 'advanced',
    en: 'at an advanced stage',
    es: 'en etapa avanzada',
    held: /\b(?:advanced|metasta\w*|unresectable|inoperable)\b|\bstage\s*(?:iii|iv|3|4)\w*\b/i,
  },
  unresectable: {
    label: 'unresectable',
    en: 'that cannot be removed by surgery',
    es: 'que no se puede extirpar con cirugía',
    held: /\b(?:unresectable|inoperable|non-?resectable)\b/i,
  },
  refractory: { label: 'refractory', en: 'that has not responded to treatment', es: 'que no ha respondido al tratamiento', held: /\brefractory\b/i },
  relapsed_or_refractory: {
    label: 'relapsed or refractory',
    en: 'that came back or did not respond to treatment',
    es: 'que volvió o no respondió al tratamiento',
    held: /\b(?:relaps|recurr|refractory)\w*/i,
  },
  her2_positive: {
    label: 'HER2-positive',
    en: 'that is HER2-positive',
    es: 'HER2 positivo',
    held: /\bher-?2(?:\/neu)?(?:[\s-]*(?:positive|\+)|[\s-]+(?:overexpressing|amplified))/i,
  },
  her2_negative: {
    label: 'HER2-negative',
    en: 'that is HER2-negative',
    es: 'HER2 negativo',
    held: /\bher-?2(?:\/neu)?[\s-]*negative\b|\btriple[\s-]*negative\b/i,
  },
  hormone_receptor_positive: {
    label: 'hormone receptor-positive',
    en: 'that is hormone receptor-positive (ER or PR)',
    es: 'con receptores hormonales positivos (RE o RP)',
    held: /\b(?:hormone[\s-]+receptor|hr|er|estrogen[\s-]+receptor|oestrogen[\s-]+receptor|pr|progesterone[\s-]+receptor)(?:[\s-]*positive\b|\+)/i,
  },
  hormone_receptor_negative: {
    label: 'hormone receptor-negative',
    en: 'that is hormone receptor-negative',
    es: 'con receptores hormonales negativos',
    held: /\b(?:hormone[\s-]+receptor|hr)[\s-]*negative\b|\btriple[\s-]*negative\b/i,
  },
  triple_negative: {
    label: 'triple-negative',
    en: 'that is triple-negative',
    es: 'triple negativo',
    held: /\btriple[\s-]*negative\b/i,
  },
  // "Infection requiring systemic therapy", "autoimmune disease that has required systemic treatment": the condition is
  // treated by mouth, injection or drip; a fact's name holds it when it says so ("treated with IV antibiotics").
  systemic_treatment: {
    label: 'needing systemic treatment',
    en: '(needing medicine by mouth, injection or drip)',
    es: '(que necesita medicamentos por boca, inyección o suero)',
    held: /\bsystemic(?:ally)?\s+(?:treat|therap|steroid|corticosteroid|antibiotic|immunosuppress)\w*|\b(?:intravenous|iv|parenteral|oral)\s+(?:antibiotic|antimicrobial|antiviral|antifungal|steroid|corticosteroid)\w*/i,
  },
  // "COPD requiring home oxygen", "lung disease necessitating supplemental oxygen therapy" (decision 365): the condition is
  // severe enough that the person breathes extra oxygen, at home or all the time; a fact's name holds it when it says so.
  oxygen_treatment: {
    label: 'needing oxygen therapy',
    en: '(needing extra oxygen to breathe)',
    es: '(que necesita oxígeno adicional para respirar)',
    held: /\b(?:home|supplemental|supplementary|long-term|continuous|nocturnal|ambulatory)\s+(?:oxygen|o2)\b|\boxygen[\s-](?:dependen\w*|therapy|supplementation|requirement)|\bon\s+(?:\d+(?:\.\d+)?\s*(?:l|liters?|litres?)(?:\s*\/\s*min)?\s+(?:of\s+)?)?(?:oxygen|o2)\b|\bltot\b/i,
  },
  // A heart failure's NYHA class (decision 370): a fact's name holds the range when the class it names lies inside it.
  ...(Object.fromEntries(
    HEART_FAILURE_CLASSES.map((qualifier) => [
      qualifier,
      { label: nyhaLabel(...rangeOf(qualifier)), ...HEART_FAILURE_CLASS_WORDS[qualifier], held: heartFailureClassHeld(qualifier) },
    ]),
  ) as Record<HeartFailureClass, { label: string; en: string; es: string; held: RegExp }>),
};

/** The words a question adds for a rule's qualifiers: "in a severe form, on both sides". */
export function qualifierPhrase(qualifiers: readonly ConditionQualifier[] | undefined): { en: string; es: string } | null {
  if (!qualifiers?.length) return null;
  return { en: qualifiers.map((q) => QUALIFIER_WORDS[q].en).join(', '), es: qualifiers.map((q) => QUALIFIER_WORDS[q].es).join(', ') };
}

/** Whether a fact's name says every qualifier holds ("severe osteoporosis" holds "severe"). */
export function qualifiersHeld(name: string, qualifiers: readonly ConditionQualifier[]): boolean {
  return qualifiers.every((q) => QUALIFIER_WORDS[q].held.test(name));
}

/** The qualifiers in the groups staff choose them from (the rule editor): what each group says of a condition. */
export const QUALIFIER_GROUPS: ReadonlyArray<{ label: string; qualifiers: readonly ConditionQualifier[] }> = [
  { label: 'Severity and course', qualifiers: SEVERITY_AND_COURSE },
  { label: 'Part of the spine and side', qualifiers: SPINE_AND_SIDE },
  { label: 'A cancer’s extent and receptors', qualifiers: CANCER_EXTENT_AND_RECEPTORS },
  { label: 'The treatment it needs', qualifiers: TREATMENT_NEEDED },
  { label: 'Heart failure class (NYHA)', qualifiers: HEART_FAILURE_CLASSES },
];
