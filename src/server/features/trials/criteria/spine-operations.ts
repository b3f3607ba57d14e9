import type { Mention, Vocabulary } from '../vocabulary';

/**
 * "Surgical history in the lumbar region", "a previous operation on the cervical spine", "prior surgery at the lumbar
 * levels": an earlier operation whose place is a part of the spine is a spine operation with that part (decision 193).
 * Read as any operation, an exclusion would refuse everyone ever operated on anywhere; that rule stayed in review, and a
 * person read it. The part is then held by the qualifier reader ("lumbar"), which the operation in general never takes.
 */

const PRIOR_OPERATION_ID = 'cohortly:prior-surgery';

/**
 * The place right after the operation: a part of the spine with its place noun, or the spine itself. "Cervical" only
 * with a spine word (elsewhere it is the cervix); "the index level", "the same segment" are the study's own and stay unread.
 */
const SPINE_PLACE =
  /^\s+(?:in|on|at|of|to|involving)\s+(?:the\s+|any\s+)?(?:(?:(lumbar|lumbosacral|thoracic|thoracolumbar)\s+(?:spine|regions?|areas?|levels?|segments?|vertebrae))|(cervical)\s+(?:spine|levels?|segments?|vertebrae)|(spine|spinal column|vertebral column))(?=\s*(?:[.,;:)]|$)|\s+(?:within|during|since|in\s+the\s+(?:last|past)|(?:more|less)\s+than)\b)/i;

/** Replaces each prior operation placed on the spine with the spine operation, in place. */
export function readSpineOperations(text: string, found: Mention[], vocab: Vocabulary): void {
  for (const [index, mention] of found.entries()) {
    if (mention.concept.id !== PRIOR_OPERATION_ID) continue;
    const place = SPINE_PLACE.exec(text.slice(mention.end));
    if (!place) continue;
    const spine = spineOperation(vocab);
    if (!spine) return;
    // With no part named, the spine words are the operation's own ("on the spine"); a part is left for the qualifiers.
    found[index] = { ...mention, concept: spine, ...(place[3] ? { end: mention.end + place[0].length } : {}) };
  }
}

let spineConcept: Mention['concept'] | null | undefined;
function spineOperation(vocab: Vocabulary): Mention['concept'] | null {
  spineConcept ??= vocab.find('spine surgery', { reach: 'full' }).find((mention) => mention.concept.id === 'cohortly:spine-surgery')?.concept ?? null;
  return spineConcept;
}
