import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { appInstance, processingRun } from '../../db/schema';
import type { SystemDb } from '../../db/system';

/**
 * The claim on a processing run (decision 064): at most one worker per run across processes. A claim is
 * processing_run.lease_owner / lease_expires_at, taken by id on the system path (the caller passes systemDb), renewed by a heartbeat and released when the loop ends.
 */

const seconds = (value: string | undefined, fallback: number) => (Number(value) > 0 ? Number(value) : fallback);

/**
 * How long a claim on a run lasts without renewal: a process that died lets another take the run after this
 * (RUN_LEASE_SECONDS, 60; the cluster tests shorten it).
 */
export const LEASE_SECONDS = seconds(process.env.RUN_LEASE_SECONDS, 60);
/** How often a process renews the claims of the runs it works on (and creates): a quarter of the lease. */
export const HEARTBEAT_MS = LEASE_SECONDS * 250;
/**
 * How often the runs whose claim lapsed are looked for, once per period across processes (RUN_SWEEP_SECONDS, 15):
 * a dead worker's run is taken over between LEASE_SECONDS - HEARTBEAT and LEASE_SECONDS + this after its death
 * (45-75 s by default).
 */
export const SWEEP_SECONDS = seconds(process.env.RUN_SWEEP_SECONDS, 15);
/**
 * How long a process's app_instance row outlives its last heartbeat before the sweep deletes it: four leases (4 min
 * by default). One lease already makes it gone for every decision (its runs and sequence steps are taken over); the
 * rest is a margin in which an operator can still see it. A live process that stalled longer writes its row again at
 * its next heartbeat (an upsert).
 */
export const INSTANCE_GRACE_SECONDS = LEASE_SECONDS * 4;

/**
 * Who works on a run: one id per app instance (its deps object), so two processes on one PostgreSQL, or two
 * test apps in one process, are told apart. It starts with the host and process id, so an operator (and the
 * cluster tests) can tell which process holds a run.
 */
const instanceIds = new WeakMap<object, string>();
export function runOwnerOf(deps: object): string {
  let id = instanceIds.get(deps);
  if (!id) instanceIds.set(deps, (id = `${hostname()}:${process.pid}:${randomUUID()}`));
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

/** The claim a run carries from its creation (a creating request still storing its items), as column values. */
export const creationClaim = (owner: string) => ({ leaseOwner: owner, leaseExpiresAt: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval` });

/**
 * Unfinished runs whose owner is provably gone: a claim that lapsed (nobody renewed it for LEASE_SECONDS), or,
 * for a running run, no claim at all (released, or queued and never taken). A pending run without a claim was
 * created by an older version; it counts as gone once it is older than a lease.
 */
export async function runsWithoutLiveOwner(system: SystemDb, kinds: string[]) {
  return system
    .select({ id: processingRun.id, organizationId: processingRun.organizationId, status: processingRun.status, kind: processingRun.kind })
    .from(processingRun)
    .where(
      and(
        inArray(processingRun.kind, kinds),
        inArray(processingRun.status, ['pending', 'running']),
        or(
          lt(processingRun.leaseExpiresAt, sql`now()`),
          and(
            isNull(processingRun.leaseOwner),
            or(eq(processingRun.status, 'running'), lt(processingRun.createdAt, sql`now() - ${`${LEASE_SECONDS} seconds`}::interval`)),
          ),
        ),
      ),
    )
    .orderBy(processingRun.createdAt);
}

/**
 * Fails a pending run whose creator is provably gone (its creation claim lapsed, as runsWithoutLiveOwner reads
 * it), in the caller's transaction; false when the run is not such a run any more (its creator began it, renewed
 * its claim, or another process failed it first).
 */
export async function failAbandonedCreation(system: SystemDb, runId: string, message: string): Promise<boolean> {
  const rows = await system
    .update(processingRun)
    .set({ status: 'failed', error: message, finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null })
    .where(
      and(
        eq(processingRun.id, runId),
        eq(processingRun.status, 'pending'),
        or(
          lt(processingRun.leaseExpiresAt, sql`now()`),
          and(isNull(processingRun.leaseOwner), lt(processingRun.createdAt, sql`now() - ${`${LEASE_SECONDS} seconds`}::interval`)),
        ),
      ),
    )
    .returning({ id: processingRun.id });
  return rows.length > 0;
}

/**
 * Deletes the app_instance rows of processes gone for longer than the grace, so restarts do not pile them up
 * (decision 135); returns how many.
 */
export async function forgetGoneInstances(system: SystemDb, graceSeconds = INSTANCE_GRACE_SECONDS): Promise<number> {
  const rows = await system
    .delete(appInstance)
    .where(lt(appInstance.heartbeatAt, sql`now() - ${`${graceSeconds} seconds`}::interval`))
    .returning({ id: appInstance.id });
  return rows.length;
}

/** This process is alive: its app_instance row renewed (every HEARTBEAT_MS; jobs/register.ts). */
export async function beatInstance(system: SystemDb, owner: string): Promise<void> {
  await system
    .insert(appInstance)
    .values({ id: owner, heartbeatAt: sql`now()` })
    .onConflictDoUpdate({ target: appInstance.id, set: { heartbeatAt: sql`now()` } });
}
