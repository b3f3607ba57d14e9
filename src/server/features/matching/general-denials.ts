/**
 * What a note says about everything it does not list (decision 142): "otherwise healthy", "no past medical history",
 * "takes no medications". A coordinator reads these as answering the exclusions of other conditions (and of
 * medicines taken now), so the note reader keeps each as one denial fact with a concept of its own, and the matcher
 * reads that fact for an exclusion the person's other facts say nothing of. It never answers an inclusion, and a
 * condition or medicine the note does name always decides first.
 */

import { isA, onlyThroughSymptoms, related } from './concept-hierarchy';

/** The concept of "no other medical conditions": a denial fact of kind condition. */
export const NO_OTHER_CONDITIONS = 'cohortly:no-other-conditions';
/** The concept of "takes no medicines": a denial fact of kind medication. */
export const NO_MEDICATIONS = 'cohortly:no-medications';

/** Whether a fact is one of these general denials (kind condition or medication, status absent). */
export function isGeneralDenial(fact: { conceptId: string | null; status: string | null }): boolean {
  return fact.status === 'absent' && (fact.conceptId === NO_OTHER_CONDITIONS || fact.conceptId === NO_MEDICATIONS);
}

/** Hypersensitivity: allergies are asked and listed apart ("NKDA"); "otherwise healthy" says nothing of them. */
const ALLERGY = 'mesh:D006967';

/**
 * Whether a general denial can answer an exclusion: "otherwise healthy" any condition, ever or lately, but not an
 * allergy; "takes no medicines" only one taken now (it says nothing of a course in the past).
 */
export function generalDenialAnswers(
  kind: 'condition' | 'medication',
  rule: { history?: boolean; within?: unknown; concepts?: ReadonlyArray<{ id: string }> },
): boolean {
  if (kind === 'medication') return !rule.history && !rule.within;
  return !(rule.concepts ?? []).some((concept) => concept.id.startsWith('cohortly:allergy-to:') || isA(concept.id, ALLERGY));
}

/**
 * Whether a condition the person has keeps "otherwise healthy" from answering the exclusion: "otherwise" means apart
 * from their illness, so an exclusion related to it in the tree (a complication, another form: "cauda equina
 * syndrome" for someone with sciatica) stays unknown.
 */
export function relatedToOwnIllness(conditionId: string | null, concepts: ReadonlyArray<{ id: string }> | undefined): boolean {
  if (!conditionId) return false;
  // A symptom filed under a disease heading only through MeSH's Neurologic Manifestations (photophobia under nervous
  // system diseases) is not that kind of illness (decision 179): it does not keep "otherwise healthy" from answering.
  for (const concept of concepts ?? []) if (related(conditionId, concept.id) && !onlyThroughSymptoms(conditionId, concept.id)) return true;
  return false;
}

const NO_CONDITIONS =
  /\b(?:(?:otherwise|previously|generally|other ?wise) (?:healthy|well|fit and well|in good health)|(?:no|denies(?: any)?|without(?: any)?|negative) (?:significant |other |prior |known |relevant |chronic )*(?:past )?(?:medical|health) (?:history|problems|conditions|illness(?:es)?)|no (?:significant |other |known )*(?:chronic|past|prior|medical) (?:illness(?:es)?|diseases?|conditions|problems)|(?:past )?medical history(?: is| was)?:?\s*(?:unremarkable|non-?contributory|non-?significant|insignificant|negative|none|nil)|pmh:?\s*(?:none|nil|unremarkable|negative|non-?contributory|non-?significant)|(?:in|of) (?:otherwise )?(?:good|excellent) (?:general )?health)\b/gi;

// Not when the word names something else: "no medication-overuse headache", "no medication allergies", "no medication changes".
const NO_MEDICINES =
  /\b(?:(?:takes|taking|is on|on|uses|using) no (?:regular |daily |other |prescription |chronic |current )*(?:medications?|medicines?|drugs)|no (?:regular |daily |other |prescription |chronic |current )*(?:medications?|medicines?)(?![-\w]| (?:for|to|were|was|given|started|overuse|allerg\w*|side|changes?|adherence))|(?:medications?|meds|medicines):?\s*(?:none|nil)|not (?:taking|on) any (?:regular |daily |prescription )*(?:medications?|medicines?|drugs))\b/gi;

export interface GeneralDenial {
  conceptId: typeof NO_OTHER_CONDITIONS | typeof NO_MEDICATIONS;
  kind: 'condition' | 'medication';
  name: string;
  start: number;
  end: number;
}

/** The general denials a note writes, with their spans. */
export function readGeneralDenials(text: string): GeneralDenial[] {
  const found: GeneralDenial[] = [];
  for (const [pattern, conceptId, kind, name] of [
    [NO_CONDITIONS, NO_OTHER_CONDITIONS, 'condition', 'other medical conditions'],
    [NO_MEDICINES, NO_MEDICATIONS, 'medication', 'regular medicines'],
  ] as const) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      // "No medical history of asthma": a denial of one thing, read by the note reader's own cues.
      if (/^\s+(?:of|for|significant for|notable for)\b/i.test(text.slice(match.index + match[0].length, match.index + match[0].length + 20))) continue;
      found.push({ conceptId, kind, name, start: match.index, end: match.index + match[0].length });
    }
  }
  return found;
}
