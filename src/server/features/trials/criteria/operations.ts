import type { ConditionQualifier, CriterionKind, CriterionRule } from '../../../../contract/trials';
import { conceptRef, type Vocabulary } from '../vocabulary';
import { readWindow } from './durations';
import { labelLength, leftover, type Span, spanOf, type TextRule } from './text';

/**
 * An operation named by the generic words, "surgery", "an operation", "a surgical procedure", where no concept the
 * vocabulary knows was read (decision 306): "any surgery within 28 days of screening", "had undergone cervical surgery
 * within 3 months", "history of previous cervical fusion surgery", "prior abdominal surgery". A past operation is the
 * `prior-surgery` concept; one on the spine is `spine-surgery` with its part as the qualifier; any other place the rule
 * cannot hold ("abdominal", "knee") keeps the rule in review. Only a past operation: the words must say it is past
 * ("prior", "had undergone") or give a window before the study ("within 28 days"); an operation the study plans, one the
 * person needs, is a candidate for or is undergoing is the study's own (decision 140) and left to the other readers.
 */

/** The generic names of an operation. */
const OPERATION = /\b(?:surger(?:y|ies)|operations?|surgical\s+(?:procedures?|interventions?)|operative\s+procedures?)\b/gi;

/** Where the words before an operation's name stop being its place or kind: a past word, a subject, a list, a clause. */
const PLACE_STOP =
  /^(?:any|prior|previous|previously|past|recent|recently|history|of|had|has|have|underwent|undergone|who|with|or|and|the|a|an|in|on|at|for|to|by|patients?|participants?|subjects?|no|not|without|other)$/i;

/** The study's own operation, a future one, or one the person would need: never a past operation. */
const NOT_PAST =
  /\b(?:plan(?:s|ned|ning)?|schedul\w*|anticipat\w*|expect\w*|intend\w*|intent(?:ion)?|candidates?|eligible|suitab\w*|requir\w*|need(?:s|ed|ing)?|indicat\w*|undergo(?:ing)?|will|preclud\w*|prevent\w*|example|instance|such\s+as|e\.g|could|might|may|alter\w*|affect\w*|interfer\w*|would|during\s+the\s+(?:study|trial)|as\s+part\s+of|following|after|post-?op\w*|recover\w*|complications?|wound|index|conversion|approach|team|management|diagnosis|amenable|amendable|unable|unfit|contraindicat\w*|risk|elective|awaiting|waiting|listed|referred|consent\w*|surgeon|delay\w*|other\s+than|except\w*|unless|excluding)\b/i;

/** Words that say the operation is in the past. */
const PAST = /\b(?:prior|previous(?:ly)?|past|history\s+of|had|has\s+had|have\s+had|underwent|undergone|recent(?:ly)?|any)\b/i;

/** Parts of the spine a rule holds as its qualifier ("cervical" and "thoracic" without a spine word or a fusion may be the cervix or the chest). */
const SPINE_PART: Record<string, ConditionQualifier> = { lumbar: 'lumbar', lumbosacral: 'lumbar', thoracic: 'thoracic', cervical: 'cervical' };
const SPINE_WORD = /^(?:spinal|spine|back)$/i;

/** Words a past operation's criterion may hold beside the rule, read by it: its past words and the window's anchor. */
const READ_WORDS = new Set(
  'any prior previous previously past recent recently history had has have underwent undergone surgery surgeries operation operations surgical procedure procedures intervention interventions operative of screening enrollment enrolment randomization randomisation registration baseline first dose study entry start day days week weeks month months year years treatment visit'.split(
    ' ',
  ),
);

/** The rule a criterion naming one generic past operation (or a list of them) makes, or null when it names none, or not a past one. */
export function readOperationRule(kind: CriterionKind, text: string, vocab: Vocabulary): TextRule | null {
  const body = text.slice(labelLength(text));
  if (NOT_PAST.test(body)) return null;
  const window = readWindow(text);
  if (!PAST.test(body) && !(window && kind === 'exclusion')) return null;
  const named = namedOperations(text);
  if (!named) return null;
  const concept = vocab.concept(named.place.spine ? 'cohortly:spine-surgery' : 'cohortly:prior-surgery');
  if (!concept) return null;
  const spans: Span[] = [[named.start, named.end]];
  if (window) spans.push(window.span);
  const rule: CriterionRule = {
    type: 'condition',
    condition: concept.en,
    present: kind === 'inclusion',
    concepts: [conceptRef(concept)],
    history: true,
    ...(window ? { within: window.window } : {}),
    ...(named.place.part ? { qualifiers: [named.place.part] } : {}),
    span: spanOf([Math.min(...spans.map((span) => span[0])), Math.max(...spans.map((span) => span[1]))]),
  };
  const left = leftover(text, spans, READ_WORDS);
  const reasons = [
    ...(named.place.unheld ? ['operationPlace'] : []),
    ...(named.place.partWithoutSpine ? ['partWithoutSpine'] : []),
    // "Eyelid surgery or ocular surgery": the rule holds one operation, of the places both share at most.
    ...(named.count > 1 ? ['operationList'] : []),
    // "Had surgery within the last year" as an inclusion: the matcher meets a wanted past fact whatever its date.
    ...(kind === 'inclusion' ? ['pastOperationWanted'] : []),
    // "Recent surgery" with no window: more recent than the rule, which reads any operation ever.
    ...(/\brecent(?:ly)?\b/i.test(body) && !window ? ['recentWithoutWindow'] : []),
    ...(left.length ? [`words: ${left.join(' ')}`] : []),
    ...(/\n/.test(text) ? ['lines'] : []),
  ];
  return reasons.length ? { rule, needsReview: true, reasons } : { rule, needsReview: false };
}

/**
 * The operations the criterion names by the generic words, one or a list of them joined by "or", "and" or commas
 * ("eyelid surgery or ocular surgery"), with the place they share: null when there is none, or one is the study's own
 * ("the surgical procedure") or the end of a longer list ("any other surgery").
 */
function namedOperations(text: string): { start: number; end: number; place: OperationPlace; count: number } | null {
  const found = [...text.matchAll(OPERATION)].filter((match) => match.index >= labelLength(text));
  if (!found.length) return null;
  const places: OperationPlace[] = [];
  let [start, end] = [text.length, 0];
  for (const match of found) {
    if (/\b(?:the|this|that|its|their|other)\s+$/i.test(text.slice(0, match.index))) return null;
    const named = placeWordsBefore(text, match.index);
    const place = placeOf(named.words);
    if (!place) return null;
    // Each after the first follows the one before it, as the next item of one list.
    if (places.length && !/^\s*(?:,\s*)?(?:or|and|and\/or|,)\s*$/i.test(text.slice(end, named.start))) return null;
    places.push(place);
    [start, end] = [Math.min(start, named.start), match.index + match[0].length];
  }
  const spine = places.every((place) => place.spine);
  const parts = new Set(places.map((place) => place.part));
  return {
    start,
    end,
    count: places.length,
    place: {
      spine,
      part: spine && parts.size === 1 ? places[0].part : null,
      unheld: places.some((place) => place.unheld) || (spine && parts.size > 1),
      partWithoutSpine: places.some((place) => place.partWithoutSpine),
    },
  };
}

interface OperationPlace {
  spine: boolean;
  part: ConditionQualifier | null;
  /** A place the rule cannot hold ("abdominal", "knee"): the rule is wider than the words. */
  unheld: boolean;
  /** "Cervical surgery", "thoracic surgery" with no spine word: the spine's part, most often, but the cervix or the chest too. */
  partWithoutSpine: boolean;
}

/** The place and kind words right before the operation's name (up to three), read back to a past word or a clause. */
function placeWordsBefore(text: string, at: number): { words: string[]; start: number } {
  const words: string[] = [];
  let start = at;
  const before = /([a-z][a-z-]*)\s+$/i;
  for (let taken = 0; taken < 4; taken++) {
    const word = before.exec(text.slice(0, start));
    if (!word || PLACE_STOP.test(word[1])) break;
    words.unshift(word[1].toLowerCase());
    start = word.index;
  }
  return { words, start };
}

/** The place the words name; null when there are too many of them to be one place. */
function placeOf(words: readonly string[]): OperationPlace | null {
  if (words.length > 3) return null;
  const parts = words.filter((word) => SPINE_PART[word]);
  // A fusion with a part of the spine is the spine's ("cervical fusion"); alone it may be an ankle's.
  const spineWord = words.some((word) => SPINE_WORD.test(word) || (word === 'fusion' && parts.length > 0));
  const others = words.filter((word) => !SPINE_PART[word] && !SPINE_WORD.test(word) && !(word === 'fusion' && parts.length > 0));
  if (parts.length > 1) return null;
  return {
    spine: parts.length > 0 || spineWord,
    part: parts.length ? SPINE_PART[parts[0]] : null,
    unheld: others.length > 0,
    partWithoutSpine: parts.length > 0 && parts[0] !== 'lumbar' && !spineWord,
  };
}
