import { randomUUID } from 'node:crypto';
import type { BranchCondition, ExitReason, SequenceStep } from '../../../contract/sequences';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { QUEUES } from '../../jobs/jobs';
import { findCandidate, insertContactEvents, type CandidateRow } from '../candidates/queries';
import { nextCallingTime } from '../calls/calling-hours';
import { callBlockReason, dialCall, planCall, type CallPlan } from '../calls/service';
import { sendSms } from '../sms/service';
import { withinMarketingHours } from '../sms/consent';
import { activeVoiceAgent } from '../voice-agents/queries';
import { branchFacts, messageVariables, type BranchFacts } from './facts';
import { renderStep } from './messages';
import { enrollmentsNeedingJobs, claimJobs, findEnrollment, findSequence, findVersion, insertStepRuns, updateEnrollment, type EnrollmentRow, type NewStepRunRow, type SequenceRow } from './queries';
import { localLabel, nextContactTime, waitEnd } from './schedule';
import { endEnrollments, EXITING_STATUSES } from './exits';

/**
 * The sequence engine (decision 026). Each active enrollment has one pg-boss job for its next step
 * (`sequence-step`, { enrollmentId }), whose id is kept on the enrollment: a job that finds another id there is
 * stale and does nothing. A job:
 * 1. (decide) under the organization's row security, locks the enrollment, applies the exits (do-not-contact,
 *    status enrolled / screen-failed...), walks through waits and branches that can be decided now, and stops
 *    at the next SMS, email or call. Outside 08:00-21:00 in the candidate's zone the step is moved to the next
 *    allowed time ("moved" in the timeline);
 * 2. (send) records the step with its idempotency key (enrollment id : steps taken, unique) IN THE SAME
 *    TRANSACTION that stores the message or the call, then hands it to the provider after the commit. A job
 *    retried after a crash finds the key (or a changed enrollment) and sends nothing: a step is sent at most
 *    once, and a crash after the commit leaves a stored message that was never handed over rather than two;
 * 3. queues the job of the next step.
 */

export type SequenceDeps = Pick<AppDeps, 'db' | 'sms' | 'voice' | 'mail' | 'jobs' | 'config' | 'logger'>;

/** A job this early (the database's clock ahead of ours) is queued again for its time. */
const EARLY_TOLERANCE_MS = 5_000;
/** A branch on a call's outcome waits for the call to end, re-checking this often... */
const CALL_RECHECK_MS = 2 * 60_000;
/** ...for at most this long; a call still open then counts as missed. */
const CALL_WAIT_LIMIT_MS = 2 * 60 * 60_000;
/** An enrollment overdue by more than this has lost its job (the sweep gives it a new one). */
const LOST_JOB_GRACE_MS = 2 * 60_000;

const SYSTEM = { userId: null, label: 'Sequence' };

class StaleStep extends Error {}

interface Context {
  enrollment: EnrollmentRow;
  sequence: SequenceRow;
  steps: SequenceStep[];
  candidate: CandidateRow;
}

type WalkResult = { entries: NewStepRunRow[]; end: true } | { entries: NewStepRunRow[]; end: false; index: number; runAt: Date; waitingForCall: boolean };

export const stepTitle = (step: SequenceStep, index: number) => `step ${index + 1} (${step.type === 'sms' ? 'SMS' : step.type})`;

function entry(context: Context, index: number | null, kind: NewStepRunRow['kind'], summary: string, details: Record<string, unknown> = {}, extra: Partial<NewStepRunRow> = {}): NewStepRunRow {
  const step = index === null ? undefined : context.steps[index];
  return {
    organizationId: context.enrollment.organizationId,
    enrollmentId: context.enrollment.id,
    sequenceId: context.enrollment.sequenceId,
    version: context.enrollment.version,
    stepIndex: index,
    stepKey: step?.key ?? null,
    stepType: step?.type ?? null,
    kind,
    summary,
    details,
    ...extra,
  };
}

function branchHolds(condition: BranchCondition, facts: BranchFacts): boolean {
  switch (condition) {
    case 'replied':
      return facts.replied;
    case 'call_answered':
      return facts.callOutcome === 'completed';
    case 'call_missed':
      return facts.callOutcome !== null && facts.callOutcome !== 'completed';
    case 'call_voicemail':
      return facts.callOutcome === 'voicemail';
    case 'prescreen_pass':
      return facts.prescreen === 'PASS';
    case 'prescreen_fail':
      return facts.prescreen === 'FAIL';
  }
}

/**
 * From step `from`, through waits (their end accumulates) and branches that can be decided at `now`, to the
 * next message step or the end. Stops early at a wait's end in the future, and at a branch on a call that is
 * still open (re-checked a little later).
 */
async function walk(tx: Transaction, context: Context, from: number, now: Date): Promise<WalkResult> {
  const entries: NewStepRunRow[] = [];
  let index = from;
  let at = now;
  for (let guard = 0; guard <= context.steps.length; guard += 1) {
    if (index >= context.steps.length) return { entries, end: true };
    const step = context.steps[index];
    if (at.getTime() > now.getTime()) return { entries, end: false, index, runAt: at, waitingForCall: false };
    if (step.type === 'wait') {
      at = waitEnd(step, at, context.candidate.timeZone);
      entries.push(entry(context, index, 'waited', `Waiting until ${localLabel(at, context.candidate.timeZone)}`, { until: at.toISOString() }));
      index += 1;
      continue;
    }
    if (step.type === 'branch') {
      const facts = await branchFacts(tx, context.enrollment, context.candidate.id);
      const callPending = step.condition.startsWith('call_') && facts.callOpen;
      // Already waiting at this branch (the walk starts where the enrollment stood): since then; else from now.
      const waitedSince = index === from && context.enrollment.stepIndex === index ? (context.enrollment.stepStartedAt ?? now) : now;
      if (callPending && now.getTime() - waitedSince.getTime() < CALL_WAIT_LIMIT_MS) {
        return { entries, end: false, index, runAt: new Date(now.getTime() + CALL_RECHECK_MS), waitingForCall: true };
      }
      const holds = branchHolds(step.condition, callPending ? { ...facts, callOutcome: 'no_answer' } : facts);
      const target = holds ? step.ifTrue : step.ifFalse;
      entries.push(entry(context, index, 'branched', `${step.condition.replace(/_/g, ' ')}: ${holds ? 'yes' : 'no'}, ${target === 'next' ? 'next step' : target === 'end' ? 'end of sequence' : `to ${target}`}`, { condition: step.condition, holds, target }));
      if (target === 'end') return { entries, end: true };
      index = target === 'next' ? index + 1 : context.steps.findIndex((candidate) => candidate.key === target);
      if (index < 0) return { entries, end: true };
      continue;
    }
    return { entries, end: false, index, runAt: at, waitingForCall: false };
  }
  return { entries, end: true };
}

interface Next {
  enrollmentId: string;
  jobId: string;
  runAt: Date;
}

/** Writes a walk's outcome onto the enrollment: the next step and its job id, or completed. Returns the job to queue. */
async function settle(tx: Transaction, context: Context, result: WalkResult, now: Date, extra: Partial<EnrollmentRow> = {}): Promise<Next | null> {
  const { enrollment } = context;
  if (result.end) {
    await updateEnrollment(tx, enrollment.id, { ...extra, status: 'completed', stepIndex: null, nextRunAt: null, jobId: null, endedAt: now });
    await insertStepRuns(tx, [...result.entries, entry(context, null, 'completed', 'Sequence completed')]);
    await insertContactEvents(tx, [{ organizationId: enrollment.organizationId, candidateId: enrollment.candidateId, kind: 'sequence', summary: `Sequence completed: ${context.sequence.name}`, details: { sequenceId: context.sequence.id, enrollmentId: enrollment.id }, referenceId: enrollment.id, actorUserId: null, actorLabel: SYSTEM.label }]);
    return null;
  }
  const jobId = randomUUID();
  const stepChanged = result.index !== enrollment.stepIndex || extra.stepsTaken !== undefined;
  await updateEnrollment(tx, enrollment.id, { ...extra, stepIndex: result.index, nextRunAt: result.runAt, jobId, ...(stepChanged ? { stepStartedAt: now } : {}) });
  await insertStepRuns(tx, result.entries);
  return { enrollmentId: enrollment.id, jobId, runAt: result.runAt };
}

async function loadContext(tx: Transaction, enrollment: EnrollmentRow): Promise<Context | null> {
  const [sequence, version, candidate] = [await findSequence(tx, enrollment.sequenceId), await findVersion(tx, enrollment.sequenceId, enrollment.version), await findCandidate(tx, enrollment.candidateId, true)];
  if (!sequence || !version || !candidate) return null;
  return { enrollment, sequence, steps: version.steps, candidate };
}

/** Why this candidate must leave every sequence now, if they must. */
function exitReasonOf(candidate: CandidateRow): ExitReason | null {
  if (candidate.doNotContact) return 'do_not_contact';
  return EXITING_STATUSES[candidate.status] ?? null;
}

type Decision = { kind: 'done'; next: Next | null } | { kind: 'send'; context: Context; index: number };

async function decide(tx: Transaction, enrollmentId: string, jobId: string, now: Date): Promise<Decision> {
  const enrollment = await findEnrollment(tx, enrollmentId, true);
  if (!enrollment || enrollment.status !== 'active' || enrollment.jobId !== jobId || enrollment.stepIndex === null) return { kind: 'done', next: null };
  if (enrollment.nextRunAt && enrollment.nextRunAt.getTime() > now.getTime() + EARLY_TOLERANCE_MS) {
    const again = randomUUID();
    await updateEnrollment(tx, enrollment.id, { jobId: again });
    return { kind: 'done', next: { enrollmentId, jobId: again, runAt: enrollment.nextRunAt } };
  }
  const context = await loadContext(tx, enrollment);
  if (!context) return { kind: 'done', next: null };
  const reason = exitReasonOf(context.candidate);
  if (reason) {
    await endEnrollments(tx, [enrollment], reason, now);
    return { kind: 'done', next: null };
  }
  const result = await walk(tx, context, enrollment.stepIndex, now);
  if (result.end || result.runAt.getTime() > now.getTime() + 1000) return { kind: 'done', next: await settle(tx, context, result, now) };
  const step = context.steps[result.index];
  // Messages and emails keep to 08:00-21:00 local (calls also to their agent's hours: see sendCall).
  if (step.type !== 'call' && !withinMarketingHours(now, context.candidate.timeZone)) {
    const movedTo = nextContactTime(now, context.candidate.timeZone);
    const moved = entry(context, result.index, 'moved', `Moved to ${localLabel(movedTo, context.candidate.timeZone)} (quiet hours)`, { movedTo: movedTo.toISOString(), reason: 'quiet_hours' });
    return { kind: 'done', next: await settle(tx, context, { ...result, entries: [...result.entries, moved], runAt: movedTo }, now) };
  }
  if (result.entries.length || result.index !== enrollment.stepIndex) {
    await insertStepRuns(tx, result.entries);
    await updateEnrollment(tx, enrollment.id, { stepIndex: result.index, stepStartedAt: now });
  }
  return { kind: 'send', context: { ...context, enrollment: { ...enrollment, stepIndex: result.index } }, index: result.index };
}

/**
 * In the transaction that stores the step's message or call: checks the enrollment is still where the job
 * found it (else StaleStep rolls everything back), records the step under its idempotency key, and moves on.
 */
async function recordStep(tx: Transaction, context: Context, index: number, record: { kind: 'sent' | 'blocked' | 'failed'; summary: string; details?: Record<string, unknown>; referenceId?: string | null; exit?: ExitReason | null; lastCallId?: string }, now: Date): Promise<Next | null> {
  const current = await findEnrollment(tx, context.enrollment.id, true);
  if (!current || current.status !== 'active' || current.stepIndex !== index || current.stepsTaken !== context.enrollment.stepsTaken) throw new StaleStep();
  const step = entry(context, index, record.kind, record.summary, record.details ?? {}, { referenceId: record.referenceId ?? null, idempotencyKey: `${current.id}:${current.stepsTaken}` });
  if (record.exit) {
    await insertStepRuns(tx, [step]);
    await updateEnrollment(tx, current.id, { stepsTaken: current.stepsTaken + 1 });
    await endEnrollments(tx, [current], record.exit, now);
    return null;
  }
  const fresh = { ...context, enrollment: { ...current, lastCallId: record.lastCallId ?? current.lastCallId } };
  const result = await walk(tx, fresh, index + 1, now);
  return settle(tx, fresh, { ...result, entries: [step, ...result.entries] }, now, { stepsTaken: current.stepsTaken + 1, ...(record.lastCallId ? { lastCallId: record.lastCallId } : {}) });
}

const historyLabel = (context: Context, index: number) => `${context.sequence.name}, ${stepTitle(context.steps[index], index)}`;

async function sendSmsStep(deps: SequenceDeps, context: Context, index: number, now: Date): Promise<Next | null> {
  const step = context.steps[index] as Extract<SequenceStep, { type: 'sms' }>;
  const rendered = renderStep(step, context.candidate.preferredLanguage, await runAsOrganization(deps.db, context.enrollment.organizationId, (tx) => messageVariables(tx, context.sequence, context.candidate)));
  if (rendered.missing.length || !context.candidate.phone) {
    const summary = !context.candidate.phone ? 'SMS not sent: no phone number' : `SMS not sent: no value for ${rendered.missing.join(', ')}`;
    return runAsOrganization(deps.db, context.enrollment.organizationId, (tx) => recordStep(tx, context, index, { kind: 'blocked', summary, details: { reason: !context.candidate.phone ? 'no_phone' : 'missing_variables', missing: rendered.missing } }, now));
  }
  let next: Next | null = null;
  await sendSms(deps, {
    organizationId: context.enrollment.organizationId,
    candidateId: context.candidate.id,
    body: rendered.text,
    purpose: 'marketing',
    now,
    historyLabel: historyLabel(context, index),
    onStored: async (tx, message) => {
      const blocked = message.status === 'blocked';
      const reason = message.error;
      next = await recordStep(
        tx,
        context,
        index,
        {
          kind: blocked ? 'blocked' : 'sent',
          summary: blocked ? `SMS not sent (${(reason ?? '').replace(/_/g, ' ')})` : 'SMS sent',
          details: { smsMessageId: message.id, ...(blocked ? { reason } : {}) },
          referenceId: message.id,
          exit: reason === 'sms_opted_out' ? 'opted_out' : reason === 'do_not_contact' ? 'do_not_contact' : null,
        },
        now,
      );
    },
  });
  return next;
}

async function sendEmailStep(deps: SequenceDeps, context: Context, index: number, now: Date): Promise<Next | null> {
  const step = context.steps[index] as Extract<SequenceStep, { type: 'email' }>;
  const organizationId = context.enrollment.organizationId;
  const plan = await runAsOrganization(deps.db, organizationId, async (tx) => {
    const rendered = renderStep(step, context.candidate.preferredLanguage, await messageVariables(tx, context.sequence, context.candidate));
    const problem = !context.candidate.email ? 'no email address' : rendered.missing.length ? `no value for ${rendered.missing.join(', ')}` : null;
    if (problem) return { next: await recordStep(tx, context, index, { kind: 'blocked', summary: `Email not sent: ${problem}`, details: { reason: context.candidate.email ? 'missing_variables' : 'no_email' } }, now), mail: null };
    const next = await recordStep(tx, context, index, { kind: 'sent', summary: 'Email sent', details: {} }, now);
    await insertContactEvents(tx, [{ organizationId, candidateId: context.candidate.id, kind: 'email', summary: `Email sent: ${historyLabel(context, index)}`, details: { sequenceId: context.sequence.id, enrollmentId: context.enrollment.id, step: step.key }, referenceId: context.enrollment.id, actorUserId: null, actorLabel: SYSTEM.label }]);
    return { next, mail: { to: context.candidate.email!, subject: rendered.subject ?? '', text: rendered.text } };
  });
  if (plan.mail) {
    try {
      await deps.mail.send(plan.mail);
    } catch (error) {
      deps.logger.warn({ enrollmentId: context.enrollment.id, errorName: (error as Error).name }, 'sequence email failed');
      await runAsOrganization(deps.db, organizationId, (tx) => insertStepRuns(tx, [entry(context, index, 'failed', 'Email failed at the mail server')]));
    }
  }
  return plan.next;
}

async function sendCallStep(deps: SequenceDeps, context: Context, index: number, now: Date): Promise<Next | null> {
  const step = context.steps[index] as Extract<SequenceStep, { type: 'call' }>;
  const organizationId = context.enrollment.organizationId;
  const outcome = await runAsOrganization(deps.db, organizationId, async (tx): Promise<{ next: Next | null; plan: CallPlan | null }> => {
    const agent = await activeVoiceAgent(tx, organizationId, step.agentType);
    const reason = !agent || (agent.type === 'PRESCREEN' && !agent.prescreenFormId) ? 'no_agent' : callBlockReason(context.candidate, step.agentType, agent, now);
    if (reason === 'quiet_hours' && agent) {
      const movedTo = nextCallingTime(now, context.candidate.timeZone, agent);
      await insertStepRuns(tx, [entry(context, index, 'moved', `Moved to ${localLabel(movedTo, context.candidate.timeZone)} (calling hours)`, { movedTo: movedTo.toISOString(), reason })]);
      const jobId = randomUUID();
      await updateEnrollment(tx, context.enrollment.id, { nextRunAt: movedTo, jobId });
      return { next: { enrollmentId: context.enrollment.id, jobId, runAt: movedTo }, plan: null };
    }
    if (reason) {
      return { next: await recordStep(tx, context, index, { kind: 'blocked', summary: `Call not placed (${reason.replace(/_/g, ' ')})`, details: { reason }, exit: reason === 'do_not_contact' ? 'do_not_contact' : null }, now), plan: null };
    }
    const plan = await planCall(tx, { provider: deps.voice.provider, candidate: context.candidate, type: step.agentType, actor: SYSTEM, now, via: `Sequence "${context.sequence.name}"` });
    const next = await recordStep(tx, context, index, { kind: 'sent', summary: 'Call placed', details: { callId: plan.created.id }, referenceId: plan.created.id, lastCallId: plan.created.id }, now);
    return { next, plan };
  });
  if (outcome.plan) {
    try {
      await dialCall(deps, outcome.plan);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await runAsOrganization(deps.db, organizationId, (tx) => insertStepRuns(tx, [entry(context, index, 'failed', 'The voice provider did not place the call', { callId: outcome.plan!.created.id })]));
    }
  }
  return outcome.next;
}

/** Queues the jobs of enrollments whose next step was just decided (their job ids are already on their rows). */
export async function queueNext(deps: Pick<AppDeps, 'jobs'>, next: Array<Next | null>): Promise<void> {
  const jobs = next.filter((item): item is Next => item !== null).map((item) => ({ id: item.jobId, data: { enrollmentId: item.enrollmentId }, startAfter: item.runAt }));
  await deps.jobs.sendBatch(QUEUES.sequenceStep, jobs);
}

/** The sequence-step job: one step of one enrollment (see the top of this file). */
export async function runSequenceStep(deps: SequenceDeps, data: { enrollmentId: string }, jobId: string, now = new Date()): Promise<void> {
  const found = await findEnrollment(deps.db, data.enrollmentId);
  if (!found || found.status !== 'active' || found.jobId !== jobId) return;
  const organizationId = found.organizationId;
  try {
    const decision = await runAsOrganization(deps.db, organizationId, (tx) => decide(tx, found.id, jobId, now));
    if (decision.kind === 'done') return await queueNext(deps, [decision.next]);
    const { context, index } = decision;
    const type = context.steps[index].type;
    const next = type === 'sms' ? await sendSmsStep(deps, context, index, now) : type === 'email' ? await sendEmailStep(deps, context, index, now) : await sendCallStep(deps, context, index, now);
    await queueNext(deps, [next]);
  } catch (error) {
    // Another job or a person moved the enrollment on, or the step is already recorded: nothing to do.
    if (error instanceof StaleStep || (error as { code?: string }).code === '23505') return;
    throw error;
  }
}

/** The sequence-sweep job (and start-up): active enrollments without a live job get one. */
export async function sweepSequences(deps: Pick<AppDeps, 'db' | 'jobs'>, now = new Date()): Promise<void> {
  for (;;) {
    const waiting = await enrollmentsNeedingJobs(deps.db, now, LOST_JOB_GRACE_MS, 1000);
    if (!waiting.length) return;
    const claims = waiting.map((row) => ({ id: row.id, jobId: randomUUID(), runAt: row.nextRunAt }));
    const claimed = await claimJobs(deps.db, claims);
    await queueNext(
      deps,
      claims.filter((claim) => claimed.has(claim.id)).map((claim) => ({ enrollmentId: claim.id, jobId: claim.jobId, runAt: claim.runAt })),
    );
    if (waiting.length < 1000) return;
  }
}
