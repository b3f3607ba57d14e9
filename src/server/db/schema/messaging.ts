import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { candidate } from './candidates';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';
import { prescreenForm, prescreenResult } from './prescreen';
import { trial } from './trials';

/** A chat agent: runs a trial's prescreen form as a conversation on the public chat page. */
export const chatAgent = pgTable(
  'chat_agent',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    name: text('name').notNull(),
    type: text('type', { enum: ['PRESCREEN'] })
      .notNull()
      .default('PRESCREEN'),
    trialId: uuid('trial_id').references(() => trial.id, { onDelete: 'set null' }),
    prescreenFormId: uuid('prescreen_form_id').references(() => prescreenForm.id, { onDelete: 'set null' }),
    greeting: jsonb('greeting').$type<{ en: string; es?: string }>().notNull(),
    closingMessage: jsonb('closing_message').$type<{ en: string; es?: string }>().notNull(),
    languages: jsonb('languages').$type<string[]>().notNull().default(['en', 'es']),
    requirePhoneVerification: boolean('require_phone_verification').notNull().default(true),
    nextStep: text('next_step', { enum: ['book_call', 'callback', 'visit', 'none'] })
      .notNull()
      .default('callback'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('chat_agent_organization_id_idx').on(table.organizationId)],
);

/** One visitor's conversation with a chat agent. The resume token and the SMS code are stored hashed. */
export const chatConversation = pgTable(
  'chat_conversation',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    chatAgentId: uuid('chat_agent_id').references(() => chatAgent.id, { onDelete: 'set null' }),
    candidateId: uuid('candidate_id').references(() => candidate.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['ONGOING', 'COMPLETED'] })
      .notNull()
      .default('ONGOING'),
    language: text('language').notNull().default('en'),
    isTest: boolean('is_test').notNull().default(false),
    tokenHash: text('token_hash').notNull(),
    /** E.164, as given by the visitor; confirmed once `phoneVerifiedAt` is set. */
    phone: text('phone'),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    verificationCodeHash: text('verification_code_hash'),
    verificationExpiresAt: timestamp('verification_expires_at', { withTimezone: true }),
    verificationAttempts: integer('verification_attempts').notNull().default(0),
    /** The dialogue engine's state: where it is in the form, the answers so far, re-asks. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    prescreenResultId: uuid('prescreen_result_id').references(() => prescreenResult.id, { onDelete: 'set null' }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('chat_conversation_organization_created_idx').on(table.organizationId, table.createdAt),
    index('chat_conversation_candidate_idx').on(table.candidateId),
  ],
);

export const chatMessage = pgTable(
  'chat_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    conversationId: belongsTo('conversation_id', () => chatConversation.id),
    role: text('role', { enum: ['visitor', 'agent', 'system'] }).notNull(),
    text: text('text').notNull(),
    /** For agent messages: the question asked; for visitor messages: the answer understood. */
    meta: jsonb('meta').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (table) => [index('chat_message_conversation_created_idx').on(table.conversationId, table.createdAt)],
);

/** Every SMS in or out, through the SMS port (Twilio or the simulator). */
export const smsMessage = pgTable(
  'sms_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: uuid('candidate_id').references(() => candidate.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: ['outbound', 'inbound'] }).notNull(),
    toPhone: text('to_phone').notNull(),
    fromPhone: text('from_phone').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'delivered', 'failed', 'undelivered', 'received', 'blocked'] }).notNull(),
    purpose: text('purpose', { enum: ['transactional', 'marketing', 'verification', 'reply'] })
      .notNull()
      .default('transactional'),
    provider: text('provider', { enum: ['simulator', 'twilio'] }).notNull(),
    providerMessageId: text('provider_message_id'),
    templateKey: text('template_key'),
    error: text('error'),
    sentByUserId: text('sent_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('sms_message_organization_created_idx').on(table.organizationId, table.createdAt),
    index('sms_message_candidate_created_idx').on(table.candidateId, table.createdAt),
    // Who texted a person from a number no organization owns (inbound routing, decision 118).
    index('sms_message_outbound_to_from_idx').on(table.toPhone, table.fromPhone).where(sql`${table.direction} = 'outbound'`),
    uniqueIndex('sms_message_provider_message_uidx').on(table.provider, table.providerMessageId).where(sql`${table.providerMessageId} is not null`),
  ],
);

/**
 * Fixed-window counters for public endpoints (the chat page), shared by every app process.
 * Keys hold a hash of the address, never the address itself.
 */
export const requestThrottle = pgTable('request_throttle', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
