import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../support/free-port';

/**
 * Several real app processes (src/server/main.ts in production mode, as `npm start` runs it) on one fresh
 * PostgreSQL database, sharing BETTER_AUTH_SECRET, as a deployment behind a load balancer runs them (issue 33,
 * decisions 122, 123). Claims lapse and sweeps run on the short timings below so a kill -9 is taken over in seconds.
 */

export const ADMIN_EMAIL = 'admin@cohortly.test';
export const ADMIN_PASSWORD = 'cluster-admin-password';
/** The timings the processes run with (production defaults: 60 s lease, 15 s sweep; docs/decisions/122). */
export const LEASE_SECONDS = 8;
export const SWEEP_SECONDS = 2;

const SERVER_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A throwaway database on the test server; `sql` queries it as the owner. */
export async function createClusterDatabase() {
  const name = `cohortly_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    async sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
      return (await pool.query(text, values)).rows as T[];
    },
    async drop() {
      await pool.end();
      const dropper = new pg.Client({ connectionString: SERVER_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
export type ClusterDatabase = Awaited<ReturnType<typeof createClusterDatabase>>;

export interface AppProcess {
  name: string;
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** Resolves when /api/health answers; rejects with the output when the process exits first. */
  ready(): Promise<void>;
  exited(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const secret = randomBytes(32).toString('hex');

/** Spawns one app process on the database (not waiting for it). */
export async function spawnApp(name: string, databaseUrl: string): Promise<AppProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cohortly-cluster-'));
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      VAPI_API_KEY: '',
      VAPI_SERVER_SECRET: '',
      TWILIO_ACCOUNT_SID: '',
      TWILIO_AUTH_TOKEN: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      PUBLIC_BASE_URL: baseUrl,
      BETTER_AUTH_SECRET: secret,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      RUN_LEASE_SECONDS: String(LEASE_SECONDS),
      RUN_SWEEP_SECONDS: String(SWEEP_SECONDS),
      // Room for the lines a killed process's simulated calls hold until the stale-call sweep (cluster.test.ts).
      VOICE_MAX_CONCURRENT_CALLS: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  return {
    name,
    baseUrl,
    pid: child.pid!,
    child,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async ready() {
      // Generous: tsx compiles the server on a busy 2-core machine.
      const deadline = Date.now() + 150_000;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${output}`);
        try {
          if ((await fetch(`${baseUrl}/api/health`)).ok) return;
        } catch {
          // not up yet
        }
        if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exit;
    },
  };
}

/** A signed-in client of one process; `via` sends the same session to another process. */
export class Client {
  constructor(
    readonly app: AppProcess,
    readonly cookie: string,
  ) {}

  via(app: AppProcess) {
    return new Client(app, this.cookie);
  }

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.app.baseUrl}${url}`, {
      method,
      headers: {
        cookie: this.cookie,
        origin: this.app.baseUrl,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed as any };
  }
  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body: unknown, headers?: Record<string, string>) => this.request('POST', url, body, headers);
}

export async function signIn(app: AppProcess, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<Client> {
  const response = await fetch(`${app.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return new Client(app, cookie);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The process id in a run's lease owner (processing-runs/lease.ts: host:pid:uuid). */
export const pidOfOwner = (owner: string | null) => (owner ? Number(owner.split(':').at(-2)) : null);
