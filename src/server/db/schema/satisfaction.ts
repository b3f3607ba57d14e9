import { index, pgTable, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SatisfactionChannel } from '../../../contract/satisfaction';
import { createdAtColumn, organizationIdColumn } from './columns';
import { candidate } from './candidates';

/**
 * A patient's 1-5 rating of a chat, a call or a booking (decision 067), once per rated thing. The comment is the
 * patient's own words: personal data, never logged; the activity event carries only the number.
 */
export const satisfactionResponse = pgTable(
  'satisfaction_response',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: uuid('candidate_id').references(() => candidate.id, { onDelete: 'set null' }),
    trialId: uuid('trial_id'),
    channel: text('channel').$type<SatisfactionChannel>().notNull(),
    agentId: uuid('agent_id'),
    /** What was rated: the conversation, the call or the booking. */
    referenceId: text('reference_id').notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('satisfaction_response_reference_uidx').on(table.channel, table.referenceId),
    index('satisfaction_response_organization_created_idx').on(table.organizationId, table.createdAt),
  ],
);
