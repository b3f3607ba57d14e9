import { IMPORT_CLINICAL_FIELDS, type ImportClinicalField, type ImportField, type ImportPreview } from '../../../contract/candidates';
import type { CandidateFactInput } from '../../../contract/matching';
import { badRequest } from '../../http/errors';
import { analyteLabUnit, analyteOfLabel, canonical, implausible, MEASURES, type Measure, painSiteOf } from '../trials/criteria';
import { type AnalyteMention, vocabulary, type Concept } from '../trials/vocabulary';
import { SYNONYMS } from '../trials/vocabulary/synonyms';

/**
 * Import columns read into clinical facts (decision 079): a "Diagnoses" or "Medications" column of `;`-separated
 * names or ICD-10 codes, named by the concept vocabulary; lab and vital columns ("HbA1c", "eGFR (mL/min/1.73m2)")
 * whose header names a measure, in the unit criteria rules use; a date column for the row's labs. Pure: the
 * preview and the import's batches (import-runner.ts) share it.
 */

export interface ClinicalColumn {
  column: string;
  field: ImportClinicalField;
  /** A lab column's measure, from its header. */
  measure?: Measure;
  /** The unit the header gives ("eGFR (mL/min/1.73m2)"), for values written without one. */
  unit?: string;
  /** An analyte the measures table does not hold (decision 308): its values keep their laboratory unit. */
  analyte?: AnalyteMention;
}

export interface ClinicalReading {
  facts: CandidateFactInput[];
  unrecognised: Array<{ column: string; value: string; problem: string; kept: boolean }>;
}

const isClinical = (field: ImportField): field is ImportClinicalField => (IMPORT_CLINICAL_FIELDS as readonly string[]).includes(field);

/** "HbA1c (%)" -> { words: "HbA1c", unit: "%" }; "eGFR [mL/min]" likewise. */
function splitHeader(header: string): { words: string; unit?: string } {
  const match = /^(.*?)\s*[([]\s*([^)\]]+?)\s*[)\]]\s*$/.exec(header.trim());
  return match ? { words: match[1], unit: match[2] } : { words: header.trim() };
}

/**
 * The measure a header names as a whole ("BMI", "HbA1c (%)", "Systolic BP" is not one), or none. A table measure first;
 * else an analyte the vocabulary names ("Ferritin (ng/mL)", "PSA", "Serum sodium"; decision 308), under the name the
 * criteria reader gives it, and only with a laboratory's unit when the header gives one ("Vitamin D (mg)" is a dose).
 */
export function measureOfHeader(header: string): { measure: Measure; unit?: string; analyte?: AnalyteMention } | null {
  const { words, unit } = splitHeader(header);
  const plain = words.replace(/[_]+/g, ' ').trim();
  if (!plain) return null;
  const whole = (measure: Measure, words: string) => {
    const match = measure.pattern.exec(words);
    return Boolean(match && match.index === 0 && match[0].length === words.length);
  };
  for (const measure of MEASURES) if (whole(measure, plain)) return { measure, unit };
  const painScore = painScoreOfHeader(plain, whole);
  if (painScore) return { measure: painScore, unit };
  const analyte = analyteOfLabel(plain);
  if (!analyte || (unit !== undefined && !analyteLabUnit(analyte, unit))) return null;
  // The pattern is never read: the header has named the measure.
  return { measure: { pattern: /(?!)/, name: analyte.analyte.name }, unit, analyte };
}

/**
 * "Leg pain VAS", "VAS back pain", "Neck pain score": a pain scale with one region of the list (decision 350), kept as
 * that region's pain score; the scale's name is required ("Leg pain" alone may be a yes or a duration).
 */
function painScoreOfHeader(plain: string, whole: (measure: Measure, words: string) => boolean): Measure | null {
  const site = painSiteOf(plain);
  const scale = MEASURES.find((measure) => measure.name === 'pain score');
  if (!site || !scale || site.spans.length !== 1) return null;
  const [start, end] = site.spans[0];
  const withoutRegion = `${plain.slice(0, start)}pain${plain.slice(end)}`.replace(/\s+/g, ' ').trim();
  const withoutPain = `${plain.slice(0, start)} ${plain.slice(end)}`.replace(/\s+/g, ' ').trim();
  return whole(scale, withoutRegion) || whole(scale, withoutPain) ? { ...scale, name: site.measure } : null;
}

/** The clinical columns of a mapping; a `lab` column whose header names no measure is a 400 naming it. */
export function clinicalColumns(mapping: Record<string, ImportField>): ClinicalColumn[] {
  const columns: ClinicalColumn[] = [];
  for (const [column, field] of Object.entries(mapping)) {
    // A notes column is the note reader's (import-notes.ts), not a column of names or values.
    if (!isClinical(field) || field === 'notes') continue;
    if (field !== 'lab') {
      columns.push({ column, field });
      continue;
    }
    const found = measureOfHeader(column);
    if (!found) {
      throw badRequest(
        `mapping: The column "${column}" is mapped to a lab value, but its header names no lab or vital the criteria know (e.g. HbA1c, eGFR, BMI, "Creatinine (mg/dL)", "Ferritin (ng/mL)")`,
        [{ path: `mapping.${column}`, message: 'Not a known lab or vital' }],
      );
    }
    columns.push({ column, field, measure: found.measure, unit: found.unit, analyte: found.analyte });
  }
  return columns;
}

// ---- conditions and medications ----

const ICD10 = /^([A-TV-Z]\d{2})(?:\.(\w{1,4}))?$/i;

let byIcd10: Map<string, Concept> | null = null;
/**
 * ICD-10 codes the vocabulary's own entries carry -> their concepts (a code's category names it when the code itself
 * is not listed); then the codes the lexicon maps to a MeSH heading with certainty (decision 126).
 */
export function conceptOfCode(code: string): Concept | null {
  if (!byIcd10) {
    byIcd10 = new Map();
    for (const entry of SYNONYMS) {
      if (!entry.icd10) continue;
      const concept = longestMention(entry.synonyms[0] ?? entry.en, entry.kind);
      if (concept && !byIcd10.has(entry.icd10.toUpperCase())) byIcd10.set(entry.icd10.toUpperCase(), concept);
    }
  }
  const upper = code.toUpperCase();
  return byIcd10.get(upper) ?? vocabulary().conceptOfIcd10(upper) ?? byIcd10.get(upper.split('.')[0]) ?? null;
}

/** The vocabulary's concept of that kind the words name, the longest mention when they name several (the FHIR reader's too). */
export function longestMention(words: string, kind: Concept['kind']): Concept | null {
  let best: { concept: Concept; length: number } | null = null;
  for (const mention of vocabulary().find(words, { reach: 'full' })) {
    if (mention.concept.kind !== kind) continue;
    const length = mention.end - mention.start;
    if (!best || length > best.length) best = { concept: mention.concept, length };
  }
  return best?.concept ?? null;
}

/** The same few names recur over a file's rows: their concepts are remembered (up to 10,000 names). */
const named = new Map<string, Concept | null>();
function namedConcept(item: string, kind: Concept['kind']): Concept | null {
  const key = `${kind}:${item.toLowerCase()}`;
  let concept = named.get(key);
  if (concept === undefined) {
    concept = longestMention(item, kind);
    if (named.size >= 10_000) named.clear();
    named.set(key, concept);
  }
  return concept;
}

/** "history of", "past", "h/o": a past condition or a medication no longer taken. */
const PAST = /^(?:history of|hx of|h\/o|past|previous|prior|former)\s+/i;

// ---- one row ----

const NUMBER = /^([<>≤≥]=?)?\s*(-?\d+(?:[.,]\d+)?)\s*(.*)$/;

/** A bare value's plausible span for an analyte read without a unit (sodium's 128 mmol/L, never a 1.2), as in notes. */
const BARE_RANGE: Record<string, [number, number]> = { 'mmol/L': [100, 180] };

/** An analyte column's value in its laboratory unit (the value's, else the header's, else sodium's one unit), or null. */
function analyteValue(analyte: AnalyteMention, value: number, written: string | undefined): { value: number; unit: string } | null {
  if (written) {
    const unit = analyteLabUnit(analyte, written);
    return unit ? { value, unit } : null;
  }
  const range = analyte.bareUnit ? BARE_RANGE[analyte.bareUnit] : undefined;
  return range && value >= range[0] && value <= range[1] ? { value, unit: analyte.bareUnit! } : null;
}

/** Reads one row's clinical values; `date` is the row's clinical date already checked (YYYY-MM-DD) or null. */
export function readClinicalRow(
  values: Record<string, string>,
  columns: readonly ClinicalColumn[],
  context: { runId: string | null; label: string; defaultCountry: string; normalizeDate: (value: string, country: string) => string },
): ClinicalReading {
  const reading: ClinicalReading = { facts: [], unrecognised: [] };
  let date: string | null = null;
  for (const column of columns) {
    if (column.field !== 'clinicalDate') continue;
    const raw = values[column.column]?.trim();
    if (!raw) continue;
    const normal = context.normalizeDate(raw, context.defaultCountry);
    if (/^\d{4}-\d{2}-\d{2}$/.test(normal) && !Number.isNaN(Date.parse(`${normal}T00:00:00Z`))) date = normal;
    else reading.unrecognised.push({ column: column.column, value: raw, problem: 'Not a date (use YYYY-MM-DD)', kept: false });
  }
  const base = (column: string, value: string) => ({
    source: 'import' as const,
    sourceRef: context.runId,
    sourceText: `${column}: ${value} (${context.label})`.slice(0, 2000),
    span: null,
    criterionId: null,
    status: null,
    value: null,
    unit: null,
    valueText: null,
    observedOn: null,
  });
  for (const column of columns) {
    const raw = values[column.column]?.trim();
    if (!raw || column.field === 'clinicalDate') continue;
    if (column.field === 'lab') {
      const measure = column.measure!;
      const match = NUMBER.exec(raw.replace(/\s+/g, ' '));
      if (!match) {
        reading.unrecognised.push({ column: column.column, value: raw, problem: `Not a ${measure.name} value`, kept: false });
        continue;
      }
      if (match[1]) {
        reading.unrecognised.push({ column: column.column, value: raw, problem: `A bound, not a ${measure.name} value`, kept: false });
        continue;
      }
      const written = match[3].trim() || column.unit;
      if (column.analyte) {
        const value = analyteValue(column.analyte, Number(match[2].replace(',', '.')), written);
        if (!value) {
          reading.unrecognised.push({
            column: column.column,
            value: raw,
            problem: `A ${measure.name} value needs a laboratory unit (e.g. ng/mL)`,
            kept: false,
          });
          continue;
        }
        reading.facts.push({ ...base(column.column, raw), kind: 'lab', conceptId: null, name: measure.name, ...value, observedOn: date, code: null });
        continue;
      }
      const converted = canonical(measure, Number(match[2].replace(',', '.')), written);
      // "UACR 45": laboratories report it in units a factor apart; only its unit says which (decision 323).
      if (!converted.unit && measure.unitRequired) {
        reading.unrecognised.push({ column: column.column, value: raw, problem: `A ${measure.name} value needs its unit (e.g. ${measure.unit})`, kept: false });
        continue;
      }
      if (implausible(measure, converted.value, converted.unit)) {
        reading.unrecognised.push({
          column: column.column,
          value: raw,
          problem: `Not a possible ${measure.name} in ${measure.unit}: write the unit it was measured in`,
          kept: false,
        });
        continue;
      }
      if (measure.unit && converted.unit !== measure.unit) {
        reading.unrecognised.push({
          column: column.column,
          value: raw,
          problem: `Kept in ${converted.unit ?? 'no unit'}: criteria use ${measure.unit}`,
          kept: true,
        });
      }
      reading.facts.push({
        ...base(column.column, raw),
        kind: 'lab',
        conceptId: null,
        name: measure.name,
        value: converted.value,
        unit: (converted.unit ?? null)?.slice(0, 40) ?? null,
        observedOn: date,
        code: null,
      });
      continue;
    }
    const kind = column.field === 'conditions' ? 'condition' : 'medication';
    for (const part of raw.split(/[;|\n]/)) {
      let item = part.trim();
      if (!item) continue;
      const past = PAST.exec(item);
      if (past) item = item.slice(past[0].length).trim();
      const code = ICD10.exec(item);
      const concept = code ? conceptOfCode(item) : namedConcept(item, kind);
      if (!concept) {
        // Kept by name: the matcher still reads a name holding every word of a criterion's concept.
        reading.unrecognised.push({
          column: column.column,
          value: part.trim(),
          problem: code ? 'An ICD-10 code the vocabulary does not know' : 'Not in the vocabulary',
          kept: true,
        });
      }
      reading.facts.push({
        ...base(column.column, part.trim()),
        kind,
        conceptId: concept?.id ?? null,
        name: (concept?.en ?? item).slice(0, 300),
        status: past ? 'history' : 'present',
        code: code ? `http://hl7.org/fhir/sid/icd-10|${item.toUpperCase()}`.slice(0, 200) : null,
      });
    }
  }
  return reading;
}

/** The preview's summary of the clinical columns over its sample (the most frequent unrecognised values first, at most 50). */
export function summariseClinical(columns: readonly ClinicalColumn[], readings: Iterable<ClinicalReading>): Omit<ImportPreview['clinical'], 'notes'> {
  let facts = 0;
  const unrecognised = new Map<string, ImportPreview['clinical']['unrecognised'][number]>();
  for (const reading of readings) {
    facts += reading.facts.length;
    for (const item of reading.unrecognised) {
      const key = `${item.column}\u0000${item.value.toLowerCase()}`;
      const seen = unrecognised.get(key);
      if (seen) seen.rows++;
      else unrecognised.set(key, { ...item, rows: 1 });
    }
  }
  return {
    facts,
    labColumns: columns
      .filter((column) => column.field === 'lab')
      .map((column) => ({ column: column.column, measure: column.measure!.name, unit: column.measure!.unit ?? column.unit ?? null })),
    unrecognised: [...unrecognised.values()].sort((a, b) => b.rows - a.rows).slice(0, 50),
  };
}
