import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppProcess,
  type Client,
  type ClusterDatabase,
  createClusterDatabase,
  LEASE_SECONDS,
  pidOfOwner,
  SWEEP_SECONDS,
  signIn,
  spawnApp,
  waitFor,
} from './support';

// Three real app processes on one PostgreSQL (issue 33, items 1-5; decisions 122, 123): they start together on a
// fresh database, share work and truth, and a run whose worker is killed with SIGKILL is taken over by a live process
// within the lease and the sweep, with nothing lost and nothing done twice.

let database: ClusterDatabase;
let apps: AppProcess[] = [];
let admin: Client;
let organizationId: string;
/** Fault figures, printed at the end: what a reader of the issue's closing note wants. */
const figures: string[] = [];

const journal = JSON.parse(readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };

beforeAll(async () => {
  database = await createClusterDatabase();
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill('SIGTERM')));
  await database?.drop();
  if (figures.length)
    process.stdout.write(`\ncluster fault figures (lease ${LEASE_SECONDS} s, sweep ${SWEEP_SECONDS} s):\n${figures.map((line) => `  ${line}`).join('\n')}\n`);
});

const live = () => apps.filter((app) => !app.exited());
/** The admin's session through a process that is alive (an earlier test may have killed the one it signed in on). */
const anyAdmin = () => admin.via(live()[0]);
const appOfPid = (pid: number | null) => apps.find((app) => app.pid === pid);

type RunRow = {
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  merged: number;
  skipped: number;
  failed: number;
  lease_owner: string | null;
  error: string | null;
};
const runRow = async (runId: string) =>
  (
    await database.sql<RunRow>('select status, total, processed, succeeded, merged, skipped, failed, lease_owner, error from processing_run where id = $1', [
      runId,
    ])
  )[0];

/** JSON rows of people, unique by email (the import's duplicate key) from `from`. */
const people = (count: number, from: number, tag: string) =>
  Array.from({ length: count }, (_, i) => ({ 'First Name': `Person${from + i}`, 'Last Name': tag, Email: `${tag.toLowerCase()}-${from + i}@example.test` }));

/** What a finished import left: its counts add up, every row made one candidate, no email twice. */
async function expectImportWhole(runId: string, rows: number, tag: string) {
  const run = await runRow(runId);
  expect(run).toMatchObject({ status: 'completed', total: rows, processed: rows, error: null });
  expect(run.succeeded + run.merged + run.skipped + run.failed).toBe(run.processed);
  const [items] = await database.sql<{ total: number; pending: number }>(
    `select count(*)::int as total, count(*) filter (where outcome = 'pending')::int as pending from processing_run_item where run_id = $1`,
    [runId],
  );
  expect(items).toEqual({ total: rows, pending: 0 });
  const [people] = await database.sql<{ rows: number; emails: number }>(
    'select count(*)::int as rows, count(distinct email)::int as emails from candidate where organization_id = $1 and last_name = $2',
    [organizationId, tag],
  );
  // Nothing lost (every row is a candidate), nothing doubled (one candidate per email).
  expect(people).toEqual({ rows, emails: rows });
  expect(run.succeeded).toBe(rows);
}

/**
 * Waits until the run's worker has done `atLeast` rows, kills it with SIGKILL, and measures how long until a live
 * process holds the run and until it completes. Returns the seconds to the takeover.
 */
async function killWorkerAt(runId: string, atLeast: number) {
  const worker = await waitFor(
    `the run to pass ${atLeast}`,
    async () => {
      const run = await runRow(runId);
      if (run.status !== 'running' && run.status !== 'pending') throw new Error(`the run ended before the kill: ${JSON.stringify(run)}`);
      return run.status === 'running' && run.processed >= atLeast && appOfPid(pidOfOwner(run.lease_owner)) ? run : undefined;
    },
    150_000,
    100,
  );
  const victim = appOfPid(pidOfOwner(worker.lease_owner))!;
  await victim.kill('SIGKILL');
  const killedAt = Date.now();
  const processedAtKill = (await runRow(runId)).processed;
  // The bound: the claim lapses at most a lease after its last renewal, a sweep comes within a sweep period, and the
  // job queue's poll (2 s) hands the run to a process.
  const bound = (LEASE_SECONDS + SWEEP_SECONDS + 2 + 6) * 1000;
  await waitFor(
    'a live process to take the run over',
    async () => {
      const run = await runRow(runId);
      const holder = appOfPid(pidOfOwner(run.lease_owner));
      return (holder && holder !== victim && !holder.exited()) || run.status === 'completed' ? run : undefined;
    },
    bound,
    100,
  );
  const takeoverSeconds = (Date.now() - killedAt) / 1000;
  expect(takeoverSeconds * 1000).toBeLessThan(bound);
  return { victim, takeoverSeconds, processedAtKill };
}

/** Replaces a killed process with a fresh one, so the next test again has three. */
async function replace(victim: AppProcess) {
  const spawnedAt = Date.now();
  const fresh = await spawnApp(`${victim.name}'`, database.url);
  apps = [...apps.filter((app) => app !== victim), fresh];
  await fresh.ready();
  lastStartMs = Date.now() - spawnedAt;
  return fresh;
}
/** How long the last replacement took to start: when to send an import so that a start-up meets its storing. */
let lastStartMs = 30_000;

describe('three processes on one PostgreSQL', () => {
  it('start together on a fresh database: all three serve, the schema migrated once, the queues made once', async () => {
    apps = await Promise.all(['p1', 'p2', 'p3'].map((name) => spawnApp(name, database.url)));
    await Promise.all(apps.map((app) => app.ready()));
    expect(live()).toHaveLength(3);
    const [migrations] = await database.sql<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(migrations.n).toBe(journal.entries.length);
    const [queues] = await database.sql<{ n: number }>(`select count(*)::int as n from pgboss.queue where name = 'processing-run'`);
    expect(queues.n).toBe(1);
    for (const app of apps) expect(app.output()).not.toMatch(/deadlock|duplicate key|unhandled/i);
    admin = await signIn(apps[0]);
  });

  it('an organization created on one process is the one a request through another names with X-Organization-Id', async () => {
    const created = await admin.post('/api/organizations/', { name: 'Cluster Research Site' });
    expect(created.status).toBe(201);
    organizationId = created.body.id;
    // At once, through another process whose organization list was read before (the admin's first request there).
    const other = admin.via(apps[1]);
    expect((await other.get('/api/organizations/')).status).toBe(200);
    const trial = await other.post('/api/trials/', { title: 'Cluster trial' }, { 'x-organization-id': organizationId });
    expect(trial.status).toBe(201);
    const [row] = await database.sql<{ organization_id: string }>('select organization_id from trial where id = $1', [trial.body.id]);
    expect(row.organization_id).toBe(organizationId);
    // An organization that does not exist is refused, never replaced by the admin's own.
    const unknown = await other.post('/api/trials/', { title: 'Nowhere' }, { 'x-organization-id': '00000000-0000-4000-8000-000000000001' });
    expect(unknown.status).toBe(404);
    const [stray] = await database.sql<{ n: number }>(`select count(*)::int as n from trial where title = 'Nowhere'`);
    expect(stray.n).toBe(0);
  });

  it('an onboarding started on one process is there at once on the others', async () => {
    const third = admin.via(apps[2]);
    expect((await third.get('/api/onboarding/')).status).toBe(200);
    const started = await admin.post('/api/onboarding/', { name: 'Onboarded Clinic' });
    expect(started.status).toBe(201);
    const id = started.body.onboarding?.id ?? started.body.id;
    const seen = await third.get(`/api/onboarding/${id}`);
    expect(seen.status).toBe(200);
    const listed = await admin.via(apps[1]).get('/api/onboarding/');
    expect(JSON.stringify(listed.body)).toContain('Onboarded Clinic');
  });

  it('kill -9 of the worker during a 20,000-row JSON import: a live process takes it over in time; nothing lost, nothing twice', async () => {
    const rows = 20_000;
    const started = await anyAdmin().post('/api/candidates/bulk', { format: 'json', data: people(rows, 0, 'Killjson'), organizationId });
    expect(started.status).toBe(202);
    const runId = started.body.run.id;
    const at = Math.round(rows * (0.2 + 0.5 * Math.random()));
    const { victim, takeoverSeconds, processedAtKill } = await killWorkerAt(runId, at);
    await waitFor('the import to finish', async () => ((await runRow(runId)).status === 'completed' ? true : undefined), 150_000);
    await expectImportWhole(runId, rows, 'Killjson');
    figures.push(`import JSON (${rows} rows): killed at ${processedAtKill}, taken over after ${takeoverSeconds.toFixed(1)} s; lost 0, doubled 0`);
    await replace(victim);
  });

  it('kill -9 of the worker during a streamed CSV import: taken over in time; nothing lost, nothing twice', async () => {
    const rows = 8_000;
    const csv = `First Name,Last Name,Email\n${people(rows, 0, 'Killcsv')
      .map((row) => `${row['First Name']},${row['Last Name']},${row.Email}`)
      .join('\n')}\n`;
    const via = live()[0];
    const response = await fetch(`${via.baseUrl}/api/candidates/bulk/stream?organizationId=${organizationId}`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: via.baseUrl, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(response.status).toBe(202);
    const runId = ((await response.json()) as { run: { id: string } }).run.id;
    const at = Math.round(rows * (0.2 + 0.5 * Math.random()));
    const { victim, takeoverSeconds, processedAtKill } = await killWorkerAt(runId, at);
    await waitFor('the import to finish', async () => ((await runRow(runId)).status === 'completed' ? true : undefined), 150_000);
    await expectImportWhole(runId, rows, 'Killcsv');
    figures.push(`import CSV (${rows} rows): killed at ${processedAtKill}, taken over after ${takeoverSeconds.toFixed(1)} s; lost 0, doubled 0`);
    await replace(victim);
  });

  it('kill -9 of the worker during a trial match: taken over in time from its last slice; every person matched once', async () => {
    const [{ trialId }] = await database.sql<{ trialId: string }>(`select id as "trialId" from trial where title = 'Cluster trial'`);
    const [{ people: candidates }] = await database.sql<{ people: number }>('select count(*)::int as people from candidate where organization_id = $1', [
      organizationId,
    ]);
    const started = await anyAdmin().post(`/api/trial-matcher/${trialId}/runs`, {}, { 'x-organization-id': organizationId });
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    const runId = started.body.run?.id ?? started.body.id;
    // After the first slice of 10,000 is written.
    const { victim, takeoverSeconds, processedAtKill } = await killWorkerAt(runId, 10_000);
    await waitFor('the match to finish', async () => ((await runRow(runId)).status === 'completed' ? true : undefined), 150_000);
    const run = await runRow(runId);
    expect(run).toMatchObject({ status: 'completed', total: candidates, processed: candidates, error: null });
    const [matches] = await database.sql<{ rows: number; people: number }>(
      'select count(*)::int as rows, count(distinct candidate_id)::int as people from trial_match where run_id = $1',
      [runId],
    );
    expect(matches).toEqual({ rows: candidates, people: candidates });
    figures.push(`trial match (${candidates} people): killed at ${processedAtKill}, taken over after ${takeoverSeconds.toFixed(1)} s; lost 0, doubled 0`);
    await replace(victim);
  });

  it('a process that starts while a large JSON import is storing its rows loses none of them', async () => {
    const rows = 30_000;
    // A new process starts; the import is sent so that its rows are being stored when that process resumes runs (just
    // before it listens), judged by how long the last process took to start.
    const newcomer = await spawnApp('p4', database.url);
    apps.push(newcomer);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastStartMs - 12_000)));
    const posting = anyAdmin().post('/api/candidates/bulk', { format: 'json', data: people(rows, 0, 'Startup'), organizationId });
    const pending = await waitFor(
      'the import to be storing its rows',
      async () => (await database.sql<{ id: string }>(`select id from processing_run where status = 'pending' and kind = 'candidate_import'`))[0],
      90_000,
      50,
    );
    await newcomer.ready();
    const stillStoring = (await runRow(pending.id)).status === 'pending';
    const started = await posting;
    expect(started.status).toBe(202);
    expect(started.body.run.id).toBe(pending.id);
    await waitFor('the import to finish', async () => (['completed', 'failed'].includes((await runRow(pending.id)).status) ? true : undefined), 200_000, 500);
    await expectImportWhole(pending.id, rows, 'Startup');
    figures.push(
      `a process started during a ${rows}-row JSON import (${stillStoring ? 'while its rows were still being stored' : 'after its rows were stored'}): lost 0`,
    );
    await newcomer.kill('SIGTERM');
    apps = apps.filter((app) => app !== newcomer);
  }, 400_000);
});
