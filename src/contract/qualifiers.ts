/**
 * The plain-words qualifiers a condition rule can carry (decision 077): a severity, course or control word, or the
 * part of the spine or the side, that narrows the condition ("severe osteoporosis", "lumbar disc herniation",
 * "bilateral radiculopathy"). The question asks them in plain words; the matcher cannot verify them from a bare
 * diagnosis, so a diagnosis without them is "unknown", never "not met". No zod here: the web's rule words load it.
 */
export const CONDITION_QUALIFIERS = [
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
  'lumbar',
  'cervical',
  'thoracic',
  'both_sides',
  'one_side',
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
  recurrent: { label: 'recurrent', en: 'that keeps coming back', es: 'que vuelve a aparecer', held: /\brecurr\w*/i },
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
