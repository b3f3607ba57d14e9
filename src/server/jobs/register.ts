import { placeCallbackJob, sweepCallbacks } from '../features/callbacks/jobs';
import { candidateImportRuns } from '../features/candidates/import-runner';
import { prescreenCallRuns } from '../features/calls/prescreen-all';
import { resumeMatchRuns } from '../features/matching/matcher';
import { resumeRuns, runJobHandler, type RunJob } from '../features/processing-runs/runner';
import { runSequenceSteps, sweepSequences } from '../features/sequences/engine';
import { sweepStaleCalls } from '../features/calls/reconcile';
import { refreshPlannerStatistics } from '../db/maintenance';
import type { AppDeps } from '../http/context';
import { QUEUES } from './jobs';

/**
 * Starts everything that runs in the background: the pg-boss queues and their handlers, and the work a
 * stopped process left half done (imports, bulk prescreen runs, callbacks whose job was lost).
 */
export async function startBackgroundWork(deps: AppDeps): Promise<void> {
  await deps.jobs.start();
  // The run engine (processing-runs/runner.ts, decision 039): one queue for every kind of run.
  await deps.jobs.work<RunJob>(QUEUES.processingRun, runJobHandler(deps));
  await deps.jobs.work<{ callbackId: string }>(QUEUES.placeCallback, (data, jobId) => placeCallbackJob(deps, data, jobId));
  await deps.jobs.work(QUEUES.sweepCallbacks, () => sweepCallbacks(deps));
  await deps.jobs.every(QUEUES.sweepCallbacks, '*/5 * * * *');
  await deps.jobs.work(QUEUES.sweepCalls, async () => {
    await sweepStaleCalls(deps);
  });
  await deps.jobs.every(QUEUES.sweepCalls, '* * * * *');
  // Sequence steps come in bursts (thousands due the same minute): fetched in batches, worked in lanes.
  await deps.jobs.workBatch<{ enrollmentId: string }>(
    QUEUES.sequenceStep,
    (jobs) =>
      runSequenceSteps(
        deps,
        jobs.map((job) => ({ enrollmentId: job.data.enrollmentId, jobId: job.id })),
      ),
    { batchSize: 200, workers: 3 },
  );
  await deps.jobs.work(QUEUES.sweepSequences, () => sweepSequences(deps));
  await deps.jobs.every(QUEUES.sweepSequences, '* * * * *');
  await deps.jobs.work(QUEUES.maintenance, () => refreshPlannerStatistics(deps));
  await deps.jobs.every(QUEUES.maintenance, '17 * * * *');
  await sweepCallbacks(deps);
  // The run engine's kinds; the trial matcher still resumes its own runs until it moves onto the engine.
  await resumeRuns(deps, [candidateImportRuns, prescreenCallRuns]);
  await resumeMatchRuns(deps);
  await sweepSequences(deps);
}
