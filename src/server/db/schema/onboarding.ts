import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { OnboardingStep, StarterSequenceTemplateKey } from '../../../contract/onboarding';
import { createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';

/** The ids an onboarding made, step by step (each still checked against its table when read). */
export interface OnboardingMade {
  ownerInvitationId?: string;
  trialId?: string;
  prescreenFormId?: string;
  chatAgentId?: string;
  voiceAgentId?: string;
  sequenceId?: string;
  sequenceTemplate?: StarterSequenceTemplateKey;
}

/**
 * One onboarding of a new customer organization by an internal admin (decision 027): the step they are at
 * and what each step made, so it can be continued. A tenant row of the new organization.
 */
export const onboarding = pgTable(
  'onboarding',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    createdByUserId: text('created_by_user_id'),
    currentStep: text('current_step').$type<OnboardingStep>().notNull().default('owner'),
    made: jsonb('made').$type<OnboardingMade>().notNull().default({}),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [uniqueIndex('onboarding_organization_id_uidx').on(table.organizationId), index('onboarding_open_idx').on(table.completedAt, table.updatedAt)],
);
