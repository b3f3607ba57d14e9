import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import { candidate } from './candidates';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';
import { trial } from './trials';

/** A prescreen form of a trial; its questions live in versions, so results keep what they were asked. */
export const prescreenForm = pgTable(
  'prescreen_form',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    trialId: belongsTo('trial_id', () => trial.id),
    name: text('name').notNull(),
    status: text('status', { enum: ['draft', 'published', 'archived'] })
      .notNull()
      .default('draft'),
    currentVersion: integer('current_version').notNull().default(1),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('prescreen_form_organization_id_idx').on(table.organizationId), index('prescreen_form_trial_id_idx').on(table.trialId)],
);

/** One version of a form's study blocks. Immutable once a result points at it. */
export const prescreenFormVersion = pgTable(
  'prescreen_form_version',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    formId: belongsTo('form_id', () => prescreenForm.id),
    version: integer('version').notNull(),
    blocks: jsonb('blocks').$type<StudyBlock[]>().notNull(),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('prescreen_form_version_form_version_uidx').on(table.formId, table.version),
    index('prescreen_form_version_organization_id_idx').on(table.organizationId),
  ],
);

/** The outcome of one prescreen (a call, a chat or staff by hand): answers, evaluations, recommendation, review. */
export const prescreenResult = pgTable(
  'prescreen_result',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    trialId: belongsTo('trial_id', () => trial.id),
    formId: belongsTo('form_id', () => prescreenForm.id),
    formVersionId: uuid('form_version_id')
      .notNull()
      .references(() => prescreenFormVersion.id, { onDelete: 'restrict' }),
    sourceType: text('source_type', { enum: ['call', 'chat', 'manual'] }).notNull(),
    sourceId: text('source_id'),
    answers: jsonb('answers').$type<unknown[]>().notNull(),
    evaluations: jsonb('evaluations').$type<unknown[]>().notNull(),
    aiRecommendation: text('ai_recommendation', { enum: ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'] }).notNull(),
    aiReasons: jsonb('ai_reasons').$type<string[]>().notNull().default([]),
    reviewStatus: text('review_status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    decision: jsonb('decision').$type<Record<string, unknown>>(),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('prescreen_result_organization_created_idx').on(table.organizationId, table.createdAt),
    index('prescreen_result_candidate_idx').on(table.candidateId, table.createdAt),
  ],
);

/** A booked screening visit at a trial site. One scheduled booking per site slot. */
export const booking = pgTable(
  'booking',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    trialId: belongsTo('trial_id', () => trial.id),
    prescreenResultId: uuid('prescreen_result_id').references(() => prescreenResult.id, { onDelete: 'set null' }),
    /** The TrialSite id within the trial's sites (null only for old visits whose site could not be matched). */
    siteId: text('site_id'),
    siteName: text('site_name').notNull(),
    siteCity: text('site_city'),
    siteTimeZone: text('site_time_zone').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull().default(60),
    status: text('status', { enum: ['scheduled', 'cancelled', 'completed', 'no_show'] })
      .notNull()
      .default('scheduled'),
    notes: text('notes'),
    /** What became of the confirmation SMS: sent, failed, or blocked by consent. */
    confirmationSms: text('confirmation_sms', { enum: ['not_configured', 'queued', 'sent', 'failed', 'blocked'] })
      .notNull()
      .default('not_configured'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('booking_site_slot_uidx').on(table.organizationId, table.trialId, table.siteId, table.startsAt).where(sql`${table.status} = 'scheduled'`),
    index('booking_candidate_idx').on(table.candidateId),
  ],
);
