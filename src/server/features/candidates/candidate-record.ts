import { CANDIDATE_PROFILE_FIELDS, type Candidate, type CandidateListItem, type IndexedPrescreenNote } from '../../../contract/candidates';
import { canReach, type RequestScope } from '../../auth/scope';
import type { Transaction } from '../../db/scoped';
import { isUniqueViolation } from '../../db/postgres';
import { conflict, notFound } from '../../http/errors';
import { recordAudits, type Actor } from '../../audit';
import {
  deleteCandidateRows,
  findCandidate,
  findCandidateWithTrials,
  findCandidates,
  trialIdsByCandidate,
  userName,
  type CandidateListRow,
  type CandidateRow,
  type NewContactEvent,
} from './queries';
import { phoneForDisplay } from './phone-display';

/** One candidate as the API shows it, and reaching candidates within the request's scope. */
// ---- mapping ----

export const iso = (date: Date | null) => (date ? date.toISOString() : null);

type ProfileField = (typeof CANDIDATE_PROFILE_FIELDS)[number];
/** A row's profile fields (the contract's list), as stored: the API's candidate and an import's merge both start from them. */
export const profileOf = <Row extends Record<ProfileField, unknown>>(row: Row) =>
  Object.fromEntries(CANDIDATE_PROFILE_FIELDS.map((key) => [key, row[key]])) as Pick<Row, ProfileField>;

export function baseFields(row: CandidateRow, trialIds: string[]) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    ...profileOf(row),
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

export const indexedNotes = (row: CandidateRow): IndexedPrescreenNote[] => (row.prescreenNotes ?? []).map((note, index) => ({ ...note, index }));

export function toCandidate(row: CandidateRow, trialIds: string[]): Candidate {
  return { ...baseFields(row, trialIds), prescreenNotes: indexedNotes(row) };
}

/** A list row as the API shows it: the contract's `CandidateListItem` fields only (decision 114). */
export function toListItem(row: CandidateListRow, trialIds: string[]): CandidateListItem {
  return {
    id: row.id,
    organizationId: row.organizationId,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    phoneDisplay: phoneForDisplay(row.phone, row.country),
    email: row.email,
    status: row.status,
    source: row.source,
    consent: { sms: row.consentSms, calls: row.consentCalls, doNotContact: row.doNotContact },
    trialIds,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function withTrials(tx: Transaction, row: CandidateRow): Promise<Candidate> {
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
export async function loadCandidate(tx: Transaction, scope: RequestScope, candidateId: string, forUpdate = false): Promise<CandidateRow> {
  const row = await findCandidate(tx, candidateId, forUpdate);
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Candidate not found');
  return row;
}

/** A candidate within the scope as the API shows it, read with their trials in one statement, or 404. */
export async function loadCandidateWithTrials(tx: Transaction, scope: RequestScope, candidateId: string): Promise<Candidate> {
  const found = await findCandidateWithTrials(tx, candidateId);
  if (!found || !canReach(scope, found.row.organizationId)) throw notFound('Candidate not found');
  return toCandidate(found.row, found.trialIds);
}

/** Every id must name a candidate in scope (and in `organizationId` when given); otherwise 404 and nothing changes. */
export async function loadAllCandidates(tx: Transaction, scope: RequestScope, ids: string[], organizationId?: string): Promise<CandidateRow[]> {
  const unique = [...new Set(ids)];
  const rows = await findCandidates(tx, unique, true);
  const inScope = rows.filter((row) => canReach(scope, row.organizationId) && (!organizationId || row.organizationId === organizationId));
  if (inScope.length !== unique.length) throw notFound(`Candidate not found: ${unique.length - inScope.length} of the ids are not candidates you can reach`);
  return inScope;
}

export async function actorOf(tx: Transaction, scope: RequestScope): Promise<Actor> {
  return { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
}

export const event = (
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

export async function guardDuplicates<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('A candidate with this phone number or email already exists in the organization');
    throw error;
  }
}

/** Deletes candidates (their contact history and trial links go by cascade); one audit record each is all that stays. */
export async function removeCandidates(tx: Transaction, scope: RequestScope, rows: CandidateRow[], bulk: boolean): Promise<void> {
  await deleteCandidateRows(
    tx,
    rows.map((row) => row.id),
  );
  await recordAudits(
    tx,
    rows.map((row) => ({
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.delete',
      entityType: 'candidate',
      entityId: row.id,
      changes: { personalDataRemoved: true, ...(bulk ? { bulk: true } : {}) },
    })),
  );
}
