import { placeCallbackJob, sweepCallbacks } from '../features/calls/callback-calls';
import { candidateImportRuns } from '../features/candidates/import-runner';
import { prescreenCallRuns } from '../features/calls/prescreen-all';
import { trialMatchRuns } from '../features/matching/matcher';
import { noteRereadRuns } from '../features/matching/note-reread';
import { demoResetRuns } from '../features/demo/reset-run';
import { beatInstance, HEARTBEAT_MS, resumeRuns, runJobHandler, runOwnerOf, sweepRuns, SWEEP_SECONDS, type RunJob } from '../features/processing-runs/runner';
import { systemDb } from '../db/system';
import { runSequenceSteps, sweepSequences } from '../features/sequences/engine';
import { sweepStaleCalls } from '../features/calls/reconcile';
import { maintainDatabase } from '../db/maintenance';
import type { AppDeps } from '../http/context';
import { QUEUES } from './jobs';
import { wireFeatures } from '../wiring';
import { sequenceEnrollmentRuns } from '../features/sequences/enroll-run';
import { askVisitFeedback, type VisitFeedbackJob } from '../features/prescreen/visit-feedback';

/**
 * Starts everything that runs in the background: the pg-boss queues and their handlers, and the work a
 * stopped process left half done (imports, bulk prescreen runs, trial matching, callbacks whose job was lost).
 */
export async function startBackgroundWork(deps: AppDeps): Promise<void> {
  wireFeatures();
  await deps.jobs.start();
  // This process is alive while its row is renewed: a run or a sequence step it took is another's once it stops (decision 122).
  const instance = runOwnerOf(deps);
  await beatInstance(systemDb(deps.db), instance);
  deps.jobs.everyOnThisProcess('instance-heartbeat', HEARTBEAT_MS, () => beatInstance(systemDb(deps.db), instance));
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
  // And every RUN_SWEEP_SECONDS on one process: the due steps of a sender that is gone get a new job (decision 122).
  deps.jobs.periodic('sequences', SWEEP_SECONDS, () => sweepSequences(deps));
  await deps.jobs.work<VisitFeedbackJob>(QUEUES.visitFeedback, async (data) => {
    await askVisitFeedback(deps, data);
  });
  await deps.jobs.work(QUEUES.maintenance, () => maintainDatabase(deps));
  await deps.jobs.every(QUEUES.maintenance, '17 * * * *');
  await sweepCallbacks(deps);
  // The run engine's kinds (decision 039): each kind's runs a stopped process left; then, every RUN_SWEEP_SECONDS on
  // one process, the runs whose worker or creator died in any process (decision 122).
  const runKinds = [candidateImportRuns, prescreenCallRuns, trialMatchRuns, sequenceEnrollmentRuns, noteRereadRuns, demoResetRuns];
  await resumeRuns(deps, runKinds);
  deps.jobs.periodic('processing-runs', SWEEP_SECONDS, async () => {
    await sweepRuns(deps, runKinds);
  });
  await sweepSequences(deps);
}
