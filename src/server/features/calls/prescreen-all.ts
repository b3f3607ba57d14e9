import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { PRESCREEN_CALLS_RUN_KIND, type CallBlockReason, type PrescreenAllInput } from '../../../contract/voice';
import { runScoped, type RequestScope } from '../../auth/scope';
import { processingRun } from '../../db/schema';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError, conflict, notFound } from '../../http/errors';
import { SIMULATION_MODES, type SimulationMode } from '../../integrations/voice/port';
import { recordAudit } from '../../audit';
import { openCallback, queueCallbackJobs } from '../callbacks/service';
import { findCandidate, findTrialInOrganization, type CandidateRow } from '../candidates/queries';
import { targetOrganization } from '../candidates/service';
import { backgroundRuns, runOwnerOf } from '../processing-runs/background';
import { toRun } from '../processing-runs/service';
import { activeVoiceAgent } from '../voice-agents/queries';
import {
  callSlotState,
  dueState,
  findOpenRun,
  insertDueItems,
  lockPrescreenRunsOf,
  nextPendingItems,
  settleItem,
  type ItemOutcome,
  type TrialFilter,
} from './prescreen-all-queries';
import { updateCall } from './queries';
import { callBlockReason, dialCall, planCall, type CallActor, type CallPlan } from './service';

/**
 * POST /api/calls/prescreen-all: a prescreen call to every candidate due one, as a processing run.
 *
 * 1. The request picks the due candidates in SQL and stores one pending item per candidate (INSERT ... SELECT),
 *    creates the run and its audit row and marks it 'running', all in one transaction (so a crash leaves no
 *    half-made run), and answers 202.
 * 2. A background loop takes the items one by one in row order. Each item is decided afresh (the candidate may
 *    have changed since the selection) and settled in one transaction with the run's counters: skipped
 *    (not due any more, consent, do-not-contact, no phone), deferred (outside calling hours: a callback at
 *    the next window), called, or failed (the provider refused). Before dialling it waits until the
 *    organization has fewer than VOICE_MAX_CONCURRENT_CALLS open calls.
 * 3. On start-up, resumePrescreenRuns() continues every 'running' run from its pending items.
 */

const BULK_LABEL = 'Bulk prescreen';
/** How often a run waiting for a free line looks again. */
const SLOT_POLL_MS = 250;
const ITEM_PAGE = 100;

type ItemError = { field: string; message: string };

/** Starts a prescreen-calls run for the scope's (or the body's) organization and answers it; processing goes on in the background. */
export async function startPrescreenAll(deps: AppDeps, scope: RequestScope, input: PrescreenAllInput): Promise<ProcessingRun> {
  const organizationId = targetOrganization(scope, input.organizationId);
  const run = await runScoped(deps.db, scope, async (tx) => {
    const chosenTrial = input.trialId ? await findTrialInOrganization(tx, input.trialId, organizationId) : undefined;
    if (input.trialId && !chosenTrial) throw notFound('Trial not found');
    const agent = await activeVoiceAgent(tx, organizationId, 'PRESCREEN');
    if (!agent?.prescreenFormId) throw conflict('The organization has no active prescreen voice agent with a prescreen form');
    // Recruitment calls go out only for a recruiting trial: a draft is still being prepared, a paused or closed one takes nobody new.
    const trialStatus = chosenTrial?.status ?? agent.trialStatus;
    if (trialStatus && trialStatus !== 'recruiting')
      throw new AppError(
        409,
        `No calls placed: the trial is ${trialStatus}, not recruiting. Start recruiting on the trial page first.`,
        'TRIAL_NOT_RECRUITING',
      );
    // The check below and the insert must not interleave with another request's.
    await lockPrescreenRunsOf(tx, organizationId);
    if (await findOpenRun(tx, organizationId, PRESCREEN_CALLS_RUN_KIND))
      throw conflict('A prescreen calls run is already going for this organization; wait until it has finished');

    const filter: TrialFilter = input.trialId
      ? { kind: 'trial', trialId: input.trialId }
      : agent.trialId
        ? { kind: 'trialOrUnlinked', trialId: agent.trialId }
        : { kind: 'all' };
    const options = {
      voiceAgentId: agent.id,
      trialId: input.trialId ?? null,
      simulate: input.simulate ?? null,
      maxConcurrentCalls: deps.config.voice.maxConcurrentCalls,
    };
    const [created] = await tx
      .insert(processingRun)
      .values({ organizationId, kind: PRESCREEN_CALLS_RUN_KIND, label: 'Prescreen calls', status: 'pending', options, createdByUserId: scope.userId })
      .returning();
    const total = await insertDueItems(tx, { organizationId, runId: created.id, filter });
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'processing_run.create',
      entityType: 'processing_run',
      entityId: created.id,
      changes: { kind: PRESCREEN_CALLS_RUN_KIND, candidates: total, ...options },
    });
    const label = `Prescreen calls (${total.toLocaleString('en-US')} candidate${total === 1 ? '' : 's'})`;
    const [started] = await tx
      .update(processingRun)
      .set({ label, total, status: 'running', startedAt: new Date() })
      .where(eq(processingRun.id, created.id))
      .returning();
    return started;
  });
  void schedulePrescreenRun(deps, run.id, organizationId);
  return toRun(run);
}

// ---- the background loop ----

const prescreenRuns = backgroundRuns<AppDeps>((deps, runId, organizationId) => processPrescreenRun(deps, runId, organizationId));
/** Processes a run in the background unless this process already does. */
export const schedulePrescreenRun = prescreenRuns.schedule;
/** Resolves when the run's background processing (if any, in this process) has settled. */
export const whenPrescreenRunSettled = prescreenRuns.whenSettled;

/** At start-up: continues prescreen-call runs left running by a stopped process. */
export async function resumePrescreenRuns(deps: AppDeps): Promise<string[]> {
  // The system path (no request scope): every organization's runs, like resumeInterruptedRuns.
  const system = systemDb(deps.db);
  const runs = await system
    .select({ id: processingRun.id, organizationId: processingRun.organizationId, status: processingRun.status })
    .from(processingRun)
    .where(and(eq(processingRun.kind, PRESCREEN_CALLS_RUN_KIND), inArray(processingRun.status, ['pending', 'running'])));
  const resumed: string[] = [];
  for (const run of runs) {
    if (prescreenRuns.isActive(deps, run.id)) continue;
    if (run.status === 'pending') {
      // Runs are created in one transaction, so a pending one is not expected; it never started, so fail it.
      await system
        .update(processingRun)
        .set({ status: 'failed', error: 'Interrupted before it started; no candidate was called', finishedAt: new Date() })
        .where(eq(processingRun.id, run.id));
      continue;
    }
    deps.logger.info({ runId: run.id }, 'resuming prescreen calls run');
    void schedulePrescreenRun(deps, run.id, run.organizationId);
    resumed.push(run.id);
  }
  return resumed;
}

interface RunContext {
  runId: string;
  organizationId: string;
  actor: CallActor;
  simulate: SimulationMode | undefined;
}

async function processPrescreenRun(deps: AppDeps, runId: string, organizationId: string): Promise<void> {
  try {
    const [run] = await runAsOrganization(deps.db, organizationId, (tx) => tx.select().from(processingRun).where(eq(processingRun.id, runId)));
    if (run?.status !== 'running') return;
    const simulate = (run.options as { simulate?: unknown }).simulate;
    const ctx: RunContext = {
      runId,
      organizationId,
      actor: { userId: run.createdByUserId, label: BULK_LABEL },
      simulate: typeof simulate === 'string' && (SIMULATION_MODES as readonly string[]).includes(simulate) ? (simulate as SimulationMode) : undefined,
    };
    // Items go in row order: the next pending ones come after the last one handled (an index range, not a rescan).
    let afterRow = 0;
    for (;;) {
      const items = await runAsOrganization(deps.db, organizationId, (tx) => nextPendingItems(tx, runId, afterRow, ITEM_PAGE));
      if (items.length === 0) return await completeRun(deps, ctx);
      for (const item of items) {
        if (!(await processItem(deps, ctx, item))) return;
        afterRow = item.rowNumber;
        // Let requests and the simulator's messages (PGlite has one connection) run between items.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    deps.logger.error({ runId, errorName: (error as Error).name, dbCode: (error as { cause?: { code?: string } }).cause?.code }, 'prescreen calls run failed');
    await failRun(deps, runId, organizationId, 'Processing stopped on an unexpected error; the candidates marked processed were handled').catch(
      () => undefined,
    );
  }
}

async function completeRun(deps: AppDeps, ctx: RunContext): Promise<void> {
  await runAsOrganization(deps.db, ctx.organizationId, async (tx) => {
    const [run] = await tx.select().from(processingRun).where(eq(processingRun.id, ctx.runId)).for('update');
    if (run?.status !== 'running') return;
    await tx.update(processingRun).set({ status: 'completed', finishedAt: new Date() }).where(eq(processingRun.id, ctx.runId));
    await recordAudit(tx, {
      organizationId: ctx.organizationId,
      actorUserId: run.createdByUserId,
      action: 'processing_run.complete',
      entityType: 'processing_run',
      entityId: ctx.runId,
      changes: { total: run.total, called: run.succeeded, deferred: run.merged, skipped: run.skipped, failed: run.failed },
    });
  });
}

function failRun(deps: AppDeps, runId: string, organizationId: string, error: string) {
  return runAsOrganization(deps.db, organizationId, (tx) =>
    tx
      .update(processingRun)
      .set({ status: 'failed', error, finishedAt: new Date() })
      .where(and(eq(processingRun.id, runId), eq(processingRun.status, 'running'))),
  );
}

// ---- one item ----

const BLOCK_FIELDS: Partial<Record<CallBlockReason, { field: string; message: string }>> = {
  do_not_contact: { field: 'doNotContact', message: 'the candidate is marked do-not-contact' },
  no_call_consent: { field: 'consentCalls', message: 'the candidate has not consented to calls' },
  no_phone: { field: 'phone', message: 'the candidate has no phone number' },
};

type Decision =
  | { kind: 'settle'; outcome: ItemOutcome; errors: ItemError[] | null }
  /** This run planned the candidate's call before an interruption but never dialled it. */
  | { kind: 'abandoned'; callId: string }
  | { kind: 'defer'; person: CandidateRow }
  | { kind: 'dial'; person: CandidateRow }
  | { kind: 'stop'; error: string | null };

const skip = (field: string, message: string): Decision => ({ kind: 'settle', outcome: 'skipped', errors: [{ field, message }] });

/** What to do with a candidate now. Reads only; `lock` takes the candidate's row for the deciding transaction. */
async function decide(tx: Transaction, ctx: RunContext, candidateId: string | null, now: Date, lock: boolean): Promise<Decision> {
  const person = candidateId ? await findCandidate(tx, candidateId, lock) : undefined;
  if (!person) return skip('candidateId', 'The candidate no longer exists');
  const state = await dueState(tx, person.id, ctx.runId);
  if (state.runCall) {
    if (state.runCall.providerCallId || state.runCall.status !== 'queued') return { kind: 'settle', outcome: 'called', errors: null };
    return { kind: 'abandoned', callId: state.runCall.id };
  }
  if (person.status !== 'new' && person.status !== 'contacted') return skip('status', `No longer due a prescreen call: the status is now ${person.status}`);
  if (state.hasResult) return skip('status', 'No longer due a prescreen call: a prescreen result was recorded');
  if (state.hasOpenCall) return skip('status', 'No longer due a prescreen call: a call to the candidate is open');
  if (state.hasOpenCallback) return skip('status', 'No longer due a prescreen call: a callback is open');
  const agent = await activeVoiceAgent(tx, ctx.organizationId, 'PRESCREEN');
  if (!agent?.prescreenFormId)
    return { kind: 'stop', error: 'The organization has no active prescreen voice agent with a form any more; the remaining candidates were not called' };
  const reason = callBlockReason(person, 'PRESCREEN', agent, now);
  if (reason === 'quiet_hours') return { kind: 'defer', person };
  if (reason) {
    const block = BLOCK_FIELDS[reason] ?? { field: 'candidateId', message: 'the candidate may not be called' };
    return skip(block.field, `${reason}: ${block.message}`);
  }
  return { kind: 'dial', person };
}

/** Handles one item; false when the run must stop (no longer running, or no agent any more). */
async function processItem(deps: AppDeps, ctx: RunContext, item: { id: string; candidateId: string | null }): Promise<boolean> {
  const { organizationId, runId } = ctx;
  // A first look without locks: only a candidate about to be dialled waits for a free line.
  const preview = await runAsOrganization(deps.db, organizationId, (tx) => decide(tx, ctx, item.candidateId, new Date(), false));
  if (preview.kind === 'dial' && !(await waitForCallSlot(deps, ctx))) return false;

  // Decide again (the wait may have been long) and act in one transaction with the item's outcome.
  const acted = await runAsOrganization(
    deps.db,
    organizationId,
    async (tx): Promise<{ kind: 'done' | 'deferred' | 'stopped' } | { kind: 'dial'; plan: CallPlan }> => {
      const [run] = await tx
        .select({ status: processingRun.status, leaseOwner: processingRun.leaseOwner })
        .from(processingRun)
        .where(eq(processingRun.id, runId))
        .for('update');
      // Another process took the run over (this one stalled past its claim): it decides the items from here.
      if (run?.status !== 'running' || run.leaseOwner !== runOwnerOf(deps)) return { kind: 'stopped' };
      const now = new Date();
      const decision = await decide(tx, ctx, item.candidateId, now, true);
      switch (decision.kind) {
        case 'stop':
          if (decision.error)
            await tx.update(processingRun).set({ status: 'failed', error: decision.error, finishedAt: now }).where(eq(processingRun.id, runId));
          return { kind: 'stopped' };
        case 'settle':
          await settleItem(tx, { runId, itemId: item.id, outcome: decision.outcome, errors: decision.errors });
          return { kind: 'done' };
        case 'abandoned':
          // Planned, then the process stopped before dialling: the call never went out, so it must not hold a line.
          await updateCall(tx, decision.callId, { status: 'failed', outcome: 'failed', endedAt: now, structuredData: { error: 'interrupted' } });
          await settleItem(tx, {
            runId,
            itemId: item.id,
            outcome: 'failed',
            errors: [{ field: 'call', message: 'The run was interrupted before the call was dialled' }],
          });
          return { kind: 'done' };
        case 'defer':
          try {
            // A savepoint: a refusal (a callback being placed right now) must not abort the item's transaction.
            const { row } = await tx.transaction((savepoint) =>
              openCallback(savepoint, {
                candidate: decision.person,
                type: 'PRESCREEN',
                reason: 'outside_calling_hours',
                requestedFor: now,
                actor: ctx.actor,
                note: null,
              }),
            );
            await settleItem(tx, {
              runId,
              itemId: item.id,
              outcome: 'deferred',
              errors: [
                {
                  field: 'timeZone',
                  message: `quiet_hours: outside calling hours in the candidate's time zone; callback scheduled for ${row.scheduledFor.toISOString()}`,
                },
              ],
            });
            return { kind: 'deferred' };
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            await settleItem(tx, {
              runId,
              itemId: item.id,
              outcome: 'skipped',
              errors: [{ field: 'status', message: `No callback scheduled: ${error.message}` }],
            });
            return { kind: 'done' };
          }
        case 'dial': {
          const plan = await planCall(tx, {
            provider: deps.voice.provider,
            candidate: decision.person,
            type: 'PRESCREEN',
            actor: ctx.actor,
            now,
            via: BULK_LABEL,
            processingRunId: runId,
          });
          return { kind: 'dial', plan };
        }
      }
    },
  );

  if (acted.kind === 'stopped') return false;
  if (acted.kind === 'deferred') await queueCallbackJobs(deps, organizationId);
  if (acted.kind === 'dial') {
    let outcome: ItemOutcome = 'called';
    let errors: ItemError[] | null = null;
    try {
      await dialCall(deps, acted.plan, ctx.simulate);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 502) throw error;
      outcome = 'failed';
      errors = [{ field: 'call', message: error.message }];
    }
    await runAsOrganization(deps.db, organizationId, (tx) => settleItem(tx, { runId, itemId: item.id, outcome, errors }));
  }
  return true;
}

/** Waits (without blocking) until the organization has a free line; false when the run stopped meanwhile. */
async function waitForCallSlot(deps: AppDeps, ctx: RunContext): Promise<boolean> {
  for (;;) {
    const { runStatus, openCalls } = await runAsOrganization(deps.db, ctx.organizationId, (tx) => callSlotState(tx, ctx.runId, ctx.organizationId));
    if (runStatus !== 'running') return false;
    if (openCalls < deps.config.voice.maxConcurrentCalls) return true;
    await sleep(SLOT_POLL_MS);
  }
}
