import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { candidate } from './candidates';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';
import { prescreenForm, prescreenResult } from './prescreen';
import { trial } from './trials';

/** A voice agent: prescreens candidates by phone, or books their site visits. */
export const voiceAgent = pgTable(
  'voice_agent',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    name: text('name').notNull(),
    type: text('type', { enum: ['PRESCREEN', 'SITE_VISIT_SCHEDULING'] }).notNull(),
    trialId: uuid('trial_id').references(() => trial.id, { onDelete: 'set null' }),
    prescreenFormId: uuid('prescreen_form_id').references(() => prescreenForm.id, { onDelete: 'set null' }),
    /** For scheduling agents: the sites and weekly slots it may book. */
    schedule: jsonb('schedule').$type<Record<string, unknown>>().notNull().default({}),
    languages: jsonb('languages').$type<string[]>().notNull().default(['en', 'es']),
    voice: text('voice').notNull().default('default'),
    firstMessage: jsonb('first_message').$type<{ en: string; es?: string }>().notNull(),
    voicemailMessage: jsonb('voicemail_message').$type<{ en: string; es?: string }>().notNull(),
    /** Local calling window in the candidate's time zone, 'HH:mm'. */
    callingHoursStart: text('calling_hours_start').notNull().default('08:00'),
    callingHoursEnd: text('calling_hours_end').notNull().default('21:00'),
    /** E.164 number it calls from (an imported Twilio number on Vapi). */
    fromNumber: text('from_number'),
    providerAssistantId: text('provider_assistant_id'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('voice_agent_organization_id_idx').on(table.organizationId)],
);

/** A phone call with a candidate, placed through the voice port (Vapi or the simulator). */
export const call = pgTable(
  'call',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: uuid('candidate_id').references(() => candidate.id, { onDelete: 'set null' }),
    voiceAgentId: uuid('voice_agent_id').references(() => voiceAgent.id, { onDelete: 'set null' }),
    type: text('type', { enum: ['PRESCREEN', 'SITE_VISIT_SCHEDULING'] }).notNull(),
    direction: text('direction', { enum: ['outbound', 'inbound'] })
      .notNull()
      .default('outbound'),
    status: text('status', { enum: ['queued', 'ringing', 'in_progress', 'ended', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    /** How it ended: completed, no_answer, busy, voicemail, failed, hung_up, declined. */
    outcome: text('outcome'),
    provider: text('provider', { enum: ['simulator', 'vapi'] }).notNull(),
    providerCallId: text('provider_call_id'),
    toPhone: text('to_phone'),
    fromPhone: text('from_phone'),
    language: text('language').notNull().default('en'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationSeconds: integer('duration_seconds'),
    costUsd: numeric('cost_usd', { precision: 10, scale: 4 }),
    recordingUrl: text('recording_url'),
    transcript: jsonb('transcript').$type<Array<{ role: string; text: string; at?: string }>>().notNull().default([]),
    /** Answers and metadata the agent's tools recorded during the call. */
    structuredData: jsonb('structured_data').$type<Record<string, unknown>>().notNull().default({}),
    prescreenResultId: uuid('prescreen_result_id').references(() => prescreenResult.id, { onDelete: 'set null' }),
    processingRunId: uuid('processing_run_id'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('call_organization_created_idx').on(table.organizationId, table.createdAt),
    index('call_candidate_idx').on(table.candidateId),
    uniqueIndex('call_provider_call_uidx').on(table.provider, table.providerCallId).where(sql`${table.providerCallId} is not null`),
  ],
);

/** Every server message a provider sent about a call, raw, once: redeliveries are recognized by their key. */
export const callEvent = pgTable(
  'call_event',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    callId: belongsTo('call_id', () => call.id),
    type: text('type').notNull(),
    /** A hash of the raw payload (or the provider's event id): the same delivery twice is stored once. */
    dedupeKey: text('dedupe_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    receivedAt: createdAtColumn(),
  },
  (table) => [uniqueIndex('call_event_dedupe_uidx').on(table.callId, table.dedupeKey), index('call_event_organization_id_idx').on(table.organizationId)],
);

/** A callback a candidate asked for (or that a missed call earned): one pending per candidate. */
export const callback = pgTable(
  'callback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    voiceAgentId: uuid('voice_agent_id').references(() => voiceAgent.id, { onDelete: 'set null' }),
    type: text('type', { enum: ['PRESCREEN', 'SITE_VISIT_SCHEDULING'] })
      .notNull()
      .default('PRESCREEN'),
    status: text('status', { enum: ['pending', 'calling', 'done', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    reason: text('reason').notNull().default('requested'),
    requestedFor: timestamp('requested_for', { withTimezone: true }).notNull(),
    /** When it will really be placed: moved into calling hours when needed. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    /** Calls placed for this callback so far (bounded by CALLBACK_MAX_ATTEMPTS). */
    attempts: integer('attempts').notNull().default(0),
    lastCallId: uuid('last_call_id'),
    /** How the last attempt ended (a call outcome), or why it could not be placed. */
    lastOutcome: text('last_outcome'),
    lastError: text('last_error'),
    /** Staff's note for the caller, e.g. "asked for mornings". */
    note: text('note'),
    /** The pg-boss job that will place it; a job whose id differs is stale and does nothing. */
    jobId: text('job_id'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    // One open callback per candidate: waiting (pending) or being placed (calling).
    uniqueIndex('callback_open_candidate_uidx').on(table.candidateId).where(sql`${table.status} in ('pending', 'calling')`),
    index('callback_organization_scheduled_idx').on(table.organizationId, table.scheduledFor),
  ],
);

/**
 * The voice simulator's store of the calls it placed (decision 124), as a provider keeps its own: any process answers
 * for any call. Outside our tenancy (no row-security path reads it); keyed by organization first for Citus.
 */
export const simulatedVoiceCall = pgTable(
  'simulated_voice_call',
  {
    organizationId: uuid('organization_id').notNull(),
    providerCallId: text('provider_call_id').notNull(),
    callId: uuid('call_id').notNull(),
    /** What the provider answers for GET /call/{id}. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    /** The simulated conversation stopped playing (a phone left ringing has, by then, stopped ringing). */
    conversationFinished: boolean('conversation_finished').notNull().default(false),
    cancelled: boolean('cancelled').notNull().default(false),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.providerCallId] }),
    index('simulated_voice_call_provider_call_idx').on(table.providerCallId),
    index('simulated_voice_call_created_idx').on(table.createdAt),
  ],
);
