/**
 * `npm run migrate`: the schema's migrations and the job queues, under the start-up lock (decision 122), as a
 * deploy's own step before its processes start (`npm start` runs it too). Uses DATABASE_URL or DATA_DIR like
 * main.ts. Safe to run while other processes start or serve: they take turns on the lock, and a migration
 * already applied is not applied again.
 */
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { createJobs } from '../src/server/jobs/jobs';
import { prepareDatabase } from '../src/server/jobs/prepare';
import { createLogger } from '../src/server/logger';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const jobs = createJobs(database, createLogger(config.logLevel));
try {
  await prepareDatabase(database, jobs);
  process.stdout.write(`Database migrated (${database.kind}); job queues ready.\n`);
} finally {
  await jobs.stop();
  await database.close();
}
