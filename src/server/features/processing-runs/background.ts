import type { Database } from '../../db/client';
import { systemDb } from '../../db/system';
import { claimRun, HEARTBEAT_MS, LEASE_SECONDS, releaseRun, renewRun, runOwnerOf } from './lease';

export { runOwnerOf };

/** What became of a request to work on a run in this instance. */
export type TakeResult = 'claimed' | 'gone' | 'already' | { heldForMs: number };

export interface BackgroundRunsOptions<Deps> {
  /**
   * Another instance holds a live claim on the run: what to do about it. By default this instance looks again
   * once that claim could have lapsed (a timer); the run engine (runner.ts) queues a delayed job instead, so
   * whichever process is alive then takes the run.
   */
  onHeld?: (deps: Deps, runId: string, organizationId: string, heldForMs: number) => void;
}

/**
 * The in-process loop of a kind of processing run (decision 006): at most one loop per run in this instance,
 * started on the next turn of the event loop, and at most one across processes: the loop first claims the run
 * (lease.ts: processing_run.lease_owner, renewed every 15 s, lapsing after 60 s), so a second process resuming
 * runs at start-up leaves alone a run another live process is working on (decision 064). The run engine
 * (runner.ts, decision 039) builds on it; every kind of run goes through the engine.
 */
export function backgroundRuns<Deps extends { db: Database }>(
  process: (deps: Deps, runId: string, organizationId: string) => Promise<void>,
  options: BackgroundRunsOptions<Deps> = {},
) {
  const activeByInstance = new WeakMap<Deps, Map<string, Promise<void>>>();
  /** For tests and shutdown: every loop on each run in this process, whichever instance runs it. */
  const loopsOf = new Map<string, Set<Promise<void>>>();
  const activeOf = (deps: Deps) => {
    let active = activeByInstance.get(deps);
    if (!active) activeByInstance.set(deps, (active = new Map()));
    return active;
  };
  const onHeld =
    options.onHeld ??
    ((deps: Deps, runId: string, organizationId: string, heldForMs: number) => {
      setTimeout(() => void runs.schedule(deps, runId, organizationId).catch(() => undefined), heldForMs + 1000).unref();
    });
  const runs = {
    /**
     * Processes a run in the background unless this instance already does. When another instance holds a
     * live claim, it looks again once that claim could have lapsed (onHeld): a process restarted right after
     * a crash finds its own old claim still live, and must take the run over when it lapses. `taken` hears
     * what the claim came to, before the work goes on.
     */
    schedule(deps: Deps, runId: string, organizationId: string, taken?: (result: TakeResult) => void): Promise<void> {
      const active = activeOf(deps);
      const existing = active.get(runId);
      if (existing) {
        taken?.('already');
        return existing;
      }
      const owner = runOwnerOf(deps);
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(async () => {
          // A database error counts as a live claim: looked at again later, never an unhandled rejection.
          const claim = await claimRun(systemDb(deps.db), runId, owner).catch(() => ({ heldForMs: LEASE_SECONDS * 1000 }));
          taken?.(claim);
          if (claim === 'gone') return;
          if (claim !== 'claimed') return onHeld(deps, runId, organizationId, claim.heldForMs);
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
          const loops = loopsOf.get(runId);
          loops?.delete(work);
          if (loops?.size === 0) loopsOf.delete(runId);
        });
      active.set(runId, work);
      loopsOf.set(runId, (loopsOf.get(runId) ?? new Set()).add(work));
      return work;
    },
    /** Resolves when the run's background processing (if any, in this process) has settled. */
    whenSettled: async (runId: string): Promise<void> => {
      // A loop may end after another began (an instance that found the run held): wait until none is left.
      for (let loops = loopsOf.get(runId); loops; loops = loopsOf.get(runId)) await Promise.allSettled([...loops]);
    },
    /** Resolves when no loop of this kind is left in this process (a test app's close, before its database closes). */
    whenIdle: async (): Promise<void> => {
      while (loopsOf.size) await Promise.allSettled([...loopsOf.values()].flatMap((loops) => [...loops]));
    },
    isActive: (deps: Deps, runId: string) => activeOf(deps).has(runId),
    /** Whether some instance in this process has a loop on the run. */
    hasLoop: (runId: string) => loopsOf.has(runId),
  };
  return runs;
}
