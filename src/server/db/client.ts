import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The database handle every query module takes: the same type on PGlite and PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** How pg-boss reaches the same database: its own pool on PostgreSQL, our single serialized connection on PGlite. */
export type JobDatabase = { connectionString: string } | { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> };

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  jobDatabase: JobDatabase;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * The HTTP server accepted a connection (http/listen.ts). Node accepts one new connection per event-loop turn, so
   * while connections keep arriving PGlite's queue hands the loop back before every job (decision 106). No-op on
   * PostgreSQL, whose queries do not hold the event loop.
   */
  connectionAccepted(): void;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** How long PGlite's queue works before letting the event loop read sockets (see SerializedPglite.run). */
const SLICE_MS = 10;
/** After a connection was accepted, how long the queue hands the event loop back before every job (decision 106). */
const ACCEPTING_MS = 20;

/**
 * PGlite is a single connection: a query issued while another caller's transaction is open would run
 * inside that transaction. This wrapper puts every query, exec and transaction through one queue.
 */
class SerializedPglite {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(readonly pglite: PGlite) {}

  /** When the queue last handed the event loop back (performance.now()). */
  private sliceStartedAt = 0;

  /** Until when (performance.now()) connections are arriving: see `connectionAccepted`. */
  private acceptingUntil = 0;

  /**
   * Node (libuv 1.46) accepts one pending connection per event-loop turn, and a turn lasts as long as a slice of
   * queued work: 50 connections opened at once were accepted over 0.6-1.4 s, and each one's first request waited
   * for that before it could even queue (decision 106, bench/api-load-trace.ts). While connections arrive, a turn
   * is one job, so they are let in at the pace the queue serves; once they stop, slices are SLICE_MS again.
   */
  connectionAccepted() {
    this.acceptingUntil = performance.now() + ACCEPTING_MS;
  }

  /**
   * Queued work is chained promises: left alone, the chain runs as one long stretch of microtasks while requests
   * keep arriving, and Node reads sockets and accepts connections only between such stretches (one new
   * connection per event-loop turn). Under 50 busy connections a new one then waited seconds for its first
   * answer, and requests that need no database (a cached get-session) waited with the rest. So after
   * SLICE_MS of work the next job starts from setImmediate, letting I/O in (decision 093).
   */
  private run<T>(work: () => Promise<T>): Promise<T> {
    const start = () => {
      const now = performance.now();
      if (now - this.sliceStartedAt < SLICE_MS && now >= this.acceptingUntil) return work();
      return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.sliceStartedAt = performance.now();
        return work();
      });
    };
    const result = this.tail.then(start, start);
    this.tail = result.catch(() => undefined);
    return result;
  }

  query(...args: Parameters<PGlite['query']>) {
    return this.run(() => this.pglite.query(...args));
  }
  exec(...args: Parameters<PGlite['exec']>) {
    return this.run(() => this.pglite.exec(...args));
  }
  transaction<T>(callback: Parameters<PGlite['transaction']>[0]) {
    return this.run(() => this.pglite.transaction(callback)) as Promise<T>;
  }
}

/**
 * PGlite is one process's database: a second opening of the same directory (another process, or a second
 * handle) corrupts it. A lock file beside it holding the owner's pid refuses the second with a clear message;
 * a lock left by a process that no longer runs (a crash) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir.replace(/\/+$/, '')}.lock`;
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(readFileSync(file, 'utf8').trim());
    let alive = false;
    try {
      alive = owner > 0 && process.kill(owner, 0);
    } catch {
      alive = false;
    }
    if (alive) throw new Error(`Another Cohortly process (pid ${owner}) is using the database in ${dataDir}; stop it or use another DATA_DIR`);
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}

/**
 * The planner's cost of a random page read, for our connections. The default (4) models spinning disks; PGlite
 * is all in memory and PostgreSQL servers today sit on SSDs. Row-level security makes the planner guess that
 * 1% of an organization's rows are visible, and with the default it then sorted every candidate for the
 * list's first page (26 ms at 10,000 rows) instead of reading 51 entries of the (organization, created) index
 * (0.5 ms). bench/api-load.ts measures it.
 */
const RANDOM_PAGE_COST = 1.1;

/** The handles opened on PGlite: the few places whose best SQL differs by engine ask `isPglite`. */
const pgliteHandles = new WeakSet<object>();
export const isPglite = (db: Database) => pgliteHandles.has(db);

/** Opens PGlite under `dataDir` (or in memory when `dataDir` is 'memory://'). */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  let unlock = () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  // pg_trgm: the substring search's indexes (migration 0031, decision 109).
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  await pglite.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  const client = new SerializedPglite(pglite);
  const db = drizzlePglite({ client: client as unknown as PGlite, schema });
  pgliteHandles.add(db);
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    jobDatabase: {
      // pg-boss installs its schema as one parameterless multi-statement text, which only exec accepts.
      async executeSql(text: string, values?: unknown[]) {
        if (!values?.length) return { rows: (await client.exec(text)).at(-1)?.rows ?? [] };
        return client.query(text, values as never[]);
      },
    },
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      await pglite.close();
      unlock();
    },
    connectionAccepted: () => client.connectionAccepted(),
  };
}

export async function openPostgres(connectionString: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: Number(process.env.DATABASE_POOL_SIZE ?? 10), options: `-c random_page_cost=${RANDOM_PAGE_COST}` });
  // An idle connection the server closed (a restart, a failover) must not crash the process: pg drops the
  // client and the next query opens a new one. Only the error code is written (no query data).
  pool.on('error', (error: Error & { code?: string }) => process.stderr.write(`database: idle connection lost (${error.code ?? error.name})\n`));
  // Keep timestamps as the database gives them (drizzle maps them); fail fast when the server is unreachable.
  await pool.query('select 1');
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    jobDatabase: { connectionString },
    migrate: () => migratePg(db, { migrationsFolder }),
    close: () => pool.end(),
    connectionAccepted: () => {},
  };
}

/** PostgreSQL when DATABASE_URL is set, the embedded PGlite under dataDir otherwise. */
export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(path.join(options.dataDir, 'pglite'));
}
