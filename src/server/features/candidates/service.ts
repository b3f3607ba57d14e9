import {
  type Candidate,
  type CreateCandidateInput,
  type ListCandidatesQuery,
  type UpdateCandidateInput,
  CANDIDATE_COUNT_LIMIT,
  CANDIDATE_PROFILE_FIELDS,
  DEFAULT_DO_NOT_CONTACT_REASON,
} from '../../../contract/candidates';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { funnelSignals } from '../../funnel-signals';
import {
  countCandidates,
  findCandidateWithTrialsInOneMessage,
  findTrialInOrganization,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  listCandidatePage,
  listCandidatePageInOneMessage,
  searchOf,
  countOfMatchingIds,
  keptCandidateTotal,
  totalIsKept,
  updateCandidateRow,
  type CandidateListRow,
  type CandidateRow,
  type ListFilter,
  type NewCandidateRow,
} from './queries';

import {
  removeCandidates,
  actorOf,
  event,
  guardDuplicates,
  loadCandidate,
  loadCandidateWithTrials,
  targetOrganization,
  toCandidate,
  toListItem,
  withTrials,
} from './candidate-record';
import { consentInstant, DEFAULT_CONSENT_SOURCE, planFunnelChange, resolveStatusAndFlag, zoneFor } from './status-rules';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export {
  eventTime,
  findCandidate,
  findCandidateByPhone,
  findCandidates,
  findCandidatesByPhone,
  findCandidatesMatching,
  findTrialInOrganization,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  trialIdsByCandidate,
  updateCandidateRow,
  userName,
} from './queries';
export type { CandidateRow, NewCandidateRow, NewContactEvent } from './queries';

// The candidates feature's surface: the list and one candidate below; the record and scope helpers
// (candidate-record.ts), status and consent rules (status-rules.ts), prescreen notes (prescreen-notes.ts) and
// bulk actions (bulk-actions.ts).
export { targetOrganization, toCandidate } from './candidate-record';
export { changeCandidateStatus, DEFAULT_CONSENT_SOURCE, resolveStatusAndFlag } from './status-rules';
export * from './prescreen-notes';
export * from './bulk-actions';
// The import's reading of condition and medication names, shared with the FHIR reader (matching).
export { conceptOfCode, longestMention } from './import-facts';

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

/**
 * The list's total. A filter by organization and status alone reads its kept total (decision 115): on the page's rows,
 * or by a statement of its own past the last page. A first page with room to spare holds every match (`pageHoldsAll`:
 * a search by phone or email). A search alone whose trigram ids were read has their number. Otherwise (a trial, a
 * search with a status, a search past the trigram ids) exact up to the limit, then "at least".
 */
async function countForList(tx: Transaction, filter: ListFilter, rows: CandidateListRow[], pageHoldsAll: number | undefined): Promise<number> {
  const known = totalFromPage(rows, pageHoldsAll);
  if (known !== undefined) return known;
  if (totalIsKept(filter)) return keptCandidateTotal(tx, filter);
  return (await countOfMatchingIds(tx, filter)) ?? countCandidates(tx, filter, CANDIDATE_COUNT_LIMIT);
}

/** The total the page already tells: its kept total's column, or the page itself when it holds every match. */
function totalFromPage(rows: CandidateListRow[], pageHoldsAll: number | undefined): number | undefined {
  return rows[0]?.listTotal !== undefined ? Number(rows[0].listTotal) : pageHoldsAll;
}

export async function listCandidates(db: Database, scope: RequestScope, query: ListCandidatesQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  const filter = { organizationIds, search: query.search, statuses: query.status, trialId: query.trialId };
  const after = query.cursor ? decodeCursor(query.cursor, SORT_KEY_COUNT[query.sortBy]) : undefined;
  const order = { sortBy: query.sortBy, sortDir: query.sortDir, limit: query.limit + 1, after };
  const kept = totalIsKept(filter);
  const answer = (rows: CandidateListRow[], counted: number) => {
    const page = rows.slice(0, query.limit);
    // A kept total is exact at any size; a counted one stops at the limit.
    const totalAtLeast = !kept && counted > CANDIDATE_COUNT_LIMIT;
    const last = page.at(-1);
    return {
      candidates: page.map((row) => toListItem(row, row.trialIds)),
      total: totalAtLeast ? CANDIDATE_COUNT_LIMIT : counted,
      totalAtLeast,
      ...(rows.length > query.limit && last ? { nextCursor: encodeCursor({ keys: JSON.parse(last.cursorKey) as string[], id: last.id }) } : {}),
    };
  };
  // A first page whose total needs no statement of its own (a kept total; a whole phone number, whose matches fit a
  // page) is read in one message with its transaction (decision 114).
  if (!after && (kept || searchOf(filter).asPhone)) {
    const rows = await listCandidatePageInOneMessage(db, scope, filter, order);
    if (rows) {
      const total = totalFromPage(rows, rows.length <= query.limit ? rows.length : undefined);
      return answer(rows, total ?? (await runScoped(db, scope, (tx) => countForList(tx, filter, [], undefined))));
    }
  }
  return runScoped(db, scope, async (tx) => {
    const rows = await listCandidatePage(tx, filter, order);
    return answer(rows, await countForList(tx, filter, rows, rows.length <= query.limit && !after ? rows.length : undefined));
  });
}

// ---- one candidate ----

/** Database values of the writable fields given in `input` (undefined fields are left out). */
function fieldValues(input: Partial<CreateCandidateInput>): Partial<NewCandidateRow> {
  const values: Partial<NewCandidateRow> = {};
  for (const key of [...CANDIDATE_PROFILE_FIELDS, 'customFields'] as const) {
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
  // One message with its transaction (decision 114); otherwise a transaction of its own.
  const found = await findCandidateWithTrialsInOneMessage(db, scope, candidateId);
  if (found === null) return runScoped(db, scope, (tx) => loadCandidateWithTrials(tx, scope, candidateId));
  if (!found || !canReach(scope, found.row.organizationId)) throw notFound('Candidate not found');
  return toCandidate(found.row, found.trialIds);
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
      await funnelSignals.funnelChanged(tx, row.id, funnel.values);
      const actor = await actorOf(tx, scope);
      const events = funnel.events.map((values) => event(row, actor, values));
      if (changedFields.length)
        events.unshift(event(row, actor, { kind: 'updated', summary: `Details updated: ${changedFields.join(', ')}`, details: { fields: changedFields } }));
      await insertContactEvents(tx, events);
      await recordAudit(
        tx,
        rowChange(scope.userId, row, 'candidate.update', 'candidate', { ...(changedFields.length ? { fields: changedFields } : {}), ...funnel.audit }),
      );
      return withTrials(tx, updated);
    }),
  );
}

/** Deletes the candidate and, by cascade, their contact history and trial links; only the audit record stays. */
export async function deleteCandidate(db: Database, scope: RequestScope, candidateId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    await removeCandidates(tx, scope, [await loadCandidate(tx, scope, candidateId, true)], false);
  });
}
