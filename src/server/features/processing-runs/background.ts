import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { processingRun } from '../../db/schema';
import { systemDb, type SystemDb } from '../../db/system';

/** How long a claim on a run lasts without renewal: a process that died lets another take the run after this. */
const LEASE_SECONDS = 60;
/** How often a process renews the claims of the runs it works on. */
const HEARTBEAT_MS = 15_000;

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

/**
 * Takes the run for this instance when nobody else holds a live claim on it: 'claimed', 'gone' (no such
 * run, or it is not pending or running any more), or how long another instance's claim still holds.
 */
async function claimRun(system: SystemDb, runId: string, owner: string): Promise<'claimed' | 'gone' | { heldForMs: number }> {
  const rows = await system
    .update(processingRun)
    .set({ leaseOwner: owner, leaseExpiresAt: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval` })
    .where(
      and(eq(processingRun.id, runId), or(isNull(processingRun.leaseOwner), eq(processingRun.leaseOwner, owner), lt(processingRun.leaseExpiresAt, sql`now()`))),
    )
    .returning({ id: processingRun.id });
  if (rows.length > 0) return 'claimed';
  const [run] = await system
    .select({ status: processingRun.status, heldForMs: sql<number>`greatest(0, extract(epoch from ${processingRun.leaseExpiresAt} - now()) * 1000)::int` })
    .from(processingRun)
    .where(eq(processingRun.id, runId));
  return run && (run.status === 'pending' || run.status === 'running') ? { heldForMs: Number(run.heldForMs ?? 0) } : 'gone';
}

async function renewRun(system: SystemDb, runId: string, owner: string): Promise<void> {
  await system
    .update(processingRun)
    .set({ leaseExpiresAt: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval` })
    .where(and(eq(processingRun.id, runId), eq(processingRun.leaseOwner, owner)));
}

async function releaseRun(system: SystemDb, runId: string, owner: string): Promise<void> {
  await system
    .update(processingRun)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(processingRun.id, runId), eq(processingRun.leaseOwner, owner)));
}

/**
 * The background loop of a kind of processing run (decision 006): at most one loop per run in this instance,
 * started on the next turn of the event loop, and at most one across processes: the loop first claims the run
 * (processing_run.lease_owner, renewed every 15 s, lapsing after 60 s), so a second process resuming runs at
 * start-up leaves alone a run another live process is working on (decision 023).
 */
export function backgroundRuns<Deps extends { db: Database }>(process: (deps: Deps, runId: string, organizationId: string) => Promise<void>) {
  const activeByInstance = new WeakMap<Deps, Map<string, Promise<void>>>();
  /** For tests and shutdown: the latest loop of each run, whichever instance runs it. */
  const latest = new Map<string, Promise<void>>();
  const activeOf = (deps: Deps) => {
    let active = activeByInstance.get(deps);
    if (!active) activeByInstance.set(deps, (active = new Map()));
    return active;
  };
  const runs = {
    /**
     * Processes a run in the background unless this instance already does. When another instance holds a
     * live claim, it looks again once that claim could have lapsed: a process restarted right after a crash
     * finds its own old claim still live, and must take the run over when it lapses.
     */
    schedule(deps: Deps, runId: string, organizationId: string): Promise<void> {
      const active = activeOf(deps);
      const existing = active.get(runId);
      if (existing) return existing;
      const owner = runOwnerOf(deps);
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(async () => {
          // A database error counts as a live claim: looked at again later, never an unhandled rejection.
          const claim = await claimRun(systemDb(deps.db), runId, owner).catch(() => ({ heldForMs: LEASE_SECONDS * 1000 }));
          if (claim === 'gone') return;
          if (claim !== 'claimed') {
            setTimeout(() => void runs.schedule(deps, runId, organizationId).catch(() => undefined), claim.heldForMs + 1000).unref();
            return;
          }
          const heartbeat = setInterval(() => void renewRun(systemDb(deps.db), runId, owner).catch(() => undefined), HEARTBEAT_MS);
          heartbeat.unref();
          try {
            await process(deps, runId, organizationId);
          } finally {
            clearInterval(heartbeat);
            await releaseRun(systemDb(deps.db), runId, owner).catch(() => undefined);
          }
        })
        .finally(() => {
          active.delete(runId);
          if (latest.get(runId) === work) latest.delete(runId);
        });
      active.set(runId, work);
      latest.set(runId, work);
      return work;
    },
    /** Resolves when the run's background processing (if any, in this process) has settled. */
    whenSettled: (runId: string): Promise<void> => latest.get(runId) ?? Promise.resolve(),
    isActive: (deps: Deps, runId: string) => activeOf(deps).has(runId),
  };
  return runs;
}
