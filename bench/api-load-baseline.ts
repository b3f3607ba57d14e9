/**
 * The baseline for `bench/api-load.ts` (issue 17): the SQL the app runs for each kind of request, captured
 * from the app's own database client while one request of that kind is served, then replayed by 50 concurrent
 * clients as the table owner (no transaction, no row security) and under the app's row-security role (the same
 * transaction, `set_config` and statements the app sent). On PGlite the replay goes through the server's one
 * connection (its serialized queue), as the app's requests do.
 */
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
  /**
   * PGlite: sent through its transaction handle (`handle`, inside PGlite's own BEGIN/COMMIT), or straight to the engine
   * (`exec`: simple protocol; `query`) by the server's client, which then sent the BEGIN and COMMIT itself.
   */
  via?: 'handle' | 'exec' | 'query';
}

/** One request's statements: those of its row-security transaction, in order (begin/commit included on PostgreSQL). */
export interface CapturedRequest {
  transaction: Statement[];
  /** Statements sent outside the transaction (a session read), counted, not replayed. */
  outside: number;
}

type Kind = string;
export type Samples = Record<Kind, CapturedRequest[]>;

const isControl = (text: string) => /^\s*(begin|commit|rollback)\b/i.test(text);
/** The scope's statement (db/scoped.ts): the owner's replay leaves it out, the app role's keeps it. */
const isScope = (text: string) => text.includes("set_config('app.org_ids'");

/**
 * A whole transaction in one message (decision 114: `begin; <scope>; <query>; commit`, values written in as literals).
 * Replayed as sent under the app role; the owner runs its query alone.
 */
const isOneMessage = (text: string) => /^\s*begin;/i.test(text) && /;\s*commit\s*$/i.test(text);
/** Its statements (the app writes no `;` inside one: uuids, digits, E.164 phones and words only). */
const splitOneMessage = (statement: Statement): Statement[] => statement.text.split(/;\s*/).map((text) => ({ text, values: [], via: statement.via }));

/** The statements of a request's transaction the owner runs: the queries only. */
export const ownerStatements = (request: CapturedRequest) =>
  request.transaction
    .flatMap((statement) => (isOneMessage(statement.text) ? splitOneMessage(statement) : [statement]))
    .filter((statement) => !isControl(statement.text) && !isScope(statement.text));

/**
 * Records every statement the database client sends while `work` runs (one request at a time: nothing else may use
 * the database meanwhile). `client` is the drizzle handle's `$client`: PGlite's serialized queue or pg's pool.
 */
export async function capture(kind: 'pglite' | 'postgres', client: any, work: () => Promise<unknown>): Promise<CapturedRequest> {
  const seen: Array<Statement & { inTransaction: boolean; via?: Statement['via'] }> = [];
  if (kind === 'postgres') {
    const prototype = (client.Client ?? pg.Client).prototype;
    const original = prototype.query;
    let open = false;
    prototype.query = function (this: unknown, config: any, values?: any, callback?: any) {
      const text = typeof config === 'string' ? config : config?.text;
      const params = typeof config === 'string' ? values : (config?.values ?? (Array.isArray(values) ? values : undefined));
      if (typeof text === 'string') {
        if (/^\s*begin\b/i.test(text)) open = true;
        seen.push({ text, values: Array.isArray(params) ? [...params] : [], inTransaction: open });
        if (/^\s*(commit|rollback)\b/i.test(text) || isOneMessage(text)) open = false;
      }
      return original.call(this, config, values, callback);
    };
    try {
      await work();
    } finally {
      prototype.query = original;
    }
  } else {
    // PGlite: the statements of its own transaction's handle (drizzle's tx.query), and the engine's raw exec and
    // query calls made inside a transaction of the server's client (decision 111's BEGIN with the scope, its
    // statements and COMMIT), each with how it was sent.
    const raw = client.pglite;
    const transaction = client.transaction;
    const rawQuery = raw.query;
    const rawExec = raw.exec;
    let open = false;
    let inHandle = false;
    raw.query = (text: string, values?: unknown[], ...rest: unknown[]) => {
      if (!inHandle) seen.push({ text, values: [...(values ?? [])], inTransaction: open, via: 'query' });
      return rawQuery.call(raw, text, values, ...rest);
    };
    raw.exec = (text: string, ...rest: unknown[]) => {
      if (!inHandle) seen.push({ text, values: [], inTransaction: open || isOneMessage(text), via: 'exec' });
      return rawExec.call(raw, text, ...rest);
    };
    client.transaction = (callback: (tx: any) => Promise<unknown>) => {
      open = true;
      return transaction
        .call(client, (tx: any) =>
          callback(
            new Proxy(tx, {
              get(target, property) {
                if (property === 'query')
                  return (text: string, values?: unknown[], ...rest: unknown[]) => {
                    seen.push({ text, values: [...(values ?? [])], inTransaction: true, via: 'handle' });
                    inHandle = true;
                    try {
                      return target.query(text, values, ...rest);
                    } finally {
                      inHandle = false;
                    }
                  };
                const value = Reflect.get(target, property);
                return typeof value === 'function' ? value.bind(target) : value;
              },
            }),
          ),
        )
        .finally(() => {
          open = false;
        });
    };
    try {
      await work();
    } finally {
      client.transaction = transaction;
      raw.query = rawQuery;
      raw.exec = rawExec;
    }
  }
  return {
    transaction: seen.filter((statement) => statement.inTransaction).map(({ text, values, via }) => ({ text, values, via })),
    outside: seen.filter((statement) => !statement.inTransaction).length,
  };
}

export interface ReplayResult {
  /** Per kind: latencies in ms of one request's statements, sent one after the other. */
  latencies: Record<Kind, number[]>;
  seconds: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const p = percentile;

/**
 * `clients` loops for `seconds`, each cycling through `kinds` in order (as an autocannon connection cycles through its
 * requests) with a random sample of each; `run` sends one request's statements.
 */
async function loop(
  kinds: Kind[],
  samples: Samples,
  clients: number,
  seconds: number,
  run: (client: number, request: CapturedRequest) => Promise<void>,
): Promise<ReplayResult> {
  const latencies: Record<Kind, number[]> = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let sent = 0; performance.now() < until; sent++) {
        const kind = kinds[sent % kinds.length];
        const options = samples[kind];
        const request = options[Math.floor(Math.random() * options.length)];
        const at = performance.now();
        await run(client, request);
        latencies[kind].push(performance.now() - at);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** PostgreSQL: `clients` connections as `url`'s user (the migrating role, so the tables' owner). */
export async function replayPostgres(url: string, kinds: Kind[], samples: Samples, clients: number, seconds: number, asOwner: boolean) {
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      // The app's connection setting (db/client.ts RANDOM_PAGE_COST), so the plans are the app's.
      const client = new pg.Client({ connectionString: url, options: '-c random_page_cost=1.1' });
      await client.connect();
      return client;
    }),
  );
  try {
    const send = async (client: number, request: CapturedRequest) => {
      for (const statement of asOwner ? ownerStatements(request) : request.transaction) await connections[client].query(statement.text, statement.values);
    };
    // A short warm-up, so the connections' first plans are not measured.
    await loop(kinds, samples, clients, 2, send);
    return await loop(kinds, samples, clients, seconds, send);
  } finally {
    await Promise.all(connections.map((client) => client.end()));
  }
}

/** PGlite: the server's serialized client (one connection); the app role's replay is one queued transaction, as the app's. */
export async function replayPglite(client: any, kinds: Kind[], samples: Samples, clients: number, seconds: number, asOwner: boolean) {
  const send = async (_client: number, request: CapturedRequest) => {
    if (asOwner) {
      for (const statement of ownerStatements(request)) await client.query(statement.text, statement.values);
      return;
    }
    if (request.transaction.some((statement) => statement.via !== 'handle')) {
      // The server's client sent BEGIN and COMMIT itself: the same messages, as one job of its queue.
      const raw = client.pglite;
      await client.run(async () => {
        for (const statement of request.transaction) await (statement.via === 'exec' ? raw.exec(statement.text) : raw.query(statement.text, statement.values));
      });
      return;
    }
    await client.transaction(async (tx: any) => {
      for (const statement of request.transaction) await tx.query(statement.text, statement.values);
    });
  };
  await loop(kinds, samples, clients, 2, send);
  return loop(kinds, samples, clients, seconds, send);
}

/**
 * Each kind's statements (its first sample) under EXPLAIN (ANALYZE, BUFFERS): as the owner, then in a transaction
 * after the app's own scope statement, so under the row-security role. For finding where a kind's time goes.
 */
export async function explainAll(kind: 'pglite' | 'postgres', client: any, samples: Samples, print: (line: string) => void) {
  const run = async (executor: { query(text: string, values?: unknown[]): Promise<{ rows: any[] }> }, statement: Statement) => {
    const result = await executor.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
    for (const row of result.rows) print(`    ${row['QUERY PLAN']}`);
  };
  for (const [name, requests] of Object.entries(samples)) {
    const request = requests[0];
    if (!request) continue;
    const scopeStatement = request.transaction
      .flatMap((statement) => (isOneMessage(statement.text) ? splitOneMessage(statement) : [statement]))
      .find((statement) => isScope(statement.text));
    for (const statement of ownerStatements(request)) {
      print(`== ${name}: ${statement.text.slice(0, 160).replace(/\s+/g, ' ')}`);
      if (kind === 'postgres') {
        const connection = await client.connect();
        try {
          print('  -- owner');
          await run(connection, statement);
          print('  -- app role');
          await connection.query('begin');
          if (scopeStatement) await connection.query(scopeStatement.text.replace(/^\s*begin;\s*/i, ''), scopeStatement.values);
          await run(connection, statement);
          await connection.query('rollback');
        } finally {
          connection.release();
        }
      } else {
        print('  -- owner');
        await run(client, statement);
        print('  -- app role');
        await client.transaction(async (tx: any) => {
          if (scopeStatement) await tx.query(scopeStatement.text.replace(/^\s*begin;\s*/i, ''), scopeStatement.values);
          await run(tx, statement);
        });
      }
    }
  }
}
