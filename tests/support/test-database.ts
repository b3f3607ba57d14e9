import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type DatabaseHandle } from '../../src/server/db/client';

/**
 * The migrated empty database, dumped once per test process and opened by every in-memory test database after it:
 * a PGlite cluster's initdb and 40 migrations cost seconds each time, loading the dump a fraction of that (decision
 * 289). With the integration tier's shared module graph (`isolate: false`), a worker builds it for its first file.
 */
let migratedTemplate: Promise<Blob> | undefined;
function template(): Promise<Blob> {
  migratedTemplate ??= (async () => {
    const handle = await openPglite('memory://');
    await handle.migrate();
    const dump = await handle.dumpDataDir!();
    await handle.close();
    return dump;
  })();
  return migratedTemplate;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or, when TEST_DATABASE_URL
 * points at a PostgreSQL server, a throwaway database created there and dropped on close. `TEST_PGLITE_DIR` (the
 * benchmarks' `--pglite-dir`): PGlite in that directory on disk, as `npm start` opens it, instead of in memory.
 * `TEST_DATABASE_DIRECT_URL` (`npm run test:pgbouncer`): TEST_DATABASE_URL is a transaction-mode pooler and this is the
 * server behind it, where the throwaway database is created and dropped (a pooler runs no CREATE DATABASE); the app
 * and its job queue connect through the pooler (decision 125).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const onDisk = process.env.TEST_PGLITE_DIR;
    const handle = onDisk ? await openPglite(onDisk) : await openPglite('memory://', await template());
    // On the template, a check that finds every migration applied.
    await handle.migrate();
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_DIRECT_URL || serverUrl;
  const name = `cohortly_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export const databaseKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
