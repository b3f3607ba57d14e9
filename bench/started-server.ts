/**
 * A production server started by a bench script (`src/server/main.ts` in its own process), waited for until
 * /api/health answers, and stopped with its data directory removed: the browser benches measure the app as
 * `npm start` runs it.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

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
