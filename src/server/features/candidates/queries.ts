import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { skipsContacted } from '../../../contract/candidate-status';
import type { Database } from '../../db/client';
import { normalizePhone, type CandidateStatus, type ContactEventKind } from '../../../contract/candidates';
import type { ActivitySource } from '../../../contract/activity';
import { candidateActivitySource, recordActivity, type ActivityEntry } from '../../activity';
import { rowsOf, type Executor, type RowSecurityScope } from '../../db/scoped';
import { escapeLike, uuidArray } from '../../db/postgres';
import { inlineValues, placeholders, prebuild, PrebuiltCache, runPrebuilt, runPrebuiltInOneMessage, type Binder, type Prebuilt } from '../../db/prebuilt';
import { candidate, candidateCount, candidateTrial, contactEvent, trial, user } from '../../db/schema';
import { forgetCandidateInputs } from '../processing-runs/runner';
import { isUuid } from '../../../contract/ids';
import { insertInBatches } from '../../db/batched-insert';

/** Builds statements' text only (prebuilt statements, decision 114): no database handle. */
const queryBuilder = new QueryBuilder();

export type CandidateRow = typeof candidate.$inferSelect;
export type NewCandidateRow = typeof candidate.$inferInsert;

/** The list row's columns: what `CandidateListItem` (the contract) shows, nothing else (decision 114). */
const listColumns = {
  id: candidate.id,
  organizationId: candidate.organizationId,
  firstName: candidate.firstName,
  lastName: candidate.lastName,
  phone: candidate.phone,
  // The phone's display form is national for a number of the person's own country (phone-display.ts).
  country: candidate.country,
  email: candidate.email,
  status: candidate.status,
  source: candidate.source,
  consentSms: candidate.consentSms,
  consentCalls: candidate.consentCalls,
  doNotContact: candidate.doNotContact,
  createdAt: candidate.createdAt,
  updatedAt: candidate.updatedAt,
};
export type CandidateListRow = Omit<Pick<CandidateRow, keyof typeof listColumns>, 'createdAt' | 'updatedAt'> & {
  /** ISO (decision 114). */
  createdAt: string;
  updatedAt: string;
  cursorKey: string;
  trialIds: string[];
  /** The filter's kept total, on every row of a page whose filter has one (`totalIsKept`, decision 115). */
  listTotal?: number;
};

/**
 * A candidate's trial ids in linked order (as trialIdsByCandidate orders them), inside the statement reading the
 * candidate: a second statement cost more than this index lookup per row (decisions 093, 111). Comma-joined text.
 */
const trialIdsOfRow = () =>
  sql<string | null>`(select string_agg(ct.trial_id::text, ',' order by ct.linked_at) from ${candidateTrial} ct where ct.candidate_id = ${candidate.id})`;
const splitTrialIds = (text: string | null) => (text ? text.split(',') : []);

/** One candidate and their trial ids in one statement (a candidate's page: one read, not two; decision 111). */
export async function findCandidateWithTrials(executor: Executor, id: string): Promise<{ row: CandidateRow; trialIds: string[] } | undefined> {
  if (!isUuid(id)) return undefined;
  return withTrialIds((await runPrebuilt(executor, byIdStatement(), { id }))[0]);
}

/**
 * The same read under the request's scope as one message with its transaction (decision 114); `null` when it cannot go
 * that way (the caller reads in a transaction of its own).
 */
export async function findCandidateWithTrialsInOneMessage(
  db: Database,
  scope: RowSecurityScope,
  id: string,
): Promise<{ row: CandidateRow; trialIds: string[] } | undefined | null> {
  if (!isUuid(id)) return undefined;
  const rows = await runPrebuiltInOneMessage(db, scope, byIdStatement(), { id });
  return rows ? withTrialIds(rows[0]) : null;
}

const withTrialIds = (found: (CandidateRow & { trialIds: string | null }) | undefined) => {
  if (!found) return undefined;
  const { trialIds, ...row } = found;
  return { row, trialIds: splitTrialIds(trialIds) };
};
const byIdFields = { ...getTableColumns(candidate), trialIds: trialIdsOfRow() };
let byIdPrebuilt: Prebuilt<CandidateRow & { trialIds: string | null }> | undefined;
/** Built on first use (decision 114): the same text for every candidate. */
const byIdStatement = () =>
  (byIdPrebuilt ??= prebuild<typeof byIdFields, CandidateRow & { trialIds: string | null }>(byIdFields, () =>
    queryBuilder
      .select(byIdFields)
      .from(candidate)
      .where(eq(candidate.id, sql.placeholder('id'))),
  ));

export async function findCandidate(executor: Executor, id: string, forUpdate = false): Promise<CandidateRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = executor.select().from(candidate).where(eq(candidate.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The organization's candidate with this phone (E.164): the person behind an inbound SMS, call or chat. */
export async function findCandidateByPhone(executor: Executor, organizationId: string, phone: string): Promise<CandidateRow | undefined> {
  const [row] = await executor
    .select()
    .from(candidate)
    .where(and(eq(candidate.organizationId, organizationId), eq(candidate.phone, phone)));
  return row;
}

/** Every candidate of the organization with this phone, locked (a STOP from the number binds them all). */
export async function findCandidatesByPhone(executor: Executor, organizationId: string, phone: string): Promise<CandidateRow[]> {
  return executor
    .select()
    .from(candidate)
    .where(and(eq(candidate.organizationId, organizationId), eq(candidate.phone, phone)))
    .orderBy(desc(candidate.updatedAt))
    .for('update');
}

export async function findCandidates(executor: Executor, ids: string[], forUpdate = false): Promise<CandidateRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const query = executor.select().from(candidate).where(inArray(candidate.id, valid));
  return forUpdate ? query.for('update') : query;
}

export async function trialIdsByCandidate(executor: Executor, candidateIds: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (candidateIds.length === 0) return result;
  const rows = await executor
    .select({ candidateId: candidateTrial.candidateId, trialId: candidateTrial.trialId })
    .from(candidateTrial)
    // One array parameter rather than one per id: PGlite describes and serializes each parameter on its one thread.
    .where(sql`${candidateTrial.candidateId} = any(${uuidArray(candidateIds)})`)
    .orderBy(asc(candidateTrial.linkedAt));
  for (const row of rows) result.set(row.candidateId, [...(result.get(row.candidateId) ?? []), row.trialId]);
  return result;
}

/** A trial of this organization, or undefined (another organization's trial does not exist here). */
export async function findTrialInOrganization(executor: Executor, trialId: string, organizationId: string) {
  if (!isUuid(trialId)) return undefined;
  const [row] = await executor
    .select({ id: trial.id, status: trial.status })
    .from(trial)
    .where(and(eq(trial.id, trialId), eq(trial.organizationId, organizationId)));
  return row;
}

export async function insertCandidate(executor: Executor, values: NewCandidateRow): Promise<CandidateRow> {
  const [row] = await executor.insert(candidate).values(values).returning();
  return row;
}

export async function updateCandidateRow(executor: Executor, id: string, values: Partial<NewCandidateRow>): Promise<CandidateRow> {
  const [row] = await executor
    .update(candidate)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(candidate.id, id))
    .returning();
  return row;
}

export async function deleteCandidateRows(executor: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  // Import rows keep their input for invalid rows only, but clear anything linked to be sure nothing personal remains.
  await forgetCandidateInputs(executor, ids);
  await executor.delete(candidate).where(inArray(candidate.id, ids));
}

export async function linkTrial(executor: Executor, organizationId: string, trialId: string, candidateIds: string[]): Promise<void> {
  if (candidateIds.length === 0) return;
  await insertInBatches(
    candidateTrial,
    candidateIds.map((candidateId) => ({ candidateId, trialId, organizationId })),
    (batch) => executor.insert(candidateTrial).values(batch).onConflictDoNothing(),
  );
}

export async function unlinkTrial(executor: Executor, trialId: string, candidateIds: string[]): Promise<void> {
  if (candidateIds.length === 0) return;
  await executor.delete(candidateTrial).where(and(eq(candidateTrial.trialId, trialId), inArray(candidateTrial.candidateId, candidateIds)));
}

/** The label a contact event shows for a person: their name, or null when unknown. */
export async function userName(executor: Executor, userId: string): Promise<string | null> {
  const [row] = await executor.select({ name: user.name }).from(user).where(eq(user.id, userId));
  return row?.name ?? null;
}

export interface NewContactEvent {
  organizationId: string;
  candidateId: string;
  kind: ContactEventKind;
  summary: string;
  details?: Record<string, unknown> | null;
  referenceId?: string | null;
  actorUserId?: string | null;
  actorLabel?: string | null;
  occurredAt?: Date;
  /** The channel the touch came through, for the activity model (default manual). Not stored on the event. */
  channel?: ActivitySource;
}

let lastEventAt = 0;
/** Strictly increasing times, so events written in one transaction keep their order in the feed. */
export function eventTime(): Date {
  lastEventAt = Math.max(Date.now(), lastEventAt + 1);
  return new Date(lastEventAt);
}

export async function insertContactEvents(executor: Executor, events: NewContactEvent[]): Promise<void> {
  if (events.length === 0) return;
  const stored = events.map(({ channel: _channel, ...event }) => ({ ...event, occurredAt: event.occurredAt ?? eventTime() }));
  await insertInBatches(contactEvent, stored, (batch) => executor.insert(contactEvent).values(batch));
  await recordFunnelActivity(executor, events, stored);
}

/**
 * The funnel steps a contact event records, for the activity model (decision 031): a candidate added, a status
 * change, consent withdrawn. Every such change writes its contact event through here, so this is the one place
 * they become activity, in the same transaction. Each counts on the candidate's first trial.
 */
async function recordFunnelActivity(executor: Executor, events: NewContactEvent[], stored: Array<{ occurredAt: Date }>): Promise<void> {
  const entries: Array<ActivityEntry & { candidateId: string }> = [];
  events.forEach((event, index) => {
    const details = event.details ?? {};
    const base = {
      organizationId: event.organizationId,
      candidateId: event.candidateId,
      occurredAt: stored[index].occurredAt,
      source: event.channel ?? ('manual' as const),
    };
    if (event.kind === 'created' && typeof details.source === 'string')
      entries.push({ ...base, kind: 'candidate_created', source: event.channel ?? candidateActivitySource(details.source) });
    if (event.kind === 'status_change' && typeof details.to === 'string') {
      // Straight from new to a later status: counted as contacted too, so every "Contacted" agrees (decision 159).
      if (skipsContacted(details.from, details.to)) entries.push({ ...base, kind: 'status_changed', label: 'contacted' });
      entries.push({ ...base, kind: 'status_changed', label: details.to });
    }
    if (event.kind === 'consent') {
      const withdrawn = (key: string) =>
        (details[key] as { from?: unknown; to?: unknown } | undefined)?.to === false && (details[key] as { from?: unknown }).from === true;
      const label = withdrawn('sms') && withdrawn('calls') ? 'all' : withdrawn('sms') ? 'sms' : withdrawn('calls') ? 'calls' : null;
      if (label) entries.push({ ...base, kind: 'opted_out', label });
    }
  });
  if (!entries.length) return;
  const trials = await trialIdsByCandidate(executor, [...new Set(entries.map((entry) => entry.candidateId))]);
  await recordActivity(
    executor,
    entries.map((entry) => ({ ...entry, trialId: trials.get(entry.candidateId)?.[0] ?? null })),
  );
}

// ---- the list ----

export interface ListFilter {
  organizationIds: string[];
  search?: string;
  statuses?: CandidateStatus[];
  trialId?: string;
}

export type SortBy = 'createdAt' | 'updatedAt' | 'lastName' | 'status';

const utc = (column: SQL | typeof candidate.createdAt | typeof candidate.updatedAt) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The sort keys of each order (the id last, so the order is total) and how a cursor value is cast back. */
const SORT_KEYS: Record<SortBy, Array<{ expression: SQL; cursorText: SQL; cast: string }>> = {
  createdAt: [{ expression: sql`${candidate.createdAt}`, cursorText: utc(candidate.createdAt), cast: 'timestamptz' }],
  updatedAt: [{ expression: sql`${candidate.updatedAt}`, cursorText: utc(candidate.updatedAt), cast: 'timestamptz' }],
  lastName: [
    { expression: sql`lower(${candidate.lastName})`, cursorText: sql`lower(${candidate.lastName})`, cast: 'text' },
    { expression: sql`lower(${candidate.firstName})`, cursorText: sql`lower(${candidate.firstName})`, cast: 'text' },
  ],
  status: [
    { expression: sql`${candidate.status}`, cursorText: sql`${candidate.status}`, cast: 'text' },
    { expression: sql`${candidate.createdAt}`, cursorText: utc(candidate.createdAt), cast: 'timestamptz' },
  ],
};

/** A pg_trgm index needs a trigram: shorter search terms scan the organization's rows (decision 109). */
const TRIGRAM = 3;
/**
 * Up to this many matches the trigram indexes give the ids and the list reads those rows by primary key; a term
 * matching more (a common name, "example.com") is a plain scan again, which finds a page of such a term within a few
 * thousand rows, whereas carrying every id cost more than the scan (decision 109).
 */
export const TRIGRAM_MAX_IDS = 2000;

/** The search term, and what it is: a whole phone number (E.164), an email, or a part of a name, email or phone. */
export function searchOf(filter: ListFilter) {
  const term = filter.search?.trim();
  const asPhone = term && /^[\d\s()+.-]{7,}$/.test(term) ? normalizePhone(term) : null;
  const asEmail = term && /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(term) ? term.toLowerCase() : null;
  return { term, asPhone, asEmail, readsIds: Boolean(term && !asPhone && !asEmail && term.length >= TRIGRAM) };
}

/**
 * The filter's organizations and statuses as conditions on `table` (the candidates, or their kept counts). Both bind
 * the same names, so the page's statement and its kept total (decision 115) share one set of placeholders.
 */
function organizationAndStatusConditions(
  table: {
    organizationId: typeof candidate.organizationId | typeof candidateCount.organizationId;
    status: typeof candidate.status | typeof candidateCount.status;
  },
  filter: ListFilter,
  bind: Binder['bind'],
): SQL[] {
  const conditions: SQL[] = [
    inArray(
      table.organizationId,
      filter.organizationIds.map((id, i) => bind(`org${i}`, id)),
    ),
  ];
  if (filter.statuses?.length) {
    conditions.push(
      inArray(
        table.status,
        filter.statuses.map((status, i) => bind(`status${i}`, status)),
      ),
    );
  }
  return conditions;
}

/**
 * The filter's conditions. Every value goes through `values` (decision 114): as a placeholder of a prebuilt statement
 * (the list's page), or as an ordinary parameter; `values.shape` records what changes the statement's text.
 */
async function filterConditions(executor: Executor, filter: ListFilter, values: Binder = inlineValues()): Promise<SQL[]> {
  const { bind, shape } = values;
  const conditions = organizationAndStatusConditions(candidate, filter, bind);
  shape.push(`orgs:${filter.organizationIds.length}`);
  if (filter.statuses?.length) shape.push(`statuses:${filter.statuses.length}`);
  if (filter.trialId) {
    conditions.push(
      sql`exists (select 1 from ${candidateTrial} where ${candidateTrial.candidateId} = ${candidate.id} and ${candidateTrial.trialId} = ${bind('trialId', filter.trialId)})`,
    );
    shape.push('trial');
  }
  const { term, asPhone, asEmail } = searchOf(filter);
  if (asPhone) {
    // A whole phone number or email: an exact match on its unique index.
    conditions.push(eq(candidate.phone, bind('phone', asPhone)));
    shape.push('phone');
  } else if (asEmail) {
    // Emails are stored lowercased: a plain equality uses the unique (organization_id, email) index even
    // under row-level security (see the schema's note on leakproof operators).
    conditions.push(eq(candidate.email, bind('email', asEmail)));
    shape.push('email');
  } else if (term) {
    const pattern = `%${escapeLike(term.toLowerCase())}%`;
    const emailPattern = /\s/.test(term) ? null : pattern;
    const digits = term.replace(/\D/g, '');
    const phonePattern = digits.length >= 3 && /^[\d\s()+.-]+$/.test(term) ? `%${digits}%` : null;
    const plain = () => {
      const matches: SQL[] = [sql`lower(${candidate.firstName} || ' ' || ${candidate.lastName}) like ${bind('pattern', pattern)}`];
      if (emailPattern) matches.push(sql`lower(${candidate.email}) like ${bind('emailPattern', emailPattern)}`);
      if (phonePattern) matches.push(sql`${candidate.phone} like ${bind('phonePattern', phonePattern)}`);
      shape.push(`like:${emailPattern ? 'e' : ''}${phonePattern ? 'p' : ''}`);
      return sql`(${sql.join(matches, sql` or `)})`;
    };
    if (term.length < TRIGRAM) {
      conditions.push(plain());
    } else {
      // Under row security LIKE cannot use an index (not leakproof): the ids come from the trigram indexes through a
      // function that applies the policy's scope itself (migration 0031); uuid equality is leakproof.
      const ids = await matchingIdsOnce(executor, filter, () => matchingCandidateIds(executor, filter.organizationIds, pattern, emailPattern, phonePattern));
      if (ids.length <= TRIGRAM_MAX_IDS) {
        // One uuid[] parameter however many ids (uuidArray).
        conditions.push(sql`${candidate.id} = any(${bind('ids', `{${ids.join(',')}}`)}::uuid[])`);
        shape.push('ids');
      } else conditions.push(plain());
    }
  }
  return conditions;
}

/**
 * A list request reads its page and then its count with one filter in one transaction: the trigram ids are read once
 * for both (per transaction and filter object, so another transaction never sees them).
 */
const idsReadFor = new WeakMap<Executor, WeakMap<ListFilter, Promise<string[]>>>();
function matchingIdsOnce(executor: Executor, filter: ListFilter, read: () => Promise<string[]>): Promise<string[]> {
  let byFilter = idsReadFor.get(executor);
  if (!byFilter) idsReadFor.set(executor, (byFilter = new WeakMap()));
  let ids = byFilter.get(filter);
  if (!ids) byFilter.set(filter, (ids = read()));
  return ids;
}

/**
 * The count of a search alone (no status or trial filter) whose trigram ids this transaction has read for the page:
 * the page reads exactly those ids, so their number is the count and no count statement is sent. `undefined` when
 * the ids were not read here or were too many to use (the page then scanned).
 */
export async function countOfMatchingIds(executor: Executor, filter: ListFilter): Promise<number | undefined> {
  if (filter.statuses?.length || filter.trialId) return undefined;
  const read = idsReadFor.get(executor)?.get(filter);
  if (!read) return undefined;
  const ids = await read;
  return ids.length <= TRIGRAM_MAX_IDS ? ids.length : undefined;
}

/** Up to TRIGRAM_MAX_IDS + 1 ids of the scope's candidates whose name, email or phone matches (decision 109). */
async function matchingCandidateIds(
  executor: Executor,
  organizationIds: string[],
  namePattern: string,
  emailPattern: string | null,
  phonePattern: string | null,
): Promise<string[]> {
  const result = await executor.execute(
    sql`select array(select candidate_ids_matching(${uuidArray(organizationIds)}, ${namePattern}::text, ${emailPattern}::text, ${phonePattern}::text) limit ${TRIGRAM_MAX_IDS + 1})::text as ids`,
  );
  const [row] = rowsOf<{ ids: string }>(result);
  return row.ids === '{}' ? [] : row.ids.slice(1, -1).split(',');
}

/**
 * A filter by organization and status alone (no search, no trial): its total is kept per organization and status in
 * `candidate_count` by triggers (decision 115), so it is read, never counted, at any organization size.
 */
export const totalIsKept = (filter: ListFilter) => !filter.search?.trim() && !filter.trialId;

/** The kept total of such a filter, as a scalar subquery (the page's statement carries it as a column). */
function keptTotal(filter: ListFilter, values: Binder): SQL<number> {
  const conditions = organizationAndStatusConditions(candidateCount, filter, values.bind);
  return sql<number>`(select coalesce(sum(${candidateCount.change}), 0)::int from ${candidateCount} where ${and(...conditions)})`;
}

/** The kept total of a filter by organization and status alone (`totalIsKept`), as its own statement. */
export async function keptCandidateTotal(executor: Executor, filter: ListFilter): Promise<number> {
  if (filter.organizationIds.length === 0) return 0;
  const [row] = rowsOf<{ total: number | string }>(await executor.execute(sql`select ${keptTotal(filter, inlineValues())} as total`));
  return Number(row.total);
}

/** Matching candidates, counted up to `limit` + 1 (so a caller can tell "more than limit"). */
export async function countCandidates(executor: Executor, filter: ListFilter, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
  if (filter.organizationIds.length === 0) return 0;
  if (limit === Number.MAX_SAFE_INTEGER) {
    const [row] = await executor
      .select({ total: sql<number>`count(*)::int` })
      .from(candidate)
      .where(and(...(await filterConditions(executor, filter))));
    return Number(row.total);
  }
  const capped = executor
    .select({ one: sql`1` })
    .from(candidate)
    .where(and(...(await filterConditions(executor, filter))))
    .limit(limit + 1)
    .as('capped');
  const [row] = await executor.select({ total: sql<number>`count(*)::int` }).from(capped);
  return Number(row.total);
}

/** The page's fields (the list row's columns, its cursor's sort key values and its trials), by sort. */
const pageFields = (sortBy: SortBy) => ({
  ...listColumns,
  // As the API writes them (ISO, milliseconds): no Date made and formatted again per row (decision 114).
  createdAt: sql<string>`to_char(${candidate.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  updatedAt: sql<string>`to_char(${candidate.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  cursorKey: sql<string>`json_build_array(${sql.join(
    SORT_KEYS[sortBy].map((key) => key.cursorText),
    sql`, `,
  )})::text`,
  // The page's trials in the page's own statement.
  trialIds: trialIdsOfRow(),
});
type PageRow = Omit<CandidateListRow, 'trialIds'> & { trialIds: string | null };

/** The page's statement, by its shape (sort, filters, number of organizations, a cursor or not): built once each. */
const pageStatements = new PrebuiltCache<PageRow>();

type PageOrder = { sortBy: SortBy; sortDir: 'asc' | 'desc'; limit: number; after?: { keys: string[]; id: string } };

/** The page's statement for this filter and order (built once per shape) and its values. */
async function pageStatement(executor: Executor | null, filter: ListFilter, order: PageOrder) {
  const keys = SORT_KEYS[order.sortBy];
  const values = placeholders();
  // Without an executor the filter must need no statement of its own (no trigram ids; listCandidatePageInOneMessage).
  const conditions = await filterConditions(executor as Executor, filter, values);
  if (order.after) {
    const left = sql.join([...keys.map((key) => key.expression), sql`${candidate.id}`], sql`, `);
    const right = sql.join(
      [
        ...keys.map((key, i) => sql`${values.bind(`after${i}`, order.after!.keys[i])}::${sql.raw(key.cast)}`),
        sql`${values.bind('afterId', order.after.id)}::uuid`,
      ],
      sql`, `,
    );
    conditions.push(order.sortDir === 'desc' ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`);
  }
  const limit = values.bind('limit', order.limit);
  const shape = [order.sortBy, order.sortDir, order.after ? 'after' : 'first', ...values.shape].join('|');
  const statement = pageStatements.get(shape, () => {
    const direction = sql.raw(order.sortDir);
    const orderBy = [...keys.map((key) => sql`${key.expression} ${direction}`), sql`${candidate.id} ${direction}`];
    // A filter whose total is kept reads it in the page's own statement (decision 115), once: an uncorrelated subquery.
    const fields = totalIsKept(filter) ? { ...pageFields(order.sortBy), listTotal: keptTotal(filter, values) } : pageFields(order.sortBy);
    return prebuild<typeof fields, PageRow>(fields, () =>
      queryBuilder
        .select(fields)
        .from(candidate)
        .where(and(...conditions))
        .orderBy(...orderBy)
        .limit(limit as unknown as number),
    );
  });
  return { statement, values: values.values };
}

const toPageRows = (rows: PageRow[]): CandidateListRow[] => rows.map((row) => ({ ...row, trialIds: splitTrialIds(row.trialIds) }));

/**
 * One page in keyset order: `after` is the previous page's last row (its sort key values and id). A prebuilt
 * statement (decision 114), run in the caller's transaction like any of its queries.
 */
export async function listCandidatePage(executor: Executor, filter: ListFilter, order: PageOrder): Promise<CandidateListRow[]> {
  if (filter.organizationIds.length === 0) return [];
  const { statement, values } = await pageStatement(executor, filter, order);
  return toPageRows(await runPrebuilt(executor, statement, values));
}

/**
 * The page under the request's scope, its transaction in one message (decision 114): when the filter needs no
 * statement before the page (not a substring search, whose ids the trigram indexes give first) and every value is
 * safe as a literal (ids, a whole phone number, statuses, a limit; not an email, a name or a cursor's text). `null`
 * otherwise: the caller reads in a transaction of its own.
 */
export async function listCandidatePageInOneMessage(
  db: Database,
  scope: RowSecurityScope,
  filter: ListFilter,
  order: PageOrder,
): Promise<CandidateListRow[] | null> {
  if (filter.organizationIds.length === 0) return [];
  if (searchOf(filter).readsIds || order.after) return null;
  const { statement, values } = await pageStatement(null, filter, order);
  const rows = await runPrebuiltInOneMessage(db, scope, statement, values);
  return rows ? toPageRows(rows) : null;
}

/** Every candidate matching the list's filters (no paging), locked for a bulk change. */
export async function findCandidatesMatching(executor: Executor, filter: ListFilter): Promise<CandidateRow[]> {
  if (filter.organizationIds.length === 0) return [];
  return executor
    .select()
    .from(candidate)
    .where(and(...(await filterConditions(executor, filter))))
    .orderBy(asc(candidate.createdAt), asc(candidate.id))
    .for('update');
}
