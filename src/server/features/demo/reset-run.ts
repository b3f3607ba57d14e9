import { and, desc, eq, sql } from 'drizzle-orm';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { processingRun } from '../../db/schema';
import { runAsOrganization, type Executor } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { startMatchingRecruitingTrials } from '../matching/matcher';
import { defineSliceRunKind, type RunDeps } from '../processing-runs/runner';
import { toRun } from '../processing-runs/service';
import { buildDemoData, DEMO_RESET_RUN_KIND, type DemoData, writeDemoRows } from './seed';

/**
 * Resetting the demo data as a processing run (issue 32; decision 170). Seeding 3,000 people takes several seconds,
 * too long for one request: the request starts a `demo_reset` run of the demo organization and answers at once;
 * the demo page and /admin/processed-runs show it until it ends. One reset at a time: a second start joins the run
 * already going (an advisory lock makes the check and the creation one step across processes).
 *
 * The run is one slice: the data is built outside any transaction, then the old data is deleted and the new written
 * in ONE transaction, so a failure (or a stop) leaves the old data and a resumed run starts the reset again.
 */

// The whole app's deps: once written, the demo's recruiting trials are matched (their own runs, decision 170).
type ResetDeps = AppDeps & RunDeps;
type ResetOptions = { cursor?: { done: true } | null; candidates?: number; seeding?: boolean };

export const DEMO_RESET_LABEL = 'Demo data reset';

/** The demo organization's latest reset run, if any. */
export async function latestDemoReset(executor: Executor, organizationId: string) {
  const [row] = await executor
    .select()
    .from(processingRun)
    .where(and(eq(processingRun.organizationId, organizationId), eq(processingRun.kind, DEMO_RESET_RUN_KIND)))
    .orderBy(desc(processingRun.createdAt))
    .limit(1);
  return row;
}

/**
 * Starts resetting (or, `seeding`, first filling) the demo organization's data, or answers the reset already going.
 * The caller has checked that the user may (internal admins only).
 */
export async function startDemoReset(deps: ResetDeps, organizationId: string, input: { actorUserId: string; seeding: boolean }): Promise<ProcessingRun> {
  const run = await runAsOrganization(deps.db, organizationId, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${DEMO_RESET_RUN_KIND}:${organizationId}`}))`);
    const latest = await latestDemoReset(tx, organizationId);
    if (latest && (latest.status === 'pending' || latest.status === 'running')) return latest;
    const candidates = deps.config.demo.candidates;
    const { run: created } = await demoResetRuns.create(tx, {
      organizationId,
      createdByUserId: input.actorUserId,
      label: DEMO_RESET_LABEL,
      total: 1,
      options: { cursor: null, candidates, seeding: input.seeding },
      audit: () => ({ candidates }),
    });
    return demoResetRuns.begin(tx, created.id);
  });
  await demoResetRuns.trigger(deps, run.id, run.organizationId);
  return toRun(run);
}

/** The demo_reset run kind (jobs/register.ts resumes it at start-up). */
export const demoResetRuns = defineSliceRunKind<ResetDeps, ResetOptions, { step: 'reset' }, DemoData, { done: true }>({
  kind: DEMO_RESET_RUN_KIND,
  messages: {
    failed: 'The reset stopped on an unexpected error; the old demo data is kept. Reset again.',
    interrupted: 'The reset was interrupted while starting; reset again.',
  },
  completion: (run) => ({ kind: DEMO_RESET_RUN_KIND, candidates: (run.options as ResetOptions).candidates ?? 0 }),
  prepare: async (_tx, { run }) => run.options as ResetOptions,
  // One step: the whole reset, read once (a resumed run whose step was not written does it again).
  readSlice: async (_tx, _ctx, _setup, after) => (after ? [] : [{ step: 'reset' as const }]),
  cursorAfter: () => ({ done: true }),
  processSlice: async ({ run }, setup) => buildDemoData(run.organizationId, { candidates: setup.candidates }),
  async writeSlice(tx, { run }, { setup, result }) {
    await writeDemoRows(tx, run.organizationId, result, { actorUserId: run.createdByUserId, action: setup.seeding ? 'demo.seed' : 'demo.reset' });
    return { counters: { succeeded: 1 } };
  },
  // A sponsor opening the trial matcher right after a reset sees ranked people, not "No matches yet".
  afterEnd: async ({ deps, run }) => {
    await startMatchingRecruitingTrials(deps, run.organizationId, run.createdByUserId);
  },
});
/** For tests and benchmarks: resolves when the reset's processing in this process has settled. */
export const whenDemoResetSettled = demoResetRuns.whenSettled;
