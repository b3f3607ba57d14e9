import type { Mention, Vocabulary } from '../vocabulary';

/**
 * "Surgical history in the lumbar region", "a previous operation on the cervical spine", "tumour, fracture or infection
 * of the lumbar spine": a general concept placed on a part of the spine is its spine form, with that part (decision 193).
 * Read as the general concept, an exclusion would refuse everyone ever operated on, or with a fracture anywhere; that
 * rule stayed in review, and a person read it. The part is then held by the qualifier reader ("lumbar").
 */

/** The general concepts that have a spine form in the vocabulary, and that form. */
export const SPINE_FORM: Record<string, string> = {
  'cohortly:prior-surgery': 'cohortly:spine-surgery',
  'cohortly:tumor': 'cohortly:spinal-tumor',
  'cohortly:fracture': 'cohortly:vertebral-fracture',
  'mesh:D000007239': 'cohortly:spinal-infection',
};

/**
 * The place right after the concept (or the last of a list of them): a part of the spine with its place noun, or the
 * spine itself. "Cervical" only with a spine word (elsewhere it is the cervix); "the index level", "the same segment"
 * are the study's own, and anything after the place but a time window, stay unread.
 */
const SPINE_PLACE =
  /^\s+(?:in|on|at|of|to)\s+(?:the\s+|any\s+)?(?:(?:(lumbar|lumbosacral|thoracic|thoracolumbar)\s+(?:spine|regions?|areas?|levels?|segments?|vertebrae))|(cervical)\s+(?:spine|levels?|segments?|vertebrae)|(spine|spinal column|vertebral column))(?=\s*(?:[.,;:)]|$)|\s+(?:within|during|since|in\s+the\s+(?:last|past)|(?:more|less)\s+than)\b)/i;

/** Commas, "or", "and", "and/or" between two items of one list. */
const LIST_GAP = /^\s*(?:,\s*(?:(?:or|and|and\/or)\s+)?|(?:or|and|and\/or)\s+)(?:an?\s+)?$/i;

/** Replaces each general concept placed on the spine, and the list it ends, with the spine forms, in place. */
export function readSpinePlaces(text: string, found: Mention[], vocab: Vocabulary): void {
  for (let last = 0; last < found.length; last++) {
    const place = SPINE_FORM[found[last].concept.id] ? SPINE_PLACE.exec(text.slice(found[last].end)) : null;
    // "Tumour or infection of the lumbar spine" read "infection of the lumbar spine" as one spine concept: the
    // place ends the list, the last item already in its spine form.
    if (!place && placedSpineForm(text, found[last])) {
      spineFormsBefore(text, found, last, last - 1, vocab);
      continue;
    }
    if (!place) continue;
    spineFormsBefore(text, found, last, last, vocab);
    // With no part named, the spine words are the concept's own ("on the spine"); a part is left for the qualifiers.
    if (place[3]) found[last] = { ...found[last], end: found[last].end + place[0].length };
  }
}

/** The list ending at `last` takes its spine forms, up to `upTo`; only when every item has one. */
function spineFormsBefore(text: string, found: Mention[], last: number, upTo: number, vocab: Vocabulary): void {
  let first = last;
  while (first > 0 && LIST_GAP.test(text.slice(found[first - 1].end, found[first].start))) first--;
  // "Diabetes or a fracture of the spine": the place is the fracture's alone, and diabetes has no spine form.
  if (found.slice(first, upTo + 1).some((mention) => !SPINE_FORM[mention.concept.id])) return;
  for (let index = first; index <= upTo; index++) {
    const spine = vocab.concept(SPINE_FORM[found[index].concept.id]);
    if (spine) found[index] = { ...found[index], concept: spine };
  }
}

/** A spine form whose own words end with its place ("fracture of the lumbar spine"), not before it ("spinal fracture"). */
function placedSpineForm(text: string, mention: Mention): boolean {
  if (!Object.values(SPINE_FORM).includes(mention.concept.id)) return false;
  const words = text.slice(mention.start, mention.end);
  const at = words.search(/\s(?:in|on|at|of|to)\s/i);
  return at > 0 && SPINE_PLACE.test(`${words.slice(at)}.`);
}
