import Papa from 'papaparse';
import {
  candidateFieldsSchema,
  ConsentDateSchema,
  ConsentSourceSchema,
  IMPORT_CLINICAL_FIELDS,
  IMPORT_CONSENT_FLAGS,
  IMPORT_MAX_ROWS,
  parseConsentFlag,
  type ImportField,
  type ImportPreview,
} from '../../../contract/candidates';
import { deriveTimeZone } from '../../../contract/zone-derivation';
import { AppError, badRequest } from '../../http/errors';
import { FORBIDDEN_CHARACTERS } from '../../http/input-guard';
import { clinicalColumns, measureOfHeader, readClinicalRow, summariseClinical, type ClinicalReading } from './import-facts';
import { noteColumns } from './import-notes';

/**
 * The pure half of the candidate import: parsing CSV or JSON rows, guessing the column mapping, and turning
 * one raw row into validated candidate fields. No database here (see import-runner.ts).
 */

export type RawRow = Record<string, unknown>;

export interface ParsedInput {
  columns: string[];
  rows: RawRow[];
}

/** Mapped, not yet validated values of one row: what a processing_run_item keeps as its input. */
export type MappedRow = Record<string, unknown> & { customFields?: Record<string, string>; clinical?: Record<string, string> };

export interface RowError {
  field: string;
  message: string;
}

const tooMany = (count: number) =>
  badRequest(`data: ${count.toLocaleString('en-US')} rows is more than the ${IMPORT_MAX_ROWS.toLocaleString('en-US')} an import takes; split the file`, [
    { path: 'data', message: `At most ${IMPORT_MAX_ROWS} rows` },
  ]);

/**
 * A streamed file is refused at its first row over the limit (its own count is never known): 413, as for a body
 * over the byte limit, since the file is too large rather than malformed.
 */
const tooManyStreamed = (maxRows: number) =>
  new AppError(
    413,
    `The file has more than ${maxRows.toLocaleString('en-US')} rows (${rowsInWords(maxRows)}), the most one import takes; split it into files of at most ${maxRows.toLocaleString('en-US')} rows`,
    'PAYLOAD_TOO_LARGE',
    [{ path: 'data', message: `At most ${maxRows} rows` }],
  );

const rowsInWords = (rows: number) =>
  rows >= 1_000_000 && rows % 1_000_000 === 0
    ? `${rows / 1_000_000 === 1 ? 'one' : rows / 1_000_000} million`
    : rows >= 1000 && rows % 1000 === 0
      ? `${rows / 1000} thousand`
      : String(rows);

const lineAt = (text: string, index: number) => {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** Parses CSV text with a header line; a malformed file is a 400 naming the problem and the line. */
export function parseCsv(text: string): ParsedInput {
  const source = text.replace(/^\uFEFF/, '');
  if (!source.trim()) throw badRequest('data: The CSV is empty', [{ path: 'data', message: 'Empty CSV' }]);
  // Not 'greedy': a header of blank names (",,") must be seen and refused, not skipped as an empty line.
  const parsed = Papa.parse<string[]>(source, { skipEmptyLines: true });
  const problem = parsed.errors.find((error) => error.type !== 'Delimiter');
  if (problem) {
    const line = problem.index !== undefined ? lineAt(source, problem.index) : (problem.row ?? 0) + 1;
    throw badRequest(`data: The CSV cannot be read at line ${line}: ${problem.message}`, [{ path: 'data', message: `line ${line}: ${problem.message}` }]);
  }
  const records = parsed.data.filter((cells) => !blankLine(cells));
  const header = records[0];
  const body = records.slice(1).filter((cells) => !cells.every((cell) => cell.trim() === ''));
  if (!header) throw badRequest('data: The CSV is empty', [{ path: 'data', message: 'Empty CSV' }]);
  if (body.length > IMPORT_MAX_ROWS) throw tooMany(body.length);
  const columns = headerColumns(header);
  const rows: RawRow[] = new Array(body.length);
  for (let r = 0; r < body.length; r++) {
    const cells = body[r];
    if (cells.length > columns.length && cells.slice(columns.length).some((cell) => cell.trim() !== '')) {
      throw badRequest(`data: The CSV cannot be read at row ${r + 1} (after the header): it has ${cells.length} fields, the header has ${columns.length}`, [
        { path: 'data', message: `row ${r + 1}: ${cells.length} fields, header ${columns.length}` },
      ]);
    }
    const row: RawRow = {};
    for (let c = 0; c < columns.length; c++) row[columns[c]] = cells[c] ?? '';
    rows[r] = row;
  }
  return { columns, rows };
}

// ---- streamed CSV (decision 046) ----

/** A record longer than this without its end is refused (an unclosed quote would otherwise keep the rest of the file). */
const MAX_RECORD_CHARS = 1024 * 1024;
/** How much of the file the delimiter and line break are guessed from. */
const SNIFF_CHARS = 64 * 1024;

const countLines = (text: string, end = text.length) => {
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
};

export interface CsvStreamOptions {
  /** 413 once more bytes than this have arrived. */
  maxBytes: number;
  /** Rows handed over at a time. */
  batchRows: number;
  /** More rows than this is a 413 at the first row over, before it is handed over (default IMPORT_MAX_ROWS). */
  maxRows?: number;
  /** Called once with the header's columns, before any rows. */
  onHeader(columns: string[]): Promise<void> | void;
  /** Called with each batch of rows (in file order; firstRow counts data rows from 1); awaited before more is read. */
  onRows(rows: RawRow[], firstRow: number): Promise<void>;
}

/**
 * Reads a CSV body as it arrives: bytes decoded incrementally, records parsed with papaparse's own parser up
 * to the last complete one (the rest waits for the next chunk), rows handed over in batches. Only a chunk and
 * one batch are held at a time. Refuses like parseCsv (400 naming the line; more than IMPORT_MAX_ROWS rows),
 * plus control characters (the input guard does not buffer this body) and a body over maxBytes (413).
 */
export async function readCsvStream(body: ReadableStream<Uint8Array>, options: CsvStreamOptions): Promise<{ columns: string[]; rows: number }> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  let carry = '';
  let linesBefore = 0;
  let parser: Papa.Parser | null = null;
  let columns: string[] | null = null;
  let rowCount = 0;
  let batch: RawRow[] = [];
  let first = true;
  const maxRows = options.maxRows ?? IMPORT_MAX_ROWS;

  const refuse = (line: number, message: string) =>
    badRequest(`data: The CSV cannot be read at line ${line}: ${message}`, [{ path: 'data', message: `line ${line}: ${message}` }]);

  const flush = async () => {
    if (!batch.length) return;
    const rows = batch;
    batch = [];
    await options.onRows(rows, rowCount - rows.length + 1);
  };

  /** Parses what carry holds up to its last complete record (all of it at the end), keeping the rest. */
  const consume = async (final: boolean) => {
    if (!parser) {
      if (!final && carry.length < SNIFF_CHARS) return;
      const sniff = carry.slice(0, SNIFF_CHARS);
      const newline = /\r\n/.test(sniff.slice(0, sniff.indexOf('\n') + 1)) ? '\r\n' : sniff.includes('\n') ? '\n' : sniff.includes('\r') ? '\r' : '\n';
      const delimiter = Papa.parse<string[]>(sniff, { preview: 20, newline }).meta.delimiter || ',';
      parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
    }
    const control = FORBIDDEN_CHARACTERS.exec(carry);
    if (control) throw refuse(linesBefore + countLines(carry, control.index) + 1, 'it holds a NUL or another control character');
    const parsed = parser.parse(carry, 0, !final) as { data: string[][]; errors: Papa.ParseError[]; meta: { cursor: number } };
    const problem = parsed.errors[0];
    if (problem) throw refuse(linesBefore + countLines(carry, problem.index ?? carry.length) + 1, problem.message);
    const cursor = final ? carry.length : parsed.meta.cursor;
    linesBefore += countLines(carry, cursor);
    carry = carry.slice(cursor);
    if (!final && carry.length > MAX_RECORD_CHARS) throw refuse(linesBefore + 1, 'a quoted field is not closed (or one record is longer than 1 MB)');
    for (const cells of parsed.data) {
      // Blank lines are skipped, as by parseCsv; the header is the first line that is not blank.
      if (blankLine(cells) || (columns && cells.every((cell) => cell.trim() === ''))) continue;
      if (!columns) {
        columns = headerColumns(cells);
        await options.onHeader(columns);
        continue;
      }
      rowCount++;
      if (rowCount > maxRows) throw tooManyStreamed(maxRows);
      if (cells.length > columns.length && cells.slice(columns.length).some((cell) => cell.trim() !== '')) {
        throw badRequest(
          `data: The CSV cannot be read at row ${rowCount} (after the header): it has ${cells.length} fields, the header has ${columns.length}`,
          [{ path: 'data', message: `row ${rowCount}: ${cells.length} fields, header ${columns.length}` }],
        );
      }
      const row: RawRow = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]] = cells[c] ?? '';
      batch.push(row);
      if (batch.length >= options.batchRows) await flush();
    }
  };

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > options.maxBytes) throw new AppError(413, `The request body is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`);
      let text = decoder.decode(value, { stream: true });
      if (first) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      carry += text;
      await consume(false);
    }
    carry += decoder.decode();
    if (first || (!columns && !carry.trim())) throw badRequest('data: The CSV is empty', [{ path: 'data', message: 'Empty CSV' }]);
    await consume(true);
    if (!columns) throw badRequest('data: The CSV is empty', [{ path: 'data', message: 'Empty CSV' }]);
    await flush();
    return { columns, rows: rowCount };
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

/** A line with nothing on it (or only spaces): no record, wherever it is. */
const blankLine = (cells: string[]) => cells.length === 1 && cells[0].trim() === '';

/**
 * The header's column names: a blank one is named by its position (column_2), a repeated one numbered (name_2),
 * never onto a name the header already has. A header whose names are all blank (",,") is a 400: without names
 * the columns cannot be mapped, and its first data row must not be mistaken for the header.
 */
function headerColumns(cells: string[]): string[] {
  const names = cells.map((cell) => cell.trim());
  if (names.every((name) => name === '')) {
    const message = 'The header (the first line) has only blank column names: name each column, e.g. firstName,lastName,phone';
    throw badRequest(`data: ${message}`, [{ path: 'data', message: 'blank header names' }]);
  }
  const used = new Set<string>();
  return names.map((name, index) => {
    const base = name || `column_${index + 1}`;
    let column = base;
    for (let count = 2; used.has(column) || (column !== name && names.includes(column)); count++) column = `${base}_${count}`;
    used.add(column);
    return column;
  });
}

export function parseJsonRows(rows: RawRow[]): ParsedInput {
  if (rows.length > IMPORT_MAX_ROWS) throw tooMany(rows.length);
  const columns = new Set<string>();
  for (const row of rows.slice(0, 1000)) for (const key of Object.keys(row)) columns.add(key);
  return { columns: [...columns], rows };
}

export function parseInput(format: 'csv' | 'json', data: string | RawRow[]): ParsedInput {
  if (format === 'csv') {
    if (typeof data !== 'string') throw badRequest('data: format csv takes CSV text');
    return parseCsv(data);
  }
  if (!Array.isArray(data)) throw badRequest('data: format json takes an array of objects');
  return parseJsonRows(data);
}

// ---- mapping ----

const GUESSES: Array<[Exclude<ImportField, 'custom' | 'ignore'>, string[]]> = [
  ['firstName', ['firstname', 'first', 'givenname', 'forename', 'fname', 'patientfirstname']],
  ['lastName', ['lastname', 'last', 'surname', 'familyname', 'lname', 'patientlastname']],
  ['fullName', ['name', 'fullname', 'patientname', 'candidatename', 'patient', 'candidate']],
  [
    'phone',
    ['phone', 'phonenumber', 'mobile', 'mobilephone', 'mobilenumber', 'cell', 'cellphone', 'cellnumber', 'telephone', 'tel', 'primaryphone', 'contactnumber'],
  ],
  ['email', ['email', 'emailaddress', 'mail', 'emailid']],
  ['dateOfBirth', ['dob', 'dateofbirth', 'birthdate', 'birthday', 'birth', 'dateofbirthyyyymmdd']],
  ['sex', ['sex', 'gender', 'sexatbirth']],
  ['addressLine', ['address', 'addressline', 'address1', 'addressline1', 'street', 'streetaddress']],
  ['city', ['city', 'town']],
  ['region', ['state', 'region', 'province', 'county', 'stateprovince']],
  ['postalCode', ['zip', 'zipcode', 'postalcode', 'postcode', 'postal', 'zippostalcode']],
  ['country', ['country', 'countrycode']],
  ['timeZone', ['timezone', 'tz']],
  ['preferredLanguage', ['language', 'preferredlanguage', 'lang']],
  ['source', ['source', 'leadsource', 'referralsource', 'channel']],
  ['consentSms', ['smsconsent', 'consentsms', 'textconsent', 'consenttotext', 'smsoptin', 'textoptin', 'oktotext']],
  ['consentCalls', ['callconsent', 'consentcalls', 'consentcall', 'callsconsent', 'phoneconsent', 'consenttocall', 'calloptin', 'oktocall']],
  ['consentSource', ['consentsource', 'sourceofconsent', 'consentmethod', 'consentobtainedby', 'consentform']],
  ['consentDate', ['consentdate', 'dateofconsent', 'consentedon', 'consentgiven', 'optindate']],
  [
    'conditions',
    [
      'diagnoses',
      'diagnosis',
      'diagnosiscodes',
      'dx',
      'conditions',
      'condition',
      'problems',
      'problemlist',
      'medicalhistory',
      'medicalconditions',
      'comorbidities',
    ],
  ],
  ['medications', ['medications', 'medication', 'meds', 'currentmedications', 'currentmeds', 'drugs', 'medicationlist']],
  // Free text read by the note reader (decision 132). "Comments" is left a custom field: it is as often "call after 5pm".
  [
    'notes',
    [
      'notes',
      'note',
      'clinicalnotes',
      'clinicalnote',
      'referralnotes',
      'referralnote',
      'medicalnotes',
      'physiciannotes',
      'doctornotes',
      'chartnotes',
      'clinicalsummary',
      'clinicalhistory',
      'reasonforreferral',
      'referralreason',
    ],
  ],
  ['clinicalDate', ['labdate', 'labsdate', 'dateoflabs', 'resultdate', 'observationdate', 'collectiondate', 'testdate', 'labresultdate']],
];
/** Fields several columns may take (two diagnosis columns, one column per lab). */
const REPEATABLE = new Set<ImportField>(['conditions', 'medications', 'lab', 'notes', 'custom', 'ignore']);
const GUESS_BY_KEY = new Map(GUESSES.flatMap(([field, keys]) => keys.map((key) => [key, field] as const)));

/** The field a column name most likely holds ("First Name", "first_name", "Given name" -> firstName ...). */
export function guessField(column: string): ImportField {
  const key = column.toLowerCase().replace(/[^a-z0-9]/g, '');
  return GUESS_BY_KEY.get(key) ?? (measureOfHeader(column) ? 'lab' : 'custom');
}

/** The guessed mapping, with the caller's choices taking precedence; each field is taken by one column only. */
export function resolveMapping(columns: string[], given: Record<string, ImportField> = {}): Record<string, ImportField> {
  const mapping: Record<string, ImportField> = {};
  const taken = new Set<ImportField>(Object.values(given).filter((field) => !REPEATABLE.has(field)));
  for (const column of columns) {
    if (given[column]) {
      mapping[column] = given[column];
      continue;
    }
    const guess = guessField(column);
    if (!REPEATABLE.has(guess) && taken.has(guess)) mapping[column] = 'custom';
    else {
      mapping[column] = guess;
      taken.add(guess);
    }
  }
  return mapping;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());

const CLINICAL = new Set<ImportField>(IMPORT_CLINICAL_FIELDS);

/** Applies the mapping to one raw row: candidate field -> text, clinical columns under clinical, other columns under customFields. */
export function mapRow(row: RawRow, mapping: Record<string, ImportField>): MappedRow {
  const mapped: MappedRow = {};
  const custom: Record<string, string> = {};
  const clinical: Record<string, string> = {};
  for (const [column, field] of Object.entries(mapping)) {
    const value = text(row[column]);
    if (!value || field === 'ignore') continue;
    if (field === 'custom') custom[column] = value;
    else if (CLINICAL.has(field)) clinical[column] = value;
    else if (mapped[field] === undefined) mapped[field] = value;
  }
  if (Object.keys(custom).length) mapped.customFields = custom;
  if (Object.keys(clinical).length) mapped.clinical = clinical;
  return mapped;
}

/** One mapped row's clinical facts (decision 079), with what was not recognized. */
export function clinicalFactsOf(
  mapped: MappedRow,
  columns: ReturnType<typeof clinicalColumns>,
  context: { runId: string | null; label: string; defaultCountry: string },
): ClinicalReading {
  if (!mapped.clinical || !columns.length) return { facts: [], unrecognised: [] };
  return readClinicalRow(mapped.clinical, columns, { ...context, normalizeDate });
}
export { clinicalColumns };

// ---- validation ----

const SEX_WORDS: Record<string, string> = {
  f: 'female',
  female: 'female',
  woman: 'female',
  w: 'female',
  m: 'male',
  male: 'male',
  man: 'male',
  o: 'other',
  other: 'other',
  x: 'other',
  nonbinary: 'other',
  'non-binary': 'other',
  u: 'unknown',
  unknown: 'unknown',
  '': 'unknown',
  'prefer not to say': 'unknown',
  na: 'unknown',
  'n/a': 'unknown',
};

/** YYYY-MM-DD from YYYY-MM-DD, YYYY/MM/DD or a slashed day-month-year (month first for US, day first elsewhere). */
export function normalizeDate(value: string, defaultCountry: string): string {
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(value);
  if (match) return `${match[1]}-${match[2].padStart(2, '0')}-${match[3].padStart(2, '0')}`;
  match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  if (match) {
    const monthFirst = defaultCountry.toUpperCase() === 'US';
    const [month, day] = monthFirst ? [match[1], match[2]] : [match[2], match[1]];
    return `${match[3]}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  }
  return value;
}

export interface ValidRow {
  ok: true;
  values: {
    firstName: string;
    lastName: string;
    phone: string | null;
    email: string | null;
    dateOfBirth: string | null;
    sex: 'female' | 'male' | 'other' | 'unknown';
    addressLine: string | null;
    city: string | null;
    region: string | null;
    postalCode: string | null;
    country: string | null;
    timeZone: string | null;
    preferredLanguage: string | null;
    source: string | null;
    customFields: Record<string, string>;
    /** Stated consent (null: the row does not say), with where and when it was documented. */
    consentSms: boolean | null;
    consentCalls: boolean | null;
    consentSource: string | null;
    /** ISO timestamp. */
    consentAt: string | null;
    /** How the time zone was found when the row did not give one. */
    timeZoneFrom: 'postal_code' | 'region' | 'phone' | null;
  };
}

/** What the import as a whole says about consent: the source and date for rows without their own. */
export interface ImportConsentDefaults {
  consentSource?: string | null;
  /** YYYY-MM-DD or ISO; defaults to `now`. */
  consentDate?: string | null;
  now?: Date;
}

export const consentMapped = (mapping: Record<string, ImportField>) =>
  Object.values(mapping).some((field) => (IMPORT_CONSENT_FLAGS as readonly string[]).includes(field));

/** 400 when a consent column is mapped and the import gives no source for rows without one (TCPA: documented consent). */
export function requireImportConsentSource(mapping: Record<string, ImportField>, consentSource: string | undefined): void {
  if (consentMapped(mapping) && !consentSource?.trim()) {
    throw badRequest('consentSource: A consent column is mapped: say where this file\'s consent was given (e.g. "paper form at clinic")', [
      { path: 'consentSource', message: 'Required when a consent column is mapped' },
    ]);
  }
}

const toInstant = (value: string) => (value.length === 10 ? `${value}T12:00:00.000Z` : new Date(value).toISOString());
export type RowValidation = ValidRow | { ok: false; errors: RowError[] };

const schemas = new Map<string, ReturnType<typeof candidateFieldsSchema>>();
const schemaFor = (country: string) => {
  let schema = schemas.get(country);
  if (!schema) schemas.set(country, (schema = candidateFieldsSchema(country)));
  return schema;
};

/** Validates one mapped row with the same rules as the create form; errors name the field. */
export function validateRow(mapped: MappedRow, defaultCountry: string, consentDefaults: ImportConsentDefaults = {}): RowValidation {
  const { consentSms: rawSms, consentCalls: rawCalls, consentSource: rawSource, consentDate: rawDate, clinical: _clinical, ...rest } = mapped;
  const candidate: Record<string, unknown> = { ...rest };
  if (typeof candidate.fullName === 'string') {
    const full = candidate.fullName;
    delete candidate.fullName;
    let first = full;
    let last = '';
    if (full.includes(',')) [last, first] = full.split(',', 2).map((part) => part.trim());
    else {
      const space = full.indexOf(' ');
      if (space > 0) [first, last] = [full.slice(0, space), full.slice(space + 1).trim()];
    }
    candidate.firstName ??= first;
    candidate.lastName ??= last;
  }
  const errors: RowError[] = [];
  if (typeof candidate.sex === 'string') {
    const sex = SEX_WORDS[candidate.sex.toLowerCase()];
    if (sex) candidate.sex = sex;
    else errors.push({ field: 'sex', message: 'Use female, male, other or unknown (or F/M)' });
  }
  if (typeof candidate.dateOfBirth === 'string') candidate.dateOfBirth = normalizeDate(candidate.dateOfBirth, defaultCountry);
  if (candidate.firstName === undefined) candidate.firstName = '';
  const result = schemaFor(defaultCountry.toUpperCase()).safeParse(candidate);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path.map(String).join('.') || 'row';
      if (field === 'sex' && errors.some((error) => error.field === 'sex')) continue;
      errors.push({ field, message: issue.message });
    }
  }
  const consent = { sms: null as boolean | null, calls: null as boolean | null };
  for (const [field, raw] of [
    ['consentSms', rawSms],
    ['consentCalls', rawCalls],
  ] as const) {
    const flag = parseConsentFlag(raw);
    if (flag === 'invalid') errors.push({ field, message: 'Use yes or no (also Y/N, true/false, 1/0)' });
    else consent[field === 'consentSms' ? 'sms' : 'calls'] = flag;
  }
  let consentSource: string | null = null;
  let consentAt: string | null = null;
  if (consent.sms === true || consent.calls === true) {
    const source = ConsentSourceSchema.safeParse(typeof rawSource === 'string' && rawSource.trim() ? rawSource : (consentDefaults.consentSource ?? ''));
    if (source.success) consentSource = source.data;
    else errors.push({ field: 'consentSource', message: 'Consent says yes but no source is given for it (in the row or for the import)' });
    const dateText = typeof rawDate === 'string' && rawDate.trim() ? normalizeDate(rawDate.trim(), defaultCountry) : (consentDefaults.consentDate ?? null);
    if (dateText) {
      const date = ConsentDateSchema.safeParse(dateText);
      if (date.success) consentAt = toInstant(date.data);
      else errors.push({ field: 'consentDate', message: date.error.issues[0].message });
    } else consentAt = (consentDefaults.now ?? new Date()).toISOString();
  }
  if (errors.length || !result.success) return { ok: false, errors };
  const value = result.data;
  const derived = value.timeZone ? null : deriveTimeZone({ postalCode: value.postalCode, region: value.region, country: value.country, phone: value.phone });
  return {
    ok: true,
    values: {
      firstName: value.firstName,
      lastName: value.lastName ?? '',
      phone: value.phone ?? null,
      email: value.email ?? null,
      dateOfBirth: value.dateOfBirth ?? null,
      sex: value.sex ?? 'unknown',
      addressLine: value.addressLine ?? null,
      city: value.city ?? null,
      region: value.region ?? null,
      postalCode: value.postalCode ?? null,
      country: value.country ?? null,
      timeZone: value.timeZone ?? derived?.timeZone ?? null,
      preferredLanguage: value.preferredLanguage ?? null,
      source: value.source ?? null,
      customFields: (mapped.customFields ?? {}) as Record<string, string>,
      consentSms: consent.sms,
      consentCalls: consent.calls,
      consentSource,
      consentAt,
      timeZoneFrom: derived?.from ?? null,
    },
  };
}

/** The sample's rows with a note in a notes column (decision 132). */
function rowsWithNotes(sample: RawRow[], mapping: Record<string, ImportField>): number {
  const columns = noteColumns(mapping);
  if (!columns.length) return 0;
  return sample.filter((raw) => columns.some((column) => text(raw[column]) !== '')).length;
}

const PREVIEW_PAGE = 20;
/** Rows validated for the preview: every row of a file up to this size (an invalid row anywhere is shown). */
const PREVIEW_SAMPLE = IMPORT_MAX_ROWS;

/**
 * What the import wizard shows before anything is written: the mapping, and a page of rows mapped and
 * validated, every invalid row first (so a bad row cannot hide behind the first page), then valid rows.
 */
export function previewImport(
  parsed: ParsedInput,
  given: Record<string, ImportField> | undefined,
  defaultCountry: string,
  options: ImportConsentDefaults & { offset?: number; limit?: number } = {},
): ImportPreview {
  const mapping = resolveMapping(parsed.columns, given);
  const clinical = clinicalColumns(mapping);
  const readings: ClinicalReading[] = [];
  const sample = parsed.rows.slice(0, PREVIEW_SAMPLE);
  const offset = options.offset ?? 0;
  const limit = options.limit ?? PREVIEW_PAGE;
  const invalid: ImportPreview['rows'] = [];
  const validRows: number[] = [];
  const results = new Map<number, ReturnType<typeof validateRow>>();
  sample.forEach((raw, index) => {
    const mapped = mapRow(raw, mapping);
    if (clinical.length) readings.push(clinicalFactsOf(mapped, clinical, { runId: null, label: 'preview', defaultCountry }));
    const result = validateRow(mapped, defaultCountry, options);
    if (result.ok) {
      validRows.push(index);
      if (validRows.length <= offset + limit) results.set(index, result);
    } else invalid.push({ rowNumber: index + 1, values: mapped, valid: false, errors: result.errors });
  });
  const rows: ImportPreview['rows'] = invalid.slice(offset, offset + limit);
  for (let i = Math.max(0, offset - invalid.length); rows.length < limit && i < validRows.length; i++) {
    const index = validRows[i];
    const result = results.get(index) ?? validateRow(mapRow(sample[index], mapping), defaultCountry, options);
    if (result.ok) rows.push({ rowNumber: index + 1, values: result.values, valid: true, errors: [] });
  }
  return {
    columns: parsed.columns,
    mapping,
    totalRows: parsed.rows.length,
    rows,
    sample: { size: sample.length, valid: validRows.length, invalid: invalid.length },
    page: { offset, limit, total: sample.length },
    consentMapped: consentMapped(mapping),
    clinical: { ...summariseClinical(clinical, readings), notes: rowsWithNotes(sample, mapping) },
  };
}
