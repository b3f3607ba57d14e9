import type { ProcessingRun } from '../../../contract/processing-runs';
import { PROCESSING_RUN_STATUSES } from '../../../contract/processing-runs';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { countOutcomes, findRun, listRunItems, listRuns, type ProcessingRunRow } from './queries';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { insertCandidateItems } from './queries';

export function toRun(row: ProcessingRunRow): ProcessingRun {
  return {
    id: row.id,
    organizationId: row.organizationId,
    kind: row.kind,
    label: row.label,
    status: row.status,
    total: row.total,
    processed: row.processed,
    succeeded: row.succeeded,
    merged: row.merged,
    skipped: row.skipped,
    failed: row.failed,
    progress: row.total === 0 ? (row.status === 'completed' ? 1 : 0) : Math.min(1, row.processed / row.total),
    options: row.options ?? {},
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.error,
  };
}

export interface ListRunsQuery {
  organizationIds?: string[];
  orgs?: string[];
  kind?: string;
  search?: string;
  limit: number;
}

export async function listProcessingRuns(db: Database, scope: RequestScope, query: ListRunsQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationIds, query.orgs);
  const rows = await runScoped(db, scope, (tx) => listRuns(tx, { organizationIds, kind: query.kind, search: query.search, limit: query.limit }));
  return { runs: rows.map(toRun) };
}

/** The listed runs plus counts: runs by status, and rows by outcome summed over those runs. */
export async function processingRunsData(db: Database, scope: RequestScope, query: ListRunsQuery) {
  const { runs } = await listProcessingRuns(db, scope, query);
  const byStatus = Object.fromEntries(PROCESSING_RUN_STATUSES.map((status) => [status, 0])) as Record<(typeof PROCESSING_RUN_STATUSES)[number], number>;
  const rows = { total: 0, processed: 0, succeeded: 0, merged: 0, skipped: 0, failed: 0 };
  for (const run of runs) {
    byStatus[run.status]++;
    for (const key of Object.keys(rows) as Array<keyof typeof rows>) rows[key] += run[key];
  }
  return { runs, summary: { runs: runs.length, byStatus, rows } };
}

export async function processingRunData(db: Database, scope: RequestScope, runId: string, page: { limit: number; offset: number; outcome?: string }) {
  return runScoped(db, scope, async (tx) => {
    const run = await findRun(tx, runId);
    if (!run || !canReach(scope, run.organizationId)) throw notFound('Processing run not found');
    const [{ items, total }, outcomes] = [await listRunItems(tx, run.id, page), await countOutcomes(tx, run.id)];
    return {
      run: toRun(run),
      items: items.map(({ item, firstName, lastName }) => ({
        rowNumber: item.rowNumber,
        outcome: item.outcome as 'pending',
        errors: item.errors ?? [],
        candidateId: item.candidateId,
        candidateName: firstName !== null ? [firstName, lastName].filter(Boolean).join(' ') : null,
        input: item.input ?? null,
        processedAt: item.processedAt?.toISOString() ?? null,
      })),
      itemTotal: total,
      outcomes,
      limit: page.limit,
      offset: page.offset,
    };
  });
}
