import { randomUUID } from 'node:crypto';
import type { z } from '@hono/zod-openapi';
import {
  type CreateSequenceInput,
  type Enrollment,
  type EnrollInput,
  type EnrollResult,
  type ListEnrollmentsQuerySchema,
  type ListSequencesQuerySchema,
  type PreviewResult,
  type PreviewSchema,
  type Sequence,
  type SequenceStatistics,
  type SequenceStep,
  type StepStatistics,
  type TimelineEntry,
  type UpdateSequenceInput,
  ENROLLMENT_STATUSES,
  SEQUENCE_ENROLL_IN_REQUEST,
} from '../../../contract/sequences';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { AppDeps } from '../../http/context';
import type { Transaction } from '../../db/scoped';
import { badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { findCandidate, findCandidates, findCandidatesMatching, findTrialInOrganization, userName, targetOrganization } from '../candidates/service';
import { zoneOrDefault } from '../../calling-hours';
import { queueNext, type SequenceDeps } from './engine';
import { enrollPeople, type Refusal } from './enroll';
import { endEnrollments } from './exits';
import { messageVariables } from './facts';
import { renderStep } from './messages';
import {
  enrollmentCounts,
  enrollmentsOfCandidate,
  findEnrollment,
  findSequence,
  findVersion,
  insertSequence,
  insertStepRuns,
  insertVersion,
  listEnrollmentRows,
  listSequenceRows,
  liveEnrollmentsOf,
  liveEnrollmentsOfSequence,
  stepOutcomeCounts,
  stepRunCounts,
  timelineOf,
  trialTitles,
  updateEnrollment,
  updateSequenceRow,
  updateVersionSteps,
  versionInUse,
  type EnrollmentListRow,
  type EnrollmentRow,
  type SequenceRow,
  type StepRunRow,
} from './queries';
import { isUuid } from '../../../contract/ids';
import { insertCandidateItems } from '../processing-runs/service';
import { sequenceEnrollmentRuns, type EnrollmentRunOptions } from './enroll-run';

/** Staff-facing sequences: CRUD with versions, enrollment, timelines and statistics (decision 026). */

type Deps = Pick<SequenceDeps, 'db' | 'jobs'>;

/** Refusals listed in full in an enroll answer; the rest are counted. */
const REFUSALS_SHOWN = 100;

function toSequence(
  row: SequenceRow,
  steps: SequenceStep[],
  titles: Map<string, string>,
  counts?: { live: number; total: number; converted: number },
): Sequence {
  return {
    id: row.id,
    organizationId: row.organizationId,
    trialId: row.trialId,
    trialTitle: row.trialId ? (titles.get(row.trialId) ?? null) : null,
    name: row.name,
    description: row.description,
    status: row.status,
    triggers: row.triggers,
    exitOnReply: row.exitOnReply,
    currentVersion: row.currentVersion,
    steps,
    activeEnrollments: counts?.live ?? 0,
    totalEnrollments: counts?.total ?? 0,
    conversion: counts && counts.total > 0 ? counts.converted / counts.total : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toEnrollment(row: EnrollmentListRow, steps: SequenceStep[] | undefined): Enrollment {
  const step = row.stepIndex !== null && steps ? steps[row.stepIndex] : undefined;
  return {
    id: row.id,
    organizationId: row.organizationId,
    sequenceId: row.sequenceId,
    sequenceVersion: row.version,
    candidateId: row.candidateId,
    candidateName: `${row.firstName} ${row.lastName}`.trim(),
    timeZone: zoneOrDefault(row.timeZone),
    status: row.status,
    exitReason: row.exitReason,
    source: row.source,
    currentStep: row.stepIndex,
    currentStepKey: step?.key ?? null,
    currentStepType: step?.type ?? null,
    nextRunAt: row.status === 'active' && row.nextRunAt ? row.nextRunAt.toISOString() : null,
    enrolledAt: row.enrolledAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

function toTimelineEntry(row: StepRunRow): TimelineEntry {
  return {
    id: row.id,
    kind: row.kind,
    stepIndex: row.stepIndex,
    stepKey: row.stepKey,
    stepType: row.stepType,
    summary: row.summary,
    details: row.details,
    at: row.createdAt.toISOString(),
  };
}

async function loadSequence(tx: Transaction, scope: RequestScope, id: string, forUpdate = false): Promise<SequenceRow> {
  const row = isUuid(id) ? await findSequence(tx, id, forUpdate) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Sequence not found');
  return row;
}

async function stepsOf(tx: Transaction, row: SequenceRow, version = row.currentVersion): Promise<SequenceStep[]> {
  return (await findVersion(tx, row.id, version))?.steps ?? [];
}

async function present(tx: Transaction, row: SequenceRow): Promise<Sequence> {
  const [titles, counts] = [await trialTitles(tx, row.trialId ? [row.trialId] : []), await enrollmentCounts(tx, [row.id])];
  return toSequence(row, await stepsOf(tx, row), titles, counts.get(row.id));
}

async function checkTrial(tx: Transaction, trialId: string | null | undefined, organizationId: string): Promise<void> {
  if (trialId && !(await findTrialInOrganization(tx, trialId, organizationId)))
    throw badRequest('trialId: No such trial in the organization', [{ path: 'trialId', message: 'No such trial in the organization' }]);
}

const actorOf = async (tx: Transaction, scope: RequestScope) => ({ userId: scope.userId, label: (await userName(tx, scope.userId)) ?? 'Staff' });

// ---- sequences ----

export async function listSequences(db: Database, scope: RequestScope, query: z.infer<typeof ListSequencesQuerySchema>) {
  const organizationIds = selectOrganizations(scope, query.organizationId, query.organizationIds);
  return runScoped(db, scope, async (tx) => {
    const rows = await listSequenceRows(tx, {
      organizationIds,
      trialId: query.trialId,
      status: query.status === 'all' ? undefined : (query.status ?? undefined),
    });
    const titles = await trialTitles(tx, [...new Set(rows.map((row) => row.trialId).filter((id): id is string => Boolean(id)))]);
    const counts = await enrollmentCounts(
      tx,
      rows.map((row) => row.id),
    );
    const sequences: Sequence[] = [];
    for (const row of rows) sequences.push(toSequence(row, await stepsOf(tx, row), titles, counts.get(row.id)));
    return { sequences, total: sequences.length };
  });
}

export async function createSequence(db: Database, scope: RequestScope, input: CreateSequenceInput): Promise<Sequence> {
  const organizationId = targetOrganization(scope, input.organizationId);
  return runScoped(db, scope, async (tx) => {
    await checkTrial(tx, input.trialId, organizationId);
    const row = await insertSequence(tx, {
      organizationId,
      trialId: input.trialId ?? null,
      name: input.name,
      description: input.description ?? null,
      triggers: input.triggers,
      exitOnReply: input.exitOnReply,
      createdByUserId: scope.userId,
    });
    await insertVersion(tx, { organizationId, sequenceId: row.id, version: 1, steps: input.steps, createdByUserId: scope.userId });
    await recordAudit(tx, {
      organizationId,
      actorUserId: scope.userId,
      action: 'sequence.create',
      entityType: 'sequence',
      entityId: row.id,
      changes: { steps: input.steps.length, triggers: input.triggers, trialId: input.trialId ?? null },
    });
    return present(tx, row);
  });
}

export async function getSequence(db: Database, scope: RequestScope, id: string): Promise<Sequence> {
  return runScoped(db, scope, async (tx) => present(tx, await loadSequence(tx, scope, id)));
}

/**
 * Saves changes. New steps on a version someone was ever enrolled on make a new version (they finish on
 * theirs); otherwise the current version is edited in place. Archiving ends every live enrollment.
 */
export async function updateSequence(
  db: Database,
  scope: RequestScope,
  id: string,
  input: UpdateSequenceInput,
  now = new Date(),
): Promise<{ sequence: Sequence; newVersion: boolean }> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, id, true);
    if (input.trialId !== undefined) await checkTrial(tx, input.trialId, row.organizationId);
    let newVersion = false;
    let currentVersion = row.currentVersion;
    if (input.steps) {
      const current = await findVersion(tx, row.id, row.currentVersion);
      const changed = JSON.stringify(current?.steps ?? []) !== JSON.stringify(input.steps);
      if (changed && (await versionInUse(tx, row.id, row.currentVersion))) {
        currentVersion += 1;
        newVersion = true;
        await insertVersion(tx, {
          organizationId: row.organizationId,
          sequenceId: row.id,
          version: currentVersion,
          steps: input.steps,
          createdByUserId: scope.userId,
        });
      } else if (changed && current) {
        await updateVersionSteps(tx, current.id, input.steps);
      }
    }
    const updated = await updateSequenceRow(tx, row.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.trialId !== undefined ? { trialId: input.trialId } : {}),
      ...(input.triggers !== undefined ? { triggers: input.triggers } : {}),
      ...(input.exitOnReply !== undefined ? { exitOnReply: input.exitOnReply } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      currentVersion,
    });
    if (input.status === 'archived' && row.status !== 'archived')
      await endEnrollments(tx, await liveEnrollmentsOfSequence(tx, row.id), 'sequence_archived', now, await actorOf(tx, scope));
    await recordAudit(
      tx,
      rowChange(scope.userId, row, 'sequence.update', 'sequence', { fields: Object.keys(input), ...(newVersion ? { version: currentVersion } : {}) }),
    );
    return { sequence: await present(tx, updated), newVersion };
  });
}

export async function archiveSequence(db: Database, scope: RequestScope, id: string): Promise<Sequence> {
  return (await updateSequence(db, scope, id, { status: 'archived' })).sequence;
}

// ---- enrollment ----

/** A filter's people as a `sequence_enrollment` run (enroll-run.ts), created and started in the request's transaction. */
async function startEnrollmentRun(tx: Transaction, scope: RequestScope, row: SequenceRow, people: { id: string }[], startAt: string | undefined) {
  const actor = await actorOf(tx, scope);
  const options: EnrollmentRunOptions = { sequenceId: row.id, actorLabel: actor.label, startAt: startAt ?? null };
  const { run } = await sequenceEnrollmentRuns.create(tx, {
    organizationId: row.organizationId,
    createdByUserId: scope.userId,
    label: `Enroll in ${row.name}`,
    options: { ...options },
    addItems: (runId) => insertCandidateItems(tx, { organizationId: row.organizationId, runId, candidateIds: people.map((person) => person.id) }),
    audit: (items) => ({ sequenceId: row.id, candidates: items }),
  });
  const label = `Enroll in ${row.name} (${people.length.toLocaleString('en-US')} candidates)`;
  const started = await sequenceEnrollmentRuns.begin(tx, run.id, { label, total: people.length });
  return { id: started.id, total: people.length, organizationId: row.organizationId };
}

/** How many people one request enrolls at once (tests lower it); a larger filter becomes a processing run. */
export const enrollTuning = { inRequest: SEQUENCE_ENROLL_IN_REQUEST };

export async function enroll(deps: AppDeps, scope: RequestScope, sequenceId: string, input: EnrollInput, now = new Date()): Promise<EnrollResult> {
  const outcome = await runScoped(
    deps.db,
    scope,
    async (tx): Promise<Awaited<ReturnType<typeof enrollPeople>> | { run: { id: string; total: number; organizationId: string } }> => {
      const row = await loadSequence(tx, scope, sequenceId);
      if (row.status !== 'active') throw conflict('This sequence is archived: turn it on again before enrolling anyone');
      let people;
      if (input.candidateIds) {
        const unique = [...new Set(input.candidateIds)];
        people = (await findCandidates(tx, unique, true)).filter((person) => person.organizationId === row.organizationId);
        if (people.length !== unique.length)
          throw notFound(`Candidate not found: ${unique.length - people.length} of the ids are not candidates of the sequence's organization`);
      } else {
        people = await findCandidatesMatching(tx, {
          organizationIds: [row.organizationId],
          search: input.filter?.search,
          statuses: input.filter?.status ? [input.filter.status] : undefined,
          trialId: input.filter?.trialId,
        });
        if (people.length > 50_000) throw badRequest('filter: More than 50,000 candidates match; narrow the filter');
        if (people.length > enrollTuning.inRequest) return { run: await startEnrollmentRun(tx, scope, row, people, input.startAt) };
      }
      const source = input.source ?? (input.filter ? 'filter' : 'manual');
      const result = await enrollPeople(tx, {
        sequence: row,
        steps: await stepsOf(tx, row),
        people,
        source,
        actor: await actorOf(tx, scope),
        now,
        startAt: input.startAt ? new Date(input.startAt) : undefined,
        withJobs: true,
      });
      return result;
    },
  );
  if ('run' in outcome) {
    await sequenceEnrollmentRuns.trigger(deps, outcome.run.id, outcome.run.organizationId);
    return { enrolled: 0, alreadyEnrolled: 0, refused: [], refusedCount: 0, run: { id: outcome.run.id, total: outcome.run.total } };
  }
  await queueNext(
    deps,
    outcome.created.map((row) => ({ enrollmentId: row.id, jobId: row.jobId!, runAt: row.nextRunAt! })),
  );
  const refused: Refusal[] = outcome.refused;
  return {
    enrolled: outcome.created.length,
    alreadyEnrolled: outcome.alreadyEnrolled,
    refused: refused.slice(0, REFUSALS_SHOWN),
    refusedCount: refused.length,
  };
}

export async function unenroll(db: Database, scope: RequestScope, sequenceId: string, candidateIds: string[], now = new Date()): Promise<{ stopped: number }> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, sequenceId);
    const live = await liveEnrollmentsOf(tx, [...new Set(candidateIds)], row.id);
    await endEnrollments(tx, live, 'stopped', now, await actorOf(tx, scope));
    return { stopped: live.length };
  });
}

async function loadEnrollment(tx: Transaction, scope: RequestScope, id: string, forUpdate = false): Promise<EnrollmentRow> {
  const row = isUuid(id) ? await findEnrollment(tx, id, forUpdate) : undefined;
  if (!row || !canReach(scope, row.organizationId)) throw notFound('Enrollment not found');
  return row;
}

async function presentEnrollment(tx: Transaction, row: EnrollmentRow): Promise<Enrollment> {
  const person = await findCandidate(tx, row.candidateId);
  const steps = (await findVersion(tx, row.sequenceId, row.version))?.steps;
  return toEnrollment({ ...row, firstName: person?.firstName ?? '', lastName: person?.lastName ?? '', timeZone: person?.timeZone ?? null }, steps);
}

/** Pause (nothing is sent until resumed), resume (the current step runs now, within the contact window), or stop. */
export async function enrollmentAction(
  deps: Deps,
  scope: RequestScope,
  id: string,
  action: 'pause' | 'resume' | 'stop',
  now = new Date(),
): Promise<Enrollment> {
  const { enrollment, next } = await runScoped(deps.db, scope, async (tx) => {
    const row = await loadEnrollment(tx, scope, id, true);
    const actor = await actorOf(tx, scope);
    const entry = (kind: 'paused' | 'resumed', summary: string) => ({
      organizationId: row.organizationId,
      enrollmentId: row.id,
      sequenceId: row.sequenceId,
      version: row.version,
      stepIndex: row.stepIndex,
      kind,
      summary,
      details: { by: actor.label },
    });
    let next: { enrollmentId: string; jobId: string; runAt: Date } | null = null;
    if (action === 'stop') {
      if (row.status !== 'active' && row.status !== 'paused') throw conflict('This enrollment has already ended');
      await endEnrollments(tx, [row], 'stopped', now, actor);
    } else if (action === 'pause') {
      if (row.status !== 'active') throw conflict('Only an active enrollment can be paused');
      await updateEnrollment(tx, row.id, { status: 'paused', jobId: null });
      await insertStepRuns(tx, [entry('paused', 'Paused by staff')]);
    } else {
      if (row.status !== 'paused') throw conflict('Only a paused enrollment can be resumed');
      const jobId = randomUUID();
      const runAt = row.nextRunAt && row.nextRunAt.getTime() > now.getTime() ? row.nextRunAt : now;
      await updateEnrollment(tx, row.id, { status: 'active', jobId, nextRunAt: runAt });
      await insertStepRuns(tx, [entry('resumed', 'Resumed by staff')]);
      next = { enrollmentId: row.id, jobId, runAt };
    }
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: `sequence.enrollment.${action}`,
      entityType: 'sequence_enrollment',
      entityId: row.id,
      changes: { candidateId: row.candidateId },
    });
    return { enrollment: await presentEnrollment(tx, (await findEnrollment(tx, row.id))!), next };
  });
  if (next) await queueNext(deps, [next]);
  return enrollment;
}

export async function listEnrollments(db: Database, scope: RequestScope, sequenceId: string, query: z.infer<typeof ListEnrollmentsQuerySchema>) {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, sequenceId);
    const { rows, total } = await listEnrollmentRows(
      tx,
      row.id,
      { status: query.status === 'all' ? undefined : query.status, q: query.q },
      { limit: query.limit, offset: query.offset },
    );
    const versions = new Map<number, SequenceStep[]>();
    for (const version of new Set(rows.map((item) => item.version))) versions.set(version, await stepsOf(tx, row, version));
    return { enrollments: rows.map((item) => toEnrollment(item, versions.get(item.version))), total };
  });
}

export async function getEnrollment(db: Database, scope: RequestScope, id: string) {
  return runScoped(db, scope, async (tx) => {
    const row = await loadEnrollment(tx, scope, id);
    return {
      enrollment: await presentEnrollment(tx, row),
      steps: (await findVersion(tx, row.sequenceId, row.version))?.steps ?? [],
      timeline: (await timelineOf(tx, row.id)).map(toTimelineEntry),
    };
  });
}

export async function candidateEnrollments(db: Database, scope: RequestScope, candidateId: string) {
  return runScoped(db, scope, async (tx) => {
    const person = isUuid(candidateId) ? await findCandidate(tx, candidateId) : undefined;
    if (!person || !canReach(scope, person.organizationId)) throw notFound('Candidate not found');
    const rows = await enrollmentsOfCandidate(tx, candidateId);
    const enrollments = [];
    for (const item of rows) {
      const steps = (await findVersion(tx, item.enrollment.sequenceId, item.enrollment.version))?.steps;
      enrollments.push({
        ...toEnrollment({ ...item.enrollment, firstName: item.firstName, lastName: item.lastName, timeZone: item.timeZone }, steps),
        sequenceName: item.sequenceName,
      });
    }
    return { enrollments };
  });
}

// ---- statistics and preview ----

export async function statistics(db: Database, scope: RequestScope, sequenceId: string, version?: number): Promise<SequenceStatistics> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadSequence(tx, scope, sequenceId);
    const chosen = version ?? row.currentVersion;
    const steps = await stepsOf(tx, row, chosen);
    if (!steps.length) throw notFound('No such version of the sequence');
    const runs = await stepRunCounts(tx, row.id, chosen);
    const outcomes = await stepOutcomeCounts(tx, row.id, chosen);
    const count = (index: number, kinds: string[]) =>
      runs.filter((item) => item.stepIndex === index && kinds.includes(item.kind)).reduce((sum, item) => sum + item.n, 0);
    const exitsAt = (index: number, reason: string) => Number(outcomes.exits.find((item) => item.step_index === index && item.exit_reason === reason)?.n ?? 0);
    const result: StepStatistics[] = steps.map((step, index) => {
      const delivered = outcomes.delivered.find((item) => item.step_index === index);
      return {
        stepIndex: index,
        key: step.key,
        type: step.type,
        reached: count(index, ['sent', 'blocked', 'waited', 'branched']),
        sent: count(index, ['sent']),
        blocked: count(index, ['blocked']),
        failed: count(index, ['failed']),
        delivered: Number(delivered?.delivered ?? 0),
        answered: Number(delivered?.answered ?? 0),
        replied: exitsAt(index, 'replied'),
        booked: exitsAt(index, 'booked'),
        optedOut: exitsAt(index, 'opted_out'),
      };
    });
    const enrollments = Object.fromEntries(
      ENROLLMENT_STATUSES.map((status) => [status, outcomes.statuses.filter((item) => item.status === status).reduce((sum, item) => sum + item.n, 0)]),
    ) as SequenceStatistics['enrollments'];
    const exits: Record<string, number> = {};
    for (const item of outcomes.statuses) if (item.exitReason) exits[item.exitReason] = (exits[item.exitReason] ?? 0) + item.n;
    return { version: chosen, steps: result, enrollments, exits };
  });
}

export async function preview(db: Database, scope: RequestScope, input: z.infer<typeof PreviewSchema>): Promise<PreviewResult> {
  const step = input.step;
  if (step.type !== 'sms' && step.type !== 'email') throw badRequest('step: Only SMS and email steps have a message to preview');
  return runScoped(db, scope, async (tx) => {
    let organizationId = targetOrganization(scope, input.organizationId);
    let person = null;
    if (input.candidateId) {
      person = await findCandidate(tx, input.candidateId);
      if (!person || !canReach(scope, person.organizationId)) throw notFound('Candidate not found');
      organizationId = person.organizationId;
    }
    if (input.trialId) await checkTrial(tx, input.trialId, organizationId);
    const variables = await messageVariables(tx, { organizationId, trialId: input.trialId ?? null }, person);
    const en = renderStep(step, 'en', variables, 'en');
    const es = renderStep(step, 'es', variables, 'es');
    return {
      candidateName: person ? `${person.firstName} ${person.lastName}`.trim() : null,
      en: { subject: en.subject, text: en.text },
      es: { subject: es.subject, text: es.text },
      missing: [...new Set([...en.missing, ...es.missing])],
    };
  });
}
