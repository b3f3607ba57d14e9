import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit, rowChange } from '../../audit';
import type { Database } from '../../db/client';
import { processingRun, processingRunItem } from '../../db/schema';
import { runAsOrganization, type Executor, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { AppError } from '../../http/errors';
import { QUEUES, type Jobs } from '../../jobs/jobs';
import type { Logger } from '../../logger';
import { backgroundRuns, type TakeResult } from './background';
import {
  beatInstance,
  creationClaim,
  failAbandonedCreation,
  forgetGoneInstances,
  HEARTBEAT_MS,
  LEASE_SECONDS,
  renewRun,
  runOwnerOf,
  runsWithoutLiveOwner,
  SWEEP_SECONDS,
} from './lease';
import {
  failRun,
  lockRun,
  nextPendingItems,
  settleItem,
  settleItems,
  stillPending,
  type ItemOutcome,
  type ProcessingRunRow,
  type RunCounter,
  type RunItem,
} from './queries';

/**
 * The run engine (decisions 039, 042): one lifecycle for every kind of processing run (candidate import, bulk
 * prescreen calls, the trial matcher; sequences next). A kind says how to process its items (or its slices); the engine
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
/** Who works on (or creates) a run: one id per app instance (lease.ts). */
export { beatInstance, HEARTBEAT_MS, LEASE_SECONDS, runOwnerOf, SWEEP_SECONDS };

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

interface KindBase {
  /** processing_run.kind. */
  kind: string;
  messages: {
    /** Shown on a run whose processing threw. */
    failed: string;
    /** Shown on a run found still 'pending' at start-up: its process died while creating it. */
    interrupted: string;
  };
  /** The 'processing_run.complete' audit record's changes (counts only). */
  completion(run: ProcessingRunRow): Record<string, unknown>;
}

/** The kinds whose work is processing_run_item rows. */
interface ItemsBase<Outcome extends string> extends KindBase {
  /** Which run counter each item outcome advances ('processed' always does). */
  counters: Record<Outcome, RunCounter>;
}

/** Items settled in batches, each batch in ONE transaction of the engine's (with the run locked): import. */
export interface BatchKind<Deps, Outcome extends string> extends ItemsBase<Outcome> {
  batchSize: number;
  /**
   * Work on a batch's items that needs no transaction (parsing, validation), put on each item's `prepared`. The
   * engine reads the next batch and prepares it while the current batch is written, so this process's work
   * overlaps the database's (decision 100); processBatch then finds `prepared` set.
   */
  prepareBatch?(ctx: RunContext<Deps, Outcome>, items: RunItem[]): void;
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
export interface ItemKind<Deps, Outcome extends string> extends ItemsBase<Outcome> {
  /** How many pending items are read at a time. */
  pageSize?: number;
  processItem(ctx: RunContext<Deps, Outcome>, item: RunItem): Promise<'next' | 'stop'>;
}

export type RunKindDefinition<Deps, Outcome extends string> = BatchKind<Deps, Outcome> | ItemKind<Deps, Outcome>;

/** What a slice kind's hooks get: the run as it was when the loop started. */
export interface SliceContext<Deps> {
  deps: Deps;
  run: ProcessingRunRow;
}

/** What a slice's write adds to the run: counters besides 'processed' (which advances by the slice's rows). */
export interface SliceWritten {
  counters?: Partial<Record<RunCounter, number>>;
  /** Merged into the run's options with the cursor (e.g. counts kept slice by slice). */
  options?: Record<string, unknown>;
}

/**
 * Work over rows the kind reads itself, slice after slice in the order of a cursor, with no processing_run_item
 * rows (the trial matcher: 100,000 candidates, whose results are the kind's own rows). The engine keeps the
 * cursor in the run's options (`options.cursor`, null before the first slice). While the kind processes a slice
 * outside a transaction, the engine reads the next slice and writes the one before (each its own transaction:
 * its own connection on PostgreSQL; decision 104). A slice is written in one transaction of the engine's, with the
 * run locked and still this instance's, only once the slice before committed and only if the stored cursor is
 * where the slice began: the kind writes the slice and the engine stores the cursor after it, the counters and the
 * progress. A crash loses at most the slices in flight (one being written, one being processed); a resumed run
 * reads on from the stored cursor. `total` is an estimate until the run completes, when it becomes what was
 * processed.
 */
export interface SliceKind<Deps, Setup, Row, Result, Cursor> extends KindBase {
  /** Once per loop (also a resumed one), in a transaction: what every slice needs (a trial's criteria). */
  prepare(tx: Transaction, ctx: SliceContext<Deps>): Promise<Setup>;
  /** The slice after `after` (null: the first) in cursor order, in its own transaction; no rows once the work is done. */
  readSlice(tx: Transaction, ctx: SliceContext<Deps>, setup: Setup, after: Cursor | null): Promise<Row[]>;
  /** The cursor just after a row (stored as JSON: plain values). */
  cursorAfter(row: Row): Cursor;
  /** The slice's work outside a transaction (meanwhile the next slice is read and the one before written). */
  processSlice(ctx: SliceContext<Deps>, setup: Setup, rows: Row[]): Promise<Result>;
  /** Writes the slice's results in the engine's transaction; `run` is the locked row (its stored options). */
  writeSlice(tx: Transaction, ctx: SliceContext<Deps>, slice: { setup: Setup; rows: Row[]; result: Result; run: ProcessingRunRow }): Promise<SliceWritten>;
  /** In the completing transaction, before 'completed' and the audit record: the run's final options. */
  finish?(tx: Transaction, ctx: SliceContext<Deps>, setup: Setup, run: ProcessingRunRow): Promise<Record<string, unknown>>;
  /**
   * After the completing transaction committed (the run shows as completed), before `afterSlice`'s last call:
   * clean-up the run's readers need not wait for (the matcher deletes the results it replaced, decision 113).
   */
  afterComplete?(tx: Transaction, ctx: SliceContext<Deps>): Promise<void>;
  /**
   * After a completed run, outside any transaction: work the run sets going in other features (their own runs and
   * transactions). A failure is logged; the run stays completed.
   */
  afterEnd?(ctx: SliceContext<Deps>): Promise<void>;
  /** After each slice's commit (once the slice after it is processed), and after the run's end (more: false). */
  afterSlice?(deps: Deps, progress: { slices: number; more: boolean }): Promise<void>;
}

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
  /**
   * The creating instance (runOwnerOf(deps)) when the run's items are stored after its creating transaction: the
   * pending run then carries this instance's claim, renewed by `holdWhileCreating` until begin, so no sweep takes it
   * for dead while its request is still storing rows (decision 122).
   */
  creator?: string;
}

/** A registered kind: what features call. Deps is what its hooks need (AppDeps satisfies every kind's). */
export interface RunKind<Deps extends RunDeps = RunDeps> {
  readonly kind: string;
  readonly messages: KindBase['messages'];
  /** Inserts the run ('pending') and its creation audit, and the items when addItems is given, in `tx`. */
  create(tx: Executor, input: CreateRunInput): Promise<{ run: ProcessingRunRow; items: number }>;
  /**
   * Marks the run 'running' (startedAt now), with a final label, total or options when they were not known at creation
   * (a streamed import's mapping is read from the file's header). Refuses (503, the kind's `interrupted` message) a
   * run no longer pending: a sweep failed it because its creator's claim lapsed.
   */
  begin(executor: Executor, runId: string, patch?: { label?: string; total?: number; options?: Record<string, unknown> }): Promise<ProcessingRunRow>;
  /** A run whose creation failed half-way: its items are removed and it fails with `message`. */
  abandon(executor: Executor, runId: string, message: string): Promise<void>;
  /**
   * Renews the creation claim of a run created with `creator` every HEARTBEAT_MS while its items are stored in
   * transactions of their own; call the returned function once they are (before begin, or on failure).
   */
  holdWhileCreating(deps: Deps, runId: string): () => void;
  /** After the creating transaction committed: asks a process (this one first) to work on the run. */
  trigger(deps: Deps, runId: string, organizationId: string): Promise<void>;
  /** Works on the run in this instance unless it already does; resolves once the claim is decided. */
  take(deps: Deps, runId: string, organizationId: string): Promise<TakeResult>;
  /** For tests and benchmarks: resolves when the run's processing in this process has settled. */
  whenSettled(runId: string): Promise<void>;
  /** Resolves when no loop of this kind is left in this process. */
  whenIdle(): Promise<void>;
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

/**
 * Resolves when no run of any kind is worked on in this process: a test app waits for it before closing its database,
 * so a loop that outlived its test never queries a closed one.
 */
export async function whenNoRunIsWorked(): Promise<void> {
  await Promise.all([...registry.values()].map((kind) => kind.whenIdle()));
}

/** Every kind defined in this process, by name: the job handler runs any of them. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in the deps their hooks need; AppDeps satisfies all.
const registry = new Map<string, RunKind<any>>();

/**
 * Forgets what run items kept of these candidates (an import keeps a row's mapped input for invalid rows, which hold
 * personal data): called when the candidates are deleted, in the deletion's transaction. The items and their
 * outcomes stay, so a run's counts and history do not change.
 */
export async function forgetCandidateInputs(executor: Executor, candidateIds: string[]): Promise<void> {
  if (candidateIds.length === 0) return;
  await executor.update(processingRunItem).set({ input: null }).where(inArray(processingRunItem.candidateId, candidateIds));
}

/** Registers a kind of run whose work is items (processBatch or processItem) once, at module load of its feature. */
export function defineRunKind<Deps extends RunDeps, Outcome extends string>(definition: RunKindDefinition<Deps, Outcome>): RunKind<Deps> {
  return registerKind<Deps>(definition, (deps, run, lockHeld) => {
    const ctx: RunContext<Deps, Outcome> = {
      deps,
      run,
      holds: async (tx) => Boolean(await lockHeld(tx)),
      settle: (tx, outcome) => settleItem(tx, run.id, outcome, definition.counters[outcome.outcome]),
      fail: (tx, message) => failRun(tx, run.id, message),
    };
    return 'processBatch' in definition ? batchLoop(deps, definition, ctx, lockHeld) : itemLoop(deps, definition, ctx);
  });
}

/**
 * Registers a kind of run worked in slices over a cursor (SliceKind: no items) once, at module load of its
 * feature. Same lifecycle, claim, trigger and resume as the item kinds.
 */
export function defineSliceRunKind<Deps extends RunDeps, Setup, Row, Result, Cursor>(definition: SliceKind<Deps, Setup, Row, Result, Cursor>): RunKind<Deps> {
  return registerKind<Deps>(definition, (deps, run, lockHeld) => sliceLoop(deps, definition, { deps, run }, lockHeld));
}

/** The loop of a kind: works on a run this instance has claimed and found running. */
type Loop<Deps> = (deps: Deps, run: ProcessingRunRow, lockHeld: (tx: Transaction) => Promise<ProcessingRunRow | undefined>) => Promise<void>;

function registerKind<Deps extends RunDeps>(definition: KindBase, loop: Loop<Deps>): RunKind<Deps> {
  if (registry.has(definition.kind)) throw new Error(`Processing run kind ${definition.kind} is defined twice`);

  const queueJob = (deps: Deps, job: RunJob, startAfter?: Date) => deps.jobs.send(QUEUES.processingRun, { ...job }, startAfter ? { startAfter } : {});

  const loops = backgroundRuns<Deps>((deps, runId, organizationId) => work(deps, definition, loop, runId, organizationId), {
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
          ...(input.creator ? creationClaim(input.creator) : {}),
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
      // Only a run still pending: one whose creator a sweep found gone (its claim lapsed) has failed and stays so.
      // The creation claim goes: whichever process takes the run's job claims it anew.
      const [started] = await executor
        .update(processingRun)
        .set({ ...patch, status: 'running', startedAt: new Date(), leaseOwner: null, leaseExpiresAt: null })
        .where(and(eq(processingRun.id, runId), eq(processingRun.status, 'pending')))
        .returning();
      if (!started) throw new AppError(503, definition.messages.interrupted);
      return started;
    },
    async abandon(executor, runId, message) {
      await executor.delete(processingRunItem).where(eq(processingRunItem.runId, runId));
      await failRun(executor, runId, message);
    },
    holdWhileCreating(deps, runId) {
      const owner = runOwnerOf(deps);
      const heartbeat = setInterval(() => void renewRun(systemDb(deps.db), runId, owner).catch(() => undefined), HEARTBEAT_MS);
      heartbeat.unref();
      return () => clearInterval(heartbeat);
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
    whenIdle: loops.whenIdle,
    resume: (deps) => resumeRuns(deps, [kind]),
  };
  registry.set(definition.kind, kind);
  return kind;
}

// ---- the loop ----

async function work<Deps extends RunDeps>(deps: Deps, definition: KindBase, loop: Loop<Deps>, runId: string, organizationId: string): Promise<void> {
  const owner = runOwnerOf(deps);
  try {
    const [run] = await runAsOrganization(deps.db, organizationId, (tx) => tx.select().from(processingRun).where(eq(processingRun.id, runId)));
    if (run?.status !== 'running') return;
    const lockHeld = async (tx: Transaction) => {
      const locked = await lockRun(tx, runId);
      // Another process took the run over (this one stalled past its claim): it goes on from here.
      return locked?.status === 'running' && locked.leaseOwner === owner ? locked : undefined;
    };
    await loop(deps, run, lockHeld);
  } catch (error) {
    deps.logger.error(
      { runId, kind: definition.kind, errorName: (error as Error).name, dbCode: (error as { cause?: { code?: string } }).cause?.code },
      'processing run failed',
    );
    await runAsOrganization(deps.db, organizationId, (tx) => failRun(tx, runId, definition.messages.failed)).catch(() => undefined);
  }
}

/** Completes a run whose items are all settled (the run's row locked by the caller). */
async function complete(
  tx: Transaction,
  definition: { completion(run: ProcessingRunRow): Record<string, unknown> },
  locked: ProcessingRunRow,
  patch: Partial<Pick<ProcessingRunRow, 'options'>> & { totalIsProcessed?: boolean } = {},
): Promise<void> {
  const [run] = await tx
    .update(processingRun)
    .set({
      status: 'completed',
      finishedAt: new Date(),
      ...(patch.options ? { options: patch.options } : {}),
      ...(patch.totalIsProcessed ? { total: sql`${processingRun.processed}` } : {}),
    })
    .where(eq(processingRun.id, locked.id))
    .returning();
  await recordAudit(tx, rowChange(run.createdByUserId, run, 'processing_run.complete', 'processing_run', definition.completion(run)));
}

/**
 * Each batch is one transaction: the run locked (and still this instance's), its pending items, the kind's work,
 * the items' outcomes and the counters. A crash loses at most the open batch, whose items stay pending.
 *
 * The next batch's items are read (in their own transaction) and prepared by the kind while the current batch
 * is written (decision 100). The batch's transaction checks, under the run's lock, that the items read ahead
 * are still the pending ones of their range (one index range), and reads them again if not, so a read ahead
 * never makes an item count twice.
 */
async function batchLoop<Deps extends RunDeps, Outcome extends string>(
  deps: Deps,
  definition: BatchKind<Deps, Outcome>,
  ctx: RunContext<Deps, Outcome>,
  lockHeld: (tx: Transaction) => Promise<ProcessingRunRow | undefined>,
): Promise<void> {
  const { id: runId, organizationId } = ctx.run;
  const prepare = (items: RunItem[]) => {
    if (items.length && definition.prepareBatch) definition.prepareBatch(ctx, items);
    return items;
  };
  const read = (afterRow: number) => {
    const reading = runAsOrganization(deps.db, organizationId, (tx) => nextPendingItems(tx, runId, afterRow, definition.batchSize)).then(prepare);
    // Never an unhandled rejection: a failed read is awaited (and thrown) in the next turn, or dropped when the loop stops.
    reading.catch(() => undefined);
    return reading;
  };
  // Items go in row order, so the next pending ones come after the last batch's.
  let afterRow = 0;
  let batches = 0;
  let ahead: Promise<RunItem[]> | null = read(afterRow);
  try {
    for (;;) {
      const readAhead: RunItem[] = await ahead!;
      const from = afterRow;
      ahead = readAhead.length ? read(readAhead.at(-1)!.rowNumber) : null;
      let stale = false;
      const more = await runAsOrganization(deps.db, organizationId, async (tx) => {
        const run = await lockHeld(tx);
        if (!run) return false;
        stale = !(await stillPending(tx, runId, from, readAhead));
        const items = stale ? prepare(await nextPendingItems(tx, runId, from, definition.batchSize)) : readAhead;
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
      if (stale) {
        // What was read ahead was not the next pending items (never with one holder): read again after this batch.
        await dropAhead();
        ahead = read(afterRow);
      }
      // Let other requests (PGlite has one connection) run between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await dropAhead();
  }

  async function dropAhead() {
    const reading = ahead;
    ahead = null;
    await reading?.then(
      () => undefined,
      () => undefined,
    );
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

/** JSON with its keys in order: a cursor read back from jsonb compares equal to the one written. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
const storedCursor = (run: ProcessingRunRow): unknown => (run.options as { cursor?: unknown } | null)?.cursor ?? null;

/**
 * Slice after slice from the stored cursor (decision 038's read-ahead, decisions 042 and 104): while the kind
 * processes a slice, the next slice is read and the slice before is written, each in its own transaction. A
 * slice is written, with the cursor after it, in one transaction by the run's holder, only if the stored cursor
 * is still where the slice began, and only after the slice before it committed (slices commit in cursor order).
 * A crash loses at most the slices in flight: the one being written and the one being processed.
 */
async function sliceLoop<Deps extends RunDeps, Setup, Row, Result, Cursor>(
  deps: Deps,
  definition: SliceKind<Deps, Setup, Row, Result, Cursor>,
  ctx: SliceContext<Deps>,
  lockHeld: (tx: Transaction) => Promise<ProcessingRunRow | undefined>,
): Promise<void> {
  const { id: runId, organizationId } = ctx.run;
  const inRun = <T>(work: (tx: Transaction) => Promise<T>) => runAsOrganization(deps.db, organizationId, work);
  const setup = await inRun((tx) => definition.prepare(tx, ctx));
  // Never an unhandled rejection: a failed read or write is awaited (and thrown) in a later turn, or dropped when the loop stops.
  const inFlight = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  const read = (after: Cursor | null) => inFlight(inRun((tx) => definition.readSlice(tx, ctx, setup, after)));
  type Outcome = 'stop' | 'completed' | 'next' | { restartAt: Cursor | null };
  /** One slice's transaction (or the completing one when `rows` is empty): `from` is where the slice begins. */
  const write = (from: Cursor | null, rows: Row[], result: Result | undefined, next: Cursor | null) =>
    inRun(async (tx): Promise<Outcome> => {
      // Only the run's holder writes: a process that lost its claim (paused past the lease) stops instead of
      // writing a slice the new holder also writes.
      const run = await lockHeld(tx);
      if (!run) return 'stop';
      const stored = storedCursor(run);
      if (canonical(stored) !== canonical(from)) return { restartAt: stored as Cursor | null };
      if (rows.length === 0) {
        const options = definition.finish ? await definition.finish(tx, ctx, setup, run) : undefined;
        await complete(tx, definition, run, { options, totalIsProcessed: true });
        return 'completed';
      }
      const written = await definition.writeSlice(tx, ctx, { setup, rows, result: result as Result, run });
      const added = rows.length;
      const counters = written.counters ?? {};
      await tx
        .update(processingRun)
        .set({
          processed: sql`${processingRun.processed} + ${added}`,
          succeeded: sql`${processingRun.succeeded} + ${counters.succeeded ?? 0}`,
          merged: sql`${processingRun.merged} + ${counters.merged ?? 0}`,
          skipped: sql`${processingRun.skipped} + ${counters.skipped ?? 0}`,
          failed: sql`${processingRun.failed} + ${counters.failed ?? 0}`,
          total: sql`greatest(${processingRun.total}, ${processingRun.processed} + ${added})`,
          options: { ...(run.options as Record<string, unknown>), ...written.options, cursor: next },
        })
        .where(eq(processingRun.id, runId));
      return 'next';
    });
  // The read in flight (the slice to process next) and the write in flight (the slice before the one processed).
  let ahead: Promise<Row[]> | null = null;
  let writing: Promise<Outcome> | null = null;
  const settle = async (promise: Promise<unknown> | null) => {
    await promise?.then(
      () => undefined,
      () => undefined,
    );
  };
  // `cursor`: where the next slice to write begins (the stored cursor once the writes in flight commit).
  let cursor = storedCursor(ctx.run) as Cursor | null;
  let slices = 0;
  try {
    ahead = read(cursor);
    for (;;) {
      const rows: Row[] = await ahead!;
      const done = rows.length === 0;
      const next = done ? null : definition.cursorAfter(rows[rows.length - 1]);
      ahead = done ? null : read(next);
      // The previous slice's write goes on meanwhile (its own connection on PostgreSQL).
      const result = done ? undefined : await definition.processSlice(ctx, setup, rows);
      let outcome: Outcome = 'next';
      if (writing) {
        const previous = writing;
        writing = null;
        outcome = await previous;
        slices++;
        if (outcome === 'next') await definition.afterSlice?.(deps, { slices, more: true });
      }
      if (outcome === 'next') {
        const from = cursor;
        cursor = next;
        writing = inFlight(write(from, rows, result, next));
        if (!done) continue;
        outcome = await writing;
        writing = null;
        slices++;
      }
      // Stopped, completed, or the stored cursor is not where a slice began (never with one holder): what was read
      // or processed after it is dropped.
      await settle(ahead);
      ahead = null;
      if (typeof outcome === 'string') {
        if (outcome === 'completed' && definition.afterComplete) {
          const afterComplete = definition.afterComplete;
          // The run is complete whatever this does: a failure is logged, never turned into a failed run.
          await inRun((tx) => afterComplete(tx, ctx)).catch((error: Error) =>
            deps.logger.warn({ runId, errorName: error.name }, 'clean-up after a completed run failed'),
          );
        }
        if (outcome === 'completed' && definition.afterEnd) {
          await definition.afterEnd(ctx).catch((error: Error) => deps.logger.warn({ runId, errorName: error.name }, 'work after a completed run failed'));
        }
        await definition.afterSlice?.(deps, { slices, more: false });
        return;
      }
      cursor = outcome.restartAt;
      ahead = read(cursor);
    }
  } finally {
    await settle(writing);
    await settle(ahead);
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
 * At start-up, for every organization (the system path: ids only): a run left 'pending' whose creator is provably
 * gone (its creation claim lapsed) fails with its kind's message and loses its items; a run left 'running' is
 * queued again, and whichever process takes the job continues it from its pending items (a run another live
 * process still holds is left to it by the claim, and looked at again once that claim could have lapsed). Returns
 * the runs queued.
 */
export async function resumeRuns<Deps extends RunDeps>(deps: Deps, kinds: RunKind<Deps>[]): Promise<string[]> {
  const byName = new Map(kinds.map((kind) => [kind.kind, kind]));
  if (byName.size === 0) return [];
  const runs = await systemDb(deps.db)
    .select({ id: processingRun.id, organizationId: processingRun.organizationId, status: processingRun.status, kind: processingRun.kind })
    .from(processingRun)
    .where(and(inArray(processingRun.kind, [...byName.keys()]), eq(processingRun.status, 'running')))
    .orderBy(asc(processingRun.createdAt));
  const resumed: string[] = [];
  for (const run of runs) {
    deps.logger.info({ runId: run.id, kind: run.kind }, 'resuming processing run');
    await byName.get(run.kind)!.trigger(deps, run.id, run.organizationId);
    resumed.push(run.id);
  }
  await failAbandonedCreations(deps, byName);
  return resumed;
}

/**
 * The periodic sweep (every RUN_SWEEP_SECONDS, once per period across processes; jobs/register.ts): the runs whose
 * owner is provably gone, without a restart (decision 122). A running run whose claim lapsed (its worker died or
 * stalled past LEASE_SECONDS) or that nobody claimed is queued again, and the process that takes the job claims it
 * (the claim, not this sweep, decides: a worker that renews in time keeps its run). A pending run whose creation
 * claim lapsed fails with its kind's message. The heartbeat rows of processes gone past the grace are deleted.
 * Returns the runs queued.
 */
export async function sweepRuns<Deps extends RunDeps>(deps: Deps, kinds: RunKind<Deps>[]): Promise<string[]> {
  const forgotten = await forgetGoneInstances(systemDb(deps.db));
  if (forgotten) deps.logger.info({ instances: forgotten }, 'forgot the heartbeat rows of processes gone past the grace');
  const byName = new Map(kinds.map((kind) => [kind.kind, kind]));
  if (byName.size === 0) return [];
  const runs = await runsWithoutLiveOwner(systemDb(deps.db), [...byName.keys()]);
  const queued: string[] = [];
  for (const run of runs.filter((row) => row.status === 'running')) {
    deps.logger.info({ runId: run.id, kind: run.kind }, 'taking over a processing run whose worker is gone');
    await byName.get(run.kind)!.trigger(deps, run.id, run.organizationId);
    queued.push(run.id);
  }
  if (runs.some((row) => row.status === 'pending')) await failAbandonedCreations(deps, byName);
  return queued;
}

/** Pending runs whose creator is provably gone: failed (only if still so, in the same transaction), their items removed. */
async function failAbandonedCreations<Deps extends RunDeps>(deps: Deps, byName: Map<string, RunKind<Deps>>): Promise<void> {
  const runs = await runsWithoutLiveOwner(systemDb(deps.db), [...byName.keys()]);
  for (const run of runs.filter((row) => row.status === 'pending')) {
    const kind = byName.get(run.kind)!;
    await systemDb(deps.db).transaction(async (tx) => {
      if (!(await failAbandonedCreation(systemDb(tx), run.id, kind.messages.interrupted))) return;
      await tx.delete(processingRunItem).where(eq(processingRunItem.runId, run.id));
      deps.logger.warn({ runId: run.id, kind: run.kind }, 'processing run failed: its creator stopped while storing its items');
    });
  }
}
