import { timestamp, uuid } from 'drizzle-orm/pg-core';
import { organization } from './organizations';

/** The owning organization of a tenant row: row-level security (app_org_visible) keys on it. */
export const organizationIdColumn = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' });

export const createdAtColumn = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAtColumn = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
