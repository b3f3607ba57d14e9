import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { IMPORT_STREAM_MAX_BYTES, type ImportCandidatesInput, type ImportField, type ImportStreamQuery } from '../../../contract/candidates';
import type { CandidateFactInput } from '../../../contract/matching';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { timeOrderedUuid } from '../../db/time-ordered-id';
import { candidate } from '../../db/schema';
import { AppError, notFound } from '../../http/errors';
import { recordActivity } from '../../activity';
import { recordAudit } from '../../audit';
import { defineRunKind, runOwnerOf, type ItemOutcome, type ProcessingRunRow, type RunDeps, type RunItem } from '../processing-runs/runner';
import { toRun } from '../processing-runs/service';
import {
  clinicalColumns,
  clinicalFactsOf,
  mapRow,
  parseInput,
  readCsvStream,
  requireImportConsentSource,
  resolveMapping,
  validateRow,
  type MappedRow,
  type RawRow,
  type RowError,
  type ValidRow,
} from './import';
import { noteColumns, notesOfRow } from './import-notes';
import { findTrialInOrganization, type CandidateRow } from './queries';
import { targetOrganization } from './service';
import { funnelSignals } from '../../funnel-signals';
import { profileOf } from './candidate-record';

/**
 * The candidate import as a processing run (decision 006).
 *
 * 1. The request parses and counts the rows (400 before anything is written), creates the run ('pending'),
 *    stores every mapped row as a processing_run_item ('pending') in chunks, then marks the run 'running'
 *    and answers 202.
 * 2. The run engine (processing-runs/runner.ts, decision 039) takes the pending items in row order,
 *    BATCH_SIZE at a time. Each batch is ONE transaction: insert new candidates, merge duplicates, link the
 *    trial, write contact events, set the items' outcomes and advance the run's counters. A crash loses at
 *    most the open batch, which rolls back whole; its items are still 'pending'.
 * 3. On start-up, the engine continues every 'running' run from its pending items.
 */

export const BATCH_SIZE = 1000;
const STORE_CHUNK = 5000;
export const IMPORT_KIND = 'candidate_import';

export type RunnerDeps = RunDeps;

export interface ImportOptions {
  duplicates: 'merge' | 'skip';
  defaultCountry: string;
  trialId: string | null;
  mapping: Record<string, ImportField>;
  format: 'csv' | 'json';
  /** For rows whose consent says yes without a source / date of their own. */
  consentSource?: string | null;
  consentDate?: string | null;
}

/** Parses and stores the rows as a new run, hands it to the run engine, and returns the run. */
export async function startImport(deps: RunnerDeps, scope: RequestScope, input: ImportCandidatesInput): Promise<ProcessingRun> {
  const organizationId = targetOrganization(scope, input.organizationId);
  const parsed = parseInput(input.format, input.data as never);
  const mapping = resolveMapping(parsed.columns, input.mapping);
  requireImportConsentSource(mapping, input.consentSource);
  clinicalColumns(mapping);
  const importOptions: ImportOptions = {
    duplicates: input.duplicates,
    defaultCountry: input.defaultCountry.toUpperCase(),
    trialId: input.trialId ?? null,
    mapping,
    format: input.format,
    consentSource: input.consentSource ?? null,
    consentDate: input.consentDate ?? null,
  };
  const rows = parsed.rows;
  const label = input.label ?? `Candidate import (${rows.length.toLocaleString('en-US')} rows)`;

  const { run } = await runScoped(deps.db, scope, async (tx) => {
    if (input.trialId && !(await findTrialInOrganization(tx, input.trialId, organizationId))) throw notFound('Trial not found');
    return candidateImportRuns.create(tx, {
      organizationId,
      createdByUserId: scope.userId,
      label,
      total: rows.length,
      options: { ...importOptions },
      audit: () => ({ rows: rows.length, duplicates: input.duplicates, format: input.format }),
      // Pending while its rows are stored: this instance's claim, renewed meanwhile, tells every sweep and start-up
      // that its creator is alive (decision 122).
      creator: runOwnerOf(deps),
    });
  });

  // The rows are stored in chunks, each its own transaction: one long transaction would block every other
  // request on PGlite's single connection.
  const stored = candidateImportRuns.holdWhileCreating(deps, run.id);
  try {
    for (let start = 0; start < rows.length; start += STORE_CHUNK) {
      const chunk = rows.slice(start, start + STORE_CHUNK);
      await runScoped(deps.db, scope, (tx) => storeItems(tx, organizationId, run.id, chunk, start + 1, mapping));
    }
  } catch (error) {
    await runScoped(deps.db, scope, (tx) => candidateImportRuns.abandon(tx, run.id, 'The rows could not be stored; nothing was imported')).catch(
      () => undefined,
    );
    throw error;
  } finally {
    stored();
  }

  const started = await runScoped(deps.db, scope, (tx) => candidateImportRuns.begin(tx, run.id)).catch(async (error: unknown) => {
    // The run was failed meanwhile (this process stalled past its claim): the rows stored since go too.
    await runScoped(deps.db, scope, (tx) => candidateImportRuns.abandon(tx, run.id, candidateImportRuns.messages.interrupted)).catch(() => undefined);
    throw error;
  });
  await candidateImportRuns.trigger(deps, started.id, organizationId);
  return toRun(started);
}

/** One multi-row insert of mapped rows as the run's pending items, numbered from firstRow. */
function storeItems(tx: Transaction, organizationId: string, runId: string, rows: RawRow[], firstRow: number, mapping: Record<string, ImportField>) {
  const chunk = rows.map((row, i) => ({ n: firstRow + i, i: mapRow(row, mapping) }));
  return tx.execute(sql`
    insert into processing_run_item (organization_id, run_id, row_number, input)
    select ${organizationId}::uuid, ${runId}::uuid, (r->>'n')::int, r->'i'
    from jsonb_array_elements(${JSON.stringify(chunk)}::jsonb) as r`);
}

const CSV_TYPE = /^text\/csv\s*(;|$)/i;

/**
 * The streamed import (decision 046): the body is the CSV file itself, read and parsed as it arrives, its rows
 * stored as items STORE_CHUNK at a time, all inside the run's creating transaction, so a refusal part way (a
 * malformed line, a row over the limit, a body over the byte limit, a dropped connection) rolls back the run
 * and every item: nothing is left half-stored. The mapping is resolved from the header once it is read.
 */
export async function startStreamedImport(
  deps: RunnerDeps,
  scope: RequestScope,
  query: ImportStreamQuery,
  contentType: string | undefined,
  body: ReadableStream<Uint8Array> | null,
): Promise<ProcessingRun> {
  const organizationId = targetOrganization(scope, query.organizationId);
  if (!CSV_TYPE.test(contentType ?? '')) throw new AppError(415, 'Send the file as text/csv (the JSON form is POST /api/candidates/bulk)');
  if (!body) throw new AppError(400, 'data: The CSV is empty', 'BAD_REQUEST', [{ path: 'data', message: 'Empty CSV' }]);
  const duplicates = query.duplicates;

  const started = await runScoped(deps.db, scope, async (tx) => {
    if (query.trialId && !(await findTrialInOrganization(tx, query.trialId, organizationId))) throw notFound('Trial not found');
    let mapping: Record<string, ImportField> = {};
    let runId: string | null = null;
    const ensureRun = async () => {
      if (runId) return runId;
      const { run } = await candidateImportRuns.create(tx, {
        organizationId,
        createdByUserId: scope.userId,
        label: query.label ?? 'Candidate import',
        options: {},
        // The row count is known once the file has been read; the run's total says it.
        audit: () => ({ duplicates, format: 'csv', streamed: true }),
      });
      runId = run.id;
      return runId;
    };
    const { rows } = await readCsvStream(body, {
      maxBytes: IMPORT_STREAM_MAX_BYTES,
      batchRows: STORE_CHUNK,
      onHeader: (columns) => {
        mapping = resolveMapping(columns, query.mapping);
        requireImportConsentSource(mapping, query.consentSource);
        clinicalColumns(mapping);
      },
      onRows: async (batch, firstRow) => {
        await storeItems(tx, organizationId, await ensureRun(), batch, firstRow, mapping);
      },
    });
    const id = await ensureRun();
    const importOptions: ImportOptions = {
      duplicates,
      defaultCountry: query.defaultCountry.toUpperCase(),
      trialId: query.trialId ?? null,
      mapping,
      format: 'csv',
      consentSource: query.consentSource ?? null,
      consentDate: query.consentDate ?? null,
    };
    return candidateImportRuns.begin(tx, id, {
      total: rows,
      label: query.label ?? `Candidate import (${rows.toLocaleString('en-US')} rows)`,
      options: { ...importOptions },
    });
  });
  await candidateImportRuns.trigger(deps, started.id, organizationId);
  return toRun(started);
}

// ---- the run kind ----

type ImportOutcome = 'created' | 'merged' | 'skipped' | 'invalid' | 'failed';

/** The import's run kind (its start-up resume is listed in jobs/register.ts). */
export const candidateImportRuns = defineRunKind<RunnerDeps, ImportOutcome>({
  kind: IMPORT_KIND,
  batchSize: BATCH_SIZE,
  counters: { created: 'succeeded', merged: 'merged', skipped: 'skipped', invalid: 'failed', failed: 'failed' },
  messages: {
    failed: 'Processing stopped on an unexpected error; rows marked processed were imported',
    interrupted: 'Interrupted while receiving the rows; nothing was imported. Import the file again.',
  },
  completion: (run) => ({ total: run.total, created: run.succeeded, merged: run.merged, skipped: run.skipped, invalid: run.failed }),
  // Validation and clinical facts need no database: done for the next batch while this one is written (decision 100).
  prepareBatch: (ctx, items) => {
    const columns = clinicalColumns((ctx.run.options as unknown as ImportOptions).mapping);
    for (const item of items) item.prepared = prepareRow(ctx.run, item, columns);
  },
  processBatch: (tx, ctx, items) => importBatch(tx, ctx.run, items),
  // Fresh statistics after the first batch of a large import and at its end: without them the duplicate
  // lookup of later batches scans the organization instead of using the unique indexes (issue 17), and
  // PGlite has no autovacuum to refresh them.
  afterBatch: async (deps, { batches, more }) => {
    if (batches === 1 ? more : !more) await refreshStatistics(deps);
  },
});
/** Resolves when the run's background processing (if any, in this process) has settled. */
export const whenRunSettled = candidateImportRuns.whenSettled;
/** Continues every import left 'running' by a stopped process; imports interrupted while storing their rows fail. */
export const resumeInterruptedRuns = candidateImportRuns.resume;

/** ANALYZE of the tables an import grows (the owner's statement; its failure never fails the import). */
async function refreshStatistics(deps: RunnerDeps): Promise<void> {
  await systemDb(deps.db)
    .execute(sql`analyze candidate, contact_event, candidate_trial`)
    .catch((error: Error) => deps.logger.warn({ errorName: error.name }, 'analyze after import failed'));
}

// ---- one batch ----

/**
 * The organization's candidates sharing a phone or an email with a batch, locked. Plain equality on the
 * stored (E.164, lowercased) values, so each side is a range of its unique index (organization, phone) /
 * (organization, email) under row-level security; tests/integration/query-plans.int.test.ts checks the plan.
 */
export function duplicateLookup(tx: Transaction, organizationId: string, phones: string[], emails: string[]) {
  // Each list is ONE parameter (a JSON array made a text[] once per statement), not one parameter per value:
  // binding and planning 2,000 parameters was most of this statement's time (decision 089); the index
  // condition is the same `= any(array)`.
  const anyOf = (values: string[]) => sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
  const matches: SQL[] = [];
  if (phones.length) matches.push(sql`${candidate.phone} = ${anyOf(phones)}`);
  if (emails.length) matches.push(sql`${candidate.email} = ${anyOf(emails)}`);
  return tx
    .select()
    .from(candidate)
    .where(and(eq(candidate.organizationId, organizationId), or(...matches)))
    .for('update');
}

/** One row validated, with its clinical facts: the work of a row that needs no database. */
interface PreparedRow {
  result: ReturnType<typeof validateRow>;
  facts: CandidateFactInput[];
  /** Its notes columns' text (decision 132), stored as clinical notes and read in the batch's transaction. */
  notes: string[];
}

function prepareRow(run: ProcessingRunRow, item: RunItem, columns = clinicalColumns((run.options as unknown as ImportOptions).mapping)): PreparedRow {
  const options = run.options as unknown as ImportOptions;
  const input = (item.input ?? {}) as MappedRow;
  const validated = validateRow(input, options.defaultCountry, { consentSource: options.consentSource, consentDate: options.consentDate });
  const { result, notes } = withNotes(validated, input, options.mapping);
  const facts = result.ok ? clinicalFactsOf(input, columns, { runId: run.id, label: run.label, defaultCountry: options.defaultCountry }).facts : [];
  return { result, facts, notes };
}

/** A row's notes (decision 132); a note too long to keep makes the row invalid, naming the column, so nothing is cut short silently. */
function withNotes(result: ReturnType<typeof validateRow>, input: MappedRow, mapping: Record<string, ImportField>) {
  const columns = noteColumns(mapping);
  if (!columns.length) return { result, notes: [] };
  const { notes, errors } = notesOfRow(input, columns);
  if (!errors.length) return { result, notes: result.ok ? notes : [] };
  return { result: { ok: false as const, errors: [...(result.ok ? [] : result.errors), ...errors] }, notes: [] };
}

/** The targets' notes, stored and read into facts by the matching feature in this transaction (funnel-signals.ts). */
function storeImportNotes(tx: Transaction, run: ProcessingRunRow, targets: Target[]) {
  const notes = targets.flatMap((target) => target.notes.map((body) => ({ candidateId: target.id, body, authorUserId: run.createdByUserId })));
  return funnelSignals.notesReceived(tx, run.organizationId, notes);
}

type Values = ValidRow['values'];
const FILLABLE = ['lastName', 'phone', 'email', 'dateOfBirth', 'sex', 'addressLine', 'city', 'region', 'postalCode', 'country', 'timeZone'] as const;

interface Target {
  id: string;
  existing: CandidateRow | null;
  values: Values;
  filled: Set<string>;
  rowNumbers: number[];
  /** Consent this import turns on for an existing candidate (merge), with its source and date. */
  consent?: { sms: boolean; calls: boolean; source: string; at: string };
  consentLocked?: boolean;
  /** The clinical facts its rows' clinical columns give (decision 079). */
  facts: CandidateFactInput[];
  /** Its rows' notes (decision 132). */
  notes: string[];
}

interface Outcome {
  id: string;
  outcome: 'created' | 'merged' | 'skipped' | 'invalid' | 'failed';
  errors: RowError[] | null;
  candidate_id: string | null;
  keep_input: boolean;
}

function fromExisting(row: CandidateRow): Values {
  return {
    ...profileOf(row),
    customFields: { ...(row.customFields as Record<string, string>) },
    consentSms: row.consentSms,
    consentCalls: row.consentCalls,
    consentSource: null,
    consentAt: null,
    timeZoneFrom: null,
  };
}

/** The columns of a candidate an import writes and a merge may fill (the insert and the merge's update share them). */
const profileColumns = (values: Values) => ({
  last_name: values.lastName,
  phone: values.phone,
  email: values.email,
  date_of_birth: values.dateOfBirth,
  sex: values.sex,
  address_line: values.addressLine,
  city: values.city,
  region: values.region,
  postal_code: values.postalCode,
  country: values.country,
  time_zone: values.timeZone,
  custom_fields: values.customFields,
});

const consentParts = (values: { sms: boolean; calls: boolean }) => [values.sms ? 'SMS on' : null, values.calls ? 'calls on' : null].filter(Boolean).join(', ');

const isEmpty = (field: (typeof FILLABLE)[number], value: unknown) =>
  value === null || value === undefined || value === '' || (field === 'sex' && value === 'unknown');

/**
 * One batch of an import, in the engine's transaction (the run locked): validate, dedupe, insert and merge
 * candidates, link the trial, write contact events and the batch's audit record. Returns each item's outcome;
 * the engine stores them and the run's counters in the same transaction.
 */
async function importBatch(tx: Transaction, run: ProcessingRunRow, items: RunItem[]): Promise<ItemOutcome<ImportOutcome>[]> {
  const options = run.options as unknown as ImportOptions;
  const rows = items.map((item) => ({ item, prepared: (item.prepared as PreparedRow | undefined) ?? (item.prepared = prepareRow(run, item)) }));
  const owners = await findExistingOwners(tx, run.organizationId, rows);
  const sorted = sortRows(options, rows, owners);
  const insertedIds = await insertCreated(tx, run, sorted);
  // The existing candidates the batch merged rows into (a row merged into an earlier row of the file is created).
  const merged = [...new Set(sorted.outcomes.filter((outcome) => outcome.outcome === 'merged').map((outcome) => outcome.candidate_id!))]
    .map((id) => owners.targets.get(id))
    .filter((target): target is Target => Boolean(target?.existing));
  const changed = merged.filter((target) => target.filled.size > 0);
  await updateMerged(tx, changed);
  const written = [...sorted.created.filter((target) => insertedIds.has(target.id)), ...merged];
  // Clinical facts of the rows (decision 079), in the candidates' transaction: source 'import', the run as its ref.
  const factCount = await insertImportFacts(tx, run.organizationId, written);
  const noted = await storeImportNotes(tx, run, written);
  await linkTrial(tx, run.organizationId, options.trialId, insertedIds, merged);
  const events = batchEvents(run.id, options.trialId, sorted.created, insertedIds, merged);
  await recordCreatedActivity(tx, run, options.trialId, insertedIds);
  await insertImportEvents(tx, run, events);
  await recordAudit(tx, {
    organizationId: run.organizationId,
    actorUserId: run.createdByUserId,
    action: 'candidate.import_batch',
    entityType: 'processing_run',
    entityId: run.id,
    changes: {
      rows: [items[0].rowNumber, items.at(-1)!.rowNumber],
      ...sorted.counts,
      consentRecorded: events.filter((entry) => entry.kind === 'consent').length,
      facts: factCount,
      notes: noted.notes,
      noteFacts: noted.facts,
      mergedFields: [...new Set(changed.flatMap((target) => [...target.filled].map((field) => field.split('.')[0])))],
    },
  });
  return sorted.outcomes.map((entry) => ({
    itemId: entry.id,
    outcome: entry.outcome,
    errors: entry.errors,
    candidateId: entry.candidate_id,
    keepInput: entry.keep_input,
  }));
}

type BatchRow = { item: RunItem; prepared: PreparedRow };

/** Who holds each phone and email: the organization's candidates, then the batch's new ones as they are sorted. */
interface Owners {
  phone: Map<string, Target>;
  email: Map<string, Target>;
  /** The existing candidates by id. */
  targets: Map<string, Target>;
}

/** One lookup of the organization's candidates sharing a phone or an email with this batch, as merge targets. */
async function findExistingOwners(tx: Transaction, organizationId: string, rows: BatchRow[]): Promise<Owners> {
  const owners: Owners = { phone: new Map(), email: new Map(), targets: new Map() };
  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const { prepared } of rows) {
    if (!prepared.result.ok) continue;
    if (prepared.result.values.phone) phones.add(prepared.result.values.phone);
    if (prepared.result.values.email) emails.add(prepared.result.values.email);
  }
  if (!phones.size && !emails.size) return owners;
  const existing = await duplicateLookup(tx, organizationId, [...phones], [...emails]);
  const touched = await consentTouched(tx, existing);
  for (const row of existing) {
    const target: Target = { id: row.id, existing: row, values: fromExisting(row), filled: new Set(), rowNumbers: [], facts: [], notes: [] };
    target.consentLocked = touched.has(row.id) || row.doNotContact;
    owners.targets.set(row.id, target);
    if (row.phone) owners.phone.set(row.phone, target);
    if (row.email) owners.email.set(row.email.toLowerCase(), target);
  }
  return owners;
}

/**
 * The candidates whose consent was already recorded or withdrawn (a consent event: STOP, staff, chat, an earlier
 * import): a file does not override it; only a candidate whose consent was never touched takes the file's yes.
 */
async function consentTouched(tx: Transaction, existing: CandidateRow[]): Promise<Set<string>> {
  const touched = new Set<string>();
  if (!existing.length) return touched;
  const result = await tx.execute(sql`select distinct candidate_id from contact_event where kind = 'consent'
      and candidate_id in (select (jsonb_array_elements_text(${JSON.stringify(existing.map((row) => row.id))}::jsonb))::uuid)`);
  for (const row of (result as unknown as { rows: Array<{ candidate_id: string }> }).rows) touched.add(row.candidate_id);
  return touched;
}

type Counts = Record<ImportOutcome, number>;

interface SortedRows {
  created: Target[];
  outcomes: Outcome[];
  counts: Counts;
}

/** Each row's fate, in file order: invalid, a new candidate, skipped as a duplicate, or merged into its twin. */
function sortRows(options: ImportOptions, rows: BatchRow[], owners: Owners): SortedRows {
  const sorted: SortedRows = { created: [], outcomes: [], counts: { created: 0, merged: 0, skipped: 0, invalid: 0, failed: 0 } };
  const record = (outcome: Outcome) => {
    sorted.outcomes.push(outcome);
    sorted.counts[outcome.outcome]++;
  };
  for (const { item, prepared } of rows) {
    const { result } = prepared;
    if (!result.ok) {
      record({ id: item.id, outcome: 'invalid', errors: result.errors, candidate_id: null, keep_input: true });
      continue;
    }
    const values = result.values;
    const byPhone = values.phone ? owners.phone.get(values.phone) : undefined;
    const target = byPhone ?? (values.email ? owners.email.get(values.email) : undefined);
    if (!target) {
      const fresh = newTarget(item, prepared, values, owners);
      sorted.created.push(fresh);
      record({ id: item.id, outcome: 'created', errors: null, candidate_id: fresh.id, keep_input: false });
      continue;
    }
    const field = byPhone ? 'phone' : 'email';
    const where = target.existing ? 'an existing candidate' : `row ${target.rowNumbers[0]} of this file`;
    if (options.duplicates === 'skip') {
      const errors = [{ field, message: `Same ${field} as ${where}; kept as it was` }];
      record({ id: item.id, outcome: 'skipped', errors, candidate_id: target.id, keep_input: false });
      continue;
    }
    mergeRow(target, item, prepared, values, owners);
    record({
      id: item.id,
      outcome: 'merged',
      errors: [{ field, message: `Merged into ${where} with the same ${field}` }],
      candidate_id: target.id,
      keep_input: false,
    });
  }
  return sorted;
}

/** A new candidate from a row; its phone and email now belong to it for the rest of the batch. */
function newTarget(item: RunItem, prepared: PreparedRow, values: Values, owners: Owners): Target {
  const fresh: Target = {
    id: timeOrderedUuid(),
    existing: null,
    values: { ...values },
    filled: new Set(),
    rowNumbers: [item.rowNumber],
    facts: prepared.facts,
    notes: prepared.notes,
  };
  if (values.phone) owners.phone.set(values.phone, fresh);
  if (values.email) owners.email.set(values.email, fresh);
  return fresh;
}

/**
 * Merges a row into its twin: fills the target's empty fields (a phone or email only if no other candidate has
 * it), consent the target never had recorded, new custom fields, and adds the row's facts and notes.
 */
function mergeRow(target: Target, item: RunItem, prepared: PreparedRow, values: Values, owners: Owners) {
  for (const key of FILLABLE) {
    const incoming = values[key];
    if (isEmpty(key, incoming) || !isEmpty(key, target.values[key])) continue;
    if (key === 'phone' && owners.phone.has(incoming as string)) continue;
    if (key === 'email' && owners.email.has(incoming as string)) continue;
    (target.values as Record<string, unknown>)[key] = incoming;
    target.filled.add(key);
    if (key === 'phone') owners.phone.set(incoming as string, target);
    if (key === 'email') owners.email.set(incoming as string, target);
  }
  if (target.existing && !target.consentLocked && values.consentSource && values.consentAt) {
    const sms = values.consentSms === true && !target.existing.consentSms;
    const calls = values.consentCalls === true && !target.existing.consentCalls;
    if ((sms || calls) && !target.consent) {
      target.consent = { sms, calls, source: values.consentSource, at: values.consentAt };
      target.filled.add('consent');
    }
  }
  for (const [key, value] of Object.entries(values.customFields)) {
    if (target.values.customFields[key] === undefined) {
      target.values.customFields[key] = value;
      target.filled.add(`customFields.${key}`);
    }
  }
  target.rowNumbers.push(item.rowNumber);
  if (prepared.facts.length) {
    target.facts.push(...prepared.facts);
    target.filled.add('clinical facts');
  }
  if (prepared.notes.length) {
    target.notes.push(...prepared.notes);
    target.filled.add('clinical notes');
  }
}

/**
 * New candidates: one multi-row insert, with each inserted one's 'created' contact event from the same rows, so
 * the events never travel from Node as a payload of their own (decision 089). Both data-modifying CTEs see the
 * same snapshot; the events' foreign key to candidate is checked at the statement's end. Returns the ids inserted.
 */
async function insertCreated(tx: Transaction, run: ProcessingRunRow, sorted: SortedRows): Promise<Set<string>> {
  const insertedIds = new Set<string>();
  if (!sorted.created.length) return insertedIds;
  const { id: runId, organizationId } = run;
  const payload = sorted.created.map(({ id, values, rowNumbers }) => ({
    id,
    row_numbers: rowNumbers,
    first_name: values.firstName,
    ...profileColumns(values),
    preferred_language: values.preferredLanguage,
    source: values.source,
    consent_sms: values.consentSms === true,
    consent_calls: values.consentCalls === true,
    consent_sms_source: values.consentSms === true ? values.consentSource : null,
    consent_sms_at: values.consentSms === true ? values.consentAt : null,
    consent_calls_source: values.consentCalls === true ? values.consentSource : null,
    consent_calls_at: values.consentCalls === true ? values.consentAt : null,
  }));
  const inserted = await tx.execute(sql`
      with v as materialized (
        select * from jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as v(id uuid, row_numbers jsonb, first_name text, last_name text,
          phone text, email text, date_of_birth date, sex text, address_line text, city text, region text, postal_code text, country text,
          time_zone text, preferred_language text, source text, custom_fields jsonb, consent_sms boolean, consent_calls boolean,
          consent_sms_source text, consent_sms_at timestamptz, consent_calls_source text, consent_calls_at timestamptz)
      ), inserted as (
        insert into candidate (id, organization_id, first_name, last_name, phone, email, date_of_birth, sex, address_line, city, region,
          postal_code, country, time_zone, preferred_language, source, custom_fields, import_run_id,
          consent_sms, consent_calls, consent_sms_source, consent_sms_at, consent_calls_source, consent_calls_at)
        select v.id, ${organizationId}::uuid, v.first_name, coalesce(v.last_name, ''), v.phone, v.email, v.date_of_birth, v.sex, v.address_line,
          v.city, v.region, v.postal_code, v.country, v.time_zone, coalesce(v.preferred_language, 'en'), coalesce(v.source, 'import'),
          coalesce(v.custom_fields, '{}'::jsonb), ${runId}::uuid,
          v.consent_sms, v.consent_calls, v.consent_sms_source, v.consent_sms_at, v.consent_calls_source, v.consent_calls_at
        from v
        on conflict do nothing
        returning id
      ), created_events as (
        insert into contact_event (organization_id, candidate_id, kind, summary, details, reference_id, actor_user_id, actor_label, occurred_at)
        select ${organizationId}::uuid, inserted.id, 'created', ${`Imported (${run.label})`}, jsonb_build_object('runId', ${runId}::text, 'rowNumbers', v.row_numbers),
          ${runId}, ${run.createdByUserId}, 'Import', clock_timestamp()
        from inserted join v on v.id = inserted.id
        order by (v.row_numbers->>0)::int
      )
      select id from inserted`);
  for (const row of (inserted as unknown as { rows: Array<{ id: string }> }).rows) insertedIds.add(row.id);
  failLostRows(sorted, new Set(sorted.created.filter((target) => !insertedIds.has(target.id)).map((target) => target.id)));
  return insertedIds;
}

/**
 * A conflict on insert means another request added the same phone or email since the lookup: the rows of those
 * candidates fail (with a message, their input kept) instead of aborting the batch.
 */
function failLostRows(sorted: SortedRows, lost: Set<string>) {
  if (!lost.size) return;
  for (const outcome of sorted.outcomes) {
    if (!outcome.candidate_id || !lost.has(outcome.candidate_id)) continue;
    if (outcome.outcome !== 'invalid' && outcome.outcome !== 'failed') sorted.counts[outcome.outcome]--;
    Object.assign(outcome, {
      outcome: 'failed',
      errors: [{ field: 'phone', message: 'A candidate with the same phone or email was added during the import; import this row again' }],
      candidate_id: null,
      keep_input: true,
    });
    sorted.counts.failed++;
  }
}

/** The merged candidates' filled fields in one update; consent only ever turns on here (never recorded or withdrawn before). */
async function updateMerged(tx: Transaction, changed: Target[]) {
  if (!changed.length) return;
  const payload = changed.map(({ id, values, consent }) => ({
    id,
    ...profileColumns(values),
    consent_sms: consent?.sms ?? false,
    consent_calls: consent?.calls ?? false,
    consent_source: consent?.source ?? null,
    consent_at: consent?.at ?? null,
  }));
  await tx.execute(sql`
      update candidate c set last_name = v.last_name, phone = v.phone, email = v.email, date_of_birth = v.date_of_birth, sex = v.sex,
        address_line = v.address_line, city = v.city, region = v.region, postal_code = v.postal_code, country = v.country,
        time_zone = v.time_zone, custom_fields = v.custom_fields, updated_at = now(),
        consent_sms = c.consent_sms or v.consent_sms,
        consent_sms_source = case when v.consent_sms then v.consent_source else c.consent_sms_source end,
        consent_sms_at = case when v.consent_sms then v.consent_at else c.consent_sms_at end,
        consent_calls = c.consent_calls or v.consent_calls,
        consent_calls_source = case when v.consent_calls then v.consent_source else c.consent_calls_source end,
        consent_calls_at = case when v.consent_calls then v.consent_at else c.consent_calls_at end
      from jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as v(id uuid, last_name text, phone text, email text, date_of_birth date,
        sex text, address_line text, city text, region text, postal_code text, country text, time_zone text, custom_fields jsonb,
        consent_sms boolean, consent_calls boolean, consent_source text, consent_at timestamptz)
      where c.id = v.id`);
}

/** Links the batch's new and merged candidates to the import's trial; sequences listening for it take the new ones on. */
async function linkTrial(tx: Transaction, organizationId: string, trialId: string | null, insertedIds: Set<string>, merged: Target[]) {
  const linked = [...insertedIds, ...merged.map((target) => target.id)];
  if (!trialId || !linked.length) return;
  await tx.execute(sql`
      insert into candidate_trial (candidate_id, trial_id, organization_id)
      select v.id::uuid, ${trialId}::uuid, ${organizationId}::uuid
      from jsonb_array_elements_text(${JSON.stringify(linked)}::jsonb) as v(id)
      where exists (select 1 from trial where trial.id = ${trialId}::uuid)
      on conflict do nothing`);
  await funnelSignals.triggered(tx, organizationId, 'candidate_imported', [...insertedIds], [trialId]);
}

type ImportEvent = { candidate_id: string; kind: string; summary: string; details: Record<string, unknown> };

/** A documented consent: its event says the source and date, never personal data. */
function consentEvent(runId: string, candidateId: string, consent: { sms: boolean; calls: boolean; source: string; at: string }): ImportEvent {
  return {
    candidate_id: candidateId,
    kind: 'consent',
    summary: `Consent: ${consentParts(consent)} (${consent.source}, ${consent.at.slice(0, 10)})`,
    details: {
      ...(consent.sms ? { sms: { from: false, to: true } } : {}),
      ...(consent.calls ? { calls: { from: false, to: true } } : {}),
      source: consent.source,
      consentAt: consent.at,
      runId,
    },
  };
}

/** The batch's contact events besides 'created' (written with the candidates): merges, and one consent event per candidate the file gave consent for. */
function batchEvents(runId: string, trialId: string | null, created: Target[], insertedIds: Set<string>, merged: Target[]): ImportEvent[] {
  const mergeEvents = merged
    .filter((target) => target.filled.size > 0 || trialId)
    .map((target) => ({
      candidate_id: target.id,
      kind: 'import',
      summary: target.filled.size ? `Import merged: filled ${[...target.filled].join(', ')}` : 'Import matched this candidate; nothing new',
      details: { runId, rowNumbers: target.rowNumbers, fields: [...target.filled], ...(trialId ? { trialId } : {}) },
    }));
  const createdConsents = created
    .filter((target) => insertedIds.has(target.id) && (target.values.consentSms === true || target.values.consentCalls === true))
    .map((target) =>
      consentEvent(runId, target.id, {
        sms: target.values.consentSms === true,
        calls: target.values.consentCalls === true,
        source: target.values.consentSource!,
        at: target.values.consentAt!,
      }),
    );
  const mergedConsents = merged.filter((target) => target.consent).map((target) => consentEvent(runId, target.id, target.consent!));
  return [...mergeEvents, ...createdConsents, ...mergedConsents];
}

async function recordCreatedActivity(tx: Transaction, run: ProcessingRunRow, trialId: string | null, insertedIds: Set<string>) {
  if (!insertedIds.size) return;
  await recordActivity(
    tx,
    [...insertedIds].map((candidateId) => ({
      organizationId: run.organizationId,
      trialId,
      candidateId,
      kind: 'candidate_created' as const,
      source: 'import' as const,
      referenceId: run.id,
    })),
  );
}

async function insertImportEvents(tx: Transaction, run: ProcessingRunRow, events: ImportEvent[]) {
  if (!events.length) return;
  await tx.execute(sql`
      insert into contact_event (organization_id, candidate_id, kind, summary, details, reference_id, actor_user_id, actor_label, occurred_at)
      select ${run.organizationId}::uuid, v.candidate_id, v.kind, v.summary, v.details, ${run.id}, ${run.createdByUserId}, 'Import', clock_timestamp()
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as v(candidate_id uuid, kind text, summary text, details jsonb)`);
}

/** The targets' clinical facts in one statement; returns how many were stored. */
async function insertImportFacts(tx: Transaction, organizationId: string, targets: Target[]): Promise<number> {
  const payload = targets.flatMap((target) =>
    target.facts.map((fact) => ({
      candidate_id: target.id,
      kind: fact.kind,
      concept_id: fact.conceptId,
      name: fact.name,
      status: fact.status,
      value: fact.value,
      unit: fact.unit,
      value_text: fact.valueText,
      observed_on: fact.observedOn,
      source_ref: fact.sourceRef,
      source_text: fact.sourceText,
      code: fact.code,
    })),
  );
  if (!payload.length) return 0;
  await tx.execute(sql`
      insert into candidate_fact (organization_id, candidate_id, kind, concept_id, name, status, value, unit, value_text, observed_on, source, source_ref,
        source_text, code)
      select ${organizationId}::uuid, v.candidate_id, v.kind, v.concept_id, v.name, v.status, v.value, v.unit, v.value_text, v.observed_on, 'import',
        v.source_ref, v.source_text, v.code
      from jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as v(candidate_id uuid, kind text, concept_id text, name text, status text,
        value double precision, unit text, value_text text, observed_on date, source_ref text, source_text text, code text)`);
  return payload.length;
}
