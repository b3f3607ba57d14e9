import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction } from '@electric-sql/pglite';
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
  /** PGlite only: the whole data directory as a tarball, which `openPglite`'s `from` opens again (the tests' template). */
  dumpDataDir?(): Promise<Blob>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** How long PGlite's queue works before letting the event loop read sockets (see SerializedPglite.run). */
const SLICE_MS = 10;
/** After a connection was accepted, how long the queue hands the event loop back before every job (decision 106). */
const ACCEPTING_MS = 20;

/**
 * A transaction's first statement sent in the same message as its BEGIN (decision 111): `withRowSecurity`'s scope
 * statement. Every statement costs a round trip to PostgreSQL, or on PGlite its parse, describe, bind and execute
 * messages on the one thread that serves every request; the BEGIN and the scope together are one simple-protocol
 * message. `transactionWithPrelude` hands the text to the engine's client just for the synchronous start of
 * `db.transaction` (drizzle calls our client's `transaction` (PGlite) or the pool's `connect` (PostgreSQL) before
 * its first await), and the work learns whether it was sent; when not (a nested transaction, another handle), the
 * caller runs it itself. Only literal SQL the caller built from checked values: it is sent without parameters.
 */
export interface Prelude {
  readonly sql: string;
  sent: boolean;
}
const pendingPreludes = new WeakMap<object, Prelude>();
function takePrelude(client: object): Prelude | undefined {
  const prelude = pendingPreludes.get(client);
  pendingPreludes.delete(client);
  return prelude;
}

/** `db.transaction(work)`, with `preludeSql` sent with its BEGIN when the engine's client can (see `Prelude`). */
export function transactionWithPrelude<T, Tx>(
  db: { transaction(work: (tx: Tx) => Promise<T>): Promise<T> },
  preludeSql: string,
  work: (tx: Tx, preludeSent: boolean) => Promise<T>,
): Promise<T> {
  const client = (db as { $client?: object }).$client;
  const prelude: Prelude = { sql: preludeSql, sent: false };
  if (client) pendingPreludes.set(client, prelude);
  try {
    return db.transaction((tx) => work(tx, prelude.sent));
  } finally {
    // Whatever happened, nothing else may pick it up: the next transaction on this handle may be the owner's.
    if (client) pendingPreludes.delete(client);
  }
}

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

  /** The data directory as an uncompressed tarball, between two jobs of the queue. */
  dumpDataDir() {
    return this.run(() => this.pglite.dumpDataDir('none'));
  }

  /**
   * A whole transaction in one simple-protocol message (`oneMessageRead`), as one job of the queue. A failed statement
   * leaves its transaction open and aborted: rolled back before the next job.
   */
  execTransaction(text: string, options: Parameters<PGlite['exec']>[1]) {
    return this.run(async () => {
      try {
        return await this.pglite.exec(text, options);
      } catch (error) {
        await this.pglite.exec('rollback').catch(() => undefined);
        throw error;
      }
    });
  }
  exec(...args: Parameters<PGlite['exec']>) {
    return this.run(() => this.pglite.exec(...args));
  }
  transaction<T>(callback: Parameters<PGlite['transaction']>[0]) {
    const prelude = takePrelude(this);
    if (prelude) return this.run(() => this.transactionWith(prelude, callback)) as Promise<T>;
    return this.run(() => this.pglite.transaction(callback)) as Promise<T>;
  }

  /**
   * PGlite's own `transaction`, with the prelude in the BEGIN's message (its own sends BEGIN alone). Runs as one job
   * of the queue, so nothing else reaches the connection meanwhile, as with PGlite's.
   */
  private async transactionWith<T>(prelude: Prelude, callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const pglite = this.pglite;
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: (async (...args: Parameters<PGlite['query']>) => (open(), pglite.query(...args))) as Transaction['query'],
      sql: (async (...args: Parameters<PGlite['sql']>) => (open(), pglite.sql(...args))) as Transaction['sql'],
      exec: (async (...args: Parameters<PGlite['exec']>) => (open(), pglite.exec(...args))) as Transaction['exec'],
      listen: (async (...args: Parameters<PGlite['listen']>) => (open(), pglite.listen(...args))) as Transaction['listen'],
      rollback: async () => {
        open();
        await pglite.exec('rollback');
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as Transaction;
    await pglite.exec(`begin; ${prelude.sql}`);
    prelude.sent = true;
    try {
      const result = await callback(tx);
      if (!closed) {
        closed = true;
        const [done] = await pglite.exec('commit');
        // A statement failed and was caught: PostgreSQL ends such a transaction with ROLLBACK. PGlite's own
        // transaction refuses to call that a success, and so does this one.
        if (done?.command === 'ROLLBACK') throw new Error('The transaction was rolled back: a statement in it failed');
      }
      return result;
    } catch (error) {
      if (!closed) {
        closed = true;
        await pglite.exec('rollback');
      }
      throw error;
    }
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
 * The planner's cost of a random page read, for PGlite's connection (PostgreSQL's databases get the same value from
 * migration 0037, `ALTER DATABASE ... SET`: decision 125). The default (4) models spinning disks; PGlite
 * is all in memory and PostgreSQL servers today sit on SSDs. Row-level security makes the planner guess that
 * 1% of an organization's rows are visible, and with the default it then sorted every candidate for the
 * list's first page (26 ms at 10,000 rows) instead of reading 51 entries of the (organization, created) index
 * (0.5 ms). bench/api-load.ts measures it.
 */
const RANDOM_PAGE_COST = 1.1;

/** The handles opened on PGlite: the few places whose best SQL differs by engine ask `isPglite`. */
const pgliteHandles = new WeakSet<object>();
export const isPglite = (db: Database) => pgliteHandles.has(db);

const BYTEA_OID = 17;
/** A bytea in PostgreSQL's hex output ("\\x0a1b..."), into bytes. */
const parseBytea = (text: string): Uint8Array => Buffer.from(text.slice(2), 'hex');

/**
 * Opens PGlite under `dataDir` (or in memory when `dataDir` is 'memory://'). `from`: a data directory dumped by
 * `dumpDataDir`, opened instead of a fresh cluster (the tests' migrated template: no initdb, no migrations).
 */
export async function openPglite(dataDir: string, from?: Blob): Promise<DatabaseHandle> {
  let unlock = () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  // pg_trgm: the substring search's indexes (migration 0031, decision 109). bytea read by Node's own hex decoder,
  // as node-postgres does: PGlite's parses each byte with parseInt (a match run's packed facts, decision 113).
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm }, parsers: { [BYTEA_OID]: parseBytea }, loadDataDir: from });
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
    dumpDataDir: () => client.dumpDataDir(),
  };
}

/**
 * pg's pool, handing a pending prelude (see `Prelude`) to the connection it gives drizzle's transaction: that
 * connection's first query, drizzle's `begin`, is sent as `begin; <prelude>` (no parameters: the simple protocol,
 * which takes several statements in one message).
 */
class PreludePool extends pg.Pool {
  override connect(...args: unknown[]): any {
    // drizzle's transaction calls connect() with no callback; pg's own pool.query passes one and never takes it.
    if (args.length) return (super.connect as (...rest: unknown[]) => unknown)(...args);
    const prelude = takePrelude(this);
    if (!prelude) return super.connect();
    return super.connect().then((client) => {
      const instance = client as unknown as { query: (...rest: unknown[]) => unknown };
      const query = instance.query;
      instance.query = (config: unknown, values?: unknown, callback?: unknown) => {
        // One shot: the connection goes back to the pool as it came.
        delete (instance as { query?: unknown }).query;
        const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
        const noValues = values === undefined || (Array.isArray(values) && values.length === 0);
        if (typeof text !== 'string' || text.trim().toLowerCase() !== 'begin' || !noValues) return query.call(client, config, values, callback);
        const combined = `begin; ${prelude.sql}`;
        prelude.sent = true;
        return query.call(client, typeof config === 'string' ? combined : { ...(config as object), text: combined }, values, callback);
      };
      return client;
    });
  }
}

/**
 * A read-only transaction sent as ONE simple-protocol message (decision 114): `begin; <statements>; commit`, where
 * `statements` are the scope's statement and one query, with their values written in as literals the caller built
 * only from checked values (uuids, integers, E.164 phones, statuses). One round trip instead of three (BEGIN with the
 * scope, the query, COMMIT): on PostgreSQL one write to its socket and one wait, on PGlite one call into the engine
 * instead of the query's six protocol steps and two execs. Answers the rows of the statement at `index` (0 being
 * `begin`), as arrays; undefined when the handle is neither engine's (the caller then takes its ordinary path).
 */
export async function oneMessageRead(
  db: Database,
  text: string,
  index: number,
  parsers: { pglite: Record<number, (value: string) => unknown>; pg: { getTypeParser: (...args: any[]) => any } },
): Promise<unknown[][] | undefined> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof SerializedPglite) {
    const results = await client.execTransaction(text, { rowMode: 'array', parsers: parsers.pglite });
    if (results.at(-1)?.command === 'ROLLBACK') throw new Error('The transaction was rolled back: a statement in it failed');
    return results[index].rows as unknown[][];
  }
  if (client instanceof PreludePool) {
    const connection = await client.connect();
    let results: pg.QueryResult[];
    try {
      results = (await connection.query({ text, rowMode: 'array', types: parsers.pg })) as unknown as pg.QueryResult[];
    } catch (error) {
      // Never back to the pool inside an aborted transaction: the connection is closed instead.
      connection.release(error as Error);
      throw error;
    }
    connection.release();
    return results[index].rows as unknown[][];
  }
  return undefined;
}

/**
 * PostgreSQL at `connectionString`, which may be a transaction-mode pooler (PgBouncer; decision 125): no startup
 * parameters (the planner's settings are the database's own, migration 0037) and no statement that outlives its
 * transaction (no named prepared statements, no session settings, advisory locks only `_xact`). `directUrl`
 * (DATABASE_DIRECT_URL), when given, is the server itself: the migrations and pg-boss's queue connect there, as
 * operators expect of work that holds a connection longer than one transaction.
 */
export async function openPostgres(connectionString: string, directUrl?: string): Promise<DatabaseHandle> {
  const pool = new PreludePool({ connectionString, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle connection the server closed (a restart, a failover) must not crash the process: pg drops the
  // client and the next query opens a new one. Only the error code is written (no query data).
  pool.on('error', (error: Error & { code?: string }) => process.stderr.write(`database: idle connection lost (${error.code ?? error.name})\n`));
  // Keep timestamps as the database gives them (drizzle maps them); fail fast when the server is unreachable.
  await pool.query('select 1');
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    jobDatabase: { connectionString: directUrl ?? connectionString },
    migrate: () => (directUrl ? migrateDirect(directUrl) : migratePg(db, { migrationsFolder })),
    close: () => pool.end(),
    connectionAccepted: () => {},
  };
}

/** The migrations over one connection of their own to the server itself (DATABASE_DIRECT_URL), closed after. */
async function migrateDirect(directUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: directUrl, max: 1 });
  try {
    await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder });
  } finally {
    await pool.end();
  }
}

/** PostgreSQL when DATABASE_URL is set (DATABASE_DIRECT_URL: the server behind its pooler), the embedded PGlite under dataDir otherwise. */
export function openDatabase(options: { databaseUrl?: string; databaseDirectUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.databaseDirectUrl) : openPglite(path.join(options.dataDir, 'pglite'));
}
