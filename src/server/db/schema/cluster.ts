import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Many processes on one database (decisions 122, 123); tables of no organization. A periodic sweep done once per
 * period across processes: whoever moves `next_at` claims the period.
 */
export const backgroundSweep = pgTable('background_sweep', {
  name: text('name').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

/** A counter per cached kind of row ('organizations'), moved by the rows' triggers in the changing transaction. */
export const cacheVersion = pgTable('cache_version', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** Every app process renews its row every heartbeat while it lives: a row older than a lease is a process gone. */
export const appInstance = pgTable('app_instance', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
});
