import { heartFailureClassOf, NYHA_CLASS, nyhaRange } from '../../../../contract/heart-failure-class';
import { CONDITION_QUALIFIERS, type ConditionQualifier } from '../../../../contract/trials';
import { isA, type Mention, vocabulary } from '../vocabulary';
import { NOW_OR_BEFORE_ALL } from './conditions';
import { SPINE_FORM } from './spine-places';

/**
 * Qualifiers a condition rule holds in plain words (decision 077): severity, course, spine part, side.
 */

/** Words that narrow a condition to a form, course or severity of it: never filler. */
export const QUALIFIER =
  /^(?:morbid|morbidly|mild|moderate|severe|significant|significantly|serious|major|minor|chronic|acute|subacute|uncontrolled|unstable|controlled|poorly|well|recurrent|recurring|refractory|resistant|symptomatic|asymptomatic|advanced|early|late|persistent|progressive|untreated|treated|stable|frequent|intractable|life-threatening|decompensated|compensated|primary|secondary|newly|new|only|isolated|lumbar|cervical|thoracic|sacral|lumbosacral|thoracolumbar|bilateral|unilateral|multilevel|ipsilateral|contralateral|localized|localised|focal|continuous|continued|regular|regularly|daily|long-term|longterm|prolonged|intermittent|occasional|high-dose|low-dose)$/;

/** Concepts of the spine, where "lumbar", "cervical" and "thoracic" name the part of the spine (elsewhere "cervical" is the cervix). */
const SPINE_CONCEPT = /spin|disc|vertebr|radicul|sciatica|back|neck|spondyl|stenosis|myelopath|facet|cauda|scolio|kyphos|lordos/i;

/** A comparison or a "non-" before the word: "more than mild", "non-severe" say something a qualifier cannot.
 * "Clinically-significant" is written with a hyphen as often as without: the same words (decision 240). */
const NOT_PLAIN_BEFORE = /(?:\b(?:than|least|most|beyond|exceeding|above|below|over|under|not|non)\s*-?\s*|(?<!\b(?:clinically|medically))-)$/i;

const QUALIFIER_OF: Record<string, ConditionQualifier> = {
  severe: 'severe',
  severely: 'severe',
  mild: 'mild',
  serious: 'serious',
  significant: 'serious',
  meaningful: 'serious',
  chronic: 'chronic',
  acute: 'acute',
  uncontrolled: 'uncontrolled',
  recurrent: 'recurrent',
  recurring: 'recurrent',
  symptomatic: 'symptomatic',
  bilateral: 'both_sides',
  unilateral: 'one_side',
  congenital: 'congenital',
  degenerative: 'degenerative',
};

/**
 * A cancer's extent and course (decision 316), read only beside a cancer: "advanced" or "refractory" elsewhere says
 * something else. "Locally advanced" keeps "locally" unread: it is not metastatic, which "advanced" would hold.
 */
const CANCER_QUALIFIER_OF: Record<string, ConditionQualifier> = {
  metastatic: 'metastatic',
  advanced: 'advanced',
  unresectable: 'unresectable',
  inoperable: 'unresectable',
  refractory: 'refractory',
  relapsed: 'recurrent',
};

/** A cancer's receptors and the pairs of its extent and course (decision 316), beside a cancer only. */
const CANCER_PAIRS: Array<{ pattern: RegExp; qualifier: ConditionQualifier }> = [
  {
    pattern:
      /\b(?:locally\s+)?(?:advanced|unresectable)\s*,?\s*(?:or|and\/or|\/)\s*metastatic\b|\bmetastatic\s*,?\s*(?:or|and\/or|\/)\s*(?:locally\s+)?(?:advanced|unresectable)\b/gi,
    qualifier: 'advanced',
  },
  {
    pattern:
      /\b(?:relapsed|recurrent)\s*(?:,?\s*(?:or|and\/or)\s*|\/\s*)refractory\b|\brefractory\s*(?:,?\s*(?:or|and\/or)\s*|\/\s*)(?:relapsed|recurrent)\b/gi,
    qualifier: 'relapsed_or_refractory',
  },
  { pattern: /\bher-?2(?:\/neu)?(?:[\s-]*(?:positive\b|\+)|[\s-]+(?:overexpressing|amplified)\b)/gi, qualifier: 'her2_positive' },
  { pattern: /\bher-?2(?:\/neu)?[\s-]*negative\b/gi, qualifier: 'her2_negative' },
  { pattern: /\b(?:hormone[\s-]+receptors?|hr)(?:[\s-]*positive\b|\+)/gi, qualifier: 'hormone_receptor_positive' },
  { pattern: /\b(?:hormone[\s-]+receptors?|hr)[\s-]*negative\b/gi, qualifier: 'hormone_receptor_negative' },
  { pattern: /\btriple[\s-]*negative\b/gi, qualifier: 'triple_negative' },
];

/** Whether every concept of the rule is a cancer: under MeSH's neoplasms, or named one. */
const CANCER_NAME = /\b(?:cancer|carcinoma|adenocarcinoma|lymphoma|leuka?emia|myeloma|sarcoma|melanoma|malignan\w*|glioma|glioblastoma|blastoma)\b/i;
const allCancers = (mentions: Mention[]) =>
  mentions.length > 0 && mentions.every((mention) => isA(mention.concept.id, 'mesh:D009369') || CANCER_NAME.test(mention.concept.en));

/** Heart failure, under which every form of it sits ("congestive", "systolic", "HFrEF"). */
const HEART_FAILURE_ID = 'cohortly:heart-failure';
/** A cheap look for the scale's name before the hierarchy is walked. */
const NAMES_NYHA = /\bnyha\b|\bnew\s+york\s+heart/i;

/** MeSH's Infections, whose plain name is "an infection that needs treatment". */
const INFECTION_ID = 'mesh:D000007239';

const SPINE_QUALIFIER: Record<string, ConditionQualifier> = { lumbar: 'lumbar', lumbosacral: 'lumbar', cervical: 'cervical', thoracic: 'thoracic' };

/** A place noun after a part of the spine ("the lumbar region", "cervical levels"). */
const PLACE_NOUN = /^(?:regions?|areas?|levels?|segments?|spine)$/;

/**
 * "Pseudarthrosis at any level of the cervical spine", "osteomyelitis of the lumbar vertebrae": a part of the spine named
 * with the spine right after one condition places that condition on it, whatever the condition (decision 229). The
 * words "any level of" say no more than the part; "the index level", "one level" stay unread.
 */
const NAMED_SPINE_PLACE =
  /^\s+(?:in|on|at|of)\s+(?:any\s+(levels?|segments?)\s+(?:of|in)\s+)?(?:the\s+)?(lumbar|lumbosacral|thoracic|thoracolumbar|cervical)\s+(?:spine|vertebrae|vertebral\s+column)(?=\s*(?:[.,;:)]|$))/i;

/** Words of a spine synonym that say no more than its concept ("lumbar spine fracture" is a spine fracture in the lower back). */
const GENERIC_SPINE_WORDS = new Set([
  'spine',
  'spinal',
  'disc',
  'discs',
  'disk',
  'vertebral',
  'fracture',
  'fractures',
  'surgery',
  'herniated',
  'herniation',
  'hernia',
]);

/** "Requiring", "that has required", "needing treatment with": the words by which a condition names the treatment it needs. */
const NEEDING = String.raw`(?:(?:that\s+)?(?:has|have)\s+(?:been\s+)?)?(?:requir(?:ing|es?|ed)|needing|needs?|needed|necessitating)\s+(?:(?:the\s+)?use\s+of\s+|treatment\s+with\s+)?`;
/**
 * Treatment in general: "treatment", "therapy", "anti-infective" or "antimicrobial agents" (which cover bacteria, viruses
 * and fungi alike). Never one class ("antibiotics", "steroids", "immunosuppressants"), which is narrower than any
 * treatment: a person with an infection treated by an antiviral is not "requiring antibiotics".
 */
const ANY_TREATMENT = String.raw`(?:treatments?|therap(?:y|ies)|(?:anti-?infective|antimicrobial)(?:s|\s+(?:agents?|therapy|treatment|medications?|drugs?)))`;
/**
 * "Infection requiring systemic therapy", "autoimmune disease that has required systemic treatment" (decision 357): the
 * condition is treated by mouth, injection or drip. The rule holds it; a bare diagnosis leaves it unknown. Not
 * "intravenous" or "parenteral", narrower than by mouth.
 */
const SYSTEMIC_NEED = new RegExp(String.raw`\b${NEEDING}systemic\s+${ANY_TREATMENT}\b`, 'gi');
/**
 * "COPD requiring home oxygen", "pulmonary disease necessitating supplemental oxygen therapy" (decision 365): the
 * condition is treated with extra oxygen. Only oxygen given over time (home, supplemental, long-term, continuous, daily);
 * not oxygen during an operation or an emergency.
 */
const OXYGEN_NEED = new RegExp(
  String.raw`\b${NEEDING}(?:(?:home|supplemental|supplementary|long-term|continuous|daily|chronic|ambulatory)\s+){1,2}(?:oxygen|o2)(?:\s+(?:therapy|treatment|supplementation))?\b`,
  'gi',
);
/** "Active infection requiring treatment", "infection needing therapy": what the infection concept's own name says. */
const INFECTION_NEEDS_TREATMENT = new RegExp(String.raw`\b${NEEDING}(?:(?:active|medical|specific)\s+)?${ANY_TREATMENT}\b`, 'gi');

/** Pairs read as one qualifier: "moderate to severe", "mild-to-moderate", "poorly controlled", "morbidly obese". */
const QUALIFIER_PAIRS: Array<{
  pattern: RegExp;
  qualifier: ConditionQualifier | null;
  obesityOnly?: boolean;
  infectionOnly?: boolean;
  /** The treatment the condition needs: read after the condition, its whole span held (`readPairs`). */
  treatmentNeeded?: boolean;
}> = [
  { pattern: /\bmoderate(?:ly)?\s*(?:-\s*)?(?:to|or|and\/or|-)\s*(?:-\s*)?severe(?:ly)?\b/gi, qualifier: 'moderate_or_severe' },
  { pattern: /\bmild\s*(?:-\s*)?(?:to|or|and\/or|-)\s*(?:-\s*)?moderate(?:ly)?\b/gi, qualifier: 'mild_or_moderate' },
  { pattern: /\bpoorly\s+(controlled)\b/gi, qualifier: 'uncontrolled' },
  // "One-sided leg pain", "two-sided sciatica": the side in two words (decision 293).
  { pattern: /\bone[\s-]sided\b/gi, qualifier: 'one_side' },
  { pattern: /\btwo[\s-]sided\b/gi, qualifier: 'both_sides' },
  // "Clinically relevant", "medically important": what "clinically significant" says (decision 229).
  { pattern: /\b(?:clinically|medically)\s+(?:relevant|important)\b/gi, qualifier: 'serious' },
  { pattern: /\b(?:morbid(?:ly)?)\b/gi, qualifier: 'severe', obesityOnly: true },
  { pattern: SYSTEMIC_NEED, qualifier: 'systemic_treatment', treatmentNeeded: true },
  { pattern: OXYGEN_NEED, qualifier: 'oxygen_treatment', treatmentNeeded: true },
  { pattern: INFECTION_NEEDS_TREATMENT, qualifier: null, infectionOnly: true, treatmentNeeded: true },
  // "Local or systemic infection", "systemic or localized": both together are the whole concept, no qualifier.
  { pattern: /\b(?:local(?:i[sz]ed)?\s*(?:,|or|and\/or)\s*systemic|systemic\s*(?:,|or|and\/or)\s*(local(?:i[sz]ed)?))\b/gi, qualifier: null },
];

/**
 * Modifiers that together name every form of a condition (decision 227): "controlled or uncontrolled hypertension",
 * "unilateral or bilateral sciatica", "treated or untreated glaucoma", "mild, moderate or severe psoriasis", "traumatic or
 * non-traumatic" (any word and its "non-"). Both sides are written, so the pair narrows nothing: the rule is the whole
 * condition and holds no qualifier. Only opposites with no third form a trial names ("paroxysmal or persistent" leaves
 * out permanent atrial fibrillation; "known or suspected" adds a suspicion; neither is here).
 */
const OPPOSITES: Array<[string, string]> = [
  ['acute', 'chronic'],
  ['controlled', 'uncontrolled'],
  ['treated', 'untreated'],
  ['symptomatic', 'asymptomatic'],
  ['unilateral', 'bilateral'],
  ['congenital', 'acquired'],
  ['primary', 'secondary'],
  ['active', 'inactive'],
  // An infection is active or latent (tuberculosis, hepatitis B); a stem cell transplant allogeneic or autologous: both
  // name every form (decision 240).
  ['active', 'latent'],
  ['allogeneic', 'autologous'],
  ['stable', 'unstable'],
  ['single', 'multiple'],
  ['complete', 'incomplete'],
  ['complete', 'partial'],
  ['static', 'dynamic'],
  ['local', 'systemic'],
  ['localized', 'systemic'],
  ['localised', 'systemic'],
];
const JOIN = String.raw`\s*(?:,\s*)?(?:or|and\/or|\/)\s*`;
const OPPOSITE_PAIR = new RegExp(
  [
    ...OPPOSITES.flatMap(([a, b]) => [`${a}${JOIN}${b}`, `${b}${JOIN}${a}`]),
    // "Whether treated or not", "controlled or not". ("Active or in remission" is not here: in remission is a past the
    // rule's present would not say.)
    String.raw`(?:whether\s+)?(?:treated|controlled|active|symptomatic)\s*,?\s*or\s+not`,
    // Every severity: "mild, moderate(,) or severe", "mild to severe".
    String.raw`mild\s*,\s*moderate${JOIN}severe`,
    String.raw`mild\s*(?:-\s*)?(?:to|-)\s*(?:-\s*)?severe`,
  ]
    .map((part) => `\\b(?:${part})\\b`)
    .join('|'),
  'gi',
);

/** A word and its "non-": "ischemic or non-ischemic", "traumatic/nontraumatic" (tried only where "non" is written). */
const NON_PAIR = new RegExp(String.raw`\b(?:([a-z]{4,})${JOIN}non-?\s*\1|non-?\s*([a-z]{4,})${JOIN}\2)\b`, 'gi');

/** The spans of modifier pairs that together name every form of a condition ("acute or chronic", "X or non-X"). */
export function wholePairSpans(text: string): Array<[number, number]> {
  const matches = [...text.matchAll(OPPOSITE_PAIR), ...(/\bnon/i.test(text) ? text.matchAll(NON_PAIR) : [])];
  return matches.map((match): [number, number] => [match.index, match.index + match[0].length]).sort((a, b) => a[0] - b[0]);
}

/** "Acute" before "chronic pancreatitis", "unilateral" before "bilateral sciatica": the two words are one whole pair. */
export function isWholePair(before: string, after: string): boolean {
  const pair = `${before} or ${after}`;
  return wholePairSpans(pair).some(([start, end]) => start === 0 && end === pair.length);
}

/** A side word right before a condition: "unilateral", "bilateral", "one-sided", "two-sided". */
const SIDE_BEFORE = /\b(unilateral|bilateral|(?:one|two)[\s-]sided)\s+$/i;
/** A limb or side after a condition: "radicular pain in the unilateral leg" places the pain on one side. */
const SIDE_PLACE = /^\s+(?:in|on|of|down|into)\s+(?:the\s+|a\s+|one\s+)?(unilateral|bilateral)\s+(?:legs?|arms?|limbs?|extremit(?:y|ies)|sides?)\b/i;
const sideOf = (word: string): ConditionQualifier => (/^(?:uni|one)/i.test(word) ? 'one_side' : 'both_sides');

/**
 * "Low back pain with unilateral radiculopathy", "disc prolapse and bilateral sciatica", "leg pain in the unilateral leg"
 * (decision 293): a side word right before (or a side placed right after) one condition of a list follows that condition
 * wherever it sits in the criterion. The rule holds the side: a fact that says the other side explicitly answers it
 * (qualifier-opposites.ts), one that says no side leaves it unknown. Not in a pair naming both sides ("unilateral or
 * bilateral"), nor after a comparison or a "non-", nor when the list's conditions name different sides.
 */
function sideOfListMember(
  text: string,
  same: Mention[],
  unread: Array<{ word: string; start: number; end: number }>,
): { qualifiers: ConditionQualifier[]; consumed: Map<number, number> } | null {
  // "Unilateral sciatica or neck pain": the side is one alternative's, which a rule of alternatives cannot hold alone.
  const ordered = [...same].sort((a, b) => a.start - b.start);
  if (ordered.some((mention, i) => i > 0 && /\bor\b/i.test(text.slice(ordered[i - 1].end, mention.start)))) return null;
  const wholes = wholePairSpans(text);
  const found: ConditionQualifier[] = [];
  const take = (side: string, from: number, to: number) => {
    const words = unread.filter((word) => word.start >= from && word.end <= to);
    const plain = !wholes.some(([start, end]) => from >= start && from < end) && !NOT_PLAIN_BEFORE.test(text.slice(Math.max(0, from - 16), from));
    if (words.length && plain) found.push(sideOf(side));
  };
  for (const mention of same) {
    const before = SIDE_BEFORE.exec(text.slice(0, mention.start));
    if (before) take(before[1], before.index, before.index + before[1].length);
    const place = SIDE_PLACE.exec(text.slice(mention.end));
    if (place) take(place[1], mention.end, mention.end + place[0].length);
  }
  const sides = new Set(found);
  if (sides.size !== 1) return null;
  // The side words are not consumed: they stay unread and keep the review flag, since the side is one condition's and
  // the rule holds it for the whole list.
  return { qualifiers: [...sides], consumed: new Map() };
}

/**
 * The qualifiers a condition rule can hold whole: each word a severity, course, control, spine-part or side word
 * beside the concept, in its clause, with nothing comparing it ("more than mild"). With several concepts only words
 * before the first, which qualify the whole list ("clinically significant heart or liver disease"). Returns the
 * qualifiers and the offsets of the words they hold; words it cannot hold stay unread and keep the review flag.
 */
export function readQualifiers(
  text: string,
  same: Mention[],
  unique: Mention[],
  unread: Array<{ word: string; start: number; end: number }>,
): { qualifiers: ConditionQualifier[]; consumed: Map<number, number> } | null {
  const read = readWholeQualifiers(text, same, unique, unread);
  const sides = (qualifiers: ConditionQualifier[]) => qualifiers.filter((q) => q === 'one_side' || q === 'both_sides');
  if (unique.length < 2 || sides(read?.qualifiers ?? []).length) return read;
  // A side written beside one condition of a list, which the whole-list reading leaves (decision 293).
  const side = sideOfListMember(text, same, unread);
  if (!side) return read;
  if (!read) return side;
  const qualifiers = [...read.qualifiers, ...side.qualifiers].sort((a, b) => CONDITION_QUALIFIERS.indexOf(a) - CONDITION_QUALIFIERS.indexOf(b));
  return { qualifiers, consumed: read.consumed };
}

/**
 * A list of one single word and a longer last concept shares that concept's head noun ("severe kidney or liver disease").
 * "Uncontrolled viral, bacterial or fungal infection": the vocabulary read "viral" with the list's head noun (virus
 * diseases), a word it does not read alone; the list shares the head as "kidney or liver disease" does (decision 240).
 */
function listSharesHead(text: string, first: Mention, last: Mention): boolean {
  const firstWords = text.slice(first.start, first.end).trim().split(/\s+/);
  const lastWords = text.slice(last.start, last.end).trim().split(/\s+/);
  const head = lastWords.at(-1)!.toLowerCase().replace(/s$/, '');
  const sharesHead =
    first.concept.en.toLowerCase().includes(head) ||
    !vocabulary()
      .find(firstWords[0])
      .some((alone) => alone.concept.id === first.concept.id);
  return firstWords.length === 1 && lastWords.length >= 2 && !firstWords.includes(lastWords.at(-1)!) && sharesHead;
}

/** Whether the rule's concepts are cancers, and which words a cancer's qualifiers may take (decision 316). */
function cancerReading(text: string, unique: Mention[]) {
  const cancer = allCancers(unique);
  const spans = cancer ? CANCER_PAIRS.flatMap(({ pattern }) => [...text.matchAll(pattern)].map((match) => [match.index, match.index + match[0].length])) : [];
  const cancerWord = (word: { word: string; start: number; end: number }) =>
    cancer && (Boolean(CANCER_QUALIFIER_OF[word.word]) || spans.some(([from, to]) => word.start >= from && word.end <= to));
  return { cancer, cancerWord };
}

type Candidate = { word: string; start: number; end: number };
type PairChecks = {
  near: (start: number, end: number) => boolean;
  inWhole: (start: number, end: number) => boolean;
  add: (qualifier: ConditionQualifier | null, ...words: Array<{ start: number; end: number }>) => void;
};

/** The qualifiers of `QUALIFIER_PAIRS` a criterion's words hold (`readWholeQualifiers`'s checks of place and pairs). */
function readPairs(
  text: string,
  candidates: Candidate[],
  concept: { obesity: boolean; infection: boolean; after: number },
  { near, inWhole, add }: PairChecks,
) {
  for (const { pattern, qualifier, obesityOnly, infectionOnly, treatmentNeeded } of QUALIFIER_PAIRS) {
    if ((obesityOnly && !concept.obesity) || (infectionOnly && !concept.infection)) continue;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const words = candidates.filter((word) => word.start >= start && word.end <= end);
      // The treatment a condition needs comes after it, whose words may all be filler ("requiring systemic therapy"):
      // its whole span is held, so the treatment flag knows the words are read (review.ts).
      if (treatmentNeeded && start >= concept.after && near(start, end)) {
        add(qualifier, ...words, { start, end });
        continue;
      }
      // Inside a pair that names every form ("mild, moderate or severe"), "moderate or severe" is not a qualifier.
      if (!words.length || inWhole(start, end) || !near(start, end)) continue;
      add(qualifier, ...words);
    }
  }
}

function readWholeQualifiers(
  text: string,
  same: Mention[],
  unique: Mention[],
  unread: Array<{ word: string; start: number; end: number }>,
): { qualifiers: ConditionQualifier[]; consumed: Map<number, number> } | null {
  const first = same[0];
  const last = same.reduce((a, b) => (b.end > a.end ? b : a));
  // Several concepts must be a plain list ("heart or liver disease"): "radiculopathy diagnosed with disc herniation"
  // needs both, which a rule of alternatives does not say, so it keeps its flag.
  const ordered = [...same].sort((a, b) => a.start - b.start);
  for (let i = 1; i < ordered.length; i++) {
    const gap = text.slice(ordered[i - 1].end, ordered[i].start);
    if (ordered[i].start > ordered[i - 1].end && !/^\s*,?\s*(?:(?:or|and\/or|and)\s+)?(?:an?\s+|the\s+)?$/i.test(gap)) return null;
  }
  // A qualifier before a list distributes over a shared head noun only ("severe kidney or liver disease": the first is
  // read as kidney disease), not over a list of whole names ("severe gastrointestinal disease, heart disease,
  // hypertension"), nor onto a second condition ("unilateral sciatica or low back pain": the side is the sciatica's).
  const spine = unique.every((mention) => SPINE_CONCEPT.test(mention.concept.en) || SPINE_CONCEPT.test(mention.concept.id));
  // "Tumour, fracture or infection in the lumbar region": a part of the spine placed right after a list of spine concepts
  // is the whole list's place, and the only word such a list holds (decision 193).
  const after = unique.length > 1 && spine ? /^\s+(?:in|on|at|of)\s+(?:the\s+|any\s+)?([a-z]+)\b/i.exec(text.slice(last.end)) : null;
  const placeAfterList = after && SPINE_QUALIFIER[after[1].toLowerCase()] ? { start: last.end + after[0].length - after[1].length } : null;
  if (unique.length > 1 && !placeAfterList && !listSharesHead(text, first, last)) return null;
  const obesity = unique.length === 1 && /obes/i.test(unique[0].concept.en);
  const infection = unique.length === 1 && unique[0].concept.id === INFECTION_ID;
  const { cancer, cancerWord } = cancerReading(text, unique);
  // A general concept with a spine form of its own ("fracture", "surgery") is read as that form (spine-places.ts) or not at all.
  const named = unique.length === 1 && !spine && !SPINE_FORM[unique[0].concept.id] ? NAMED_SPINE_PLACE.exec(text.slice(last.end)) : null;
  const namedPart = named ? last.end + named[0].indexOf(named[2], named[1] ? named[0].indexOf(named[1]) + named[1].length : 0) : null;
  const namedLevel = named?.[1] ? last.end + named[0].indexOf(named[1]) : null;
  // Candidate words: those the rule left, and those inside a concept's words that its name does not say ("lumbar fracture").
  // Only where the synonym's other words are the concept's own: "lumbar fusion" is a kind of spine surgery, which "spine
  // surgery in the lower back" would not say.
  const candidates = [...unread];
  for (const mention of same) {
    const name = mention.concept.en.toLowerCase();
    // A short form restated in brackets ("lumbar disc herniation (LDH)") is the concept's, not a word of its own.
    const written = text.slice(mention.start, mention.end).replace(/\([^()]*\)/g, (bracket) => ' '.repeat(bracket.length));
    const words = [...written.matchAll(/[a-z-]+/gi)].map((match) => ({ word: match[0].toLowerCase(), at: match.index }));
    // The name's adjective ("obese" of obesity, "asthmatic" of asthma) is the name, not an extra word. Not a plural: a
    // MeSH term in the plural ("recurrent infections" of Reinfection) is a term of its own, narrower than its words.
    const ofName = (word: string) =>
      name.includes(word) || (word.length >= 5 && !word.endsWith('s') && name.includes(word.slice(0, Math.max(4, word.length - 3))));
    const extra = words.filter(({ word }) => !ofName(word) && !/^(?:of|the|in|at)$/.test(word));
    if (extra.some(({ word }) => !QUALIFIER.test(word) && !QUALIFIER_OF[word] && !(cancer && CANCER_QUALIFIER_OF[word]) && !GENERIC_SPINE_WORDS.has(word)))
      continue;
    for (const { word, at } of extra) candidates.push({ word, start: mention.start + at, end: mention.start + at + word.length });
  }
  const qualifiers: ConditionQualifier[] = [];
  // Pairs that name every form ("acute or chronic"): neither their words nor their "or" stand between a qualifier and
  // its concept or make an alternative of it (decision 227).
  const wholes = wholePairSpans(text);
  const inWhole = (start: number, end: number) => wholes.some(([from, to]) => start >= from && end <= to);
  const blankWholes = (part: string) => {
    let blanked = part;
    for (const [from, to] of wholes)
      if (from < blanked.length) blanked = blanked.slice(0, from) + ' '.repeat(Math.min(to, blanked.length) - from) + blanked.slice(to);
    return blanked;
  };
  /** Start -> end of each word held. */
  const consumed = new Map<number, number>();
  const near = (start: number, end: number) => {
    if (NOT_PLAIN_BEFORE.test(text.slice(Math.max(0, start - 16), start))) return false;
    // An unread word between the qualifier and the concept is what it qualifies ("acute trauma like osteoarthritis").
    const from = Math.min(end, first.start);
    const to = Math.max(start, last.end);
    if (
      unread.some(
        (word) =>
          word.start >= from &&
          word.end <= to &&
          !(word.start >= start && word.end <= end) &&
          !QUALIFIER_OF[word.word] &&
          !SPINE_QUALIFIER[word.word] &&
          !cancerWord(word) &&
          !inWhole(word.start, word.end) &&
          word.start !== namedLevel,
      )
    )
      return false;
    // Inside one concept's words it qualifies that concept alone: held only when the rule has no other.
    const inMention = same.some((mention) => start >= mention.start && end <= mention.end);
    if (inMention) return unique.length === 1;
    if (placeAfterList) return start === placeAfterList.start;
    if (unique.length > 1) return end <= first.start && first.start - end <= 25 && !/[,;.:\n]/.test(text.slice(end, first.start));
    const gap = end <= first.start ? text.slice(end, first.start) : start >= last.end ? text.slice(last.end, start) : '';
    // "Active infection or history of recurrent infections": a word after an "or" in its clause may qualify one alternative
    // only. The "or" of "active or history of clinically significant X" joins two times of one severity, not two
    // alternatives; a course word ("active current or history of recurrent infections") may still be the history's alone.
    const clauseBefore =
      blankWholes(text.slice(0, start))
        .split(/[;.:\n]/)
        .at(-1) ?? '';
    const clause = /^(?:clinically\s+)?(?:significant|severe|serious|moderate|mild)/i.test(text.slice(start, end))
      ? clauseBefore.replace(NOW_OR_BEFORE_ALL, ' ')
      : clauseBefore;
    return gap.length <= 40 && !/[;.:\n]/.test(gap.replace(/\(/g, '')) && !(end <= first.start && /\b(?:or|and\/or)\b/i.test(clause));
  };
  const add = (qualifier: ConditionQualifier | null, ...words: Array<{ start: number; end: number }>) => {
    if (qualifier && !qualifiers.includes(qualifier)) qualifiers.push(qualifier);
    for (const word of words) consumed.set(word.start, word.end);
  };
  for (const [start, end] of wholes) {
    const words = candidates.filter((word) => word.start >= start && word.end <= end);
    if (words.length && near(start, end)) add(null, ...words);
  }
  readPairs(text, candidates, { obesity, infection, after: last.end }, { near, inWhole, add });
  for (const { pattern, qualifier } of cancer ? CANCER_PAIRS : []) {
    for (const match of text.matchAll(pattern)) {
      const words = candidates.filter((word) => word.start >= match.index && word.end <= match.index + match[0].length);
      if (words.length && near(match.index, match.index + match[0].length)) add(qualifier, ...words);
    }
  }
  // A heart failure's NYHA class (decision 370): the range the criterion names, every word of it held.
  if (unique.length === 1 && NAMES_NYHA.test(text) && isA(unique[0].concept.id, HEART_FAILURE_ID)) {
    for (const match of text.matchAll(NYHA_CLASS)) {
      const range = nyhaRange(match);
      const end = match.index + match[0].length;
      if (!range || !near(match.index, end)) continue;
      add(heartFailureClassOf(...range), ...candidates.filter((word) => word.start >= match.index && word.end <= end), { start: match.index, end });
    }
  }
  for (const word of candidates) {
    if (consumed.has(word.start) || inWhole(word.start, word.end)) continue;
    const qualifier =
      QUALIFIER_OF[word.word] ??
      (cancer ? CANCER_QUALIFIER_OF[word.word] : undefined) ??
      (spine || word.start === namedPart ? SPINE_QUALIFIER[word.word] : undefined);
    if (!qualifier || !near(word.start, word.end)) continue;
    add(qualifier, word);
    const level = word.start === namedPart && candidates.find((other) => other.start === namedLevel);
    if (level) add(null, level);
    // "In the lumbar region", "at the cervical level": the place noun after a part of the spine says no more than the part.
    const place = SPINE_QUALIFIER[word.word] && candidates.find((next) => PLACE_NOUN.test(next.word) && /^\s+$/.test(text.slice(word.end, next.start)));
    if (place) add(null, place);
  }
  // "Lumbar and/or cervical disc herniation", "cervical or lumbar radiculopathy": two parts of the spine are alternatives,
  // and the rule's qualifiers are all required, so it holds neither (hand-check T): the words stay unread and flag it.
  const parts = new Set([...text.toLowerCase().matchAll(/[a-z]+/g)].map((match) => SPINE_QUALIFIER[match[0]]).filter(Boolean));
  if (parts.size > 1) return null;
  // "Mild" beside "severe" is a range the pairs did not read: not one qualifier.
  const severities = qualifiers.filter((q) => ['mild', 'mild_or_moderate', 'moderate_or_severe', 'severe'].includes(q));
  if (severities.length > 1) return null;
  // In the contract's order: the same qualifiers are the same rule (and the same question) however they were written.
  qualifiers.sort((a, b) => CONDITION_QUALIFIERS.indexOf(a) - CONDITION_QUALIFIERS.indexOf(b));
  return consumed.size ? { qualifiers, consumed } : null;
}
