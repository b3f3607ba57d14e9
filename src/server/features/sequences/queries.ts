import { and, asc, count, desc, eq, ilike, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { EnrollmentStatus, ExitReason, SequenceStatus } from '../../../contract/sequences';
import { candidate, sequence, sequenceEnrollment, sequenceStepRun, sequenceVersion, trial } from '../../db/schema';
import { escapeLike } from '../../db/postgres';
import { rowsOf, type Executor } from '../../db/scoped';
import type { SystemDb } from '../../db/system';
import { insertInBatches } from '../../db/batched-insert';

export type SequenceRow = typeof sequence.$inferSelect;
export type NewSequenceRow = typeof sequence.$inferInsert;
export type EnrollmentRow = typeof sequenceEnrollment.$inferSelect;
export type NewEnrollmentRow = typeof sequenceEnrollment.$inferInsert;
export type StepRunRow = typeof sequenceStepRun.$inferSelect;
export type NewStepRunRow = typeof sequenceStepRun.$inferInsert;
export type VersionRow = typeof sequenceVersion.$inferSelect;

export const LIVE: EnrollmentStatus[] = ['active', 'paused'];

// ---- sequences ----

export async function insertSequence(executor: Executor, values: NewSequenceRow): Promise<SequenceRow> {
  const [row] = await executor.insert(sequence).values(values).returning();
  return row;
}

export async function updateSequenceRow(executor: Executor, id: string, values: Partial<NewSequenceRow>): Promise<SequenceRow> {
  const [row] = await executor
    .update(sequence)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(sequence.id, id))
    .returning();
  return row;
}

export async function findSequence(executor: Executor, id: string, forUpdate = false): Promise<SequenceRow | undefined> {
  const query = executor.select().from(sequence).where(eq(sequence.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export interface SequenceFilter {
  organizationIds: string[];
  trialId?: string;
  status?: SequenceStatus;
}

export async function listSequenceRows(executor: Executor, filter: SequenceFilter): Promise<SequenceRow[]> {
  if (!filter.organizationIds.length) return [];
  return executor
    .select()
    .from(sequence)
    .where(
      and(
        inArray(sequence.organizationId, filter.organizationIds),
        filter.trialId ? eq(sequence.trialId, filter.trialId) : undefined,
        filter.status ? eq(sequence.status, filter.status) : undefined,
      ),
    )
    .orderBy(asc(sequence.status), desc(sequence.updatedAt), asc(sequence.id));
}

/** Active sequences of an organization listening for a trigger: those of the trial, and those of no trial. */
export async function sequencesWithTrigger(executor: Executor, organizationId: string, trigger: string, trialIds: string[]): Promise<SequenceRow[]> {
  return executor
    .select()
    .from(sequence)
    .where(
      and(
        eq(sequence.organizationId, organizationId),
        eq(sequence.status, 'active'),
        sql`${trigger} = any(${sequence.triggers})`,
        trialIds.length ? or(isNull(sequence.trialId), inArray(sequence.trialId, trialIds)) : isNull(sequence.trialId),
      ),
    );
}

export async function trialTitles(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await executor.select({ id: trial.id, title: trial.title }).from(trial).where(inArray(trial.id, ids));
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** Per sequence: live enrollments, all enrollments, and those that ended with a reply or a booking. */
export async function enrollmentCounts(executor: Executor, sequenceIds: string[]): Promise<Map<string, { live: number; total: number; converted: number }>> {
  if (!sequenceIds.length) return new Map();
  const rows = await executor
    .select({
      sequenceId: sequenceEnrollment.sequenceId,
      live: sql<number>`count(*) filter (where ${sequenceEnrollment.status} in ('active', 'paused'))`,
      total: count(),
      converted: sql<number>`count(*) filter (where ${sequenceEnrollment.exitReason} in ('replied', 'booked'))`,
    })
    .from(sequenceEnrollment)
    .where(inArray(sequenceEnrollment.sequenceId, sequenceIds))
    .groupBy(sequenceEnrollment.sequenceId);
  return new Map(rows.map((row) => [row.sequenceId, { live: Number(row.live), total: Number(row.total), converted: Number(row.converted) }]));
}

// ---- versions ----

export async function insertVersion(executor: Executor, values: typeof sequenceVersion.$inferInsert): Promise<VersionRow> {
  const [row] = await executor.insert(sequenceVersion).values(values).returning();
  return row;
}

export async function findVersion(executor: Executor, sequenceId: string, version: number): Promise<VersionRow | undefined> {
  const [row] = await executor
    .select()
    .from(sequenceVersion)
    .where(and(eq(sequenceVersion.sequenceId, sequenceId), eq(sequenceVersion.version, version)));
  return row;
}

export async function updateVersionSteps(executor: Executor, id: string, steps: VersionRow['steps']): Promise<void> {
  await executor.update(sequenceVersion).set({ steps }).where(eq(sequenceVersion.id, id));
}

/** Whether anyone ever enrolled on this version (then its steps are kept as they are). */
export async function versionInUse(executor: Executor, sequenceId: string, version: number): Promise<boolean> {
  const [row] = await executor
    .select({ id: sequenceEnrollment.id })
    .from(sequenceEnrollment)
    .where(and(eq(sequenceEnrollment.sequenceId, sequenceId), eq(sequenceEnrollment.version, version)))
    .limit(1);
  return Boolean(row);
}

// ---- enrollments ----

/** Inserts enrollments; a candidate already live in the sequence is skipped (the partial unique index). */
export async function insertEnrollments(executor: Executor, values: NewEnrollmentRow[]): Promise<EnrollmentRow[]> {
  if (!values.length) return [];
  return insertInBatches(sequenceEnrollment, values, (batch) => executor.insert(sequenceEnrollment).values(batch).onConflictDoNothing().returning());
}

export async function findEnrollment(executor: Executor, id: string, forUpdate = false): Promise<EnrollmentRow | undefined> {
  const query = executor.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findEnrollments(executor: SystemDb, ids: string[]): Promise<EnrollmentRow[]> {
  if (!ids.length) return [];
  return executor.select().from(sequenceEnrollment).where(inArray(sequenceEnrollment.id, ids));
}

/**
 * The enrollments whose current job is one of these (active ones only), marked as taken by `sender` (this process):
 * should it die, the sweep gives them a new job (decision 122). One statement, in place of reading them.
 */
export async function takeEnrollments(executor: SystemDb, jobs: Array<{ enrollmentId: string; jobId: string }>, sender: string): Promise<EnrollmentRow[]> {
  if (!jobs.length) return [];
  const taken = jobs.map((job) => ({ id: job.enrollmentId, job_id: job.jobId }));
  return executor
    .update(sequenceEnrollment)
    .set({ sender: sql`${sender} || ' ' || ${sequenceEnrollment.jobId}` })
    .where(
      and(
        eq(sequenceEnrollment.status, 'active'),
        sql`(${sequenceEnrollment.id}, ${sequenceEnrollment.jobId}) in (select id, job_id from json_to_recordset(${JSON.stringify(taken)}::json) as t(id uuid, job_id text))`,
      ),
    )
    .returning();
}

/** Locks enrollments in id order (two batches never wait on each other in a circle). */
export async function lockEnrollments(executor: Executor, ids: string[]): Promise<EnrollmentRow[]> {
  if (!ids.length) return [];
  return executor.select().from(sequenceEnrollment).where(inArray(sequenceEnrollment.id, ids)).orderBy(asc(sequenceEnrollment.id)).for('update');
}

/** Writes the state of many enrollments in one statement (the engine's settlements). */
export async function applyEnrollmentStates(executor: Executor, rows: EnrollmentRow[]): Promise<void> {
  if (!rows.length) return;
  const payload = rows.map((row) => ({
    id: row.id,
    status: row.status,
    exit_reason: row.exitReason,
    step_index: row.stepIndex,
    steps_taken: row.stepsTaken,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    job_id: row.jobId,
    last_call_id: row.lastCallId,
    step_started_at: row.stepStartedAt?.toISOString() ?? null,
    ended_at: row.endedAt?.toISOString() ?? null,
  }));
  await executor.execute(sql`
    update sequence_enrollment e set status = v.status, exit_reason = v.exit_reason, step_index = v.step_index, steps_taken = v.steps_taken,
      next_run_at = v.next_run_at, job_id = v.job_id, last_call_id = v.last_call_id, step_started_at = v.step_started_at, ended_at = v.ended_at, updated_at = now()
    from json_to_recordset(${JSON.stringify(payload)}::json) as v(id uuid, status text, exit_reason text, step_index int, steps_taken int,
      next_run_at timestamptz, job_id text, last_call_id uuid, step_started_at timestamptz, ended_at timestamptz)
    where e.id = v.id`);
}

export async function updateEnrollment(executor: Executor, id: string, values: Partial<NewEnrollmentRow>): Promise<EnrollmentRow> {
  const [row] = await executor
    .update(sequenceEnrollment)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(sequenceEnrollment.id, id))
    .returning();
  return row;
}

/** Live enrollments of candidates, locked: exits and manual stops change them. */
export async function liveEnrollmentsOf(executor: Executor, candidateIds: string[], sequenceId?: string): Promise<EnrollmentRow[]> {
  if (!candidateIds.length) return [];
  return executor
    .select()
    .from(sequenceEnrollment)
    .where(
      and(
        inArray(sequenceEnrollment.candidateId, candidateIds),
        inArray(sequenceEnrollment.status, LIVE),
        sequenceId ? eq(sequenceEnrollment.sequenceId, sequenceId) : undefined,
      ),
    )
    .for('update');
}

export async function liveEnrollmentsOfSequence(executor: Executor, sequenceId: string): Promise<EnrollmentRow[]> {
  return executor
    .select()
    .from(sequenceEnrollment)
    .where(and(eq(sequenceEnrollment.sequenceId, sequenceId), inArray(sequenceEnrollment.status, LIVE)))
    .for('update');
}

/** Live candidates among `candidateIds` in the sequence (for "already enrolled"). */
export async function liveCandidateIds(executor: Executor, sequenceId: string, candidateIds: string[]): Promise<Set<string>> {
  if (!candidateIds.length) return new Set();
  const rows = await executor
    .select({ candidateId: sequenceEnrollment.candidateId })
    .from(sequenceEnrollment)
    .where(and(eq(sequenceEnrollment.sequenceId, sequenceId), inArray(sequenceEnrollment.candidateId, candidateIds), inArray(sequenceEnrollment.status, LIVE)));
  return new Set(rows.map((row) => row.candidateId));
}

export interface EnrollmentListRow extends EnrollmentRow {
  firstName: string;
  lastName: string;
  timeZone: string | null;
}

export async function listEnrollmentRows(
  executor: Executor,
  sequenceId: string,
  filter: { status?: EnrollmentStatus; q?: string },
  page: { limit: number; offset: number },
) {
  const where = and(
    eq(sequenceEnrollment.sequenceId, sequenceId),
    filter.status ? eq(sequenceEnrollment.status, filter.status) : undefined,
    filter.q ? or(ilike(candidate.firstName, `%${escapeLike(filter.q)}%`), ilike(candidate.lastName, `%${escapeLike(filter.q)}%`)) : undefined,
  );
  const rows = await executor
    .select({ enrollment: sequenceEnrollment, firstName: candidate.firstName, lastName: candidate.lastName, timeZone: candidate.timeZone })
    .from(sequenceEnrollment)
    .innerJoin(candidate, eq(candidate.id, sequenceEnrollment.candidateId))
    .where(where)
    .orderBy(
      sql`case when ${sequenceEnrollment.status} in ('active', 'paused') then 0 else 1 end`,
      asc(sequenceEnrollment.nextRunAt),
      desc(sequenceEnrollment.enrolledAt),
      asc(sequenceEnrollment.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await executor
    .select({ total: count() })
    .from(sequenceEnrollment)
    .innerJoin(candidate, eq(candidate.id, sequenceEnrollment.candidateId))
    .where(where);
  return {
    rows: rows.map((row): EnrollmentListRow => ({ ...row.enrollment, firstName: row.firstName, lastName: row.lastName, timeZone: row.timeZone })),
    total: Number(total),
  };
}

export async function enrollmentsOfCandidate(executor: Executor, candidateId: string) {
  return executor
    .select({
      enrollment: sequenceEnrollment,
      sequenceName: sequence.name,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      timeZone: candidate.timeZone,
    })
    .from(sequenceEnrollment)
    .innerJoin(sequence, eq(sequence.id, sequenceEnrollment.sequenceId))
    .innerJoin(candidate, eq(candidate.id, sequenceEnrollment.candidateId))
    .where(eq(sequenceEnrollment.candidateId, candidateId))
    .orderBy(desc(sequenceEnrollment.enrolledAt))
    .limit(100);
}

// ---- timeline ----

export async function insertStepRuns(executor: Executor, values: NewStepRunRow[]): Promise<StepRunRow[]> {
  if (!values.length) return [];
  // Entries written together keep their order in the timeline (one statement would give them one time).
  const base = Date.now();
  return insertInBatches(
    sequenceStepRun,
    values.map((value, index) => ({ ...value, createdAt: value.createdAt ?? new Date(base + index) })),
    (batch) => executor.insert(sequenceStepRun).values(batch).returning(),
  );
}

export async function timelineOf(executor: Executor, enrollmentId: string): Promise<StepRunRow[]> {
  return executor
    .select()
    .from(sequenceStepRun)
    .where(eq(sequenceStepRun.enrollmentId, enrollmentId))
    .orderBy(asc(sequenceStepRun.createdAt), asc(sequenceStepRun.id))
    .limit(500);
}

// ---- the job queue's bookkeeping ----

/**
 * For the sweep: forgets the job of active enrollments overdue by more than `graceMs` (their job was lost: a
 * crash between the commit and the queueing) and returns those that are due-able without a job.
 */
export async function enrollmentsNeedingJobs(
  executor: SystemDb,
  now: Date,
  graceMs: number,
  limit: number,
  senderLeaseSeconds: number,
): Promise<Array<{ id: string; nextRunAt: Date }>> {
  await executor
    .update(sequenceEnrollment)
    .set({ jobId: null })
    .where(and(eq(sequenceEnrollment.status, 'active'), lt(sequenceEnrollment.nextRunAt, new Date(now.getTime() - graceMs))));
  // Due steps whose current job a process took and that process is provably gone (no heartbeat for a lease): its job
  // will not finish; a new one is given now, and the old one, should it ever run, is stale (decision 122).
  await executor.execute(sql`
    update sequence_enrollment e set job_id = null
    where e.status = 'active' and e.sender is not null and e.next_run_at <= ${now.toISOString()}::timestamptz
      and split_part(e.sender, ' ', 2) = e.job_id
      and not exists (
        select 1 from app_instance i
        where i.id = split_part(e.sender, ' ', 1) and i.heartbeat_at > now() - ${`${senderLeaseSeconds} seconds`}::interval)`);
  const rows = await executor
    .select({ id: sequenceEnrollment.id, nextRunAt: sequenceEnrollment.nextRunAt })
    .from(sequenceEnrollment)
    .where(and(eq(sequenceEnrollment.status, 'active'), isNull(sequenceEnrollment.jobId), sql`${sequenceEnrollment.nextRunAt} is not null`))
    .orderBy(asc(sequenceEnrollment.nextRunAt))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, nextRunAt: row.nextRunAt! }));
}

/** Gives each enrollment its job id unless another process did first; returns those claimed. */
export async function claimJobs(executor: SystemDb, claims: Array<{ id: string; jobId: string }>): Promise<Set<string>> {
  if (!claims.length) return new Set();
  const result = await executor.execute(sql`
    update sequence_enrollment e set job_id = c.job_id
    from json_to_recordset(${JSON.stringify(claims.map((claim) => ({ id: claim.id, job_id: claim.jobId })))}::json) as c(id uuid, job_id text)
    where e.id = c.id and e.status = 'active' and e.job_id is null
    returning e.id`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}

// ---- exits ----

export async function exitEnrollmentRows(executor: Executor, ids: string[], reason: ExitReason, now: Date): Promise<void> {
  if (!ids.length) return;
  await executor
    .update(sequenceEnrollment)
    .set({ status: 'exited', exitReason: reason, endedAt: now, stepIndex: null, nextRunAt: null, jobId: null, updatedAt: now })
    .where(inArray(sequenceEnrollment.id, ids));
}

export type StatisticsRow = { stepIndex: number; kind: string; n: number };

/** Timeline counts by step and kind for one version. */
export async function stepRunCounts(executor: Executor, sequenceId: string, version: number): Promise<StatisticsRow[]> {
  const rows = await executor
    .select({ stepIndex: sequenceStepRun.stepIndex, kind: sequenceStepRun.kind, n: count() })
    .from(sequenceStepRun)
    .where(and(eq(sequenceStepRun.sequenceId, sequenceId), eq(sequenceStepRun.version, version), sql`${sequenceStepRun.stepIndex} is not null`))
    .groupBy(sequenceStepRun.stepIndex, sequenceStepRun.kind);
  return rows.map((row) => ({ stepIndex: row.stepIndex!, kind: row.kind, n: Number(row.n) }));
}

/**
 * Per step of one version: SMS delivered, calls answered, and the exits (replied, booked, opted out) that
 * came after that step was the last one sent to the person.
 */
export async function stepOutcomeCounts(executor: Executor, sequenceId: string, version: number) {
  const delivered = rowsOf<{ step_index: number; delivered: string; answered: string }>(
    await executor.execute(sql`
      select r.step_index,
        count(*) filter (where m.status = 'delivered') as delivered,
        count(*) filter (where c.outcome = 'completed') as answered
      from sequence_step_run r
      left join sms_message m on r.step_type = 'sms' and m.id = r.reference_id
      left join call c on r.step_type = 'call' and c.id = r.reference_id
      where r.sequence_id = ${sequenceId} and r.version = ${version} and r.kind = 'sent'
      group by r.step_index`),
  );
  const exits = rowsOf<{ step_index: number; exit_reason: string; n: string }>(
    await executor.execute(sql`
      select last.step_index, e.exit_reason, count(*) as n
      from sequence_enrollment e
      join lateral (
        select r.step_index from sequence_step_run r
        where r.enrollment_id = e.id and r.kind = 'sent'
        order by r.created_at desc, r.id desc limit 1
      ) last on true
      where e.sequence_id = ${sequenceId} and e.version = ${version} and e.exit_reason in ('replied', 'booked', 'opted_out')
      group by last.step_index, e.exit_reason`),
  );
  const statuses = await executor
    .select({ status: sequenceEnrollment.status, exitReason: sequenceEnrollment.exitReason, n: count() })
    .from(sequenceEnrollment)
    .where(and(eq(sequenceEnrollment.sequenceId, sequenceId), eq(sequenceEnrollment.version, version)))
    .groupBy(sequenceEnrollment.status, sequenceEnrollment.exitReason);
  return { delivered, exits, statuses: statuses.map((row) => ({ ...row, n: Number(row.n) })) };
}
