/**
 * A production server started by a bench script (`src/server/main.ts` in its own process), waited for until
 * /api/health answers, and stopped with its data directory removed: the browser benches measure the app as
 * `npm start` runs it. `startSeededProduct` builds, seeds and starts a tree's product; `sessionCookie` signs its admin in.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/support/free-port';

export interface StartedServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** Waits until the server answers /api/health (or fails if it exits or `timeoutMs` passes). */
export async function whenServerAnswers(server: ChildProcess, baseUrl: string, dataDir: string, timeoutMs: number): Promise<StartedServer> {
  const deadline = Date.now() + timeoutMs;
  const healthy = () =>
    fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
  while (!(await healthy())) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    stop: async () => {
      server.kill('SIGTERM');
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ProductAdmin {
  email: string;
  password: string;
}

/** The environment `npm start` gives the product with no provider secrets: simulators, PGlite in `dataDir`, `admin`. */
export function productEnv(env: NodeJS.ProcessEnv, where: { dataDir: string; port: number; baseUrl: string; admin: ProductAdmin }): NodeJS.ProcessEnv {
  return {
    ...env,
    LOG_LEVEL: 'warn',
    DATA_DIR: where.dataDir,
    DATABASE_URL: '',
    PORT: String(where.port),
    PUBLIC_BASE_URL: where.baseUrl,
    ADMIN_EMAIL: where.admin.email,
    ADMIN_PASSWORD: where.admin.password,
    VAPI_API_KEY: '',
    TWILIO_ACCOUNT_SID: '',
  };
}

function runIn(tree: string, command: string, commandArgs: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(command, commandArgs, { cwd: tree, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed in ${tree} (${result.status})`);
}

/**
 * The product of `tree` as `npm start` runs it (production build and mode, simulators, no provider secrets): built
 * unless `build` is false, a fresh PGlite directory seeded with the demo organization (`scripts/seed.ts`), `admin` as
 * the internal admin.
 */
export async function startSeededProduct(tree: string, admin: ProductAdmin, build: boolean): Promise<StartedServer> {
  const env = { ...process.env, NODE_ENV: 'production' };
  if (build) runIn(tree, 'npx', ['vite', 'build', '--logLevel', 'warn'], env);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cohortly-bench-'));
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const serverEnv = productEnv(env, { dataDir, port, baseUrl, admin });
  console.log('Seeding the demo organization...');
  runIn(tree, 'npx', ['tsx', 'scripts/seed.ts'], serverEnv);
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: tree, env: serverEnv, stdio: 'ignore' });
  return whenServerAnswers(server, baseUrl, dataDir, 120_000);
}

/** The signed-in admin's session cookie, as a Cookie header's value. */
export async function sessionCookie(baseUrl: string, admin: ProductAdmin): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(admin),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
