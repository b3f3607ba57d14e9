import PgBoss from 'pg-boss';
import { lt, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client';
import { backgroundSweep } from '../db/schema';
import { systemDb, type SystemDb } from '../db/system';
import type { Logger } from '../logger';

/**
 * Background jobs on pg-boss, in the same database as everything else (decision 012): PostgreSQL through
 * pg-boss's own small pool, PGlite through our serialized connection (db/client.ts jobDatabase).
 * Handlers live with their feature; jobs/register.ts wires them.
 */

export const QUEUES = {
  /** Places one callback at its time: { callbackId }. */
  placeCallback: 'callback-place',
  /** Every few minutes: callbacks that are due but have no live job (a crash between commit and send). */
  sweepCallbacks: 'callback-sweep',
  /** Every minute: open calls that went quiet are reconciled with the provider, or failed with the reason. */
  sweepCalls: 'call-sweep',
  /** Runs the next step of one sequence enrollment: { enrollmentId }. */
  sequenceStep: 'sequence-step',
  /** Every minute: active enrollments that are due but have no live job get one. */
  sweepSequences: 'sequence-sweep',
  /** Take up one processing run (import, bulk calls...): { runId, organizationId, kind } (processing-runs/runner.ts). */
  processingRun: 'processing-run',
  /** Asks how a visit went, after it: { bookingId, organizationId } (prescreen/visit-feedback.ts). */
  visitFeedback: 'visit-feedback',
  /** Hourly: fresh planner statistics (PGlite has no autovacuum; a customer's server may have it off). */
  maintenance: 'database-maintenance',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * Queues whose jobs come from a cron schedule (a minute at the finest): their workers poll every
 * `scheduledPollingIntervalSeconds` (15 s), not every 2 s like the queues a request or a run feeds. Each poll is a
 * query in every process, most of them finding nothing: 9 workers at 2 s were 4.5 queries a second per process when
 * idle (decision 148).
 */
const SCHEDULED_QUEUES: ReadonlySet<QueueName> = new Set([QUEUES.sweepCallbacks, QUEUES.sweepCalls, QUEUES.sweepSequences, QUEUES.maintenance]);
/** Production polling (decision 148): fed queues every 2 s (the run takeover bound counts it), scheduled ones every 15 s. */
const POLLING_SECONDS = 2;
const SCHEDULED_POLLING_SECONDS = 15;

/** Unexpected failures (the database went away...) retry a bounded number of times with backoff. */
const QUEUE_OPTIONS = { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 };

export interface Jobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Queues a job; with startAfter it waits until then. Returns the job id. */
  send(queue: QueueName, data: object, options?: { startAfter?: Date }): Promise<string>;
  /** Queues many jobs in one statement, each with the id the caller chose (and recorded beforehand). */
  sendBatch(queue: QueueName, jobs: Array<{ id: string; data: object; startAfter?: Date }>): Promise<void>;
  /** Cancels a job that has not run yet (no error when it already ran or never existed). */
  cancel(queue: QueueName, id: string): Promise<void>;
  work<T extends object>(
    queue: QueueName,
    handler: (data: T, jobId: string) => Promise<void>,
    options?: { batchSize?: number; concurrency?: number },
  ): Promise<void>;
  /** Hands each fetched batch to one handler (bulk work: sequence steps). A throw retries the whole batch. */
  workBatch<T extends object>(
    queue: QueueName,
    handler: (jobs: Array<{ id: string; data: T }>) => Promise<void>,
    options?: { batchSize?: number; workers?: number },
  ): Promise<void>;
  /** Runs the queue's handler on a cron schedule (UTC). */
  every(queue: QueueName, cron: string): Promise<void>;
  /** Makes this process's workers of the queue look for jobs now instead of at their next poll. */
  wake(queue: QueueName): void;
  /**
   * Runs `work` about every `seconds` (finer than a cron minute), each period on one process only: every process
   * ticks, and the one whose tick claims the period (background_sweep) works. Until stop(). Failures are logged.
   */
  periodic(name: string, seconds: number, work: () => Promise<void>): void;
  /** Runs `work` every `ms` on this process (its heartbeat), until stop(). Failures are logged. */
  everyOnThisProcess(name: string, ms: number, work: () => Promise<void>): void;
}

export function createJobs(
  database: DatabaseHandle,
  logger: Logger,
  options: { pollingIntervalSeconds?: number; scheduledPollingIntervalSeconds?: number } = {},
): Jobs {
  const jobDatabase = database.jobDatabase;
  const connection =
    'connectionString' in jobDatabase
      ? { connectionString: jobDatabase.connectionString, max: 3 }
      : { db: { executeSql: (text: string, values: unknown[]) => jobDatabase.executeSql(text, values) } };
  const polling = options.pollingIntervalSeconds ?? POLLING_SECONDS;
  const scheduledPolling = options.scheduledPollingIntervalSeconds ?? SCHEDULED_POLLING_SECONDS;
  const pollingOf = (queue: QueueName) => (SCHEDULED_QUEUES.has(queue) ? scheduledPolling : polling);
  // pg-boss's own cron worker moves a due schedule's job into its queue: polled as the scheduled queues (5-45 s).
  const cronWorkerIntervalSeconds = Math.min(45, Math.max(5, Math.round(scheduledPolling)));
  const boss = new PgBoss({ ...connection, schema: 'pgboss', cronWorkerIntervalSeconds });
  // pg-boss reports maintenance and polling errors as events; they must not crash the process.
  boss.on('error', (error: Error) => logger.error({ errorName: error.name, errorMessage: error.message }, 'job queue error'));
  let started: Promise<void> | null = null;
  let stopped = false;
  const workerIds = new Map<QueueName, string[]>();
  const remember = (queue: QueueName, id: string) => workerIds.set(queue, [...(workerIds.get(queue) ?? []), id]);
  const timers = new Set<NodeJS.Timeout>();

  const ensureStarted = () => {
    if (stopped) throw new Error('The job queue is stopped');
    if (!started) throw new Error('The job queue is not started (jobs/register.ts startBackgroundWork)');
    return started;
  };

  return {
    start() {
      started ??= (async () => {
        await boss.start();
        for (const name of Object.values(QUEUES)) await boss.createQueue(name, { name, ...QUEUE_OPTIONS });
      })();
      return started;
    },
    async stop() {
      if (!started || stopped) return;
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await started.catch(() => undefined);
      await boss.stop({ graceful: true, timeout: 5000, close: true });
    },
    async send(queue, data, sendOptions = {}) {
      await ensureStarted();
      const id = await boss.send(queue, data, sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {});
      if (!id) throw new Error(`The job queue refused a ${queue} job`);
      return id;
    },
    async sendBatch(queue, jobs) {
      await ensureStarted();
      if (!jobs.length) return;
      await boss.insert(jobs.map((job) => ({ id: job.id, name: queue, data: job.data, startAfter: job.startAfter, ...QUEUE_OPTIONS })));
    },
    async cancel(queue, id) {
      await ensureStarted();
      await boss.cancel(queue, id).catch(() => undefined);
    },
    async work(queue, handler, workOptions = {}) {
      await ensureStarted();
      // PGlite runs one statement at a time: lanes would only queue behind each other.
      const concurrency = 'connectionString' in jobDatabase ? Math.max(1, workOptions.concurrency ?? 1) : 1;
      const workerId = await boss.work<object>(
        queue,
        { pollingIntervalSeconds: pollingOf(queue), batchSize: workOptions.batchSize ?? 1 },
        async (jobs: PgBoss.Job<object>[]) => {
          // A fetched batch is worked by `concurrency` lanes; a failing job fails the batch, which pg-boss retries
          // (handlers are idempotent: a job that finds its work done does nothing).
          let next = 0;
          let failure: unknown = null;
          const lane = async () => {
            while (next < jobs.length) {
              const job = jobs[next++];
              try {
                await handler(job.data as never, job.id);
              } catch (error) {
                failure ??= error;
              }
            }
          };
          await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
          if (failure) throw failure;
        },
      );
      remember(queue, workerId);
    },
    async workBatch(queue, handler, workOptions = {}) {
      await ensureStarted();
      // Several fetch loops overlap one batch's database waits with another's work (PostgreSQL only: PGlite runs
      // one statement at a time).
      const workers = 'connectionString' in jobDatabase ? Math.max(1, workOptions.workers ?? 1) : 1;
      for (let worker = 0; worker < workers; worker += 1) {
        const workerId = await boss.work<object>(
          queue,
          { pollingIntervalSeconds: pollingOf(queue), batchSize: workOptions.batchSize ?? 100 },
          async (jobs: PgBoss.Job<object>[]) => {
            await handler(jobs.map((job) => ({ id: job.id, data: job.data as never })));
          },
        );
        remember(queue, workerId);
      }
    },
    async every(queue, cron) {
      await ensureStarted();
      await boss.schedule(queue, cron);
    },
    wake(queue) {
      if (stopped) return;
      for (const id of workerIds.get(queue) ?? []) boss.notifyWorker(id);
    },
    periodic(name, seconds, work) {
      let running = false;
      const tick = async () => {
        if (stopped || running) return;
        running = true;
        try {
          if (await claimPeriod(systemDb(database.db), name, seconds)) await work();
        } catch (error) {
          if (!stopped) logger.warn({ sweep: name, errorName: (error as Error).name }, 'periodic sweep failed; the next period tries again');
        } finally {
          running = false;
        }
      };
      const timer = setInterval(() => void tick(), seconds * 1000);
      timer.unref();
      timers.add(timer);
    },
    everyOnThisProcess(name, ms, work) {
      const timer = setInterval(() => {
        if (stopped) return;
        work().catch((error: Error) => {
          if (!stopped) logger.warn({ task: name, errorName: error.name }, 'periodic task failed; it runs again at its next time');
        });
      }, ms);
      timer.unref();
      timers.add(timer);
    },
  };
}

/**
 * Claims this period of a named periodic sweep: true for one caller per `periodSeconds` across processes (one
 * statement: next_at moves only for the caller that found it due; a second of slack for timers firing early).
 */
export async function claimPeriod(system: SystemDb, name: string, periodSeconds: number): Promise<boolean> {
  const next = sql`now() + ${`${periodSeconds} seconds`}::interval`;
  const rows = await system
    .insert(backgroundSweep)
    .values({ name, nextAt: next })
    .onConflictDoUpdate({ target: backgroundSweep.name, set: { nextAt: next }, setWhere: lt(backgroundSweep.nextAt, sql`now() + interval '1 second'`) })
    .returning({ name: backgroundSweep.name });
  return rows.length > 0;
}
