import { MEASURES, NUMBER, UNIT, canonical, implausible, normalizeUnit, painSiteNear, toNumber, type Measure } from '../trials/criteria';
import { readAnalyteValues } from './note-analytes';
import { type MeasureReading, matches, type Sentence } from './note-text';

export type { MeasureReading };

/**
 * A note's labs and vitals (docs/note-extraction.md, "What it reads"): a measure of the criteria parser's
 * `MEASURES` followed closely by a number, in the measure's canonical unit; "EF 25%", "SpO2 95%", "BP 150/95",
 * "HR 78". Nothing when the unit does not fit the measure or a target is meant ("goal HbA1c < 7%").
 */

interface NoteMeasure {
  measure: Measure;
  pattern: RegExp;
}

const byName = (name: string) => MEASURES.find((measure) => measure.name === name)!;
/** The criteria parser's measures, plus the short forms notes use for vitals (EF, HR, sats). */
const NOTE_MEASURES: NoteMeasure[] = [
  ...MEASURES.filter((measure) => !/ASA|blood pressure|heart rate/.test(measure.name)).map((measure) => ({
    measure,
    pattern: new RegExp(measure.pattern.source, 'gi'),
  })),
  { measure: byName('LVEF'), pattern: /\b(?:EF|LVEF)\b/g },
  // Short forms notes use, written in capitals ("Cr 1.4", "SCr 2.1", "Plt 90k"): lower-case "cr" is often a word.
  { measure: byName('creatinine'), pattern: /\b(?:S?Cr|sCr)\b/g },
  { measure: byName('platelets'), pattern: /\bPlts?\b/gi },
  { measure: byName('oxygen saturation'), pattern: /\b(?:o2 sat(?:uration)?s?|sats?|spo2|sao2|pulse ox(?:imetry)?)\b/gi },
  // Lab sheets' short forms: "FBS: 98 mg/dl" (fasting blood sugar), "Alk P 147", "Alk phos 210".
  { measure: byName('fasting glucose'), pattern: /\bFBS\b/g },
  { measure: byName('ALP'), pattern: /\balk(?:aline)?\.? ?(?:p|phos)\b/gi },
];
/**
 * A rating scale named after another symptom ("itch NRS 8", "pruritus VAS 6", "dyspnoea NRS 4"): the scale, not a pain
 * score (the criteria's "pain score" is pain on that scale).
 */
const OTHER_SYMPTOM_BEFORE =
  /\b(?:itch(?:ing|iness)?|prurit\w*|nausea|fatigue|dyspn\w*|breathless\w*|sleep\w*|anxiety|mood)\s*(?:\((?:peak|worst|average)\)\s*)?(?:(?:peak|worst|average|daily)\s+)?$/i;
const VALUE = new RegExp(
  // A slash right after the number is a unit ("98,000/uL", "7/10"), not another number ("150/95", "1.2/1.4").
  String.raw`^(\s*(?:\([^()]{1,15}\)\s*)?(?:(?:is|was|of|at|level|levels|count|value|measured|reading|were|are|results?|now|today|:|=|~)\s*){0,3})${NUMBER}(?!\d|[.,]\d|\/\s*(?!10{1,2}(?!\d))\d)${UNIT}`,
  'i',
);
const UNKNOWN_UNIT = /^(?:[a-zA-Z/]|\s*(?:mg|mcg|µg|ug|g|iu|u|mm|ml|l|mmol|meq|ng|pg|x|k)\b)/;
/** A count in thousands as notes shorten it: "Plt 90k", "WBC 6.2K" (10^9/L). */
const THOUSANDS = /^\s*(?:(?:is|was|of|:|=)\s*)?(\d{1,3}(?:\.\d)?)\s*k\b/i;
/** Spirometry in percent of predicted, after a volume or alone: "FEV1 of 1.8 L (62% predicted)", "FVC 82% of predicted". */
// Never across another spirometry measure's name: "FVC 3.1 L, FEV1 55% predicted" holds no FVC in percent (decision 372).
const PREDICTED = /^(?:(?!fev|fvc|dlco)[^.;%]|\.\d){0,25}?(\d{1,3}(?:\.\d)?)\s*%\s*(?:of\s+(?:the\s+)?)?pred(?:icted)?\b/i;
/** "FEV1/FVC 0.62": the ratio's two names are neither measure alone (decision 372). */
const RATIO_BEFORE = /\bfev1?\s*(?:\/|:|to)\s*$/i;
const RATIO_AFTER = /^\s*(?:\/|:|to)\s*fvc\b/i;
const inRatio = (measure: Measure, text: string, start: number, end: number) =>
  (measure.name === 'FVC' && RATIO_BEFORE.test(text.slice(Math.max(0, start - 8), start))) ||
  (measure.name === 'FEV1' && RATIO_AFTER.test(text.slice(end, end + 8)));
/** The glycated form is another measure (HbA1c): "glycated hemoglobin 8.1 percent" holds no hemoglobin value. */
const GLYCATED_BEFORE = /\bglyc(?:osyl)?ated\s*$/i;
const TARGET = /\b(?:goal|target|aim|keep|less than|greater than|above|below|under|over)\W*$/i;
const BLOOD_PRESSURE =
  /\b(?:blood pressure|bp)\b(?:\s*(?:\(|is|was|of|:|=|at|measured|reading|now|today)\s*){0,3}\s*(\d{2,3})\s*\/\s*(\d{2,3})(?:\s*mm\s*hg)?/gi;
const HEART_RATE =
  /\b(?:[Hh]eart rate|HR|[Pp]ulse(?: rate)?)\b(?:\s*(?:is|was|of|:|=|at)\s*){0,3}\s*(\d{2,3})(?:\s*(?:bpm|\/\s*min|beats(?: per minute| \/ ?min)?))?(?![\d/]|\.\d)/g;
/**
 * A pain rating out of 10 as notes write it: "pain 7/10", "leg pain rated 6/10", "8/10 back pain" (the criteria's
 * "pain score" on the 0-10 scale: VAS, NRS, NPRS). Words between the pain and its rating, never a number: "pain began 3
 * months ago, 8/10" is not read.
 */
const PAIN_RATING = /\bpain\b[^.;:\d/]{0,30}?\b(\d{1,2}(?:\.\d)?)\s*\/\s*10\b(?!\s*\d)|\b(\d{1,2}(?:\.\d)?)\s*\/\s*10\s+(?:[a-z]+\s+)?pain\b/gi;

/**
 * A pain rating keeps the one region its sentence names right before it ("leg pain rated 6/10", "back pain VAS 6",
 * decision 350); "pain 7/10" stays the pain score of no region.
 */
function painMeasure(text: string, sentenceStart: number, start: number, end: number): string {
  return painSiteNear(text, sentenceStart, start, end)?.measure ?? 'pain score';
}

/** Every measured value in the note, in no order; `sentenceOf` is the sentence holding [start, end), null across sentences. */
export function readMeasures(text: string, sentenceOf: (start: number, end: number) => Sentence | null): MeasureReading[] {
  const readings: MeasureReading[] = [];
  for (const { measure, pattern } of NOTE_MEASURES) {
    for (const match of matches(pattern, text)) {
      const nameEnd = match.index + match[0].length;
      const sentence = sentenceOf(match.index, nameEnd);
      if (!sentence) continue;
      const rest = text.slice(nameEnd, sentence.end);
      if (measure.name === 'hemoglobin' && GLYCATED_BEFORE.test(text.slice(sentence.start, match.index))) continue;
      if (measure.name === 'pain score' && OTHER_SYMPTOM_BEFORE.test(text.slice(Math.max(sentence.start, match.index - 30), match.index))) continue;
      if (inRatio(measure, text, match.index, nameEnd)) continue;
      const special = inThousands(measure, rest) ?? inPercentPredicted(measure, rest);
      if (special) {
        readings.push({ name: measure.name, ...special, start: match.index, end: nameEnd + special.length });
        continue;
      }
      const value = VALUE.exec(rest);
      if (!value) continue;
      if (/^\s*(?:loss|gain|change)/i.test(rest) || TARGET.test(text.slice(Math.max(sentence.start, match.index - 20), match.index))) continue;
      const after = rest.slice(value[0].length);
      let written: string | undefined = value[3];
      const unit = normalizeUnit(written);
      // A measure with no unit of its own (FEV1, FVC) in percent is in percent of predicted, as criteria write it.
      const fits = unit
        ? unit === measure.unit || measure.convert?.[unit] !== undefined || (unit === '%' && !measure.unit && !measure.unitless)
        : !measure.unitRequired;
      if (!fits) {
        // "SCr 2.1 in March": "in" and "m" are words as often as units.
        if (!/^(?:in|m)$/i.test(written ?? '')) continue;
        written = undefined;
      } else if (!written && UNKNOWN_UNIT.test(after)) continue;
      const read = canonical(measure, toNumber(value[2]), written);
      // "UACR 45": in mg/g or mg/mmol, a factor of nine apart; unread without its unit (decision 323).
      if (!read.unit && measure.unitRequired) continue;
      // "Hb 90", "ANC 600": a value no person has in the measure's unit was written in another; unread (decision 315).
      if (implausible(measure, read.value, read.unit)) continue;
      const end = written ? nameEnd + value[0].trimEnd().length : nameEnd + value[1].length + value[2].length;
      const name = measure.name === 'pain score' ? painMeasure(text, sentence.start, match.index, end) : measure.name;
      readings.push({ name, value: read.value, unit: read.unit ?? null, start: match.index, end });
    }
  }
  for (const match of matches(BLOOD_PRESSURE, text)) {
    const [start, end] = [match.index, match.index + match[0].length];
    if (!sentenceOf(start, end)) continue;
    readings.push({ name: 'systolic blood pressure', value: Number(match[1]), unit: 'mmHg', start, end });
    readings.push({ name: 'diastolic blood pressure', value: Number(match[2]), unit: 'mmHg', start, end });
  }
  for (const match of matches(HEART_RATE, text)) {
    const [start, end] = [match.index, match.index + match[0].length];
    if (sentenceOf(start, end)) readings.push({ name: 'heart rate', value: Number(match[1]), unit: 'bpm', start, end });
  }
  for (const match of matches(PAIN_RATING, text)) {
    const [start, end] = [match.index, match.index + match[0].length];
    const value = Number(match[1] ?? match[2]);
    const sentence = sentenceOf(start, end);
    if (sentence && value <= 10) readings.push({ name: painMeasure(text, sentence.start, start, end), value, unit: '/10', start, end });
  }
  // Any other analyte the vocabulary names with its value (note-analytes.ts, decision 304).
  readings.push(...readAnalyteValues(text, sentenceOf, readings));
  return withBmiFromWeightAndHeight(text, readings);
}

/** A weight whose unit is written ("73 kg", "160 lb"): a bare "weight 160" may be pounds or kilograms. */
const WEIGHT_UNIT_WRITTEN = /\d\s*(?:kg|kgs|kilo(?:gram)?s?|lbs?|pounds?)\b/i;

/**
 * The body mass index a clinician works out from a note's weight and height when the note does not state it (decision
 * 283): weight in kilograms over the square of height in metres, to one decimal, at the weight's place in the note. Only
 * from one weight with its unit written and one height of an adult's span (120-230 cm), so a note tracking a weight
 * over time ("weight 82 kg, now 76 kg") or a bare "weight 160" gives none; a BMI the note states always wins.
 */
function withBmiFromWeightAndHeight(text: string, readings: MeasureReading[]): MeasureReading[] {
  let weight: MeasureReading | null = null;
  let height: MeasureReading | null = null;
  let weights = 0;
  let heights = 0;
  for (const reading of readings) {
    if (reading.name === 'BMI') return readings;
    if (reading.name === 'weight' && reading.unit === 'kg') [weight, weights] = [reading, weights + 1];
    if (reading.name === 'height' && reading.unit === 'cm') [height, heights] = [reading, heights + 1];
  }
  if (!weight || !height || weights !== 1 || heights !== 1) return readings;
  if (!WEIGHT_UNIT_WRITTEN.test(text.slice(weight.start, weight.end)) || height.value < 120 || height.value > 230) return readings;
  const bmi = Math.round((weight.value / (height.value / 100) ** 2) * 10) / 10;
  if (bmi < 10 || bmi > 90) return readings;
  return [...readings, { name: 'BMI', value: bmi, unit: 'kg/m2', start: weight.start, end: weight.end }];
}

/** "Plt 90k": platelets and white cells in thousands per microlitre, which is 10^9/L. */
function inThousands(measure: Measure, rest: string): { value: number; unit: string; length: number } | null {
  if (measure.unit !== '10^9/L') return null;
  const found = THOUSANDS.exec(rest);
  return found ? { value: Number(found[1]), unit: '10^9/L', length: found[0].length } : null;
}

/** FEV1 or FVC in percent of predicted, preferred to the volume beside it. */
function inPercentPredicted(measure: Measure, rest: string): { value: number; unit: string; length: number } | null {
  if (measure.name !== 'FEV1' && measure.name !== 'FVC') return null;
  const found = PREDICTED.exec(rest);
  return found ? { value: Number(found[1]), unit: '%', length: found[0].length } : null;
}

/** A performance status as notes write it, on the scale the criteria name (ECOG 0-4, Karnofsky 0-100). */
export interface PerformanceReading {
  scale: 'ECOG' | 'Karnofsky';
  value: number;
  start: number;
  end: number;
}

/**
 * "ECOG 1", "ECOG performance status of 2", "WHO performance status 0" (the same 0-4 scale), "KPS 80%", "Karnofsky
 * score 70". A range ("ECOG 0-1") is a trial's wording, not a person's status, and is not read; nor is "WHO" alone
 * ("WHO functional class III", "WHO grade 2" are other scales).
 */
const ECOG =
  /\b(?:ECOG|Zubrod|WHO performance status|WHO PS)(?:\s+(?:performance\s+(?:status|score)|PS|score|grade))?(?:\s*(?:of|is|was|:|=|\())?\s*([0-4])(?!\d|[.,]\d|\s*(?:[-–]|to|or)\s*\d|\s*\/)/gi;
const KARNOFSKY =
  /\b(?:Karnofsky(?:\s+performance)?(?:\s+(?:status|score|scale|index))?|KPS)(?:\s*(?:of|is|was|:|=|\())?\s*(\d{2,3})\s*%?(?!\d|[.,]\d|\s*(?:[-–]|to|or)\s*\d)/gi;

/** Every performance status the note states, in no order. */
export function readPerformanceStatus(text: string, sentenceOf: (start: number, end: number) => Sentence | null): PerformanceReading[] {
  const readings: PerformanceReading[] = [];
  for (const [scale, pattern, max] of [
    ['ECOG', ECOG, 4],
    ['Karnofsky', KARNOFSKY, 100],
  ] as const) {
    for (const match of matches(pattern, text)) {
      const [start, end] = [match.index, match.index + match[0].length];
      const value = Number(match[1]);
      if (sentenceOf(start, end) && value <= max && (scale === 'ECOG' || value % 10 === 0)) readings.push({ scale, value, start, end });
    }
  }
  return readings;
}
