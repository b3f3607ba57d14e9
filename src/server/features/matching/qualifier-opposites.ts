import { HEART_FAILURE_CLASSES, heartFailureClassDenied } from '../../../contract/heart-failure-class';
import { type ConditionQualifier, QUALIFIER_WORDS } from '../../../contract/trials';

/**
 * Qualifiers that exclude each other (decision 183): one side or both, the part of the spine, a cancer's receptors (316). A fact whose name
 * says the other one ("sciatica (bilateral)" against "unilateral radiculopathy", "a slipped disc (cervical)" against
 * "lumbar disc herniation") answers the qualifier with certainty: the rule's qualified condition is not what the
 * person has. Severity and control words deny on their own scale only (`DENIED_BY`).
 */
const OPPOSITES: Partial<Record<ConditionQualifier, ConditionQualifier[]>> = {
  one_side: ['both_sides'],
  both_sides: ['one_side'],
  lumbar: ['cervical', 'thoracic'],
  cervical: ['lumbar', 'thoracic'],
  thoracic: ['lumbar', 'cervical'],
  // A cancer's receptors are tested, and a tested status excludes the other (decision 316).
  her2_positive: ['her2_negative', 'triple_negative'],
  her2_negative: ['her2_positive'],
  hormone_receptor_positive: ['hormone_receptor_negative', 'triple_negative'],
  hormone_receptor_negative: ['hormone_receptor_positive'],
  triple_negative: ['her2_positive', 'hormone_receptor_positive'],
};

/**
 * Words of a fact's name that deny a severity or control the rule asks (decision 359), on the same scale: a note's
 * "mild" or "moderate" asthma is no severe asthma, its "moderate" no mild one, its "well controlled" no uncontrolled one. Only where
 * the name does not also say the qualifier ("mild to severe" holds severe). "Serious" and the course words are not
 * here: a mild disease may still be clinically significant, and "chronic" does not deny "acute".
 */
const DENIED_BY: Partial<Record<ConditionQualifier, RegExp>> = {
  severe: /\b(?:mild|moderate)\b/i,
  mild: /\b(?:moderate|severe)\b/i,
  mild_or_moderate: /\bsevere\b/i,
  moderate_or_severe: /\bmild\b/i,
  uncontrolled: /\bcontrolled\b/i,
  // A heart failure's NYHA class (decision 370): a class the fact names wholly outside the rule's range denies it.
  ...Object.fromEntries(HEART_FAILURE_CLASSES.map((qualifier) => [qualifier, heartFailureClassDenied(qualifier)]).filter(([, denied]) => denied)),
};

const holds = (name: string, qualifier: ConditionQualifier) => QUALIFIER_WORDS[qualifier].held.test(name);

/** Whether the fact's name says, for one of the rule's qualifiers, an excluding one and not the qualifier itself. */
export function qualifiersContradicted(name: string, qualifiers: readonly ConditionQualifier[]): boolean {
  return qualifiers.some(
    (qualifier) => !holds(name, qualifier) && ((OPPOSITES[qualifier] ?? []).some((other) => holds(name, other)) || Boolean(DENIED_BY[qualifier]?.test(name))),
  );
}
