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
    await tx.execute(
      sql`select set_config('app.org_ids', ${scope.reachableOrganizationIds.join(',')}, true), set_config('app.global', ${scope.global ? 'on' : 'off'}, true)`,
    );
    await tx.execute(sql`set local role cohortly_app`);
    return work(tx);
  });
}

/**
 * The system path for work with no signed-in user (jobs, webhooks, background runs): row-level security on,
 * reaching exactly one organization, so a query that forgets its filter still sees only that organization.
 */
export function runAsOrganization<T>(db: Database, organizationId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return withRowSecurity(db, { global: false, reachableOrganizationIds: [organizationId] }, work);
}

/** The rows of a raw `execute(sql...)`: the same shape on PGlite and node-postgres. */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
