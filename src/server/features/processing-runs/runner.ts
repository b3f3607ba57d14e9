import { and, asc, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../../audit';
import type { Database } from '../../db/client';
import { processingRun, processingRunItem } from '../../db/schema';
import { runAsOrganization, type Executor, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { QUEUES, type Jobs } from '../../jobs/jobs';
import type { Logger } from '../../logger';
import { backgroundRuns, type TakeResult } from './background';
import { runOwnerOf } from './lease';
import { failRun, lockRun, nextPendingItems, settleItem, settleItems, type ItemOutcome, type ProcessingRunRow, type RunCounter, type RunItem } from './queries';

/**
 * The run engine (decision 039): one lifecycle for every kind of processing run (candidate import, bulk
 * prescreen calls; the trial matcher and sequences next). A kind says how to process its items; the engine
 * owns the rest:
 *
 *   create (pending, audit 'processing_run.create') -> the feature adds its items -> begin (running, startedAt)
 *   -> trigger: a `processing-run` pg-boss job, so any process may take the run up (this one is woken at once)
 *   -> the job's handler claims the run (lease.ts: one worker across processes) and loops here in the
 *      background: pending items in row order, progress counters, completed + audit, or failed with the
 *      message the user sees
 *   -> at start-up resumeRuns() fails runs that died while being created and queues every run left running.
 *
 * The job only hands the run to a process: its handler returns once the claim is decided, and the loop goes on
 * under the claim (a run may last hours; a pg-boss job expires after minutes and would hold a worker).
 */

export type { ItemError, ItemOutcome, ProcessingRunRow, RunCounter, RunItem } from './queries';

/** What the engine needs of the app: the database, a logger (ids and error names only) and the job queue. */
export interface RunDeps {
  db: Database;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  jobs: Pick<Jobs, 'send' | 'wake'>;
}

/** What a kind's hooks get: the run as it was when the loop started, and the engine's item operations. */
export interface RunContext<Deps, Outcome extends string> {
  deps: Deps;
  run: ProcessingRunRow;
  /** In the caller's transaction: locks the run's row; true while it is running and this instance holds its claim. */
  holds(tx: Transaction): Promise<boolean>;
  /** Settles one pending item and advances the counters; false when it was already settled. */
  settle(tx: Transaction, outcome: ItemOutcome<Outcome>): Promise<boolean>;
  /** Stops the run as failed; `message` is what the user sees on the run. */
  fail(tx: Transaction, message: string): Promise<void>;
}

interface KindBase<Outcome extends string> {
  /** processing_run.kind. */
  kind: string;
  /** Which run counter each item outcome advances ('processed' always does). */
  counters: Record<Outcome, RunCounter>;
  messages: {
    /** Shown on a run whose processing threw. */
    failed: string;
    /** Shown on a run found still 'pending' at start-up: its process died while creating it. */
    interrupted: string;
  };
  /** The 'processing_run.complete' audit record's changes (counts only). */
  completion(run: ProcessingRunRow): Record<string, unknown>;
}

/** Items settled in batches, each batch in ONE transaction of the engine's (with the run locked): import. */
export interface BatchKind<Deps, Outcome extends string> extends KindBase<Outcome> {
  batchSize: number;
  /** Does the batch's work in `tx` and returns one outcome per item; the engine writes them and the counters. */
  processBatch(tx: Transaction, ctx: RunContext<Deps, Outcome>, items: RunItem[]): Promise<ItemOutcome<Outcome>[]>;
  /** After each batch's commit (more: whether another batch follows). */
  afterBatch?(deps: Deps, progress: { batches: number; more: boolean }): Promise<void>;
}

/**
 * Items handled one at a time in the kind's own transactions (work outside a transaction, such as dialling,
 * sits between them): bulk calls. The kind settles each item with ctx.settle in the transaction of its effect
 * and checks ctx.holds first.
 */
export interface ItemKind<Deps, Outcome extends string> extends KindBase<Outcome> {
  /** How many pending items are read at a time. */
  pageSize?: number;
  processItem(ctx: RunContext<Deps, Outcome>, item: RunItem): Promise<'next' | 'stop'>;
}

export type RunKindDefinition<Deps, Outcome extends string> = BatchKind<Deps, Outcome> | ItemKind<Deps, Outcome>;

export interface CreateRunInput {
  organizationId: string;
  createdByUserId: string | null;
  label: string;
  /** Known up front (an import's rows); otherwise what addItems answers. */
  total?: number;
  options: Record<string, unknown>;
  /** Stores the run's items in the same transaction; returns how many. */
  addItems?: (runId: string) => Promise<number>;
  /** The creation audit record's changes besides the kind (counts and settings, no personal data). */
  audit: (items: number) => Record<string, unknown>;
}

/** A registered kind: what features call. Deps is what its hooks need (AppDeps satisfies every kind's). */
export interface RunKind<Deps extends RunDeps = RunDeps> {
  readonly kind: string;
  readonly messages: KindBase<string>['messages'];
  /** Inserts the run ('pending') and its creation audit, and the items when addItems is given, in `tx`. */
  create(tx: Executor, input: CreateRunInput): Promise<{ run: ProcessingRunRow; items: number }>;
  /** Marks the run 'running' (startedAt now), with a final label or total when they were not known at creation. */
  begin(executor: Executor, runId: string, patch?: { label?: string; total?: number }): Promise<ProcessingRunRow>;
  /** A run whose creation failed half-way: its items are removed and it fails with `message`. */
  abandon(executor: Executor, runId: string, message: string): Promise<void>;
  /** After the creating transaction committed: asks a process (this one first) to work on the run. */
  trigger(deps: Deps, runId: string, organizationId: string): Promise<void>;
  /** Works on the run in this instance unless it already does; resolves once the claim is decided. */
  take(deps: Deps, runId: string, organizationId: string): Promise<TakeResult>;
  /** For tests and benchmarks: resolves when the run's processing in this process has settled. */
  whenSettled(runId: string): Promise<void>;
  /** resumeRuns for this kind alone. */
  resume(deps: Deps): Promise<string[]>;
}

export interface RunJob {
  runId: string;
  organizationId: string;
  kind: string;
}

/**
 * Runs triggered by this process whose loop has not started yet, so whenSettled right after a start waits for
 * the loop the job will start. Settled when a loop of this process ends on the run; a run another process
 * took up stays here (tests and benchmarks run one process).
 */
const expected = new Map<string, { promise: Promise<void>; resolve: () => void }>();
function expectLoop(runId: string) {
  if (expected.has(runId)) return;
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  expected.set(runId, { promise, resolve });
}
function loopEnded(runId: string) {
  expected.get(runId)?.resolve();
  expected.delete(runId);
}

/** Every kind defined in this process, by name: the job handler runs any of them. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in the deps their hooks need; AppDeps satisfies all.
const registry = new Map<string, RunKind<any>>();

/** Registers a kind of run once (at module load of its feature) and returns what the feature calls. */
export function defineRunKind<Deps extends RunDeps, Outcome extends string>(definition: RunKindDefinition<Deps, Outcome>): RunKind<Deps> {
  if (registry.has(definition.kind)) throw new Error(`Processing run kind ${definition.kind} is defined twice`);

  const queueJob = (deps: Deps, job: RunJob, startAfter?: Date) => deps.jobs.send(QUEUES.processingRun, { ...job }, startAfter ? { startAfter } : {});

  const loops = backgroundRuns<Deps>((deps, runId, organizationId) => work(deps, definition, runId, organizationId), {
    // Another process works on the run: a job for when its claim could have lapsed, which any live process takes.
    onHeld: (deps, runId, organizationId, heldForMs) => {
      queueJob(deps, { runId, organizationId, kind: definition.kind }, new Date(Date.now() + heldForMs + 1000)).catch((error: Error) =>
        deps.logger.warn({ runId, errorName: error.name }, 'could not queue a look at a claimed processing run; the next start-up resumes it'),
      );
    },
  });
  const schedule = (deps: Deps, runId: string, organizationId: string, taken?: (result: TakeResult) => void) => {
    const loop = loops.schedule(deps, runId, organizationId, taken);
    void loop.finally(() => loopEnded(runId)).catch(() => undefined);
    return loop;
  };

  const kind: RunKind<Deps> = {
    kind: definition.kind,
    messages: definition.messages,
    async create(tx, input) {
      const [created] = await tx
        .insert(processingRun)
        .values({
          organizationId: input.organizationId,
          kind: definition.kind,
          label: input.label,
          status: 'pending',
          total: input.total ?? 0,
          options: input.options,
          createdByUserId: input.createdByUserId,
        })
        .returning();
      const items = input.addItems ? await input.addItems(created.id) : (input.total ?? 0);
      await recordAudit(tx, {
        organizationId: input.organizationId,
        actorUserId: input.createdByUserId,
        action: 'processing_run.create',
        entityType: 'processing_run',
        entityId: created.id,
        changes: { kind: definition.kind, ...input.audit(items) },
      });
      return { run: created, items };
    },
    async begin(executor, runId, patch = {}) {
      const [started] = await executor
        .update(processingRun)
        .set({ ...patch, status: 'running', startedAt: new Date() })
        .where(eq(processingRun.id, runId))
        .returning();
      return started;
    },
    async abandon(executor, runId, message) {
      await executor.delete(processingRunItem).where(eq(processingRunItem.runId, runId));
      await failRun(executor, runId, message);
    },
    async trigger(deps, runId, organizationId) {
      expectLoop(runId);
      try {
        await queueJob(deps, { runId, organizationId, kind: definition.kind });
        deps.jobs.wake(QUEUES.processingRun);
      } catch (error) {
        // No queue (stopped, or a script that never started it): this process works on the run itself.
        deps.logger.warn({ runId, errorName: (error as Error).name }, 'processing run not queued; working on it in this process');
        void schedule(deps, runId, organizationId);
      }
    },
    take: (deps, runId, organizationId) =>
      new Promise<TakeResult>((resolve) => {
        void schedule(deps, runId, organizationId, resolve);
      }),
    whenSettled: (runId) => (loops.hasLoop(runId) ? loops.whenSettled(runId) : (expected.get(runId)?.promise ?? Promise.resolve())),
    resume: (deps) => resumeRuns(deps, [kind]),
  };
  registry.set(definition.kind, kind);
  return kind;
}

// ---- the loop ----

async function work<Deps extends RunDeps, Outcome extends string>(
  deps: Deps,
  definition: RunKindDefinition<Deps, Outcome>,
  runId: string,
  organizationId: string,
): Promise<void> {
  const owner = runOwnerOf(deps);
  try {
    const [run] = await runAsOrganization(deps.db, organizationId, (tx) => tx.select().from(processingRun).where(eq(processingRun.id, runId)));
    if (run?.status !== 'running') return;
    const lockHeld = async (tx: Transaction) => {
      const locked = await lockRun(tx, runId);
      // Another process took the run over (this one stalled past its claim): it goes on from here.
      return locked?.status === 'running' && locked.leaseOwner === owner ? locked : undefined;
    };
    const ctx: RunContext<Deps, Outcome> = {
      deps,
      run,
      holds: async (tx) => Boolean(await lockHeld(tx)),
      settle: (tx, outcome) => settleItem(tx, runId, outcome, definition.counters[outcome.outcome]),
      fail: (tx, message) => failRun(tx, runId, message),
    };
    if ('processBatch' in definition) await batchLoop(deps, definition, ctx, lockHeld);
    else await itemLoop(deps, definition, ctx);
  } catch (error) {
    deps.logger.error(
      { runId, kind: definition.kind, errorName: (error as Error).name, dbCode: (error as { cause?: { code?: string } }).cause?.code },
      'processing run failed',
    );
    await runAsOrganization(deps.db, organizationId, (tx) => failRun(tx, runId, definition.messages.failed)).catch(() => undefined);
  }
}

/** Completes a run whose items are all settled (the run's row locked by the caller). */
async function complete(tx: Transaction, definition: { completion(run: ProcessingRunRow): Record<string, unknown> }, run: ProcessingRunRow): Promise<void> {
  await tx.update(processingRun).set({ status: 'completed', finishedAt: new Date() }).where(eq(processingRun.id, run.id));
  await recordAudit(tx, {
    organizationId: run.organizationId,
    actorUserId: run.createdByUserId,
    action: 'processing_run.complete',
    entityType: 'processing_run',
    entityId: run.id,
    changes: definition.completion(run),
  });
}

/**
 * Each batch is one transaction: the run locked (and still this instance's), its next pending items, the
 * kind's work, the items' outcomes and the counters. A crash loses at most the open batch, whose items stay
 * pending.
 */
async function batchLoop<Deps extends RunDeps, Outcome extends string>(
  deps: Deps,
  definition: BatchKind<Deps, Outcome>,
  ctx: RunContext<Deps, Outcome>,
  lockHeld: (tx: Transaction) => Promise<ProcessingRunRow | undefined>,
): Promise<void> {
  const { id: runId, organizationId } = ctx.run;
  // Items go in row order, so the next pending ones come after the last batch's.
  let afterRow = 0;
  let batches = 0;
  for (;;) {
    const more = await runAsOrganization(deps.db, organizationId, async (tx) => {
      const run = await lockHeld(tx);
      if (!run) return false;
      const items = await nextPendingItems(tx, runId, afterRow, definition.batchSize);
      if (items.length === 0) {
        await complete(tx, definition, run);
        return false;
      }
      const outcomes = await definition.processBatch(tx, ctx, items);
      await settleItems(tx, runId, outcomes, definition.counters);
      afterRow = items.at(-1)!.rowNumber;
      return true;
    });
    batches++;
    await definition.afterBatch?.(deps, { batches, more });
    if (!more) return;
    // Let other requests (PGlite has one connection) run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function itemLoop<Deps extends RunDeps, Outcome extends string>(
  deps: Deps,
  definition: ItemKind<Deps, Outcome>,
  ctx: RunContext<Deps, Outcome>,
): Promise<void> {
  const { id: runId, organizationId } = ctx.run;
  let afterRow = 0;
  for (;;) {
    const items = await runAsOrganization(deps.db, organizationId, (tx) => nextPendingItems(tx, runId, afterRow, definition.pageSize ?? 100));
    if (items.length === 0) {
      await runAsOrganization(deps.db, organizationId, async (tx) => {
        const run = await lockRun(tx, runId);
        if (run?.status === 'running') await complete(tx, definition, run);
      });
      return;
    }
    for (const item of items) {
      if ((await definition.processItem(ctx, item)) === 'stop') return;
      afterRow = item.rowNumber;
      // Let requests and the simulator's messages (PGlite has one connection) run between items.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

// ---- triggering and resuming ----

/** The job handler of the `processing-run` queue (jobs/register.ts): any kind defined in this process. */
export function runJobHandler<Deps extends RunDeps>(deps: Deps) {
  return async (job: RunJob): Promise<void> => {
    const kind = registry.get(job.kind);
    if (!kind) {
      deps.logger.warn({ runId: job.runId, kind: job.kind }, 'processing run of a kind this process does not run');
      return;
    }
    await kind.take(deps, job.runId, job.organizationId);
  };
}

/**
 * At start-up, for every organization (the system path: ids only): a run left 'pending' died while being
 * created, so its items are removed and it fails with its kind's message; a run left 'running' is queued
 * again, and whichever process takes the job continues it from its pending items (a run another live process
 * still holds is left to it by the claim). Returns the runs queued.
 */
export async function resumeRuns<Deps extends RunDeps>(deps: Deps, kinds: RunKind<Deps>[]): Promise<string[]> {
  const byName = new Map(kinds.map((kind) => [kind.kind, kind]));
  if (byName.size === 0) return [];
  const system = systemDb(deps.db);
  const runs = await system
    .select({ id: processingRun.id, organizationId: processingRun.organizationId, status: processingRun.status, kind: processingRun.kind })
    .from(processingRun)
    .where(and(inArray(processingRun.kind, [...byName.keys()]), inArray(processingRun.status, ['pending', 'running'])))
    .orderBy(asc(processingRun.createdAt));
  const resumed: string[] = [];
  for (const run of runs) {
    const kind = byName.get(run.kind)!;
    if (run.status === 'pending') {
      await system.transaction((tx) => kind.abandon(tx, run.id, kind.messages.interrupted));
      continue;
    }
    deps.logger.info({ runId: run.id, kind: run.kind }, 'resuming processing run');
    await kind.trigger(deps, run.id, run.organizationId);
    resumed.push(run.id);
  }
  return resumed;
}
