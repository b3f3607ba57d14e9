import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type {
  EnrollmentSource,
  EnrollmentStatus,
  ExitReason,
  SequenceStatus,
  SequenceStep,
  SequenceStepType,
  SequenceTrigger,
  TimelineKind,
} from '../../../contract/sequences';
import { candidate } from './candidates';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';
import { trial } from './trials';

/** An outreach sequence (decision 026); its steps live in versions. */
export const sequence = pgTable(
  'sequence',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    trialId: uuid('trial_id').references(() => trial.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').$type<SequenceStatus>().notNull().default('active'),
    triggers: text('triggers').array().$type<SequenceTrigger[]>().notNull().default(sql`'{}'::text[]`),
    exitOnReply: boolean('exit_on_reply').notNull().default(true),
    currentVersion: integer('current_version').notNull().default(1),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('sequence_organization_idx').on(table.organizationId, table.status)],
);

/** One version of a sequence's steps. Immutable once someone is enrolled on it. */
export const sequenceVersion = pgTable(
  'sequence_version',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    sequenceId: belongsTo('sequence_id', () => sequence.id),
    version: integer('version').notNull(),
    steps: jsonb('steps').$type<SequenceStep[]>().notNull(),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
  },
  (table) => [uniqueIndex('sequence_version_uidx').on(table.sequenceId, table.version)],
);

/**
 * A candidate going through a sequence: a small state machine. `stepIndex` is the step to run next at
 * `nextRunAt` (null once finished); `stepsTaken` counts steps run, and with the enrollment id forms the
 * idempotency key of the next send.
 */
export const sequenceEnrollment = pgTable(
  'sequence_enrollment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    sequenceId: belongsTo('sequence_id', () => sequence.id),
    version: integer('version').notNull(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    status: text('status').$type<EnrollmentStatus>().notNull().default('active'),
    exitReason: text('exit_reason').$type<ExitReason>(),
    source: text('source').$type<EnrollmentSource>().notNull().default('manual'),
    stepIndex: integer('step_index'),
    stepsTaken: integer('steps_taken').notNull().default(0),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** The pg-boss job that runs the next step; a job that finds another id here is stale and does nothing. */
    jobId: text('job_id'),
    /** '<instance> <job id>': the process that took that job (decision 122); the sweep re-queues a gone sender's steps. */
    sender: text('sender'),
    /** The last call a call step placed (branches on call outcomes read it). */
    lastCallId: uuid('last_call_id'),
    /** When the current step began waiting (a branch waiting for a call to end gives up after a while). */
    stepStartedAt: timestamp('step_started_at', { withTimezone: true }),
    enrolledByUserId: text('enrolled_by_user_id'),
    enrolledAt: createdAtColumn(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    // One live enrollment per candidate per sequence.
    uniqueIndex('sequence_enrollment_live_uidx').on(table.sequenceId, table.candidateId).where(sql`${table.status} in ('active', 'paused')`),
    index('sequence_enrollment_due_idx').on(table.status, table.nextRunAt),
    index('sequence_enrollment_sequence_idx').on(table.sequenceId, table.status),
    index('sequence_enrollment_candidate_idx').on(table.candidateId, table.status),
    index('sequence_enrollment_organization_idx').on(table.organizationId),
  ],
);

/**
 * The timeline of an enrollment: every step run (sent, blocked, moved for quiet hours, waited, branched)
 * and every change of state. A send carries `idempotencyKey` (enrollment id : steps taken), unique, written
 * in the same transaction that stores the message or call, so a retried job never sends a step twice.
 */
export const sequenceStepRun = pgTable(
  'sequence_step_run',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    enrollmentId: belongsTo('enrollment_id', () => sequenceEnrollment.id),
    sequenceId: uuid('sequence_id').notNull(),
    version: integer('version').notNull(),
    stepIndex: integer('step_index'),
    stepKey: text('step_key'),
    stepType: text('step_type').$type<SequenceStepType>(),
    kind: text('kind').$type<TimelineKind>().notNull(),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The SMS message, call or mail the step produced. */
    referenceId: uuid('reference_id'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('sequence_step_run_idempotency_uidx').on(table.idempotencyKey),
    index('sequence_step_run_enrollment_idx').on(table.enrollmentId, table.createdAt),
    index('sequence_step_run_statistics_idx').on(table.sequenceId, table.version, table.stepIndex, table.kind),
    index('sequence_step_run_organization_idx').on(table.organizationId),
  ],
);
