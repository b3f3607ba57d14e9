/**
 * Many processes, one PostgreSQL (issue 33): `npm run bench:cluster-load -- [--url URL] [--rows 20000] [--users 50]
 * [--connections 50] [--duration 20] [--warmup 3] [--processes 1,2,3] [--imports 3] [--import-rows 10000] [--pooler URL]
 * [--rate N | --rate-per-process N] [--loaded N] [--background all|first] [--idle S] [--cpu-prof DIR]`.
 *
 * Seeds a scratch database on the PostgreSQL server at --url (one organization, N candidates, U signed-in staff), then
 * for each process count P starts P app processes on it (`npm start`'s wiring: the app, its job workers and sweeps;
 * BETTER_AUTH_SECRET shared), and:
 *  1. runs autocannon with C connections split over the P processes (as a load balancer without sticky sessions
 *     would), each connection signed in as one of the staff and cycling through mixed reads and writes: the candidate
 *     list, one candidate, a search by phone, a candidate created, a candidate changed. It prints requests/s, p50 and
 *     p99 over all answers, and CPU per request: the app processes' (user + system of all P, split into their main
 *     threads and V8's helper threads), PostgreSQL's (every `postgres` process) and the load generator's (this
 *     process, on the same cores), with how busy the machine was and how much of that was nobody's here (other work);
 *  2. starts I JSON imports of R rows each at once, one per process in turn, and prints rows/s until all are
 *     completed (each run is worked by whichever process's worker claims it).
 * To find where CPU per request goes: --rate N offers N requests/s in all instead of as many as are answered, and
 * --rate-per-process N offers N per process (the same load on each process whatever their number);
 * --loaded N sends requests to the first N processes only (the others run idle and are counted); --background first
 * runs the background work (job polling, sweeps, heartbeats, cron) in the first process only; --idle S measures each
 * process's CPU over S idle seconds first; --cpu-prof DIR writes each process's V8 profile of the measured run.
 * --pooler URL: the processes connect through that pooler (PgBouncer in transaction mode, .ci/pgbouncer.ini) and keep
 * --url as DATABASE_DIRECT_URL. Loopback only, bounded in time; the scratch database is dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
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
const processCounts = option('processes', '1,2,3').split(',').map(Number);
const imports = Number(option('imports', '3'));
const importRows = Number(option('import-rows', '10000'));
/** Total requests/s offered over all processes (0: as fast as the answers come). */
const totalRate = Number(option('rate', '0'));
/** Requests/s offered to each process (so P processes get P times as many): the same load per process at every count. */
const ratePerProcess = Number(option('rate-per-process', '0'));
const rateFor = (processes: number) => ratePerProcess * processes || totalRate;
/** 'all': every process runs its background work (as `npm start`); 'first': only the first, the others serve HTTP only. */
const background = option('background', 'all');
/** Only the first N processes get requests (0: all); the others run and are counted, idle (the cost of their presence). */
const loaded = Number(option('loaded', '0'));
/** Seconds of load before the measured run (each process's JIT and caches warm). */
const warmup = Number(option('warmup', '3'));
/** Seconds of idle CPU measured per process before the load (0: none). */
const idleSeconds = Number(option('idle', '0'));
/** A directory for each app process's V8 CPU profile of the measured run (cluster-P-I.cpuprofile). */
const cpuProfileDir = option('cpu-prof', '');
const SECRET = 'bench-secret-with-enough-entropy-0123456789abcdef';
const PUBLIC_BASE_URL = 'http://localhost:3000';
const STAFF_PASSWORD = 'Quartz-Harbor-Lantern-8142';

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
  // BENCH_BACKGROUND=off: the queue started for the requests' sends, but no workers, heartbeat, sweeps or cron here.
  if (process.env.BENCH_BACKGROUND === 'off') await deps.jobs.start();
  else await startBackgroundWork(deps);
  const server = listenApp(app.fetch, database, { port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`PORT ${info.port}\n`));
  const stop = async () => {
    server.close();
    await deps.jobs.stop().catch(() => undefined);
    await database.close();
    process.exit(0);
  };
  // --cpu-prof: V8's sampling profiler over the measured run only (not start-up or warm-up), written where asked.
  const { Session } = await import('node:inspector/promises');
  const inspector = new Session();
  process.stdin.on('data', async (chunk) => {
    const text = String(chunk);
    if (text.includes('profile-start')) {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    }
    const stop = /profile-stop (\S+)/.exec(text);
    if (stop) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(stop[1], JSON.stringify(profile));
      inspector.disconnect();
      process.stdout.write('PROFILED\n');
    }
    if (/^cpu$/m.test(text)) process.stdout.write(`CPU ${JSON.stringify(process.cpuUsage())}\n`);
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
  // The organization made by the bootstrap's admin, its staff added with a password (sign-up now waits for a mailed
  // link, decision 121); the staff pass the password policy.
  const admin = await call('POST', '/api/auth/sign-in/email', { email: 'admin@bench.test', password: 'bench-admin-password' });
  if (admin.status !== 200) throw new Error(`admin sign-in failed: ${admin.status}`);
  const organization = await call('POST', '/api/organizations/', { name: 'Bench Site' }, admin.cookie);
  if (organization.status !== 201) throw new Error(`organization failed: ${organization.status} ${JSON.stringify(organization.body)}`);
  const organizationId = organization.body.id as string;
  await deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, email, status, created_at, updated_at)
    select ${organizationId}::uuid, 'First' || g, 'Last' || (g % 997), '+1215' || (200 + g / 10000)::text || lpad((g % 10000)::text, 4, '0'),
           'person' || g || '@bench.test', 'new', now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(1, ${rows}) g`);
  await deps.db.execute(sql`analyze candidate`);
  const sample = (await deps.db.execute(sql`select id, phone from candidate order by random() limit 200`)) as unknown as {
    rows: Array<{ id: string; phone: string }>;
  };
  const cookies: string[] = [];
  for (let index = 0; index < users; index++) {
    const email = `staff${index}@bench.test`;
    const added = await call(
      'POST',
      '/api/users/',
      { organizationId, email, name: `Staff ${index}`, role: 'coordinator', mode: 'add', password: STAFF_PASSWORD },
      admin.cookie,
    );
    if (added.status !== 201) throw new Error(`add user failed: ${added.status} ${JSON.stringify(added.body)}`);
    const signedIn = await call('POST', '/api/auth/sign-in/email', { email, password: STAFF_PASSWORD });
    if (signedIn.status !== 200) throw new Error(`staff sign-in failed: ${signedIn.status}`);
    cookies.push(signedIn.cookie);
  }
  await deps.jobs.stop();
  await database.close();
  return { organizationId, cookies, candidateIds: sample.rows.map((row) => row.id), phones: sample.rows.map((row) => row.phone) };
}

interface Worker {
  child: ChildProcess;
  port: number;
  cpu(): Promise<number>;
  /** Starts, or stops and writes to `file`, V8's CPU profile of the process (--cpu-prof). */
  profile(file?: string): Promise<void>;
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
    async profile(file?: string) {
      if (!file) {
        child.stdin!.write('profile-start\n');
        return;
      }
      const written = next('PROFILED');
      child.stdin!.write(`profile-stop ${file}\n`);
      await written;
    },
  }));
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/**
 * CPU time (ms) spent so far by the whole machine (every core, /proc/stat), by PostgreSQL's processes (every
 * `postgres` process: its backends, walwriter, checkpointer...; on a shared machine other databases' work too), and by
 * this process (the load generator). What is left of the machine's busy time is everyone else's.
 */
function cpuSnapshot() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq] = fields.map(Number);
  let postgres = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const rest = stat.slice(close + 2).split(' ');
    postgres += Number(rest[11]) + Number(rest[12]); // utime, stime (fields 14 and 15)
  }
  const own = process.cpuUsage();
  return {
    busyMs: (user + nice + system + irq + softirq) * TICK_MS,
    totalMs: (user + nice + system + idle + iowait + irq + softirq) * TICK_MS,
    postgresMs: postgres * TICK_MS,
    loadGeneratorMs: (own.user + own.system) / 1000,
  };
}

/**
 * An app process's CPU time (ms) by thread (/proc/PID/task): the main thread (the event loop: requests, SQL results,
 * JSON) and the rest (V8's helpers: concurrent garbage collection and optimizing compiles; libuv's pool: crypto, files).
 * Node names them all `node`; the main thread's id is the process id.
 */
function threadCpu(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = Number(task) === pid ? 'main thread' : 'helper threads';
      byThread.set(name, (byThread.get(name) ?? 0) + (Number(rest[11]) + Number(rest[12])) * TICK_MS);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return byThread;
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
  const rate = rateFor(workers.length);
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
              // --rate: the offered load split over the processes as the connections are.
              ...(rate ? { overallRate: Math.max(1, Math.round((rate * share(index)) / connections)) } : {}),
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

/** One process count's figures, for the side-by-side table. */
interface Measured {
  processes: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
  cpuPerRequestMs: number;
  /** PostgreSQL's processes' CPU per answer (all of them: on a shared machine, other databases' work too). */
  postgresPerRequestMs: number;
  /** autocannon's (this process's) CPU per answer: on the same two cores as the rest. */
  loadGeneratorPerRequestMs: number;
  /** The machine's busy share of all its cores over the run, and the part of it nobody above spent (other sessions). */
  machineBusyPercent: number;
  othersPercent: number;
  /** Each app process's CPU when idle (--idle), as a share of one core (average over the processes). */
  idleCpuPercent: number;
  importRowsPerSecond: number;
  load: string;
}

/**
 * The process counts side by side, each compared with the first (normally 1 process): requests/s, p50, p99, the app
 * processes' CPU per request and its growth per added process (the issue's bound: at most 10% per added process), and
 * the import throughput with that many workers.
 */
function sideBySide(results: Measured[]): string {
  const [base] = results;
  if (!base) return '';
  const label = (count: number) => `${count} process${count > 1 ? 'es' : ''}`;
  const cell = (text: string) => text.padStart(16);
  const row = (name: string, pick: (result: Measured) => string) => `${name.padEnd(34)}${results.map((result) => cell(pick(result))).join('')}`;
  const growth = (result: Measured) => {
    if (result === base || result.processes === base.processes) return '-';
    const perAdded = (result.cpuPerRequestMs / base.cpuPerRequestMs - 1) / (result.processes - base.processes);
    return `${perAdded >= 0 ? '+' : ''}${(100 * perAdded).toFixed(1)}%`;
  };
  const lines = [
    '',
    `side by side (mixed authenticated reads and writes${ratePerProcess ? `, ${ratePerProcess} requests/s offered per process` : totalRate ? `, ${totalRate} requests/s offered` : ''}${loaded ? `, to the first ${loaded} process(es) only` : ''}; background work in ${background === 'first' ? 'the first process only' : 'every process'}; ` +
      `${cpus().length} cores shared by the app processes, PostgreSQL and the load generator: ${Math.max(...results.map((result) => result.processes))} processes on ${cpus().length} cores oversubscribe them when busy):`,
    row('', (result) => label(result.processes)),
    row('requests/s', (result) => result.requestsPerSecond.toFixed(0)),
    row('p50 ms', (result) => result.p50.toFixed(0)),
    row('p99 ms', (result) => result.p99.toFixed(0)),
    row('non-2xx answers', (result) => String(result.failed)),
    row('app CPU per request ms (all procs)', (result) => result.cpuPerRequestMs.toFixed(2)),
    row(`  growth per added process`, growth),
    row('PostgreSQL CPU per request ms', (result) => result.postgresPerRequestMs.toFixed(2)),
    row('load generator CPU per request ms', (result) => result.loadGeneratorPerRequestMs.toFixed(2)),
    row(`machine busy (${cpus().length} cores) / others' %`, (result) => `${result.machineBusyPercent.toFixed(0)} / ${result.othersPercent.toFixed(0)}`),
    ...(idleSeconds > 0 ? [row('idle CPU per process, % of a core', (result) => result.idleCpuPercent.toFixed(2))] : []),
    row(`import rows/s (${imports} runs at once)`, (result) => result.importRowsPerSecond.toFixed(0)),
    row('load average (1, 5, 15 min)', (result) => result.load.replaceAll(' ', '/')),
  ];
  const over = results.filter((result) => result !== base && (result.cpuPerRequestMs / base.cpuPerRequestMs - 1) / (result.processes - base.processes) > 0.1);
  lines.push(
    over.length
      ? `CPU per request grew more than 10% per added process with ${over.map((result) => label(result.processes)).join(', ')}`
      : 'CPU per request grew at most 10% per added process',
  );
  return lines.join('\n');
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
    const results: Measured[] = [];
    for (const count of processCounts) {
      const workers: Worker[] = [];
      for (let index = 0; index < count; index++) {
        const off: Record<string, string> = background === 'first' && index > 0 ? { BENCH_BACKGROUND: 'off' } : {};
        workers.push(await startProcess({ ...(env as Record<string, string>), ...off }));
      }
      let idleCpuPercent = Number.NaN;
      if (idleSeconds > 0) {
        // Started and not asked anything: what the background work alone costs each process.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const idleBefore = await Promise.all(workers.map((worker) => worker.cpu()));
        await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
        const idleAfter = await Promise.all(workers.map((worker) => worker.cpu()));
        const perProcess = idleAfter.map((value, index) => (100 * (value - idleBefore[index])) / (idleSeconds * 1000));
        idleCpuPercent = perProcess.reduce((sum, value) => sum + value, 0) / count;
        console.log(
          `${count} process${count > 1 ? 'es' : ''} idle ${idleSeconds} s: ${perProcess.map((value) => `${value.toFixed(2)}%`).join(', ')} of a core`,
        );
      }
      const targets = loaded > 0 ? workers.slice(0, loaded) : workers;
      await load(targets, seeded, warmup);
      const before = await Promise.all(workers.map((worker) => worker.cpu()));
      if (cpuProfileDir) for (const worker of workers) await worker.profile();
      const threadsBefore = workers.map((worker) => threadCpu(worker.child.pid!));
      const machineBefore = cpuSnapshot();
      const { times, statuses } = await load(targets, seeded, duration);
      const machineAfter = cpuSnapshot();
      const threads = new Map<string, number>();
      workers.forEach((worker, index) => {
        for (const [name, ms] of threadCpu(worker.child.pid!)) threads.set(name, (threads.get(name) ?? 0) + ms - (threadsBefore[index].get(name) ?? 0));
      });
      const after = await Promise.all(workers.map((worker) => worker.cpu()));
      if (cpuProfileDir) for (const [index, worker] of workers.entries()) await worker.profile(`${cpuProfileDir}/cluster-${count}-${index + 1}.cpuprofile`);
      const cpuMs = after.reduce((sum, value, index) => sum + value - before[index], 0);
      const postgresMs = machineAfter.postgresMs - machineBefore.postgresMs;
      const loadGeneratorMs = machineAfter.loadGeneratorMs - machineBefore.loadGeneratorMs;
      const busyMs = machineAfter.busyMs - machineBefore.busyMs;
      const machineMs = machineAfter.totalMs - machineBefore.totalMs;
      const othersMs = Math.max(0, busyMs - cpuMs - postgresMs - loadGeneratorMs);
      const ok = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
      const perRequest = (ms: number) => (ms / times.length).toFixed(2);
      console.log(
        `${count} process${count > 1 ? 'es' : ''}: ${(times.length / duration).toFixed(0)} requests/s, p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, ` +
          `non-2xx ${times.length - ok} (${[...statuses].map(([status, n]) => `${status} x${n}`).join(', ')}); CPU per request: app ${perRequest(cpuMs)} ms ` +
          `(per process: ${after.map((value, index) => `${((100 * (value - before[index])) / (duration * 1000)).toFixed(0)}%`).join(', ')} of a core), ` +
          `PostgreSQL ${perRequest(postgresMs)} ms, load generator ${perRequest(loadGeneratorMs)} ms; machine busy ${((100 * busyMs) / machineMs).toFixed(0)}% ` +
          `of ${cpus().length} cores (others' work ${((100 * othersMs) / machineMs).toFixed(0)}%); load ${load1()}`,
      );
      console.log(
        `  app CPU per request by thread: ${[...threads]
          .filter(([, ms]) => ms > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${perRequest(ms)} ms`)
          .join(', ')}`,
      );
      const imported = await importThroughput(workers, seeded, round++);
      console.log(
        `  import: ${imports} runs x ${importRows.toLocaleString('en-US')} rows over ${count} process${count > 1 ? 'es' : ''}: ${imported.succeeded.toLocaleString('en-US')} rows in ${imported.seconds.toFixed(1)} s = ${(imported.succeeded / imported.seconds).toFixed(0)} rows/s; failed runs ${imported.failedRuns}`,
      );
      results.push({
        processes: count,
        requestsPerSecond: times.length / duration,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        failed: times.length - ok,
        cpuPerRequestMs: cpuMs / times.length,
        postgresPerRequestMs: postgresMs / times.length,
        loadGeneratorPerRequestMs: loadGeneratorMs / times.length,
        machineBusyPercent: (100 * busyMs) / machineMs,
        othersPercent: (100 * othersMs) / machineMs,
        idleCpuPercent,
        importRowsPerSecond: imported.succeeded / imported.seconds,
        load: load1(),
      });
      for (const worker of workers) worker.child.stdin!.end();
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.child.once('exit', resolve))));
    }
    console.log(sideBySide(results));
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
