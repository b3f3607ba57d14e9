import type { ConceptRef, CriterionKind, CriterionRule } from '../../../../contract/trials';
import { type Concept, conceptRef, isA, type Mention, type Vocabulary } from '../vocabulary';
import { criterionMentions } from './criterion-mentions';
import { readWindow } from './durations';
import { labelLength, leftover, type Span, spanOf, type TextRule } from './text';

/**
 * Another cancer (decision 305): "Other malignancy within 5 years prior to enrollment", "History of another malignancy
 * in the past 3 years, except adequately treated basal cell carcinoma of the skin", "Malignancies other than the disease
 * under study", "second primary cancer". The rule is the vocabulary's cancer (MeSH Neoplasms), not wanted, in the
 * window the words give (else ever for "history of"/"prior"), with the cancers the criterion excepts, and, when the
 * words say "other", "another", "second" or "other than the disease under study", marked as a cancer other than the
 * trial's own (`otherThanTrialCondition`): the matcher never counts the trial's condition, or anything under it, against
 * the person (own-condition.ts).
 *
 * Read only when the criterion is about that and nothing else: every word outside the cancer, its time and its
 * exceptions is filler, a subject or a history word, else the rule goes to review. An exception is held as the concept
 * the vocabulary reads for its words (the one a note's same words are read as), without the treatment words that only
 * narrow it ("adequately treated", "localized"): holding more than the words is the safe side, a person with the
 * exception is never refused. An exception with a condition the rule cannot hold ("no evidence of disease for 3
 * years", "unless", "other cancers with a low risk") sends the rule to review.
 */

const CANCER_ID = 'mesh:D000009369';
const SECOND_PRIMARY_ID = 'mesh:D016609';

/** "Other", "another", "second": a cancer besides the trial's own. */
const OTHER_WORD = /\b(?:other|another|second|secondary|additional|separate|synchronous|metachronous)\b/i;

/** "Other than the disease under study", "other than the one treated in this trial": the trial's own cancer. */
const OWN_CANCER =
  /\b(?:other\s+than|besides|apart\s+from|aside\s+from|in\s+addition\s+to)\s+(?:the\s+|that\s+of\s+the\s+)?(?:(?:disease|cancer|malignancy|tumou?r|condition|indication|diagnosis|one)\s+(?:under\s+(?:study|investigation)|being\s+(?:studied|treated|investigated|evaluated)|(?:treated|studied|investigated|evaluated)\s+in\s+this\s+(?:study|trial)|of\s+(?:interest|study|this\s+(?:study|trial))|(?:for\s+which|that)\s+(?:the\s+)?(?:patient|participant|subject)s?\s+(?:is|are)\s+(?:being\s+)?(?:enrolled|treated))|(?:study|trial)(?:'s)?\s+(?:disease|indication|cancer|malignancy|tumou?r)|primary\s+(?:tumou?r|cancer|malignancy|disease))\b/gi;

/** The cue that opens the list of excepted cancers. */
const EXCEPT_CUE =
  /\b(?:with\s+(?:the\s+)?exceptions?\s+of|exceptions?\s+(?:include|includes|are|is|being)|except(?:\s+for)?|excluding|exclusive\s+of|other\s+than|apart\s+from|aside\s+from|besides|not\s+including)\b|\bexceptions?\s*:/i;

/** Another person's cancer, a cancer treatment, a permission: another class of criterion. */
const NOT_THIS =
  /\b(?:family|relatives?|mother|father|sibling|first[-\s]degree|parents?|eligible|allowed|permitted|permissible|acceptable|may\s+(?:be\s+)?(?:enrol|includ|participat|enter)\w*|can\s+be\s+(?:enrol|includ)\w*|not\s+(?:be\s+)?excluded|will\s+be\s+considered|metasta\w*|spread|brain|cns|central\s+nervous|leptomeningeal|screening\s+for|risk\s+of|predispos\w*|syndrome|mutation|carrier)\b/i;

/** What follows a cancer that names something else by it: its treatment, its care, its cells. */
const TREATMENT_AFTER =
  /^[\s-]*(?:therap|treatment|types?\b|kinds?\b|drugs?\b|agents?\b|medic|chemo|regimens?\b|surger|care\b|directed|related|cells?\b|screening|survivors?\b|patients?\b|diagnosis\s+and\s+treatment|centers?\b|clinic|registry|vaccin|immunotherap|radiation|radiotherap|biops)/i;

/** A word that names a cancer, read or not: an exception of them is this reader's, held or sent to review. */
const CANCER_WORD = /\b(?:malignan|cancer|carcinoma|neoplas|tumou?r|melanoma|lymphoma|leuka?emia|sarcoma)/i;

/** "Patients whose cancer is other than adenocarcinoma", "the malignancy has spread": the trial's own cancer described. */
const DESCRIBED =
  /\b(?:whose|their|his|her|its)\s+(?:\w+\s+)?(?:cancer|malignan\w*|tumou?r|disease)\b|\b(?:cancer|malignanc(?:y|ies)|tumou?rs?)\s+(?:is|are|was|were|has|have|had|must|should)\b/i;

/** A negation before the cancer: "no other malignancy", "free of other cancer". */
const NEGATION = /\b(?:no|not|without|free\s+(?:of|from)|absence\s+of|never|none)\b/i;

/** Words that only say whose, since when or how known: a subject, a history word, the cancer's kind named by "other". */
const UNDERSTOOD = new Set(
  `another second secondary additional separate synchronous metachronous concomitant coexisting co existing simultaneous primary
  malignant malignancy malignancies cancer cancers type types form forms kind organ system new suspected personal individuals
  diagnoses documented prior previous known histologically pathologically cytologically proven date`.split(/\s+/),
);

/** Narrower than any cancer: a rule of all cancer would refuse more than the words. */
const NARROWING =
  /\b(?:invasive|metastatic|advanced|solid|hematologic\w*|haematologic\w*|requiring|requires?|under(?:going)?\s+treatment|progressi\w*|untreated|uncontrolled|symptomatic|life[-\s]threatening|clinically\s+significant|unstable|recurren\w*|relaps\w*)\b/i;

/** Treatment and extent words of an excepted cancer: they only narrow the exception, which is held whole (the safe side). */
const EXCEPTION_STATUS =
  /\b(?:(?:adequately|appropriately|properly|curatively|successfully|completely|effectively|definitively|surgically|locally|previously|fully|optimally)\s+)?(?:treated|resected|excised|removed|managed|cured)(?:\s+with\s+curative\s+intent)?\b|\bwith\s+curative\s+intent\b|\b(?:localized|localised|local|superficial|non[-\s]?invasive|low[-\s]grade|low[-\s]risk|early[-\s]stage|organ[-\s]confined|stage\s+(?:0|i|1|ia|ib))\b|\b(?:any|a|an|history\s+of|patients?\s+with)\b/gi;

/** An exception with a condition the rule cannot hold: it goes to review. */
const EXCEPTION_CONDITION =
  /\b(?:no\s+evidence|evidence|disease[-\s]free|remission|recurr\w*|relaps\w*|for\s+(?:at\s+least|more\s+than|over)|years?|months?|unless|provided|if|who|whom|which|that|psa|prostate[-\s]specific|normal|stable|requir\w*|considered|deemed|investigator|likelihood|expected|potential|natural\s+history|other|others|low\s+risk\s+of|metasta\w*|currently|ongoing|under\s+(?:treatment|observation|surveillance)|active)\b/i;

/** Where the words of a condition on an excepted cancer begin: its condition words, or a clause's first word. */
const CONDITION_START = new RegExp(String.raw`${EXCEPTION_CONDITION.source}|\b(?:with|without|who|whose|that|which|for|when|where|since|after|before)\b`, 'i');

/** Where an excepted cancer is: the words read with its kind ("carcinoma in situ of the cervix"). */
const PLACE = /\b(?:skin|cutaneous|cervix|cervical|uterine|uterus|breast|bladder|prostate|prostatic|oral\s+cavity|thyroid|vulva|vulvar|colon|anal|anus)\b/gi;

/** "Basal or squamous cell carcinoma of the skin": two kinds sharing their last words, each read whole. */
const SHARED_CELL_KIND = /\b(basal|squamous)(?:\s+cell)?\s*(?:,|\/|or|and|and\/or)\s*(squamous|basal)\s+cell\s+/gi;

/** The rule of a criterion about another cancer, or null when it is not one (another reader reads it). */
export function readOtherCancerRule(kind: CriterionKind, text: string, vocab: Vocabulary): TextRule | null {
  if (!/\b(?:malignan|cancer|neoplas|carcinoma)/i.test(text)) return null;
  const start = labelLength(text);
  const found = criterionMentions(vocab, text).filter((mention) => mention.concept.kind === 'condition' || mention.concept.kind === 'medication');
  const cancers = found.filter((mention) => mention.start >= start && (mention.concept.id === CANCER_ID || mention.concept.id === SECOND_PRIMARY_ID));
  if (!cancers.length) return null;
  // The cancers the criterion is about come before its exceptions ("except ... other treated malignancy" is one of them).
  const own = ownCancerSpans(text, cancers[0].end);
  const cue = exceptionCue(text, cancers[0].end, own);
  const heads = cancers.filter((mention) => !cue || mention.end <= cue.index);
  // "Other cancer therapy", "anti-cancer agents", "cancer-related pain": a treatment or another thing named by the cancer.
  if (!heads.length || heads.some((head) => TREATMENT_AFTER.test(text.slice(head.end)) || /\banti[-\s]?$/i.test(text.slice(0, head.start)))) return null;
  const lastHead = heads[heads.length - 1];
  const headPart = text.slice(0, cue ? cue.index : text.length);
  // Nothing else named before the exceptions: "cancer or tuberculosis" is a list of its own.
  if (found.some((mention) => mention.end <= (cue?.index ?? text.length) && !heads.includes(mention) && !inside(mention, own))) return null;
  if (NOT_THIS.test(headPart.slice(start)) || DESCRIBED.test(headPart.slice(start))) return null;
  const other = OTHER_WORD.test(headPart.slice(start, lastHead.end)) || own.length > 0 || heads.some((head) => head.concept.id === SECOND_PRIMARY_ID);
  // An exclusion says "has had one"; an inclusion must say "has none". The other way round is another reader's.
  const negated = NEGATION.test(text.slice(start, heads[0].start));
  if (kind === 'exclusion' ? negated : !negated) return null;
  // "Other than the disease under study" or "another" make sense only beside a cancer; a bare "cancer" needs exceptions.
  if (!other && !cue) return null;
  const window = readWindow(headPart);
  const exception = cue ? readExceptions(text, cue, vocab) : null;
  if (exception?.notOurs) return null;
  return otherCancerRule(text, { heads, own, window, exception, other, headPart }, vocab);
}

interface ReadParts {
  heads: Mention[];
  own: Span[];
  window: ReturnType<typeof readWindow>;
  exception: ReadExceptions | null;
  other: boolean;
  headPart: string;
}

function otherCancerRule(text: string, parts: ReadParts, vocab: Vocabulary): TextRule {
  const { heads, own, window, exception, other, headPart } = parts;
  const anchors = window
    ? [...headPart.matchAll(WINDOW_ANCHOR)].filter((match) => match.index >= window.span[0]).map((match): Span => [match.index, match.index + match[0].length])
    : [];
  const spans: Span[] = [...heads.map((head): Span => [head.start, head.end]), ...own, ...(window ? [window.span] : []), ...anchors];
  const left = leftover(headPart, spans, UNDERSTOOD);
  // "History of", "prior": ever; "active", "current" alone: now. A window says when, and "ever" is then not the rule's.
  const withoutWindow = window ? headPart.slice(0, window.span[0]) + headPart.slice(window.span[1]) : headPart;
  const history = !window && /\b(?:history|prior|previous(?:ly)?|past|had|ever|former)\b/i.test(withoutWindow);
  // "Second primary malignancy" is read as the cancer it is another of: MeSH files second primaries as their own heading.
  const cancer = heads.find((head) => head.concept.id === CANCER_ID)?.concept ?? vocab.concept(CANCER_ID) ?? heads[0].concept;
  const except = exception?.concepts ?? [];
  const rule: CriterionRule = {
    type: 'condition',
    condition: cancer.en,
    present: false,
    concepts: [conceptRef(cancer)],
    ...(history ? { history: true } : {}),
    ...(window ? { within: window.window } : {}),
    ...(except.length ? { except } : {}),
    ...(other ? { otherThanTrialCondition: true } : {}),
    span: spanOf([heads[0].start, exception ? exception.end : Math.max(heads[heads.length - 1].end, ...spans.map((span) => span[1]))]),
  };
  const numbers = /\d/.test(blank(headPart, spans).slice(labelLength(text)));
  const reasons = [
    ...(left.length ? [`words: ${left.join(' ')}`] : []),
    ...(NARROWING.test(headPart) ? ['qualified'] : []),
    ...(numbers ? ['numbers'] : []),
    ...(exception?.unheld.length ? [`exception: ${exception.unheld.join('; ')}`] : []),
    ...(/\n/.test(headPart) ? ['lines'] : []),
  ];
  return reasons.length ? { rule, needsReview: true, reasons, unread: left } : { rule, needsReview: false };
}

/** The words of "other than the disease under study" after the cancer. */
function ownCancerSpans(text: string, after: number): Span[] {
  const spans: Span[] = [];
  OWN_CANCER.lastIndex = 0;
  for (const match of text.matchAll(OWN_CANCER)) if (match.index >= after - 1) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

const inside = (mention: Pick<Mention, 'start' | 'end'>, spans: readonly Span[]) => spans.some(([start, end]) => mention.start >= start && mention.end <= end);

/** "Prior to Cycle 1 Day 1", "before the first dose of study drug": the day a window counts back from, the study's start. */
const WINDOW_ANCHOR =
  /\b(?:prior\s+to|before|preceding|of)\s+(?:the\s+)?(?:cycle\s+1,?\s+day\s+1|c1d1|day\s+1|first\s+dose(?:\s+of\s+(?:the\s+)?study\s+(?:drug|treatment|medication|intervention))?|study\s+(?:entry|start|enrol(?:l)?ment|treatment|drug)|enrol(?:l)?ment|randomi[sz]ation|registration|screening(?:\s+visit)?|(?:signing\s+(?:of\s+)?)?(?:the\s+)?informed\s+consent|consent)\b/gi;

/** The exception cue after the cancer, outside the trial's own words ("other than the disease under study"). */
function exceptionCue(text: string, after: number, own: readonly Span[]): { index: number; end: number } | null {
  const pattern = new RegExp(EXCEPT_CUE.source, 'gi');
  for (const match of text.matchAll(pattern)) {
    if (match.index < after || inside({ start: match.index, end: match.index + 1 }, own)) continue;
    return { index: match.index, end: match.index + match[0].length };
  }
  return null;
}

const blank = (text: string, spans: readonly Span[]) => {
  let rest = text;
  for (const [start, end] of spans) if (start < rest.length) rest = rest.slice(0, start) + ' '.repeat(Math.min(end, rest.length) - start) + rest.slice(end);
  return rest;
};

interface ReadExceptions {
  concepts: ConceptRef[];
  /** The excepted cancers (or their conditions) the rule cannot hold, in their words. */
  unheld: string[];
  end: number;
  /** The words after the cue are not cancers at all ("except for the study's own treatment"): not this reader's. */
  notOurs: boolean;
}

/** The excepted cancers after the cue, each read as the vocabulary reads its words. */
function readExceptions(text: string, cue: { index: number; end: number }, vocab: Vocabulary): ReadExceptions {
  const open = text.lastIndexOf('(', cue.index);
  const inBracket = open > text.lastIndexOf(')', cue.index);
  const close = inBracket ? text.indexOf(')', cue.end) : -1;
  const end = close >= 0 ? close : text.length;
  const words = text
    .slice(cue.end, end)
    .replace(SHARED_CELL_KIND, (_all, first: string, second: string) => `${first} cell carcinoma of the skin or ${second} cell `);
  const after = close >= 0 ? text.slice(close + 1) : '';
  const concepts: ConceptRef[] = [];
  const unheld: string[] = [];
  if (/[a-z]{3}/i.test(after.replace(/[.;,\s]+/g, ' '))) unheld.push(after.trim());
  let lastKind = '';
  let cancers = 0;
  for (const raw of words.split(/\s*(?:,|;|\||\n|\s-\s|^-\s|\bor\b|\band\/or\b|\band\b|\bas\s+well\s+as\b)\s*/i)) {
    const item = raw.replace(/^[\s\-–•*:]+|[\s.:;]+$/g, '');
    if (!item) continue;
    // "... of the cervix or breast": a place alone takes the kind before it.
    const placeOnly =
      item
        .replace(PLACE, '')
        .replace(/\b(?:the|of)\b/gi, '')
        .trim() === '';
    const whole = placeOnly && lastKind ? `${lastKind} of the ${item}` : item;
    const read = readExcepted(whole, vocab);
    if (read.kind) lastKind = read.kind;
    if (read.concepts.length) cancers++;
    if (read.condition || !read.concepts.length) unheld.push(item);
    for (const concept of read.concepts) if (!concepts.some((held) => held.id === concept.id)) concepts.push(concept);
  }
  return { concepts, unheld, end, notOurs: cancers === 0 && !CANCER_WORD.test(words) };
}

/** A cancer by MeSH's tree, or by its ICD-10-CM chapter of neoplasms (C, D0: a hand entry the tree does not place). */
const isCancer = (concept: Concept) => isA(concept.id, CANCER_ID) || /^(?:C\d|D0)/.test(concept.icd10 ?? '');

/** One excepted cancer: its concepts (with the cancer of its place for an "in situ" one), its kind's words, whether it says more. */
function readExcepted(item: string, vocab: Vocabulary): { concepts: ConceptRef[]; kind: string; condition: boolean } {
  const words = item
    .replace(/\bin[-\s]situ\s+(carcinomas?|cancers?)\b/gi, '$1 in situ')
    .replace(/\bnon[-\s]?melanomatous\b/gi, 'non-melanoma')
    .replace(/\bcarcinomas\b/gi, 'carcinoma')
    .replace(/\buterine\s+cervix\b/gi, 'cervix')
    .replace(/[/()[\]]/g, ' ');
  // The cancer is read from the words before a condition on it ("skin cancer with no sign of disease for 2 years").
  const stripped = words.replace(EXCEPTION_STATUS, ' ');
  const at = stripped.search(CONDITION_START);
  const condition = at >= 0;
  const plain = (condition ? stripped.slice(0, at) : stripped)
    .replace(/\b(?:with|and|or|in|whose)\s*$/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const mentions = vocab.find(plain, { reach: 'full' }).filter((mention) => mention.concept.kind === 'condition');
  const cancers = mentions.filter((mention) => mention.concept.id !== CANCER_ID && isCancer(mention.concept));
  if (!cancers.length || cancers.length !== mentions.length) return { concepts: [], kind: '', condition };
  const places = [...plain.matchAll(PLACE)].map((match) => match[0].toLowerCase());
  let rest = plain;
  for (const mention of [...cancers].sort((a, b) => b.start - a.start)) rest = rest.slice(0, mention.start) + rest.slice(mention.end);
  if (
    rest
      .replace(PLACE, ' ')
      .replace(/\b(?:of|the|in|situ)\b/gi, ' ')
      .trim()
  )
    return { concepts: [], kind: '', condition };
  const concepts = cancers.map((mention) => conceptRef(mention.concept));
  // "Carcinoma in situ of the cervix": a note may call it "cervical carcinoma in situ", read as cervical cancer; the
  // cancer of its place is excepted too, so such a note never refuses the person.
  const inSitu = /\bin\s+situ\b/i.test(plain);
  const anyInSitu = inSitu ? vocab.find('carcinoma in situ', { reach: 'full' })[0] : undefined;
  if (anyInSitu && !concepts.some((concept) => concept.id === anyInSitu.concept.id)) concepts.push(conceptRef(anyInSitu.concept));
  for (const place of inSitu ? places : []) {
    // Only a cancer the rule's own can count: a hand entry the tree does not place is never one of its facts.
    const site = vocab
      .find(`cancer of the ${place === 'cervical' ? 'cervix' : place}`, { reach: 'full' })
      .find((mention) => isA(mention.concept.id, CANCER_ID));
    if (site && site.concept.id !== CANCER_ID && !concepts.some((concept) => concept.id === site.concept.id)) concepts.push(conceptRef(site.concept));
  }
  const kind = plain.slice(cancers[0].start, cancers[cancers.length - 1].end);
  return { concepts, kind, condition };
}
