import type { CriterionKind } from '../../../../contract/trials';
import { type AnalyteMention, findAnalytes } from '../vocabulary/analytes';
import { labPatterns, type LabPatterns, NORMAL_RANGE_WORDS, readMeasureBound, withUnitSymbols } from './labs';
import { type Measure, MEASURES, normalizeUnit } from './measures';
import { COMPARATOR, NUMBER, type TextRule, WORD_COMPARATOR } from './text';

/**
 * Lab values of any analyte the vocabulary names (decision 304): "Total cholesterol > 300 mg/dL", "PSA > 4 ng/mL",
 * "serum sodium < 130 mmol/L", "TSH > 10 mIU/L", "hematocrit < 30%", "LDH > 2 x ULN". Read after the measures table
 * (labs.ts), for what it lacks, with its bounds and its review; the measure is the analyte's plain name. Only with a
 * laboratory's unit written (or a multiple of the normal range's limits): a number after a medicine's name is a dose
 * ("aspirin 81 mg", "5 mg/kg", "1% cream"), never a level.
 */

/**
 * A laboratory's concentration, activity or count unit (one capture group): "mg/dL", "mmol/L", "ng/mL", "U/L", "mIU/L",
 * "%", "cells/µL", "x10^9/L". Not a dose's: "mg", "mg/kg", "mg/day", "mg/m2", "units".
 */
export const LAB_UNIT = String.raw`(mg\s*\/\s*dl|mg\s*\/\s*l|g\s*\/\s*dl|g\s*\/\s*l|m?mol\s*\/\s*l|[µuμ]mol\s*\/\s*l|[np]mol\s*\/\s*l|meq\s*\/\s*l|(?:ng|pg|[µuμ]g|mcg)\s*\/\s*(?:ml|dl|l)|(?:m|[µuμ])?i?u\s*\/\s*(?:ml|l)|%|cells\s*\/\s*(?:[µuμ]l|mm\s*\^?\s*3|mm³)|\/\s*(?:mm\s*\^?\s*3|mm³|[µuμ]l|cu\s*mm)|(?:x|×|\*)?\s*10\s*(?:\^|e)?\s*(?:9|3|⁹|³)\s*\/\s*(?:l|[µuμ]l))`;
/** After the unit no letter, and no "per" another quantity ("ng/mL/year" is a velocity, "mg/dL/h" a rate). */
const UNIT_END = String.raw`(?![a-z]|\s*\/\s*[a-z])`;
const LAB_UNIT_ALONE = new RegExp(String.raw`^${LAB_UNIT}$`, 'i');
const BOUND_WORDS = new RegExp(String.raw`\d\s*${LAB_UNIT}|\b(?:i?uln|i?lln|upper|lower|normal)\b`, 'i');
const OPTIONAL_UNIT = String.raw`\s*${LAB_UNIT}?${UNIT_END}`;
const REQUIRED_UNIT = String.raw`\s*${LAB_UNIT}${UNIT_END}`;

/**
 * Words before the analyte that make it another measure than the blood's total: another sample ("urine sodium", "CSF
 * protein"), a fraction ("free testosterone", "ionized calcium", "corrected calcium"), a time of sampling the rule
 * would not hold ("fasting insulin"), a change ("PSA velocity" is after).
 */
const OTHER_MEASURE_BEFORE =
  /\b(?:urine|urinary|csf|cerebrospinal(?:\s+fluid)?|fa?ecal|stool|sweat|saliva(?:ry)?|tissue|tumou?r|intracellular|free|fasting|random|post-?prandial|ioni[sz]ed|corrected|bioavailable|unbound|saturation\s+of|partial\s+pressure\s+of|24[- ]?h(?:ou)?r?|spot|change\s+in|increase\s+in|decrease\s+in|rise\s+in)\s+(?:\w+\s+)?$/i;
const OTHER_MEASURE_AFTER =
  /^\s*(?:\/|-to-|to\s+\w+\s+ratio|ratio|index|velocity|doubling|density|nadir|kinetics|response|progression|rise|decline|reduction|decrease|increase|change|clearance|excretion|receptor|antibod|gene|mutation|expression|staining|positiv|negativ)/i;
/** A level word before or after a medicine's name: "serum digoxin", "vitamin D level", "trough tacrolimus concentration". */
const LEVEL_BEFORE = /\b(?:serum|plasma|blood|whole[- ]blood|trough|circulating)\s+$/i;
const LEVEL_AFTER = /^\s*(?:\([^()]{1,15}\)\s*)?(?:(?:serum|plasma|blood|trough)\s+)?(?:levels?|concentrations?)\b/i;
/**
 * A comparison and a concentration right after a medicine's name are its level, never a dose (decision 312): "vitamin
 * D >= 20 ng/mL". Doses are amounts (mg, units) or per day or kilogram; a strength per millilitre ("100 U/mL") has no
 * comparison before it.
 */
const CONCENTRATION_BOUND_AFTER = new RegExp(
  String.raw`^\s*(?:of\s+)?(?:${COMPARATOR}|\b${WORD_COMPARATOR})\s*${NUMBER}\s*(?:ng|pg|[µμu]g|mcg|mg|g|mmol|[µμu]mol|nmol|pmol|m?iu|[µμu]iu|mu|u)\s*\/\s*(?:ml|dl|l)\b`,
  'i',
);

const patternsCache = new Map<string, LabPatterns>();
function analytePatterns(measure: Measure): LabPatterns {
  let found = patternsCache.get(measure.name);
  if (!found) patternsCache.set(measure.name, (found = labPatterns(measure, OPTIONAL_UNIT, REQUIRED_UNIT)));
  return found;
}

/** The places the measures table names one of its measures: the table reads those (it is read first). */
function tableNames(text: string): Array<[number, number]> {
  return MEASURES.flatMap((measure) =>
    [...text.matchAll(new RegExp(measure.pattern.source, 'gi'))].map((match): [number, number] => [match.index, match.index + match[0].length]),
  );
}

/** Whether a mention may be an analyte's level here: not another sample or fraction, and a medicine only with a level word. */
export function namesLevel(text: string, mention: AnalyteMention): boolean {
  const before = text.slice(Math.max(0, mention.start - 40), mention.start);
  const after = text.slice(mention.end, mention.end + 40);
  if (OTHER_MEASURE_BEFORE.test(before) || OTHER_MEASURE_AFTER.test(after)) return false;
  return mention.analyte.kind !== 'medicine' || LEVEL_BEFORE.test(before) || LEVEL_AFTER.test(after) || CONCENTRATION_BOUND_AFTER.test(after);
}

/** The lab rule of an analyte the table does not hold; null when no analyte is named with a bound in a laboratory's unit. */
export function readAnalyteLabRule(kind: CriterionKind, text: string): TextRule | null {
  return withUnitSymbols(text, (symbols) => readAnalyteLabRuleOf(kind, symbols));
}

function readAnalyteLabRuleOf(kind: CriterionKind, text: string): TextRule | null {
  // Every bound has a number and a laboratory unit or a limit of normal: most criteria have neither, and are done here
  // before the analytes are looked up (speed: bench/criteria-parse.ts).
  if (!(/\d/.test(text) || NORMAL_RANGE_WORDS.test(text)) || !BOUND_WORDS.test(text)) return null;
  const table = tableNames(text);
  const mentions = findAnalytes(text);
  for (const mention of mentions) {
    if (table.some(([start, end]) => start < mention.end && mention.start < end) || !namesLevel(text, mention)) continue;
    // "TSH and hematocrit value above 30%": the bound is the nearer measure's, never one named before another.
    const bound = mention.end + (/[\d<>≤≥=]/.exec(text.slice(mention.end))?.index ?? 0);
    const between = ([start]: [number, number]) => start >= mention.end && start < bound;
    if (mentions.some((other) => between([other.start, other.end])) || table.some(between)) continue;
    const measure: Measure = { pattern: new RegExp(escapeRegExp(text.slice(mention.start, mention.end)), 'iy'), name: mention.analyte.name };
    measure.pattern.lastIndex = mention.start;
    const name = measure.pattern.exec(text);
    if (!name) continue;
    const read = readMeasureBound(kind, text, measure, name, analytePatterns(measure));
    if (!read) continue;
    const rule = read.rule?.type === 'lab' ? read.rule : null;
    // A bound without a laboratory's unit is no level (the table's boundBefore may read one); "estradiol 0.1%" is a strength.
    if (rule && !rule.relativeTo && !(rule.unit && LAB_UNIT_ALONE.test(rule.unit))) continue;
    if (rule?.unit === '%' && mention.analyte.kind !== 'substance') continue;
    return read;
  }
  return null;
}

/**
 * Words a lab's label may hold beside the analyte's name and still name its blood level as a whole: a level word before
 * ("Serum ferritin", "Total cholesterol") or after ("TSH level", "Ferritin, serum"). Anything else ("Cholesterol in
 * HDL", "Calcium.ionized", "Sodium, urine", "Natriuretic peptide B") is another measure or a name not read whole.
 */
const LABEL_BEFORE = /^(?:(?:serum|plasma|blood|total)\s+)*$/i;
const LABEL_AFTER = /^(?:\s*,?\s*(?:\((?:serum|plasma|blood)\)|serum|plasma|blood))?(?:\s+(?:levels?|concentrations?|values?))?\s*$/i;

/**
 * The analyte a lab's label names as a whole (decision 308): an import column's header ("Ferritin", "Serum PSA"), a
 * FHIR Observation's name ("Prostate specific antigen"), as the criteria and note readers name it. None where the
 * measures table names a measure in it (the table wins), where the label names more than one analyte, or holds any
 * other word: a door reads only what it can name for certain.
 */
export function analyteOfLabel(label: string): AnalyteMention | null {
  const words = label.replace(/_+/g, ' ').trim();
  if (!words || !/[a-z]/i.test(words) || tableNames(words).length) return null;
  const mentions = findAnalytes(words);
  if (mentions.length !== 1) return null;
  const [mention] = mentions;
  return LABEL_BEFORE.test(words.slice(0, mention.start)) && LABEL_AFTER.test(words.slice(mention.end)) ? mention : null;
}

/**
 * A lab value's unit as the analyte readers keep it ("ng/mL", "mIU/L", "mmol/L"), or null when it is no laboratory's
 * concentration, activity or count unit (a dose's "mg", a titer, a ratio): such a value is no analyte's level. A
 * percentage is a level only of a body substance (hematocrit), never of a medicine (a strength).
 */
export function analyteLabUnit(mention: AnalyteMention, unit: string | undefined): string | null {
  const normal = normalizeUnit(unit);
  if (!normal || !LAB_UNIT_ALONE.test(normal)) return null;
  return normal === '%' && mention.analyte.kind !== 'substance' ? null : normal;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
