import type { CriterionRule, RuleSpan } from '../../../../contract/trials';

/**
 * The words every reader shares: a rule as read (`TextRule`), spans, numbers, comparators, the filler words a rule needs
 * not hold, and the words a rule left unread.
 */

export interface TextRule {
  rule: CriterionRule | null;
  needsReview: boolean;
  /** Why a person must check the rule (the concept reader's flags; scripts/criteria-breakdown.ts counts them). */
  reasons?: string[];
  /** The words of the criterion the concept reader did not read (not counting filler). */
  unread?: string[];
}

export type Span = [number, number];

export const spanOf = ([start, end]: Span): RuleSpan => ({ start, end });

/** "7.0" -> 7, "6,5" -> 6.5, "50,000" / "100.000" (thousands) -> 50000 / 100000. */
export const toNumber = (value: string) => (/^\d{1,3}(?:[.,]\d{3})+$/.test(value) ? Number(value.replace(/[.,]/g, '')) : Number(value.replace(',', '.')));

export const NUMBER = String.raw`(\d{1,3}(?:[.,]\d{3})+(?!\d)|\d+(?:[.,]\d+)?)`;

/** Words that say nothing beyond the rule itself: a criterion of only these and the rule is "plain". A lone "s" is the
 * plural or possessive mark of "drug(s)", "Crohn's" (decision 090). */
const FILLER = new Set(
  `a an the of at to in on or and with who whose is are be been must have has having had patient patients participant participants subject subjects
  those adult adults male female males females men women man woman people person persons individuals individual aged age ages year years yr yrs old inclusive between from
  screening level levels value values than equal greater less more higher lower above below over under older younger least most
  body mass index bmi kg m2 kg/m2 m² kg/m² time signing informed consent icf yoa including both sexes either gender sex all
  range within within-range documented known current currently concurrent concurrently defined as by for any
  history prior previous previously diagnosis diagnosed confirmed ever active existing presence evidence
  last past months month weeks week days day before randomization randomisation enrollment enrolment registration baseline visit dose dosing first study entry start
  use using used treatment treated therapy receiving received receive taking take taken
  no not without none free do does did that this these which will would should can may shall other
  clinical clinically trial participation participate participating ongoing e.g. eg i.e ie etc
  obtaining obtained at the time provision sign signed written into
  i ii iii iv and/or e g etc s`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words of a section label that say nothing about the criterion ("Medical conditions:", "Prior/Concomitant therapy:",
 * "Clinical Exclusion Criteria:", "Laboratory criteria:"). A radiological heading is not one: what imaging finds is for
 * staff to confirm (`CLINICIAN_WORDS`). */
const LABEL_WORDS = new Set(
  // "Prior/Concurrent clinical study experience:", "Diagnostic assessments:", "Type of participant and disease
  // characteristics:": the section labels of the common protocol template (decision 107).
  'medical conditions condition history prior concomitant concurrent therapy therapies medications medication general key main other additional inclusion exclusion exclusions criteria criterion pre-operative preoperative pre operative laboratory clinical study experience diagnostic assessment assessments type of participant participants and disease characteristics'.split(
    ' ',
  ),
);

/** A leading section label made only of label words: ignored when the rest is measured against the rule. */
export function labelLength(text: string): number {
  const label = /^\s*([^:\n]{2,90}):\s/.exec(text);
  if (!label) return 0;
  // "Exclusion criteria assessed at the screening visit:", "criteria determined after surgery:": when the section's
  // criteria are checked says nothing about what they are (decision 110). Not "during" an operation: what a surgeon
  // sees there is a finding for staff.
  const named = label[1].replace(
    /\bcriteria\s+(?:to\s+be\s+)?(?:determined|assessed|checked|confirmed|evaluated|verified|applied)\s+(?:after|at|before|prior\s+to)\s+[^:]{1,40}$/i,
    'criteria',
  );
  if (named.length > 60) return 0;
  const words = named
    .toLowerCase()
    .split(/[\s/]+/)
    .filter(Boolean);
  return words.length && words.every((word) => LABEL_WORDS.has(word)) ? label[0].length : 0;
}

/** Whether the text, once the rule's words are taken out, has at most `maxLeft` words that are not filler. */
export function leftover(text: string, spans: Span[], extra: Set<string> = new Set()): string[] {
  return leftoverWords(text, spans, extra).map((item) => item.word);
}

export function leftoverWords(text: string, spans: Span[], extra: Set<string> = new Set()): Array<{ word: string; start: number; end: number }> {
  let rest = ' '.repeat(labelLength(text)) + text.slice(labelLength(text));
  const oneSex = namesOneSex(text);
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) rest = rest.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + rest.slice(end);
  return [...rest.toLowerCase().matchAll(/[a-z0-9/²µ]+/g)]
    .map((match) => ({ word: match[0], start: match.index, end: match.index + match[0].length }))
    .filter(({ word }) => (!FILLER.has(word) || (oneSex && SEX_WORD.test(word))) && !extra.has(word) && /[a-z]/.test(word));
}

const SEX_WORD = /^(?:males?|females?|men|women|man|woman)$/;

/** A criterion that names one sex only ("Female patients with asthma"): the sex is part of what it requires, not filler. */
export function namesOneSex(text: string): boolean {
  const female = /\b(?:females?|wom[ae]n)\b/i.test(text);
  const male = /\b(?:males?|m[ae]n)\b/i.test(text);
  return female !== male && !/\b(?:both|either|any|all)\s+(?:sex(?:es)?|genders?)\b/i.test(text);
}

/** A word the rule did not read that is an item of a list ("terminal, systemic or autoimmune disease"): the rule misses an alternative. */
export function unreadListItem(text: string, words: Array<{ start: number; end: number }>): boolean {
  return words.some(
    ({ start, end }) =>
      /^\s*(?:,|\/|or\b|and\/or\b)/i.test(text.slice(end, end + 8)) || /(?:,|\/|\bor|\band\/or|,\s*and)\s*$/i.test(text.slice(Math.max(0, start - 8), start)),
  );
}

export function leftoverNumbers(text: string, spans: Span[]): boolean {
  let rest = text;
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) rest = rest.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + rest.slice(end);
  return /\d/.test(rest.replace(/^\s*\(?\d{1,2}[.)]\s*/, ''));
}

export const isPlain = (text: string, spans: Span[], maxLeft = 1, extra?: Set<string>) => !/\n/.test(text) && leftover(text, spans, extra).length <= maxLeft;

/**
 * Why a rule is not plain, in the concept reader's words: "lines" for a criterion of several lines, "words: ..." naming
 * the words it left (more than `maxLeft`). Empty when the rule says all the criterion says (decision 241).
 */
export function plainReasons(text: string, spans: Span[], maxLeft = 1, extra?: Set<string>): string[] {
  const left = leftover(text, spans, extra);
  return [...(/\n/.test(text) ? ['lines'] : []), ...(left.length > maxLeft ? [`words: ${left.join(' ')}`] : [])];
}

/** A rule with the flags that hold it for a person (false or empty flags dropped): reviewed when any is left. */
export function reviewed(rule: CriterionRule, flags: ReadonlyArray<string | false | null | undefined>): TextRule {
  const reasons = [...new Set(flags.filter((flag): flag is string => Boolean(flag)))];
  return reasons.length ? { rule, needsReview: true, reasons } : { rule, needsReview: false };
}

export type Comparator = '<' | '<=' | '>' | '>=' | '=';

const COMPARATORS: Record<string, Comparator> = {
  '<': '<',
  '<=': '<=',
  '≤': '<=',
  '=<': '<=',
  '>': '>',
  '>=': '>=',
  '≥': '>=',
  '=>': '>=',
  '=': '=',
  '≦': '<=',
  '≧': '>=',
};

export const INVERSE: Record<Comparator, Comparator | null> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '=': null };

export const COMPARATOR = String.raw`(<=|>=|=<|=>|≤|≥|≦|≧|<|>|=)`;

const WORD_COMPARATORS: Record<string, Comparator> = {
  'greater than or equal to': '>=',
  'greater than to or equal': '>=',
  'greater than or equal': '>=',
  'greater or equal to': '>=',
  'less or equal to': '<=',
  'equal to or greater than': '>=',
  'equal or greater than': '>=',
  'more than or equal to': '>=',
  'less than or equal to': '<=',
  'equal to or less than': '<=',
  'equal or less than': '<=',
  // "Equal or above 2 ng/L": the bound itself is allowed; "above" alone would drop it (decision 304).
  'equal to or above': '>=',
  'equal or above': '>=',
  'equal to or below': '<=',
  'equal or below': '<=',
  'at least': '>=',
  'minimum of': '>=',
  'at most': '<=',
  'maximum of': '<=',
  'no more than': '<=',
  'not more than': '<=',
  'no greater than': '<=',
  'not exceeding': '<=',
  // "Not to exceed 1.5 mg/dL", "does not exceed 35" (decision 355).
  'not to exceed': '<=',
  'not exceed': '<=',
  'up to': '<=',
  'greater than': '>',
  'more than': '>',
  'higher than': '>',
  exceeding: '>',
  above: '>',
  over: '>',
  'less than': '<',
  'lower than': '<',
  'lesser than': '<',
  'fewer than': '<',
  below: '<',
  under: '<',
  'older than': '>',
  'younger than': '<',
  // "Not less than 100", "no older than 65", "must not be younger than 18": the negated comparison is the other side,
  // its bound included (decision 355). Read without the "not", the rule took the very people the words refuse.
  ...negatedComparators(),
};

function negatedComparators(): Record<string, Comparator> {
  const opposite: Array<[string, Comparator]> = [
    ['less than', '>='],
    ['lower than', '>='],
    ['fewer than', '>='],
    ['below', '>='],
    ['under', '>='],
    ['younger than', '>='],
    ['greater than', '<='],
    ['higher than', '<='],
    ['above', '<='],
    ['over', '<='],
    ['older than', '<='],
  ];
  const negated: Record<string, Comparator> = {};
  for (const [words, comparator] of opposite) for (const not of ['not', 'no', 'not be']) negated[`${not} ${words}`] = comparator;
  return negated;
}

export const WORD_COMPARATOR = `(${Object.keys(WORD_COMPARATORS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;

export const comparatorOf = (token: string): Comparator => COMPARATORS[token] ?? WORD_COMPARATORS[token.toLowerCase().replace(/\s+/g, ' ')];

/** Sentence ends (not after "e.g.", "i.e.", "etc.", "vs.", a decimal point). */
export function sentenceStarts(text: string): number[] {
  const starts = [0];
  const cleaned = text.replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|approx|incl|max|min|no|Dr|St)\./gi, (match) => match.replace(/\./g, ' '));
  for (const match of cleaned.matchAll(/[.;](?=\s+\S|\s*\n)/g)) if (!/\d/.test(cleaned[match.index + 1] ?? '')) starts.push(match.index + 1);
  return starts;
}

/**
 * "Must not have a current or prior invasive malignancy", "should not have received": a requirement's negation reaches
 * the whole object of its verb, farther than a bare "no" does (decision 369); the clause still ends it. Not another verb
 * it helps ("must not have relapsed within 2 months of receiving X" says nothing against X).
 */
export const REQUIRED_ABSENCE =
  /\b(?:must|should|shall|will|may|can|could|do|does|did)\s*(?:not|n't)\s+(?:(?:currently|ever|previously|already)\s+)?(?:(?:have|has|had|be)\s+(?:been\s+)?(?:received|taken|used|undergone|experienced|had|diagnosed\s+with|treated\s+with)|have|had|has|be|take|use|receive|undergo|experience|suffer)\b(?!\s+(?:been\s+)?[a-z]+ed\b)[^.;,()]{0,70}$/i;

export const NEAR_NEGATION = /\b(?:no|not|without|absence\s+of|free\s+of|never|none|negative|nor|lack\s+of|denies|non)\b[^.;,()]{0,30}$/i;

export const joinNames = (names: string[]) => {
  const unique = [...new Set(names)];
  return unique.length <= 1 ? unique[0] : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
};

/** Words that a short form's letters skip: "disease of the liver" is DL, "heart and lung disease" HLD. */
const SKIPPED_BY_INITIALS = /^(?:of|the|and|in|with|for|to|on)$/;

/**
 * Where the words whose first letters spell a short form begin in `before` (the text up to the short form's bracket),
 * or -1: "Psoriasis Area and Severity Index" for PASI, "deep vein thrombosis" for dvt (decision 237). Words such as
 * "of" and "and" may be skipped.
 */
export function initialsStart(before: string, short: string): number {
  const letters = short.toLowerCase();
  const words = [...before.matchAll(/[a-z0-9]+/gi)].map((word) => ({ word: word[0].toLowerCase(), at: word.index }));
  for (const skipping of [true, false]) {
    let initials = '';
    for (let at = words.length - 1; at >= 0 && initials.length < letters.length; at--) {
      if (skipping && SKIPPED_BY_INITIALS.test(words[at].word)) continue;
      initials = words[at].word[0] + initials;
      if (initials === letters) return words[at].at;
    }
  }
  return -1;
}
