import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { CriterionRule, TrialSite, TrialStatusChange } from '../../../contract/trials';
import { belongsTo, createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';

/** A clinical trial a site recruits for. */
export const trial = pgTable(
  'trial',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    title: text('title').notNull(),
    publicTitle: text('public_title'),
    nctId: text('nct_id'),
    sponsor: text('sponsor'),
    phase: text('phase'),
    conditions: jsonb('conditions').$type<string[]>().notNull().default([]),
    summary: text('summary'),
    targetEnrollment: integer('target_enrollment'),
    status: text('status', { enum: ['draft', 'recruiting', 'paused', 'closed'] })
      .notNull()
      .default('draft'),
    statusHistory: jsonb('status_history').$type<TrialStatusChange[]>().notNull().default([]),
    sites: jsonb('sites').$type<TrialSite[]>().notNull().default([]),
    minimumAgeYears: integer('minimum_age_years'),
    maximumAgeYears: integer('maximum_age_years'),
    sex: text('sex', { enum: ['all', 'female', 'male'] })
      .notNull()
      .default('all'),
    healthyVolunteers: boolean('healthy_volunteers'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('trial_organization_id_idx').on(table.organizationId), uniqueIndex('trial_organization_nct_id_uidx').on(table.organizationId, table.nctId)],
);

/** One eligibility criterion of a trial, in order; `rule` is its machine-readable form where one was read. */
export const trialCriterion = pgTable(
  'trial_criterion',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    trialId: belongsTo('trial_id', () => trial.id),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['inclusion', 'exclusion'] }).notNull(),
    text: text('text').notNull(),
    rule: jsonb('rule').$type<CriterionRule>(),
    /** Where the rule came from: the record's structured fields, the text, or a person. */
    ruleSource: text('rule_source', { enum: ['structured', 'text', 'manual', 'llm'] }),
    needsReview: boolean('needs_review').notNull().default(true),
    /** The cohort or subgroup the criterion applies to ("Healthy controls"); null: everybody. */
    population: text('population'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('trial_criterion_trial_id_position_idx').on(table.trialId, table.position),
    index('trial_criterion_organization_id_idx').on(table.organizationId),
  ],
);
