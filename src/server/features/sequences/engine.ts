import { randomUUID } from 'node:crypto';
import type { BranchCondition, ExitReason, SequenceStep } from '../../../contract/sequences';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { isUniqueViolation } from '../../db/postgres';
import { systemDb } from '../../db/system';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { QUEUES } from '../../jobs/jobs';
import { findCandidates, insertContactEvents, type CandidateRow, type NewContactEvent } from '../candidates/service';
import { nextCallingTime, withinContactHours } from '../../calling-hours';
import { callBlockReason, dialCall, planCall, type CallPlan } from '../calls/service';
import { sendSmsBatch, type SmsBatchOutcome } from '../sms/service';
import { activeVoiceAgent } from '../voice-agents/service';
import { branchFacts, messageVariables, type BranchFacts } from './facts';
import { renderStep } from './messages';
import {
  applyEnrollmentStates,
  claimJobs,
  enrollmentsNeedingJobs,
  takeEnrollments,
  findSequence,
  findVersion,
  insertStepRuns,
  lockEnrollments,
  type EnrollmentRow,
  type NewStepRunRow,
  type SequenceRow,
} from './queries';
import { localLabel, nextContactTime, waitEnd } from './schedule';
import { LEASE_SECONDS, runOwnerOf } from '../processing-runs/runner';
import { endEnrollments, EXITING_STATUSES } from './exits';

/**
 * The sequence engine (decision 026). Each active enrollment has one pg-boss job for its next step
 * (`sequence-step`, { enrollmentId }), whose id is kept on the enrollment: a job that finds another id there is
 * stale and does nothing. Jobs come in batches (thousands can fall due the same minute); per organization:
 * 1. (decide) under the organization's row security, lock the enrollments, apply the exits (do-not-contact,
 *    status enrolled / screen-failed...), walk through waits and branches that can be decided now, and stop
 *    at the next SMS, email or call. Outside 08:00-21:00 in the candidate's zone the step is moved to the next
 *    allowed time ("moved" in the timeline);
 * 2. (send) record each step with its idempotency key (enrollment id : steps taken, unique) IN THE SAME
 *    TRANSACTION that stores the messages or the call, then hand them to the provider after the commit. A job
 *    retried after a crash finds the key (or a changed enrollment) and sends nothing: a step is sent at most
 *    once, and a crash after the commit leaves a stored message that was never handed over rather than two.
 *    When anything in a batch is stale, the batch is rolled back and its jobs are run one by one;
 * 3. queue the jobs of the next steps.
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

type WalkResult = { entries: NewStepRunRow[]; end: true } | { entries: NewStepRunRow[]; end: false; index: number; runAt: Date };

export interface Next {
  enrollmentId: string;
  jobId: string;
  runAt: Date;
}

/** An enrollment's new state after a step, its timeline entries, and the job to queue. */
interface Settlement {
  /** The sequence's name, for the contact history. */
  sequenceName: string;
  enrollment: EnrollmentRow;
  entries: NewStepRunRow[];
  events: NewContactEvent[];
  next: Next | null;
}

export const stepTitle = (step: SequenceStep, index: number) => `step ${index + 1} (${step.type === 'sms' ? 'SMS' : step.type})`;

function entry(
  context: Context,
  index: number | null,
  kind: NewStepRunRow['kind'],
  summary: string,
  details: Record<string, unknown> = {},
  extra: Partial<NewStepRunRow> = {},
): NewStepRunRow {
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
    if (at.getTime() > now.getTime()) return { entries, end: false, index, runAt: at };
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
      if (callPending && now.getTime() - waitedSince.getTime() < CALL_WAIT_LIMIT_MS)
        return { entries, end: false, index, runAt: new Date(now.getTime() + CALL_RECHECK_MS) };
      const holds = branchHolds(step.condition, callPending ? { ...facts, callOutcome: 'no_answer' } : facts);
      const target = holds ? step.ifTrue : step.ifFalse;
      entries.push(
        entry(
          context,
          index,
          'branched',
          `${step.condition.replace(/_/g, ' ')}: ${holds ? 'yes' : 'no'}, ${target === 'next' ? 'next step' : target === 'end' ? 'end of sequence' : `to ${target}`}`,
          { condition: step.condition, holds, target },
        ),
      );
      if (target === 'end') return { entries, end: true };
      index = target === 'next' ? index + 1 : context.steps.findIndex((candidate) => candidate.key === target);
      if (index < 0) return { entries, end: true };
      continue;
    }
    return { entries, end: false, index, runAt: at };
  }
  return { entries, end: true };
}

/** What a walk's outcome does to the enrollment (nothing written yet: applySettlements writes many at once). */
function settlement(context: Context, result: WalkResult, now: Date, changes: Partial<EnrollmentRow> = {}): Settlement {
  const current = { ...context.enrollment, ...changes, updatedAt: now };
  if (result.end) {
    return {
      sequenceName: context.sequence.name,
      enrollment: { ...current, status: 'completed', stepIndex: null, nextRunAt: null, jobId: null, endedAt: now },
      entries: [...result.entries, entry(context, null, 'completed', 'Sequence completed')],
      events: [
        {
          organizationId: current.organizationId,
          candidateId: current.candidateId,
          kind: 'sequence',
          summary: `Sequence completed: ${context.sequence.name}`,
          details: { sequenceId: context.sequence.id, enrollmentId: current.id },
          referenceId: current.id,
          actorUserId: null,
          actorLabel: SYSTEM.label,
        },
      ],
      next: null,
    };
  }
  const jobId = randomUUID();
  const stepChanged = result.index !== context.enrollment.stepIndex || changes.stepsTaken !== undefined;
  return {
    sequenceName: context.sequence.name,
    enrollment: { ...current, stepIndex: result.index, nextRunAt: result.runAt, jobId, stepStartedAt: stepChanged ? now : current.stepStartedAt },
    entries: result.entries,
    events: [],
    next: { enrollmentId: current.id, jobId, runAt: result.runAt },
  };
}

/** Writes settlements: enrollment states, timeline entries and contact events, a statement each. */
async function applySettlements(tx: Transaction, settlements: Settlement[]): Promise<Array<Next | null>> {
  // An enrollment settled twice in one batch (moved to its step, then recorded there): the last state wins.
  await applyEnrollmentStates(tx, [...new Map(settlements.map((item) => [item.enrollment.id, item.enrollment])).values()]);
  await insertStepRuns(
    tx,
    settlements.flatMap((item) => item.entries),
  );
  await insertContactEvents(
    tx,
    settlements.flatMap((item) => [...item.entries.filter(inContactHistory).map((step) => historyEvent(item, step)), ...item.events]),
  );
  return settlements.map((item) => item.next);
}

/**
 * Timeline entries the contact history shows as well: waits, branches, moves and refusals. Messages, calls and
 * emails sent write their own channel's event (and an SMS refused by consent writes "SMS not sent").
 */
function inContactHistory(step: NewStepRunRow): boolean {
  if (step.kind === 'waited' || step.kind === 'branched' || step.kind === 'moved' || step.kind === 'failed') return true;
  return step.kind === 'blocked' && !(step.stepType === 'sms' && step.referenceId);
}

function historyEvent(settled: Settlement, step: NewStepRunRow): NewContactEvent {
  return {
    organizationId: settled.enrollment.organizationId,
    candidateId: settled.enrollment.candidateId,
    kind: 'sequence',
    summary: `${settled.sequenceName}, step ${(step.stepIndex ?? 0) + 1}: ${step.summary}`,
    details: { sequenceId: settled.enrollment.sequenceId, enrollmentId: settled.enrollment.id, kind: step.kind, step: step.stepKey },
    referenceId: settled.enrollment.id,
    actorUserId: null,
    actorLabel: SYSTEM.label,
  };
}

/** Why this candidate must leave every sequence now, if they must. */
function exitReasonOf(candidate: CandidateRow): ExitReason | null {
  if (candidate.doNotContact) return 'do_not_contact';
  return EXITING_STATUSES[candidate.status] ?? null;
}

/** Sequences, versions and message variables, read once per batch. */
class BatchCache {
  private sequences = new Map<string, Promise<SequenceRow | undefined>>();
  private versions = new Map<string, Promise<SequenceStep[] | undefined>>();
  private variables = new Map<string, Promise<Record<string, string | null>>>();
  constructor(private tx: Transaction) {}
  sequence(id: string) {
    if (!this.sequences.has(id)) this.sequences.set(id, findSequence(this.tx, id));
    return this.sequences.get(id)!;
  }
  steps(id: string, version: number) {
    const key = `${id}:${version}`;
    if (!this.versions.has(key))
      this.versions.set(
        key,
        findVersion(this.tx, id, version).then((row) => row?.steps),
      );
    return this.versions.get(key)!;
  }
  /** The sequence's own values ({organizationName}, {trialTitle}, {siteAddress}); names are added per person. */
  sequenceVariables(sequence: SequenceRow) {
    if (!this.variables.has(sequence.id)) this.variables.set(sequence.id, messageVariables(this.tx, sequence, null));
    return this.variables.get(sequence.id)!;
  }
}

interface SmsSend {
  context: Context;
  index: number;
  text: string;
}

interface Plan {
  settlements: Settlement[];
  exits: Array<{ enrollment: EnrollmentRow; reason: ExitReason }>;
  sms: SmsSend[];
  /** Email and call steps: sent one by one after the commit. */
  singles: Array<{ context: Context; index: number }>;
}

/** Step 1 for a batch of one organization's jobs, in one transaction. */
async function decide(tx: Transaction, jobs: Array<{ enrollmentId: string; jobId: string }>, now: Date): Promise<Plan> {
  const plan: Plan = { settlements: [], exits: [], sms: [], singles: [] };
  const jobOf = new Map(jobs.map((job) => [job.enrollmentId, job.jobId]));
  const enrollments = (
    await lockEnrollments(
      tx,
      jobs.map((job) => job.enrollmentId),
    )
  ).filter((row) => row.status === 'active' && row.jobId === jobOf.get(row.id) && row.stepIndex !== null);
  const people = new Map(
    (
      await findCandidates(
        tx,
        enrollments.map((row) => row.candidateId),
        true,
      )
    ).map((row) => [row.id, row]),
  );
  const cache = new BatchCache(tx);
  for (const enrollment of enrollments) {
    if (enrollment.nextRunAt && enrollment.nextRunAt.getTime() > now.getTime() + EARLY_TOLERANCE_MS) {
      const jobId = randomUUID();
      plan.settlements.push({
        sequenceName: '',
        enrollment: { ...enrollment, jobId },
        entries: [],
        events: [],
        next: { enrollmentId: enrollment.id, jobId, runAt: enrollment.nextRunAt },
      });
      continue;
    }
    const [sequence, steps, candidate] = [
      await cache.sequence(enrollment.sequenceId),
      await cache.steps(enrollment.sequenceId, enrollment.version),
      people.get(enrollment.candidateId),
    ];
    if (!sequence || !steps || !candidate) continue;
    const context: Context = { enrollment, sequence, steps, candidate };
    const exit = exitReasonOf(candidate);
    if (exit) {
      plan.exits.push({ enrollment, reason: exit });
      continue;
    }
    const result = await walk(tx, context, enrollment.stepIndex!, now);
    if (result.end || result.runAt.getTime() > now.getTime() + 1000) {
      plan.settlements.push(settlement(context, result, now));
      continue;
    }
    const step = steps[result.index];
    // Messages and emails keep to 08:00-21:00 local (calls also to their agent's hours: see sendCallStep).
    if (step.type !== 'call' && !withinContactHours(now, candidate.timeZone)) {
      const movedTo = nextContactTime(now, candidate.timeZone);
      const moved = entry(context, result.index, 'moved', `Moved to ${localLabel(movedTo, candidate.timeZone)} (quiet hours)`, {
        movedTo: movedTo.toISOString(),
        reason: 'quiet_hours',
      });
      plan.settlements.push(settlement(context, { ...result, entries: [...result.entries, moved], runAt: movedTo }, now));
      continue;
    }
    // The step to send is now the enrollment's current step (with what the walk passed on the way).
    const atStep = { ...enrollment, stepIndex: result.index, stepStartedAt: result.index !== enrollment.stepIndex ? now : enrollment.stepStartedAt };
    if (result.entries.length || result.index !== enrollment.stepIndex)
      plan.settlements.push({ sequenceName: sequence.name, enrollment: atStep, entries: result.entries, events: [], next: null });
    const ready = { ...context, enrollment: atStep };
    if (step.type === 'sms') {
      const rendered = renderStep(step, candidate.preferredLanguage, {
        ...(await cache.sequenceVariables(sequence)),
        firstName: candidate.firstName,
        lastName: candidate.lastName || null,
      });
      if (rendered.missing.length) {
        plan.settlements.push(
          await recordStepIn(
            tx,
            ready,
            result.index,
            {
              kind: 'blocked',
              summary: `SMS not sent: no value for ${rendered.missing.join(', ')}`,
              details: { reason: 'missing_variables', missing: rendered.missing },
            },
            now,
            true,
          ),
        );
        continue;
      }
      plan.sms.push({ context: ready, index: result.index, text: rendered.text });
    } else {
      plan.singles.push({ context: ready, index: result.index });
    }
  }
  for (const reason of new Set(plan.exits.map((item) => item.reason))) {
    await endEnrollments(
      tx,
      plan.exits.filter((item) => item.reason === reason).map((item) => item.enrollment),
      reason,
      now,
    );
  }
  return plan;
}

interface StepRecord {
  kind: 'sent' | 'blocked' | 'failed';
  summary: string;
  details?: Record<string, unknown>;
  referenceId?: string | null;
  exit?: ExitReason | null;
  lastCallId?: string;
}

/**
 * A step's record under its idempotency key, and where the enrollment goes next (a settlement to apply). The
 * enrollment must still be where the step was decided (else StaleStep rolls the batch back).
 */
async function recordStepIn(
  tx: Transaction,
  context: Context,
  index: number,
  record: StepRecord,
  now: Date,
  locked = false,
  current = context.enrollment,
): Promise<Settlement> {
  if (!locked) {
    const [fresh] = await lockEnrollments(tx, [context.enrollment.id]);
    if (fresh?.status !== 'active' || fresh.stepIndex !== index || fresh.stepsTaken !== context.enrollment.stepsTaken) throw new StaleStep();
    current = fresh;
  }
  const step = entry(context, index, record.kind, record.summary, record.details ?? {}, {
    referenceId: record.referenceId ?? null,
    idempotencyKey: `${current.id}:${current.stepsTaken}`,
  });
  const taken = { stepsTaken: current.stepsTaken + 1, ...(record.lastCallId ? { lastCallId: record.lastCallId } : {}) };
  if (record.exit) {
    await endEnrollments(tx, [current], record.exit, now);
    return {
      sequenceName: context.sequence.name,
      enrollment: { ...current, ...taken, status: 'exited', exitReason: record.exit, stepIndex: null, nextRunAt: null, jobId: null, endedAt: now },
      entries: [step],
      events: [],
      next: null,
    };
  }
  const fresh = { ...context, enrollment: { ...current, ...taken } };
  const result = await walk(tx, fresh, index + 1, now);
  const settled = settlement({ ...fresh, enrollment: current }, result, now, taken);
  return { ...settled, entries: [step, ...settled.entries] };
}

const historyLabel = (context: Context, index: number) => `${context.sequence.name}, ${stepTitle(context.steps[index], index)}`;

/** SMS steps of one organization, sent as one burst (sendSmsBatch), each recorded with the message that carries it. */
async function sendSmsSteps(deps: SequenceDeps, organizationId: string, sends: SmsSend[], now: Date): Promise<Array<Next | null>> {
  let nexts: Array<Next | null> = [];
  let locked = new Map<string, Awaited<ReturnType<typeof lockEnrollments>>[number]>();
  const byCandidate = new Map(sends.map((send) => [send.context.candidate.id, send]));
  await sendSmsBatch(deps, {
    organizationId,
    purpose: 'marketing',
    now,
    items: sends.map((send) => ({ candidateId: send.context.candidate.id, body: send.text, historyLabel: historyLabel(send.context, send.index) })),
    // The enrollments before the candidates, the order `decide` takes them in: two deliveries of one job
    // racing (pg-boss delivers at least once) then wait for each other instead of deadlocking.
    lockFirst: async (tx) => {
      locked = new Map(
        (
          await lockEnrollments(
            tx,
            sends.map((send) => send.context.enrollment.id),
          )
        ).map((row) => [row.id, row]),
      );
    },
    onStored: async (tx, outcomes: SmsBatchOutcome[]) => {
      const settlements: Settlement[] = [];
      for (const outcome of outcomes) {
        const send = byCandidate.get(outcome.candidateId)!;
        const current = locked.get(send.context.enrollment.id);
        if (current?.status !== 'active' || current.stepIndex !== send.index || current.stepsTaken !== send.context.enrollment.stepsTaken)
          throw new StaleStep();
        const reason = outcome.blocked;
        const record: StepRecord = reason
          ? {
              kind: 'blocked',
              summary: reason === 'no_phone' ? 'SMS not sent: no phone number' : `SMS not sent (${reason.replace(/_/g, ' ')})`,
              details: { reason, ...(outcome.message ? { smsMessageId: outcome.message.id } : {}) },
              referenceId: outcome.message?.id ?? null,
              exit: reason === 'sms_opted_out' ? 'opted_out' : reason === 'do_not_contact' ? 'do_not_contact' : null,
            }
          : { kind: 'sent', summary: 'SMS sent', details: { smsMessageId: outcome.message!.id }, referenceId: outcome.message!.id };
        settlements.push(await recordStepIn(tx, send.context, send.index, record, now, true, current));
      }
      nexts = await applySettlements(tx, settlements);
    },
  });
  return nexts;
}

async function sendEmailStep(deps: SequenceDeps, context: Context, index: number, now: Date): Promise<Next | null> {
  const step = context.steps[index] as Extract<SequenceStep, { type: 'email' }>;
  const organizationId = context.enrollment.organizationId;
  const plan = await runAsOrganization(deps.db, organizationId, async (tx) => {
    const rendered = renderStep(step, context.candidate.preferredLanguage, await messageVariables(tx, context.sequence, context.candidate));
    const problem = !context.candidate.email ? 'no email address' : rendered.missing.length ? `no value for ${rendered.missing.join(', ')}` : null;
    const record: StepRecord = problem
      ? { kind: 'blocked', summary: `Email not sent: ${problem}`, details: { reason: context.candidate.email ? 'missing_variables' : 'no_email' } }
      : { kind: 'sent', summary: 'Email sent' };
    const [next] = await applySettlements(tx, [await recordStepIn(tx, context, index, record, now)]);
    if (problem) return { next, mail: null };
    await insertContactEvents(tx, [
      {
        organizationId,
        candidateId: context.candidate.id,
        kind: 'email',
        summary: `Email sent: ${historyLabel(context, index)}`,
        details: { sequenceId: context.sequence.id, enrollmentId: context.enrollment.id, step: step.key },
        referenceId: context.enrollment.id,
        actorUserId: null,
        actorLabel: SYSTEM.label,
      },
    ]);
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
    const agent = await activeVoiceAgent(tx, organizationId, step.agentType, { candidateId: context.candidate.id });
    const reason =
      !agent || (agent.type === 'PRESCREEN' && !agent.prescreenFormId) ? 'no_agent' : callBlockReason(context.candidate, step.agentType, agent, now);
    if (reason === 'quiet_hours' && agent) {
      const movedTo = nextCallingTime(now, context.candidate.timeZone, agent);
      const moved = entry(context, index, 'moved', `Moved to ${localLabel(movedTo, context.candidate.timeZone)} (calling hours)`, {
        movedTo: movedTo.toISOString(),
        reason,
      });
      const [next] = await applySettlements(tx, [settlement(context, { entries: [moved], end: false, index, runAt: movedTo }, now)]);
      return { next, plan: null };
    }
    if (reason) {
      const [next] = await applySettlements(tx, [
        await recordStepIn(
          tx,
          context,
          index,
          {
            kind: 'blocked',
            summary: `Call not placed (${reason.replace(/_/g, ' ')})`,
            details: { reason },
            exit: reason === 'do_not_contact' ? 'do_not_contact' : null,
          },
          now,
        ),
      ]);
      return { next, plan: null };
    }
    const plan = await planCall(tx, {
      provider: deps.voice.provider,
      candidate: context.candidate,
      type: step.agentType,
      actor: SYSTEM,
      now,
      via: `Sequence "${context.sequence.name}"`,
    });
    const [next] = await applySettlements(tx, [
      await recordStepIn(
        tx,
        context,
        index,
        { kind: 'sent', summary: 'Call placed', details: { callId: plan.created.id }, referenceId: plan.created.id, lastCallId: plan.created.id },
        now,
      ),
    ]);
    return { next, plan };
  });
  if (outcome.plan) {
    try {
      await dialCall(deps, outcome.plan);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await runAsOrganization(deps.db, organizationId, (tx) =>
        insertStepRuns(tx, [entry(context, index, 'failed', 'The voice provider did not place the call', { callId: outcome.plan!.created.id })]),
      );
    }
  }
  return outcome.next;
}

/** Queues the jobs of enrollments whose next step was just decided (their job ids are already on their rows). */
export async function queueNext(deps: Pick<AppDeps, 'jobs'>, next: Array<Next | null>): Promise<void> {
  const jobs = next
    .filter((item): item is Next => item !== null)
    .map((item) => ({ id: item.jobId, data: { enrollmentId: item.enrollmentId }, startAfter: item.runAt }));
  await deps.jobs.sendBatch(QUEUES.sequenceStep, jobs);
}

const isStale = (error: unknown) => error instanceof StaleStep || isUniqueViolation(error);

/** One organization's jobs: decide, send, queue. */
async function runOrganizationSteps(
  deps: SequenceDeps,
  organizationId: string,
  jobs: Array<{ enrollmentId: string; jobId: string }>,
  now: Date,
): Promise<void> {
  const plan = await runAsOrganization(deps.db, organizationId, async (tx) => {
    const decided = await decide(tx, jobs, now);
    const nexts = await applySettlements(tx, decided.settlements);
    return { ...decided, nexts };
  });
  const nexts = [...plan.nexts];
  if (plan.sms.length) nexts.push(...(await sendSmsSteps(deps, organizationId, plan.sms, now)));
  for (const single of plan.singles) {
    const type = single.context.steps[single.index].type;
    nexts.push(type === 'email' ? await sendEmailStep(deps, single.context, single.index, now) : await sendCallStep(deps, single.context, single.index, now));
  }
  await queueNext(deps, nexts);
}

/**
 * The sequence-step jobs of a fetched batch (see the top of this file). A batch that meets a stale enrollment
 * or an existing idempotency key is rolled back and its jobs are run one at a time, where the stale one does
 * nothing.
 */
export async function runSequenceSteps(deps: SequenceDeps, jobs: Array<{ enrollmentId: string; jobId: string }>, now = new Date()): Promise<void> {
  const found = await takeEnrollments(systemDb(deps.db), jobs, runOwnerOf(deps));
  const jobOf = new Map(jobs.map((job) => [job.enrollmentId, job.jobId]));
  const byOrganization = new Map<string, Array<{ enrollmentId: string; jobId: string }>>();
  for (const row of found) {
    if (row.status !== 'active' || row.jobId !== jobOf.get(row.id)) continue;
    byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), { enrollmentId: row.id, jobId: row.jobId! }]);
  }
  for (const [organizationId, group] of byOrganization) {
    try {
      await runOrganizationSteps(deps, organizationId, group, now);
    } catch (error) {
      if (!isStale(error)) throw error;
      if (group.length === 1) continue;
      for (const job of group) {
        try {
          await runOrganizationSteps(deps, organizationId, [job], now);
        } catch (single) {
          if (!isStale(single)) throw single;
        }
      }
    }
  }
}

/** One enrollment's job (tests and retries): a batch of one. */
export function runSequenceStep(deps: SequenceDeps, data: { enrollmentId: string }, jobId: string, now = new Date()): Promise<void> {
  return runSequenceSteps(deps, [{ enrollmentId: data.enrollmentId, jobId }], now);
}

/** The sequence-sweep job (and start-up): active enrollments without a live job get one. */
export async function sweepSequences(deps: Pick<AppDeps, 'db' | 'jobs'>, now = new Date()): Promise<void> {
  for (;;) {
    const waiting = await enrollmentsNeedingJobs(systemDb(deps.db), now, LOST_JOB_GRACE_MS, 1000, LEASE_SECONDS);
    if (!waiting.length) return;
    const claims = waiting.map((row) => ({ id: row.id, jobId: randomUUID(), runAt: row.nextRunAt }));
    const claimed = await claimJobs(systemDb(deps.db), claims);
    await queueNext(
      deps,
      claims.filter((claim) => claimed.has(claim.id)).map((claim) => ({ enrollmentId: claim.id, jobId: claim.jobId, runAt: claim.runAt })),
    );
    if (waiting.length < 1000) return;
  }
}
