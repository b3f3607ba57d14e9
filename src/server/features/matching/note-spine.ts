import type { Mention, Vocabulary } from '../trials/vocabulary';

/**
 * How spine notes write what the shared vocabulary does not read (decision 183). Only the note reader uses these: a
 * criterion never writes "L5-S1 extrusion" for a herniation, and the vocabulary is the criteria reader's too.
 * - A displaced disc by its MRI words: an extrusion, a protrusion or a sequestration of a disc, or one at a spinal
 *   level ("L4-L5 disc extrusion", "sequestered disc fragment", "right paracentral protrusion at L5-S1"). MeSH files
 *   them under Intervertebral Disc Displacement. A bulge is not one: a disc bulge is not a herniation.
 * - Pain that radiates from the buttock or the back down the leg ("buttock pain radiating to the calf", "pain
 *   radiating down the left leg", "pain from the buttock into the calf") is sciatica; pain in a thigh or a calf, or
 *   pain reaching below the knee, is leg pain; neck pain spreading into the arm or hand is arm pain.
 * - A nerve root pressed on, with its level ("C6 root compression", "compressing the S1 nerve root"), is a
 *   radiculopathy (the vocabulary reads "nerve root compression" only with the words side by side).
 * Each reading is looked up in the vocabulary by the heading's own name, so the concept is the one the rest of the
 * product reads.
 */
const LEVEL = String.raw`[CTL]\d{1,2}(?:\s*[-–/]\s*[CTLS]?\d{1,2})?`;
const DISPLACEMENT = String.raw`(?:extrusions?|protrusions?|sequestrations?)`;
const DISPLACED_DISC = new RegExp(
  String.raw`\b(?:(?:dis[ck]s?\s+${DISPLACEMENT})|(?:(?:extruded|protruding|protruded|sequestered)\s+dis[ck](?:\s+fragments?)?)|(?:${LEVEL}\s+(?:(?:left|right|central|paracentral|posterolateral|foraminal|broad-based|large|small|focal)\s+){0,3}${DISPLACEMENT})|(?:${DISPLACEMENT}\s+(?:at|of)\s+(?:the\s+)?${LEVEL}(?:\s*(?:,|and|or)\s*${LEVEL})*))`,
  'gi',
);
const LIMB_BELOW = String.raw`(?:(?:back\s+of\s+the\s+|posterior\s+|lateral\s+)?(?:leg|legs|calf|foot|feet|ankle|shin|toes?))`;
/**
 * On the way down: "down the posterior thigh and calf", "to the back of the knee and the foot". Pain that stops at the
 * thigh or the knee may be referred from the back, not radicular: it is not sciatica.
 */
const THROUGH_THIGH = String.raw`(?:(?:posterior|lateral|anterior|back|of|the|his|her|thigh|thighs|knee|and|to|into|down|,)\s*){0,8}`;
const BELOW_KNEE = String.raw`(?:calf|foot|feet|ankle|shin|toes?|heel)`;
const SPREADS = String.raw`\s+(?:that\s+|which\s+)?(?:radiat\w*|shoot\w*|travel\w*|spread\w*)\s+(?:down\s+(?:to|into)|down|to|into|through)\s+(?:the\s+|his\s+|her\s+|both\s+)?(?:(?:left|right)\s+)?`;
const FROM_BACK = String.raw`(?:(?:buttock|gluteal|low(?:er)?\s+back|back)\s+(?:pain|ache)|(?:pain|ache|aching)\s+(?:in|from)\s+(?:the\s+|his\s+|her\s+)?(?:(?:left|right)\s+)?(?:buttocks?|low(?:er)?\s+back))`;
/** "Pain from the right buttock into the calf": the "from" form needs no verb of spreading (decision 297). */
const FROM_BUTTOCK_INTO = String.raw`(?:pain|ache|aching)\s+from\s+(?:the\s+|his\s+|her\s+)?(?:(?:left|right)\s+)?(?:buttocks?|low(?:er)?\s+back)\s+(?:down\s+(?:to|into)|down|into|to)\s+(?:the\s+|his\s+|her\s+|both\s+)?(?:(?:left|right)\s+)?`;
/** From the buttock or the low back into the leg, or from the thigh to below the knee. */
const RADIATING = new RegExp(
  String.raw`\b(?:${FROM_BACK}${SPREADS}${THROUGH_THIGH}${LIMB_BELOW}|${FROM_BUTTOCK_INTO}${THROUGH_THIGH}${LIMB_BELOW}|(?:posterior\s+|lateral\s+)?thigh\s+pain${SPREADS}${BELOW_KNEE})\b`,
  'gi',
);
/** Pain in a thigh or a calf, or pain said to reach below the knee ("pain radiates below the knee"): leg pain (decision 297). */
const LIMB_PAIN =
  /\b(?:thigh|calf)\s+pain\b|\b(?:pain|ache)\s+(?:that\s+|which\s+)?(?:radiat\w*|extend\w*|spread\w*|travel\w*|shoot\w*|go(?:es|ing)?)\s+(?:down\s+)?below\s+the\s+knees?\b/gi;
/** Neck pain spreading into the arm ("neck pain radiating to the right forearm and thumb"): arm pain. */
const ARM_BELOW = String.raw`(?:arm|arms|forearm|hand|hands|thumb|fingers?|wrist)`;
const NECK_RADIATING = new RegExp(
  String.raw`\b(?:neck|cervical)\s+(?:pain|ache)${SPREADS}(?:(?:shoulder|upper\s+arm|elbow)(?:,|\s+and|\s+or)?\s+(?:(?:the\s+)?(?:lateral|medial|radial|ulnar)\s+)?)*${ARM_BELOW}\b`,
  'gi',
);
/** A nerve root pressed on, named with its level ("C6 root compression", "compressing the left S1 nerve root"): radiculopathy. */
const ROOT_PRESSED =
  /\b(?:[CTLS]\d{1,2}\s+(?:nerve\s+)?root\s+(?:compression|impingement|entrapment)|(?:compress\w*|imping\w*)\s+(?:on\s+)?(?:the\s+)?(?:(?:left|right|exiting|traversing)\s+)*[CTLS]\d{1,2}\s+(?:nerve\s+)?roots?)\b/gi;

/** The concept the vocabulary reads for a heading's name, or null when it reads none or several. */
function conceptNamed(vocab: Vocabulary, name: string): Mention['concept'] | null {
  const read = vocab.find(name, { reach: 'full' });
  return read.length === 1 && read[0].start === 0 && read[0].end === name.length ? read[0].concept : null;
}

/** The sentence's spine readings that no mention already covers, in the sentence's offsets. */
export function spineMentions(sentence: string, vocab: Vocabulary, mentions: readonly Mention[]): Mention[] {
  const found: Mention[] = [];
  const readings: Array<[RegExp, string]> = [
    [DISPLACED_DISC, 'intervertebral disc displacement'],
    [RADIATING, 'sciatica'],
    [LIMB_PAIN, 'leg pain'],
    [NECK_RADIATING, 'arm pain'],
    [ROOT_PRESSED, 'radiculopathy'],
  ];
  for (const [pattern, name] of readings) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(sentence); match; match = pattern.exec(sentence)) {
      const [start, end] = [match.index, match.index + match[0].length];
      const concept = conceptNamed(vocab, name);
      const covered = [...mentions, ...found].some((mention) => mention.start < end && start < mention.end && mention.concept.id === concept?.id);
      if (concept && !covered) found.push({ concept, start, end });
    }
  }
  return found;
}
