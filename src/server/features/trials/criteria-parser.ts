import {
  CONDITION_QUALIFIERS,
  durationDays,
  type ConceptRef,
  type ConditionDuration,
  type ConditionQualifier,
  type CriterionKind,
  type CriterionRule,
  type DraftCriterion,
  type RuleSpan,
  type TimeWindow,
} from '../../../contract/trials';
import { collapse, splitCriteria, type SplitCriterion } from './criteria-structure';
import { ALLERGY_PREFIX, conceptRef, STUDY_MEDICINE_PREFIX, vocabulary, type Concept, type Mention, type MeshTerm, type Vocabulary } from './vocabulary';

export { readHeading, splitCriteria, unescapeMarkdown, type SplitCriterion } from './criteria-structure';

/**
 * The deterministic rules engine for eligibility text (docs/decisions/005-trial-auto-generation.md,
 * 021-criteria-reading.md). Structure (sections, nested lists, cohorts) is read in criteria-structure.ts;
 * this file reads each criterion's rule.
 *
 * A rule states what an eligible candidate must satisfy, whatever the kind of the criterion it came from
 * (an exclusion "eGFR < 45" gives {lab eGFR >= 45}; an exclusion "pregnant" gives {pregnancy allowed false}).
 * Every rule carries `span`, the offsets of the words it was read from. `needsReview` is false only when the
 * criterion says nothing but the rule (its other words are filler: "patients", "at screening", "known").
 */

export interface TextRule {
  rule: CriterionRule | null;
  needsReview: boolean;
  /** Why a person must check the rule (the concept reader's flags; scripts/criteria-breakdown.ts counts them). */
  reasons?: string[];
  /** The words of the criterion the concept reader did not read (not counting filler). */
  unread?: string[];
}

type Span = [number, number];
const spanOf = ([start, end]: Span): RuleSpan => ({ start, end });

/** "7.0" -> 7, "6,5" -> 6.5, "50,000" / "100.000" (thousands) -> 50000 / 100000. */
export const toNumber = (value: string) => (/^\d{1,3}(?:[.,]\d{3})+$/.test(value) ? Number(value.replace(/[.,]/g, '')) : Number(value.replace(',', '.')));
export const NUMBER = String.raw`(\d{1,3}(?:[.,]\d{3})+(?!\d)|\d+(?:[.,]\d+)?)`;

/** Words that say nothing beyond the rule itself: a criterion of only these and the rule is "plain". A lone "s" is the
 * plural or possessive mark of "drug(s)", "Crohn's" (decision 090). */
const FILLER = new Set(
  `a an the of at to in on or and with who whose is are be been must have has having had patient patients participant participants subject subjects
  adult adults male female males females men women man woman people person persons individuals individual aged age ages year years yr yrs old inclusive between from
  screening level levels value values than equal greater less more higher lower above below over under older younger least most
  body mass index bmi kg m2 kg/m2 m² kg/m² time signing informed consent icf yoa including both sexes either gender sex all
  range within within-range documented known current currently concurrent concurrently defined as by for any
  history prior previous previously diagnosis diagnosed confirmed ever active existing presence evidence
  last past months month weeks week days day before randomization randomisation enrollment enrolment baseline visit dose dosing first study entry start
  use using used treatment treated therapy receiving received receive taking take taken
  no not without none free do does did that this these which will would should can may shall other
  clinical clinically trial participation participate participating ongoing e.g. eg i.e ie etc
  obtaining obtained at the time provision sign signed written
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
function labelLength(text: string): number {
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
function leftover(text: string, spans: Span[], extra: Set<string> = new Set()): string[] {
  return leftoverWords(text, spans, extra).map((item) => item.word);
}
function leftoverWords(text: string, spans: Span[], extra: Set<string> = new Set()): Array<{ word: string; start: number; end: number }> {
  let rest = ' '.repeat(labelLength(text)) + text.slice(labelLength(text));
  const oneSex = namesOneSex(text);
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) rest = rest.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + rest.slice(end);
  return [...rest.toLowerCase().matchAll(/[a-z0-9/²µ]+/g)]
    .map((match) => ({ word: match[0], start: match.index, end: match.index + match[0].length }))
    .filter(({ word }) => (!FILLER.has(word) || (oneSex && SEX_WORD.test(word))) && !extra.has(word) && /[a-z]/.test(word));
}
const SEX_WORD = /^(?:males?|females?|men|women|man|woman)$/;
/** A criterion that names one sex only ("Female patients with asthma"): the sex is part of what it requires, not filler. */
function namesOneSex(text: string): boolean {
  const female = /\b(?:females?|wom[ae]n)\b/i.test(text);
  const male = /\b(?:males?|m[ae]n)\b/i.test(text);
  return female !== male && !/\b(?:both|either|any|all)\s+(?:sex(?:es)?|genders?)\b/i.test(text);
}
/** A word the rule did not read that is an item of a list ("terminal, systemic or autoimmune disease"): the rule misses an alternative. */
function unreadListItem(text: string, words: Array<{ start: number; end: number }>): boolean {
  return words.some(
    ({ start, end }) =>
      /^\s*(?:,|\/|or\b|and\/or\b)/i.test(text.slice(end, end + 8)) || /(?:,|\/|\bor|\band\/or|,\s*and)\s*$/i.test(text.slice(Math.max(0, start - 8), start)),
  );
}
function leftoverNumbers(text: string, spans: Span[]): boolean {
  let rest = text;
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) rest = rest.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + rest.slice(end);
  return /\d/.test(rest.replace(/^\s*\(?\d{1,2}[.)]\s*/, ''));
}
const isPlain = (text: string, spans: Span[], maxLeft = 1, extra?: Set<string>) => !/\n/.test(text) && leftover(text, spans, extra).length <= maxLeft;

type Comparator = '<' | '<=' | '>' | '>=' | '=';
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
const INVERSE: Record<Comparator, Comparator | null> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '=': null };
const COMPARATOR = String.raw`(<=|>=|=<|=>|≤|≥|≦|≧|<|>|=)`;
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
  'at least': '>=',
  'minimum of': '>=',
  'at most': '<=',
  'maximum of': '<=',
  'no more than': '<=',
  'not more than': '<=',
  'no greater than': '<=',
  'not exceeding': '<=',
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
};
const WORD_COMPARATOR = `(${Object.keys(WORD_COMPARATORS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
const comparatorOf = (token: string): Comparator => COMPARATORS[token] ?? WORD_COMPARATORS[token.toLowerCase().replace(/\s+/g, ' ')];

// ---- age ----

const AGE_UNIT = String.raw`(years?|yrs?|y\.?o\.?|months?|mos?)`;
const toYears = (value: number, unit: string | undefined) => (unit && /^mo/i.test(unit) ? Math.round((value / 12) * 100) / 100 : value);

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

export function readAgeRule(kind: CriterionKind, text: string): TextRule | null {
  const lower = text.toLowerCase();
  if (!/\b(?:age[ds]?|years?|yrs?|y\/?o|yoa|old|older|younger|months?|adults?|children|minors)\b|\d\s*\+/.test(lower)) return null;
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
  const hasAgeWord = /\bage[ds]?\b|\bages\b|years? old|years? of age|\byoa\b|\by\/?o\b|\bold\b|\badults?\b/.test(lower);
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
    return {
      rule: { type: 'age', minYears: toYears(Number(outside[1]), unit), maxYears: toYears(Number(outside[3]), unit), span: spanOf(at(outside)) },
      needsReview: !isPlain(text, [at(outside)]),
    };
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
    const low = Number(rangeMatch[1]);
    const high = Number(rangeMatch[3]);
    const unit = rangeMatch[4] ?? rangeMatch[2];
    const notAge = /^\s*(?:%|kg|cm|mg|mmhg|bpm|points?|score|times|cigarettes|pack|weeks|days|hours|x)/i.test(
      text.slice(rangeMatch.index + rangeMatch[0].length),
    );
    if (!notAge && low < high && high <= 130 && (!unit || !/^(?:weeks?|days?)$/i.test(unit))) {
      min = toYears(low, unit);
      max = toYears(high, unit);
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
      if (!ageContext || (unit && /^(?:weeks?|days?)$/i.test(unit)) || (unit && /^mo/i.test(unit) && !hasAgeWord)) continue;
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
    if (orOlder && min === null && max === null && (orOlder[2] || hasAgeWord)) {
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
    const fullAge = /\b(?:of (?:full |legal )?age(?: of consent)?|legal(?:ly)? adults?|age of majority)\b/i.exec(text);
    if (fullAge && min === null && max === null) {
      // "Of full age of consent": the age of majority where the person lives; no number to read, a person decides.
      return { rule: null, needsReview: true };
    }
  }
  if (min === null && max === null) return null;
  if (min !== null && max !== null && min > max) return { rule: null, needsReview: true };

  let strict = strictMin || strictMax;
  if (kind === 'exclusion') {
    // "under 18 years old" excludes the young: eligible people are at least 18. Only one-sided ages invert.
    if (min !== null && max !== null) return { rule: null, needsReview: true };
    [min, max] = [max, min];
    // "< 18" excluded -> ">= 18" eligible (exact); "<= 17" excluded -> "> 17": whole years, exact too.
    if (strict) {
      if (min !== null) min = Math.floor(min) + (strictMax ? 0 : 1);
      if (max !== null) max = Math.ceil(max) - (strictMin ? 0 : 1);
    } else {
      if (min !== null) min = Math.floor(min) + 1;
      if (max !== null) max = Math.ceil(max) - 1;
    }
    strict = false;
  } else if (strict) {
    // "Older than 18" in whole years: at least 19? Registries mean 18+ as often as not: a person decides.
  }
  // "Only patients aged 18 or older are considered for inclusion", "under 18 will be excluded as well": the words of
  // taking part say no more than the age.
  const extra = new Set([
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
  ]);
  return {
    rule: { type: 'age', minYears: min, maxYears: max, span: spanOf([Math.min(...spans.map((span) => span[0])), Math.max(...spans.map((span) => span[1]))]) },
    // "Japanese male or female aged 65 or older": a nationality or ancestry is a requirement the age rule does not hold
    // (hand-check P), however few words it takes.
    needsReview: strict || !isPlain(text, spans, 1, extra) || ANCESTRY.test(text),
  };
}

// ---- labs and vitals ----

export interface Measure {
  pattern: RegExp;
  name: string;
  unit?: string;
  /** Unit conversions into the canonical unit (value * factor, or a function). */
  convert?: Record<string, number | ((value: number) => number)>;
  /** A ratio without a unit (INR): a value written without one is exact. */
  unitless?: boolean;
  /** A value written without a unit, read on the measure's own scale (a pain score above 10 is on the 0-100 scale). */
  bare?: (value: number) => { value: number; unit: string };
}

/** Lab measures and vitals, by how criteria name them, to the name kept in the rule, with its canonical unit. */
export const MEASURES: Measure[] = [
  { pattern: /\b(?:body mass index|bmi)\b/i, name: 'BMI', unit: 'kg/m2' },
  {
    pattern: /\begfr\b|\bestimated glomerular filtration rate\b|\bglomerular filtration rate\b|\bgfr\b/i,
    name: 'eGFR',
    unit: 'mL/min/1.73m2',
    convert: { 'mL/min': 1 },
  },
  { pattern: /\bcreatinine clearance\b|\bcrcl\b|\bcrea?tinine cl\b/i, name: 'creatinine clearance', unit: 'mL/min' },
  {
    pattern: /\b(?:hba1c|a1c|hemoglobin a1c|haemoglobin a1c|glycated ha?emoglobin|glycosylated ha?emoglobin)\b/i,
    name: 'HbA1c',
    unit: '%',
    convert: { 'mmol/mol': (value) => Math.round((value / 10.929 + 2.15) * 10) / 10 },
  },
  { pattern: /\b(?:ldl-c|ldl cholesterol|low-density lipoprotein cholesterol|ldl)\b/i, name: 'LDL-C', unit: 'mg/dL', convert: { 'mmol/L': 38.67 } },
  { pattern: /\btriglycerides?\b|\btg\b/i, name: 'triglycerides', unit: 'mg/dL', convert: { 'mmol/L': 88.57 } },
  {
    pattern:
      /\b(?:alt|sgpt|alanine (?:amino)?transaminase|alanine aminotransferase)\b\s*(?:and\/or|or|and|\/)\s*(?:ast|sgot|aspartate aminotransferase)\b|\b(?:ast|sgot)\s*(?:and\/or|or|and|\/)\s*(?:alt|sgpt)\b/i,
    name: 'ALT/AST',
    unit: 'U/L',
  },
  { pattern: /\b(?:alt|sgpt|alanine (?:amino)?transaminase|alanine aminotransferase)\b/i, name: 'ALT', unit: 'U/L' },
  { pattern: /\b(?:ast|sgot|aspartate (?:amino)?transaminase|aspartate aminotransferase)\b/i, name: 'AST', unit: 'U/L' },
  {
    pattern: /(?<!\b(?:direct|conjugated|indirect|unconjugated)\s)\b(?:total )?bilirubin\b|\btbili\b|\btbl\b/i,
    name: 'bilirubin',
    unit: 'mg/dL',
    convert: { 'µmol/L': 1 / 17.1, 'umol/L': 1 / 17.1 },
  },
  { pattern: /\bdirect bilirubin\b|\bconjugated bilirubin\b/i, name: 'direct bilirubin', unit: 'mg/dL', convert: { 'µmol/L': 1 / 17.1, 'umol/L': 1 / 17.1 } },
  {
    pattern: /\bserum creatinine\b(?!\s*(?:ratio|clearance))|(?<!(?:protein|albumin)[- /]?)\bcreatinine\b(?!\s*(?:ratio|clearance|kinase))|\bscr\b/i,
    name: 'creatinine',
    unit: 'mg/dL',
    convert: { 'µmol/L': 1 / 88.4, 'umol/L': 1 / 88.4 },
  },
  {
    pattern: /\b(?:absolute neutrophil count|anc|neutrophils?(?: count)?)\b/i,
    name: 'ANC',
    unit: '10^9/L',
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, '/uL': 1 / 1000, 'cells/mm3': 1 / 1000, 'cells/µL': 1 / 1000, '10^3/µL': 1 },
  },
  {
    pattern: /\bplatelets?(?: count)?\b|\bplt\b/i,
    name: 'platelets',
    unit: '10^9/L',
    convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000, '/uL': 1 / 1000, 'cells/mm3': 1 / 1000, '10^3/µL': 1 },
  },
  { pattern: /\b(?:ha?emoglobin|hgb|hb)\b(?!\s*a1c)/i, name: 'hemoglobin', unit: 'g/dL', convert: { 'g/L': 0.1, 'mmol/L': 1.611 } },
  { pattern: /\b(?:white blood cells?|wbc|leukocytes?)(?: count)?\b/i, name: 'WBC', unit: '10^9/L', convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000 } },
  { pattern: /\blymphocytes?(?: count)?\b|\balc\b/i, name: 'lymphocytes', unit: '10^9/L', convert: { '/mm3': 1 / 1000, '/µL': 1 / 1000 } },
  { pattern: /\beosinophils?(?: count)?\b/i, name: 'eosinophils', unit: 'cells/µL', convert: { '10^9/L': 1000 } },
  { pattern: /\b(?:serum )?albumin\b/i, name: 'albumin', unit: 'g/dL', convert: { 'g/L': 0.1 } },
  { pattern: /\binr\b|\binternational normali[sz]ed ratio\b/i, name: 'INR', unitless: true },
  { pattern: /\bpotassium\b/i, name: 'potassium', unit: 'mmol/L', convert: { 'mEq/L': 1 } },
  { pattern: /\b(?:alkaline phosphatase|alp)\b/i, name: 'ALP', unit: 'U/L' },
  { pattern: /\b(?:forced vital capacity|fvc)\b/i, name: 'FVC' },
  { pattern: /\bqtcf?\b|\bqt interval\b/i, name: 'QTc', unit: 'ms' },
  { pattern: /\bfev1\b|\bforced expiratory volume\b/i, name: 'FEV1' },
  { pattern: /\bcrp\b|\bc-reactive protein\b/i, name: 'CRP', unit: 'mg/L' },
  { pattern: /\bfasting (?:plasma |blood )?glucose\b|\bfpg\b/i, name: 'fasting glucose', unit: 'mg/dL', convert: { 'mmol/L': 18 } },
  { pattern: /\b(?:left ventricular )?ejection fraction\b|\blvef\b/i, name: 'LVEF', unit: '%' },
  { pattern: /\b(?:oxygen saturation|spo2|sao2)\b/i, name: 'oxygen saturation', unit: '%' },
  { pattern: /\bsystolic(?: blood pressure)?\b|\bsbp\b/i, name: 'systolic blood pressure', unit: 'mmHg' },
  { pattern: /\bdiastolic(?: blood pressure)?\b|\bdbp\b/i, name: 'diastolic blood pressure', unit: 'mmHg' },
  { pattern: /\b(?:heart rate|pulse(?: rate)?|resting heart rate)\b/i, name: 'heart rate', unit: 'bpm' },
  { pattern: /\b(?:body )?weight\b/i, name: 'weight', unit: 'kg', convert: { lb: 0.4536, lbs: 0.4536, g: 0.001 } },
  // A person's height, not a disc's or a vertebra's ("loss of disc height > 60%").
  {
    pattern: /(?<!\b(?:disc|disk|vertebral|intervertebral|body|crown|step)\s)\bheight\b(?!\s+(?:of\s+the\s+)?(?:disc|disk|vertebra))/i,
    name: 'height',
    unit: 'cm',
    convert: { m: 100, in: 2.54 },
  },
  // Clinical scores a clinician records: read exactly, asked of staff (site review), never of the patient.
  { pattern: /\b(?:montreal cognitive assess?ment(?: test)?(?:\s*\(moca\))?|moca)\b/i, name: 'MoCA score', unit: 'points' },
  { pattern: /\b(?:mini[- ]mental state examination(?:\s*\(mmse\))?|mmse)\b/i, name: 'MMSE score', unit: 'points' },
  { pattern: /\b(?:short (?:physical )?performance (?:physical )?battery(?:\s*\(sppb\))?|sppb)\b/i, name: 'SPPB score', unit: 'points' },
  // "ASA" alone is also aspirin ("ASA 81 mg"): the class needs its full name, a class word, or a bare 1-6 after a comparator.
  {
    pattern:
      /\bamerican society of ana?esthesiologists?\b[^;<>≤≥]{0,60}|\basa\s+(?:physical status|class(?:ification)?|score|ps)\b|\basa(?=\s*(?:≤|≥|<=|>=|<|>)\s*[1-6]\b(?!\s*(?:mg|%)))/i,
    name: 'ASA physical status',
    unit: 'class',
  },
  { pattern: /\bhaq-di\b/i, name: 'HAQ-DI score', unit: 'points' },
  { pattern: /\b(?:physician'?s? global assessment(?:\s*\(phga\))?|phga)\b/i, name: "physician's global assessment", unit: 'points' },
  { pattern: /\b(?:patient'?s? global assessment(?:\s*\(ptga\))?|ptga)\b/i, name: "patient's global assessment", unit: 'points' },
  { pattern: /\b(?:modified rodnan skin score(?:\s*\(mrss\))?|mrss)\b/i, name: 'mRSS', unit: 'points' },
  { pattern: /\b(?:oswestry disability index(?:\s*\(odi\))?|odi)\b/i, name: 'Oswestry Disability Index', unit: 'points' },
  { pattern: /\b(?:easi)(?: score)?\b/i, name: 'EASI score', unit: 'points' },
  { pattern: /\b(?:pasi)(?: score)?\b/i, name: 'PASI score', unit: 'points' },
  { pattern: /\b(?:nihss|national institutes? of health stroke scale)\b/i, name: 'NIHSS score', unit: 'points' },
  { pattern: /\b(?:clinical frailty scale|cfs)(?: score)?\b/i, name: 'Clinical Frailty Scale', unit: 'points' },
  { pattern: /\b(?:a?ptt|(?:activated )?partial thromboplastin time)\b/i, name: 'aPTT' },
  // Pain intensity on a visual analogue or numeric rating scale, kept on the 0-10 scale: "VAS >= 40/100", "60 mm on a
  // 100 mm scale" and a bare value above 10 are on the 0-100 scale. Where the pain is ("leg pain") is more than the rule.
  {
    pattern:
      /\b(?:vas|nrs|nprs|visual analog(?:ue)? scale|numeric(?:al)? (?:pain )?rating scale)\b(?:\s*\((?:vas|nrs|nprs)\))?(?:\s+(?:pain\s+)?(?:score|intensity))?|\bpain (?:score|intensity)\b/i,
    name: 'pain score',
    unit: '/10',
    convert: { '/100': 0.1, mm: 0.1, '/10': 1 },
    bare: (value) => (value > 10 ? { value: Math.round(value) / 10, unit: '/10' } : { value, unit: '/10' }),
  },
];

export const UNIT = String.raw`\s*(%|kg\s*\/\s*m\s*(?:2|²|\^2)|ml\s*\/\s*min(?:\s*\/\s*1[.,]73\s*m\s*(?:2|²|\^2))?|mg\s*\/\s*dl|mg\s*\/\s*l|mmol\s*\/\s*l|meq\s*\/\s*l|mmol\s*\/\s*mol|[µu]mol\s*\/\s*l|g\s*\/\s*dl|g\s*\/\s*l|ms(?:ec)?|(?:x|×|\*)\s*10\s*(?:\^|e)?\s*(?:9|3)\s*\/\s*[lµu]l?|10\s*\^?\s*(?:9|3)\s*\/\s*[lµu]l?|(?:cells\s*)?\/\s*(?:mm3|mm³|µl|ul|cu\s*mm)|cells\s*\/\s*[µu]l|u\s*\/\s*l|iu\s*\/\s*l|mmhg|mm\s*hg|bpm|beats\s*(?:per|\/)\s*min(?:ute)?|\/\s*100(?!\d)|\/\s*10(?!\d)|mm(?!\s*(?:hg|3|³))|kilograms?(?!\s*(?:per|\/)\s*(?:square|m))|kg|pounds?|lbs?|grams?|g|cm|m|in)?(?![a-z])`;

export function normalizeUnit(unit: string | undefined): string | undefined {
  if (!unit) return undefined;
  const compact = unit.toLowerCase().replace(/\s+/g, '').replace('²', '2').replace('×', 'x').replace('³', '3').replace(/^\*/, 'x').replace('^2', '2');
  if (/^kg\/m2$/.test(compact)) return 'kg/m2';
  if (/^ml\/min\/1[.,]73m2$/.test(compact)) return 'mL/min/1.73m2';
  if (/^ml\/min$/.test(compact)) return 'mL/min';
  if (/^mg\/dl$/.test(compact)) return 'mg/dL';
  if (/^mg\/l$/.test(compact)) return 'mg/L';
  if (/^g\/dl$/.test(compact)) return 'g/dL';
  if (/^g\/l$/.test(compact)) return 'g/L';
  if (/^mmol\/l$/.test(compact)) return 'mmol/L';
  if (/^meq\/l$/.test(compact)) return 'mEq/L';
  if (/^mmol\/mol$/.test(compact)) return 'mmol/mol';
  if (/^[µu]mol\/l$/.test(compact)) return 'µmol/L';
  if (/^(?:x)?10(?:\^|e)?9\/l$/.test(compact)) return '10^9/L';
  if (/^(?:x)?10(?:\^|e)?3\/[µu]l$/.test(compact)) return '10^3/µL';
  if (/^(?:cells)?\/(?:mm3|cumm)$/.test(compact)) return '/mm3';
  if (/^(?:cells)?\/[µu]l$/.test(compact)) return '/µL';
  if (/^(?:u|iu)\/l$/.test(compact)) return 'U/L';
  if (/^mmhg$/.test(compact)) return 'mmHg';
  if (/^(?:bpm|beats(?:per|\/)min(?:ute)?)$/.test(compact)) return 'bpm';
  if (/^msec$|^ms$/.test(compact)) return 'ms';
  if (/^(?:lbs?|pounds?)$/.test(compact)) return 'lb';
  if (/^kilograms?$/.test(compact)) return 'kg';
  if (/^grams?$/.test(compact)) return 'g';
  return compact;
}

/** A value in its written unit -> the measure's canonical unit (or kept as written when no conversion is known). Also used by the FHIR reader and the note extractor. */
export function canonical(measure: Measure, value: number, written: string | undefined): { value: number; unit: string | undefined } {
  const unit = normalizeUnit(written);
  // Counts written without a unit: "platelets < 100,000" is per mm3 (10^9/L figures are below 1000).
  if (!unit && measure.unit === '10^9/L' && value >= 1000) return { value: value / 1000, unit: measure.unit };
  if (!unit && measure.bare) return measure.bare(value);
  if (!unit || unit === measure.unit) return { value, unit: measure.unit ?? unit };
  const factor = measure.convert?.[unit];
  if (factor === undefined) return { value, unit };
  const converted = typeof factor === 'function' ? factor(value) : value * factor;
  return { value: Math.round(converted * 1000) / 1000, unit: measure.unit };
}

const ULN = String.raw`\s*(?:x|×|\*|times|-fold|fold)?\s*(?:the\s+)?(?:institutional\s+)?(?:upper limits? of (?:the\s+)?normal(?: range)?|uln|lower limits? of (?:the\s+)?normal(?: range)?|lln)(?:\s*\((?:uln|lln)\))?`;

const GAP = String.raw`^[^<>≤≥≦≧=\d;]{0,45}?`;
const LAB_PATTERNS = new Map(
  MEASURES.map((measure) => [
    measure.name,
    {
      uln: new RegExp(String.raw`${GAP}(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}${ULN}`, 'i'),
      between: new RegExp(String.raw`${GAP}\b(?:between|from)\s*${NUMBER}${UNIT}\s*(?:and|to|-|–)\s*${NUMBER}${UNIT}`, 'i'),
      twoBounds: new RegExp(
        String.raw`${GAP}${COMPARATOR}\s*${NUMBER}${UNIT}\s*(?:and|,|but|&)\s*(?:${measure.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\s*)?${COMPARATOR}\s*${NUMBER}${UNIT}`,
        'i',
      ),
      compare: new RegExp(String.raw`${GAP}${COMPARATOR}\s*${NUMBER}${UNIT}`, 'i'),
      wordCompare: new RegExp(String.raw`${GAP}\b${WORD_COMPARATOR}\s*${NUMBER}${UNIT}`, 'i'),
      dash: new RegExp(String.raw`${GAP}(?<![\d.])${NUMBER}\s*(?:-|–|to)\s*${NUMBER}${UNIT}`, 'i'),
      // "BMI of 30.0 kg/m2 or more", "a body weight of 40.0 kg or over".
      trailing: new RegExp(String.raw`${GAP}(?<![\d.])${NUMBER}${UNIT}\s*or\s*(more|greater|higher|above|over|less|lower|below|fewer|under)\b`, 'i'),
    },
  ]),
);

/**
 * "HbA1c ≥ 7.0% (53 mmol/mol)", "creatinine > 1.5 mg/dL (133 µmol/L)", "HbA1c 7.0-10.0 percent (53-86 millimoles per
 * mole [mmol/mol])": a parenthesis right after the bound that gives the same value(s) in another unit of the measure says
 * nothing more, so the rule's span reaches over it (hand-check S's pass). Only when every number converts to the rule's
 * own value within 3%; any other number in the parenthesis is left to a person.
 */
function sameValueAfter(measure: Measure, rule: Extract<CriterionRule, { type: 'lab' }>, text: string, end: number): number {
  // "6.5 percent (48 mmol/mol)": a unit in words is not in the bound's span.
  const parenthesis = /^(?:\s*per\s*cent)?\s*\(([^()]{1,80})\)/i.exec(text.slice(end));
  if (!parenthesis || !measure.convert || rule.relativeTo) return end;
  const inner = parenthesis[1].replace(/\[([^\]]*)\]/g, ' $1 ');
  const unit = [...Object.keys(measure.convert), ...(measure.unit ? [measure.unit] : [])].find((key) =>
    new RegExp(String.raw`(?:^|[\s\d])${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![a-z])`, 'i').test(inner),
  );
  const numbers = [...inner.matchAll(new RegExp(NUMBER, 'g'))].map((match) => toNumber(match[1]));
  const wanted = rule.comparator === 'between' ? [rule.value, rule.upperValue] : [rule.value];
  if (!unit || numbers.length !== wanted.length) return end;
  const same = numbers.every((number, index) => {
    const target = wanted[index];
    const value = canonical(measure, number, unit).value;
    return target !== undefined && Math.abs(value - target) <= Math.abs(target) * 0.03;
  });
  return same ? end + parenthesis[0].length : end;
}

/** A further bound with its unit ("≥ 27.0 kg/m²"): an alternative threshold of the measure a lab rule read. */
const ALTERNATIVE_BOUND = new RegExp(String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}${UNIT}`, 'gi');

// ---- ASA physical status in Roman numerals ----

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6 };
const ASA_CLASS = String.raw`(vi|iv|v|i{1,3}|[1-6])(?![\w.,]|\s*(?:mg|%))`;
const ASA_ROMAN = new RegExp(
  String.raw`\b(?:asa|american society of ana?esthesiologists?)(?:\s+(?:physical status|class(?:ification)?|score|ps|grade))?\s*[-:]?\s*(?:class\s+)?${ASA_CLASS}(?:\s*(?:-|–|to|and|or|through)\s*${ASA_CLASS})?(?:\s*(?:or|and)\s*(lower|less|below|higher|greater|above|more))?`,
  'i',
);

/** "ASA class I-III", "ASA 1 and 2 classification", "ASA IV or higher": the anaesthetic risk class, a staff-side value. */
function readAsaRule(kind: CriterionKind, text: string): TextRule | null {
  const match = ASA_ROMAN.exec(text);
  if (!match) return null;
  // A bare Arabic digit needs a class word or a second class ("ASA 1-2"); alone it may be an aspirin dose or count.
  if (/^\d$/.test(match[1]) && !match[2] && !/class|status|score|grade|ps/i.test(match[0])) return null;
  const first = ROMAN[match[1].toLowerCase()] ?? Number(match[1]);
  const second = match[2] ? (ROMAN[match[2].toLowerCase()] ?? Number(match[2])) : null;
  const direction = match[3]?.toLowerCase();
  const span: Span = [match.index, match.index + match[0].length];
  const rule = (comparator: Extract<CriterionRule, { type: 'lab' }>['comparator'], value: number, upperValue?: number): CriterionRule => ({
    type: 'lab',
    measure: 'ASA physical status',
    comparator,
    value,
    ...(upperValue !== undefined ? { upperValue } : {}),
    unit: 'class',
    span: spanOf(span),
  });
  const plain = isPlain(text, [span], 0, new Set(['class', 'classification', 'physical', 'status', 'grade', 'score', 'asa']));
  if (second !== null) {
    if (second < first) return { rule: null, needsReview: true };
    // "ASA I-III" in an inclusion; an excluded range is two rules, which a person writes.
    if (kind === 'exclusion') return { rule: null, needsReview: true };
    return { rule: rule('between', first, second), needsReview: !plain };
  }
  if (direction) {
    const upward = /higher|greater|above|more/.test(direction);
    if (kind === 'inclusion') return { rule: rule(upward ? '>=' : '<=', first), needsReview: !plain };
    return { rule: rule(upward ? '<' : '>', first), needsReview: !plain };
  }
  // "ASA IV patients" excluded: whether V is excluded too is not said, so a person checks.
  return kind === 'inclusion' ? { rule: rule('=', first), needsReview: !plain } : { rule: rule('<', first), needsReview: true };
}

/** Lab values and vitals: "BMI between 18.5 and 35 kg/m2", "eGFR < 45 mL/min/1.73 m2", "ALT > 3 x ULN", "BMI ≥ 18.5 and ≤ 32". */
/**
 * The name of what a measure's threshold defines, standing right before it as its label: "renal impairment (eGFR < 30)",
 * "poorly controlled diabetes (HbA1c of 8.0% or higher)", "Class III obesity: BMI ≥ 40", "anaemia with haemoglobin < 10".
 * The threshold says what the label means, so the label's words are read with it (decision 090); joined by "or" it would
 * be an alternative, and stays unread.
 */
const RENAL_LABEL = String.raw`(?:renal|kidney)\s+(?:[a-z]+\s+)?(?:impair\w*|insufficien\w*|dysfunction|failure|abnorm\w*|lowered|reduced|decreased|disease)|(?:impaired|reduced|decreased|abnormal|poor)\s+(?:renal|kidney)\s+function`;
const DEFINED_BY: Record<string, string> = {
  eGFR: RENAL_LABEL,
  'creatinine clearance': RENAL_LABEL,
  creatinine: RENAL_LABEL,
  HbA1c: String.raw`(?:(?:poorly|inadequately|badly|not\s+well|in)\s*-?\s*controlled|uncontrolled)\s+(?:type\s+[12]\s+)?diabetes(?:\s+mellitus)?`,
  BMI: String.raw`(?:class\s+(?:i{1,3}|[1-3])\s+|morbid\s+|severe\s+)?obesity|(?:morbidly\s+)?obese|underweight|overweight`,
  hemoglobin: String.raw`ana?emia`,
  platelets: String.raw`thrombocytopenia`,
  ANC: String.raw`neutropenia`,
  QTc: String.raw`(?:qtc?\s+)?(?:interval\s+)?prolongation|long\s+qt(?:\s+syndrome)?`,
  potassium: String.raw`hypo-?kal(?:a)?emia|hyper-?kal(?:a)?emia`,
  bilirubin: String.raw`hyperbilirubin(?:a)?emia`,
  albumin: String.raw`hypoalbumin(?:a)?emia`,
};
const DEFINED_BY_BEFORE = new Map(
  Object.entries(DEFINED_BY).map(([measure, label]) => [
    measure,
    new RegExp(
      String.raw`(?:^|[^\w\s-]|\b(?:with|has|have|having|known|the)\s)\s*((?:(?:mild|moderate|severe|significant)\s+(?:(?:or|to)\s+(?:moderate|severe)\s+)?)?(?:${label}))(?:\s*(?:\(|:|,|[-–]|\bwith\b|\bdefined\s+(?:as|by)\b|\bmarked\s+by\b|\bi\.e\.,?|\bas\s+(?:defined|evidenced|measured)\s+by\b))+\s*(?:an?\s+|the\s+)?$`,
      'i',
    ),
  ]),
);

/** "Between 7 and 10%", "7.0-10.0 percent": a range, both bounds on the measure's canonical scale (the upper's unit). */
function rangeRule(measure: Measure, low: number, high: number, unit: string | undefined): Extract<CriterionRule, { type: 'lab' }> {
  const lower = canonical(measure, low, unit);
  const upper = canonical(measure, high, unit);
  return {
    type: 'lab',
    measure: measure.name,
    comparator: 'between',
    value: lower.value,
    upperValue: upper.value,
    ...(upper.unit ? { unit: upper.unit } : {}),
  };
}

export function readLabRule(kind: CriterionKind, text: string): TextRule | null {
  for (const measure of MEASURES) {
    const name = measure.pattern.exec(text);
    if (!name) continue;
    const offset = name.index + name[0].length;
    const after = text.slice(offset);
    const patterns = LAB_PATTERNS.get(measure.name)!;
    const uln = patterns.uln.exec(after);
    const between = patterns.between.exec(after);
    const twoBounds = patterns.twoBounds.exec(after);
    const compare = patterns.compare.exec(after);
    const wordCompare = patterns.wordCompare.exec(after);
    const dash = patterns.dash.exec(after);
    const trailing = patterns.trailing.exec(after);
    const at = (match: RegExpExecArray): Span => [offset + match.index, offset + match.index + match[0].length];
    const nameSpan: Span = [name.index, offset];
    let rule: Extract<CriterionRule, { type: 'lab' }> | null = null;
    let span: Span | null = null;

    if (uln && (!compare || uln.index <= compare.index)) {
      const comparator = comparatorOf(uln[1] ?? uln[2]);
      const required = kind === 'exclusion' ? INVERSE[comparator] : comparator;
      if (!required) return { rule: null, needsReview: true };
      const relativeTo = /lower|lln/i.test(uln[0]) ? 'LLN' : 'ULN';
      rule = { type: 'lab', measure: measure.name, comparator: required, value: toNumber(uln[3]), relativeTo };
      span = at(uln);
    } else if (between || twoBounds) {
      let low: number;
      let high: number;
      let unit: string | undefined;
      if (between) {
        [low, high, unit] = [toNumber(between[1]), toNumber(between[3]), between[4] ?? between[2]];
        span = at(between);
      } else {
        const first = comparatorOf(twoBounds![1]);
        const second = comparatorOf(twoBounds![4]);
        const a = toNumber(twoBounds![2]);
        const b = toNumber(twoBounds![5]);
        if (!(['>', '>='].includes(first) && ['<', '<='].includes(second)) && !(['<', '<='].includes(first) && ['>', '>='].includes(second))) continue;
        [low, high] = ['>', '>='].includes(first) ? [a, b] : [b, a];
        unit = twoBounds![6] ?? twoBounds![3];
        span = at(twoBounds!);
      }
      if (low >= high) continue;
      if (kind === 'exclusion') return { rule: null, needsReview: true };
      rule = rangeRule(measure, low, high, unit);
    } else if (compare || wordCompare) {
      const found = compare && (!wordCompare || compare.index <= wordCompare.index) ? compare : wordCompare!;
      const comparator = comparatorOf(found[1]);
      const required = kind === 'exclusion' ? INVERSE[comparator] : comparator;
      if (!required) return { rule: null, needsReview: true };
      const value = canonical(measure, toNumber(found[2]), found[3]);
      rule = { type: 'lab', measure: measure.name, comparator: required, value: value.value, ...(value.unit ? { unit: value.unit } : {}) };
      span = at(found);
    } else if (trailing) {
      const comparator: Comparator = /^(?:more|greater|higher|above|over)$/i.test(trailing[3]) ? '>=' : '<=';
      const required = kind === 'exclusion' ? INVERSE[comparator] : comparator;
      if (!required) return { rule: null, needsReview: true };
      const value = canonical(measure, toNumber(trailing[1]), trailing[2]);
      rule = { type: 'lab', measure: measure.name, comparator: required, value: value.value, ...(value.unit ? { unit: value.unit } : {}) };
      span = at(trailing);
    } else if (dash) {
      const [low, high] = [toNumber(dash[1]), toNumber(dash[2])];
      if (low >= high) continue;
      if (kind === 'exclusion') return { rule: null, needsReview: true };
      rule = rangeRule(measure, low, high, dash[3]);
      span = at(dash);
    }
    if (!rule || !span) continue;
    const whole: Span = [nameSpan[0], sameValueAfter(measure, rule, text, span[1])];
    rule.span = spanOf(whole);
    const extra = new Set([
      'serum',
      'count',
      'total',
      'blood',
      'pressure',
      'fasting',
      'plasma',
      'laboratory',
      'lab',
      'test',
      'ml/min/1',
      '73',
      'ml/min',
      'mg/dl',
      'local',
      'central',
      'institutional',
      'normal',
      'upper',
      'limit',
      'uln',
      'x',
      'times',
      'based',
      'formula',
      'equation',
      // Words split at hyphens: "CKD-EPI", "CKD-EPIcr", "Cockcroft-Gault" name how a filtration rate was estimated.
      'ckd',
      'epi',
      'epicr',
      'epicys',
      'mdrd',
      'cockcroft',
      'gault',
      'calculated',
      'measured',
      'resting',
      'measurement',
    ]);
    const unsure = !rule.unit && !rule.relativeTo && !measure.unitless;
    if (measure.name === 'pain score') {
      // The scale's own words are the rule; any other word (where the pain is, how it was averaged) is more than it.
      const scale = new Set([
        'pain',
        'score',
        'scale',
        'on',
        'a',
        '100mm',
        'mm',
        '/100',
        '/10',
        'minimum',
        'maximum',
        'point',
        'points',
        'vas',
        'nrs',
        'nprs',
        'visual',
        'analog',
        'analogue',
        'numeric',
        'numerical',
        'rating',
        'intensity',
      ]);
      // The words between the scale's name and its value ("VAS leg pain of at least 4") are not the rule's.
      const value = new RegExp(String.raw`${COMPARATOR}|\d|\b(?:between|from)\b|\b${WORD_COMPARATOR}`, 'i').exec(text.slice(span[0], span[1]));
      return { rule, needsReview: unsure || !isPlain(text, [nameSpan, [span[0] + (value?.index ?? 0), span[1]]], 0, scale) };
    }
    // "BMI from 18.5 to less than 25.0 and a body weight of 40 kg or over": another measure or a number the rule
    // did not take is more than the rule ("BMI" and "kg" are filler words, so the words alone would not tell).
    const rest = text.slice(0, whole[0]) + ' '.repeat(whole[1] - whole[0]) + text.slice(whole[1]);
    const another = MEASURES.some((other) => other.name !== measure.name && other.pattern.test(rest));
    // "BMI ≥ 30 kg/m², or ≥ 27 kg/m² with a weight-related comorbidity": another bound in the same unit and direction is
    // an alternative (or implied), so the rule keeps the least strict; the stricter one would refuse eligible people.
    if (rule.comparator !== 'between' && rule.comparator !== '=' && rule.unit) {
      const lower = rule.comparator === '>' || rule.comparator === '>=';
      for (const other of rest.matchAll(ALTERNATIVE_BOUND)) {
        const written = comparatorOf(other[1] ?? other[2]);
        const required = kind === 'exclusion' ? INVERSE[written] : written;
        const value = canonical(measure, toNumber(other[3]), other[4]);
        // Only a bound written with its unit: "at least 1 comorbidity" is a count.
        if (!other[4]?.trim() || !required || value.unit !== rule.unit || (required === '>' || required === '>=') !== lower || required === '=') continue;
        // "... and LVEF ≥ 40%": a bound named by another measure is that measure's.
        const named = rest.slice(Math.max(0, other.index - 25), other.index);
        if (MEASURES.some((item) => item.name !== measure.name && item.pattern.test(named))) continue;
        if (lower ? value.value < rule.value : value.value > rule.value) [rule.comparator, rule.value] = [required, value.value];
      }
    }
    // "Physical Status Classification of the American Society of Anesthesiologists": the class's own name.
    if (measure.name === 'ASA physical status') for (const word of ['physical', 'status', 'classification']) extra.add(word);
    // "During the screening period": when a value is measured, as "at screening" says.
    if (/\bduring\s+(?:the\s+)?screening(?:\s+period)?\b/i.test(text)) for (const word of ['during', 'period']) extra.add(word);
    const label = DEFINED_BY_BEFORE.get(measure.name)?.exec(text.slice(0, name.index));
    for (const word of label?.[1].toLowerCase().split(/[\s-]+/) ?? []) extra.add(word);
    // "Diabetes or HbA1c > 8%", "thrombocytopenia (platelets < 100) or neutropenia": a word joined to the rule by "or" is
    // an alternative the rule does not hold, however few words it takes; with a label read, nothing else may be left.
    const left = leftoverWords(text, [whole], extra);
    const alternative = left.some(
      ({ start, end }) =>
        /^\s*\)?\s*(?:or|and\/or)\b/i.test(text.slice(end, end + 12)) || /\b(?:or|and\/or)\s*\(?\s*$/i.test(text.slice(Math.max(0, start - 10), start)),
    );
    return {
      rule,
      needsReview: unsure || another || alternative || leftoverNumbers(text, [whole]) || /\n/.test(text) || left.length > (label ? 0 : 1),
    };
  }
  return null;
}

// ---- performance status, smoking, pregnancy, contraception ----

const PERFORMANCE_BOUND = new RegExp(String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*(\d{1,3})`, 'i');

/** "ECOG performance status 0-1", "ECOG ≤ 2", "Karnofsky ≥ 70%". */
export function readPerformanceRule(kind: CriterionKind, text: string): TextRule | null {
  const name = /\b(ecog|eastern cooperative oncology group|who performance status|who ps|karnofsky|kps|lansky)\b/i.exec(text);
  if (!name) return null;
  const scale = /karnofsky|kps|lansky/i.test(name[1]) ? 'Karnofsky' : 'ECOG';
  const after = text.slice(name.index);
  const top = scale === 'ECOG' ? 5 : 100;
  let min: number | null = null;
  let max: number | null = null;
  let match: RegExpExecArray | null;
  if (
    (match = /(?:of|score|status|ps|\(ps\)|:)?\s*(\d{1,3})\s*%?\s*(?:-|–|to|or|,)\s*(\d{1,3})(?:\s*(?:,|or)\s*(\d{1,3}))?/i.exec(after)) &&
    Number(match[1]) < Number(match[2])
  ) {
    [min, max] = [Number(match[1]), Number(match[3] ?? match[2])];
  } else if ((match = PERFORMANCE_BOUND.exec(after))) {
    const comparator = comparatorOf(match[1] ?? match[2]);
    const value = Number(match[3]);
    if (comparator === '<=') max = value;
    else if (comparator === '<') max = value - (scale === 'ECOG' ? 1 : 10);
    else if (comparator === '>=') min = value;
    else if (comparator === '>') min = value + (scale === 'ECOG' ? 1 : 10);
    else [min, max] = [value, value];
  } else if ((match = /(?:of|score|status|ps|\(ps\)|:)\s*(\d{1,3})\b/i.exec(after)) && Number(match[1]) <= top) {
    [min, max] = [Number(match[1]), Number(match[1])];
  } else return { rule: null, needsReview: true };
  if (kind === 'exclusion') {
    // Excluded "ECOG ≥ 2" -> eligible 0-1.
    if (min !== null && max === null) [min, max] = [null, min - (scale === 'ECOG' ? 1 : 10)];
    else if (max !== null && min === null) [min, max] = [max + (scale === 'ECOG' ? 1 : 10), null];
    else return { rule: null, needsReview: true };
  }
  if (min === 0 && scale === 'ECOG') min = null;
  const span: Span = [name.index, name.index + match.index + match[0].length];
  const extra = new Set(['performance', 'status', 'ps', 'score', 'eastern', 'cooperative', 'oncology', 'group', 'who', 'scale', 'karnofsky', 'kps', 'ecog']);
  return { rule: { type: 'performance_status', scale, min, max, span: spanOf(span) }, needsReview: !isPlain(text, [span], 1, extra) };
}

const SMOKING =
  /\b(?:current(?:ly)?\s+(?:a\s+)?smok\w*|active\s+smok\w*|smokers?|smoking|smoke[sd]?|tobacco|nicotine|cigarettes?|e-cigarettes?|vap(?:e|ing))\b/i;

export function readSmokingRule(kind: CriterionKind, text: string): TextRule | null {
  const found = SMOKING.exec(text);
  if (!found) return null;
  const lower = text.toLowerCase();
  const never = /\b(?:non-?smok\w*|never[- ]smok\w*|no (?:history of )?smoking|not (?:a )?(?:current )?smok\w*|does not smoke)\b/.exec(lower);
  const former = /\b(?:former|ex-?smok\w*|quit|stopped|abstinent)\b/.test(lower);
  const amount = /pack[- ]?years?|packs?\s*(?:per|\/|a)\s*day|\d\s*packs?\b|cigarettes?\s*(?:per|\/|a)\s*day|\d+\s*cigarettes/i.test(text);
  // "Nicotine (more than 20 cigarettes per day)" excluded: heavy smokers only, not "must not smoke".
  if (amount && kind === 'exclusion' && !never && !/\b(?:current(?:ly)?|active)\s+(?:a\s+)?smok\w*/i.test(text)) return null;
  // "A smoking history of 5-30 pack years": a former smoker has one too; "must smoke now" would refuse them.
  if (kind === 'inclusion' && !never && /\bhistory\b/i.test(lower) && !/\b(?:current(?:ly)?|active)\b/i.test(lower)) return { rule: null, needsReview: true };
  let smoker: boolean;
  if (never) smoker = kind === 'exclusion';
  else smoker = kind === 'inclusion';
  const spans: Span[] = [[found.index, found.index + found[0].length]];
  if (never) spans.push([never.index, never.index + never[0].length]);
  const extra = new Set([
    'smoker',
    'smokers',
    'smoking',
    'smoke',
    'tobacco',
    'nicotine',
    'products',
    'product',
    'cigarettes',
    'cigarette',
    'e-cigarettes',
    'vaping',
    'vape',
    'use',
    'user',
    'users',
    'regular',
    'daily',
    'habit',
  ]);
  return {
    rule: { type: 'smoking', smoker, span: spanOf([Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))]) },
    needsReview: former || amount || !isPlain(text, spans, 1, extra),
  };
}

// "Nursing" is breastfeeding, not a nursing home; a positive hCG is a positive pregnancy test.
const PREGNANCY =
  /\b(pregnan\w*|breast[- ]?feeding|lactating|lactation|nursing(?!\s+(?:homes?|facilit\w*|care|staff|students?)))\b|(?:\b|(?<=β))(?:beta[- ]?|β[- ]?)?hcg\b/i;
const CONTRACEPTION = /\b(contracepti\w*|birth control|abstinen\w*|barrier method|intrauterine device|iud|sterili[sz]ed|vasectomy)\b/i;
const PREGNANCY_WORDS = new Set(
  `pregnant pregnancy pregnancies breastfeeding breast feeding lactating lactation nursing mothers mother possibly possible
  potentially planning plan plans become becoming get getting lady ladies girls intend intending intention negative positive test
  serum urine hcg childbearing potential wocbp female females women woman male males men man during period duration throughout while wish wishing wishes expecting conceive conceiving intend intends beta β`
    .split(/\s+/)
    .filter(Boolean),
);

/** Pregnancy and breastfeeding (not allowed), or a requirement to use contraception. */
export function readPregnancyRule(kind: CriterionKind, text: string): TextRule | null {
  const pregnancy = PREGNANCY.exec(text);
  let contraception = CONTRACEPTION.exec(text);
  // "Women must be non-pregnant, non-lactating, sterilized or postmenopausal": being sterilised is a reason not to be
  // able to become pregnant, not a method the person is asked to use.
  if (contraception && /^(?:sterili[sz]ed|vasectomy)$/i.test(contraception[0]) && !/\b(?:use|using|agree\w*|practi[sc]\w*|methods?)\b/i.test(text))
    contraception = null;
  if (contraception && (kind === 'inclusion' || !pregnancy || contraception.index < pregnancy.index)) {
    // "Must agree to use highly effective contraception": willing to use it (an exclusion "unwilling to use" alike).
    const extra = new Set([
      ...PREGNANCY_WORDS,
      'agree',
      'agrees',
      'willing',
      'unwilling',
      'use',
      'highly',
      'effective',
      'adequate',
      'acceptable',
      'reliable',
      'method',
      'methods',
      'contraception',
      'contraceptive',
      'birth',
      'control',
      'men',
      'partners',
      'partner',
      'sexually',
      'active',
      'throughout',
      'after',
      'last',
      'until',
      'end',
      'protocol',
      'specified',
      'medically',
      'two',
      'one',
      'least',
      'form',
      'forms',
    ]);
    // "Must be post-menopausal, surgically sterile, or using birth control": the question asks only those who could get
    // pregnant ("If you or your partner could get pregnant, will you use birth control?"), so the women who cannot are
    // in it. Only as an alternative to using it, never beside a "not" ("sterile; hormonal contraception not allowed").
    if (
      /\b(?:post-?\s?menopausal|surgically\s+steril\w*|steril(?:e|i[sz]ed))\b[^.;]{0,80}\bor\s+(?:\w+\s+){0,2}(?:using|use|practi[sc]\w*|agree\w*)\b/i.test(
        text,
      ) &&
      !/\b(?:not|no|nor|never)\b/i.test(text)
    )
      for (const word of ['post', 'menopausal', 'postmenopausal', 'surgically', 'sterile', 'sterilized', 'sterilised']) extra.add(word);
    return {
      rule: { type: 'contraception', required: true, span: spanOf([contraception.index, contraception.index + contraception[0].length]) },
      needsReview: !isPlain(text, [[contraception.index, contraception.index + contraception[0].length]], 2, extra),
    };
  }
  if (!pregnancy) return null;
  const negated = /\b(?:(?:not|no)\s+|non-?\s*)(?:be\s+)?(?:currently\s+)?(?:pregnan|breast|lactat|nursing)/i.test(text) || /\bnegative\b/i.test(text);
  if (kind === 'inclusion' && !negated) return null;
  const span: Span = [pregnancy.index, pregnancy.index + pregnancy[0].length];
  const extra = new Set([...PREGNANCY_WORDS, 'breast', 'feeding']);
  return { rule: { type: 'pregnancy', allowed: false, span: spanOf(span) }, needsReview: !isPlain(text, [span], 0, extra) };
}

// ---- site judgement ----

const CONSENT =
  /\b(?:informed consents?|written consent|consent form|consent(?:s|ed)? to (?:participate|take part)|(?:refus\w*|declin\w*|not wanting|do(?:es)? not want) (?:to )?(?:participat\w*|take part)|(?:sign|give|provide|obtain)\w*\s+(?:[\w/-]+\s+){0,3}consent|assent|capable of (?:giving|understanding|providing)|ability to (?:understand|give|provide)|able to (?:understand|read|give|provide)|legally (?:acceptable|authori[sz]ed) representative|legal guardian|mentally (?:competent|capable)|unable to (?:give|provide|understand) (?:informed )?consent|lack(?:s|ing)? (?:the )?capacity|(?:has|have|with) the capacity to consent|capacity to consent|volunteer(?:ed|s)? to participate|voluntarily (?:agree|participate|sign|consent)\w*|(?:fully|sufficiently|adequately|properly) informed (?:of|about)|in-formed consent|(?:not|did not|do not|does not|unwilling to|refus\w* to) consent|unsigned (?:informed )?consent)\b/i;
const JUDGEMENT =
  /\b(?:in the (?:opinion|judge?ment|view) of (?:the )?(?:\w+\s+)?(?:investigators?|physicians?|doctors?|sponsor)|investigator'?s? (?:opinion|judge?ment|discretion|assessment|decision)|(?:assessment|decision|opinion|judge?ment) of (?:the )?(?:principal |treating |study )?(?:investigators?|physicians?)|judged\s+(?:[\w-]+\s+){1,6}by (?:the )?(?:principal |sub-?)?investigators?|(?:investigator|physician|sponsor)(?:\s+\w+)?\s+(?:considers?|believes?|judges?|deems?)|(?:considered|deemed|judged|assessed) (?:by (?:the )?(?:\w+\s+)?(?:investigators?|physicians?|sub-?investigators?)|(?:un)?suitable|inappropriate|ineligible)|at the discretion|(?:predicted |estimated |anticipated )?life expectancy|(?:considered\s+)?likely to (?:interfere|compromise|jeopardi[sz]e|confound)|would (?:interfere|compromise|jeopardi[sz]e|confound|make (?:\w+\s+){0,3}unsuitable|preclude|put)|unsuitable|inappropriate|unsafe|not an?\s+(?:(?:surgical|operative|good|suitable)\s+)?candidate|too (?:risky|dangerous|life-threatening)|contraindicat(?:ion|ions|ed|es?)\b|not (?:be )?(?:suitable|appropriate)|may (?:interfere|compromise|confound|increase the risk)|(?:any|other)\s+(?:[\w-]+\s+){0,4}(?:that|which)\s+(?:would\s+|may\s+|might\s+|could\s+)?(?:precludes?|contraindicates?))\b/i;
const COMPLIANCE =
  /\b(?:willing(?:ness)?(?: and able)?(?: and willing)? to (?:comply|adhere|follow|attend|complete|return|participate|undergo|cooperate)|able (?:and willing )?to (?:comply|adhere|follow|attend|complete|return|participate|undergo|swallow|cooperate|come to the (?:study )?(?:site|clinic|hospital))|(?:answer|complete|fill (?:in|out))\s+(?:the\s+)?(?:study\s+)?questionnaires?|(?:incomplete|missing|insufficient)\s+(?:[\w-]+\s+){0,2}(?:data|records?)|(?:study|site|trial)\s+(?:personnel|staff)|litigation|workers?'?s?'?\s+comp(?:ensation)?|disability (?:remuneration|claims?|compensation)|comply with (?:all )?(?:the )?(?:study|protocol|trial|scheduled)|(?:un)?able to complete|(?:unwilling|unable|inability) (?:or unable |or unwilling )?to (?:comply|adhere|follow|attend|complete|return|participate|cooperate)|available for (?:the )?(?:duration|follow-up|all)|likely to (?:return|complete|comply|attend)|(?:return|come back) for (?:all )?(?:the )?(?:follow-up|study) visits|as defined (?:by|in) the protocol|per protocol|(?:employees?|staff|family members?|relatives?) of (?:the )?(?:sponsor|investigator|study site|site)|directly involved in the conduct|other protocol[- ]defined|further (?:inclusion |exclusion )?criteria (?:may )?apply|adequate\s+(?:(?:end-organ|organ|bone marrow|hematologic(?:al)?|haematologic(?:al)?|renal|kidney|hepatic|liver|cardiac|and|or|,)\s*)+function|criteria (?:may|could) apply|prisoners?|incarcerated|imprisoned|in (?:police |legal )?custody|(?:plann\w*|plans?|intend\w*|expect\w*)\s+(?:to\s+)?(?:move|relocat\w*)(?:\s+(?:away|out\s+of\s+the\s+area|during|before))?)\b/i;

/** Reading, speaking or understanding the study's language: needed to consent, checked by staff. */
const LANGUAGE =
  /\b(?:(?:fluen\w*|literate|literacy|proficien\w*|understand\w*|speak\w*|read\w*|comprehen\w*|communicat\w*|language skills?)\b[^.;]{0,30}\b(?:english|spanish|french|german|dutch|italian|portuguese|korean|chinese|mandarin|japanese|danish|swedish|norwegian|finnish|turkish|arabic|hebrew|polish|(?:the )?(?:local|study|national|official) language|language)\b|\b(?:english|spanish|french|german|dutch)[- ]speaking\b)/i;

/** "Unable to undergo an MRI": what makes a scan unsafe (an implant, claustrophobia) staff check, as "contraindication to
 * MRI". Only when the criterion says nothing else, so a condition named beside it ("... or claustrophobia") is still read. */
const SCAN_UNABLE =
  /^\W*(?:(?:the\s+)?(?:patients?|participants?|subjects?)\s+(?:who\s+)?(?:is|are)\s+)?(?:unable|inability)\s+to\s+(?:undergo|tolerate|have)\s+(?:an?\s+)?(?:MRI|magnetic resonance imaging|MR imaging)(?:\s+\(MRI\))?(?:\s+scans?)?\W*$/i;

/**
 * "Any serious or unstable medical illness", "Uncontrolled/acute illness", "Clinically significant concurrent medical
 * condition": no condition is named, and what counts as serious or unstable is the investigator's call. Only when the
 * criterion is that and little more (a reason such as "that would prevent completion of the study" or an exception).
 */
const UNNAMED_ILLNESS =
  /^\W*(?:(?:patients?|participants?|subjects?)\s+with\s+|(?:has|have)\s+(?:an?\s+|any\s+)?|any\s+(?:other\s+)?|other\s+|presence\s+of\s+(?:an?\s+|any\s+)?)?(?:(?:clinically|medically|severe|serious|significant|unstable|uncontrolled|poorly controlled|acute|chronic|active|concurrent|concomitant|intercurrent|underlying|major|important|relevant)(?:\s*(?:,|\/|\bor\b|\band\b|\band\/or\b)\s*|\s+))+(?:medical\s+|systemic\s+|physical\s+)?(?:illness(?:es)?|(?<=medical\s+|systemic\s+|physical\s+)(?:conditions?|diseases?|disorders?|problems?))\b/i;

/**
 * "Any clinically significant laboratory abnormality", "Clinically relevant ECG abnormalities at screening": a finding of
 * the screening tests whose weight the investigator judges; the patient cannot answer it (decision 110). Only when the
 * criterion is that, with at most when or how it is found ("at screening", "as determined by physical examination").
 */
const SIGNIFICANT_FINDING =
  /^\W*(?:any\s+)?(?:(?:acute|chronic)\s+(?:or\s+(?:acute|chronic)\s+)?)?clinically\s+(?:significant|relevant)(?:\s+or\s+(?:clinically\s+)?(?:significant|relevant))?\s+(?:(?:hematologic(?:al)?|haematologic(?:al)?|biochemical|blood|laboratory|lab|ecg|ekg|electrocardiogra(?:m|phic)|physical\s+examination|vital\s+signs?|cardiovascular|cardiac|hepatic|renal|functional|test)(?:\s*(?:,|\/|\bor\b|\band\b|\band\/or\b)\s*|\s+))+(?:abnormalit(?:y|ies)|findings?)(?:\s+(?:at|during)\s+(?:the\s+)?screening(?:\s+visit)?|\s+(?:as\s+)?(?:determined|detected|found)\s+(?:by|on|at|during)\s+(?:[\w-]+\s*(?:,|\bor\b|\band\b)?\s*){1,6})?\W*$/i;

/**
 * "Intraoperative decision by the surgeon to use other implants", "a dural tear found during the surgical procedure",
 * "Intra-surgery exclusion criteria: ...": what the surgical team finds or decides in the operation, which no one can
 * know before it; staff check it then (decision 110). Not a past operation's event ("bleeding during a previous surgery").
 */
const INTRAOPERATIVE =
  /\b(?:intra-?\s?operative(?:ly)?|intra-?\s?surg(?:ery|ical(?:ly)?)|(?:found|seen|noted|observed|assessed|detected|encountered|identified|occurring|made)\s+during\s+(?:the\s+)?(?:index\s+|study\s+)?(?:surgery|surgical\s+procedure|operation)|(?:entry|tear|opening)\s+during\s+(?:the\s+)?(?:surgery|surgical\s+procedure|operation)|at\s+the\s+time\s+of\s+(?:the\s+)?(?:index\s+)?surgery|surgical\s+determination|(?:decision|determination|judge?ment)\s+(?:made\s+)?by\s+the\s+(?:operating\s+)?surgeon)\b/i;

/** "(Evidence / high suspicion of) non-compliance or non-adherence to ...", "poor adherence with prescribed medicines". */
const NON_ADHERENCE =
  /^\W*(?:(?:known|documented|suspected)\s+)?(?:(?:evidence|history|(?:high\s+)?suspicion)(?:\s*(?:\/|or|and\/or)\s*(?:high\s+)?(?:evidence|history|suspicion))?\s+of\s+)?(?:non-?\s?(?:compliance|adherence)|poor\s+(?:compliance|adherence))(?:\s*(?:\/|or)\s*non-?\s?(?:compliance|adherence))?\s+(?:to|with)\b/i;

export function readJudgementRule(text: string, judgementOnly: boolean, kind?: CriterionKind): TextRule | null {
  if (!judgementOnly && kind === 'exclusion' && NON_ADHERENCE.test(text.slice(labelLength(text)))) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  if (
    !judgementOnly &&
    kind === 'exclusion' &&
    INTRAOPERATIVE.test(text) &&
    !/\b(?:history|previous(?:ly)?|prior|past|earlier|former)\b/i.test(text.replace(/\bprior\s+to\b/gi, ''))
  ) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  // "Medical conditions: Significant underlying illness ...": a section label is not part of what is judged.
  const label = labelLength(text);
  const body = ' '.repeat(label) + text.slice(label);
  const unnamed = judgementOnly ? null : UNNAMED_ILLNESS.exec(body.slice(label));
  if (unnamed && /\b(?:serious|significant|unstable|uncontrolled|poorly|severe|clinically|medically|major|important|relevant)\b/i.test(unnamed[0])) {
    const start = body.search(/\w/);
    return {
      rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, label + unnamed.index + unnamed[0].length]) },
      needsReview: false,
    };
  }
  if (!judgementOnly && SIGNIFICANT_FINDING.test(body.slice(label))) {
    const start = body.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  if (!judgementOnly && SCAN_UNABLE.test(text)) {
    const start = text.search(/\w/);
    const end = text.search(/\w\W*$/) + 1;
    return { rule: { type: 'site_judgement', reason: 'investigator_judgement', span: spanOf([start, end]) }, needsReview: false };
  }
  let consent = CONSENT.exec(text) ?? LANGUAGE.exec(text);
  // "Diagnosed before obtaining informed consent": the consent is a point in time, not what is asked.
  if (
    consent &&
    /\b(?:prior to|before|after|at|since|until|(?:time|date|day|days|weeks?|months?) of)\s+(?:the\s+)?(?:obtain\w*|signing|sign\w*|giving|provision)?\s*(?:of\s+)?(?:the\s+)?(?:written\s+)?$/i.test(
      text.slice(Math.max(0, consent.index - 40), consent.index),
    )
  )
    consent = null;
  // "A legal guardian must be available to ... accompany the participant to the study site": the help with visits is the
  // criterion, not consent.
  if (consent && /legal guardian/i.test(consent[0]) && /\b(?:available|accompany|help|assist|follow[- ]up|visits?)\b/i.test(text) && !/\bconsent/i.test(text))
    consent = null;
  const judgement = JUDGEMENT.exec(text);
  const compliance = COMPLIANCE.exec(text);
  const found = judgement ?? consent ?? compliance;
  if (!found) return null;
  // "...; Note: ... at the discretion of the Investigator": a note on the criterion is not its subject.
  const note = /\bnotes?\s*:/i.exec(text);
  if (note && /\w/.test(text.slice(0, note.index)) && found.index > note.index) return null;
  if (judgementOnly && !judgement) return null;
  const reason = judgement
    ? 'investigator_judgement'
    : consent
      ? 'consent_capacity'
      : /protocol[- ]defined|criteria (?:may )?(?:could )?apply|defined (?:by|in) the protocol|per protocol|prisoner|incarcerated|imprisoned|custody|adequate|data|records?|personnel|staff|litigation|comp(?:ensation)?\b|disability/i.test(
            found[0],
          )
        ? 'protocol'
        : 'protocol_compliance';
  return { rule: { type: 'site_judgement', reason, span: spanOf([found.index, found.index + found[0].length]) }, needsReview: false };
}

// ---- conditions and medications ----

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
  return { window: { value, unit: `${unit}s` as TimeWindow['unit'] }, span: [match.index, match.index + match[0].length] };
}

const PAST_TREATMENT =
  /\b(?:failed|failure (?:of|to)|tried|despite|prior(?!\s+to\b)|previous(?:ly)?(?!\s+to\b)|history of|received|underwent|inadequate response|unresponsive|refractory)\b/i;
// "Over the past year" is a window (read or not), never "ever".
const HISTORY =
  /\b(?:history|(?<!\d\s)prior(?!\s+to\b)|(?<!\d\s)previous(?:ly)?(?!\s+to\b)|past(?!\s+(?:\d+\s*|few\s+|several\s+)?(?:days?|weeks?|months?|years?)\b)|ever|had|former)\b/i;
const CURRENT = /\b(?:current(?:ly)?|active|ongoing|present|uncontrolled|now)\b/i;
/** "Active or prior documented autoimmune disorders", "current or past use of", "history or presence of": now or before,
 * which is "ever" (hand-check Q); "active" alone is now. */
const NOW_OR_BEFORE_ALL =
  /\b(?:active|current(?:ly)?|present|ongoing|existing),?\s+(?:or|and\/or)\s+(?:a\s+)?(?:prior|previous|past|former|history)\b|\b(?:prior|previous|past|history|former),?\s+(?:or|and\/or)\s+(?:active|current|present|ongoing|existing|presence)\b/gi;
const NOW_OR_BEFORE = new RegExp(NOW_OR_BEFORE_ALL.source, 'i');
const CLINICIAN_WORDS =
  /\b(?:histolog\w*|cytolog\w*|(?:histo)?patholog(?:ic\w*|ist\w*)|histopatholog\w*|biops\w*|mri|ct scan|imaging|radiograph\w*|radiolog\w*|x-ray|ultrasound|echocardiogra\w*|ecg|ekg|electrocardiogra\w*|measurable|recist|stage|staging|grade|tnm|mutation|positive for|expression|pd-l1|egfr|alk|her2|kras|braf|msi|dmmr|biomarker|metasta\w*|lesions?|refractory|relapsed|line of therapy|lines of therapy|cycles?|nyha|gold|child-pugh|spirometr\w*|culture|pcr|serolog\w*|antibod\w* (?:test|titer|titre))\b/i;

/** Conditions and medicines named in the criterion, read into present/absent/history and taking/not taking, with a time window. */
/** A concept named as something planned, needed, excepted or as a cause is not one the person has or takes. */
const NOT_ASSERTED =
  /\b(?:(?:non-?)?(?:compliance|adherence)\s+(?:to|with)|candidates?\s+for|eligible\s+for|consent(?:s|ed|ing)?\s+to|agree(?:s|d|ing)?\s+to|willing(?:ness)?\s+to|accept(?:s|ed|ing)?\s+(?:to\s+)?|indicated\s+for|(?:pre-?)?plann(?:ed|ing)|preplanned|scheduled|for\s+whom|in\s+whom|contraindicat\w*\s+(?:to|of|for|with)|(?:effects?|toxicity|absorption|metabolism)\s+of|(?:could|may|might|can|would)\s+(?:cause|induce|lead\s+to|result\s+in|provoke|trigger|produce|(?:\w+\s+)?affect|influence)|plans?\s+(?:to|of|for)|will\s+(?:undergo|receive|have)|(?:registered|due|expected|going|scheduled|eligible|waiting)\s+to\s+(?:receive|undergo|have)|requir(?:es|ed|ing)|need(?:s|ing)?|to\s+undergo|undergo(?:ing)?|application\s+of|due\s+to|caused\s+by|secondary\s+to|associated\s+with|related\s+to|other\s+than|except(?:\s+for)?|excluding|instead\s+of|prevent(?:ion)?\s+of|risk\s+of|suspicion\s+of|rule\s+out|affinity\s+(?:for|to)|susceptib\w*\s+(?:for|to)|predispos\w*\s+(?:for|to)|propensity\s+(?:for|to)|tendency\s+(?:for|to)|prone\s+to)\b[^.;()]{0,25}$/i;
const SIDE_OF =
  /(?:\b(?:adverse\s+(?:events?|reactions?|effects?)|i?m?aes?|toxicit(?:y|ies)|side[- ]effects?)\s+(?:from|of|after|following|due\s+to|related\s+to|caused\s+by|attributed\s+to|attributable\s+to)\b[^.;()]{0,40}|\b(?:waiting\s+list|wait-?list(?:ed)?|listed|awaiting)\s+(?:for\s+)?[^.;()]{0,25}|\brisk\b(?!\s*-?\s*factors?\b)[^.;()]{0,60}(?:\(\s*|,\s*|\s)(?:such\s+as|e\.\s?g\.?|including|like|for\s+example)(?=[\s,:]|$)[^()]*)$/i;
/** "Non-adherence to use of induction and/or maintenance immunosuppressive therapies": the object of adherence, in its clause. */
const ADHERENCE_TO =
  /\b(?:(?:non-?|poor\s+|lack\s+of\s+)?(?:compliance|adherence)|(?:non-?|not\s+)?(?:compliant|adherent)|(?:unable|unwilling|fail\w*)\s+to\s+(?:adhere|comply))\s+(?:to|with)\b[^.;\n]*$/i;
/** Products put on or into the body during a procedure ("application of products to the exposed neural element, including:
 * steroids", "intraoperative steroids"): what the surgeon uses, not a medicine the person takes. */
const PROCEDURE_PRODUCT =
  /\b(?:(?:application|applied|placement|placed|implantation|implanted|use|used|administ\w+)\s+(?:of\s+)?(?:[\w-]+\s+){0,3}?(?:to|on|onto|into|in)\s+(?:the\s+)?(?:exposed\s+)?(?:neural|nerve|wound|dura\w*|surgical|operative|disc|epidural\s+space|spinal\s+canal|graft)\b|intra-?operative(?:ly)?|during\s+(?:the\s+)?(?:index\s+)?(?:surgery|operation|procedure))/i;
/** "Steroids applied to the nerve root", "fibrin glue used during surgery": the same, named first. */
const PRODUCT_APPLIED =
  /^[^.;\n]{0,30}?\b(?:(?:(?:applied|placed|used|administered|given|injected)\s+(?:directly\s+)?(?:to|on|onto|into|in|at)|on|onto|into)\s+(?:the\s+)?(?:exposed\s+)?(?:neural|nerve|wound|dura\w*|surgical|operative|disc|epidural\s+space|spinal\s+canal|graft)\b|intra-?operative(?:ly)?|during\s+(?:the\s+)?(?:index\s+)?(?:surgery|operation|procedure))/i;
/** "Investigational or non-registered product (drug, vaccine, or device)": the parenthesis names kinds of the unread product, not things excluded by themselves. */
const PRODUCT_KINDS =
  /\b(?:investigational|experimental|non-?registered|unregistered|unapproved|unlicensed|non-?approved|study)\b[^()]{0,40}\b(?:products?|agents?|drugs?|treatments?|therap(?:y|ies)|interventions?|devices?|medications?|medicines?)\s*\($/i;
/** Foods and other allergens that are not medicines: "an allergy to medicines like this one" would name the wrong thing. */
const NOT_A_MEDICINE_ALLERGEN =
  /\b(?:foods?|peanuts?|nuts?|eggs?|milk|shellfish|fish|pollen|latex|nickel|metals?|titanium|cobalt|chromium|polyethylene|polyester|plastics?|silicone|materials?|adhesives?|tapes?|insects?|bees?|wasps?|venom|animals?|dust|seasonal)\b/i;
/** What an allergy is to, when it is a medicine: "hypersensitivity to the study drug, its excipients, pembrolizumab, penicillins". */
const MEDICINE_ALLERGEN =
  /^[^.;]{0,40}?\b(?:to|against)\b[^.;]{0,80}?\b(?:drugs?|medic\w*|products?|ingredients?|excipients?|components?|vaccines?|antibiotics?|contrast|an(?:a)?esthe\w*|agents?|treatments?|therap\w*|study|investigational|compounds?|formulations?|antibod\w*|proteins?|inhibitors?|analog(?:ue)?s?|[a-z]+oids?|[a-z]+(?:mab|nib|cillins?|mycin|floxacin|statins?|prazole|sartan|pril|olol|azole|vir|sporins?|sulfa\w*|opioids?|nsaids?|steroids?))\b/i;
const ALLERGY_TO = 'an allergy to ';
/**
 * "Known allergy to local anaesthetics or opioids", "hypersensitivity to NSAIDs": an allergy whose allergens are named
 * medicines, read as one condition per medicine ("an allergy to opioid pain medicines"), in place of "an allergy to
 * medicines like this one" (which is the study's own product). Only when the concepts right after "to" are medicines in a
 * plain list, and nothing that is not a medicine (a food, a metal, the study's product) is named in the clause
 * (decision 107).
 */
function allergyToNamed(text: string, mentions: Mention[]): { mentions: Mention[]; narrower: boolean } | null {
  if (!mentions[0] || !isAllergy(mentions[0])) return null;
  // "Allergy or hypersensitivity to": the allergy words together are one allergy.
  let lead = 0;
  while (
    mentions[lead + 1] &&
    isAllergy(mentions[lead + 1]) &&
    /^[\s,/]*(?:or|and(?:\/or)?)?[\s/]*$/i.test(text.slice(mentions[lead].end, mentions[lead + 1].start))
  )
    lead++;
  const allergy = { ...mentions[lead], start: mentions[0].start };
  const clauseEnd = allergy.end + (/[.;:\n]/.exec(text.slice(allergy.end))?.index ?? text.length - allergy.end);
  const clause = text.slice(allergy.start, clauseEnd);
  if (NOT_A_MEDICINE_ALLERGEN.test(clause) || /\b(?:study|investigational|trial|placebo|imp)\b/i.test(clause)) return null;
  const after = mentions.filter((mention) => mention.start >= allergy.end && mention.start < clauseEnd);
  if (!after.length || after[0].concept.kind !== 'medication') return null;
  // "Allergy or hypersensitivity to", "allergic reaction against", "allergy (anaphylaxis) to any of the following:".
  if (
    !/^(?:\s*(?:\/\s*[a-z]+|reactions?|or|and(?:\/or)?|,|\([^()]{0,30}\)|allerg\w*|hypersensitiv\w*|anaphyla\w*|intolerance|sensitivity))*\s+(?:to|against)\s+(?:(?:any|all|one)\s+(?:of\s+)?)?(?:the\s+)?(?:following\s+)?$/i.test(
      text.slice(allergy.end, after[0].start),
    )
  )
    return null;
  // The medicines are a plain list: "X, Y or Z", "X and/or Y"; a condition after them ("allergy to local anaesthetics,
  // coagulopathy") is another item of the criterion's list, not an allergen.
  const medicines = [after[0]];
  for (const next of after.slice(1)) {
    if (!/^\s*(?:,|\/|or|and\/or|and|,\s*or|,\s*and)\s*$/i.test(text.slice(medicines.at(-1)!.end, next.start))) return null;
    if (next.concept.kind !== 'medication') break;
    medicines.push(next);
  }
  if (medicines.some(isAllergy)) return null;
  const others = mentions.filter((mention, index) => index > lead && !medicines.includes(mention));
  return {
    mentions: [
      ...medicines.map((medicine, index) => ({
        concept: allergyConcept(medicine.concept),
        start: index === 0 ? allergy.start : medicine.start,
        end: medicine.end,
      })),
      ...others,
    ],
    narrower: medicines.some((medicine) => oneMember(text.slice(medicine.start, medicine.end), medicine.concept)),
  };
}
/**
 * "Pembrolizumab", "lidocaine": one medicine of the concept's class, not the class ("NSAIDs", "opioids", "penicillin
 * antibiotics"). An allergy to one medicine is narrower than an allergy to its class, so a person checks the rule.
 */
function oneMember(written: string, concept: Concept): boolean {
  const word = written.toLowerCase();
  const className = concept.en.replace(/\([^)]*\)/g, ' ').toLowerCase();
  return !/\s/.test(word) && !/s$/.test(word) && !new RegExp(`\\b${word.replace(/[^a-z0-9-]/g, '')}\\b`).test(className);
}
function allergyConcept(medicine: Concept): Concept {
  return {
    id: `${ALLERGY_PREFIX}${medicine.id}`,
    kind: 'condition',
    en: `${ALLERGY_TO}${medicine.en}`,
    es: medicine.es ? `una alergia a ${medicine.es}` : null,
    clinicianOnly: false,
  };
}

/** The allergy to the study's kind of medicine; a concept that names its allergen ("an allergy to latex") is that allergen's. */
const isAllergy = (mention: Mention) =>
  mention.concept.id.endsWith('D006967') || (/allerg/i.test(mention.concept.en) && !/\ballergy to (?!medicines)/i.test(mention.concept.en));
/** "Allergic to X", "hypersensitivity reactions to Y": an allergy concept stands only when what it is to is a medicine
 * (named, a medicine concept, or the study's product); "allergic symptoms such as hay fever", "allergy to titanium" are not it. */
function allergyToMedicine(text: string, mention: Mention, found: Mention[]): boolean {
  if (NOT_A_MEDICINE_ALLERGEN.test(text)) return false;
  const after = text.slice(mention.end);
  if (MEDICINE_ALLERGEN.test(after)) return true;
  const clauseEnd = mention.end + (/[.;]/.exec(after)?.index ?? after.length);
  return found.some((other) => other.concept.kind === 'medication' && other.start >= mention.end && other.start < clauseEnd);
}
/** "Facetectomy to treat back pain", "surgery for the treatment of stenosis": the condition a treatment is for. */
const INDICATION = /\b(?:to\s+treat(?:ing)?|(?:for|in)\s+(?:the\s+)?(?:treatment|management|relief)\s+of)\s+(?:[\w/-]+\s+|[\w-]+\/){0,3}$/i;
/** "Instability associated with reconstructive surgery for primary tumours", "a history of surgery for a hernia": the
 * condition a past operation, or one that caused something else, was for (decision 110). Not "undergoing surgery for X"
 * in a surgical trial, where X is what excludes. */
const SURGERY_FOR =
  /\b(?:associated\s+with|after|following|from|due\s+to|secondary\s+to|caused\s+by|complications?\s+(?:of|from)|history\s+of|prior|previous(?:ly)?)\s+(?:[\w-]+\s+){0,3}(?:surger(?:y|ies)|operations?|resections?)\s+for(?:\s+(?:an?|the))?\s+(?:[\w/-]+\s+|[\w-]+\/){0,3}$/i;
/** The condition a treatment is for, or one listed right after it ("surgery for primary tumours or metastatic cancer"). */
function isIndication(text: string, mention: Mention, found: Mention[]): boolean {
  const before60 = text.slice(Math.max(0, mention.start - 60), mention.start);
  if (INDICATION.test(before60) || SURGERY_FOR.test(text.slice(Math.max(0, mention.start - 100), mention.start))) return true;
  const before = found.filter((other) => other.end <= mention.start).sort((a, b) => b.end - a.end)[0];
  return (
    before !== undefined &&
    /^\s*(?:,\s*(?:or\s+|and\s+)?|(?:or|and|and\/or)\s+)(?:[a-z-]+\s+){0,2}$/i.test(text.slice(before.end, mention.start)) &&
    isIndication(text, before, found)
  );
}
const PLANNED_EXAMPLE = /\b(?:pre-?planned|planned|scheduled|expected|anticipated)\b[^.;]{0,40}\b(?:such as|e\.?\s?g\.?|including|like|for example)\b[^.;]*$/i;
// "Hepatitis C (with evidence of recent infection)": a parenthesis that opens with "with evidence of" describes the concept
// before it (hand-check R), as "defined as" does.
const DEFINITION_ALL =
  /\b(?:defined|characteri[sz]ed|manifested|evidenced|diagnosed|confirmed|documented)\s+(?:as|by)\b|\bi\.\s?e\.|\(\s*with\s+(?:evidence|signs)\s+of\b/gi;
const DEFINITION = new RegExp(DEFINITION_ALL.source, 'i');
/** A concept named only inside a definition of an earlier one ("neuropathy, defined as a patient with diabetes ..."),
 * up to the definition's next comma or semicolon; a restatement of the same concept ("(i.e., acute renal failure)") stays. */
function definitionOnly(text: string, mention: Mention, found: Mention[]): boolean {
  const earlier = found.filter((other) => other.end <= mention.start);
  if (!earlier.length || earlier.some((other) => other.concept.id === mention.concept.id)) return false;
  const between = text.slice(earlier[0].end, mention.start);
  const definition = [...between.matchAll(DEFINITION_ALL)].at(-1);
  return Boolean(definition && !/[,;)]/.test(between.slice(definition.index + definition[0].length)));
}
/** Sentence ends (not after "e.g.", "i.e.", "etc.", "vs.", a decimal point). */
function sentenceStarts(text: string): number[] {
  const starts = [0];
  const cleaned = text.replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|approx|incl|max|min|no|Dr|St)\./gi, (match) => match.replace(/\./g, ' '));
  for (const match of cleaned.matchAll(/[.;](?=\s+\S|\s*\n)/g)) if (!/\d/.test(cleaned[match.index + 1] ?? '')) starts.push(match.index + 1);
  return starts;
}
const NEAR_NEGATION = /\b(?:no|not|without|absence\s+of|free\s+of|never|none|negative|nor|lack\s+of|denies|non)\b[^.;,()]{0,30}$/i;

/** A noun after a concept that makes the concept a modifier ("physical therapy physician", "dialysis unit"). */
const TUMOR_ID = 'cohortly:tumor';
const NOT_THE_TUMOR_AFTER =
  /^[\s-]*(?:tissues?|samples?|specimens?|blocks?|biops(?:y|ies)|markers?|necrosis|related|associated|induced|cells?|types?|sizes?|volumes?|burden|mutational|response|assessments?|measurements?|lesions?|board|load|progression|grade|stage|site|bed|lysis|flare|growth)\b/i;
const MODIFIED_NOUN =
  /^[\s-]+(?:physicians?|doctors?|departments?|clinics?|specialists?|units?|services?|cent(?:er|re)s?|hospitals?|wards?|nurses?|teams?|programs?|programmes?|facilit(?:y|ies)|staff|providers?|(?:rating\s+)?scales?|scores?|index|indices|questionnaires?|inventor(?:y|ies)|assessments?)\b/i;

/** Sentences after the first that allow or permit something: what they name is not the criterion's rule. */
function permittedSentences(text: string): Span[] {
  const spans: Span[] = [];
  const sentence = /[^.;]+[.;]?/g;
  let first = true;
  for (const match of text.matchAll(sentence)) {
    if (
      !first &&
      /\b(?:(?:is|are|will be|may be|can be|be)\s+(?:\w+\s+)?(?:allowed|permitted|eligible|acceptable)|may (?:be )?(?:enrolled|included|participate)|can (?:be )?(?:enrolled|included|participate)|(?:is|are|should) not (?:be )?excluded|(?:is|are) not considered|no contraindication)\b/i.test(
        match[0],
      )
    )
      spans.push([match.index, match.index + match[0].length]);
    if (/\w/.test(match[0])) first = false;
  }
  return spans;
}

const EXCEPTION = /\b(?:except(?:\s+for)?|other than|excluding|(?:with\s+)?(?:the\s+)?exceptions?\s+of|apart from|but not|unless)\b/i;

/** Where an exception runs: to the end of its parenthesis when it sits in one ("(excluding topical)"), else to the end. */
function exceptionScope(text: string): Span | null {
  const found = EXCEPTION.exec(text);
  if (!found) return null;
  const open = text.lastIndexOf('(', found.index);
  const closeBefore = text.lastIndexOf(')', found.index);
  if (open > closeBefore) {
    const close = text.indexOf(')', found.index);
    return [found.index, close < 0 ? text.length : close];
  }
  return [found.index, text.length];
}

const REFERENCE_POINT =
  /\b(?:prior to|before|after|preceding|until|at|of)\s+(?:the\s+)?(?:(?:first|initial|last)\s+)?(?:(?:index|planned|study|trial)\s+)?(?:surgery|operation|procedure|registration|randomi[sz]ation|enrol?ment|screening|inclusion|entry|day 1|(?:dose|administration|dosing|infusion|injection|initiation|start)(?:\s+of\s+(?:the\s+)?(?:(?:study|trial)\s+(?:interventions?|drugs?|treatments?|medications?|products?)|[\w-]+(?:\s*(?:,|\/|or|and)\s*[\w-]+){0,2}))?)\b/gi;
const SYSTEMIC_TREATMENT =
  /^(?:treatments?|therap(?:y|ies)|antibiotics?|antimicrobials?|antivirals?|antifungals?|anti-?infectives?|steroids?|corticosteroids?|glucocorticoids?|immunosuppress\w*|medications?|medicines?|drugs?|agents?|administ\w*|use|exposure)$/i;
/**
 * "A complication (bleeding, hospital infection) developed ... after the operation", "adverse events or complications
 * assessed during surgery (e.g., infection)": what happens during or after the study's operation is not a condition the
 * person has before it (hand-check O).
 */
const COMPLICATION_BEFORE = /\b(?:complications?|adverse\s+events?)\b[^.;]{0,100}$/i;
const DURING_OPERATION =
  /\b(?:during|after|following)\s+(?:the\s+)?(?:index\s+|study\s+)?(?:operation|surgery|procedure|intervention)\b|\b(?:intra|post)-?operative(?:ly)?\b/i;
const WITH_OR_WITHOUT = /\bwith\s+or\s+without\s+[a-z-]+(?:\s+[a-z-]+){0,2}(?=\s*(?:[),;.]|$))/gi;
/** "Within 14 days before the first dose of durvalumab", "prior to the administration of the investigational drug",
 * "prior to initiation of radiotherapy": the study's product names a point in time, not a medicine taken. */
const DOSE_OF =
  /\b(?:(?:first|last|initial|final)\s+|(?:prior\s+to|before|after|following|until|at)\s+(?:the\s+)?(?:first\s+|initial\s+)?)(?:dose|administration|infusion|injection|initiation|start)s?\s+of\s+(?:the\s+)?(?:[\w-]+\s*(?:,|\/|or|and)\s*)?$/i;

/** Words that narrow a condition to a form, course or severity of it: never filler. */
const QUALIFIER =
  /^(?:morbid|morbidly|mild|moderate|severe|significant|significantly|serious|major|minor|chronic|acute|subacute|uncontrolled|unstable|controlled|poorly|well|recurrent|recurring|refractory|resistant|symptomatic|asymptomatic|advanced|early|late|persistent|progressive|untreated|treated|stable|frequent|intractable|life-threatening|decompensated|compensated|primary|secondary|newly|new|only|isolated|lumbar|cervical|thoracic|sacral|lumbosacral|thoracolumbar|bilateral|unilateral|multilevel|ipsilateral|contralateral|localized|localised|focal|continuous|continued|regular|regularly|daily|long-term|longterm|prolonged|intermittent|occasional|high-dose|low-dose)$/;
const DURATION =
  /\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|many)\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:days?|weeks?|months?|years?|yrs?|hours?)\b/gi;
/** A time quantity ("three months", "6-week") outside the rule's words: a duration or a point in time the rule does not hold. */
function leftoverDuration(text: string, spans: Span[]): boolean {
  return [...text.matchAll(DURATION)].some((match) => !spans.some(([start, end]) => match.index >= start && match.index < end));
}

// ---- durations of conditions ----

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
/** Words between a condition and its duration: "low back pain lasting more than", "asthma for at least", "T2D diagnosed ≥". */
const DURATION_LINK =
  /^(?:\s*\([A-Za-z0-9-]{1,12}\)|[\s,:()–-]+|(?:symptoms?|pain|that|which|has|have|had|been|lasting|lasted|lasts|persisting|persisted|persists|persistent|present|existing|ongoing|with|a|an|total|duration|of|for|since|diagnosed|diagnosis|evolution|the|is|was|started|began|begun|onset)\b)*/i;
const DURATION_WORDS = new Set(
  'symptoms symptom pain lasting lasted lasts persisting persisted persists persistent present existing ongoing total duration evolution started began begun onset ago or and but more longer greater less shorter fewer a an one two three four five six seven eight nine ten eleven twelve eighteen twenty-four d w wks mos yrs exceeding excess'.split(
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

interface ReadDuration {
  bounds: Omit<ConditionDuration, 'span'>;
  /** The duration's own words. */
  span: Span;
  /** From the concept to the end of the duration (the words between are read as its link). */
  reach: Span;
}

/** A duration at the start of `text` (offset `at` in the criterion): its bounds and length, or null. */
function durationAt(text: string, at: number): { bounds: Omit<ConditionDuration, 'span'>; end: number } | null {
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
function readDuration(text: string, first: Pick<Mention, 'start'>, last: Pick<Mention, 'end'>): ReadDuration | null {
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

/** A criterion that names no condition, only "symptoms" or "pain" and a duration ("Pain ≥ 3 months", "Symptoms less than 6 weeks"). */
const SUBJECT =
  /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:(?:the\s+)?(?:total\s+)?duration\s+of\s+(?:the\s+)?(?:(symptoms?)|(pain))|(?:(symptoms?)|(pain))(?:\s+duration)?)\b/i;
const PAIN_CONCEPT = /pain|ache|algia|sciatica|radicul|neuralg|migraine|headache/i;

/**
 * "Pain ≥ 3 months" in a low back pain trial: the symptoms and the pain are the trial's own condition, named by the
 * record. "Symptoms" may be any of the trial's conditions; "pain" only a painful one. Several are alternatives the
 * text does not name, so a person checks them.
 */
function readSubjectDuration(kind: CriterionKind, text: string, trialConcepts: readonly Concept[]): TextRule | null {
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

const MAY_HAVE_DURATION =
  /\d|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty-four)\b[\s-]*(?:days?|weeks?|wks?|months?|mos?|years?|yrs?)\b/i;

export function readConceptRule(
  kind: CriterionKind,
  text: string,
  vocab: Vocabulary,
  trialConditions: Set<string> = new Set(),
  trialConcepts: readonly Concept[] = [],
): TextRule | null {
  const found = vocab.find(text);
  const mayLast = MAY_HAVE_DURATION.test(text);
  if (!found.length) return mayLast && trialConcepts.length ? readSubjectDuration(kind, text, trialConcepts) : null;
  // "Subjects with brain metastases are eligible provided ...": a permission, not a requirement.
  // "Stable background therapies can be used including methotrexate": allowed, not required.
  if (
    /\b(?:are|is|will be|may be|can be)\s+(?:\w+\s+)?(?:eligible|allowed|permitted)\b|\b(?:can|may)\s+(?:be\s+)?(?:used|continued|continue|remain)\b/i.test(
      text,
    ) &&
    kind === 'inclusion'
  )
    return null;
  // "Deemed inappropriate by the investigator (e.g., active malignancy)": the judgement is the criterion.
  const judgement = JUDGEMENT.exec(text);
  // What follows "except", "other than", "with the exception of"... are the exceptions, never the rule's
  // concepts ("another malignancy except ... non-melanoma skin cancer" is not "must not have skin cancer").
  const exceptionSpan = exceptionScope(text);
  // In an exclusion, the trial's own condition names a form or severity of it ("life-threatening nephrotic
  // syndrome" in a nephrotic syndrome trial), never "must not have" the condition the trial studies.
  // A later sentence that allows something ("Killed vaccines are allowed.") names what is not excluded.
  const allowed = permittedSentences(text);
  // Cheap whole-text tests first, so the per-mention look-behinds run only where they can match (parse time, bench/).
  const mayDefine = DEFINITION.test(text);
  const mayDose = /\b(?:dose|administration|infusion|injection|initiation|start)s?\s+of\b/i.test(text);
  const mayPlan = /\b(?:pre-?planned|planned|scheduled|expected|anticipated)\b/i.test(text);
  const mayAdhere = /complian|adheren|adhere|comply/i.test(text);
  const mayComplicate = /complication|adverse/i.test(text);
  const maySide = /adverse|\bi?m?aes?\b|toxicit|side[- ]effect|wait|listed|risk/i.test(text);
  const mayApply =
    /\b(?:appli|plac|implant|use|administ|intra-?operative|during)/i.test(text) &&
    /neural|nerve|wound|dura|surgical|operative|disc|epidural|spinal canal|graft|surgery|operation|procedure/i.test(text);
  const notAsserted = found.filter((mention) => NOT_ASSERTED.test(text.slice(Math.max(0, mention.start - 60), mention.start)));
  const mentions = found.filter(
    (mention) =>
      !(exceptionSpan && mention.start >= exceptionSpan[0] && mention.start < exceptionSpan[1]) &&
      !allowed.some(([start, end]) => mention.start >= start && mention.start < end) &&
      !notAsserted.includes(mention) &&
      // "Registered to receive the mRNA-1273 vaccine in the vaccination history database": a concept named as planned
      // stays planned when its clause names it again (hand-check Q).
      !notAsserted.some(
        (other) => other.concept.id === mention.concept.id && other.end <= mention.start && !/[.;\n]/.test(text.slice(other.end, mention.start)),
      ) &&
      // "Could not tolerate the traction secondary to being in an acute stage of back pain": in an exclusion, a cause
      // further back is still a cause, not what excludes (hand-check P).
      !(
        kind === 'exclusion' &&
        /\b(?:due to|secondary to|caused by|because of)\b[^.;()]{0,50}$/i.test(text.slice(Math.max(0, mention.start - 70), mention.start))
      ) &&
      // "Nonadherence to use of ... immunosuppressive therapies": adhering to a medicine is not taking or not taking it.
      !(mayAdhere && ADHERENCE_TO.test(text.slice(Math.max(0, mention.start - 120), mention.start))) &&
      // "Application of products to the exposed neural element, including: steroids": used in the operation, not taken.
      !(
        mention.concept.kind === 'medication' &&
        mayApply &&
        (PROCEDURE_PRODUCT.test(text.slice(0, mention.start)) || PRODUCT_APPLIED.test(text.slice(mention.end, mention.end + 80)))
      ) &&
      // "Other spinal diseases", "another malignancy": other than the one the trial studies, which the rule cannot name.
      // ("X or other Y", "any other Y" add alternatives and stay.)
      !/(?<!\b(?:or|and|nor|any|no|,)\s*)\b(?:other|another)\s+(?:[a-z-]+\s+){0,2}$/i.test(text.slice(Math.max(0, mention.start - 40), mention.start)) &&
      // "Liver disease of other aetiologies": the other causes are the rule, not the class the trial studies.
      !/^\s*(?:[a-z]+ing\s+)?(?:of|from|due to|caused by)\s+(?:an?\s+)?(?:other\s+(?:a?etiolog|causes?|origins?|reasons?)|(?:a?etiolog\w*|causes?|origins?|reasons?)\s+other\s+than)/i.test(
        text.slice(mention.end, mention.end + 50),
      ) &&
      // "Adverse events from prior immunotherapy", "on the waiting list for a transplant", "at a high risk of
      // osteoporosis (such as ... long-term corticosteroids)": a cause, a wait or a risk's examples, not what the person has or takes.
      // The window reaches back past a risk and its examples ("at a high risk of osteoporosis (such as postmenopausal
      // women and patients receiving long-term treatment with corticosteroids)", hand-check S).
      !(maySide && SIDE_OF.test(text.slice(Math.max(0, mention.start - 160), mention.start))) &&
      !(
        mayComplicate &&
        COMPLICATION_BEFORE.test(text.slice(Math.max(0, mention.start - 100), mention.start).replace(/\b(?:e\.\s?g|i\.\s?e|etc)\./gi, '')) &&
        DURING_OPERATION.test(text.slice(Math.max(0, mention.start - 100), mention.end + 120))
      ) &&
      // "First non-Raynaud's manifestation", "non-cancer pain": a "non-" word before what it qualifies names something
      // other than the concept ("non-diabetic adults" still says the person has no diabetes).
      !(
        /\bnon-\s*$/i.test(text.slice(Math.max(0, mention.start - 5), mention.start)) &&
        /^\s*(?:[a-z']+\s+)?(?:manifestations?|symptoms?|signs?|features?|causes?|origins?|events?|pain|related)\b/i.test(
          text.slice(mention.end, mention.end + 30),
        )
      ) &&
      // "With or without low back pain": optional, neither required nor excluded.
      !/\bwith\s+or\s+without\s+(?:[a-z-]+\s+){0,2}$/i.test(text.slice(Math.max(0, mention.start - 40), mention.start)) &&
      // "Diabetic retinopathy": a complication named by its cause, not the cause itself.
      !(
        /^diabetic$/i.test(text.slice(mention.start, mention.end)) &&
        /^\s+(?:retinopathy|maculopathy|macular|neuropathy|nephropathy|kidney|foot|feet|ulcers?|ketoacidosis|gastroparesis)\b/i.test(
          text.slice(mention.end, mention.end + 20),
        )
      ) &&
      // "a physical therapy physician", "the dialysis unit": the concept names a person or a place, not a treatment.
      !MODIFIED_NOUN.test(text.slice(mention.end, mention.end + 20)) &&
      // "Investigational product (drug, vaccine, or device)": kinds of the product, not any vaccine.
      !PRODUCT_KINDS.test(text.slice(Math.max(0, text.lastIndexOf('(', mention.start) - 80), text.lastIndexOf('(', mention.start) + 1).replace(/\s+$/, '')) &&
      // "Tumour tissue", "tumour-related pain", "tumor necrosis factor", "anti-tumor treatment": the words name a sample,
      // a cause, a molecule or a treatment, not a tumour the person has (decision 108).
      !(
        mention.concept.id === TUMOR_ID &&
        (NOT_THE_TUMOR_AFTER.test(text.slice(mention.end, mention.end + 30)) || /\banti[\s-]*$/i.test(text.slice(0, mention.start)))
      ) &&
      // "Response Evaluation Criteria in Solid Tumors": the name of a set of criteria, not a condition.
      !/\bcriteria\s+in\s+$/i.test(text.slice(Math.max(0, mention.start - 20), mention.start)) &&
      // "Allergic to the test food or any other food": not an allergy to medicines.
      !(isAllergy(mention) && !allergyToMedicine(text, mention, found)) &&
      // "Peripheral neuropathy, defined as ... with type 2 diabetes": what a definition names is not an alternative.
      !(mayDefine && definitionOnly(text, mention, found)) &&
      !(mayDose && DOSE_OF.test(text.slice(Math.max(0, mention.start - 60), mention.start))) &&
      // "A preplanned treatment such as cardioversion or pacemaker implantation": examples of the plan.
      !(mayPlan && PLANNED_EXAMPLE.test(text.slice(Math.max(0, mention.start - 160), mention.start))) &&
      // In an exclusion, the condition a treatment is for is not what excludes ("requires facetectomy to treat back pain").
      !(kind === 'exclusion' && isIndication(text, mention, found)) &&
      // With a duration beside it ("low back pain for less than 3 months"), the trial's condition is what the exclusion is about.
      !(kind === 'exclusion' && mention.concept.mesh && trialConditions.has(mention.concept.mesh) && !(mayLast && readDuration(text, mention, mention))),
  );
  // "Allergy to peanuts or penicillin": an allergy set aside for a food keeps its medicines, which are allergens too,
  // not medicines taken.
  const setAside = found.find((mention) => isAllergy(mention) && !mentions.includes(mention));
  if (setAside) {
    const clauseEnd = setAside.end + (/[.;\n]/.exec(text.slice(setAside.end))?.index ?? text.length);
    mentions.splice(
      0,
      mentions.length,
      ...mentions.filter((mention) => !(mention.concept.kind === 'medication' && mention.start > setAside.end && mention.start < clauseEnd)),
    );
  }
  if (!mentions.length) return null;
  // "Axial back pain only (no radicular symptoms)": an exclusion of the condition alone. "Must not have" it would refuse
  // those who have it with more, often the trial's own people.
  if (
    kind === 'exclusion' &&
    (/^\s*only\b/i.test(text.slice(mentions[0].end, mentions[0].end + 8)) ||
      /\bonly\s+(?:[a-z-]+\s+)?$/i.test(text.slice(Math.max(0, mentions[0].start - 20), mentions[0].start)))
  )
    return { rule: null, needsReview: true };
  // "On stable background treatment with\n- antimalarials;\n- and/or prednisone;\n- and/or ...": list lines joined by "or"
  // are alternatives; in an inclusion, a rule requiring the one read would refuse people on another.
  if (kind === 'inclusion' && /\n\s*(?:[-•*·]|\(?\w{1,3}[.)])?\s*(?:and\s*\/\s*or|or)\b/i.test(text)) return { rule: null, needsReview: true };
  // "Participants with HCV infection must have a confirmed diagnosis ...": a requirement of a subgroup, not that everybody
  // has the subgroup's condition.
  if (
    kind === 'inclusion' &&
    /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:participants?|patients?|subjects?|those|individuals|women|men)\s+(?:with|who\s+(?:have|are))\b[^.;:]{1,80}?\b(?:must|should|need\s+to|are\s+required\s+to)\b/i.test(
      text.slice(labelLength(text)),
    )
  )
    return { rule: null, needsReview: true };
  // "Planned or expected intervention (e.g. start of chemotherapy)", "Elective surgery planned during the study": the
  // criterion is about a plan, and what it names is not something the person has or takes.
  if (/^\s*(?:\(?\w{1,3}[.)]\s*)?(?:any\s+)?(?:planned|expected|anticipated|scheduled|foreseen|intended)\b/i.test(text.slice(labelLength(text)))) {
    // An inclusion keeps only what the planned treatment is for ("scheduled for laminectomy for treatment of stenosis").
    if (kind === 'exclusion') return null;
    const indications = mentions.filter((mention) => isIndication(text, mention, mentions));
    if (!indications.length) return null;
    mentions.splice(0, mentions.length, ...indications);
  }
  // "Has received radiotherapy within 14 days. Participants must have recovered ... not require corticosteroids":
  // a later sentence is another requirement (or a note on this one); the rule reads the first sentence that
  // names a concept, and a person reads the rest.
  const starts = sentenceStarts(text);
  const sentenceOf = (at: number) => starts.filter((start) => start <= at).length - 1;
  const firstSentence = sentenceOf(mentions[0].start);
  const laterSentences = mentions.some((mention) => sentenceOf(mention.start) !== firstSentence);
  if (laterSentences) mentions.splice(0, mentions.length, ...mentions.filter((mention) => sentenceOf(mention.start) === firstSentence));
  // "Deemed inappropriate by the investigator (e.g., active malignancy)": the judgement is the criterion.
  if (judgement && judgement.index < mentions[0].start) return null;
  // "Other inflammatory diseases, eg, IBD, skin disease, that, in the opinion of the investigator, could interfere": the
  // concepts are examples of what the investigator judges, not the rule.
  if (judgement && /\b(?:e\.?g\.?|such as|for example|for instance)(?=[\s,:]|$)/i.test(text.slice(0, mentions[0].start))) return null;
  // "Workers' compensation for back pain", "litigation related to the injury": the legal matter is the criterion.
  const legal = /\b(?:litigation|lawsuits?|workers?'?s?'?\s+comp(?:ensation)?|disability (?:remuneration|claims?|compensation))\b/i.exec(text);
  if (legal && legal.index < mentions[0].start) return null;
  // "Treatment with 1-3 oral antidiabetic drugs (metformin, glinides, ...)": in an inclusion, concepts named only
  // inside a parenthesis are examples of a class the reader did not name; requiring one of them would be wrong.
  const inParentheses = (at: number) => {
    // Depth, not the nearest bracket: "(..., failed back surgery syndrome (FBSS), radiculopathy)" is all inside.
    let depth = 0;
    for (const char of text.slice(0, at)) depth = char === '(' ? depth + 1 : char === ')' ? Math.max(0, depth - 1) : depth;
    return depth > 0;
  };
  if (kind === 'inclusion' && mentions.every((mention) => inParentheses(mention.start))) return { rule: null, needsReview: true };
  // "Radicular pain provoked by ... list (scoliosis), straight leg raising": in an inclusion, a concept in parentheses
  // beside one named outside them glosses or exemplifies a word; as an alternative it would be met on its own.
  const parenthetical = kind === 'inclusion' && mentions.some((mention) => inParentheses(mention.start));
  if (parenthetical) mentions.splice(0, mentions.length, ...mentions.filter((mention) => !inParentheses(mention.start)));
  // "Allergy to local anaesthetics or opioids": an allergy to named medicines is one condition per medicine.
  const allergens = allergyToNamed(text, mentions);
  if (allergens) mentions.splice(0, mentions.length, ...allergens.mentions);
  // The first concept's kind decides; further concepts of the same kind are alternatives ("MI, stroke or TIA").
  const first = mentions[0];
  const same = mentions.filter((mention) => mention.concept.kind === first.concept.kind);
  const unique: Mention[] = [];
  for (const mention of same) if (!unique.some((seen) => seen.concept.id === mention.concept.id)) unique.push(mention);
  const before = text.slice(0, first.start);
  // "Non-microdiscectomy lumbar surgery": a "non-" prefix negates its own word, not the concept after it.
  // "No chronic physical diseases, including skin diseases": the examples of a negated class are negated too.
  const listHead = /^(.*?)[,(]?\s*(?:including|such\s+as|e\.\s?g\.?,?)\s*$/i.exec(before);
  const negated =
    NEAR_NEGATION.test(before.slice(-40).replace(/\bnon-[a-z]+/gi, '')) ||
    Boolean(listHead && NEAR_NEGATION.test(listHead[1].slice(-40).replace(/\bnon-[a-z]+/gi, '')));
  const applies = kind === 'inclusion' ? !negated : negated;
  // A time window belongs to the concept when it is near it ("MI within 6 months"), not to another clause.
  const anyWindow = readWindow(text);
  const lastMention = unique.at(-1)!;
  const between = anyWindow ? text.slice(Math.min(lastMention.end, anyWindow.span[1]), Math.max(lastMention.end, anyWindow.span[0])) : '';
  // Abbreviations ("e.g.", "i.e.", "etc.", "vs.") do not end a clause.
  // The window and every concept it applies to sit in one clause (the first mention too, not only the last).
  const reach = anyWindow ? text.slice(Math.min(first.start, anyWindow.span[0]), Math.max(lastMention.end, anyWindow.span[0])) : '';
  const clauseBreak = /\n/.test(reach) || /[.;]/.test(between.replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|approx|incl|max|min|no)\./gi, ''));
  // "Nephrotic syndrome ... and no steroids within 12 weeks": a window after a concept of another kind is that one's.
  const otherBetween = Boolean(
    anyWindow &&
      mentions.some((mention) => mention.concept.kind !== first.concept.kind && mention.start >= lastMention.end && mention.end <= anyWindow.span[0]),
  );
  // "Used any of the following drugs within 14 days prior to enrollment: St. John's wort": a window in a list's lead-in
  // (the parent's words the structure writes before each item) is every item's (hand-check Q).
  const leadEnd = anyWindow && anyWindow.span[1] < first.start ? text.indexOf(': ', anyWindow.span[1]) : -1;
  const inLeadIn =
    leadEnd >= 0 &&
    leadEnd < first.start &&
    /\bfollowing\b/i.test(text.slice(0, leadEnd)) &&
    !/[.;\n]/.test(text.slice(anyWindow!.span[1], leadEnd)) &&
    !/[;\n]|\.(?:\s|$)/.test(text.slice(leadEnd, lastMention.end).replace(/\b(?:e\.\s?g|i\.\s?e|etc|vs|st)\./gi, ''));
  const window =
    anyWindow && !otherBetween && (inLeadIn || (anyWindow.span[0] - lastMention.end <= 120 && first.start - anyWindow.span[1] <= 30 && !clauseBreak))
      ? anyWindow
      : null;
  // Every mention of the chosen concepts is read, repeats too ("AIDS or HIV", "acute kidney injury (acute renal failure)").
  const spans: Span[] = same.map((mention) => [mention.start, mention.end]);
  if (window) spans.push(window.span);
  // "Low back pain lasting more than 6 months": how long the condition has lasted (a condition only; a window wins).
  const duration = first.concept.kind === 'condition' && !window && mayLast ? readDuration(text, first, lastMention) : null;
  if (duration) spans.push(duration.reach);
  const concepts = unique.map((mention) => conceptRef(mention.concept));
  // Allergies to several medicines are named once: "an allergy to X or Y", then any other item of the list.
  // Several medicines are named without their examples, to keep the name short.
  const allergic = unique.filter((mention) => mention.concept.id.startsWith(ALLERGY_PREFIX));
  const allergenName = (mention: Mention) => {
    const medicine = mention.concept.en.slice(ALLERGY_TO.length);
    return allergic.length > 1 ? medicine.replace(/\s*\(such as [^)]*\)/g, '') : medicine;
  };
  const name = allergic.length
    ? joinNames([
        `${ALLERGY_TO}${joinNames(allergic.map(allergenName))}`,
        ...unique.filter((mention) => !allergic.includes(mention)).map((mention) => mention.concept.en),
      ])
    : joinNames(unique.map((mention) => mention.concept.en));
  const span: Span = [Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))];
  const extra = new Set([
    'diagnosis',
    'diagnosed',
    'disease',
    'disorder',
    'condition',
    'conditions',
    'event',
    'events',
    'episode',
    'episodes',
    'infection',
    'infections',
    'illness',
    'medication',
    'medications',
    'medicine',
    'medicines',
    'drug',
    'drugs',
    'agent',
    'agents',
    'administration',
    'administered',
    'exposure',
    'exposed',
    'suspected',
    'underlying',
    'concomitant',
    'concurrent',
    'stable',
    'regimen',
    'following',
    'such',
    'like',
    'type',
    'types',
    'dependence',
    'abuse',
    'documented',
    'requiring',
    'required',
    'requires',
    'positive',
    'planned',
    'scheduled',
  ]);
  // "Chronic or acute pancreatitis", "acute and/or chronic": both courses together are the whole concept.
  if (/\b(?:acute|chronic)\s*(?:,|or|and\/or|and)\s*(?:acute|chronic)\b/i.test(text)) for (const word of ['acute', 'chronic']) extra.add(word);
  // "Active or chronic hepatitis B": whichever course, the infection now (decision 110).
  if (/\bactive\s*(?:,|or|and\/or)\s*chronic\b/i.test(text)) extra.add('chronic');
  // "HIV or AIDS-related illness": an illness of AIDS is one of HIV, which the rule names (decision 110).
  if (unique.some((mention) => mention.concept.en === 'HIV') && /\b(?:AIDS|HIV)\)?[- ]related\s+(?:illness|disease|condition)s?\b/i.test(text))
    extra.add('related');
  for (const word of ['mellitus', 'participated', 'enrolled', 'took', 'excluded', 'symptoms', 'symptom', 'their']) extra.add(word);
  // "Enrolled in or completed another investigational study within 30 days": taking part, ended or not, in the window
  // the rule holds (decision 110).
  if (
    unique.some((mention) => mention.concept.id === 'cohortly:investigational-drug') &&
    /\b(?:enrolled|participat\w*)\s+in\s+or\s+(?:have\s+|has\s+)?completed\b/i.test(text)
  )
    extra.add('completed');
  // "Meeting the diagnostic criteria for fibromyalgia": a diagnosis by its criteria is the diagnosis (decision 110).
  const byCriteria =
    /\b(?:meet(?:s|ing)?|fulfil(?:l|ls|ling|s)?|satisf(?:y|ies|ying))\s+(?:the\s+)?(?:diagnostic\s+)?criteria\s+(?:for|of)\s+(?:an?\s+|the\s+)?$/i;
  if (
    unique.some(
      (mention) =>
        byCriteria.test(text.slice(Math.max(0, mention.start - 50), mention.start)) &&
        /diagnostic/i.test(text.slice(Math.max(0, mention.start - 50), mention.start)),
    )
  )
    for (const word of [
      'meet',
      'meets',
      'meeting',
      'fulfil',
      'fulfill',
      'fulfils',
      'fulfills',
      'fulfilling',
      'satisfy',
      'satisfies',
      'satisfying',
      'diagnostic',
      'criteria',
    ])
      extra.add(word);
  // "Diabetes with uncontrolled blood glucose": the uncontrolled sugar is the uncontrolled diabetes the rule holds.
  if (
    unique.some((mention) => /diabetes/i.test(mention.concept.en)) &&
    /\bdiabet\w*(?:\s+mellitus)?\s+with\s+(?:uncontrolled|poorly\s+controlled)\s+(?:blood\s+(?:glucose|sugars?)|glyc(?:a)?emia)\b/i.test(text)
  )
    for (const word of ['blood', 'glucose', 'sugar', 'sugars', 'glycemia', 'glycaemia']) extra.add(word);
  // "Known HIV seropositivity", "a positive test for HIV": a positive test of an infection is the infection. Not an
  // antibody alone, which stays after a cured infection ("hepatitis C antibody positive"). A positive SARS-CoV-2 test
  // is COVID-19 too (decision 110).
  if (unique.some((mention) => /^(?:HIV|hepatitis B|COVID-19)$/.test(mention.concept.en)) && !/\banti|antibod/i.test(text))
    for (const word of ['seropositive', 'seropositivity', 'test', 'tested', 'result', 'results']) extra.add(word);
  // "Have been given the diagnosis of ulcerative colitis": a diagnosis given is a diagnosis.
  if (/\bgiven\s+(?:a|the)\s+diagnosis\b/i.test(text)) extra.add('given');
  // "Diagnosed by the investigator / a physician with ...": who diagnosed says no more than the diagnosis.
  const diagnosedBy = /\bdiagnosed\s+by\s+(?:the\s+|a\s+|an\s+|your\s+)?(investigators?|physicians?|doctors?|specialists?)\b/i.exec(text);
  if (diagnosedBy) extra.add(diagnosedBy[1].toLowerCase());
  // "Systemic corticosteroids", "infection requiring systemic treatment": the route of a treatment says no more than the
  // treatment. "Systemic bone or joint disease" is narrower than bone disease: there the word is unread (hand-check O).
  if (first.concept.kind === 'medication' || [...text.matchAll(/\bsystemic(?:ally)?\s+([a-z-]+)/gi)].every((match) => SYSTEMIC_TREATMENT.test(match[1])))
    extra.add('systemic');
  // "Had undergone spine surgery": the verb of an operation says no more than the operation.
  if (unique.some((mention) => /surgery|operation/i.test(mention.concept.en))) for (const word of ['undergone', 'underwent', 'undergo']) extra.add(word);
  if (duration) {
    for (const word of DURATION_WORDS) extra.add(word);
    // "Chronic low back pain (> 3 months)": the duration says what "chronic" means (12 weeks or more).
    if ((duration.bounds.minDays ?? 0) >= 84) extra.add('chronic');
  }
  // "Hypersensitivity to the study drug or its excipients": the study's own product is what the allergy concept means;
  // "allergy to opioids or any of their components": a medicine's components are the medicine's.
  if (unique.some(isAllergy) || allergens)
    for (const word of [
      'its',
      'allergy',
      'allergies',
      'allergic',
      'hypersensitivity',
      // "Severe hypersensitivity reactions to the study drug": the reaction is the allergy.
      'reaction',
      'reactions',
      'excipient',
      'excipients',
      'ingredient',
      'ingredients',
      'component',
      'components',
      'formulation',
      'product',
      'products',
      'investigational',
    ])
      extra.add(word);
  // "Prior to the surgery", "before the first dose of study intervention": a point in time, said by the window or
  // by the trial's schedule, not part of the concept.
  const references: Span[] = [...text.matchAll(REFERENCE_POINT)].map((match) => [match.index, match.index + match[0].length]);
  // "Migraine (with or without aura)": what is optional narrows nothing; only a short phrase that ends the clause.
  for (const match of text.matchAll(WITH_OR_WITHOUT)) references.push([match.index, match.index + match[0].length]);
  // "Already on ACE inhibitors, as they may raise the effect of the study drug": the reason given says why, not what
  // (decision 110); only when it names no concept of its own.
  const reason = /,?\s+(?:as|because|since)\s+(?:it|they|this|these|such\s+\w+)\s+(?:may|might|can|could|will|would)\b[^.;]*/i.exec(text);
  if (reason && !mentions.some((mention) => mention.end > reason.index && mention.start < reason.index + reason[0].length)) {
    references.push([reason.index, reason.index + reason[0].length]);
    if (/\balready\s+(?:on|taking|receiving|using|treated)\b/i.test(text)) extra.add('already');
  }
  // "Severe osteoporosis", "lumbar disc herniation", "radiculopathy (bilateral)": qualifiers a condition rule holds in
  // plain words (decision 077); the words it holds are no longer left over.
  const unreadWords = leftoverWords(text, [...spans, ...references], extra);
  const held = first.concept.kind === 'condition' ? readQualifiers(text, same, unique, unreadWords) : null;
  const leftWords = held ? unreadWords.filter((word) => !held.consumed.has(word.start)) : unreadWords;
  const left = leftWords.map((item) => item.word);
  // "Tested positive for HIV": a person knows a positive test of these infections (the extra words above), so it is not a
  // test only staff can read; "positive for HER2" still is (decision 110).
  let clinicianText = text;
  for (const mention of unique.filter((one) => /^(?:HIV|hepatitis B|COVID-19)$/.test(one.concept.en) && !/\banti|antibod/i.test(text))) {
    const test = /\btest(?:ed)?\s+positive\s+for\s+(?:the\s+)?$/i.exec(text.slice(0, mention.start));
    if (test) clinicianText = clinicianText.slice(0, test.index) + ' '.repeat(test[0].length) + clinicianText.slice(mention.start);
  }
  const clinician = unique.some((mention) => mention.concept.clinicianOnly) || CLINICIAN_WORDS.test(clinicianText);
  const mixedKinds = mentions.some((mention) => mention.concept.kind !== first.concept.kind);
  // A number the rule did not take (a duration "for at least 12 weeks", a dose, a count) is more than the rule.
  const numbers = leftoverNumbers(text, spans);
  // "(other than ...)", "except ...": the rule does not hold the exception; "family history": not the person's own.
  const exception = /\b(?:other than|except|excluding|unless|family)\b/i.test(text);
  // "History of steroid use", "prior treatment with X" in an exclusion: ever taken, which the rule says with `history`.
  const pastUse =
    first.concept.kind === 'medication' &&
    !window &&
    // A section label's "Prior/Concomitant therapy:" names the section, not the time.
    (/\b(?:history|prior(?!\s+to\b)|previous(?:ly)?(?!\s+to\b)|ever|(?:have|has|had)\s+(?:ever\s+|previously\s+|already\s+)?(?:been\s+)?(?:used|received|taken|treated|exposed))\b/i.test(
      text.slice(labelLength(text)),
    ) ||
      // "Treated with epidural injections.": a criterion that opens with a past participle speaks of the past.
      /^\s*(?:\(?\w{1,3}[.)]\s*)?(?:treated|received|underwent|took)\b/i.test(text.slice(labelLength(text))));
  // Not when a window stands elsewhere in the criterion ("have received opioids, ... or injections within 7 days"): it
  // may cover the medicine too, and "ever" would be broader; nor for "recent" use.
  const everTaken =
    pastUse &&
    !anyWindow &&
    !/\brecent(?:ly)?\b/i.test(text) &&
    // An exclusion of past use, or an inclusion that says "must not have received prior ...".
    !applies &&
    // "For treatment of the current episode" says which episode, not that the use is current.
    (!CURRENT.test(text.replace(/\bcurrent\s+(?:episode|condition|illness|disease|symptoms?|complaint|pain)\b/gi, '')) || NOW_OR_BEFORE.test(text)) &&
    !/\b(?:use|using|taking|receiving|on)\s+(?:\w+\s+){0,2}(?:now|currently|at (?:screening|present))\b/i.test(text);
  // A severity, course or control word narrows the concept ("severe asthma", "chronic back pain", "uncontrolled
  // hypertension"), and a time quantity the rule did not take is a duration ("back pain for more than three months").
  // "Allergy to peanuts / nickel / penicillin": the allergen is more than "an allergy to medicines like this one",
  // which only the study's own product ("study drug", "its excipients") is.
  const allergen =
    unique.some(isAllergy) &&
    /\b(?:allerg\w*|hypersensitiv\w*|anaphyla\w*|reactions?)\s+(?:to|against)\s+(?!(?:the\s+|any\s+(?:of\s+)?(?:the\s+)?|one\s+of\s+the\s+)?(?:study|investigational|trial|ingredients?|components?|excipients?|placebo|drugs?\s+(?:under|used|in)|product|imp)\b)/i.test(
      text,
    );
  // A synonym that names a subtype ("lumbar spine surgery", "lumbar fracture" for spine surgery / spine fracture):
  // the rule's concept is broader than the words, so a person checks.
  const subtype = same.some((mention) =>
    [
      ...text
        .slice(mention.start, mention.end)
        .toLowerCase()
        .matchAll(/[a-z-]+/g),
    ].some(
      (word) =>
        QUALIFIER.test(word[0]) &&
        !mention.concept.en.toLowerCase().includes(word[0]) &&
        !held?.consumed.has(mention.start + word.index) &&
        // "Active or chronic hepatitis B": a course both sides name is no subtype.
        !extra.has(word[0].toLowerCase()),
    ),
  );
  // "Syphilis" read as a sexually transmitted infection: one member of the class, narrower than the rule (decision 110).
  // "Sexually transmitted infections (e.g. syphilis)" names the class too.
  const isMember = (mention: Mention) =>
    Boolean(
      mention.concept.members?.includes(
        text
          .slice(mention.start, mention.end)
          .toLowerCase()
          .replace(/\s*\([^)]*\)/g, '')
          .replace(/[()]/g, '')
          .replace(/\s+(?:infections?|diseases?)$/, ''),
      ),
    );
  const member = same.some((mention) => isMember(mention) && !same.some((other) => other.concept.id === mention.concept.id && !isMember(other)));
  const qualified =
    subtype || member || allergen || Boolean(allergens?.narrower) || leftWords.some(({ word }) => QUALIFIER.test(word)) || leftoverDuration(text, spans);
  const flags: Record<string, boolean> = {
    qualified,
    // One unread word is enough: "interstitial pneumonia", "congenital deformity", "grade II" say more than the concept.
    words: left.length > 0,
    // "In the past month" that the rule did not take as its window: the time scope is unread.
    // "For treatment of the current episode" (hand-check S): since the episode began, which no rule's time can say.
    timeUnread:
      (!window &&
        /\b(?:last|past|previous|preceding|recent(?:ly)?)\s+(?:\d+\s*|few\s+|several\s+)?(?:days?|weeks?|months?|years?)\b|\brecent(?:ly)?\b/i.test(text)) ||
      /\b(?:current|present|this|same|index)\s+episodes?\b/i.test(text),
    listItem: unreadListItem(text, leftWords),
    numbers,
    exception,
    pastUse: pastUse && !everTaken,
    laterSentences,
    parenthetical,
    // "Spinal infection or tumor", "tumor in the lumbar region": a tumour beside a place may be the place's, narrower
    // than any tumour; a person reads it.
    tumorSite:
      same.some((mention) => mention.concept.id === TUMOR_ID) &&
      /\b(?:spin\w*|spine|lumbar|cervical|thoracic|vertebra\w*|brain|cns|bone|liver|lung|breast|skin|region|area|site)\b/i.test(text),
    // "Diabetes, drug treated", "insulin-dependent": how the condition is treated narrows it.
    treatedAs: /\b(?:drug|insulin|medication|medically|diet|surgically|pharmacologically)[- ](?:treated|controlled|requiring)\b/i.test(text),
    lines: /\n/.test(text),
    clinician,
    mixedKinds,
    // "Back pain and/or sciatica" is an "or" (decision 110); "back pain and sciatica" asks for both.
    joined: kind === 'inclusion' && unique.length > 1 && /\band\b(?!\s*\/\s*or\b)/i.test(text.slice(spans[0][0], span[1])),
  };
  // The words the rule left are named, so a breakdown can count which words most often keep a rule in review.
  // "Epidural fibrosis and/or disc herniation": in an inclusion, an unread alternative right beside the concepts means
  // the rule would require one alternative the text does not require; a person reads it.
  const unreadWord = (from: number, to: number) =>
    leftWords.some((word) => word.start >= from && word.end <= to && !/^(?:ct|mri|mr|x-ray|imaging)$/.test(word.word));
  const alternativeBefore = /([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})\s+(?:or|and\/or)\s+$/i.exec(text.slice(Math.max(0, first.start - 50), first.start));
  const alternativeAfter = /^\s+(?:or|and\/or)\s+(?:an?\s+|the\s+)?([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})/i.exec(
    text.slice(lastMention.end, lastMention.end + 50),
  );
  if (
    kind === 'inclusion' &&
    applies &&
    ((alternativeBefore && unreadWord(first.start - alternativeBefore[0].length, first.start)) ||
      (alternativeAfter && unreadWord(lastMention.end, lastMention.end + alternativeAfter[0].length)))
  )
    return { rule: null, needsReview: true };
  const reasons = Object.keys(flags)
    .filter((flag) => flags[flag])
    .map((flag) => (flag === 'words' ? `words: ${left.join(' ')}` : flag));
  const needsReview = reasons.length > 0;
  const treatmentFor =
    first.concept.kind === 'condition' &&
    /\b(?:medications?|medicines?|drugs?|agents?|treatments?|therap(?:y|ies))\b[^.;]{0,40}\bfor\b[^.;]{0,30}$/i.test(before);
  if (treatmentFor) {
    // "Plans of receiving treatment for X": a plan, not a treatment taken.
    if (/\b(?:plann\w*|plans?|scheduled|will|candidates?|expected|intend\w*)\b[^.;]*$/i.test(before.slice(-80))) return { rule: null, needsReview: true };
    // "Must not have received prior systemic therapy for HCC": a negation further back than the near one, or past
    // treatment, which "taking now" cannot say.
    if ((!negated && /\b(?:no|not|never|without)\b[^.;]*$/i.test(before)) || PAST_TREATMENT.test(before)) return { rule: null, needsReview: true };
    return {
      rule: {
        type: 'medication',
        medication: `medicines for ${name}`,
        taking: applies,
        concepts,
        ...(window ? { within: window.window } : {}),
        span: spanOf(span),
      },
      needsReview,
      reasons,
      unread: left,
    };
  }
  if (first.concept.kind === 'medication') {
    // "At least 6 weeks of failed treatment including physical therapy": past treatment, which "taking now" cannot say.
    if (kind === 'inclusion' && applies && !window && PAST_TREATMENT.test(text)) return { rule: null, needsReview: true };
    return {
      rule: {
        type: 'medication',
        medication: name,
        taking: applies,
        concepts,
        ...(everTaken ? { history: true } : {}),
        ...(window ? { within: window.window } : {}),
        span: spanOf(span),
      },
      needsReview,
      reasons,
      unread: left,
    };
  }
  // History words count in the sentence that names the concept, not in another clause ("exercises in the past; claustrophobia").
  const sentence = text.slice(starts[firstSentence], starts[firstSentence + 1] ?? text.length);
  // "Based on history, examination and MRI": history-taking, not a past condition.
  // "On the currently painful segment": "currently" says which segment, not that the surgery is now (hand-check R).
  // "All patients had radiculopathy due to ...": in an inclusion, the trial's patients described, not a past condition.
  const described = kind === 'inclusion' ? sentence.replace(/\b(?:all\s+)?(?:the\s+)?(?:patients|participants|subjects)\s+had\b/gi, ' ') : sentence;
  const historical = described
    .replace(/\bcurrent(?:ly)?\s+(?:painful|affected|symptomatic|involved|index|treated|operated)\b/gi, ' ')
    .replace(
      /\b(?:based on|by|from|per|according to|confirmed by|on)\s+(?:the\s+)?(?:(?:medical|clinical|patient)\s+)?history\b|\b(?:evidenced|established|confirmed|determined|documented|assessed|shown)\s+by\b[^.;]{0,60}?\bhistory\b/gi,
      '',
    );
  const history = HISTORY.test(historical) && (!CURRENT.test(historical) || NOW_OR_BEFORE.test(historical));
  return {
    rule: {
      type: 'condition',
      condition: name,
      present: applies,
      concepts,
      ...(history ? { history: true } : {}),
      ...(window ? { within: window.window } : {}),
      ...(duration ? { duration: { ...duration.bounds, span: spanOf(duration.span) } } : {}),
      ...(held?.qualifiers.length ? { qualifiers: held.qualifiers } : {}),
      // The words a qualifier was read from are highlighted with the concept's.
      span: spanOf(held ? [Math.min(span[0], ...held.consumed.keys()), Math.max(span[1], ...held.consumed.values())] : span),
    },
    needsReview,
    reasons,
    unread: left,
  };
}

// ---- qualifiers a condition rule holds (decision 077) ----

/** Concepts of the spine, where "lumbar", "cervical" and "thoracic" name the part of the spine (elsewhere "cervical" is the cervix). */
const SPINE_CONCEPT = /spin|disc|vertebr|radicul|sciatica|back|neck|spondyl|stenosis|myelopath|facet|cauda/i;
/** A comparison or a "non-" before the word: "more than mild", "non-severe" say something a qualifier cannot. */
const NOT_PLAIN_BEFORE = /(?:\b(?:than|least|most|beyond|exceeding|above|below|over|under|not|non)\s*-?\s*|-)$/i;
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
const SPINE_QUALIFIER: Record<string, ConditionQualifier> = { lumbar: 'lumbar', lumbosacral: 'lumbar', cervical: 'cervical', thoracic: 'thoracic' };
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
/** Pairs read as one qualifier: "moderate to severe", "mild-to-moderate", "poorly controlled", "morbidly obese". */
const QUALIFIER_PAIRS: Array<{ pattern: RegExp; qualifier: ConditionQualifier | null; obesityOnly?: boolean }> = [
  { pattern: /\bmoderate(?:ly)?\s*(?:-\s*)?(?:to|or|and\/or|-)\s*(?:-\s*)?severe(?:ly)?\b/gi, qualifier: 'moderate_or_severe' },
  { pattern: /\bmild\s*(?:-\s*)?(?:to|or|and\/or|-)\s*(?:-\s*)?moderate(?:ly)?\b/gi, qualifier: 'mild_or_moderate' },
  { pattern: /\bpoorly\s+(controlled)\b/gi, qualifier: 'uncontrolled' },
  { pattern: /\b(?:morbid(?:ly)?)\b/gi, qualifier: 'severe', obesityOnly: true },
  // "Local or systemic infection", "systemic or localized": both together are the whole concept, no qualifier.
  { pattern: /\b(?:local(?:i[sz]ed)?\s*(?:,|or|and\/or)\s*systemic|systemic\s*(?:,|or|and\/or)\s*(local(?:i[sz]ed)?))\b/gi, qualifier: null },
];

/**
 * The qualifiers a condition rule can hold whole: each word a severity, course, control, spine-part or side word
 * beside the concept, in its clause, with nothing comparing it ("more than mild"). With several concepts only words
 * before the first, which qualify the whole list ("clinically significant heart or liver disease"). Returns the
 * qualifiers and the offsets of the words they hold; words it cannot hold stay unread and keep the review flag.
 */
function readQualifiers(
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
  // A qualifier before a list distributes over a shared head noun only ("severe kidney or liver disease"), not over a
  // list of whole names ("severe gastrointestinal disease, heart disease, hypertension").
  if (unique.length > 1) {
    const firstWords = text.slice(first.start, first.end).trim().split(/\s+/);
    const lastWords = text.slice(last.start, last.end).trim().split(/\s+/);
    if (firstWords.length !== 1 || lastWords.length < 2 || firstWords.includes(lastWords.at(-1)!)) return null;
  }
  const spine = unique.every((mention) => SPINE_CONCEPT.test(mention.concept.en) || SPINE_CONCEPT.test(mention.concept.id));
  const obesity = unique.length === 1 && /obes/i.test(unique[0].concept.en);
  // Candidate words: those the rule left, and those inside a concept's words that its name does not say ("lumbar fracture").
  // Only where the synonym's other words are the concept's own: "lumbar fusion" is a kind of spine surgery, which "spine
  // surgery in the lower back" would not say.
  const candidates = [...unread];
  for (const mention of same) {
    const name = mention.concept.en.toLowerCase();
    const words = [...text.slice(mention.start, mention.end).matchAll(/[a-z-]+/gi)].map((match) => ({ word: match[0].toLowerCase(), at: match.index }));
    const extra = words.filter(({ word }) => !name.includes(word) && !/^(?:of|the|in|at)$/.test(word));
    if (extra.some(({ word }) => !QUALIFIER.test(word) && !QUALIFIER_OF[word] && !GENERIC_SPINE_WORDS.has(word))) continue;
    for (const { word, at } of extra) candidates.push({ word, start: mention.start + at, end: mention.start + at + word.length });
  }
  const qualifiers: ConditionQualifier[] = [];
  /** Start -> end of each word held. */
  const consumed = new Map<number, number>();
  const near = (start: number, end: number) => {
    if (NOT_PLAIN_BEFORE.test(text.slice(Math.max(0, start - 16), start))) return false;
    // An unread word between the qualifier and the concept is what it qualifies ("acute trauma like osteoarthritis").
    const from = Math.min(end, first.start);
    const to = Math.max(start, last.end);
    if (
      unread.some(
        (word) => word.start >= from && word.end <= to && !(word.start >= start && word.end <= end) && !QUALIFIER_OF[word.word] && !SPINE_QUALIFIER[word.word],
      )
    )
      return false;
    // Inside one concept's words it qualifies that concept alone: held only when the rule has no other.
    const inMention = same.some((mention) => start >= mention.start && end <= mention.end);
    if (inMention) return unique.length === 1;
    if (unique.length > 1) return end <= first.start && first.start - end <= 25 && !/[,;.:\n]/.test(text.slice(end, first.start));
    const gap = end <= first.start ? text.slice(end, first.start) : start >= last.end ? text.slice(last.end, start) : '';
    // "Active infection or history of recurrent infections": a word after an "or" in its clause may qualify one alternative
    // only. The "or" of "active or history of clinically significant X" joins two times of one severity, not two
    // alternatives; a course word ("active current or history of recurrent infections") may still be the history's alone.
    const clauseBefore =
      text
        .slice(0, start)
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
  for (const { pattern, qualifier, obesityOnly } of QUALIFIER_PAIRS) {
    if (obesityOnly && !obesity) continue;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const words = candidates.filter((word) => word.start >= start && word.end <= end);
      if (!words.length || !near(start, end)) continue;
      add(qualifier, ...words);
    }
  }
  for (const word of candidates) {
    if (consumed.has(word.start)) continue;
    const qualifier = QUALIFIER_OF[word.word] ?? (spine ? SPINE_QUALIFIER[word.word] : undefined);
    if (qualifier && near(word.start, word.end)) add(qualifier, word);
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

const joinNames = (names: string[]) => {
  const unique = [...new Set(names)];
  return unique.length <= 1 ? unique[0] : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
};

// ---- the reader ----

export interface ReadOptions {
  /** The vocabulary, with the record's own MeSH terms; default: the product's. */
  vocabulary?: Vocabulary;
  /** Concept ids of the conditions the trial studies (the record's condition MeSH terms). */
  trialConditions?: Set<string>;
  /** The trial's conditions as concepts: what "symptoms" and "pain" without a named condition are about. */
  trialConcepts?: Concept[];
  /** The names of the trial's own medicines (its drug interventions): what an allergy "to finerenone" is to. */
  studyMedicines?: readonly string[];
}

/** The concepts the trial's own condition names ("Low Back Pain", "Lumbar Disc Herniation") are, each read whole. */
export function trialConceptsOf(names: readonly string[], vocab: Vocabulary = vocabulary()): Concept[] {
  const concepts: Concept[] = [];
  for (const name of names) {
    const text = name.trim();
    const found = vocab.find(text);
    // Only a name that is one concept: "Pain, Postoperative" or a list would be a guess.
    if (found.length !== 1 || found[0].start > 0 || found[0].end < text.replace(/[\s.]+$/, '').length) continue;
    if (found[0].concept.kind === 'condition' && !concepts.some((concept) => concept.id === found[0].concept.id)) concepts.push(found[0].concept);
  }
  return concepts;
}

/** The rule a criterion's text states, or none (a person reads it). */
export function readTextRule(kind: CriterionKind, text: string, options: ReadOptions = {}): TextRule {
  // Turkish dotted and dotless i ("İn The Last Month") read as i; one code unit each, so spans still fit the text.
  text = text.replace(/İ/g, 'I').replace(/ı/g, 'i');
  // The trial's own medicines are read by name only in an allergy: "hypersensitivity to finerenone" in its trial is an
  // allergy to the study medicine; elsewhere ("Arm A (HRO761) only:", "prior MRAs such as finerenone") a name says more
  // than that the person takes it (decision 108).
  const base = options.vocabulary ?? vocabulary();
  if (options.studyMedicines?.length && /\b(?:allerg|hypersensitiv|anaphyla)/i.test(text)) {
    // The names serve only as allergens: "prior exposure to sotatercept or hypersensitivity to its excipients" is read
    // as before, without them, when the allergy is not to the named medicine.
    const named = readTextRule(kind, text, { ...options, vocabulary: base.withStudyMedicines(options.studyMedicines), studyMedicines: undefined });
    if (JSON.stringify(named.rule ?? null).includes(`"${ALLERGY_PREFIX}${STUDY_MEDICINE_PREFIX}`)) return named;
  }
  const vocab = base;
  const measured =
    readPerformanceRule(kind, text) ?? readAsaRule(kind, text) ?? readLabRule(kind, text) ?? readPregnancyRule(kind, text) ?? readSmokingRule(kind, text);
  // A threshold that defines something else is not a current limit: "Blood pressure not well controlled (systolic
  // 150 mmHg or less ...)" defines control, which an exclusion's inverted bound would turn around; "renal crisis within
  // the past 12 months (eGFR < 45)" is the value of a past event, not today's. A person reads them.
  const limit = measured?.rule?.type === 'lab' ? measured.rule.span : undefined;
  if (limit) {
    const before = text.slice(0, limit.start);
    // "A change in body weight > 5 kg": a change, not the value. "Either HAQ-DI ≥ 0.25 or PtGA ≥ 3": in an inclusion,
    // one of two measures required would refuse those who meet the other.
    if (
      /\b(?:change|gain|loss|increase|decrease|reduction|drop|rise|fluctuation)s?\s+(?:in|of)\b/i.test(text.slice(Math.max(0, limit.start - 40), limit.end)) &&
      !/\b(?:change|gain|loss|increase|decrease|reduction|drop|rise|fluctuation)s?\s+(?:in|of)\b[^.;]*[.;]/i.test(
        text.slice(Math.max(0, limit.start - 40), limit.start),
      )
    )
      return { rule: null, needsReview: true };
    if (
      kind === 'inclusion' &&
      /\beither\b/i.test(before) &&
      /\bor\b[^.;]*(?:[<>≤≥=]|\b(?:at least|more than|less than|greater than)\b)/i.test(text.slice(limit.end))
    )
      return { rule: null, needsReview: true };
    const inParenthesis = before.lastIndexOf('(') > before.lastIndexOf(')');
    const defined = inParenthesis ? before.slice(0, before.lastIndexOf('(')) : '';
    if (
      (kind === 'exclusion' && /\bnot\s+(?:well\s+|adequately\s+|sufficiently\s+)?controlled\b/i.test(before)) ||
      (inParenthesis && /\b(?:history|prior|previous|past)\b/i.test(defined) && /\b(?:within|in)\s+(?:the\s+)?(?:last|past|previous|prior)\b/i.test(defined))
    )
      return { rule: null, needsReview: true };
  }
  // "Conditions that could preclude surgery in the investigator's opinion (e.g., smoking)": the judgement is the criterion.
  const judgement = measured?.rule?.span ? JUDGEMENT.exec(text) : null;
  if (judgement && measured?.rule?.span && judgement.index < measured.rule.span.start) return readJudgementRule(text, true)!;
  // "Difficulty distinguishing migraine from other headaches": telling conditions apart is the criterion, not having them.
  const distinguishing = /\b(?:distinguish\w*|tell(?:ing)?\b[^.;]{0,60}\bapart|tell(?:ing)?\s+the\s+difference)\b/i.test(text);
  // "Evidence of non-adherence to prescribed therapy": how well someone keeps to treatment is staff's judgement, not a
  // treatment taken or not (decision 110).
  const nonAdherence = kind === 'exclusion' && NON_ADHERENCE.test(text.slice(labelLength(text)));
  const read = readAgeRule(kind, text) ??
    measured ??
    (distinguishing || nonAdherence ? null : readConceptRule(kind, text, vocab, options.trialConditions, options.trialConcepts)) ??
    readJudgementRule(text, false, kind) ??
    readHealthyRule(kind, text) ??
    readSexRule(kind, text) ?? { rule: null, needsReview: true };
  // "Female patients aged 18-65", "Men with asthma": the rule does not hold the sex the criterion names (pregnancy and
  // contraception imply it; site checks are read by a person anyway).
  const sexImplied = ['sex', 'pregnancy', 'contraception', 'site_judgement'];
  if (read.rule && !read.needsReview && !sexImplied.includes(read.rule.type) && namesOneSex(text)) return { ...read, needsReview: true };
  return read;
}

const SEX_WORDS = /^(?:males?|females?|men|women|man|woman|boys?|girls?|genders?|sex(?:es)?)$/;
const SEX_LINK_WORDS = new Set(
  'both any all either and or & of are is be can patients participants subjects volunteers people persons individuals eligible included inclusion accepted welcome'.split(
    ' ',
  ),
);

/** "Male or female", "Any gender", "Both sexes", "Women": a criterion that says nothing but who may take part by sex. */
function readSexRule(kind: CriterionKind, text: string): TextRule | null {
  if (kind !== 'inclusion') return null;
  const words =
    text
      .replace(/^\s*\(?\d{1,2}[.)]\s*/, '')
      .toLowerCase()
      .match(/[a-z]+/g) ?? [];
  if (!words.length || !words.every((word) => SEX_WORDS.test(word) || SEX_LINK_WORDS.has(word)) || !words.some((word) => SEX_WORDS.test(word))) return null;
  const female = words.some((word) => /^(?:females?|women|woman|girls?)$/.test(word));
  const male = words.some((word) => /^(?:males?|men|man|boys?)$/.test(word));
  const anyOf = words.some((word) => /^(?:genders?|sex(?:es)?)$/.test(word));
  // "Gender" or "sex" alone names no sex: only "any/both/all/either gender" opens the trial to all.
  if (anyOf && !female && !male && !words.some((word) => /^(?:both|any|all|either)$/.test(word))) return null;
  const sex = (female && male) || anyOf ? 'all' : female ? 'female' : 'male';
  const first = text.search(/[a-z]/i);
  const last = text.search(/[a-z][^a-z]*$/i);
  return { rule: { type: 'sex', sex, span: spanOf([first, last + 1]) }, needsReview: false };
}

/** "Healthy volunteers", "healthy adult participants": healthy people are what the trial takes. */
function readHealthyRule(kind: CriterionKind, text: string): TextRule | null {
  const match =
    /\bhealthy\s+(?:adult\s+|male\s+|female\s+|japanese\s+)?(?:volunteers?|participants?|subjects?|individuals?|people|persons?|adults?|men|women|males?|females?)\b/i.exec(
      text,
    );
  if (!match || kind !== 'inclusion') return null;
  const span: Span = [match.index, match.index + match[0].length];
  // "Healthy controls aged 18-65": the numbers (an age range, a BMI) are more than this rule.
  return {
    rule: { type: 'healthy_volunteers', accepted: true, span: spanOf(span) },
    needsReview:
      leftoverNumbers(text, [span]) || !isPlain(text, [span], 1, new Set(['healthy', 'volunteers', 'volunteer', 'generally', 'good', 'general', 'health'])),
  };
}

/** The vocabulary for one record: the product's, plus the record's own MeSH terms. */
export function recordVocabulary(extra: MeshTerm[] = []): Vocabulary {
  return vocabulary().with(extra);
}

/** Splits the text and reads each item's rule: the eligibility part of a draft trial. */
export function parseCriteria(eligibilityText: string, options: ReadOptions = {}): DraftCriterion[] {
  const items = splitCriteria(eligibilityText);
  const reads = readWithAlternatives(items, options);
  return items.map((item: SplitCriterion, index) => {
    const { rule, needsReview, anyOne } = reads[index];
    // One of several alternatives is not required by itself: a person checks which one the candidate meets, unless
    // the whole list was read as one rule of alternatives.
    return {
      kind: item.kind,
      text: item.text,
      rule,
      ruleSource: rule ? 'text' : null,
      needsReview: needsReview || (Boolean(item.alternative) && !anyOne),
      population: item.population ?? null,
    };
  });
}

/** "At least one of the following conditions: ", "Any of the following: " (never "at least two of"). */
const ANY_ONE_LEAD =
  /^((?:[^:\n]*?:\s+)?[^:\n]*?\b(?:(?:one|any|either)\s+(?:\(1\)\s+)?of|at least one(?:\s+\(1\))?(?:\s+of)?|one or more of)\b[^:\n]*):\s+(?=\S)/i;

/**
 * Reads criteria in their order, the items of an inclusion list that one of is enough for together: "At least one of
 * the following conditions: type 2 diabetes", "...: hypertension", "...: chronic kidney disease" (consecutive items
 * with the same "any one of" lead-in, as the structure writes them) are one rule of alternatives, "must have type 2
 * diabetes, high blood pressure or kidney disease", which each item carries, so having any one meets all of them
 * (decision 083). Only when every item, read without its lead-in, is a rule that needs no review and wants a
 * concept (a condition the person has, or a medicine they take), all of one kind and time scope, with no qualifier or
 * duration (those belong to one item; a rule of alternatives would put them on all). Otherwise each item is read alone.
 * The import and the re-parse both read this way, so a re-parse finds the same rules.
 */
export function readWithAlternatives(
  items: ReadonlyArray<{ kind: CriterionKind; text: string }>,
  options: ReadOptions = {},
): Array<TextRule & { anyOne?: boolean }> {
  const reads: Array<TextRule & { anyOne?: boolean }> = items.map((item) => readTextRule(item.kind, item.text, options));
  const lead = (index: number) =>
    items[index].kind === 'inclusion' && !/\n/.test(items[index].text) ? (ANY_ONE_LEAD.exec(items[index].text)?.[1] ?? null) : null;
  for (let start = 0; start < items.length; ) {
    const key = lead(start);
    let end = start + 1;
    while (key && end < items.length && lead(end) === key) end++;
    if (key && !/\bat least (?:two|three|[2-9])\b/i.test(key) && end - start >= 2) {
      const members = Array.from({ length: end - start }, (_, offset) => start + offset);
      const merged = anyOneRule(
        members.map((index) => items[index].text),
        options,
      );
      if (merged)
        members.forEach((index, position) => {
          reads[index] = { ...merged[position], anyOne: true };
        });
    }
    start = end;
  }
  return reads;
}

/** The words that say one alternative is enough, which the rule of alternatives says; the rest of a lead-in is read. */
const ANY_ONE_WORDS =
  /\b(?:(?:(?:at least|any)\s+)?one(?:\s+\(1\))?(?:\s+or\s+more)?|any|either)\s+of\s+(?:the\s+)?following(?:\s+(?:conditions?|criteria|diagnos[ie]s|diseases?|medical\s+conditions?))?(?=\s*:|\s+(?:in|within|during|over)\b)/i;

function anyOneRule(members: string[], options: ReadOptions): TextRule[] | null {
  // Blanked, not cut, so each rule's span still points into its own criterion's text.
  const rules = members.map((text) =>
    readTextRule(
      'inclusion',
      text.replace(ANY_ONE_WORDS, (words) => ' '.repeat(words.length)),
      options,
    ),
  );
  if (rules.some((read) => !read.rule || read.needsReview)) return null;
  const first = rules[0].rule!;
  const scope = (rule: CriterionRule) =>
    rule.type === 'condition' && rule.present && !rule.duration && !rule.qualifiers?.length
      ? JSON.stringify([rule.history ?? false, rule.within ?? null])
      : rule.type === 'medication' && rule.taking && !rule.medication.startsWith('medicines for ')
        ? JSON.stringify([rule.history ?? false, rule.within ?? null])
        : null;
  if (scope(first) === null || rules.some(({ rule }) => rule!.type !== first.type || scope(rule!) !== scope(first))) return null;
  const conceptsOf = (rule: CriterionRule) => (rule.type === 'condition' || rule.type === 'medication' ? (rule.concepts ?? []) : []);
  // Without concepts for every item, names are all a matcher could go by: a person reads the items.
  if (rules.some(({ rule }) => !conceptsOf(rule!).length)) return null;
  const concepts: ConceptRef[] = [];
  for (const { rule } of rules) for (const concept of conceptsOf(rule!)) if (!concepts.some((seen) => seen.id === concept.id)) concepts.push(concept);
  const name = joinNames(rules.map(({ rule }) => (rule!.type === 'condition' ? rule!.condition : rule!.type === 'medication' ? rule!.medication : '')));
  return rules.map((read) => {
    const own = read.rule!;
    const rule: CriterionRule =
      own.type === 'condition' ? { ...own, condition: name, concepts } : own.type === 'medication' ? { ...own, medication: name, concepts } : own;
    return { ...read, rule, needsReview: false };
  });
}
