import { type ConditionDuration, type CriterionKind, durationDays, type TimeWindow } from '../../../../contract/trials';
import { type Concept, conceptRef, type Mention } from '../vocabulary';
import { joinNames, labelLength, leftover, type Span, spanOf, type TextRule, toNumber } from './text';

/**
 * Time: a window ("within 6 months") and how long a condition has lasted ("back pain for more than 3 months").
 */

const WINDOW =
  /\b(?:within|in|during|for|over)\s+(?:the\s+)?(?:last|past|previous|preceding|prior)?\s*(?:(?:a\s+)?minimum\s+of\s+|at\s+least\s+)?(\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*(?:\(\d+\)\s*)?(?:(?:last|past|previous|preceding|prior)\s+)?(days?|weeks?|months?|years?|hours?)|(?<!(?:more than|at least|greater than|longer than|over|equal to|>|≥|>=|=>)\s*)(?<![\d.,])(\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*(?:\(\d+\)\s*)?(days?|weeks?|months?|years?|hours?)\s+(?:prior to|before|preceding)\b/i;

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12 };

const WINDOW_ONE =
  /\b(?:within|in|during)\s+(?:the\s+)?(?:last|past|previous|preceding|prior)\s+(day|week|month|year)\b|\bwithin\s+(?:a|one)\s+(day|week|month|year)\b/i;

export function readWindow(text: string): { window: TimeWindow; span: Span } | null {
  // "Within seventy-two (72) hours": the digits in parentheses stand for the written number (same length, so spans hold).
  text = text.replace(
    /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:-[a-z]+)?\s*\((\d+)\)/gi,
    (written, digits: string) => digits.padEnd(written.length, ' '),
  );
  const match = WINDOW.exec(text);
  if (!match) {
    const one = WINDOW_ONE.exec(text);
    if (!one) return null;
    return { window: { value: 1, unit: `${(one[1] ?? one[2]).toLowerCase()}s` as TimeWindow['unit'] }, span: [one.index, one.index + one[0].length] };
  }
  const amount = match[1] ?? match[3];
  let unit = (match[2] ?? match[4]).toLowerCase().replace(/s$/, '');
  let value = WORD_NUMBERS[amount.toLowerCase()] ?? toNumber(amount);
  if (!value) return null;
  // "Within 72 hours": whole days only (the window's units); "within 36 hours" is left for a person.
  if (unit === 'hour') {
    if (value % 24 !== 0) return null;
    [value, unit] = [value / 24, 'day'];
  }
  // "For at least 90 days": a duration; only "within" takes "at least / a minimum of" ("within a minimum of 30 days").
  if (!/^within\b/i.test(match[0]) && /\b(?:minimum|least)\b/i.test(match[0])) return null;
  // "for", "in" and "over" make a window only with "last/past/previous": "pain for 6 weeks", "over 6 months"
  // are durations, "in 6 months" is ahead.
  if (
    /^(?:over|for|in)\b/i.test(match[0]) &&
    !/\b(?:last|past|previous|preceding|prior)\b/i.test(match[0]) &&
    !/^\s*(?:prior to|before|preceding)\b/i.test(text.slice(match.index + match[0].length))
  )
    return null;
  // "Diagnosed over 2 years before screening" is more than 2 years ago: a duration, never "within 2 years".
  if (/^over\b/i.test(match[0]) && !/\b(?:last|past|previous|preceding|prior)\b/i.test(match[0])) return null;
  return { window: { value, unit: `${unit}s` as TimeWindow['unit'] }, span: [match.index, match.index + match[0].length] };
}

const DURATION =
  /\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|many)\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:days?|weeks?|months?|years?|yrs?|hours?)\b/gi;

/** A time quantity ("three months", "6-week") outside the rule's words: a duration or a point in time the rule does not hold. */
export function leftoverDuration(text: string, spans: Span[]): boolean {
  return [...text.matchAll(DURATION)].some((match) => !spans.some(([start, end]) => match.index >= start && match.index < end));
}

const DURATION_NUMBER = String.raw`(\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty-four)`;

const DURATION_UNIT = String.raw`(days?|weeks?|wks?|months?|mos?|years?|yrs?)`;

const AT_LEAST = String.raw`at\s+least|(?:a\s+)?minimum\s+of|(?:greater|more|longer)\s+than(?:\s+or\s+equal\s+to)?|equal\s+to\s+or\s+(?:greater|more|longer)\s+than|over|in\s+excess\s+of|exceeding|≥|>=|=>|>|≧`;

const AT_MOST = String.raw`(?:less|fewer|shorter)\s+than(?:\s+or\s+equal\s+to)?|equal\s+to\s+or\s+(?:less|shorter)\s+than|under|up\s+to|no\s+(?:more|longer)\s+than|not\s+(?:more|longer)\s+than|not\s+exceeding|at\s+most|(?:a\s+)?maximum\s+of|≤|<=|=<|<|≦`;

/** One bound: "at least 3 months", "< 6 weeks", "6 weeks or more", "a 1-year". Groups: at least, at most, number, unit, "or more/less". */
const DURATION_BOUND = new RegExp(
  String.raw`^(?:(${AT_LEAST})|(${AT_MOST}))?\s*(?:an?\s+)?${DURATION_NUMBER}\s*(?:\(\d+\)\s*)?-?\s*${DURATION_UNIT}(?![a-z])(?:['’]s?)?(?:\s+or\s+(more|longer|greater|over|above|less|shorter|fewer))?`,
  'i',
);

const DURATION_BETWEEN = new RegExp(
  String.raw`^(?:between|from)\s+${DURATION_NUMBER}\s*${DURATION_UNIT}?\s*(?:and|to|-|–)\s*${DURATION_NUMBER}\s*${DURATION_UNIT}(?![a-z])`,
  'i',
);

/** After the bound: "duration", "before screening", "ago": part of the duration's words. */
const DURATION_TAIL =
  /^(?:\s*(?:of\s+|in\s+)?duration\b)?(?:\s*(?:ago|before|prior\s+to|preceding)\b(?:\s+(?:the\s+)?(?:screening|enrol+ment|inclusion|randomi[sz]ation|(?:study\s+)?entry|baseline|study|trial)\b(?:\s+visit\b)?)?)?/i;

/**
 * Words between a condition and its duration: "low back pain lasting more than", "asthma for at least", "T2D diagnosed ≥",
 * "disc herniation diagnosed by MRI whose symptoms started at least" (how it was diagnosed says no more than the diagnosis).
 */
const DURATION_LINK =
  /^(?:\s*\([A-Za-z0-9-]{1,12}\)|[\s,:()–-]+|diagnosed\s+(?:by|on|with|using|via)\s+(?:an?\s+|the\s+)?(?:MRI|CT|imaging|x-?rays?|radiograph\w*|biopsy|ultrasound|EMG|endoscopy|colonoscopy|(?:clinical\s+)?examination|physicians?|doctors?|specialists?|investigators?)\b|(?:whose|symptoms?|pain|that|which|has|have|had|been|lasting|lasted|lasts|persisting|persisted|persists|persistent|present|existing|ongoing|with|a|an|total|duration|of|for|since|diagnosed|diagnosis|evolution|the|is|was|started|began|begun|onset)\b)*/i;

export const DURATION_WORDS = new Set(
  'whose symptoms symptom pain lasting lasted lasts persisting persisted persists persistent present existing ongoing total duration evolution started began begun onset ago or and but more longer greater less shorter fewer a an one two three four five six seven eight nine ten eleven twelve eighteen twenty-four d w wks mos yrs exceeding excess'.split(
    ' ',
  ),
);

const DURATION_NUMBERS: Record<string, number> = { ...WORD_NUMBERS, a: 1, an: 1, eleven: 11, eighteen: 18, 'twenty-four': 24 };

const durationUnit = (unit: string) => (/^d/i.test(unit) ? 'days' : /^w/i.test(unit) ? 'weeks' : /^mo/i.test(unit) ? 'months' : 'years');

const durationValue = (number: string, unit: string) => durationDays(DURATION_NUMBERS[number.toLowerCase()] ?? toNumber(number), durationUnit(unit));

/** "At least a 1-year history of", "more than 3 months of": a duration right before the condition. */
const DURATION_BEFORE = new RegExp(
  String.raw`(?:^|[\s(,;:])((?:(?:${AT_LEAST}|${AT_MOST})\s*)?(?:an?\s+)?${DURATION_NUMBER}\s*-?\s*${DURATION_UNIT}(?:['’]s?)?(?:\s+or\s+(?:more|longer|greater))?)\s*(history\s+|duration\s+)?(?:of|with)\s+$`,
  'i',
);

export interface ReadDuration {
  bounds: Omit<ConditionDuration, 'span'>;
  /** The duration's own words. */
  span: Span;
  /** From the concept to the end of the duration (the words between are read as its link). */
  reach: Span;
}

/** A duration at the start of `text` (offset `at` in the criterion): its bounds and length, or null. */
function durationAt(text: string, at: number): { bounds: Omit<ConditionDuration, 'span'>; end: number } | null {
  // "6 or more weeks" is "6 weeks or more": the same characters in another order, so lengths and spans hold.
  text = text.replace(
    /^(\s*\S+)(\s+or\s+(?:more|longer|greater|fewer|less))(\s+)(days?|weeks?|months?|years?)\b/i,
    (_all, amount: string, or: string, space: string, unit: string) => `${amount}${space}${unit}${or}`,
  );
  const between = DURATION_BETWEEN.exec(text);
  let bounds: Omit<ConditionDuration, 'span'> = {};
  let length: number;
  if (between) {
    const low = durationValue(between[1], between[2] ?? between[4]);
    const high = durationValue(between[3], between[4]);
    if (low >= high) return null;
    bounds = { minDays: low, maxDays: high };
    length = between[0].length;
  } else {
    const bound = (part: string) => {
      const match = DURATION_BOUND.exec(part);
      if (!match) return null;
      const days = durationValue(match[3], match[4]);
      const more = match[1] || /^(?:more|longer|greater|over|above)$/i.test(match[5] ?? '');
      const less = match[2] || /^(?:less|shorter|fewer)$/i.test(match[5] ?? '');
      if (more === less) return { length: match[0].length, min: undefined, max: undefined, plain: !more };
      return { length: match[0].length, min: more ? days : undefined, max: less ? days : undefined, plain: false };
    };
    const first = bound(text);
    if (!first || first.plain) return null;
    bounds = { ...(first.min ? { minDays: first.min } : {}), ...(first.max ? { maxDays: first.max } : {}) };
    length = first.length;
    // "6 weeks or more but 1 year or less".
    const joint = /^\s*,?\s*(?:but|and|to)\s+/i.exec(text.slice(length));
    const second = joint ? bound(text.slice(length + joint[0].length)) : null;
    if (second && !second.plain && ((second.max && !bounds.maxDays) || (second.min && !bounds.minDays))) {
      bounds = { ...bounds, ...(second.min ? { minDays: second.min } : {}), ...(second.max ? { maxDays: second.max } : {}) };
      length += joint![0].length + second.length;
    }
    if (bounds.minDays && bounds.maxDays && bounds.minDays >= bounds.maxDays) return null;
  }
  length += DURATION_TAIL.exec(text.slice(length))![0].length;
  return { bounds, end: at + length };
}

/**
 * How long a condition has lasted, read right beside it: after it ("low back pain lasting more than 6 months",
 * "asthma for at least 1 year", "T2D diagnosed ≥ 180 days before screening", "pain for 6 weeks or more but 1 year or
 * less") or before it ("at least a 1-year history of migraine", "more than 3 months of back pain"). Only words of a
 * link may stand between, so a duration of a treatment ("failed therapy for 6 weeks") never becomes the condition's.
 */
export function readDuration(text: string, first: Pick<Mention, 'start'>, last: Pick<Mention, 'end'>): ReadDuration | null {
  // "Sciatica with or without lower back pain for > 3 months": the optional condition sits between.
  const after = text
    .slice(last.end, last.end + 120)
    .replace(/^\s+with\s+or\s+without\s+(?:[a-z-]+\s+){1,3}?(?=(?:for|lasting|of)\b)/i, (skip) => ' '.repeat(skip.length));
  const link = DURATION_LINK.exec(after)![0];
  const found = durationAt(after.slice(link.length), last.end + link.length);
  if (found && (found.bounds.minDays || found.bounds.maxDays))
    return { bounds: found.bounds, span: [last.end + link.length, found.end], reach: [last.end, found.end] };
  const before = DURATION_BEFORE.exec(text.slice(Math.max(0, first.start - 60), first.start));
  if (!before) return null;
  const start = first.start - before[0].length + before[0].indexOf(before[1]);
  const bound = durationAt(before[1], start);
  // "A 6-month history of X" is at least 6 months; "6 months of X" alone says no bound.
  const plain = DURATION_BOUND.exec(before[1]);
  if (bound && (bound.bounds.minDays || bound.bounds.maxDays))
    return { bounds: bound.bounds, span: [start, start + before[1].length], reach: [start, first.start] };
  if (plain && before[4] && /history/i.test(before[4]))
    return { bounds: { minDays: durationValue(plain[3], plain[4]) }, span: [start, start + before[1].length], reach: [start, first.start] };
  return null;
}

/**
 * A criterion that names no condition, only "symptoms", "pain" or "the disease" and a duration ("Pain ≥ 3 months",
 * "Symptoms less than 6 weeks", "Disease duration of at least 6 months"): the disease is the trial's, as the symptoms are.
 */
const SUBJECT =
  /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:(?:patients?|participants?|subjects?|people|persons?|individuals?|adults?|those)\s+(?:whose|with)\s+)?(?:(?:the\s+)?(?:total\s+)?duration\s+of\s+(?:the\s+)?(?:(symptoms?|disease|illness)|(pain))|(?:(symptoms?|disease|illness)|(pain))(?:\s+duration)?)\b/i;

const PAIN_CONCEPT = /pain|ache|algia|sciatica|radicul|neuralg|migraine|headache/i;

/**
 * "Pain ≥ 3 months" in a low back pain trial: the symptoms and the pain are the trial's own condition, named by the
 * record. "Symptoms" may be any of the trial's conditions; "pain" only a painful one. Several are alternatives the
 * text does not name, so a person checks them.
 */
export function readSubjectDuration(kind: CriterionKind, text: string, trialConcepts: readonly Concept[]): TextRule | null {
  const label = labelLength(text);
  const subject = SUBJECT.exec(text.slice(label));
  if (!subject) return null;
  const pain = Boolean(subject[2] ?? subject[4]);
  const concepts = trialConcepts.filter((concept) => concept.kind === 'condition' && (!pain || PAIN_CONCEPT.test(concept.en)));
  if (!concepts.length) return null;
  const end = label + subject.index + subject[0].length;
  const duration = readDuration(text, { start: label + subject.index }, { end });
  if (!duration) return null;
  const spans: Span[] = [[label + subject.index, end], duration.reach, duration.span];
  const left = leftover(text, spans, DURATION_WORDS);
  // Several conditions, or a painful one among others ("pain" in a disc herniation and sciatica trial): a reading to check.
  const conditions = trialConcepts.filter((concept) => concept.kind === 'condition');
  const reasons = [
    ...(concepts.length > 1 || conditions.length > concepts.length ? ['subject'] : []),
    ...(left.length ? [`words: ${left.join(' ')}`] : []),
    ...(/\n/.test(text) ? ['lines'] : []),
  ];
  const span: Span = [label + subject.index, duration.span[1]];
  return {
    rule: {
      type: 'condition',
      condition: joinNames(concepts.map((concept) => concept.en)),
      // An exclusion "Symptoms less than 6 weeks": must not have had the trial's condition for less than 6 weeks.
      present: kind === 'inclusion',
      concepts: concepts.map(conceptRef),
      duration: { ...duration.bounds, span: spanOf(duration.span) },
      span: spanOf(span),
    },
    needsReview: reasons.length > 0,
    reasons,
    unread: left,
  };
}

export const MAY_HAVE_DURATION =
  /\d|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty-four)\b[\s-]*(?:days?|weeks?|wks?|months?|mos?|years?|yrs?)\b/i;
