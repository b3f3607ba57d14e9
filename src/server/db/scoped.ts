import { sql } from 'drizzle-orm';
import type { Database } from './client';

/** What a scoped transaction needs to know of the request scope (see auth/scope.ts). */
export interface RowSecurityScope {
  global: boolean;
  reachableOrganizationIds: readonly string[];
}

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A query module's handle: the plain database or an open transaction. */
export type Executor = Database | Transaction;

/**
 * Runs `work` in a transaction as the non-superuser role `cohortly_app`, with the scope's organization ids
 * in `app.org_ids`: PostgreSQL's row-level security then hides every other organization's rows even if a
 * query forgets its filter.
 */
export function withRowSecurity<T>(db: Database, scope: RowSecurityScope, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One statement, not two: `set_config('role', ...)` is `SET LOCAL ROLE`, and on PGlite every statement costs
    // its own parse, describe, bind and execute round trips on the one thread that serves all requests.
    await tx.execute(
      sql`select set_config('app.org_ids', ${scope.reachableOrganizationIds.join(',')}, true), set_config('app.global', ${scope.global ? 'on' : 'off'}, true), set_config('role', 'cohortly_app', true)`,
    );
    return work(tx);
  });
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
