import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { maintainDatabase } from './db/maintenance';
import { createDeps } from './deps';
import { listenApp } from './http/listen';
import { prepareDatabase } from './jobs/prepare';
import { startBackgroundWork } from './jobs/register';
import { findAnalytes, vocabulary } from './features/trials/vocabulary';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, databaseDirectUrl: config.databaseDirectUrl, dataDir: config.dataDir });
const deps = createDeps(config, database);
// Migrations and job queues under the start-up lock: processes started together take turns (decision 122).
await prepareDatabase(database, deps.jobs);
const { createdAdmin } = await bootstrap(deps.db, deps.auth, config);
if (createdAdmin) {
  // Printed once, on the console only: the first admin's own credentials, needed to sign in.
  const lines = [`First internal admin created: ${createdAdmin.email}`];
  if (createdAdmin.generatedPassword) lines.push(`Generated password (shown once): ${createdAdmin.generatedPassword}`);
  process.stdout.write(`\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`);
}

// Job queues and handlers; imports, bulk calls and callbacks interrupted by a stop or a crash continue.
await startBackgroundWork(deps);
// Counts folded and statistics as of this start (an embedded database reopened after a large import otherwise plans blind);
// in the background, so the server answers at once.
void maintainDatabase(deps);

// The clinical vocabulary (MeSH 2024, ICD-10-CM) is read once per process: read it now, before the first request, so
// no import, note or match run waits for it (issue 30 asks for the load at start; `npm run bench:vocabulary-load`).
vocabulary();
// So are the analytes a lab value may name (decision 304), read on their first use: an empty text reads them now.
findAnalytes('');

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');
const app = createApp(deps, { webDist });
const server = listenApp(app.fetch, database, { port: config.port }, (info) => {
  deps.logger.info({ port: info.port, database: database.kind }, `Cohortly listening on ${config.publicBaseUrl}`);
});

async function shutdown() {
  server.close();
  await deps.jobs.stop();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
