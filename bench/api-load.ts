/**
 * API load benchmark (issues 14, 17): `npm run bench:api-load -- [--db pglite|postgres] [--url URL] [--rows 100000]
 * [--connections 50] [--duration 20] [--users 50] [--app DIR] [--no-baseline]`.
 *
 * The parent process starts a child that opens the database (in-memory PGlite, or a scratch PostgreSQL
 * database), seeds one organization with N candidates and U signed-in staff, and serves the real app on a
 * loopback port. The parent then runs autocannon against it: C connections, each signed in as one of the staff,
 * cycling through five requests: the candidate list (first page), one candidate by id, a search by whole phone
 * number, a substring search of a name, and get-session. It prints requests/s and p50/p99 per kind.
 *
 * The baseline (issue 17, decision 111): before serving, the child captures the SQL the app sends for each kind
 * (bench/api-load-baseline.ts); right after autocannon it replays it with C concurrent clients for the same
 * duration, as the tables' owner and then under the app's row-security role, and the parent prints both beside the
 * app's figures with the ratio app / owner. `--app DIR` runs another checkout's server code (e.g. /work/main) under
 * this bench. Loopback only, bounded in time.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite');
const rows = Number(option('rows', '100000'));
const connections = Number(option('connections', '50'));
const duration = Number(option('duration', '20'));
const users = Number(option('users', '50'));
const serverUrl = option('url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
/** The checkout whose server code is measured (its src/server): this one by default. */
const appRoot = path.resolve(option('app', path.join(path.dirname(fileURLToPath(import.meta.url)), '..')));
const withBaseline = !args.includes('--no-baseline');
/** `--only byId` (or list, phone, substring, session): every connection sends that kind alone, as the issue's table measured each. */
const only = option('only', '');
/** Samples per kind: the ids, phones and terms autocannon picks from are the ones whose SQL was captured. */
const SAMPLES = 50;

interface Seeded {
  port: number;
  cookies: string[];
  candidateIds: string[];
  phones: string[];
  terms: string[];
  /** Statements per request of each kind: inside its transaction, and outside it (a session read). */
  statements: Record<string, { transaction: number; outside: number }>;
}

const KINDS = ['list', 'byId', 'phone', 'substring', 'session'] as const;
/** The kinds that run SQL (a cached get-session runs none): the baseline's cycle. */
const SQL_KINDS = ['list', 'byId', 'phone', 'substring'];
if (only && !(KINDS as readonly string[]).includes(only)) throw new Error(`--only: one of ${KINDS.join(', ')}`);
/** The kinds this run sends, in each connection's cycle, and those of them the baseline replays. */
const RUN_KINDS = (only ? [only] : [...KINDS]) as Array<(typeof KINDS)[number]>;
const RUN_SQL_KINDS = SQL_KINDS.filter((kind) => (RUN_KINDS as string[]).includes(kind));

async function serve() {
  const server_ = (module: string) => import(pathToFileURL(path.join(appRoot, 'src/server', `${module}.ts`)).href);
  const { listenApp } = await server_('http/listen');
  const { createApp } = await server_('app');
  const { bootstrap } = await server_('bootstrap');
  const { loadConfig } = await server_('config');
  const { openPglite, openPostgres } = await server_('db/client');
  const { createDeps } = await server_('deps');
  const baseline = await import('./api-load-baseline');

  let scratch: string | undefined;
  let database;
  let databaseUrl = '';
  if (dbKind === 'postgres') {
    scratch = `cohortly_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratch}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${scratch}`;
    databaseUrl = url.toString();
    database = await openPostgres(databaseUrl);
  } else database = await openPglite('memory://');
  await database.migrate();

  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/cohortly-bench-unused',
    BETTER_AUTH_SECRET: 'bench-secret-with-enough-entropy-0123456789abcdef',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    ADMIN_EMAIL: 'admin@bench.test',
    ADMIN_PASSWORD: 'bench-admin-password',
    SIGN_IN_RATE_LIMIT_MAX: '100000',
  });
  const deps = createDeps(config, database);
  await bootstrap(deps.db, deps.auth, config);
  const app = createApp(deps);

  const call = async (method: string, path: string, body: unknown, cookie = '') => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', origin: config.publicBaseUrl, ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers
      .getSetCookie()
      .map((line: string) => line.split(';')[0])
      .join('; ');
    return { status: response.status, body: (await response.json().catch(() => null)) as any, cookie: setCookie };
  };

  const owner = await call('POST', '/api/auth/sign-up/email', {
    name: 'Bench Owner',
    email: 'owner@bench.test',
    password: 'bench-password-1',
    organizationName: 'Bench Site',
  });
  if (owner.status !== 200) throw new Error(`sign-up failed: ${owner.status}`);
  const session = await call('GET', '/api/auth/get-session', undefined, owner.cookie);
  const organizationId = session.body.organization.id as string;

  const started = Date.now();
  // Candidates straight into the table (the import path has its own benchmark): unique, valid US phones (exchange
  // 200-210, so a whole-number search is an exact match), spread statuses.
  const statuses = ['new', 'contacted', 'prescreened', 'eligible', 'ineligible', 'scheduled', 'enrolled', 'declined', 'unreachable', 'do_not_contact'];
  await deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, email, date_of_birth, sex, status, created_at, updated_at)
    select ${organizationId}::uuid, 'First' || g, 'Last' || (g % 997), '+1215' || (200 + g / 10000)::text || lpad((g % 10000)::text, 4, '0'), 'person' || g || '@bench.test',
           date '1950-01-01' + (g % 18000), (array['female','male','other','unknown'])[1 + g % 4],
           (${sql.raw(`array[${statuses.map((status) => `'${status}'`).join(',')}]`)})[1 + g % 10],
           now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(1, ${rows}) g`);
  await deps.db.execute(sql`analyze candidate`);
  const ids = (await deps.db.execute(sql`select id, phone from candidate order by random() limit ${SAMPLES}`)) as unknown as {
    rows: Array<{ id: string; phone: string }>;
  };
  process.stderr.write(`seeded ${rows} candidates in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const cookies = [owner.cookie];
  for (let index = 1; index < users; index++) {
    const email = `staff${index}@bench.test`;
    const added = await call(
      'POST',
      '/api/users/',
      { organizationId, email, name: `Staff ${index}`, role: 'coordinator', mode: 'add', password: 'bench-password-1' },
      owner.cookie,
    );
    if (added.status !== 201) throw new Error(`add user failed: ${added.status} ${JSON.stringify(added.body)}`);
    const signedIn = await call('POST', '/api/auth/sign-in/email', { email, password: 'bench-password-1' });
    if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status}`);
    cookies.push(signedIn.cookie);
  }

  // A substring of a first name ("irst4821": First4821 and First48210-48219 at 100,000 rows, 11 people, so the page
  // holds every match and no count runs): a person looked up by part of a name, served by the trigram indexes
  // (decision 109).
  const terms = Array.from({ length: SAMPLES }, () => `irst${1000 + Math.floor(Math.random() * Math.min(9000, Math.max(1, rows - 1000)))}`);
  const paths: Record<string, string[]> = {
    list: Array.from({ length: SAMPLES }, () => '/api/candidates?limit=50'),
    byId: ids.rows.map((row) => `/api/candidates/${row.id}`),
    phone: ids.rows.map((row) => `/api/candidates?search=${encodeURIComponent(row.phone)}`),
    substring: terms.map((term) => `/api/candidates?search=${encodeURIComponent(term)}`),
    session: ['/api/auth/get-session'],
  };
  // The SQL of each kind, one request at a time, each user's session already cached (as under load). The first list
  // counts its 10,001 rows; the next ones within 10 s do not (decision 093): both are kept, the steady state replayed.
  const get = (path: string, cookie: string) => app.request(path, { headers: { cookie, accept: 'application/json', origin: config.publicBaseUrl } });
  for (const cookie of cookies) await get('/api/auth/get-session', cookie);
  const samples: Record<string, import('./api-load-baseline').CapturedRequest[]> = {};
  const client = (deps.db as unknown as { $client: object }).$client;
  let listCounted: import('./api-load-baseline').CapturedRequest | undefined;
  for (const kind of Object.keys(paths)) {
    samples[kind] = [];
    for (const [index, path] of paths[kind].entries()) {
      const captured = await baseline.capture(dbKind as 'pglite' | 'postgres', client, async () => {
        const response = await get(path, cookies[index % cookies.length]);
        if (response.status !== 200) throw new Error(`${kind}: ${response.status}`);
        await response.arrayBuffer();
      });
      if (kind === 'list' && !listCounted) listCounted = captured;
      else samples[kind].push(captured);
    }
  }
  const statements = Object.fromEntries(
    Object.entries({ ...samples, 'list (first, counting)': [listCounted!] }).map(([kind, captured]) => [
      kind,
      { transaction: captured[0].transaction.length, outside: captured[0].outside },
    ]),
  );

  // BENCH_EXPLAIN=1: each kind's statements under EXPLAIN (ANALYZE, BUFFERS), as the owner and under the app role.
  if (process.env.BENCH_EXPLAIN) await baseline.explainAll(dbKind as 'pglite' | 'postgres', client, samples, (line) => process.stderr.write(`${line}\n`));

  const trace = process.env.BENCH_TRACE
    ? (await import('./api-load-trace')).installTrace(process.env.BENCH_TRACE, {
        app,
        sessions: deps.sessions,
        client: (deps.db as unknown as { $client: object }).$client,
      })
    : undefined;
  const server = listenApp(trace?.fetch ?? app.fetch, database, { port: 0, hostname: '127.0.0.1' }, (info: { port: number }) => {
    const seeded: Seeded = {
      port: info.port,
      cookies,
      candidateIds: ids.rows.map((row) => row.id),
      phones: ids.rows.map((row) => row.phone),
      terms,
      statements,
    };
    process.stdout.write(`${JSON.stringify(seeded)}\n`);
    if (process.env.BENCH_SEEDED_FILE) writeFileSync(process.env.BENCH_SEEDED_FILE, JSON.stringify(seeded));
  });
  trace?.attach(server as unknown as import('node:http').Server);
  const stop = async () => {
    trace?.write();
    server.close();
    await deps.jobs.stop().catch(() => undefined);
    await database.close();
    if (scratch) {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await dropper.end();
    }
    process.exit(0);
  };
  // The parent asks for the baseline right after autocannon's run ("baseline" on stdin), then closes stdin.
  const replay = async () => {
    const result: Record<string, unknown> = {};
    for (const asOwner of [true, false]) {
      result[asOwner ? 'owner' : 'appRole'] =
        dbKind === 'postgres'
          ? await baseline.replayPostgres(databaseUrl, RUN_SQL_KINDS, samples, connections, duration, asOwner)
          : await baseline.replayPglite(client, RUN_SQL_KINDS, samples, connections, duration, asOwner);
    }
    // The list as it runs once per 10 s, with its count (one client, one request at a time).
    result.listCounted =
      dbKind === 'postgres'
        ? {
            owner: await baseline.replayPostgres(databaseUrl, ['list'], { list: [listCounted!] }, 1, 3, true),
            appRole: await baseline.replayPostgres(databaseUrl, ['list'], { list: [listCounted!] }, 1, 3, false),
          }
        : {
            owner: await baseline.replayPglite(client, ['list'], { list: [listCounted!] }, 1, 3, true),
            appRole: await baseline.replayPglite(client, ['list'], { list: [listCounted!] }, 1, 3, false),
          };
    process.stdout.write(`BASELINE ${JSON.stringify(result)}\n`);
  };
  let input = '';
  process.stdin.on('data', (chunk) => {
    input += chunk;
    // "cpu": this process's CPU time so far (decision 114: the server's CPU per request, which a busy machine moves
    // less than the rates and latencies).
    while (input.includes('cpu\n')) {
      input = input.replace('cpu\n', '');
      process.stdout.write(`CPU ${JSON.stringify(process.cpuUsage())}\n`);
    }
    if (input.includes('baseline\n')) {
      input = '';
      void replay().catch((error) => {
        process.stderr.write(`baseline failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.stdout.write('BASELINE null\n');
      });
    }
  });
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function run() {
  const { default: autocannon } = await import('autocannon');
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []),
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--serve',
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let buffer = '';
  const lineStarting = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const lines = buffer.split('\n');
        const index = lines.findIndex((line, i) => i < lines.length - 1 && line.startsWith(prefix));
        if (index < 0) return false;
        buffer = lines.slice(index + 1).join('\n');
        child.stdout!.off('data', onData);
        resolve(lines[index].slice(prefix === '{' ? 0 : prefix.length));
        return true;
      };
      const onData = () => look();
      if (!look()) child.stdout!.on('data', onData);
      child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
  child.stdout!.on('data', (chunk) => (buffer += chunk));
  const seeded = JSON.parse(await lineStarting('{')) as Seeded;

  const base = `http://127.0.0.1:${seeded.port}`;
  const latencies: Record<(typeof KINDS)[number], number[]> = { list: [], byId: [], phone: [], substring: [], session: [] };
  const statuses = new Map<number, number>();
  const firstResponses: number[] = [];
  const clientTrace: Array<{ setupAt: number; answeredAt: number; responseTime: number }> = [];
  const laterLists: number[] = [];
  let next = 0;
  const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
  /** A GET whose path is made afresh for each request from one of the captured samples. */
  const sampled = (pathOf: () => string) => ({ method: 'GET' as const, setupRequest: (request: any) => ({ ...request, path: pathOf() }) });
  const requestOf: Record<(typeof KINDS)[number], object> = {
    list: { method: 'GET' as const, path: '/api/candidates?limit=50' },
    byId: sampled(() => `/api/candidates/${pick(seeded.candidateIds)}`),
    phone: sampled(() => `/api/candidates?search=${encodeURIComponent(pick(seeded.phones))}`),
    substring: sampled(() => `/api/candidates?search=${encodeURIComponent(pick(seeded.terms))}`),
    session: { method: 'GET' as const, path: '/api/auth/get-session' },
  };
  const requests = RUN_KINDS.map((kind) => requestOf[kind]);

  const once = (warmup: boolean) =>
    new Promise<any>((resolve, reject) => {
      const instance = autocannon(
        {
          url: base,
          connections,
          duration: warmup ? 3 : duration,
          requests,
          setupClient: (client: any) => {
            const cookie = seeded.cookies[next++ % seeded.cookies.length];
            client.setHeaders({ cookie, accept: 'application/json' });
            let sent = 0;
            const setupAt = performance.timeOrigin + performance.now();
            client.on('response', (status: number, _bytes: number, responseTime: number) => {
              if (!warmup && sent === 0 && process.env.BENCH_TRACE)
                clientTrace.push({ setupAt, answeredAt: performance.timeOrigin + performance.now(), responseTime });
              if (!warmup) {
                latencies[RUN_KINDS[sent % RUN_KINDS.length]].push(responseTime);
                // Every connection opens with the list, and on PGlite those first answers made the list's p99: new
                // connections were answered one every ~0.2 s while the others kept the server busy (decision 093).
                // Reported apart, so the tail's cause shows.
                if (sent === 0) firstResponses.push(responseTime);
                else if (RUN_KINDS[sent % RUN_KINDS.length] === 'list') laterLists.push(responseTime);
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
              }
              sent++;
            });
          },
        },
        (error: Error | null, result: any) => (error ? reject(error) : resolve(result)),
      );
      void instance;
    });

  await once(true);
  const cpuUsage = async () => {
    child.stdin!.write('cpu\n');
    return JSON.parse(await lineStarting('CPU ')) as { user: number; system: number };
  };
  const cpuBefore = await cpuUsage();
  const result = await once(false);
  const cpuAfter = await cpuUsage();
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const loadAfterApp = load();
  let replayed: any = null;
  if (withBaseline && RUN_SQL_KINDS.length > 0) {
    child.stdin!.write('baseline\n');
    replayed = JSON.parse(await lineStarting('BASELINE '));
  }
  child.stdin!.end();
  if (process.env.BENCH_TRACE) writeFileSync(`${process.env.BENCH_TRACE}.client`, clientTrace.map((row) => JSON.stringify(row)).join('\n'));

  const total = result.requests.total as number;
  const non2xx = (result.non2xx as number) + (result.errors as number);
  console.log(`\n${dbKind}, ${rows.toLocaleString('en-US')} candidates, ${connections} connections (${seeded.cookies.length} users), ${duration} s`);
  console.log(
    `${only ? `${only} only` : 'mixed'}: ${(total / duration).toFixed(0)} requests/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx/errors ${non2xx}`,
  );
  console.log(`statuses: ${[...statuses].map(([status, count]) => `${status} x${count}`).join(', ')}; timeouts ${result.timeouts}`);
  for (const kind of RUN_KINDS) {
    const values = latencies[kind];
    console.log(
      `  ${kind.padEnd(8)} n=${String(values.length).padStart(6)}  p50 ${percentile(values, 50).toFixed(0)} ms  p99 ${percentile(values, 99).toFixed(0)} ms`,
    );
  }
  const cpuMs = (key: 'user' | 'system') => (cpuAfter[key] - cpuBefore[key]) / 1000;
  console.log(
    `server CPU per request (the server process during the measured run, user + system): ${((cpuMs('user') + cpuMs('system')) / total).toFixed(2)} ms` +
      ` (user ${(cpuMs('user') / total).toFixed(2)}, system ${(cpuMs('system') / total).toFixed(2)}); the server busy ${((100 * (cpuMs('user') + cpuMs('system'))) / (duration * 1000)).toFixed(0)}% of one core`,
  );
  console.log(`load average (1, 5, 15 min) after the app's run: ${loadAfterApp}; after the baseline: ${load()}`);
  console.log(
    `statements per request (messages sent: in its transaction, counting BEGIN and COMMIT where the app's client sends them as messages of their own or with the scope, a whole transaction in one message (decision 114) as 1; outside it): ${Object.entries(
      seeded.statements,
    )
      .map(([kind, count]) => `${kind} ${count.transaction} + ${count.outside}`)
      .join(', ')}`,
  );
  if (replayed) printBaseline(latencies, replayed);
  console.log(
    `  ${RUN_KINDS[0]}, each connection's first answer: n=${firstResponses.length}  p50 ${percentile(firstResponses, 50).toFixed(0)} ms  max ${Math.max(...firstResponses).toFixed(0)} ms` +
      (laterLists.length > 0 ? `; the later lists: p50 ${percentile(laterLists, 50).toFixed(0)} ms  p99 ${percentile(laterLists, 99).toFixed(0)} ms` : ''),
  );
}

/** The app's figures beside the same SQL's, replayed by as many clients for as long (decision 111). */
function printBaseline(app: Record<string, number[]>, replayed: any) {
  const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '-');
  const pair = (values: number[]) => `${fmt(percentile(values, 50))} / ${fmt(percentile(values, 99))}`;
  const rate = (values: number[], seconds: number) => `${(values.length / seconds).toFixed(0)}/s`;
  console.log(
    `\nbaseline: the same SQL, ${connections} concurrent clients, ${duration} s each, right after the app's run` +
      (dbKind === 'pglite' ? " (PGlite: through the server's one connection, its queue, as the app's requests)" : ' (pg clients, one connection each)'),
  );
  console.log('  kind       app p50 / p99 (req/s)        owner p50 / p99 (req/s)      app role p50 / p99 (req/s)   app/owner p50, p99');
  for (const kind of RUN_SQL_KINDS) {
    const own = replayed.owner.latencies[kind] as number[];
    const role = replayed.appRole.latencies[kind] as number[];
    console.log(
      `  ${kind.padEnd(10)} ${`${pair(app[kind])} ms (${rate(app[kind], duration)})`.padEnd(28)} ${`${pair(own)} ms (${rate(own, replayed.owner.seconds)})`.padEnd(28)} ${`${pair(role)} ms (${rate(role, replayed.appRole.seconds)})`.padEnd(28)} ` +
        `${(percentile(app[kind], 50) / percentile(own, 50)).toFixed(1)}x, ${(percentile(app[kind], 99) / percentile(own, 99)).toFixed(1)}x`,
    );
  }
  const total = (side: any) => Object.values(side.latencies as Record<string, number[]>).reduce((sum, values) => sum + values.length, 0) / side.seconds;
  console.log(`  all SQL kinds: owner ${total(replayed.owner).toFixed(0)} requests/s, app role ${total(replayed.appRole).toFixed(0)} requests/s`);
  const counted = replayed.listCounted;
  console.log(
    `  the list's first page with its count (as it runs once per 10 s), one client: owner p50 ${fmt(percentile(counted.owner.latencies.list, 50))} ms, app role p50 ${fmt(percentile(counted.appRole.latencies.list, 50))} ms`,
  );
}

if (args.includes('--serve')) await serve();
else await run();
