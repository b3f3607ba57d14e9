/**
 * Many processes, one PostgreSQL (issue 33): `npm run bench:cluster-load -- [--url URL] [--rows 20000] [--users 50]
 * [--connections 50] [--duration 20] [--processes 1,3] [--imports 3] [--import-rows 10000] [--pooler URL]`.
 *
 * Seeds a scratch database on the PostgreSQL server at --url (one organization, N candidates, U signed-in staff), then
 * for each process count P starts P app processes on it (`npm start`'s wiring: the app, its job workers and sweeps;
 * BETTER_AUTH_SECRET shared), and:
 *  1. runs autocannon with C connections split over the P processes (as a load balancer without sticky sessions
 *     would), each connection signed in as one of the staff and cycling through mixed reads and writes: the candidate
 *     list, one candidate, a search by phone, a candidate created, a candidate changed. It prints requests/s, p50 and
 *     p99 over all answers, and the app processes' CPU per request (user + system of all P, not PostgreSQL's);
 *  2. starts I JSON imports of R rows each at once, one per process in turn, and prints rows/s until all are
 *     completed (each run is worked by whichever process's worker claims it).
 * --pooler URL: the processes connect through that pooler (PgBouncer in transaction mode, .ci/pgbouncer.ini) and keep
 * --url as DATABASE_DIRECT_URL. Loopback only, bounded in time; the scratch database is dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const serverUrl = option('url', 'postgres://postgres@127.0.0.1:5432/test');
const poolerUrl = option('pooler', '');
const rows = Number(option('rows', '20000'));
const users = Number(option('users', '50'));
const connections = Number(option('connections', '50'));
const duration = Number(option('duration', '20'));
const processCounts = option('processes', '1,3').split(',').map(Number);
const imports = Number(option('imports', '3'));
const importRows = Number(option('import-rows', '10000'));
const SECRET = 'bench-secret-with-enough-entropy-0123456789abcdef';
const PUBLIC_BASE_URL = 'http://localhost:3000';

const urlFor = (base: string, database: string) => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
};
const configEnv = (databaseUrl: string, directUrl?: string) => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/tmp/cohortly-bench-unused',
  DATABASE_URL: databaseUrl,
  ...(directUrl ? { DATABASE_DIRECT_URL: directUrl } : {}),
  BETTER_AUTH_SECRET: SECRET,
  PUBLIC_BASE_URL,
  ADMIN_EMAIL: 'admin@bench.test',
  ADMIN_PASSWORD: 'bench-admin-password',
  SIGN_IN_RATE_LIMIT_MAX: '100000',
});

interface Seeded {
  organizationId: string;
  cookies: string[];
  candidateIds: string[];
  phones: string[];
}

/** One app process as `npm start` wires it (no build: the API only), on a loopback port; "cpu" on stdin answers its CPU time. */
async function serve() {
  const { loadConfig } = await import('../src/server/config');
  const { openDatabase } = await import('../src/server/db/client');
  const { createDeps } = await import('../src/server/deps');
  const { createApp } = await import('../src/server/app');
  const { startBackgroundWork } = await import('../src/server/jobs/register');
  const { listenApp } = await import('../src/server/http/listen');
  const config = loadConfig({ ...process.env });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, databaseDirectUrl: config.databaseDirectUrl, dataDir: config.dataDir });
  const deps = createDeps(config, database);
  const app = createApp(deps);
  await startBackgroundWork(deps);
  const server = listenApp(app.fetch, database, { port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`PORT ${info.port}\n`));
  const stop = async () => {
    server.close();
    await deps.jobs.stop().catch(() => undefined);
    await database.close();
    process.exit(0);
  };
  process.stdin.on('data', (chunk) => {
    if (String(chunk).includes('cpu')) process.stdout.write(`CPU ${JSON.stringify(process.cpuUsage())}\n`);
  });
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.stdin.resume();
}

/** The scratch database migrated and seeded in this process through the app itself; closed before the processes start. */
async function seed(databaseUrl: string): Promise<Seeded> {
  const { loadConfig } = await import('../src/server/config');
  const { openPostgres } = await import('../src/server/db/client');
  const { createDeps } = await import('../src/server/deps');
  const { createApp } = await import('../src/server/app');
  const { bootstrap } = await import('../src/server/bootstrap');
  const { startBackgroundWork } = await import('../src/server/jobs/register');
  const config = loadConfig(configEnv(databaseUrl));
  const database = await openPostgres(databaseUrl);
  await database.migrate();
  const deps = createDeps(config, database);
  await bootstrap(deps.db, deps.auth, config);
  // The queues made once here, so the processes started together below find them.
  await startBackgroundWork(deps);
  const app = createApp(deps);
  const call = async (method: string, path: string, body: unknown, cookie = '') => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', origin: PUBLIC_BASE_URL, ...(cookie ? { cookie } : {}) },
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
  const organizationId = (await call('GET', '/api/auth/get-session', undefined, owner.cookie)).body.organization.id as string;
  await deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, email, status, created_at, updated_at)
    select ${organizationId}::uuid, 'First' || g, 'Last' || (g % 997), '+1215' || (200 + g / 10000)::text || lpad((g % 10000)::text, 4, '0'),
           'person' || g || '@bench.test', 'new', now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(1, ${rows}) g`);
  await deps.db.execute(sql`analyze candidate`);
  const sample = (await deps.db.execute(sql`select id, phone from candidate order by random() limit 200`)) as unknown as {
    rows: Array<{ id: string; phone: string }>;
  };
  const cookies = [owner.cookie];
  for (let index = 1; index < users; index++) {
    const email = `staff${index}@bench.test`;
    const added = await call(
      'POST',
      '/api/users/',
      { organizationId, email, name: `Staff ${index}`, role: 'coordinator', mode: 'add', password: 'bench-password-1' },
      owner.cookie,
    );
    if (added.status !== 201) throw new Error(`add user failed: ${added.status}`);
    cookies.push((await call('POST', '/api/auth/sign-in/email', { email, password: 'bench-password-1' })).cookie);
  }
  await deps.jobs.stop();
  await database.close();
  return { organizationId, cookies, candidateIds: sample.rows.map((row) => row.id), phones: sample.rows.map((row) => row.phone) };
}

interface Worker {
  child: ChildProcess;
  port: number;
  cpu(): Promise<number>;
}

/** Starts one app process and waits for its port. */
function startProcess(env: Record<string, string>): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  let buffer = '';
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const index = waiters.findIndex((waiter) => line.startsWith(waiter.prefix));
      if (index >= 0) waiters.splice(index, 1)[0].resolve(line);
      newline = buffer.indexOf('\n');
    }
  });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      waiters.push({ prefix, resolve: (line) => resolve(line.slice(prefix.length)) });
      child.once('exit', (code) => reject(new Error(`app process exited (${code})`)));
    });
  return next('PORT ').then((port) => ({
    child,
    port: Number(port),
    async cpu() {
      const answer = next('CPU ');
      child.stdin!.write('cpu\n');
      const usage = JSON.parse(await answer) as { user: number; system: number };
      return (usage.user + usage.system) / 1000;
    },
  }));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
};

let phoneCounter = 0;
/** A new valid US number for each created candidate: +1 646 2xx xxxx. */
const newPhone = () => `+1646${String(2_000_000 + ++phoneCounter * 7).slice(-7)}`;

/** C connections over the processes, mixed reads and writes, for `seconds`: every answer's time and status. */
async function load(workers: Worker[], seeded: Seeded, seconds: number) {
  const { default: autocannon } = await import('autocannon');
  const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
  const json = { 'content-type': 'application/json' };
  const requests = [
    { method: 'GET', path: '/api/candidates?limit=50' },
    { method: 'GET', setupRequest: (request: any) => ({ ...request, path: `/api/candidates/${pick(seeded.candidateIds)}` }) },
    { method: 'GET', setupRequest: (request: any) => ({ ...request, path: `/api/candidates?search=${encodeURIComponent(pick(seeded.phones))}` }) },
    {
      method: 'POST',
      path: '/api/candidates/',
      setupRequest: (request: any) => ({
        ...request,
        headers: { ...request.headers, ...json },
        body: JSON.stringify({ firstName: 'Load', lastName: 'Written', phone: newPhone() }),
      }),
    },
    {
      method: 'PATCH',
      setupRequest: (request: any) => ({
        ...request,
        path: `/api/candidates/${pick(seeded.candidateIds)}`,
        headers: { ...request.headers, ...json },
        body: JSON.stringify({ postalCode: String(10000 + Math.floor(Math.random() * 89999)) }),
      }),
    },
  ];
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const share = (index: number) => Math.floor(connections / workers.length) + (index < connections % workers.length ? 1 : 0);
  await Promise.all(
    workers.map(
      (worker, index) =>
        new Promise((resolve, reject) =>
          autocannon(
            {
              url: `http://127.0.0.1:${worker.port}`,
              connections: share(index),
              duration: seconds,
              requests,
              setupClient: (client: any) => {
                client.setHeaders({ cookie: seeded.cookies[next++ % seeded.cookies.length], accept: 'application/json', origin: PUBLIC_BASE_URL });
                client.on('response', (status: number, _bytes: number, responseTime: number) => {
                  times.push(responseTime);
                  statuses.set(status, (statuses.get(status) ?? 0) + 1);
                });
              },
            },
            (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result)),
          ),
        ),
    ),
  );
  return { times, statuses };
}

/** I JSON imports at once, one per process in turn: rows/s until every run is completed. */
async function importThroughput(workers: Worker[], seeded: Seeded, round: number) {
  const post = async (worker: Worker, cookie: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${worker.port}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { cookie, accept: 'application/json', origin: PUBLIC_BASE_URL, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const files = Array.from({ length: imports }, (_, file) => {
    const lines = ['first_name,last_name,phone,email'];
    // +1 7xx: area codes 718-720 apart per round and file, so every row is new.
    for (let row = 0; row < importRows; row++)
      lines.push(`Imported,Person${row},+1${718 + round}${String(2_000_000 + file * 200_000 + row).slice(-7)},import.${round}.${file}.${row}@bench.test`);
    return lines.join('\n');
  });
  const started = performance.now();
  const runs = await Promise.all(
    files.map(async (data, file) => {
      const answer = await post(workers[file % workers.length], seeded.cookies[file], '/api/candidates/bulk', { format: 'csv', data, duplicates: 'skip' });
      if (answer.status !== 202) throw new Error(`import: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      return answer.body.run.id as string;
    }),
  );
  const finished: any[] = [];
  for (const id of runs) {
    for (;;) {
      const answer = await post(workers[0], seeded.cookies[0], `/api/processing-runs/${id}/data?limit=1`);
      if (answer.body.run.status === 'completed' || answer.body.run.status === 'failed') {
        finished.push(answer.body.run);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const succeeded = finished.reduce((sum, run) => sum + (run.succeeded ?? 0), 0);
  return { seconds, succeeded, failedRuns: finished.filter((run) => run.status !== 'completed').length };
}

async function main() {
  const scratch = `cohortly_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const directUrl = urlFor(serverUrl, scratch);
  const load1 = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  try {
    const seeded = await seed(directUrl);
    console.log(
      `cluster-load: ${rows.toLocaleString('en-US')} candidates, ${connections} connections (${seeded.cookies.length} users), ${duration} s, ${poolerUrl ? 'through the pooler' : 'direct'}; imports ${imports} x ${importRows.toLocaleString('en-US')} rows`,
    );
    const env = poolerUrl ? configEnv(urlFor(poolerUrl, scratch), directUrl) : configEnv(directUrl);
    let round = 0;
    for (const count of processCounts) {
      const workers: Worker[] = [];
      for (let index = 0; index < count; index++) workers.push(await startProcess(env as Record<string, string>));
      await load(workers, seeded, 3);
      const before = await Promise.all(workers.map((worker) => worker.cpu()));
      const { times, statuses } = await load(workers, seeded, duration);
      const after = await Promise.all(workers.map((worker) => worker.cpu()));
      const cpuMs = after.reduce((sum, value, index) => sum + value - before[index], 0);
      const ok = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
      console.log(
        `${count} process${count > 1 ? 'es' : ''}: ${(times.length / duration).toFixed(0)} requests/s, p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, ` +
          `non-2xx ${times.length - ok} (${[...statuses].map(([status, n]) => `${status} x${n}`).join(', ')}); app CPU per request ${(cpuMs / times.length).toFixed(2)} ms ` +
          `(per process: ${after.map((value, index) => `${((100 * (value - before[index])) / (duration * 1000)).toFixed(0)}%`).join(', ')} of a core); load ${load1()}`,
      );
      const imported = await importThroughput(workers, seeded, round++);
      console.log(
        `  import: ${imports} runs x ${importRows.toLocaleString('en-US')} rows over ${count} process${count > 1 ? 'es' : ''}: ${imported.succeeded.toLocaleString('en-US')} rows in ${imported.seconds.toFixed(1)} s = ${(imported.succeeded / imported.seconds).toFixed(0)} rows/s; failed runs ${imported.failedRuns}`,
      );
      for (const worker of workers) worker.child.stdin!.end();
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.child.once('exit', resolve))));
    }
  } finally {
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await dropper.end();
  }
}

if (args.includes('--serve')) await serve();
else {
  await main();
  process.exit(0);
}
