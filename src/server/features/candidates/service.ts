import type { ActivitySource } from '../../../contract/activity';
import { statusChangeSummary } from '../../../contract/words';
import type {
  BulkConsentInput,
  Candidate,
  CandidateListItem,
  CandidateStatus,
  CreateCandidateInput,
  IndexedPrescreenNote,
  ListCandidatesQuery,
  UpdateCandidateInput,
} from '../../../contract/candidates';
import { CANDIDATE_COUNT_LIMIT, DEFAULT_DO_NOT_CONTACT_REASON } from '../../../contract/candidates';
import { deriveTimeZone, type ZoneHints } from '../../../contract/zone-derivation';
import { auditLog } from '../../db/schema';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { exitOnFunnelChange } from '../sequences/exits';
import {
  countCandidates,
  deleteCandidateRows,
  findCandidate,
  findCandidates,
  findCandidatesMatching,
  findTrialInOrganization,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  listCandidatePage,
  trialIdsByCandidate,
  unlinkTrial,
  updateCandidateRow,
  userName,
  type CandidateListRow,
  type CandidateRow,
  type NewCandidateRow,
  type NewContactEvent,
} from './queries';

// ---- mapping ----

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function baseFields(row: Omit<CandidateRow, 'prescreenNotes'>, trialIds: string[]) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    dateOfBirth: row.dateOfBirth,
    sex: row.sex,
    addressLine: row.addressLine,
    city: row.city,
    region: row.region,
    postalCode: row.postalCode,
    country: row.country,
    timeZone: row.timeZone,
    preferredLanguage: row.preferredLanguage,
    source: row.source,
    customFields: row.customFields ?? {},
    consent: {
      sms: row.consentSms,
      calls: row.consentCalls,
      doNotContact: row.doNotContact,
      doNotContactAt: iso(row.doNotContactAt),
      doNotContactReason: row.doNotContactReason,
      smsSource: row.consentSms ? row.consentSmsSource : null,
      smsAt: row.consentSms ? iso(row.consentSmsAt) : null,
      callsSource: row.consentCalls ? row.consentCallsSource : null,
      callsAt: row.consentCalls ? iso(row.consentCallsAt) : null,
    },
    status: row.status,
    trialIds,
    importRunId: row.importRunId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const indexedNotes = (row: CandidateRow): IndexedPrescreenNote[] => (row.prescreenNotes ?? []).map((note, index) => ({ ...note, index }));

export function toCandidate(row: CandidateRow, trialIds: string[]): Candidate {
  return { ...baseFields(row, trialIds), prescreenNotes: indexedNotes(row) };
}

function toListItem(row: CandidateListRow, trialIds: string[]): CandidateListItem {
  return { ...baseFields(row, trialIds), noteCount: Number(row.noteCount) };
}

async function withTrials(tx: Transaction, row: CandidateRow): Promise<Candidate> {
  const trials = await trialIdsByCandidate(tx, [row.id]);
  return toCandidate(row, trials.get(row.id) ?? []);
}

// ---- scope helpers ----

/** The organization a write goes to: the one named (if reachable) or the active organization. */
export function targetOrganization(scope: RequestScope, organizationId: string | undefined): string {
  const id = organizationId ?? scope.activeOrganization.id;
  if (!canReach(scope, id)) throw notFound('Organization not found');
  return id;
}

/** A candidate within the scope (row-level security hides the others), or 404. */
async function loadCandidate(tx: Transaction, scope: RequestScope, candidateId: string, forUpdate = false): Promise<CandidateRow> {
  const row = await findCandidate(tx, candidateId, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
  return row;
}

/** Every id must name a candidate in scope (and in `organizationId` when given); otherwise 404 and nothing changes. */
async function loadAllCandidates(tx: Transaction, scope: RequestScope, ids: string[], organizationId?: string): Promise<CandidateRow[]> {
  const unique = [...new Set(ids)];
  const rows = await findCandidates(tx, unique, true);
  const inScope = rows.filter((row) => canReach(scope, row.organizationId) && (!organizationId || row.organizationId === organizationId));
  if (inScope.length !== unique.length) throw notFound(`Candidate not found: ${unique.length - inScope.length} of the ids are not candidates you can reach`);
  return inScope;
}

interface Actor {
  userId: string;
  label: string;
}

async function actorOf(tx: Transaction, scope: RequestScope): Promise<Actor> {
  return { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
}

const event = (
  row: { id: string; organizationId: string },
  actor: Actor,
  values: Omit<NewContactEvent, 'organizationId' | 'candidateId'>,
): NewContactEvent => ({
  organizationId: row.organizationId,
  candidateId: row.id,
  actorUserId: actor.userId,
  actorLabel: actor.label,
  ...values,
});

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function guardDuplicates<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('A candidate with this phone number or email already exists in the organization');
    throw error;
  }
}

// ---- status and consent rules ----

/**
 * The status and do-not-contact flag after a change, kept consistent: status `do_not_contact` if and only if
 * the flag is set. Turning the flag off moves a do-not-contact candidate back to `new`.
 */
export function resolveStatusAndFlag(
  current: { status: CandidateStatus; doNotContact: boolean },
  input: { status?: CandidateStatus; doNotContact?: boolean },
): { status: CandidateStatus; doNotContact: boolean } {
  if (input.status !== undefined && input.doNotContact !== undefined && (input.status === 'do_not_contact') !== input.doNotContact) {
    throw badRequest('status: status do_not_contact and consent.doNotContact must agree', [{ path: 'status', message: 'Contradicts consent.doNotContact' }]);
  }
  if (input.status !== undefined) return { status: input.status, doNotContact: input.status === 'do_not_contact' };
  if (input.doNotContact !== undefined) {
    if (input.doNotContact) return { status: 'do_not_contact', doNotContact: true };
    return { status: current.status === 'do_not_contact' ? 'new' : current.status, doNotContact: false };
  }
  return { status: current.status, doNotContact: current.doNotContact };
}

/** The source kept with consent staff turn on without saying where it was given. */
export const DEFAULT_CONSENT_SOURCE = 'Recorded by staff';

/** A consent date (YYYY-MM-DD: noon UTC of that day, so it reads as that day everywhere) or now. */
function consentInstant(date: string | undefined): Date {
  if (!date) return new Date();
  return new Date(date.length === 10 ? `${date}T12:00:00.000Z` : date);
}

/**
 * The time zone to store: the one given, else one derived from the address or phone (create, update). On
 * update a derived zone follows the address/phone when they change; a zone someone chose is kept.
 */
function zoneFor(next: ZoneHints & { timeZone?: string | null }, previous?: ZoneHints & { timeZone: string | null }): string | null | undefined {
  if (next.timeZone) return next.timeZone;
  if (!previous) return deriveTimeZone(next)?.timeZone ?? null;
  if (next.timeZone === null) return null;
  const wasDerived = previous.timeZone === null || previous.timeZone === (deriveTimeZone(previous)?.timeZone ?? null);
  if (!wasDerived) return undefined;
  const merged = {
    postalCode: next.postalCode !== undefined ? next.postalCode : previous.postalCode,
    region: next.region !== undefined ? next.region : previous.region,
    country: next.country !== undefined ? next.country : previous.country,
    phone: next.phone !== undefined ? next.phone : previous.phone,
  };
  const zone = deriveTimeZone(merged)?.timeZone ?? previous.timeZone;
  return zone === previous.timeZone ? undefined : zone;
}

interface Change {
  values: Partial<NewCandidateRow>;
  events: Array<Omit<NewContactEvent, 'organizationId' | 'candidateId'>>;
  audit: Record<string, unknown>;
}

/** The values, contact events and audit entries of a status / consent change of one candidate. */
function planFunnelChange(row: CandidateRow, input: { status?: CandidateStatus; statusReason?: string; consent?: UpdateCandidateInput['consent'] }): Change {
  const change: Change = { values: {}, events: [], audit: {} };
  const next = resolveStatusAndFlag(row, { status: input.status, doNotContact: input.consent?.doNotContact });
  if (next.status !== row.status) {
    change.values.status = next.status;
    change.events.push({
      kind: 'status_change',
      summary: statusChangeSummary(row.status, next.status),
      details: { from: row.status, to: next.status, ...(input.statusReason ? { reason: input.statusReason } : {}) },
    });
    change.audit.status = { from: row.status, to: next.status };
  }
  const consent: Record<string, { from: unknown; to: unknown }> = {};
  if (next.doNotContact !== row.doNotContact) {
    change.values.doNotContact = next.doNotContact;
    change.values.doNotContactAt = next.doNotContact ? new Date() : null;
    change.values.doNotContactReason = next.doNotContact ? (input.consent?.doNotContactReason ?? input.statusReason ?? DEFAULT_DO_NOT_CONTACT_REASON) : null;
    consent.doNotContact = { from: row.doNotContact, to: next.doNotContact };
  } else if (next.doNotContact && input.consent?.doNotContactReason && input.consent.doNotContactReason !== row.doNotContactReason) {
    change.values.doNotContactReason = input.consent.doNotContactReason;
    consent.doNotContactReason = { from: 'previous', to: 'changed' };
  }
  const documented = { source: input.consent?.source ?? DEFAULT_CONSENT_SOURCE, at: consentInstant(input.consent?.date) };
  if (input.consent?.sms !== undefined && input.consent.sms !== row.consentSms) {
    change.values.consentSms = input.consent.sms;
    change.values.consentSmsSource = input.consent.sms ? documented.source : null;
    change.values.consentSmsAt = input.consent.sms ? documented.at : null;
    consent.sms = { from: row.consentSms, to: input.consent.sms };
  }
  if (input.consent?.calls !== undefined && input.consent.calls !== row.consentCalls) {
    change.values.consentCalls = input.consent.calls;
    change.values.consentCallsSource = input.consent.calls ? documented.source : null;
    change.values.consentCallsAt = input.consent.calls ? documented.at : null;
    consent.calls = { from: row.consentCalls, to: input.consent.calls };
  }
  if (Object.keys(consent).length) {
    const parts: string[] = [];
    if (consent.sms) parts.push(`SMS ${consent.sms.to ? 'on' : 'off'}`);
    if (consent.calls) parts.push(`calls ${consent.calls.to ? 'on' : 'off'}`);
    if (consent.doNotContact) parts.push(`do not contact ${consent.doNotContact.to ? 'on' : 'off'}`);
    if (consent.doNotContactReason) parts.push('do-not-contact reason changed');
    const reason = change.values.doNotContactReason;
    const turnedOn = consent.sms?.to === true || consent.calls?.to === true;
    change.events.push({
      kind: 'consent',
      summary: `Consent: ${parts.join(', ')}${turnedOn ? ` (${documented.source}, ${documented.at.toISOString().slice(0, 10)})` : ''}`,
      details: { ...consent, ...(reason ? { reason } : {}), ...(turnedOn ? { source: documented.source, consentAt: documented.at.toISOString() } : {}) },
    });
    change.audit.consent = Object.keys(consent);
  }
  return change;
}

/**
 * Moves one candidate (a row read in the caller's transaction) to `status` the way PATCH does: the
 * status_change contact event and an audit record. For features that move the funnel (prescreen).
 * Never lifts do-not-contact: a do-not-contact candidate is returned unchanged.
 */
export async function changeCandidateStatus(
  tx: Transaction,
  row: CandidateRow,
  status: CandidateStatus,
  options: { actor: { userId: string | null; label: string }; reason?: string; action: string; channel?: ActivitySource },
): Promise<CandidateRow> {
  if (row.doNotContact || row.status === status) return row;
  const change = planFunnelChange(row, { status, statusReason: options.reason });
  const updated = await updateCandidateRow(tx, row.id, change.values);
  await exitOnFunnelChange(tx, row.id, change.values);
  const { userId, label } = options.actor;
  await insertContactEvents(
    tx,
    change.events.map((values) => ({
      organizationId: row.organizationId,
      candidateId: row.id,
      actorUserId: userId,
      actorLabel: label,
      channel: options.channel,
      ...values,
    })),
  );
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: userId,
    action: options.action,
    entityType: 'candidate',
    entityId: row.id,
    changes: change.audit,
  });
  return updated;
}

// ---- the list ----

interface Cursor {
  keys: string[];
  id: string;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.keys, cursor.id])).toString('base64url');

function decodeCursor(text: string, keyCount: number): Cursor {
  try {
    const [keys, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown];
    if (
      Array.isArray(keys) &&
      keys.length === keyCount &&
      keys.every((key) => typeof key === 'string') &&
      typeof id === 'string' &&
      /^[0-9a-f-]{36}$/i.test(id)
    ) {
      return { keys: keys as string[], id };
    }
  } catch {
    // fall through
  }
  throw badRequest('cursor: Invalid cursor; use the nextCursor of the previous page with the same sortBy', [{ path: 'cursor', message: 'Invalid cursor' }]);
}

const SORT_KEY_COUNT = { createdAt: 1, updatedAt: 1, lastName: 2, status: 2 } as const;

export async function listCandidates(db: Database, scope: RequestScope, query: ListCandidatesQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  const filter = { organizationIds, search: query.search, statuses: query.status, trialId: query.trialId };
  const after = query.cursor ? decodeCursor(query.cursor, SORT_KEY_COUNT[query.sortBy]) : undefined;
  return runScoped(db, scope, async (tx) => {
    const rows = await listCandidatePage(tx, filter, { sortBy: query.sortBy, sortDir: query.sortDir, limit: query.limit + 1, after });
    const page = rows.slice(0, query.limit);
    // Exact up to the limit, then "at least": counting 100,000 rows on every page costs more than the page.
    const counted = await countCandidates(tx, filter, CANDIDATE_COUNT_LIMIT);
    const totalAtLeast = counted > CANDIDATE_COUNT_LIMIT;
    const total = totalAtLeast ? CANDIDATE_COUNT_LIMIT : counted;
    const trials = await trialIdsByCandidate(
      tx,
      page.map((row) => row.id),
    );
    const last = page.at(-1);
    return {
      candidates: page.map((row) => toListItem(row, trials.get(row.id) ?? [])),
      total,
      totalAtLeast,
      ...(rows.length > query.limit && last ? { nextCursor: encodeCursor({ keys: JSON.parse(last.cursorKey) as string[], id: last.id }) } : {}),
    };
  });
}

// ---- one candidate ----

/** Database values of the writable fields given in `input` (undefined fields are left out). */
function fieldValues(input: Partial<CreateCandidateInput>): Partial<NewCandidateRow> {
  const values: Partial<NewCandidateRow> = {};
  const keys = [
    'firstName',
    'lastName',
    'phone',
    'email',
    'dateOfBirth',
    'sex',
    'addressLine',
    'city',
    'region',
    'postalCode',
    'country',
    'timeZone',
    'preferredLanguage',
    'source',
    'customFields',
  ] as const;
  for (const key of keys) {
    if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  }
  return values;
}

/** `within`: more work on the new candidate in the same transaction (an import's facts), so both land or neither. */
export async function createCandidate(
  db: Database,
  scope: RequestScope,
  organizationId: string | undefined,
  input: CreateCandidateInput,
  within?: (tx: Transaction, candidate: CandidateRow) => Promise<void>,
): Promise<Candidate> {
  const orgId = targetOrganization(scope, organizationId);
  return guardDuplicates(() =>
    runScoped(db, scope, async (tx) => {
      for (const trialId of input.trialIds ?? []) {
        if (!(await findTrialInOrganization(tx, trialId, orgId))) throw notFound('Trial not found');
      }
      const initial = resolveStatusAndFlag({ status: 'new', doNotContact: false }, { status: input.status, doNotContact: input.consent?.doNotContact });
      const documented = { source: input.consent?.source ?? DEFAULT_CONSENT_SOURCE, at: consentInstant(input.consent?.date) };
      const row = await insertCandidate(tx, {
        ...fieldValues(input),
        timeZone: zoneFor(input) ?? null,
        firstName: input.firstName,
        organizationId: orgId,
        status: initial.status,
        consentSms: input.consent?.sms ?? false,
        consentCalls: input.consent?.calls ?? false,
        consentSmsSource: input.consent?.sms ? documented.source : null,
        consentSmsAt: input.consent?.sms ? documented.at : null,
        consentCallsSource: input.consent?.calls ? documented.source : null,
        consentCallsAt: input.consent?.calls ? documented.at : null,
        doNotContact: initial.doNotContact,
        doNotContactAt: initial.doNotContact ? new Date() : null,
        doNotContactReason: initial.doNotContact ? (input.consent?.doNotContactReason ?? DEFAULT_DO_NOT_CONTACT_REASON) : null,
      });
      for (const trialId of new Set(input.trialIds ?? [])) await linkTrial(tx, orgId, trialId, [row.id]);
      const actor = await actorOf(tx, scope);
      await insertContactEvents(tx, [
        event(row, actor, { kind: 'created', summary: `Added by ${actor.label}`, details: { source: row.source, status: row.status } }),
        ...(row.consentSms || row.consentCalls
          ? [
              event(row, actor, {
                kind: 'consent',
                summary: `Consent: ${[row.consentSms ? 'SMS on' : null, row.consentCalls ? 'calls on' : null].filter(Boolean).join(', ')} (${documented.source}, ${documented.at.toISOString().slice(0, 10)})`,
                details: {
                  ...(row.consentSms ? { sms: { from: false, to: true } } : {}),
                  ...(row.consentCalls ? { calls: { from: false, to: true } } : {}),
                  source: documented.source,
                  consentAt: documented.at.toISOString(),
                },
              }),
            ]
          : []),
      ]);
      await recordAudit(tx, {
        organizationId: orgId,
        actorUserId: scope.userId,
        action: 'candidate.create',
        entityType: 'candidate',
        entityId: row.id,
        changes: { fields: Object.keys(fieldValues(input)), status: row.status, trials: input.trialIds?.length ?? 0 },
      });
      await within?.(tx, row);
      return withTrials(tx, row);
    }),
  );
}

export async function getCandidate(db: Database, scope: RequestScope, candidateId: string): Promise<Candidate> {
  return runScoped(db, scope, async (tx) => withTrials(tx, await loadCandidate(tx, scope, candidateId)));
}

export async function updateCandidate(db: Database, scope: RequestScope, candidateId: string, input: UpdateCandidateInput): Promise<Candidate> {
  return guardDuplicates(() =>
    runScoped(db, scope, async (tx) => {
      const row = await loadCandidate(tx, scope, candidateId, true);
      const fields = fieldValues(input);
      const zone = zoneFor(input, row);
      if (zone !== undefined) fields.timeZone = zone;
      const changedFields = Object.keys(fields).filter(
        (key) => JSON.stringify(fields[key as keyof typeof fields]) !== JSON.stringify(row[key as keyof CandidateRow] ?? null),
      );
      const funnel = planFunnelChange(row, input);
      if (changedFields.length === 0 && Object.keys(funnel.values).length === 0) return withTrials(tx, row);
      const updated = await updateCandidateRow(tx, row.id, {
        ...Object.fromEntries(changedFields.map((key) => [key, fields[key as keyof typeof fields]])),
        ...funnel.values,
      });
      await exitOnFunnelChange(tx, row.id, funnel.values);
      const actor = await actorOf(tx, scope);
      const events = funnel.events.map((values) => event(row, actor, values));
      if (changedFields.length)
        events.unshift(event(row, actor, { kind: 'updated', summary: `Details updated: ${changedFields.join(', ')}`, details: { fields: changedFields } }));
      await insertContactEvents(tx, events);
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'candidate.update',
        entityType: 'candidate',
        entityId: row.id,
        changes: { ...(changedFields.length ? { fields: changedFields } : {}), ...funnel.audit },
      });
      return withTrials(tx, updated);
    }),
  );
}

/** Deletes the candidate and, by cascade, their contact history and trial links; only the audit record stays. */
export async function deleteCandidate(db: Database, scope: RequestScope, candidateId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId, true);
    await deleteCandidateRows(tx, [row.id]);
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.delete',
      entityType: 'candidate',
      entityId: row.id,
      changes: { personalDataRemoved: true },
    });
  });
}

// ---- prescreen notes ----

export async function listNotes(db: Database, scope: RequestScope, candidateId: string) {
  return runScoped(db, scope, async (tx) => ({ notes: indexedNotes(await loadCandidate(tx, scope, candidateId)) }));
}

export async function addNote(db: Database, scope: RequestScope, candidateId: string, text: string): Promise<IndexedPrescreenNote> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId, true);
    const actor = await actorOf(tx, scope);
    const note = { text, authorUserId: scope.userId, authorName: actor.label, createdAt: new Date().toISOString() };
    const notes = [...(row.prescreenNotes ?? []), note];
    await updateCandidateRow(tx, row.id, { prescreenNotes: notes });
    const index = notes.length - 1;
    // The feed says a note was written and by whom; the text stays in the notes (and out of logs and audit).
    await insertContactEvents(tx, [event(row, actor, { kind: 'note', summary: 'Prescreen note added', details: { noteIndex: index, length: text.length } })]);
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.note.add',
      entityType: 'candidate',
      entityId: row.id,
      changes: { noteIndex: index },
    });
    return { ...note, index };
  });
}

export async function deleteNote(db: Database, scope: RequestScope, candidateId: string, noteIndexText: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId, true);
    const notes = row.prescreenNotes ?? [];
    const index = /^\d{1,6}$/.test(noteIndexText) ? Number(noteIndexText) : -1;
    if (index < 0 || index >= notes.length) throw notFound('Note not found');
    await updateCandidateRow(tx, row.id, { prescreenNotes: notes.filter((_, i) => i !== index) });
    const actor = await actorOf(tx, scope);
    await insertContactEvents(tx, [event(row, actor, { kind: 'note', summary: 'Prescreen note deleted', details: { noteIndex: index } })]);
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.note.delete',
      entityType: 'candidate',
      entityId: row.id,
      changes: { noteIndex: index },
    });
  });
}

// ---- bulk actions ----

/** Returns the chosen candidates to `new`; each change is a status_change event, so the history stays. */
export async function resetStatus(db: Database, scope: RequestScope, organizationId: string | undefined, candidateIds: string[]) {
  const orgId = targetOrganization(scope, organizationId);
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, candidateIds, orgId);
    const actor = await actorOf(tx, scope);
    const unchanged: string[] = [];
    const skippedDoNotContact: string[] = [];
    const events: NewContactEvent[] = [];
    let reset = 0;
    for (const row of rows) {
      if (row.status === 'new') unchanged.push(row.id);
      else if (row.doNotContact) skippedDoNotContact.push(row.id);
      else {
        await updateCandidateRow(tx, row.id, { status: 'new' });
        events.push(
          event(row, actor, {
            kind: 'status_change',
            summary: statusChangeSummary(row.status, 'new'),
            details: { from: row.status, to: 'new', reason: 'Status reset' },
          }),
        );
        await recordAudit(tx, {
          organizationId: row.organizationId,
          actorUserId: scope.userId,
          action: 'candidate.reset_status',
          entityType: 'candidate',
          entityId: row.id,
          changes: { status: { from: row.status, to: 'new' } },
        });
        reset++;
      }
    }
    await insertContactEvents(tx, events);
    return { reset, unchanged, skippedDoNotContact };
  });
}

export async function bulkUpdate(
  db: Database,
  scope: RequestScope,
  input: { candidateIds: string[]; status?: CandidateStatus; statusReason?: string; addTrialId?: string; removeTrialId?: string },
) {
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, input.candidateIds);
    for (const trialId of [input.addTrialId, input.removeTrialId]) {
      if (!trialId) continue;
      for (const orgId of new Set(rows.map((row) => row.organizationId))) {
        if (!(await findTrialInOrganization(tx, trialId, orgId))) throw notFound("Trial not found in the candidates' organization");
      }
    }
    const actor = await actorOf(tx, scope);
    const events: NewContactEvent[] = [];
    let updated = 0;
    for (const row of rows) {
      const change = input.status ? planFunnelChange(row, { status: input.status, statusReason: input.statusReason }) : { values: {}, events: [], audit: {} };
      const audit: Record<string, unknown> = { ...change.audit };
      if (Object.keys(change.values).length) {
        await updateCandidateRow(tx, row.id, change.values);
        await exitOnFunnelChange(tx, row.id, change.values);
      }
      events.push(...change.events.map((values) => event(row, actor, values)));
      if (input.addTrialId) audit.addTrialId = input.addTrialId;
      if (input.removeTrialId) audit.removeTrialId = input.removeTrialId;
      if (Object.keys(audit).length) {
        await recordAudit(tx, {
          organizationId: row.organizationId,
          actorUserId: scope.userId,
          action: 'candidate.bulk_update',
          entityType: 'candidate',
          entityId: row.id,
          changes: audit,
        });
        updated++;
      }
    }
    const ids = rows.map((row) => row.id);
    if (input.addTrialId) await linkTrial(tx, rows[0].organizationId, input.addTrialId, ids);
    if (input.removeTrialId) await unlinkTrial(tx, input.removeTrialId, ids);
    await insertContactEvents(tx, events);
    return { updated };
  });
}

export async function bulkDelete(db: Database, scope: RequestScope, candidateIds: string[]) {
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, candidateIds);
    await deleteCandidateRows(
      tx,
      rows.map((row) => row.id),
    );
    for (const row of rows) {
      await recordAudit(tx, {
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'candidate.delete',
        entityType: 'candidate',
        entityId: row.id,
        changes: { personalDataRemoved: true, bulk: true },
      });
    }
    return { deleted: rows.length };
  });
}

/**
 * Records documented consent (SMS and/or calls, with its source and date) for the chosen candidates or every
 * candidate matching the list's filters. Do-not-contact candidates are skipped (counted); a candidate who
 * already has that consent with a documented source is unchanged. One consent event and audit record per
 * candidate changed.
 */
export async function bulkConsent(db: Database, scope: RequestScope, input: BulkConsentInput) {
  return runScoped(db, scope, async (tx) => {
    const rows = input.candidateIds
      ? await loadAllCandidates(tx, scope, input.candidateIds)
      : await findCandidatesMatching(tx, {
          organizationIds: selectOrganizations(scope, input.filter!.organizationId, undefined, undefined),
          search: input.filter!.search,
          statuses: input.filter!.status,
          trialId: input.filter!.trialId,
        });
    const actor = await actorOf(tx, scope);
    const at = consentInstant(input.date);
    const day = at.toISOString().slice(0, 10);
    const events: NewContactEvent[] = [];
    const audits: Array<typeof auditLog.$inferInsert> = [];
    let updated = 0;
    let unchanged = 0;
    let skippedDoNotContact = 0;
    for (const row of rows) {
      if (row.doNotContact) {
        skippedDoNotContact++;
        continue;
      }
      const values: Partial<NewCandidateRow> = {};
      const consent: Record<string, { from: boolean; to: boolean }> = {};
      if (input.sms && !(row.consentSms && row.consentSmsSource)) {
        Object.assign(values, { consentSms: true, consentSmsSource: input.source, consentSmsAt: at });
        consent.sms = { from: row.consentSms, to: true };
      }
      if (input.calls && !(row.consentCalls && row.consentCallsSource)) {
        Object.assign(values, { consentCalls: true, consentCallsSource: input.source, consentCallsAt: at });
        consent.calls = { from: row.consentCalls, to: true };
      }
      if (Object.keys(values).length === 0) {
        unchanged++;
        continue;
      }
      await updateCandidateRow(tx, row.id, values);
      const parts = [consent.sms ? 'SMS on' : null, consent.calls ? 'calls on' : null].filter(Boolean).join(', ');
      events.push(
        event(row, actor, {
          kind: 'consent',
          summary: `Consent: ${parts} (${input.source}, ${day})`,
          details: { ...consent, source: input.source, consentAt: at.toISOString(), bulk: true },
        }),
      );
      audits.push({
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'candidate.bulk_consent',
        entityType: 'candidate',
        entityId: row.id,
        changes: { consent: Object.keys(consent), consentAt: day },
      });
      updated++;
    }
    await insertContactEvents(tx, events);
    for (let start = 0; start < audits.length; start += 1000) await tx.insert(auditLog).values(audits.slice(start, start + 1000));
    return { updated, unchanged, skippedDoNotContact };
  });
}
