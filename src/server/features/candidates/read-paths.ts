import { type Candidate, type ListCandidatesQuery, CANDIDATE_COUNT_LIMIT } from '../../../contract/candidates';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, notFound } from '../../http/errors';
import { loadCandidateWithTrials, toCandidate, toListItem } from './candidate-record';
import {
  countCandidates,
  countOfMatchingIds,
  findCandidateWithTrialsInOneMessage,
  keptCandidateTotal,
  listCandidatePage,
  listCandidatePageInOneMessage,
  searchOf,
  totalIsKept,
  type CandidateListRow,
  type ListFilter,
} from './queries';

// How the candidate list and one candidate are read (decision 114): a read whose answer needs no statement of its
// own goes as one message carrying its transaction (BEGIN, the scope, the statement, COMMIT); anything else runs
// in a scoped transaction of its own. The rules on what a candidate is stay in service.ts and candidate-record.ts.

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

export async function getCandidate(db: Database, scope: RequestScope, candidateId: string): Promise<Candidate> {
  // One message with its transaction (decision 114); otherwise a transaction of its own.
  const found = await findCandidateWithTrialsInOneMessage(db, scope, candidateId);
  if (found === null) return runScoped(db, scope, (tx) => loadCandidateWithTrials(tx, scope, candidateId));
  if (!found || !canReach(scope, found.row.organizationId)) throw notFound('Candidate not found');
  return toCandidate(found.row, found.trialIds);
}
