import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { processingRun } from '../../db/schema';
import type { SystemDb } from '../../db/system';

/**
 * The claim on a processing run (decision 064): at most one worker per run across processes. A claim is
 * processing_run.lease_owner / lease_expires_at, taken by id on the system path (the caller passes systemDb), renewed by a heartbeat and released when the loop ends.
 */

/** How long a claim on a run lasts without renewal: a process that died lets another take the run after this. */
export const LEASE_SECONDS = 60;
/** How often a process renews the claims of the runs it works on. */
export const HEARTBEAT_MS = 15_000;

/**
 * Who works on a run: one id per app instance (its deps object), so two processes on one PostgreSQL, or two
 * test apps in one process, are told apart.
 */
const instanceIds = new WeakMap<object, string>();
export function runOwnerOf(deps: object): string {
  let id = instanceIds.get(deps);
  if (!id) instanceIds.set(deps, (id = randomUUID()));
  return id;
}

export type Claim = 'claimed' | 'gone' | { heldForMs: number };

/**
 * Takes the run for this instance when nobody else holds a live claim on it: 'claimed', 'gone' (no such
 * run, or it is not pending or running any more), or how long another instance's claim still holds.
 */
export async function claimRun(system: SystemDb, runId: string, owner: string): Promise<Claim> {
  const rows = await system
    .update(processingRun)
    .set({ leaseOwner: owner, leaseExpiresAt: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval` })
    .where(
      and(
        eq(processingRun.id, runId),
        // A finished run is not claimed: there is nothing left to work on.
        inArray(processingRun.status, ['pending', 'running']),
        or(isNull(processingRun.leaseOwner), eq(processingRun.leaseOwner, owner), lt(processingRun.leaseExpiresAt, sql`now()`)),
      ),
    )
    .returning({ id: processingRun.id });
  if (rows.length > 0) return 'claimed';
  const [run] = await system
    .select({ status: processingRun.status, heldForMs: sql<number>`greatest(0, extract(epoch from ${processingRun.leaseExpiresAt} - now()) * 1000)::int` })
    .from(processingRun)
    .where(eq(processingRun.id, runId));
  return run && (run.status === 'pending' || run.status === 'running') ? { heldForMs: Number(run.heldForMs ?? 0) } : 'gone';
}

export async function renewRun(system: SystemDb, runId: string, owner: string): Promise<void> {
  await system
    .update(processingRun)
    .set({ leaseExpiresAt: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval` })
    .where(and(eq(processingRun.id, runId), eq(processingRun.leaseOwner, owner)));
}

export async function releaseRun(system: SystemDb, runId: string, owner: string): Promise<void> {
  await system
    .update(processingRun)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(processingRun.id, runId), eq(processingRun.leaseOwner, owner)));
}
