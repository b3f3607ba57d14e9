import { runAsOrganization } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { findCandidate } from '../candidates/service';
import { nextCallingTimeFor } from '../../calling-hours';
import { callBlockReason, dialCall, planCall, type CallPlan } from './service';
import { activeVoiceAgent, noAgentWords } from '../voice-agents/service';
import { findCallback, releaseLostJobs, updateCallback, closeCallback, PROVIDER_RETRY_MS, queueCallbackJobs, retryOrFail } from '../callbacks/service';

/** A pending callback overdue by more than this has lost its job (the sweep gives it a new one). */
const LOST_JOB_GRACE_MS = 2 * 60_000;
const SYSTEM = { userId: null, label: 'Callback' };

/**
 * The callback-place job. Does nothing unless the callback is still pending, due, and this job is still its
 * job (a moved or cancelled callback leaves its old job stale). Then, under the organization's row security:
 * outside calling hours -> moved to the next window; do-not-contact, no consent, no phone, no agent ->
 * closed with the reason; otherwise the call is planned (status calling, one more attempt) and dialled after
 * the commit. A provider refusal is an attempt that failed: retried later or failed (retryOrFail). Other
 * errors throw, so pg-boss retries the job a bounded number of times.
 */
export async function placeCallbackJob(deps: AppDeps, data: { callbackId: string }, jobId: string, now = new Date()): Promise<void> {
  const found = await findCallback(systemDb(deps.db), data.callbackId);
  if (found?.status !== 'pending' || found.jobId !== jobId) return;
  const organizationId = found.organizationId;

  const plan = await runAsOrganization(deps.db, organizationId, async (tx): Promise<CallPlan | null> => {
    const row = await findCallback(tx, found.id, true);
    if (row?.status !== 'pending' || row.jobId !== jobId) return null;
    // Early (the database's clock ahead of ours): queued again for its time after the commit.
    if (row.scheduledFor.getTime() > now.getTime() + 5_000) {
      await updateCallback(tx, row.id, { jobId: null });
      return null;
    }
    const person = await findCandidate(tx, row.candidateId, true);
    if (!person) return null;
    const agent = await activeVoiceAgent(tx, organizationId, row.type, { candidateId: person.id });
    if (!agent || (agent.type === 'PRESCREEN' && !agent.prescreenFormId)) {
      const words = await noAgentWords(tx, row.type, { candidateId: person.id });
      await closeCallback(tx, row, 'failed', { actor: SYSTEM, summary: `Callback failed: ${words}`, lastError: 'no_agent' });
      return null;
    }
    const reason = callBlockReason(person, row.type, agent, now);
    if (reason === 'quiet_hours') {
      await updateCallback(tx, row.id, { scheduledFor: nextCallingTimeFor(now, person, agent), jobId: null });
      return null;
    }
    if (reason) {
      await closeCallback(tx, row, 'cancelled', { actor: SYSTEM, summary: `Callback cancelled: ${reason.replace(/_/g, ' ')}`, lastError: reason });
      return null;
    }
    const planned = await planCall(tx, { provider: deps.voice.provider, candidate: person, type: row.type, actor: SYSTEM, now, via: 'Callback' });
    await updateCallback(tx, row.id, { status: 'calling', attempts: row.attempts + 1, lastCallId: planned.created.id, lastError: null, jobId: null });
    return planned;
  });

  if (plan) {
    try {
      await dialCall(deps, plan);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await runAsOrganization(deps.db, organizationId, async (tx) => {
        const row = await findCallback(tx, found.id, true);
        if (row?.status !== 'calling' || row.lastCallId !== plan.created.id) return;
        const person = await findCandidate(tx, row.candidateId);
        const updated = await updateCallback(tx, row.id, { lastError: 'provider_error' });
        await retryOrFail(tx, updated, person, 'failed', PROVIDER_RETRY_MS, now);
      });
    }
  }
  await queueCallbackJobs(deps, organizationId);
}

/** The callback-sweep job (and start-up): pending callbacks without a live job get one. */
export async function sweepCallbacks(deps: AppDeps, now = new Date()): Promise<void> {
  const organizationIds = await releaseLostJobs(systemDb(deps.db), now, LOST_JOB_GRACE_MS);
  for (const organizationId of organizationIds) await queueCallbackJobs(deps, organizationId);
}
