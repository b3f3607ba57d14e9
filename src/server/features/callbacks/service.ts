import { CALLBACK_MAX_ATTEMPTS, type Callback, type CallbackReason, type ListCallbacksQuery, type ScheduleCallbackInput } from '../../../contract/callbacks';
import { type VoiceAgentType, MISSED_OUTCOMES } from '../../../contract/voice';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { QUEUES } from '../../jobs/jobs';
import { recordAudit, type Actor } from '../../audit';
import { findCandidate, insertContactEvents, userName, type CandidateRow } from '../candidates/service';
import { nextCallingTimeFor, zoneOrDefault } from '../../calling-hours';

import { toLocalTime } from '../../../contract/time-zones';
import { activeVoiceAgent, noAgentWords, type VoiceAgentRow } from '../voice-agents/service';
import {
  claimJob,
  findCallbackOfCall,
  findOpenCallback,
  insertCallback,
  listCallbackRows,
  pendingWithoutJob,
  updateCallback,
  type CallbackListRow,
  type CallbackRow,
} from './queries';
import type { call } from '../../db/schema';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export { candidatesWithPhone, findCallback, findOpenCallback, releaseLostJobs, updateCallback } from './queries';

/** A call as callbacks read it (the row `calls` writes). */
type CallRow = typeof call.$inferSelect;

export type { CallbackRow } from './queries';

/** After a missed call, the callback offered is this long after it (then moved into calling hours). */
export const MISSED_CALL_RETRY_MS = 2 * 60 * 60_000;
/** A callback's own call missed: the next attempt is this long after. */
export const CALLBACK_RETRY_MS = 60 * 60_000;
/** The provider refused to place a callback's call: tried again this long after. */
export const PROVIDER_RETRY_MS = 15 * 60_000;
/** Outcomes of a callback's call that settle it: the person was reached. */
const REACHED = ['completed', 'declined', 'hung_up'];

export type CallbackDeps = Pick<AppDeps, 'db' | 'jobs' | 'logger'>;

export function toCallback(row: CallbackListRow): Callback {
  return {
    id: row.id,
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    candidateName: [row.firstName, row.lastName].filter(Boolean).join(' '),
    voiceAgentId: row.voiceAgentId,
    type: row.type,
    status: row.status,
    reason: row.reason as Callback['reason'],
    requestedFor: row.requestedFor.toISOString(),
    scheduledFor: row.scheduledFor.toISOString(),
    timeZone: zoneOrDefault(row.timeZone),
    attempts: row.attempts,
    maxAttempts: CALLBACK_MAX_ATTEMPTS,
    lastCallId: row.lastCallId,
    lastOutcome: row.lastOutcome,
    lastError: row.lastError,
    note: row.note,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const withCandidate = (row: CallbackRow, person: CandidateRow): CallbackListRow => ({
  ...row,
  firstName: person.firstName,
  lastName: person.lastName,
  timeZone: person.timeZone,
});
const localLabel = (at: Date, timeZone: string | null) => `${toLocalTime(at, zoneOrDefault(timeZone)).replace('T', ' ')} (${zoneOrDefault(timeZone)})`;

// ---- opening, moving, settling (in a transaction) ----

export interface OpenCallbackInput {
  candidate: CandidateRow;
  type: VoiceAgentType;
  reason: CallbackReason;
  /** The time asked for; moved into calling hours in the candidate's time zone. */
  requestedFor: Date;
  actor: Actor;
  note?: string | null;
  /** The organization's active agent of the type, when the caller has already looked it up. */
  agent?: VoiceAgentRow | null;
}

/**
 * In `tx`: creates the candidate's callback, or moves their pending one (one open callback per candidate;
 * one being placed right now: 409). The time is moved into the calling window of the organization's agent of
 * the type, in the candidate's time zone. Its job is queued after the commit by queueCallbackJobs.
 */
export async function openCallback(tx: Transaction, input: OpenCallbackInput): Promise<{ row: CallbackRow; rescheduled: boolean; moved: boolean }> {
  const { candidate: person, actor } = input;
  const agent = input.agent === undefined ? await activeVoiceAgent(tx, person.organizationId, input.type, { candidateId: person.id }) : input.agent;
  const scheduledFor = nextCallingTimeFor(input.requestedFor, person, agent ?? undefined);
  const moved = scheduledFor.getTime() !== input.requestedFor.getTime();
  const existing = await findOpenCallback(tx, person.id, true);
  if (existing?.status === 'calling') throw conflict('A callback call to this candidate is being placed right now; try again when it has ended');

  let row: CallbackRow;
  if (existing) {
    // The old job finds a different job id on the row and does nothing.
    row = await updateCallback(tx, existing.id, {
      type: input.type,
      voiceAgentId: agent?.id ?? null,
      reason: input.reason === 'requested' ? 'requested' : existing.reason,
      requestedFor: input.requestedFor,
      scheduledFor,
      note: input.note === undefined ? existing.note : input.note,
      jobId: null,
    });
  } else {
    row = await insertCallback(tx, {
      organizationId: person.organizationId,
      candidateId: person.id,
      voiceAgentId: agent?.id ?? null,
      type: input.type,
      status: 'pending',
      reason: input.reason,
      requestedFor: input.requestedFor,
      scheduledFor,
      note: input.note ?? null,
      createdByUserId: actor.userId,
    });
  }
  await insertContactEvents(tx, [
    {
      organizationId: person.organizationId,
      candidateId: person.id,
      kind: 'callback',
      summary: `Callback ${existing ? 'moved to' : 'scheduled for'} ${localLabel(scheduledFor, person.timeZone)}${moved ? ', moved into calling hours' : ''}`,
      details: {
        callbackId: row.id,
        reason: row.reason,
        type: row.type,
        requestedFor: row.requestedFor.toISOString(),
        scheduledFor: row.scheduledFor.toISOString(),
      },
      referenceId: row.id,
      actorUserId: actor.userId,
      actorLabel: actor.label,
    },
  ]);
  await recordAudit(tx, {
    organizationId: person.organizationId,
    actorUserId: actor.userId,
    action: existing ? 'callback.reschedule' : 'callback.schedule',
    entityType: 'callback',
    entityId: row.id,
    changes: {
      candidateId: person.id,
      type: row.type,
      reason: row.reason,
      scheduledFor: row.scheduledFor.toISOString(),
      ...(existing ? { from: existing.scheduledFor.toISOString() } : {}),
    },
  });
  return { row, rescheduled: Boolean(existing), moved };
}

/** Ends an open callback (cancelled or failed) with the reason, in the contact history and the audit log. */
export async function closeCallback(
  tx: Transaction,
  row: CallbackRow,
  status: 'cancelled' | 'failed' | 'done',
  details: { actor: Actor; summary: string; lastError?: string | null; lastOutcome?: string | null },
): Promise<CallbackRow> {
  const updated = await updateCallback(tx, row.id, {
    status,
    jobId: null,
    ...(details.lastError !== undefined ? { lastError: details.lastError } : {}),
    ...(details.lastOutcome !== undefined ? { lastOutcome: details.lastOutcome } : {}),
  });
  await insertContactEvents(tx, [
    {
      organizationId: row.organizationId,
      candidateId: row.candidateId,
      kind: 'callback',
      summary: details.summary,
      details: { callbackId: row.id, status, lastError: updated.lastError },
      referenceId: row.id,
      actorUserId: details.actor.userId,
      actorLabel: details.actor.label,
    },
  ]);
  await recordAudit(tx, {
    organizationId: row.organizationId,
    actorUserId: details.actor.userId,
    action: `callback.${status}`,
    entityType: 'callback',
    entityId: row.id,
    changes: {
      from: row.status,
      to: status,
      ...(updated.lastError ? { lastError: updated.lastError } : {}),
      ...(updated.lastOutcome ? { lastOutcome: updated.lastOutcome } : {}),
    },
  });
  return updated;
}

/**
 * A failed attempt (missed call, provider refusal): the callback is tried again `retryMs` later, moved into
 * calling hours, until CALLBACK_MAX_ATTEMPTS calls were placed; then it is failed.
 */
export async function retryOrFail(
  tx: Transaction,
  row: CallbackRow,
  person: CandidateRow | undefined,
  outcome: string,
  retryMs: number,
  now = new Date(),
): Promise<CallbackRow> {
  const system = { userId: null, label: 'Callbacks' };
  // Out of attempts, or the missed-call rule has just marked the person unreachable: stop calling.
  if (row.attempts >= CALLBACK_MAX_ATTEMPTS || !person || person.status === 'unreachable' || person.doNotContact) {
    return closeCallback(tx, row, 'failed', {
      actor: system,
      summary: `Callback failed after ${row.attempts} attempt${row.attempts === 1 ? '' : 's'} (${outcome.replace(/_/g, ' ')})`,
      lastOutcome: outcome,
    });
  }
  const agent = await activeVoiceAgent(tx, row.organizationId, row.type, { candidateId: row.candidateId });
  const scheduledFor = nextCallingTimeFor(new Date(now.getTime() + retryMs), person, agent ?? undefined);
  const updated = await updateCallback(tx, row.id, { status: 'pending', lastOutcome: outcome, scheduledFor, jobId: null });
  await insertContactEvents(tx, [
    {
      organizationId: row.organizationId,
      candidateId: row.candidateId,
      kind: 'callback',
      summary: `Callback attempt ${row.attempts} of ${CALLBACK_MAX_ATTEMPTS} ${outcome.replace(/_/g, ' ')}; next try ${localLabel(scheduledFor, person.timeZone)}`,
      details: { callbackId: row.id, outcome, scheduledFor: scheduledFor.toISOString() },
      referenceId: row.id,
      actorUserId: null,
      actorLabel: system.label,
    },
  ]);
  return updated;
}

/**
 * In finishCall, after the call's outcome is recorded: a callback's call settles the callback (reached: done;
 * missed or failed: retried or failed). Any other outbound prescreen call that was missed earns a callback
 * (reason missed_call) when the person may still be called and has none open.
 */
export async function settleCallbackAfterCall(tx: Transaction, call: CallRow, now = new Date()): Promise<void> {
  if (!call.candidateId || !call.outcome) return;
  const system = { userId: null, label: 'Callbacks' };
  const own = await findCallbackOfCall(tx, call.id);
  const person = await findCandidate(tx, call.candidateId, true);
  if (own) {
    if (REACHED.includes(call.outcome)) {
      await closeCallback(tx, own, 'done', {
        actor: system,
        summary: `Callback made (${call.outcome.replace(/_/g, ' ')})`,
        lastOutcome: call.outcome,
        lastError: null,
      });
    } else {
      await retryOrFail(tx, own, person, call.outcome, CALLBACK_RETRY_MS, now);
    }
    return;
  }
  if (!person) return;
  const open = await findOpenCallback(tx, person.id, true);
  if (open) {
    // Callbacks the system offered are no longer needed once the person is reached, or given up on once
    // the missed-call rule marks them unreachable; callbacks the person asked for stay.
    if (open.status !== 'pending' || open.reason === 'requested') return;
    if (REACHED.includes(call.outcome)) {
      await closeCallback(tx, open, 'done', { actor: system, summary: 'Callback no longer needed: the candidate was reached', lastOutcome: call.outcome });
    } else if (person.status === 'unreachable') {
      await closeCallback(tx, open, 'cancelled', { actor: system, summary: 'Callback cancelled: the candidate is unreachable', lastError: 'unreachable' });
    }
    return;
  }
  if (call.direction !== 'outbound' || call.type !== 'PRESCREEN' || !MISSED_OUTCOMES.includes(call.outcome)) return;
  if (person.doNotContact || !person.consentCalls || !person.phone || !['new', 'contacted', 'prescreening'].includes(person.status)) return;
  await openCallback(tx, {
    candidate: person,
    type: 'PRESCREEN',
    reason: 'missed_call',
    requestedFor: new Date(now.getTime() + MISSED_CALL_RETRY_MS),
    actor: { userId: null, label: 'Voice agent' },
    note: null,
  });
}

// ---- jobs (after commit) ----

/**
 * After a commit: queues a pg-boss job, at its time, for every pending callback of the organization that has
 * none. The job id is recorded only if no other process recorded one first; a job that lost is cancelled.
 */
export async function queueCallbackJobs(deps: CallbackDeps, organizationId: string): Promise<void> {
  const waiting = await runAsOrganization(deps.db, organizationId, (tx) => pendingWithoutJob(tx, organizationId));
  for (const item of waiting) {
    const jobId = await deps.jobs.send(QUEUES.placeCallback, { callbackId: item.id }, { startAfter: item.scheduledFor });
    if (!(await runAsOrganization(deps.db, organizationId, (tx) => claimJob(tx, item.id, jobId)))) await deps.jobs.cancel(QUEUES.placeCallback, jobId);
  }
}

// ---- staff API ----

export async function listCallbacks(deps: CallbackDeps, scope: RequestScope, query: ListCallbacksQuery) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds, query.orgs);
  return runScoped(deps.db, scope, async (tx) => {
    const { rows, total, counts } = await listCallbackRows(
      tx,
      { organizationIds, candidateId: query.candidateId, status: query.status, filter: query.filter },
      { limit: query.limit, offset: query.offset },
    );
    const byStatus = { pending: 0, calling: 0, done: 0, failed: 0, cancelled: 0 };
    for (const item of counts) if (item.status in byStatus) byStatus[item.status as keyof typeof byStatus] = item.n;
    return { callbacks: rows.map(toCallback), total, counts: byStatus };
  });
}

/** Why this candidate cannot be promised a callback at all (calling hours are not a reason: the time moves). */
export function callbackRefusal(person: CandidateRow, type: VoiceAgentType): string | null {
  if (person.doNotContact) return 'the candidate is marked do-not-contact';
  if (!person.phone) return 'the candidate has no phone number';
  // A prescreen call is outreach and needs call consent; a scheduling call follows the person's own request.
  if (type === 'PRESCREEN' && !person.consentCalls) return 'the candidate has not consented to calls';
  return null;
}

/** POST /api/callbacks/schedule: schedules (or moves) the candidate's callback. */
export async function scheduleCallback(deps: CallbackDeps, scope: RequestScope, input: ScheduleCallbackInput, now = new Date()) {
  const at = new Date(input.at);
  if (at.getTime() < now.getTime() - 60_000) throw badRequest('at: That time is in the past', [{ path: 'at', message: 'In the past' }]);
  const requestedFor = at.getTime() < now.getTime() ? now : at;
  const result = await runScoped(deps.db, scope, async (tx) => {
    const person = await findCandidate(tx, input.candidateId, true);
    if (!person || !canReach(scope, person.organizationId) || (input.organizationId && input.organizationId !== person.organizationId))
      throw notFound('Candidate not found');
    // Callbacks are placed by the voice agent: without one, a promise of a call would silently fail later.
    const agent = await activeVoiceAgent(tx, person.organizationId, input.type, { candidateId: person.id });
    const personRefusal = callbackRefusal(person, input.type);
    const refusal = personRefusal ?? (agent ? null : await noAgentWords(tx, input.type, { candidateId: person.id }));
    // About the person (consent, phone) or about the call type (no agent): the dialog shows each where it belongs.
    if (refusal)
      throw new AppError(409, `Callback not scheduled: ${refusal}`, 'CALLBACK_BLOCKED', [{ path: personRefusal ? 'candidateId' : 'type', message: refusal }]);
    const actor = { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
    const opened = await openCallback(tx, { candidate: person, type: input.type, reason: 'requested', requestedFor, actor, note: input.note ?? null, agent });
    return { ...opened, person };
  });
  await queueCallbackJobs(deps, result.row.organizationId);
  return { callback: toCallback(withCandidate(result.row, result.person)), rescheduled: result.rescheduled, moved: result.moved };
}

/** DELETE /api/callbacks/{candidateId}: cancels the candidate's pending callback (404 when none; 409 while its call is being placed). */
export async function cancelCallback(deps: CallbackDeps, scope: RequestScope, candidateId: string) {
  const result = await runScoped(deps.db, scope, async (tx) => {
    const person = await findCandidate(tx, candidateId, true);
    if (!person || !canReach(scope, person.organizationId)) throw notFound('Candidate not found');
    const open = await findOpenCallback(tx, person.id, true);
    if (!open) throw notFound('The candidate has no open callback');
    if (open.status === 'calling') throw conflict('The callback call is being placed right now; cancel the call from the calls page instead');
    const actor = { userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' };
    const row = await closeCallback(tx, open, 'cancelled', { actor, summary: 'Callback cancelled' });
    return { row, person, jobId: open.jobId };
  });
  if (result.jobId) await deps.jobs.cancel(QUEUES.placeCallback, result.jobId);
  return { callback: toCallback(withCandidate(result.row, result.person)) };
}
