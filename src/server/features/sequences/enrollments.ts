import { randomUUID } from 'node:crypto';
import type { z } from '@hono/zod-openapi';
import {
  type Enrollment,
  type EnrollInput,
  type EnrollResult,
  type ListEnrollmentsQuerySchema,
  type SequenceStep,
  SEQUENCE_ENROLL_IN_REQUEST,
} from '../../../contract/sequences';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { AppDeps } from '../../http/context';
import type { Transaction } from '../../db/scoped';
import { badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { findCandidate, findCandidates, findCandidatesMatching } from '../candidates/service';
import { queueNext, type SequenceDeps } from './engine';
import { enrollPeople, type Refusal } from './enroll';
import { endEnrollments } from './exits';
import {
  enrollmentsOfCandidate,
  findEnrollment,
  findVersion,
  insertStepRuns,
  listEnrollmentRows,
  liveEnrollmentsOf,
  timelineOf,
  updateEnrollment,
  type EnrollmentRow,
  type SequenceRow,
} from './queries';
import { isUuid } from '../../../contract/ids';
import { insertCandidateItems } from '../processing-runs/service';
import { sequenceEnrollmentRuns, type EnrollmentRunOptions } from './enroll-run';
import { actorOf, loadSequence, stepsOf, toEnrollment, toTimelineEntry } from './service';

/**
 * Staff's enrollments in a sequence: enrolling people (by ids, or a filter, which above one request's share
 * becomes a `sequence_enrollment` run), stopping them, pausing, resuming or stopping one enrollment, and the
 * lists. The enrolling itself, with its refusals, is enroll.ts's `enrollPeople`.
 */

type Deps = Pick<SequenceDeps, 'db' | 'jobs'>;

/** Refusals listed in full in an enroll answer; the rest are counted. */
const REFUSALS_SHOWN = 100;

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
