import type { Database } from './client';

declare const crossesOrganizations: unique symbol;

/**
 * The owner handle: the database with row-level security OFF, seeing every organization's rows. Only for the
 * few reads and writes that must cross organizations or that precede knowing the organization: which
 * organization owns a phone number, a webhook's call, a job's row, a run to resume, an inbound SMS's sender;
 * and the tables that belong to no organization (auth, rate limits, the organization registry, maintenance).
 *
 * Everything else runs through `runScoped` (a signed-in user) or `runAsOrganization` (one organization, no
 * user). Getting this handle is always spelled `systemDb(deps.db)`, so every crossing is greppable, and
 * tests/unit/system-path.test.ts lists the files allowed to do it. Query functions that only make sense
 * across organizations take a `SystemDb`, so the compiler refuses a raw handle there.
 */
export type SystemDb = Database & { readonly [crossesOrganizations]: true };

/** Marks the one place a caller deliberately leaves row-level security behind (see `SystemDb`). */
export function systemDb(db: Database): SystemDb {
  return db as SystemDb;
}
