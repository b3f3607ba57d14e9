import type { DatabaseHandle } from '../db/client';
import { underStartupLock } from '../db/startup-lock';
import type { Jobs } from './jobs';

/**
 * The schema's migrations, then pg-boss's schema and our queues, under the start-up lock (decision 122): what
 * `npm run migrate` does as a deploy's own step and what every process does again at start (a no-op once done),
 * so a process started without the step, or together with others on a fresh database, starts cleanly. The queue is
 * left started: a process goes on to register its workers; the migrate script stops it.
 */
export async function prepareDatabase(database: DatabaseHandle, jobs: Pick<Jobs, 'start'>): Promise<void> {
  await underStartupLock(database, async () => {
    await database.migrate();
    await jobs.start();
  });
}
