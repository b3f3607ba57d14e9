import type { CriterionKind, CriterionRule } from '../../../../contract/trials';
import { collapse } from './structure';
import { COMPARATOR, comparatorOf, isPlain, leftoverNumbers, plainReasons, reviewed, type Span, spanOf, type TextRule, WORD_COMPARATOR } from './text';

/**
 * Age criteria: "aged 18-65", "≥ 18 years", "under 18 excluded"; never from numbers that are not ages (scores, counts,
 * "onset before 16"). Months stay a fraction of a year.
 */

const AGE_UNIT = String.raw`(years?|yrs?|y\.?o\.?|months?|mos?|weeks?|wks?|days?)`;

/** Per year, for the units an infant's age is written in: an age stays a fraction of a year, never rounded to 0. */
const PER_YEAR: Array<[RegExp, number]> = [
  [/^mo/i, 12],
  [/^w/i, 52.1775],
  [/^d/i, 365.25],
];
const toYears = (value: number, unit: string | undefined) => {
  const per = unit ? PER_YEAR.find(([pattern]) => pattern.test(unit))?.[1] : undefined;
  return per ? Math.round((value / per) * 100) / 100 : value;
};
/** Weeks and days are an age only for an infant ("infants aged 6 weeks to 6 months"); elsewhere they are a duration. */
const SHORT_UNIT = /^(?:weeks?|wks?|days?)$/i;
const INFANT = /\b(?:infants?|neonates?|newborns?|babies|baby)\b/i;

const AGE_OUTSIDE = new RegExp(
  String.raw`(?:<|under|younger than|below|less than)\s*(\d{1,3})\s*${AGE_UNIT}?\s*(?:of age\s*|old\s*)?(?:,\s*)?or\s*(?:>|over|older than|above|greater than)\s*(\d{1,3})\s*${AGE_UNIT}?`,
  'i',
);

const AGE_RANGE = new RegExp(
  String.raw`(?:(?:between|from|b\/w|aged?|ages?)\s*(?:the\s+ages?\s+of\s+|of\s+)?)?(\d{1,3})\s*${AGE_UNIT}?\s*(?:-|–|—|to|and|through)\s*(\d{1,3})\s*${AGE_UNIT}?(?:\s*(?:of age|old|of age inclusive|\(inclusive\)|inclusive))?`,
  'i',
);

const AGE_BOUND = new RegExp(
  String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*(?:the\s+age\s+of\s+|age\s+)?(\d{1,3})(?![\d.,]\d)\s*(\+)?\s*${AGE_UNIT}?`,
  'gi',
);

const AGE_OR_OLDER = new RegExp(
  String.raw`(\d{1,3})\s*(\+|${AGE_UNIT})?\s*(?:of age|old)?\s*(?:or|and)\s*(older|over|above|more|up|greater|younger|under|below|less)\b`,
  'i',
);

/** Ages in their common phrasings; never from numbers that are not ages (scores, counts, "onset before 16"). */
const ANCESTRY =
  /\b(?:japanese|chinese|korean|taiwanese|indian|caucasian|asian|african(?:[- ]american)?|hispanic|latin[oax]|white|black|native|indigenous|european|american|citizens?|residents?|nationals?|ethnic\w*|race)\b/i;

/** "Minimum age of", "max age:": a bound's word before the age. */
const BOUND_WORD_AGE = /\b(minimum|maximum|min\.?|max\.?)\s+age(?:\s+(?:of|is|limit(?:\s+of)?))?\s*:?\s*(?=\d)/gi;

/** A number in words, up to ninety-nine: "eighteen", "twenty-one", "sixty five". */
const NUMBER_WORD = String.raw`(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]?(?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|one|two|three|four|five|six|seven|eight|nine)`;
/** "Eighteen (18)", "18 (eighteen)": a number written twice, in words and in digits. */
const NUMBER_TWICE = new RegExp(String.raw`\b${NUMBER_WORD}\s*\(\s*(\d{1,3})\s*\)|\b(\d{1,3})\s*\(\s*${NUMBER_WORD}\s*\)`, 'gi');

/** An age criterion's rule: alternatives joined by "or" read together, else the one age the text states. */
export function readAgeRule(kind: CriterionKind, text: string): TextRule | null {
  // "Eighteen (18) years of age or older", "at least 18 (eighteen) years": the digits, the same length (decision 354).
  text = text.replace(NUMBER_TWICE, (words, after?: string, before?: string) => (after ?? before ?? '').padEnd(words.length));
  // "From birth to 17 years": birth is age 0, not a condition (the same length, so spans still fit the text; decision 180).
  text = text.replace(/\bfrom\s+birth(?=\s*(?:to|until|through|up\s+to|-|–)\s*<?\s*\d)/gi, (words) => words.replace(/birth$/i, '0    '));
  // "Minimum age 18 years", "maximum age of 65": the bound's word before the age is a comparator (decision 269); the
  // same length, so spans still fit the text. Only in an inclusion: among exclusions the words still name the limit of
  // whom the trial takes, which turned around would refuse them.
  if (kind === 'inclusion') text = text.replace(BOUND_WORD_AGE, (words, bound: string) => `age ${/^min/i.test(bound) ? '>=' : '<='}`.padEnd(words.length));
  return (AGE_OUTSIDE.test(text) ? null : readAgeAlternatives(kind, text)) ?? readOneAge(kind, text);
}

/** "Or" between two ages ("18 or older, or 12-17 with consent"), never "18 or older", "18 or over". */
const AGE_OR = /\s*,?\s*\b(?:and\s*\/\s*or|or)\b(?!\s+(?:older|younger|over|under|more|less|above|below|greater|up|equal|elder)\b)\s*/gi;

/**
 * "Aged >= 1 year and/or children aged 1-18", "adults 18 or older, or adolescents aged 12-17": ages joined by "or" are
 * alternatives, and a person of either age may take part: the rule is their union, never the last one read. When the
 * union is not one range ("under 5 or over 65" in an inclusion), or in an exclusion, a person reads it.
 */
function readAgeAlternatives(kind: CriterionKind, text: string): TextRule | null {
  const parts: Span[] = [];
  let start = 0;
  for (const separator of text.matchAll(AGE_OR)) {
    parts.push([start, separator.index]);
    start = separator.index + separator[0].length;
  }
  if (!parts.length) return null;
  parts.push([start, text.length]);
  const ages = parts
    .map(([from, to]) => ({ from, read: readOneAge(kind, text.slice(from, to)) }))
    .filter((part): part is { from: number; read: TextRule & { rule: Extract<CriterionRule, { type: 'age' }> } } => part.read?.rule?.type === 'age');
  if (ages.length < 2) return null;
  if (kind === 'exclusion') return { rule: null, needsReview: true };
  const ranges = ages.map(({ read }) => [read.rule.minYears ?? 0, read.rule.maxYears ?? Number.POSITIVE_INFINITY] as const).sort((a, b) => a[0] - b[0]);
  // One range: each next range starts within the one before, or the whole year after it.
  for (let index = 1; index < ranges.length; index++) if (ranges[index][0] > ranges[index - 1][1] + 1) return { rule: null, needsReview: true };
  const min = Math.min(...ranges.map((range) => range[0]));
  const max = Math.max(...ranges.map((range) => range[1]));
  const spans: Span[] = ages.map(({ from, read }) => [from + (read.rule.span?.start ?? 0), from + (read.rule.span?.end ?? 0)]);
  const group = new Set([...AGE_WORDS, 'children', 'adolescents', 'infants', 'toddlers', 'teenagers', 'minors', 'young', 'elderly', 'older']);
  const rule: CriterionRule = {
    type: 'age',
    minYears: min || null,
    maxYears: Number.isFinite(max) ? max : null,
    span: spanOf([Math.min(...spans.map((span) => span[0])), Math.max(...spans.map((span) => span[1]))]),
  };
  return reviewed(rule, [...ages.flatMap(({ read }) => read.reasons ?? []), ANCESTRY.test(text) && 'ancestry', ...plainReasons(text, spans, 1, group)]);
}

/** A number of years, months, weeks or days right before "post<event>", "after" or "following": a time since the event. */
const TIME_AFTER_EVENT =
  /\d\s*(?:-\s*)?(?:years?|yrs?|months?|weeks?|days?)\s+(?:post-?[a-z]|after\b|following\b|from\s+(?:the\s+)?(?:last|first|onset|diagnosis)\b)/;

function readOneAge(kind: CriterionKind, text: string): TextRule | null {
  const lower = text.toLowerCase();
  if (!/\b(?:age[ds]?|years?|yrs?|y\/?o|yoa|old|older|younger|months?|adults?|children|minors|infants?|neonates?|newborns?)\b|\d\s*\+/.test(lower)) return null;
  // The age at an event is a condition on history, not on current age.
  if (
    /\b(?:onset|at diagnosis|age at (?:diagnosis|onset|first)|gestational|life expectancy|expectancy|survival|bone age|menopaus\w*|menarche|amenorrh\w*|since age|before the age|prior to age|when)\b/.test(
      lower,
    )
  )
    return null;
  if (
    /\b(?:smok\w*|pack|follow-up|duration|for at least|for more than|ago|history of)\b/.test(lower) &&
    !/\bage[ds]?\b|years? old|years? of age|yoa/.test(lower)
  )
    return null;
  const hasAgeWord = /\bage[ds]?\b|\bages\b|years? old|years? of age|\byoa\b|\by\/?o\b|\bold\b|\badults?\b/.test(lower) || INFANT.test(lower);
  // Without an age word, a length of time after an event is no age: "2 years postmenarche", "6 months after delivery".
  if (!hasAgeWord && TIME_AFTER_EVENT.test(lower)) return null;
  // "Aged 6 weeks" is an age only with an age word or an infant; "8 weeks" alone is a duration.
  const shortUnitOk = (unit: string | undefined) =>
    !unit || !SHORT_UNIT.test(unit) || (hasAgeWord && !/\b(?:for|within|prior|last|past|since|after|duration|ago)\b/i.test(lower));
  // Without an age word, a number of years or months is a duration ("history (≥ 6 months) of pain").
  if (
    !hasAgeWord &&
    /\b(?:history|chronic|use|using|duration|diagnos\w*|treat\w*|therapy|since|for|within|prior|previous|during|lasting|symptoms?|pain)\b/.test(lower)
  )
    return null;

  let min: number | null = null;
  let max: number | null = null;
  let strictMin = false;
  let strictMax = false;
  const spans: Span[] = [];
  const at = (match: RegExpExecArray): Span => [match.index, match.index + match[0].length];

  const outside = AGE_OUTSIDE.exec(text);
  if (outside) {
    // "Age < 18 or > 70 years": outside a range, so eligible people are within it (in an exclusion).
    if (kind !== 'exclusion') return { rule: null, needsReview: true };
    const unit = outside[4] ?? outside[2];
    return reviewed(
      { type: 'age', minYears: toYears(Number(outside[1]), unit), maxYears: toYears(Number(outside[3]), unit), span: spanOf(at(outside)) },
      plainReasons(text, [at(outside)]),
    );
  }

  const rangeMatch = AGE_RANGE.exec(text);
  if (
    rangeMatch &&
    (rangeMatch[2] ||
      rangeMatch[4] ||
      /\bage|aged|between the ages/i.test(rangeMatch[0]) ||
      /^\s*(?:years?|yrs?)?\s*(?:of age|old)/i.test(text.slice(rangeMatch.index + rangeMatch[0].length)) ||
      (hasAgeWord && /\bage[ds]?\b[^\d]{0,20}$/i.test(text.slice(0, rangeMatch.index + 1))))
  ) {
    // "6 months to 5 years": each bound in its own unit, the first taking the second's when it has none.
    const highUnit = rangeMatch[4] ?? rangeMatch[2];
    const lowUnit = rangeMatch[2] ?? highUnit;
    const low = toYears(Number(rangeMatch[1]), lowUnit);
    const high = toYears(Number(rangeMatch[3]), highUnit);
    const notAge = /^\s*(?:%|kg|cm|mg|mmhg|bpm|points?|score|times|cigarettes|pack|weeks|days|hours|x)/i.test(
      text.slice(rangeMatch.index + rangeMatch[0].length),
    );
    if (!notAge && low < high && high <= 130 && shortUnitOk(lowUnit) && shortUnitOk(highUnit)) {
      min = low;
      max = high;
      spans.push(at(rangeMatch));
    }
  }
  if (min === null && max === null) {
    // One or two bounds, each a comparator (symbol or words) and a number next to an age word.
    let lastEnd = -100;
    for (const match of text.matchAll(AGE_BOUND)) {
      const unit = match[5];
      const before = text.slice(Math.max(0, match.index - 25), match.index);
      const after = text.slice(match.index + match[0].length, match.index + match[0].length + 15);
      // "aged >= 18 and < 60": a second bound joined to the first shares its age word.
      const joined = match.index - lastEnd <= 8 && /^\s*(?:and|,|but)?\s*$/i.test(text.slice(lastEnd, match.index));
      // The age word may sit inside the match ("above age 18", "under the age of 18") or name the group ("Adults (> 18)", "Children (< 18)").
      const ageContext =
        Boolean(unit) ||
        joined ||
        /\bage\b/i.test(match[0]) ||
        /\bage[ds]?\b[^\d]{0,15}$/i.test(before) ||
        /\b(?:adults?|children|minors)\s*[(:,]?\s*$/i.test(before) ||
        /^\s*(?:of age|old|years)/i.test(after);
      if (!ageContext || !shortUnitOk(unit) || (unit && /^mo/i.test(unit) && !hasAgeWord)) continue;
      if (/^\s*(?:%|kg|cm|mg|mmhg|bpm|points?|score|x\b|times|cigarettes|pack)/i.test(after)) continue;
      if (unit && !hasAgeWord && /\b(?:within|for|prior|last|past|since|after|duration|ago)\b[^\d]{0,20}$/i.test(before)) continue;
      const comparator = comparatorOf(match[1] ?? match[2]);
      const value = toYears(Number(match[3]), unit);
      if (comparator === '>=' || comparator === '>') {
        if (min !== null) continue;
        [min, strictMin] = [value, comparator === '>'];
      } else if (comparator === '<=' || comparator === '<') {
        if (max !== null) continue;
        [max, strictMax] = [value, comparator === '<'];
      } else continue;
      spans.push([match.index, match.index + match[0].length]);
      lastEnd = match.index + match[0].length;
    }
    const orOlder = AGE_OR_OLDER.exec(text);
    // "18 or older" is an age beside an age word or the people it describes; "scored 2 or greater" is a score.
    const personBefore =
      orOlder &&
      /\b(?:age[ds]?|adults?|men|women|males?|females?|patients?|participants?|subjects?|individuals?|volunteers?|people|persons?)\b[^\d]{0,25}$/i.test(
        text.slice(0, orOlder.index),
      );
    if (orOlder && min === null && max === null && (orOlder[2] || (hasAgeWord && personBefore))) {
      const value = toYears(Number(orOlder[1]), orOlder[3]);
      if (/older|over|above|more|up|greater/i.test(orOlder[4])) min = value;
      else max = value;
      spans.push(at(orOlder));
    }
    const plus = /(?<![\d.])(\d{1,3})\s*\+\s*(?:years?|yrs?)?/i.exec(text);
    if (plus && min === null && max === null && (hasAgeWord || /years?|yrs?/i.test(plus[0]) || collapse(text).length <= 6)) {
      min = Number(plus[1]);
      spans.push(at(plus));
    }
    // "All adult patients", "adults": an adult with no age written is of the age of majority, as "of legal age"
    // (decision 300: at least 18, the common legal adult age).
    const fullAge =
      /\b(?:(?<!\b(?:years?|yrs?|months?|weeks?|days?|\d)\s*)of (?:full |legal )?age(?: of consent)?|legal(?:ly)? adults?|age of majority)\b/i.exec(text) ??
      (kind === 'inclusion'
        ? /^\W*(?:all\s+)?(?:adults?|adult\s+(?:patients?|participants?|subjects?|volunteers?|persons?|people|individuals?))\W*$/i.exec(text)
        : null);
    if (fullAge && min === null && max === null) return fullAgeCheck(kind, text, at(fullAge));
    // "Participants of any age", "no age limit": an age rule that restricts nobody (decision 215).
    const anyAge = ANY_AGE.exec(text);
    if (anyAge && kind === 'inclusion' && !/\d/.test(text) && allAgeGroups(text)) return ageRuleOf(text, null, null, [at(anyAge)], false);
  }
  if (min === null && max === null) return null;
  if (min !== null && max !== null && min > max) return { rule: null, needsReview: true };
  return ageRule(kind, text, { min, max, strictMin, strictMax, spans });
}

/** The age rule of the bounds read: an exclusion's bound turned into the eligible side in whole years; reviewed when strict or the text says more. */
function ageRule(
  kind: CriterionKind,
  text: string,
  bounds: { min: number | null; max: number | null; strictMin: boolean; strictMax: boolean; spans: Span[] },
): TextRule {
  let { min, max } = bounds;
  const { strictMin, strictMax, spans } = bounds;

  let strict = strictMin || strictMax;
  if (kind === 'exclusion') {
    // "under 18 years old" excludes the young: eligible people are at least 18. Only one-sided ages invert.
    if (min !== null && max !== null) return { rule: null, needsReview: true };
    [min, max] = [max, min];
    // "< 18" excluded -> ">= 18" eligible (exact); "<= 17" excluded -> "> 17": whole years, exact too.
    if (!Number.isInteger(min ?? 0) || !Number.isInteger(max ?? 0)) {
      // "Younger than 8 weeks" excluded: at least 8 weeks, a fraction of a year kept as it is. "8 weeks or younger"
      // excluded is "older than 8 weeks", which a bound in whole days cannot say exactly: a person checks.
      strict = !(min !== null ? strictMax : strictMin);
      return ageRuleOf(text, min, max, spans, strict);
    }
    if (strict) {
      if (min !== null) min = Math.floor(min) + (strictMax ? 0 : 1);
      if (max !== null) max = Math.ceil(max) - (strictMin ? 0 : 1);
    } else {
      if (min !== null) min = Math.floor(min) + 1;
      if (max !== null) max = Math.ceil(max) - 1;
    }
    strict = false;
  }
  if (kind === 'exclusion') return ageRuleOf(text, min, max, spans, strict);
  // Included "under 18", "< 65 years": completed years are below the bound, so at most 17 (64), exact in whole years
  // (decision 263); not when it would pass the lower bound ("18 or older or under 18" read as one range) or a number is
  // left unread ("aged 6 to under 18" read without its 6).
  let maxUnread = strictMax;
  if (strictMax && max !== null && Number.isInteger(max) && (min === null || max - 1 >= min) && !leftoverNumbers(text, spans))
    [max, maxUnread] = [max - 1, false];
  // Included "older than 18", "over 18 years": past the 18th birthday, which at least 18 completed years says to the day
  // (decision 351). Read as 19+, it would refuse every 18-year-old the words admit; the registry's own minimum age is a
  // criterion of its own. A bound in months or weeks stays for a person.
  const minUnread = strictMin && (min === null || !Number.isInteger(min));
  return ageRuleOf(text, min, max, spans, minUnread || maxUnread);
}

/** "Of any age", "all ages", "no age limit", "regardless of age": no bound at all. */
const ANY_AGE = /\b(?:of\s+)?(?:any|all)\s+ages?\b|\bno\s+(?:upper\s+or\s+lower\s+)?age\s+(?:limits?|restrictions?)\b|\bregardless\s+of\s+age\b/i;

/**
 * "Children of any age" are the children, "adults of any age" the adults: an age group named beside "any age" bounds it,
 * unless both a young and an adult group are named ("paediatric or adult participants of any age").
 */
function allAgeGroups(text: string): boolean {
  const young =
    /\b(?:child(?:ren)?|kids?|boys?|girls?|p(?:a)?ediatric|adolescents?|teen(?:ager)?s?|minors?|infants?|neonat\w*|newborns?|toddlers?|juvenile|young)\b/i.test(
      text,
    );
  const grown = /\b(?:adults?|elderly|older|seniors?|elders?|geriatric)\b/i.test(text);
  return young === grown;
}

/** The age of majority written in words: 18 years, the most common legal adult age (decision 300). */
export const AGE_OF_MAJORITY = 18;

/**
 * "All adult patients", "of full age of consent", "having reached the age of majority": an inclusion of the adult age
 * group is at least `AGE_OF_MAJORITY` (decision 300; it was a site check of consent, decisions 215 and 225). Where the
 * text says the country or its law sets the age, a person checks the bound; an exclusion keeps the site check of consent.
 */
function fullAgeCheck(kind: CriterionKind, text: string, span: Span): TextRule {
  const extra = new Set([...AGE_WORDS, 'reached', 'reaching', 'consent', 'majority', ...SET_BY_COUNTRY, 'their', 'his', 'her']);
  // "2 to 2 years of age" (a number the reader could not take): never the age of majority.
  if (/\d/.test(text) || !isPlain(text, [span], 0, extra)) return { rule: null, needsReview: true };
  if (kind === 'exclusion') return { rule: { type: 'site_judgement', reason: 'consent_capacity', span: spanOf(span) }, needsReview: false };
  const countrySets = SET_BY_COUNTRY_WORD.test(text);
  return { rule: { type: 'age', minYears: AGE_OF_MAJORITY, maxYears: null, span: spanOf(span) }, needsReview: countrySets };
}

/** Words that say the country or its law sets the adult age ("of legal age in their country of residence"). */
const SET_BY_COUNTRY = ['country', 'according', 'state', 'residence', 'jurisdiction', 'local', 'laws', 'law', 'where', 'lives', 'live', 'site'];
const SET_BY_COUNTRY_WORD = new RegExp(`\\b(?:${SET_BY_COUNTRY.join('|')})\\b`, 'i');

/** Words beside an age that say no more than it: taking part, and the age group a range names ("children aged 1-18"). */
const AGE_WORDS = [
  'inclusive',
  'both',
  'adult',
  'including',
  'japanese',
  'ambulatory',
  'legal',
  'full',
  'only',
  'considered',
  'inclusion',
  'included',
  'excluded',
  'eligible',
  'enrolled',
  'well',
];

const NO_UPPER_LIMIT =
  /\b(?:no\s+|without\s+(?:an?\s+)?|not\s+(?:an?\s+)?)(?:upper\s+(?:age\s+)?(?:limit|cap)|maximum\s+age|age\s+(?:limit|cap|maximum)|upper\s+limit\s+(?:of|for|on)\s+age)\b/i;

function ageRuleOf(text: string, min: number | null, max: number | null, spans: Span[], strict: boolean): TextRule {
  // "Only patients aged 18 or older are considered for inclusion", "under 18 will be excluded as well": the words of
  // taking part say no more than the age.
  const extra = new Set(AGE_WORDS);
  // "18 or older, no upper age limit", "with no maximum age": with no upper bound read, the words say what the rule says.
  if (max === null && NO_UPPER_LIMIT.test(text)) for (const word of ['upper', 'maximum', 'limit', 'limits', 'cap']) extra.add(word);
  return reviewed(
    { type: 'age', minYears: min, maxYears: max, span: spanOf([Math.min(...spans.map((span) => span[0])), Math.max(...spans.map((span) => span[1]))]) },
    // "Japanese male or female aged 65 or older": a nationality or ancestry is a requirement the age rule does not hold
    // (hand-check P), however few words it takes.
    [strict && 'strictBound', ANCESTRY.test(text) && 'ancestry', ...plainReasons(text, spans, 1, extra)],
  );
}
