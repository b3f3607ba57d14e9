import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, organizationIdColumn, updatedAtColumn } from './columns';

/**
 * The phone-number registry: which organization owns each of our numbers. A number (E.164) belongs to at
 * most one organization across the whole app; voice agents call from, and inbound calls are routed by,
 * these rows only. Assigned by Cohortly's internal admins (decision 016).
 */
export const phoneNumber = pgTable(
  'phone_number',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    /** E.164, unique across all organizations. */
    number: text('number').notNull(),
    provider: text('provider', { enum: ['simulator', 'twilio', 'vapi'] }).notNull(),
    purpose: text('purpose', { enum: ['voice', 'sms', 'both'] })
      .notNull()
      .default('voice'),
    label: text('label'),
    /** The provider's id of the number (Twilio's PN… sid, Vapi's phoneNumberId). */
    providerId: text('provider_id'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [uniqueIndex('phone_number_number_uidx').on(table.number), index('phone_number_organization_id_idx').on(table.organizationId)],
);
