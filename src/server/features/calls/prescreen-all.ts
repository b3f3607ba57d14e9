import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessingRun } from '../../../contract/processing-runs';
import { PRESCREEN_CALLS_RUN_KIND, type CallBlockReason, type PrescreenAllInput } from '../../../contract/voice';
import { runScoped, type RequestScope } from '../../auth/scope';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { AppError, conflict, notFound } from '../../http/errors';
import { SIMULATION_MODES, type SimulationMode } from '../../integrations/voice/port';
import { openCallback, queueCallbackJobs } from '../callbacks/service';
import { findCandidate, findTrialInOrganization, type CandidateRow, targetOrganization } from '../candidates/service';
import { defineRunKind, type RunContext } from '../processing-runs/runner';
import { toRun } from '../processing-runs/service';
import { type ActiveVoiceAgent, activeVoiceAgent, noAgentWords } from '../voice-agents/service';
import { callSlotState, dueState, findOpenRun, insertDueItems, lockPrescreenRunsOf, type ItemOutcome, type TrialFilter } from './prescreen-all-queries';
import { updateCall } from './queries';
import { callBlockReason, dialCall, planCall, type CallActor, type CallPlan } from './service';

/**
 * POST /api/calls/prescreen-all: a prescreen call to every candidate due one, as a processing run.
 *
 * 1. The request picks the due candidates in SQL and stores one pending item per candidate (INSERT ... SELECT),
 *    creates the run and its audit row and marks it 'running', all in one transaction (so a crash leaves no
 *    half-made run), and answers 202.
 * 2. The run engine (processing-runs/runner.ts, decision 039) hands this kind the items one by one in row
 *    order. Each item is decided afresh (the candidate may have changed since the selection) and settled in
 *    one transaction with the run's counters: skipped
 *    (not due any more, consent, do-not-contact, no phone), deferred (outside calling hours: a callback at
 *    the next window), called, or failed (the provider refused). Before dialling it waits until the
 *    organization has fewer than VOICE_MAX_CONCURRENT_CALLS open calls.
 * 3. On start-up, the engine continues every 'running' run from its pending items.
 */

const BULK_LABEL = 'Bulk prescreen';
const plural = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'person' : 'people'}`;
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
    if (chosenTrial) refuseUnlessRecruiting(chosenTrial.status);
    // The run is for one trial, and its calls ask that trial's questions (decision 174): the body's trial, else
    // the trial of the organization's most recently updated prescreen agent.
    const agent = await activeVoiceAgent(tx, organizationId, 'PRESCREEN', { trialId: input.trialId });
    if (!agent?.prescreenFormId)
      throw conflict(
        input.trialId
          ? `No calls placed: ${await noAgentWords(tx, 'PRESCREEN', { trialId: input.trialId })}`
          : 'No calls placed: the organization has no active prescreen voice agent for a trial. Create or turn one on under Voice agents.',
      );
    const runTrialId = input.trialId ?? agent.recruitsForTrialId;
    refuseUnlessRecruiting(chosenTrial?.status ?? agent.trialStatus);
    // The check below and the insert must not interleave with another request's.
    await lockPrescreenRunsOf(tx, organizationId);
    if (await findOpenRun(tx, organizationId, PRESCREEN_CALLS_RUN_KIND))
      throw conflict('A prescreen calls run is already going for this organization; wait until it has finished');

    const filter: TrialFilter = input.candidateIds
      ? { kind: 'candidates', candidateIds: [...new Set(input.candidateIds)] }
      : runTrialId
        ? { kind: 'trial', trialId: runTrialId }
        : { kind: 'all' };
    const options = {
      voiceAgentId: agent.id,
      // The trial every call of the run is for: its agent asks that trial's questions.
      trialId: runTrialId,
      simulate: input.simulate ?? null,
      maxConcurrentCalls: deps.config.voice.maxConcurrentCalls,
    };
    const { run: created, items: total } = await prescreenCallRuns.create(tx, {
      organizationId,
      createdByUserId: scope.userId,
      label: 'Prescreen calls',
      options,
      addItems: (runId) => insertDueItems(tx, { organizationId, runId, filter }),
      audit: (candidates) => ({ candidates, ...options, ...(input.candidateIds ? { selected: new Set(input.candidateIds).size } : {}) }),
    });
    // A selection none of whom is due a call would start a run that does nothing: say why instead.
    if (input.candidateIds && total === 0)
      throw conflict(
        `None of the ${plural(new Set(input.candidateIds).size)} selected is due a prescreen call (new or contacted, with a phone, no prescreen result, no call or callback open)`,
      );
    const label = `Prescreen calls (${total.toLocaleString('en-US')} candidate${total === 1 ? '' : 's'})`;
    return prescreenCallRuns.begin(tx, created.id, { label, total });
  });
  await prescreenCallRuns.trigger(deps, run.id, organizationId);
  return toRun(run);
}

/** Recruitment calls go out only for a recruiting trial: a draft is still being prepared, a paused or closed one takes nobody new. */
function refuseUnlessRecruiting(trialStatus: string | null | undefined): void {
  if (trialStatus && trialStatus !== 'recruiting')
    throw new AppError(409, `No calls placed: the trial is ${trialStatus}, not recruiting. Start recruiting on the trial page first.`, 'TRIAL_NOT_RECRUITING');
}

// ---- the run kind ----

/** The bulk calls' run kind (its start-up resume is listed in jobs/register.ts). */
export const prescreenCallRuns = defineRunKind<AppDeps, ItemOutcome>({
  kind: PRESCREEN_CALLS_RUN_KIND,
  counters: { called: 'succeeded', deferred: 'merged', skipped: 'skipped', failed: 'failed' },
  messages: {
    failed: 'Processing stopped on an unexpected error; the candidates marked processed were handled',
    // Runs are created in one transaction, so a pending one is not expected; it never started.
    interrupted: 'Interrupted before it started; no candidate was called',
  },
  completion: (run) => ({ total: run.total, called: run.succeeded, deferred: run.merged, skipped: run.skipped, failed: run.failed }),
  pageSize: ITEM_PAGE,
  processItem: async (ctx, item) => ((await processItem(ctx, item)) ? 'next' : 'stop'),
});
/** Resolves when the run's background processing (if any, in this process) has settled. */
export const whenPrescreenRunSettled = prescreenCallRuns.whenSettled;
/** Continues prescreen-call runs left running by a stopped process. */
export const resumePrescreenRuns = prescreenCallRuns.resume;

type Ctx = RunContext<AppDeps, ItemOutcome>;

/** Who the run's calls are placed by, and the simulator's mode the run was started with. */
function callSettings(ctx: Ctx): { actor: CallActor; simulate: SimulationMode | undefined } {
  const simulate = (ctx.run.options as { simulate?: unknown }).simulate;
  return {
    actor: { userId: ctx.run.createdByUserId, label: BULK_LABEL },
    simulate: typeof simulate === 'string' && (SIMULATION_MODES as readonly string[]).includes(simulate) ? (simulate as SimulationMode) : undefined,
  };
}

/** The trial the run's calls are for (kept in its options); null for a run started before runs kept it. */
function runTrialOf(ctx: Ctx): string | null {
  const trialId = (ctx.run.options as { trialId?: unknown }).trialId;
  return typeof trialId === 'string' ? trialId : null;
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
  | { kind: 'defer'; person: CandidateRow; agent: ActiveVoiceAgent }
  | { kind: 'dial'; person: CandidateRow }
  | { kind: 'stop'; error: string | null };

const skip = (field: string, message: string): Decision => ({ kind: 'settle', outcome: 'skipped', errors: [{ field, message }] });

/** What to do with a candidate now. Reads only; `lock` takes the candidate's row for the deciding transaction. */
async function decide(tx: Transaction, ctx: Ctx, candidateId: string | null, now: Date, lock: boolean): Promise<Decision> {
  const person = candidateId ? await findCandidate(tx, candidateId, lock) : undefined;
  if (!person) return skip('candidateId', 'The candidate no longer exists');
  const state = await dueState(tx, person.id, ctx.run.id);
  if (state.runCall) {
    if (state.runCall.providerCallId || state.runCall.status !== 'queued') return { kind: 'settle', outcome: 'called', errors: null };
    return { kind: 'abandoned', callId: state.runCall.id };
  }
  if (person.status !== 'new' && person.status !== 'contacted') return skip('status', `No longer due a prescreen call: the status is now ${person.status}`);
  if (state.hasResult) return skip('status', 'No longer due a prescreen call: a prescreen result was recorded');
  if (state.hasOpenCall) return skip('status', 'No longer due a prescreen call: a call to the candidate is open');
  if (state.hasOpenCallback) return skip('status', 'No longer due a prescreen call: a callback is open');
  const forCall = { candidateId: person.id, trialId: runTrialOf(ctx) };
  const agent = await activeVoiceAgent(tx, ctx.run.organizationId, 'PRESCREEN', forCall);
  if (!agent?.prescreenFormId) {
    // The run's trial lost its agent: nobody else can be called for it. (A run from before runs kept their trial
    // goes on with each person's own trial's agent.)
    if (forCall.trialId) return { kind: 'stop', error: `${await noAgentWords(tx, 'PRESCREEN', forCall)} The remaining candidates were not called.` };
    return skip('candidateId', await noAgentWords(tx, 'PRESCREEN', forCall));
  }
  const reason = callBlockReason(person, 'PRESCREEN', agent, now);
  if (reason === 'quiet_hours') return { kind: 'defer', person, agent };
  if (reason) {
    const block = BLOCK_FIELDS[reason] ?? { field: 'candidateId', message: 'the candidate may not be called' };
    return skip(block.field, `${reason}: ${block.message}`);
  }
  return { kind: 'dial', person };
}

/** Handles one item; false when the run must stop (no longer running, or no agent any more). */
async function processItem(ctx: Ctx, item: { id: string; candidateId: string | null }): Promise<boolean> {
  const { deps } = ctx;
  const { id: runId, organizationId } = ctx.run;
  const { actor, simulate } = callSettings(ctx);
  // A first look without locks: only a candidate about to be dialled waits for a free line.
  const preview = await runAsOrganization(deps.db, organizationId, (tx) => decide(tx, ctx, item.candidateId, new Date(), false));
  if (preview.kind === 'dial' && !(await waitForCallSlot(deps, ctx))) return false;

  // Decide again (the wait may have been long) and act in one transaction with the item's outcome.
  const acted = await runAsOrganization(
    deps.db,
    organizationId,
    async (tx): Promise<{ kind: 'done' | 'deferred' | 'stopped' } | { kind: 'dial'; plan: CallPlan }> => {
      // The run locked, and still this instance's: another process that took it over decides the items from here.
      if (!(await ctx.holds(tx))) return { kind: 'stopped' };
      const now = new Date();
      const decision = await decide(tx, ctx, item.candidateId, now, true);
      switch (decision.kind) {
        case 'stop':
          if (decision.error) await ctx.fail(tx, decision.error);
          return { kind: 'stopped' };
        case 'settle':
          await ctx.settle(tx, { itemId: item.id, outcome: decision.outcome, errors: decision.errors });
          return { kind: 'done' };
        case 'abandoned':
          // Planned, then the process stopped before dialling: the call never went out, so it must not hold a line.
          await updateCall(tx, decision.callId, { status: 'failed', outcome: 'failed', endedAt: now, structuredData: { error: 'interrupted' } });
          await ctx.settle(tx, {
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
                actor,
                note: null,
                agent: decision.agent,
              }),
            );
            await ctx.settle(tx, {
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
            await ctx.settle(tx, {
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
            actor,
            now,
            via: BULK_LABEL,
            processingRunId: runId,
            trialId: runTrialOf(ctx),
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
      await dialCall(deps, acted.plan, simulate);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 502) throw error;
      outcome = 'failed';
      errors = [{ field: 'call', message: error.message }];
    }
    await runAsOrganization(deps.db, organizationId, (tx) => ctx.settle(tx, { itemId: item.id, outcome, errors }));
  }
  return true;
}

/** Waits (without blocking) until the organization has a free line; false when the run stopped meanwhile. */
async function waitForCallSlot(deps: AppDeps, ctx: Ctx): Promise<boolean> {
  const { id: runId, organizationId } = ctx.run;
  for (;;) {
    const { runStatus, openCalls } = await runAsOrganization(deps.db, organizationId, (tx) => callSlotState(tx, runId, organizationId));
    if (runStatus !== 'running') return false;
    if (openCalls < deps.config.voice.maxConcurrentCalls) return true;
    await sleep(SLOT_POLL_MS);
  }
}
