import type { CriterionKind, CriterionRule } from '../../../../contract/trials';
import { canonical, implausible, type Measure, MEASURES, UNIT } from './measures';
import { DEFINED_BY_BEFORE } from './lab-labels';
import { painSiteOf } from './pain-sites';
import { sameValueAfter } from './restated-bounds';
import {
  COMPARATOR,
  type Comparator,
  comparatorOf,
  INVERSE,
  initialsStart,
  leftoverNumbers,
  leftoverWords,
  NEAR_NEGATION,
  NUMBER,
  plainReasons,
  reviewed,
  type Span,
  spanOf,
  type TextRule,
  toNumber,
  WORD_COMPARATOR,
} from './text';

/**
 * Lab values, vitals and scores: "eGFR < 45 mL/min/1.73 m2", "ALT > 3 x ULN", "BMI 18.5-35", "ECOG 0-1", "ASA I-III".
 */

// "2 times normal", "3 x the normal range" (decision 310): a multiple of "normal" is a multiple of its upper limit; only
// with the multiple's word, so "ALT < 3 times the normal" is never 3 U/L.
const TIMES_NORMAL = String.raw`\s*(?:x|×|-?\s*times|-fold|fold)\s*(?:the\s+)?(?:(?:institutional|local|laboratory|site)\s+)?normal(?:\s+(?:range|limits?|values?|levels?))?(?![\w-])`;
// Where the limit is set, and the limit itself named as upper or lower ("upper limit of normal", "IULN", "lower normal
// limit"), shared by a multiple of it (`ULN`) and a bound at it (`LIMIT`).
const LIMIT_SETTER = String.raw`(?:(?:institutional|institution's|local|laboratory|site)\s+)?`;
// "Upper reference limit", "upper limit of the reference range" (decision 367): the laboratory's reference range is its normal range.
const LIMIT_WORDS = String.raw`(?:(?:upper|lower)\s+limits?\s+of\s+(?:the\s+)?(?:(?:institutional|local|laboratory)\s+)?(?:normal|reference)(?:\s+range)?|(?:upper|lower)\s+(?:normal|reference)\s+limits?|i?uln|i?lln)(?:\s*\((?:i?uln|i?lln)\))?`;
// "x ULN", "times the institutional upper limit of normal", "x the upper limit of institutional normal", "x upper normal
// limit", "x IULN", "x local ULN" (decision 243): every way of writing a multiple of the normal range's limit.
const ULN = String.raw`(?:${TIMES_NORMAL}|\s*(?:x|×|\*|-?\s*times|-fold|fold)?\s*(?:the\s+)?${LIMIT_SETTER}${LIMIT_WORDS})`;

const GAP = String.raw`^[^<>≤≥≦≧=\d;]{0,45}?`;

// "ALT > ULN", "creatinine above the upper limit of normal", "potassium below normal limits": a bound at the limit of the
// normal range itself, with no multiple written (decision 310). Group 1 a limit named as upper or lower, group 2 the
// normal range's limits named without a side (the comparison gives it).
const LIMIT = String.raw`\s*(?:the\s+)?${LIMIT_SETTER}(?:(${LIMIT_WORDS})|(normal\s+(?:limits?|range|values?)))(?![\w-])`;

/**
 * "Bilirubin within normal institutional limits", "creatinine within the normal range", "ALT WNL": inside the normal range,
 * read only for a measure whose low values refuse no one (decision 321).
 */
const WITHIN_NORMAL = new RegExp(
  String.raw`^[^<>≤≥≦≧=\d;]{0,20}?\b(?:(?:(?:is|are|must\s+be|should\s+be)\s+)?(?:within|in)\s+(?:the\s+)?${LIMIT_SETTER}normal\s+(?:(?:institutional|laboratory|reference)\s+)?(?:limits?|range|values?)|wnl)\b`,
  'i',
);

/** A measure's ways of writing a bound after its name; `unit` is a unit's pattern (one capture group) where one may stand, `lastUnit` after the last number. */
export function labPatterns(measure: Measure, unit = UNIT, lastUnit = UNIT) {
  return {
    uln: new RegExp(String.raw`${GAP}(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}${ULN}`, 'i'),
    limit: new RegExp(String.raw`${GAP}(?:${COMPARATOR}|\b${WORD_COMPARATOR})${LIMIT}`, 'i'),
    between: new RegExp(String.raw`${GAP}\b(?:between|from)\s*${NUMBER}${unit}\s*(?:and|to|-|–)\s*${NUMBER}${lastUnit}`, 'i'),
    twoBounds: new RegExp(
      String.raw`${GAP}${COMPARATOR}\s*${NUMBER}${unit}\s*(?:and|,|but|&)\s*(?:${measure.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\s*)?${COMPARATOR}\s*${NUMBER}${lastUnit}`,
      'i',
    ),
    compare: new RegExp(String.raw`${GAP}${COMPARATOR}\s*${NUMBER}${lastUnit}`, 'i'),
    wordCompare: new RegExp(String.raw`${GAP}\b${WORD_COMPARATOR}\s*${NUMBER}${lastUnit}`, 'i'),
    dash: new RegExp(String.raw`${GAP}(?<![\d.])${NUMBER}\s*(?:-|–|to)\s*${NUMBER}${lastUnit}`, 'i'),
    // "BMI of 30.0 kg/m2 or more", "a body weight of 40.0 kg or over".
    trailing: new RegExp(String.raw`${GAP}(?<![\d.])${NUMBER}${lastUnit}\s*or\s*(more|greater|higher|above|over|less|lower|below|fewer|under)\b`, 'i'),
  };
}
export type LabPatterns = ReturnType<typeof labPatterns>;

const LAB_PATTERNS = new Map(MEASURES.map((measure) => [measure.name, labPatterns(measure)]));

/** A further bound with its unit ("≥ 27.0 kg/m²"): an alternative threshold of the measure a lab rule read. */
const ALTERNATIVE_BOUND = new RegExp(String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}${UNIT}`, 'gi');

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6 };

const ASA_CLASS = String.raw`(vi|iv|v|i{1,3}|[1-6])(?![\w.,]|\s*(?:mg|%))`;

const ASA_ROMAN = new RegExp(
  String.raw`\b(?:asa|american society of ana?esthesiologists?)(?:\s+(?:physical status|class(?:ification)?|score|ps|grade))?\s*[-:]?\s*(?:class\s+)?${ASA_CLASS}(?:\s*(-|–|to|and|&|/|or|through)\s*${ASA_CLASS})?(?:\s*(?:or|and)\s*(lower|less|below|higher|greater|above|more))?`,
  'i',
);

/** "ASA class I-III", "ASA 1 and 2 classification", "ASA IV or higher": the anaesthetic risk class, a staff-side value. */
export function readAsaRule(kind: CriterionKind, text: string): TextRule | null {
  const match = ASA_ROMAN.exec(text);
  if (!match) return null;
  // A bare Arabic digit needs a class word or a second class ("ASA 1-2"); alone it may be an aspirin dose or count.
  if (/^\d$/.test(match[1]) && !match[3] && !/class|status|score|grade|ps/i.test(match[0])) return null;
  const first = ROMAN[match[1].toLowerCase()] ?? Number(match[1]);
  const second = match[3] ? (ROMAN[match[3].toLowerCase()] ?? Number(match[3])) : null;
  const direction = match[4]?.toLowerCase();
  // "ASA I & II" lists two classes; "I or III" skips one, which no range says.
  if (second !== null && /and|&|\/|or/i.test(match[2]) && second - first > 1) return { rule: null, needsReview: true };
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
  const plain = plainReasons(text, [span], 0, new Set(['class', 'classification', 'physical', 'status', 'grade', 'score', 'asa']));
  if (second !== null) {
    if (second < first) return { rule: null, needsReview: true };
    // "ASA I-III" in an inclusion; an excluded range is two rules, which a person writes.
    if (kind === 'exclusion') return { rule: null, needsReview: true };
    return reviewed(rule('between', first, second), plain);
  }
  if (direction) {
    const upward = /higher|greater|above|more/.test(direction);
    if (kind === 'inclusion') return reviewed(rule(upward ? '>=' : '<=', first), plain);
    return reviewed(rule(upward ? '<' : '>', first), plain);
  }
  // "ASA IV patients" excluded: whether V is excluded too is not said, so a person checks.
  return kind === 'inclusion' ? reviewed(rule('=', first), plain) : reviewed(rule('<', first), ['excludedClassAlone']);
}

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

/**
 * Units written in words: "milligrams per deciliter", "kilograms per square meter (kg/m²)", "micromoles per litre". Each
 * becomes its symbol, padded with spaces to the same length so every span still fits the criterion's own text; a
 * parenthesis right after that gives only the same symbol goes with it (decision 180). Without this, "133 micromoles per
 * litre" would be read in the measure's default unit.
 */
const UNITS_IN_WORDS: Array<[RegExp, string]> = [
  [
    /\bmilli-?\s?lit(?:er|re)s?\s*(?:per|\/)\s*min(?:ute)?s?\s*(?:per|\/)\s*1[.,]73\s*(?:square\s+met(?:er|re)s?|met(?:er|re)s?\s*(?:squared?|2|²|\^2)|m\s*(?:2|²|\^2))/gi,
    'mL/min/1.73m2',
  ],
  [/\bmilli-?\s?lit(?:er|re)s?\s*(?:per|\/)\s*min(?:ute)?s?\b/gi, 'mL/min'],
  [/\bkilo-?\s?grams?\s*(?:per|\/)\s*(?:square\s+met(?:er|re)s?|met(?:er|re)s?\s*(?:squared?|2|²|\^2))/gi, 'kg/m2'],
  [/\bmilli-?\s?grams?\s*(?:per|\/)\s*deci-?\s?lit(?:er|re)s?\b/gi, 'mg/dL'],
  [/\bmilli-?\s?grams?\s*(?:per|\/)\s*lit(?:er|re)s?\b/gi, 'mg/L'],
  [/\bgrams?\s*(?:per|\/)\s*deci-?\s?lit(?:er|re)s?\b/gi, 'g/dL'],
  [/\bgrams?\s*(?:per|\/)\s*lit(?:er|re)s?\b/gi, 'g/L'],
  [/\bmicro-?\s?mol(?:es?)?\s*(?:per|\/)\s*lit(?:er|re)s?\b/gi, 'µmol/L'],
  [/\bmilli-?\s?mol(?:es?)?\s*(?:per|\/)\s*lit(?:er|re)s?\b/gi, 'mmol/L'],
  [/\bmilli-?\s?mol(?:es?)?\s*(?:per|\/)\s*mol(?:es?)?\b/gi, 'mmol/mol'],
  [/\bmilli-?\s?met(?:er|re)s?\s+of\s+mercury\b/gi, 'mmHg'],
  [/\bmilli-?\s?seconds?\b/gi, 'ms'],
  // "100,000 per mm3", "1500 per microliter", "50 percent": counts and fractions in words (decision 243).
  [/\bper\s+(?:cubic\s+(?:mm|millimet(?:er|re)s?)|mm\s*(?:3|³|\^\s*3)|millimet(?:er|re)s?\s+cubed)(?![a-z\d])/gi, '/mm3'],
  [/\bper\s+(?:micro-?\s?lit(?:er|re)|µl|ul|mcl)(?![a-z])/gi, '/µL'],
  [/\bper\s?cent\b/gi, '%'],
];
const unitKey = (unit: string) => unit.toLowerCase().replace(/[\s^]/g, '').replace(/²/g, '2').replace(/μ|µ/g, 'u').replace(',', '.');

export function unitsInWords(text: string): string {
  if (!/\b(?:milli|micro|kilo|grams?\b|deci|per\s?cent\b|per\s+(?:cubic|mm|µl|ul|mcl))/i.test(text)) return text;
  let read = text;
  for (const [words, symbol] of UNITS_IN_WORDS)
    read = read.replace(new RegExp(String.raw`${words.source}(\s*\(\s*[^()]{1,24}?\s*\))?`, 'gi'), (match: string, parenthesis?: string) => {
      const unit = parenthesis ? match.slice(0, match.length - parenthesis.length) : match;
      const restated = parenthesis && unitKey(parenthesis.replace(/[()]/g, '')) === unitKey(symbol);
      return restated ? symbol.padEnd(match.length, ' ') : symbol.padEnd(unit.length, ' ') + (parenthesis ?? '');
    });
  return read.length === text.length ? read : text;
}

/**
 * Lab values and vitals: "BMI between 18.5 and 35 kg/m2", "eGFR < 45 mL/min/1.73 m2", "ALT > 3 x ULN", "BMI ≥ 18.5 and ≤ 32".
 * The lab rule of a criterion; units written in words are read as their symbols, and the rule's span covers the words.
 */
export function readLabRule(kind: CriterionKind, text: string): TextRule | null {
  return withUnitSymbols(text, (symbols) => readLabRuleOf(kind, symbols));
}

/** A reading of the text with its units in words as symbols (`unitsInWords`), the rule's span reaching over the words. */
export function withUnitSymbols(text: string, readSymbols: (symbols: string) => TextRule | null): TextRule | null {
  const symbols = unitsInWords(text);
  const read = readSymbols(symbols);
  const span = read?.rule?.span;
  if (read?.rule && span && symbols !== text) {
    // The span ends on the symbol; it reaches over the rest of the words the symbol stands for (spaces in `symbols`).
    let end = span.end;
    while (end < symbols.length && symbols[end] === ' ') end++;
    read.rule.span = { start: span.start, end: text.slice(0, end).trimEnd().length };
  }
  return read;
}

function readLabRuleOf(kind: CriterionKind, text: string): TextRule | null {
  for (const measure of MEASURES) {
    const name = measure.pattern.exec(text);
    if (!name) continue;
    const read = readMeasureBound(kind, text, measure, name, LAB_PATTERNS.get(measure.name)!);
    if (measure.name === 'pain score' && (!read?.rule || read.reasons?.includes('boundBeforeMeasure'))) {
      const sited = sitedPainBound(kind, text, measure);
      if (sited?.rule) return sited;
    }
    if (read) return read;
  }
  return null;
}

/**
 * "Low back pain between 40 and 80 on a 100 mm VAS", "leg pain rated at least 6 on the NRS": with a pain scale named,
 * the one region's pain is the measure's name and its bound follows it (decision 350).
 */
function sitedPainBound(kind: CriterionKind, text: string, measure: Measure): TextRule | null {
  const site = painSiteOf(text);
  if (!site || site.spans.length !== 1) return null;
  const [start, end] = site.spans[0];
  const name = new RegExp(`[^]{${end - start}}`, 'y');
  name.lastIndex = start;
  const found = name.exec(text);
  const read = found ? readMeasureBound(kind, text, measure, found, LAB_PATTERNS.get(measure.name)!) : null;
  // "Leg pain of at least 4 weeks": a time after the region's pain is how long it lasted, not its score.
  const readTo = read?.rule?.span?.end;
  return readTo !== undefined && /^\s*(?:hours?|days?|weeks?|months?|years?)\b/i.test(text.slice(readTo)) ? null : read;
}

/** A number of hours, days, weeks, months or years: how long, never a score. */
const DURATION_WORDS = /\b\d+(?:[.,]\d+)?\s*(?:(?:-|to)\s*\d+\s*)?(?:hours?|days?|weeks?|months?|years?)\b/gi;

/** The bound written after a measure's name (`name`, matched in `text`), by the measure's `patterns`; null when none is. */
export function readMeasureBound(kind: CriterionKind, text: string, measure: Measure, name: RegExpExecArray, patterns: LabPatterns): TextRule | null {
  const offset = name.index + name[0].length;
  const after = text.slice(offset);
  // Each pattern is tried only when the branches before it did not read the bound (the patterns are not global: the
  // same answers as trying them all). Two bounds begin with one comparison: none when no comparison is found.
  const uln = patterns.uln.exec(after);
  const compare = patterns.compare.exec(after);
  const ulnFirst = uln && (!compare || uln.index <= compare.index);
  const between = ulnFirst ? null : patterns.between.exec(after);
  const twoBounds = ulnFirst || between || !compare ? null : patterns.twoBounds.exec(after);
  const wordCompare = ulnFirst || between || twoBounds ? null : patterns.wordCompare.exec(after);
  const trailing = ulnFirst || between || twoBounds || compare || wordCompare ? null : patterns.trailing.exec(after);
  const dash = ulnFirst || between || twoBounds || compare || wordCompare || trailing ? null : patterns.dash.exec(after);
  const limit = uln || between || twoBounds || compare || wordCompare || trailing || dash ? null : patterns.limit.exec(after);
  const within = uln || between || twoBounds || compare || wordCompare || trailing || dash || limit ? null : WITHIN_NORMAL.exec(after);
  const at = (match: RegExpExecArray): Span => [offset + match.index, offset + match.index + match[0].length];
  let rule: Extract<CriterionRule, { type: 'lab' }> | null = null;
  let span: Span | null = null;

  if (uln && ulnFirst) {
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
      if (!(['>', '>='].includes(first) && ['<', '<='].includes(second)) && !(['<', '<='].includes(first) && ['>', '>='].includes(second))) return null;
      [low, high] = ['>', '>='].includes(first) ? [a, b] : [b, a];
      unit = twoBounds![6] ?? twoBounds![3];
      span = at(twoBounds!);
    }
    if (low >= high) return null;
    if (kind === 'exclusion') return { rule: null, needsReview: true };
    rule = rangeRule(measure, low, high, unit);
  } else if (compare || wordCompare) {
    const found = compare && (!wordCompare || compare.index <= wordCompare.index) ? compare : wordCompare!;
    rule = oneBound(measure, kind, comparatorOf(found[1]), found[2], found[3]);
    if (!rule) return { rule: null, needsReview: true };
    span = at(found);
  } else if (trailing) {
    const comparator: Comparator = /^(?:more|greater|higher|above|over)$/i.test(trailing[3]) ? '>=' : '<=';
    rule = oneBound(measure, kind, comparator, trailing[1], trailing[2]);
    if (!rule) return { rule: null, needsReview: true };
    span = at(trailing);
  } else if (dash) {
    const [low, high] = [toNumber(dash[1]), toNumber(dash[2])];
    if (low >= high) return null;
    if (kind === 'exclusion') return { rule: null, needsReview: true };
    rule = rangeRule(measure, low, high, dash[3]);
    span = at(dash);
  } else if (limit) {
    rule = limitRule(kind, measure, limit);
    if (!rule) return { rule: null, needsReview: true };
    span = at(limit);
  } else if (within) {
    // Never "taking bilirubin": a measure inside its normal range is a lab rule, or a person's to read.
    if (kind !== 'inclusion' || !measure.highSideOnly) return { rule: null, needsReview: true };
    rule = { type: 'lab', measure: measure.name, comparator: '<=', value: 1, relativeTo: 'ULN' };
    span = at(within);
  }
  if (!rule || !span) return boundBefore(kind, measure, text, name);
  return labReview(kind, text, measure, rule, name, span);
}

/**
 * A bound at a limit of the normal range itself (`limit` of `labPatterns`), as 1 x that limit: "ALT > ULN" is "ALT > 1 x
 * ULN", and the matcher's span of laboratories' limits decides it as it does any multiple (decision 251). The normal
 * range's limits named without a side take it from the comparison: above them, or not exceeding them, is the upper limit
 * ("above normal limits", "not exceeding the normal range"); below them, or at least them, the lower. Null for "=".
 */
function limitRule(kind: CriterionKind, measure: Measure, limit: RegExpExecArray): Extract<CriterionRule, { type: 'lab' }> | null {
  const written = comparatorOf(limit[1] ?? limit[2]);
  const required = kind === 'exclusion' ? INVERSE[written] : written;
  if (!required || written === '=') return null;
  const named = limit[3]?.toLowerCase();
  const lower = named ? /^(?:lower|i?lln)/.test(named) : written === '<' || written === '>=';
  return { type: 'lab', measure: measure.name, comparator: required, value: 1, relativeTo: lower ? 'LLN' : 'ULN' };
}

/** "Minimum VAS of 20/100", "maximum BMI: 35": the bound's word before the measure, its value after. */
const MIN_MAX_BEFORE = /\b(minimum|maximum|min|max)\.?\s+$/i;
const VALUE_AFTER = new RegExp(String.raw`^\s*(?:score\s*)?(?:of|:|=)?\s*${NUMBER}${UNIT}`, 'i');
/** "Pain more than 5 on NPRS", "at least 40 points on the ODI": the bound and value before the scale that measures them. */
const BOUND_BEFORE = new RegExp(
  String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}${UNIT}\s*(?:points?\s+)?(?:on|in|by|using|per|according to|as measured (?:by|on|with))\s+(?:the\s+|a\s+)?$`,
  'i',
);

/**
 * A bound written before the measure's name or with "minimum"/"maximum": the same rule as written after it. A value
 * before the name is always reviewed (what else the words before it say is not read); "minimum X of N" is read as usual.
 */
function boundBefore(kind: CriterionKind, measure: Measure, text: string, name: RegExpExecArray): TextRule | null {
  const offset = name.index + name[0].length;
  const head = text.slice(0, name.index);
  const minMax = MIN_MAX_BEFORE.exec(head);
  const value = minMax ? VALUE_AFTER.exec(text.slice(offset)) : null;
  if (minMax && value) {
    const required = kind === 'exclusion' ? INVERSE[/^min/i.test(minMax[1]) ? '>=' : '<='] : /^min/i.test(minMax[1]) ? '>=' : '<=';
    if (!required) return null;
    const read = canonical(measure, toNumber(value[1]), value[2]);
    const rule: Extract<CriterionRule, { type: 'lab' }> = {
      type: 'lab',
      measure: measure.name,
      comparator: required,
      value: read.value,
      ...(read.unit ? { unit: read.unit } : {}),
    };
    return labReview(kind, text, measure, rule, name, [offset, offset + value[0].length]);
  }
  const bound = BOUND_BEFORE.exec(head);
  if (!bound) return null;
  const written = comparatorOf(bound[1] ?? bound[2]);
  const required = kind === 'exclusion' ? INVERSE[written] : written;
  if (!required) return null;
  const read = canonical(measure, toNumber(bound[3]), bound[4]);
  if (RELATIVE_TO_REFERENCE.test(text)) return { rule: null, needsReview: true };
  const rule: CriterionRule = {
    type: 'lab',
    measure: measure.name,
    comparator: required,
    value: read.value,
    ...(read.unit ? { unit: read.unit } : {}),
    span: spanOf([bound.index, offset]),
  };
  return reviewed(rule, ['boundBeforeMeasure']);
}

/** Words of a lab criterion that say no more than its rule: the sample, the lab, the formula, the normal range's name. */
const LAB_WORDS = [
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
  // "Estimated by Cockroft-Gault", "as determined by the calculation": how a value is reached, not another value (decision 264).
  'cockroft',
  'estimated',
  'determined',
  'calculation',
  'computed',
  'resting',
  'measurement',
];
/** A pain scale's own words: the rule, when nothing else is written. */
const PAIN_SCALE_WORDS = new Set([
  'pain',
  'score',
  'scale',
  'on',
  'a',
  '100mm',
  'mm',
  '/100',
  '/100mm',
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
  'rated',
  'scored',
]);

/** The words of a limit of the normal range: "ULN", "upper limit of normal", "upper normal limit", "times normal". */
export const NORMAL_RANGE_WORDS =
  /\b(?:i?uln|i?lln|(?:upper|lower)\s+(?:limits?|normal)|normal\s+(?:limits?|range|values?)|(?:x|×|times)\s+(?:the\s+)?normal|within\s+normal)\b|×\s*normal/i;

/** A unit's shape ("ng/mL", "mcg / L", "IU/ml", "units"): letters over letters, or a unit word, right after a bound. */
const UNREAD_UNIT = /^\s*(?:(?!and\s*\/\s*or\b)[a-zµμ]{1,6}\s*\/\s*[a-zµμ]|(?:units?|iu|mcg|µg|μg|ng|pg|mmol|nmol|pmol)\b)/i;

/** A bound in standard deviations, percentiles or z-scores, or against a mean or median: a reference population's. */
const RELATIVE_TO_REFERENCE =
  /\b(?:s\.?d\.?s?|standard\s+deviations?|percentiles?|centiles?|z[- ]?scores?|(?:\d+(?:st|nd|rd|th)\s+)?(?:percentile|centile))\b|\b(?:below|above|under|over)\s+(?:the\s+)?(?:mean|median|average|normal\s+for\s+age)\b/i;

/** Whether a lab rule read at `span` (its measure named at `name`) says all its criterion says, or a person checks it. */
function labReview(
  kind: CriterionKind,
  text: string,
  measure: Measure,
  rule: Extract<CriterionRule, { type: 'lab' }>,
  name: RegExpExecArray,
  span: Span,
): TextRule {
  const offset = name.index + name[0].length;
  const nameSpan: Span = [name.index, offset];
  // "Height more than 2 SD below the mean for age", "weight under the 5th percentile": relative to a reference
  // population, never an absolute value in the measure's unit.
  if (RELATIVE_TO_REFERENCE.test(text.slice(span[0], span[1] + 60))) return { rule: null, needsReview: true };
  // "Psoriasis Area and Severity Index (PASI) score ≥ 12": the scale's name in full is the rule's too.
  const spelled = spelledOutName(text, nameSpan);
  const whole: Span = [spelled?.start ?? nameSpan[0], sameValueAfter(measure, rule, text, span[1])];
  rule.span = spanOf(whole);
  const extra = new Set([...LAB_WORDS, ...(spelled?.words ?? [])]);
  const when = measuredBeforeStart(text);
  const unsure = !rule.unit && !rule.relativeTo && !measure.unitless;
  // "ALT ≤ 3 x the ULN of the site's laboratory": a limit of the normal range the bound did not take as its own is never
  // an absolute value in the measure's unit; a person reads it (decision 243).
  const normalRangeUnread = !rule.relativeTo && NORMAL_RANGE_WORDS.test(text);
  // "Creatinine <= 2 ng/mL": a unit right after the bound that the bound did not take is not the measure's own, which
  // the rule would otherwise take for it; a person reads it.
  const unitUnread = UNREAD_UNIT.test(text.slice(whole[1]));
  if (measure.name === 'pain score') {
    // The scale's own words are the rule; any other word (how it was averaged) is more than it. Where the pain is, when
    // one region is named, is the rule's measure ("leg pain score", decision 350).
    // The words between the scale's name and its value ("VAS leg pain of at least 4") are not the rule's.
    const site = painSiteOf(text);
    if (site) {
      rule.measure = site.measure;
      // "Back pain VAS >= 4": the rule holds the sited pain written before the scale's name too.
      rule.span = spanOf([Math.min(whole[0], ...site.spans.map(([start]) => start)), Math.max(whole[1], ...site.spans.map(([, end]) => end))]);
    }
    const words = site ? new Set([...PAIN_SCALE_WORDS, ...site.words]) : PAIN_SCALE_WORDS;
    const value = new RegExp(String.raw`${COMPARATOR}|\d|\b(?:between|from)\b|\b${WORD_COMPARATOR}`, 'i').exec(text.slice(span[0], span[1]));
    const read: Span[] = [nameSpan, [span[0] + (value?.index ?? 0), span[1]]];
    // "Leg pain for at least 6 weeks, VAS >= 4": how long the pain has lasted is more than the score.
    const lasted = [...text.matchAll(DURATION_WORDS)].some((match) => !read.some(([start, end]) => match.index >= start && match.index < end));
    return reviewed(rule, [unsure && 'noUnit', lasted && 'duration', ...plainReasons(text, read, 0, words)]);
  }
  // "BMI from 18.5 to less than 25.0 and a body weight of 40 kg or over": another measure or a number the rule
  // did not take is more than the rule ("BMI" and "kg" are filler words, so the words alone would not tell).
  const label = DEFINED_BY_BEFORE.get(measure.name)?.exec(text.slice(0, name.index));
  // The label is read with its threshold ("proteinuria (UPCR ≥ 3.5 g/g)" names no second measure).
  const labelStart = label ? label.index + label[0].indexOf(label[1]) : whole[0];
  const rest = text.slice(0, labelStart) + ' '.repeat(whole[1] - labelStart) + text.slice(whole[1]);
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
  // "Liver enzymes (AST or ALT)": the name of the pair the parenthesis names (decision 278).
  if (measure.name === 'ALT/AST' && /\bliver\s+enzymes?\s*\(\s*(?:ast|alt|sgot|sgpt)\b/i.test(text))
    for (const word of ['liver', 'enzyme', 'enzymes']) extra.add(word);
  // "During the screening period": when a value is measured, as "at screening" says.
  if (/\bduring\s+(?:the\s+)?screening(?:\s+period)?\b/i.test(text)) for (const word of ['during', 'period']) extra.add(word);
  for (const word of label?.[1].toLowerCase().split(/[\s-]+/) ?? []) extra.add(word);

  // The label is read with its threshold, so its words are the rule's too (highlighted, and no concept left unread).
  if (label) rule.span = spanOf([labelStart, whole[1]]);
  // "Diabetes or HbA1c > 8%", "thrombocytopenia (platelets < 100) or neutropenia": a word joined to the rule by "or" is
  // an alternative the rule does not hold, however few words it takes; with a label read, nothing else may be left.
  const alternative = leftoverWords(text, [whole], extra).some(
    ({ start, end }) =>
      /^\s*\)?\s*(?:or|and\/or)\b/i.test(text.slice(end, end + 12)) || /\b(?:or|and\/or)\s*\(?\s*$/i.test(text.slice(Math.max(0, start - 10), start)),
  );
  return reviewed(rule, [
    unsure && 'noUnit',
    normalRangeUnread && 'normalRangeUnread',
    unitUnread && 'unitUnread',
    // A bound no person has in the rule's unit was written in another one (decision 315).
    implausible(measure, Math.max(rule.value, rule.upperValue ?? 0), rule.unit) && 'implausible',
    another && 'anotherMeasure',
    alternative && 'alternative',
    // "Hgb ≥ 9 g/dL (may be transfused)": a value reached by transfusion meets it; the rule alone would refuse.
    /\btransfus/i.test(text.slice(whole[1])) && 'transfusion',
    // "Subjects must have a creatinine clearance of at least 60" under exclusions: a requirement, which the inverted
    // bound would refuse; which way it counts is a person's.
    kind === 'exclusion' && REQUIRED_BEFORE.test(text.slice(0, name.index)) && 'requirementInExclusion',
    // "Does not have uncontrolled diabetes (fasting glucose > 200 mg/dL)": a negated label turns its threshold around,
    // which this reading does not; a person reads it.
    label && NEAR_NEGATION.test(text.slice(0, labelStart)) && 'negatedLabel',
    // A label's own number ("type 2 diabetes") is the label's, read with it.
    leftoverNumbers(text, [label ? [labelStart, whole[1]] : whole, ...when]) && 'numbers',
    ...plainReasons(text, [whole, ...when], label ? 0 : 1, extra),
  ]);
}

/**
 * "Psoriasis Area and Severity Index (PASI)", "Eczema Area and Severity Index (EASI) score": a scale written out in full
 * before its short form in brackets, whose letters the words spell (decision 364). The words are the measure's name.
 */
function spelledOutName(text: string, [start]: Span): { start: number; words: string[] } | null {
  const open = text.lastIndexOf('(', start);
  const short = /^([a-z][a-z0-9-]{1,7})\s*\)/i.exec(text.slice(start));
  if (open === -1 || text.slice(open + 1, start).trim() || !short) return null;
  const before = text.slice(0, open);
  const from = initialsStart(before, short[1].replace(/-/g, ''));
  return from === -1
    ? null
    : {
        start: from,
        words:
          before
            .slice(from)
            .toLowerCase()
            .match(/[a-z0-9]+/g) ?? [],
      };
}

const REQUIRED_BEFORE = /\b(?:must|should|shall|needs?\s+to|(?:is|are)\s+required\s+to)\s+(?:have|be|show|demonstrate|maintain)\b/i;

/**
 * "Within 14 days prior to registration", "(within 7 days of the first dose)", "in the 4 weeks before randomisation": when
 * the value is measured, before the study starts, as "at screening" says; the site measures it then, and the rule holds
 * the value (decision 264). Not "within the last 2 weeks" (a value from the past, no point of the study's named).
 */
const MEASURED_BEFORE_START =
  /\b(?:(?:obtained|performed|measured|done|drawn|assessed)\s+)?(?:within|in\s+the)\s+\d{1,3}\s+(?:hours?|days?|weeks?)\s+(?:of|before|prior\s+to|preceding)\s+(?:the\s+)?(?:(?:start|starting|initiation|beginning)\s+(?:of\s+)?)?(?:(?:first|initial)\s+)?(?:(?:study|trial)\s+)?(?:registration|randomi[sz]ation|enrol?ment|consent|day\s+1|(?:dose|dosing|treatment|therapy|drug|administration|infusion)(?:\s+of\s+(?:the\s+)?(?:study|trial)\s+(?:drugs?|treatment|therapy|medication))?)\b/gi;
const measuredBeforeStart = (text: string): Span[] => [...text.matchAll(MEASURED_BEFORE_START)].map((match) => [match.index, match.index + match[0].length]);

const PERFORMANCE_BOUND = new RegExp(String.raw`(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*(\d{1,3})`, 'i');
/** "ECOG 2 or less", "Karnofsky score of 60 or higher": a bound written after the scale's first number, never one exact value. */
const PERFORMANCE_TRAILING_BOUND = /^\D*?(\d{1,3})\s*%?\s*(?:or|and)\s+(above|higher|greater|more|over|below|less|lower|under|fewer|better|worse)\b/i;
/** "0-1", "0, 1, or 2", "0 to 2": the scale's values allowed, smallest to largest. */
const PERFORMANCE_RANGE =
  /(?:of|score|status|ps|\(ps\)|:)?\s*(\d{1,3})\s*%?\s*(?:-|–|to|or|,)\s*(\d{1,3})(?:\s*,?\s*(?:,|or)\s*(\d{1,3})(?!\s*(?:or|and)\s+(?:above|higher|greater|more|over|below|less|lower|under|fewer)))?/i;

const SCALE_LABEL_WORDS = new Set([
  'performance',
  'status',
  'score',
  'scale',
  'of',
  'ps',
  'grade',
  'index',
  'rating',
  'level',
  'the',
  'a',
  'be',
  'is',
  'must',
  'should',
  'play',
  'zubrod',
]);
/** Only the scale's name and label words stand before a bound: "ECOG 2 and life expectancy ≥ 3 months" bounds the life expectancy. */
const isScaleLabel = (before: string) =>
  !/\d/.test(before) &&
  before
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .every(
      (word) =>
        SCALE_LABEL_WORDS.has(word) || /^(?:ecog|eastern|cooperative|oncology|group|who|karnofsky|kps|lansky|gog|world|health|organi[sz]ation)$/.test(word),
    );

/**
 * The scale's name. Zubrod, the WHO's and the GOG's performance status grade the ECOG scale's 0-5 under another name
 * (decision 268; the note reader reads Zubrod and WHO as ECOG, decision 194).
 */
const PERFORMANCE_NAME =
  /\b(ecog|eastern cooperative oncology group|zubrod|gog\s+performance\s+status|(?:who|world health organi[sz]ation)(?:\s*\(who\))?\s+performance\s+status|who ps|karnofsky|kps|lansky)\b/i;
/** "Performance status 0-1" with no scale named: only the ECOG family grades 0 to 4; Karnofsky and Lansky count in tens. */
const UNNAMED_PERFORMANCE = /\bperformance\s+(?:status|score)\b/i;
const UNNAMED_VALUE =
  /^performance\s+(?:status|score)(?:\s*\(ps\))?\s*(?:(?:of|:|=|is|must\s+be|should\s+be)\s*)?(?:[<>≤≥=]|\d|(?:no|not)\s+(?:more|greater|higher)|less|lower|greater|higher|more|at\s+least|up\s+to)/i;
/** "Performance status of 0 or 1 on the ECOG scale": the values, then the scale they are on. */
const VALUES_THEN_SCALE = /^\s*(?:of\s+|:\s*)?\d(?:\s*(?:-|–|to|or|,)\s*\d){0,3}\s+(?:on|by|per|according\s+to|using)\s+(?:the\s+)?$/i;

/** Where the scale is named, and whether it is named at all ("performance status 0-1" is the ECOG family by its values). */
function performanceName(text: string): { index: number; end: number; scale: 'ECOG' | 'Karnofsky'; unnamed: boolean } | null {
  const name = PERFORMANCE_NAME.exec(text);
  const generic = UNNAMED_PERFORMANCE.exec(text);
  if (!name) return generic ? { index: generic.index, end: generic.index + generic[0].length, scale: 'ECOG', unnamed: true } : null;
  const scale = /karnofsky|kps|lansky/i.test(name[1]) ? 'Karnofsky' : 'ECOG';
  const end = name.index + name[0].length;
  if (generic && generic.index < name.index && VALUES_THEN_SCALE.test(text.slice(generic.index + generic[0].length, name.index)))
    return { index: generic.index, end, scale, unnamed: false };
  return { index: name.index, end, scale, unnamed: false };
}

/** "ECOG performance status 0-1", "ECOG ≤ 2", "Karnofsky ≥ 70%", "Zubrod performance status ≤ 2". */
export function readPerformanceRule(kind: CriterionKind, text: string): TextRule | null {
  const name = performanceName(text);
  if (!name) return null;
  const scale = name.scale;
  const after = text.slice(name.index);
  // Unnamed, the value must follow the words at once: "performance status 0-1", "performance status (PS) ≤ 2".
  if (name.unnamed && !UNNAMED_VALUE.test(after)) return null;
  const top = scale === 'ECOG' ? 5 : 100;
  let min: number | null = null;
  let max: number | null = null;
  let match: RegExpExecArray | null;
  if ((match = PERFORMANCE_TRAILING_BOUND.exec(after))) {
    // "Or better" is higher on Karnofsky and lower on ECOG: a person checks it.
    if (/better|worse/i.test(match[2])) return name.unnamed ? null : { rule: null, needsReview: true };
    if (/above|higher|greater|more|over/i.test(match[2])) min = Number(match[1]);
    else max = Number(match[1]);
  } else if ((match = PERFORMANCE_RANGE.exec(after)) && Number(match[1]) < Number(match[2])) {
    [min, max] = [Number(match[1]), Number(match[3] ?? match[2])];
  } else if ((match = PERFORMANCE_BOUND.exec(after)) && isScaleLabel(after.slice(0, match.index))) {
    const comparator = comparatorOf(match[1] ?? match[2]);
    const value = Number(match[3]);
    if (comparator === '<=') max = value;
    else if (comparator === '<') max = value - (scale === 'ECOG' ? 1 : 10);
    else if (comparator === '>=') min = value;
    else if (comparator === '>') min = value + (scale === 'ECOG' ? 1 : 10);
    else [min, max] = [value, value];
  } else if ((match = /(?:of|score|status|ps|\(ps\)|:)\s*(\d{1,3})\b/i.exec(after)) && Number(match[1]) <= top) {
    [min, max] = [Number(match[1]), Number(match[1])];
  } else return name.unnamed ? null : { rule: null, needsReview: true };
  if (kind === 'exclusion') {
    // Excluded "ECOG ≥ 2" -> eligible 0-1.
    if (min !== null && max === null) [min, max] = [null, min - (scale === 'ECOG' ? 1 : 10)];
    else if (max !== null && min === null) [min, max] = [max + (scale === 'ECOG' ? 1 : 10), null];
    else return name.unnamed ? null : { rule: null, needsReview: true };
  }
  // An unnamed scale is the ECOG family's only when its values are the ECOG's grades.
  // Unnamed and not read, the words are left to the readers after this one, as before (decision 268).
  if (name.unnamed && ((min ?? 0) > 4 || (max ?? 0) > 4)) return null;
  if (min === 0 && scale === 'ECOG') min = null;
  const span: Span = [name.index, Math.max(name.end, name.index + match.index + match[0].length)];
  const extra = new Set([
    ...['performance', 'status', 'ps', 'score', 'eastern', 'cooperative', 'oncology', 'group', 'who', 'scale', 'karnofsky', 'kps', 'ecog'],
    ...['zubrod', 'gog', 'world', 'health', 'organization', 'organisation'],
  ]);
  return reviewed({ type: 'performance_status', scale, min, max, span: spanOf(span) }, plainReasons(text, [span], 1, extra));
}

/** One written bound as the rule holds it: an exclusion's bound turned into the one a person must meet; null where none is. */
function oneBound(
  measure: Measure,
  kind: CriterionKind,
  comparator: Comparator,
  written: string,
  unit: string | undefined,
): Extract<CriterionRule, { type: 'lab' }> | null {
  const required = kind === 'exclusion' ? INVERSE[comparator] : comparator;
  if (!required) return null;
  const value = canonical(measure, toNumber(written), unit);
  return { type: 'lab', measure: measure.name, comparator: required, value: value.value, ...(value.unit ? { unit: value.unit } : {}) };
}
