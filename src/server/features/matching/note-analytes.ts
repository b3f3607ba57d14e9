import { LAB_UNIT, MEASURES, NUMBER, namesLevel, normalizeUnit, toNumber } from '../trials/criteria';
import { findAnalytes } from '../trials/vocabulary';
import type { MeasureReading, Sentence } from './note-text';

/**
 * A note's values of the analytes the measures table does not hold (decision 304): "PSA was 6.2 ng/mL", "ferritin 12
 * ng/mL", "TSH of 8.4 mIU/L", "Na 128"; the fact's name is the analyte's plain name, as the criteria reader's rule's
 * (criteria/analyte-labs.ts). Only with a laboratory's unit written, or the one unit a short form's value is in
 * everywhere (sodium's mmol/L); never a target ("goal LDL < 70"), a medicine's dose, or another sample ("urine sodium").
 */

const VALUE = new RegExp(
  String.raw`^(\s*(?:\([^()]{1,15}\)\s*)?(?:(?:is|was|of|at|level|levels|concentration|value|measured|were|are|results?|now|today|:|=|~)\s*){0,3})${NUMBER}(?!\d|[.,]\d|\s*[-–]\s*\d)(?:\s*${LAB_UNIT})?(?![a-z]|\s*\/\s*[a-z])`,
  'i',
);
const TARGET_BEFORE = /\b(?:goal|target|aim|keep|less than|greater than|above|below|under|over)\W*$/i;
/** A bare value's plausible span for the short forms read without a unit: a sodium of 128 mmol/L, never a 1.2 or a 2019. */
const BARE_RANGE: Record<string, [number, number]> = { 'mmol/L': [100, 180] };

/** Every analyte value the note states that the table's readings (`tableReadings`) did not already read. */
export function readAnalyteValues(
  text: string,
  sentenceOf: (start: number, end: number) => Sentence | null,
  tableReadings: MeasureReading[],
): MeasureReading[] {
  const readings: MeasureReading[] = [];
  if (!/\d/.test(text)) return readings;
  const tableNames = MEASURES.flatMap((measure) => [...text.matchAll(new RegExp(measure.pattern.source, 'gi'))].map((match) => match.index));
  for (const mention of findAnalytes(text)) {
    const sentence = sentenceOf(mention.start, mention.end);
    if (!sentence || !namesLevel(text, mention)) continue;
    const overlaps = (start: number, end: number) => start < mention.end && mention.start < end;
    if (tableReadings.some((reading) => overlaps(reading.start, reading.end))) continue;
    if (tableNames.some((start) => start >= mention.start && start < mention.end)) continue;
    if (TARGET_BEFORE.test(text.slice(Math.max(sentence.start, mention.start - 20), mention.start))) continue;
    const value = VALUE.exec(text.slice(mention.end, sentence.end));
    if (!value) continue;
    const number = toNumber(value[2]);
    let unit = normalizeUnit(value[3]) ?? null;
    if (!unit) {
      const range = mention.bareUnit ? BARE_RANGE[mention.bareUnit] : undefined;
      if (!range || number < range[0] || number > range[1]) continue;
      unit = mention.bareUnit!;
    }
    // "Estradiol 0.1%", "calcium 10%": a strength, not a level.
    if (unit === '%' && mention.analyte.kind !== 'substance') continue;
    readings.push({ name: mention.analyte.name, value: number, unit, start: mention.start, end: mention.end + value[0].trimEnd().length });
  }
  return readings;
}
