import { type AnyPgColumn, customType, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organization } from './organizations';

/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = <TName extends string>(name: TName, parent: () => AnyPgColumn) => uuid(name).notNull().references(parent, { onDelete: 'cascade' });

/** The owning organization of a tenant row: row-level security (app_org_visible) keys on it. */
export const organizationIdColumn = () => belongsTo('organization_id', () => organization.id);

export const createdAtColumn = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAtColumn = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Raw bytes (drizzle has no bytea column): read as a Buffer on both engines (PGlite's parser is replaced, db/client.ts). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
