import type { Vocabulary } from '../trials/vocabulary';
import type { MeasureReading } from './note-measures';

/**
 * Syndromes a note shows by their defining findings without naming them (decision 297). A clinician reading the
 * note lists the syndrome; the note reader keeps it as a present condition at the finding that completes it, so the
 * matcher needs no new rule. Only where the definition is a textbook one and every part of it is asserted in the note
 * (a denied or doubted finding counts for nothing); a note that names the syndrome itself is read as before.
 * - Nephrotic syndrome: proteinuria of 3.5 g a day or more ("24-hour urine protein 6.8 g", "proteinuria
 *   4.2 g/day", "UPCR 5.1 g/g", "nephrotic-range proteinuria") with serum albumin under 3.0 g/dL (under 2.5 g/dL for a
 *   child, the paediatric cut-off) or hypoalbuminaemia said in words (KDIGO 2021). Heavy proteinuria alone is not it,
 *   nor a low albumin alone.
 * - Cauda equina syndrome: the cauda equina said to be compressed ("MRI: extrusion compressing the cauda
 *   equina") with one of the red flags that make a compression the syndrome: saddle or perineal numbness, urinary
 *   retention or an inability to void, incontinence of bladder or bowel, or a reduced anal or rectal tone. A compression
 *   on imaging alone is not it.
 * - A fever: a body temperature of 38.0 °C (100.4 °F) or more, the note's own reading ("temperature 38.6 C", "T 101.2
 *   F", "Tmax 38.9"), kept as the vocabulary reads the word "fever", and acute (decision 298): a fever measured now.
 */

export interface NoteSyndrome {
  kind: 'condition';
  conceptId: string;
  name: string;
  /** Qualifier words its fact's name holds ("acute"). */
  qualifiers: string[];
  start: number;
  end: number;
}

/** Whether the words at [start, end) are asserted of the person now or before (not denied, doubted, or a relative's). */
export type AssertedAt = (start: number, end: number) => boolean;

const GRAMS_A_DAY = 3.5;
const ADULT_ALBUMIN_UNDER = 3.0;
const CHILD_ALBUMIN_UNDER = 2.5;
/** Protein per creatinine in mg/mmol, for a ratio in g/g: 1 g/g is about 113 mg/mmol. */
const MG_PER_MMOL_IN_G_PER_G = 113;

const NUMBER = String.raw`(?<value>\d+(?:[.,]\d+)?)`;
const LINK = String.raw`(?:\s*(?:of|was|is|:|=|at|measured)\s*){0,2}\s*`;
/**
 * A day's protein in the urine: "24-hour urine protein 6.8 g" (a 24-hour collection says its period), or "proteinuria
 * of 4.2 g/day", "urine protein 3800 mg/24 h" (other words must say it: "proteinuria 2+" or "protein 6 g" is not a day's).
 */
const DAILY_PROTEIN = new RegExp(
  String.raw`\b(?:(?<collection>(?:24[- ]?h(?:ou)?rs?|24[- ]?h)\s+(?:urine|urinary)\s+protein(?:\s+excretion)?)|(?:urine|urinary)\s+protein(?:\s+excretion)?|proteinuria)${LINK}${NUMBER}\s*(?<unit>g|mg)\b(?<period>\s*(?:\/|per|a)\s*(?:24\s*h(?:ours?|rs?)?|day|d)\b)?`,
  'gi',
);
/** A spot urine protein-to-creatinine ratio: "UPCR 5.1 g/g", "urine protein/creatinine ratio 4500 mg/g", "uPCR 420 mg/mmol". */
const PROTEIN_RATIO = new RegExp(
  String.raw`\b(?:u?PCR|UPC ratio|(?:urine|urinary)\s+protein(?:[- ]to[- ]|\s*\/\s*|[- ])creatinine\s+ratio)${LINK}${NUMBER}\s*(?<unit>g\/gCr|mg\/gCr|g\/g|mg\/g|mg\/mmol)\b`,
  'gi',
);
const NEPHROTIC_RANGE = /\bnephrotic[- ]range\s+proteinuria\b/gi;
const HYPOALBUMINAEMIA = /\bhypoalbumin(?:a)?emia\b/gi;

/** A measured temperature: "temperature 38.6 C", "temp of 101.2°F", "T 38.9", "Tmax 39.1". The unit, or a value only one scale allows. */
const TEMPERATURE =
  /\b(?:[Tt]emperature|TEMPERATURE|[Tt]emp|TEMP|T|Tmax|T max)\b\.?(?:\s*(?:of|was|is|to|:|=|at|reached|up to)\s*){0,2}\s*(\d{2,3}(?:[.,]\d)?)\s*(?:°|º|deg(?:rees)?)?\s*([CFcf])?\b/g;
const FEVER_C = 38.0;
const FEVER_F = 100.4;

const CAUDA_COMPRESSED =
  /\b(?:compress\w*|impinge\w*|effac\w*)\s+(?:of\s+|on\s+|upon\s+)?(?:the\s+)?cauda equina\b|\bcauda equina\s+(?:compression|impingement)\b/gi;
const RED_FLAGS = new RegExp(
  [
    String.raw`\b(?:saddle|perineal|perianal)\s+(?:an(?:a)?esthesia|numbness|hyp(?:o)?(?:a)?esthesia|paresthesias?|sensory loss)\b`,
    String.raw`\b(?:numbness|an(?:a)?esthesia|sensory loss|hyp(?:o)?(?:a)?esthesia)\s+(?:in|of|over)\s+(?:the\s+)?(?:perineum|saddle(?: area| region)?|perianal (?:area|region)|genitals)\b`,
    String.raw`\burinary retention\b|\b(?:inability|unable)\s+to\s+(?:void|urinate|pass urine)\b`,
    String.raw`\b(?:urinary|fa?ecal|bowel|bladder)\s+incontinence\b|\bincontinen(?:t|ce)\s+of\s+(?:urine|stool|bowel|bladder)\b`,
    String.raw`\b(?:reduced|decreased|diminished|absent|lax|poor|weak)\s+(?:rectal|anal|sphincter)\s+tone\b|\b(?:rectal|anal|sphincter)\s+tone\s+(?:is\s+|was\s+)?(?:reduced|decreased|diminished|absent|lax|poor|weak)\b`,
  ].join('|'),
  'gi',
);

function spans(pattern: RegExp, text: string): RegExpExecArray[] {
  pattern.lastIndex = 0;
  return [...text.matchAll(pattern)] as RegExpExecArray[];
}

const toNumber = (written: string) => Number(written.replace(',', '.'));

/** Grams of protein a day from a 24-hour collection or a ratio (a ratio in g/g is grams a day by convention), or null. */
function gramsADay(match: RegExpExecArray, ratio: boolean): number | null {
  const groups = match.groups ?? {};
  const value = toNumber(groups.value);
  const unit = groups.unit.toLowerCase();
  if (ratio) return unit.startsWith('g/g') ? value : unit === 'mg/mmol' ? value / MG_PER_MMOL_IN_G_PER_G : value / 1000;
  if (!groups.collection && !groups.period) return null;
  return unit === 'mg' ? value / 1000 : value;
}

/** The first span that completes the first part of a syndrome, asserted, or null. */
function firstAsserted(found: Array<{ start: number; end: number }>, asserted: AssertedAt) {
  return found.find((at) => asserted(at.start, at.end)) ?? null;
}

function nephroticSyndrome(text: string, measures: readonly MeasureReading[], ageYears: number | null, asserted: AssertedAt) {
  const heavy = [
    ...spans(DAILY_PROTEIN, text).filter((match) => (gramsADay(match, false) ?? 0) >= GRAMS_A_DAY),
    ...spans(PROTEIN_RATIO, text).filter((match) => (gramsADay(match, true) ?? 0) >= GRAMS_A_DAY),
    ...spans(NEPHROTIC_RANGE, text),
  ].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  const proteinuria = firstAsserted(heavy, asserted);
  if (!proteinuria) return null;
  const under = ageYears !== null && ageYears < 18 ? CHILD_ALBUMIN_UNDER : ADULT_ALBUMIN_UNDER;
  const lowAlbumin = [
    ...measures.filter((reading) => reading.name === 'albumin' && reading.unit === 'g/dL' && reading.value < under),
    ...spans(HYPOALBUMINAEMIA, text).map((match) => ({ start: match.index, end: match.index + match[0].length })),
  ];
  return firstAsserted(lowAlbumin, asserted) ? proteinuria : null;
}

function caudaEquinaSyndrome(text: string, asserted: AssertedAt) {
  const compressed = firstAsserted(
    spans(CAUDA_COMPRESSED, text).map((match) => ({ start: match.index, end: match.index + match[0].length })),
    asserted,
  );
  if (!compressed) return null;
  const flag = firstAsserted(
    spans(RED_FLAGS, text).map((match) => ({ start: match.index, end: match.index + match[0].length })),
    asserted,
  );
  return flag ? compressed : null;
}

/** The first asserted temperature of a fever: 38.0 °C or more, or 100.4 °F or more (a bare value read on the scale it fits). */
function measuredFever(text: string, asserted: AssertedAt) {
  const fevers = spans(TEMPERATURE, text).filter((match) => {
    const value = toNumber(match[1]);
    const scale = match[2]?.toUpperCase() ?? (value >= 34 && value <= 43 ? 'C' : value >= 93 && value <= 110 ? 'F' : null);
    return scale === 'C' ? value >= FEVER_C && value <= 43 : scale === 'F' ? value >= FEVER_F && value <= 110 : false;
  });
  return firstAsserted(
    fevers.map((match) => ({ start: match.index, end: match.index + match[0].length })),
    asserted,
  );
}

/** The one concept the vocabulary reads for the whole of a name, or null. */
function conceptOf(vocab: Vocabulary, name: string): { id: string; en: string } | null {
  const read = vocab.find(name, { reach: 'full' });
  return read.length === 1 && read[0].start === 0 && read[0].end === name.length ? read[0].concept : null;
}

/** The syndromes a note shows by their findings, each at the finding's span. */
export function readNoteSyndromes(
  text: string,
  vocab: Vocabulary,
  measures: readonly MeasureReading[],
  ageYears: number | null,
  asserted: AssertedAt,
): NoteSyndrome[] {
  const found: NoteSyndrome[] = [];
  const keep = (name: string, at: { start: number; end: number } | null, qualifiers: string[] = []) => {
    const concept = at && conceptOf(vocab, name);
    if (at && concept) found.push({ kind: 'condition', conceptId: concept.id, name: concept.en, qualifiers, start: at.start, end: at.end });
  };
  keep('nephrotic syndrome', nephroticSyndrome(text, measures, ageYears, asserted));
  keep('cauda equina syndrome', caudaEquinaSyndrome(text, asserted));
  keep('fever', measuredFever(text, asserted), ['acute']);
  return found;
}
