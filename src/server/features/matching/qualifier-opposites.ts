import { type ConditionQualifier, QUALIFIER_WORDS } from '../../../contract/trials';

/**
 * Qualifiers that exclude each other (decision 183): one side or both, and the part of the spine. A fact whose name
 * says the other one ("sciatica (bilateral)" against "unilateral radiculopathy", "a slipped disc (cervical)" against
 * "lumbar disc herniation") answers the qualifier with certainty: the rule's qualified condition is not what the
 * person has. Severity and course words are not here: "mild" in a note does not deny "chronic", and a note that says
 * "severe" may still be "serious".
 */
const OPPOSITES: Partial<Record<ConditionQualifier, ConditionQualifier[]>> = {
  one_side: ['both_sides'],
  both_sides: ['one_side'],
  lumbar: ['cervical', 'thoracic'],
  cervical: ['lumbar', 'thoracic'],
  thoracic: ['lumbar', 'cervical'],
};

const holds = (name: string, qualifier: ConditionQualifier) => QUALIFIER_WORDS[qualifier].held.test(name);

/** Whether the fact's name says, for one of the rule's qualifiers, an excluding one and not the qualifier itself. */
export function qualifiersContradicted(name: string, qualifiers: readonly ConditionQualifier[]): boolean {
  return qualifiers.some((qualifier) => !holds(name, qualifier) && (OPPOSITES[qualifier] ?? []).some((other) => holds(name, other)));
}
