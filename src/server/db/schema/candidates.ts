import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { CandidateStatus, PrescreenNote } from '../../../contract/candidates';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';
import { trial } from './trials';

/** A person who may join a trial. Personal data: never logged; every change audited. */
export const candidate = pgTable(
  'candidate',
  {
    // Time-ordered (UUID version 7, decision 117, as activity_event's in 102): an import's new people land at one end
    // of the primary key and of the indexes led by candidate_id, not on random pages of indexes as large as the table.
    id: uuid('id').primaryKey().default(sql`time_ordered_uuid()`),
    organizationId: organizationIdColumn(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    /** E.164, validated with libphonenumber. */
    phone: text('phone'),
    email: text('email'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    sex: text('sex', { enum: ['female', 'male', 'other', 'unknown'] })
      .notNull()
      .default('unknown'),
    addressLine: text('address_line'),
    city: text('city'),
    region: text('region'),
    postalCode: text('postal_code'),
    country: text('country'),
    timeZone: text('time_zone'),
    preferredLanguage: text('preferred_language').notNull().default('en'),
    source: text('source').notNull().default('manual'),
    customFields: jsonb('custom_fields').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    consentSms: boolean('consent_sms').notNull().default(false),
    consentCalls: boolean('consent_calls').notNull().default(false),
    /** Documented consent (TCPA): where and when the person agreed to texts / calls, e.g. "paper form at clinic". */
    consentSmsSource: text('consent_sms_source'),
    consentSmsAt: timestamp('consent_sms_at', { withTimezone: true }),
    consentCallsSource: text('consent_calls_source'),
    consentCallsAt: timestamp('consent_calls_at', { withTimezone: true }),
    doNotContact: boolean('do_not_contact').notNull().default(false),
    doNotContactAt: timestamp('do_not_contact_at', { withTimezone: true }),
    doNotContactReason: text('do_not_contact_reason'),
    status: text('status').$type<CandidateStatus>().notNull().default('new'),
    prescreenNotes: jsonb('prescreen_notes').$type<PrescreenNote[]>().notNull().default([]),
    /** The import run that created this candidate, if any. */
    importRunId: uuid('import_run_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('candidate_organization_created_idx').on(table.organizationId, table.createdAt, table.id),
    index('candidate_organization_status_idx').on(table.organizationId, table.status),
    index('candidate_organization_updated_idx').on(table.organizationId, table.updatedAt),
    index('candidate_organization_last_name_idx').on(table.organizationId, sql`lower(${table.lastName})`, sql`lower(${table.firstName})`),
    uniqueIndex('candidate_organization_phone_uidx').on(table.organizationId, table.phone).where(sql`${table.phone} is not null`),
    // Emails are stored lowercased, so the plain column is indexed: under row-level security only leakproof
    // operators can use an index before the policy runs, and lower() is not leakproof.
    uniqueIndex('candidate_organization_email_uidx').on(table.organizationId, table.email).where(sql`${table.email} is not null`),
    // Substring search (decision 109): pg_trgm indexes over what the search box matches. Row security keeps LIKE
    // (not leakproof) from using them in the app role's own query, so candidate_ids_matching() reads them.
    index('candidate_name_trgm_idx').using('gin', sql`lower(${table.firstName} || ' ' || ${table.lastName}) gin_trgm_ops`),
    index('candidate_email_trgm_idx').using('gin', sql`lower(${table.email}) gin_trgm_ops`),
    // On the digits, not the column: gin_trgm_ops also serves "=", and the import's `phone = any(...)` must keep the
    // unique btree (decision 109).
    index('candidate_phone_trgm_idx').using('gin', sql`replace(${table.phone}, '+', '') gin_trgm_ops`),
  ],
);

/** A candidate linked to a trial they may join. */
/**
 * How many candidates each organization has in each status, kept by statement triggers on `candidate` (migration
 * 0034, decision 115) as rows of changes: every statement adds its net change per organization and status, and
 * the hourly maintenance folds them into one row each. The list's total is a sum here, never a count of candidates.
 * No foreign key: an organization's deletion removes its candidates, whose changes sum its rows to zero.
 */
export const candidateCount = pgTable(
  'candidate_count',
  {
    organizationId: uuid('organization_id').notNull(),
    status: text('status').$type<CandidateStatus>().notNull(),
    change: bigint('change', { mode: 'number' }).notNull(),
  },
  (table) => [index('candidate_count_organization_status_idx').on(table.organizationId, table.status)],
);

export const candidateTrial = pgTable(
  'candidate_trial',
  {
    candidateId: belongsTo('candidate_id', () => candidate.id),
    trialId: belongsTo('trial_id', () => trial.id),
    organizationId: organizationIdColumn(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.candidateId, table.trialId] }), index('candidate_trial_trial_id_idx').on(table.trialId)],
);

/**
 * One touch in a candidate's contact history: status changes, notes, and (as later features add them)
 * calls, SMS, chats, callbacks and bookings. The feed of GET /api/contact-history.
 */
export const contactEvent = pgTable(
  'contact_event',
  {
    // Time-ordered, as candidate's (decision 117): every import writes one event per new person.
    id: uuid('id').primaryKey().default(sql`time_ordered_uuid()`),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    kind: text('kind').notNull(),
    /** A short line for the timeline, e.g. "Status: new -> contacted". */
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    /** The record this touch is about (a call, a message...), when there is one. */
    referenceId: text('reference_id'),
    actorUserId: text('actor_user_id'),
    actorLabel: text('actor_label'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('contact_event_candidate_occurred_idx').on(table.candidateId, table.occurredAt),
    index('contact_event_organization_id_idx').on(table.organizationId),
  ],
);

/**
 * A batch job with progress and per-row outcomes: candidate imports now, bulk calls and sequences later.
 */
export const processingRun = pgTable(
  'processing_run',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    kind: text('kind').notNull(),
    label: text('label').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    merged: integer('merged').notNull().default(0),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The app instance working on the run and until when its claim holds (processing-runs/background.ts). */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
  },
  (table) => [
    index('processing_run_organization_created_idx').on(table.organizationId, table.createdAt),
    // The sweep's runs whose claim lapsed (decision 122): unfinished runs only.
    index('processing_run_unfinished_idx').on(table.leaseExpiresAt).where(sql`${table.status} in ('pending', 'running')`),
  ],
);

/** One input row of a run: kept until processed so an interrupted run can resume, then its outcome. */
export const processingRunItem = pgTable(
  'processing_run_item',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    runId: belongsTo('run_id', () => processingRun.id),
    rowNumber: integer('row_number').notNull(),
    /** pending until processed; then created, merged, skipped, invalid or failed. */
    outcome: text('outcome').notNull().default('pending'),
    input: jsonb('input').$type<Record<string, unknown>>(),
    errors: jsonb('errors').$type<Array<{ field: string; message: string }>>(),
    candidateId: uuid('candidate_id'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('processing_run_item_run_row_uidx').on(table.runId, table.rowNumber),
    index('processing_run_item_organization_id_idx').on(table.organizationId),
  ],
);
