import { sql } from 'drizzle-orm';
import { isUuid } from '../../contract/ids';
import { oneMessageRead, transactionWithPrelude, type Database } from './client';

/** What a scoped transaction needs to know of the request scope (see auth/scope.ts). */
export interface RowSecurityScope {
  global: boolean;
  reachableOrganizationIds: readonly string[];
  /**
   * A read-only request's signal (GET, HEAD), aborted when its client has gone: its transactions are then not
   * started (`ClientGoneError`). Never set for a request that writes: a change already asked for is made.
   */
  clientGone?: AbortSignal;
}

/**
 * A read-only request whose client went away before its transaction started: nothing ran, and nobody waits for
 * the answer. On PGlite every request's statements queue on one connection, so a page the user left (or a burst
 * of abandoned requests) would otherwise still be read, ahead of those whose users are waiting (decision 106).
 */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
  constructor() {
    super('The client closed the request');
  }
}

function refuseIfClientGone(scope: RowSecurityScope) {
  if (scope.clientGone?.aborted) throw new ClientGoneError();
}

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A query module's handle: the plain database or an open transaction. */
export type Executor = Database | Transaction;

/**
 * Runs `work` in a transaction as the non-superuser role `cohortly_app`, with the scope's organization ids
 * in `app.org_ids`: PostgreSQL's row-level security then hides every other organization's rows even if a
 * query forgets its filter.
 */
export async function withRowSecurity<T>(db: Database, scope: RowSecurityScope, work: (tx: Transaction) => Promise<T>): Promise<T> {
  refuseIfClientGone(scope);
  const run = async (tx: Transaction, scopeSent: boolean) => {
    // Again when the transaction's turn comes: on PGlite it may have queued behind every other request's.
    refuseIfClientGone(scope);
    // One statement, not two: `set_config('role', ...)` is `SET LOCAL ROLE` (and the planner's random_page_cost, set
    // per transaction: a connection opened before migration 0037 set it for the database lacks it, decision 125), and on PGlite every statement costs
    // its own parse, describe, bind and execute round trips on the one thread that serves all requests.
    if (!scopeSent)
      await tx.execute(
        sql`select set_config('app.org_ids', ${scope.reachableOrganizationIds.join(',')}, true), set_config('app.global', ${scope.global ? 'on' : 'off'}, true), set_config('role', 'cohortly_app', true), set_config('random_page_cost', '1.1', true)`,
      );
    return work(tx);
  };
  // The same statement sent with the transaction's BEGIN, one message instead of two (decision 111). It has no
  // parameters, so it is built only from ids that are uuids; any other scope goes the parameterized way above.
  const literal = scopeLiteral(scope);
  if (!literal) return db.transaction((tx) => run(tx, false));
  return transactionWithPrelude<T, Transaction>(db, literal, run);
}

/** The scope's statement as literal SQL (decision 111), or undefined when an organization id is not a uuid. */
function scopeLiteral(scope: RowSecurityScope): string | undefined {
  if (!scope.reachableOrganizationIds.every(isUuid)) return undefined;
  return `select set_config('app.org_ids', '${scope.reachableOrganizationIds.join(',')}', true), set_config('app.global', '${scope.global ? 'on' : 'off'}', true), set_config('role', 'cohortly_app', true), set_config('random_page_cost', '1.1', true)`;
}

/**
 * One read-only statement under the scope, its whole transaction in one message (decision 114): `begin`, the scope's
 * statement (as `withRowSecurity` sends it: the same role, settings and row security), `statement`, `commit`.
 * `statement` must be literal SQL built from checked values. Undefined when it cannot go that way (an organization id
 * that is not a uuid, an engine without it): the caller then reads through `withRowSecurity`.
 */
export async function readScopedInOneMessage(
  db: Database,
  scope: RowSecurityScope,
  statement: string,
  parsers: Parameters<typeof oneMessageRead>[3],
): Promise<unknown[][] | undefined> {
  refuseIfClientGone(scope);
  const literal = scopeLiteral(scope);
  if (!literal) return undefined;
  return oneMessageRead(db, `begin; ${literal}; ${statement}; commit`, 2, parsers);
}

/**
 * The system path for work with no signed-in user (jobs, webhooks, background runs): row-level security on,
 * reaching exactly one organization, so a query that forgets its filter still sees only that organization.
 */
export function runAsOrganization<T>(db: Database, organizationId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return withRowSecurity(db, asOrganization(organizationId), work);
}

/**
 * The row-security scope of `runAsOrganization`, for code that takes a scope because a signed-in user's may
 * come instead (the calls' reconciliation: on request, or the sweep per organization). Built here only, so the
 * no-user path to one organization has one spelling (tests/unit/system-path.test.ts).
 */
export function asOrganization(organizationId: string): RowSecurityScope {
  return { global: false, reachableOrganizationIds: [organizationId] };
}

/** The rows of a raw `execute(sql...)`: the same shape on PGlite and node-postgres. */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
