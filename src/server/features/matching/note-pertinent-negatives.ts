import type { Vocabulary } from '../trials/vocabulary';

/**
 * Pertinent negatives a note writes in words the vocabulary does not read as a denial of a condition (decision 249).
 * A coordinator reads each as clearing the exclusions it names, and the note reader keeps each as a denial (an absent
 * fact) of those conditions, so the matcher needs no new rule: a condition the note does name as present still wins
 * (the extractor keeps a present mention over a denial).
 * - A normal neurological examination ("neurologically intact", "neuro exam normal", "no focal neurological
 *   deficit"): no paresis, no myelopathy, no cauda equina syndrome (each shows on the examination). Not "no
 *   neurological disease": a person with migraine or epilepsy is neurologically intact.
 * - Bowel and bladder said to be normal ("no bowel or bladder dysfunction", "bladder and bowel function intact"):
 *   no neurogenic bladder or bowel, no incontinence, no retention. With saddle sensation also said to be normal ("no
 *   saddle anaesthesia"), no cauda equina syndrome: neither alone says it (an incomplete one may spare either).
 * - "No prior <part> procedures / operations / interventions": no surgery of that part, where the vocabulary reads
 *   "<part> surgery" (a procedure is broader than an operation, so its denial denies the operation; never the other way).
 *   Only parts the vocabulary's concept names whole (spine or back, neck): "lumbar surgery" is read as spine surgery,
 *   and "no prior lumbar procedures" does not deny a cervical operation.
 * - Signs of a cord compressed in the neck said to be absent (decision 284): "no myelopathic signs", "no long tract
 *   signs", "without upper motor neuron findings", or both of its cardinal symptoms denied in one phrase ("no gait
 *   disturbance or hand clumsiness"): no myelopathy. One symptom alone does not say it (either may be spared early).
 */

export interface PertinentNegative {
  kind: 'condition';
  conceptId: string;
  name: string;
  start: number;
  end: number;
}

const NEURO = String.raw`neuro(?:logical|logic)?`;
const NORMAL = String.raw`(?:normal|intact|unremarkable|non-?focal|within normal limits|grossly (?:normal|intact))`;
const NORMAL_NEURO_EXAM = new RegExp(
  [
    String.raw`\bneurologically (?:intact|normal|non-?focal|unremarkable)\b`,
    String.raw`\b${NEURO} (?:exam(?:ination)?|status)(?: (?:is|was|were|remains))?:? (?:otherwise |completely |entirely )?${NORMAL}\b`,
    String.raw`\b(?:normal|unremarkable|non-?focal) ${NEURO} exam(?:ination)?\b`,
    String.raw`\bno (?:focal (?:${NEURO} )?|${NEURO} )deficits?\b`,
  ].join('|'),
  'gi',
);
const BOWEL_BLADDER = String.raw`(?:bowel (?:or|and|/) bladder|bladder (?:or|and|/) bowel|sphincter(?:ic)?)`;
const BOWEL_BLADDER_NORMAL = new RegExp(
  [
    String.raw`\b(?:no|denies|without|negative for) (?:any )?(?:new )?${BOWEL_BLADDER} (?:symptoms|dysfunction|problems|changes|involvement|incontinence|complaints|disturbances?)\b`,
    String.raw`\b${BOWEL_BLADDER} (?:function )?(?:is |are |was |were )?(?:normal|intact|unaffected|preserved)\b`,
  ].join('|'),
  'gi',
);
const SADDLE_NORMAL = new RegExp(
  [
    String.raw`\b(?:no|denies|without) (?:saddle|perineal|perianal) (?:an(?:a)?esthesia|numbness|paresthesias?|hypo(?:a)?esthesia|sensory (?:loss|changes?))\b`,
    String.raw`\b(?:saddle|perineal|perianal) sensation (?:is |was )?(?:normal|intact|preserved)\b`,
  ].join('|'),
  'gi',
);
const PART_PROCEDURES =
  /\b(?:no|denies|without|never had|has not had) (?:any )?(?:prior |previous |past |earlier )?(spine|spinal|back|neck) (?:procedures?|operations?|interventions?)\b/gi;

const MYELOPATHY_SIGNS =
  /\b(?:no|denies|without|negative for|absence of) (?:any )?(?:clinical |objective )?(?:(?:signs?|evidence|features?|symptoms?) of )?(?:myelopathic|long[- ]tract|upper motor neuron) (?:signs?|features?|symptoms?|findings?)\b/gi;
const GAIT = String.raw`(?:gait (?:disturbance|difficult(?:y|ies)|problems?|instability|imbalance|changes?|abnormalit(?:y|ies))|(?:balance|walking) (?:problems?|difficult(?:y|ies)|disturbance))`;
const HANDS = String.raw`(?:hand (?:clumsiness|dysfunction)|clumsy hands|clumsiness of the hands?|(?:fine motor|dexterity) (?:problems?|difficult(?:y|ies)|loss))`;
const BETWEEN = String.raw`(?:,? (?:or|and|nor) (?:any )?|, )`;
const CARDINAL_DENIED = new RegExp(String.raw`\b(?:no|denies|without) (?:any )?(?:${GAIT}${BETWEEN}${HANDS}|${HANDS}${BETWEEN}${GAIT})\b`, 'gi');
/** A sign of the cord anywhere in the note, said or denied ("hyperreflexia", "Hoffmann sign", "cord compression"): a person reads it. */
const CORD_SIGNS =
  /\b(?:hyperreflexi\w*|hoffmann'?s?|babinski|clonus|spastic\w*|upgoing plantars?|cord compression|compressi\w+ (?:of )?the (?:spinal )?cord)\b/i;

/** What each reading denies, by the heading names the vocabulary reads (looked up, so the concepts are the product's). */
const NEURO_EXAM_DENIES = ['paresis', 'myelopathy', 'cauda equina syndrome'];
const BOWEL_BLADDER_DENIES = ['neurogenic bladder', 'fecal incontinence', 'urinary incontinence', 'urinary retention'];
const SADDLE_AND_SPHINCTER_DENY = ['cauda equina syndrome'];

/** The one concept the vocabulary reads for the whole of a name, or null. */
function conceptOf(vocab: Vocabulary, name: string): { id: string; en: string } | null {
  const read = vocab.find(name, { reach: 'full' });
  return read.length === 1 && read[0].start === 0 && read[0].end === name.length ? read[0].concept : null;
}

function spans(pattern: RegExp, text: string): Array<{ start: number; end: number; part?: string }> {
  pattern.lastIndex = 0;
  return [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length, part: match[1] }));
}

/** The pertinent negatives of a note, one denial per concept and phrase, with the phrase's span. */
export function readPertinentNegatives(text: string, vocab: Vocabulary): PertinentNegative[] {
  const found: PertinentNegative[] = [];
  const deny = (names: readonly string[], at: { start: number; end: number }) => {
    for (const name of names) {
      const concept = conceptOf(vocab, name);
      if (concept) found.push({ kind: 'condition', conceptId: concept.id, name: concept.en, start: at.start, end: at.end });
    }
  };
  for (const at of spans(NORMAL_NEURO_EXAM, text)) deny(NEURO_EXAM_DENIES, at);
  const sphincters = spans(BOWEL_BLADDER_NORMAL, text);
  for (const at of sphincters) deny(BOWEL_BLADDER_DENIES, at);
  const saddle = spans(SADDLE_NORMAL, text);
  // Read at the bowel and bladder phrase: a saddle phrase after it in one list ("no bowel or bladder symptoms, no saddle
  // anaesthesia") is inside the first denial's scope, where the note reader's status would read it as denied twice.
  if (sphincters.length && saddle.length) deny(SADDLE_AND_SPHINCTER_DENY, sphincters[0]);
  for (const at of spans(PART_PROCEDURES, text)) deny([`${at.part} surgery`], at);
  if (!CORD_SIGNS.test(text)) for (const at of [...spans(MYELOPATHY_SIGNS, text), ...spans(CARDINAL_DENIED, text)]) deny(['myelopathy'], at);
  return found;
}
