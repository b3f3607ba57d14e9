import pg from 'pg';
import type { DatabaseHandle } from './client';

/**
 * The start-up of any number of processes on one PostgreSQL (decision 122): the schema's migrations and the job
 * queues' creation run under one advisory lock, so processes started together on a fresh database take turns
 * (without it, two migrate at once: a duplicate key in pg_type; two pg-boss create_queue calls deadlock). The
 * first does the work, the others find it done.
 *
 * The lock is a transaction-level lock (pg_advisory_xact_lock) held by a transaction left open on a dedicated
 * connection while the work runs on the app's own: it ends with that transaction or when the connection drops (a
 * process killed half-way never leaves it held), and a pooler in transaction mode keeps the connection pinned for
 * the transaction's length, where a session lock could be released on another server connection. PGlite is one
 * process: the work just runs.
 */

/** The one key of the start-up lock ('cohortly start-up'); bootstrap.ts's admin creation has its own (4242001). */
export const STARTUP_LOCK_KEY = 4242002;

export async function underStartupLock<T>(database: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  const { jobDatabase } = database;
  if (!('connectionString' in jobDatabase)) return work();
  const client = new pg.Client({ connectionString: jobDatabase.connectionString, application_name: 'cohortly start-up lock' });
  // A dropped connection ends the transaction and the lock; the error is the work's to report, not a crash here.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [STARTUP_LOCK_KEY]);
    const result = await work();
    await client.query('commit');
    return result;
  } finally {
    await client.end().catch(() => undefined);
  }
}
