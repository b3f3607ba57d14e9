import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';
import { systemDb } from './system';

type MaintenanceDeps = { db: Database; logger: { warn: (object: object, message: string) => void } };

/** One maintenance statement as the database's owner; a failure is logged (its kind only) and tried again next hour. */
async function maintenanceStatement(deps: MaintenanceDeps, statement: SQL, failure: string): Promise<void> {
  await systemDb(deps.db)
    .execute(statement)
    .catch((error: Error) => deps.logger.warn({ errorName: error.name }, failure));
}

/**
 * ANALYZE of the whole database, as its owner: the planner's row counts and value spreads stay true as
 * organizations grow. PGlite runs no autovacuum, and a customer's PostgreSQL may have it off (issue 17).
 * Sampled (30,000 rows a table), so it stays cheap at any size. Used by the hourly maintenance job and after
 * migrations; a failure is logged and retried next hour.
 */
export async function refreshPlannerStatistics(deps: MaintenanceDeps): Promise<void> {
  await maintenanceStatement(deps, sql`analyze`, 'analyze failed');
}

/**
 * The candidate counts' rows of changes folded into one row per organization and status (decision 115), so the list's
 * sum stays a read of a few rows. Hourly and at start, before the ANALYZE; a failure is logged and retried next hour.
 */
export async function foldCandidateCounts(deps: MaintenanceDeps): Promise<void> {
  await maintenanceStatement(deps, sql`select candidate_count_fold()`, 'candidate count fold failed');
}

/** The hourly maintenance (and the one at start): counts folded, then planner statistics refreshed. */
export async function maintainDatabase(deps: MaintenanceDeps): Promise<void> {
  await foldCandidateCounts(deps);
  await refreshPlannerStatistics(deps);
}
