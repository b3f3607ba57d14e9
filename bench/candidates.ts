/**
 * Candidate import and list benchmark (issue 3): `npm run bench:candidates -- --db pglite|postgres [--rows N]`.
 *
 * 1. Generates N (default 100,000) synthetic candidates as CSV in memory (seeded, deterministic).
 * 2. Imports them through the real app (POST /api/candidates/bulk, then the background run) and reports rows/s.
 * 3. Baseline: PostgreSQL's own COPY of the same CSV into a scratch table (PGlite: COPY FROM '/dev/blob';
 *    PostgreSQL: server-side COPY FROM a temp file when the server shares this file system, otherwise a
 *    multi-row INSERT; the output says which).
 * 4. p50/p99 latency of the list and search endpoints through app.request with N candidates.
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database
 * is created and dropped, as the integration tests do.
 *
 * Scale modes (issue 17, decision 046), both through the streamed upload (POST /api/candidates/bulk/stream, the
 * CSV generated as the body is read, never whole in memory):
 * - `--chunks 10 [--rows 100000]`: 10 successive imports of --rows new candidates into one organization; each
 *   chunk's seconds and rows/s, and the ratio of the last chunk's time to the first's (the curve).
 * - `--single [--rows 1000000]`: one file end to end; rows/s, COPY's rows/s of the same file into a bare table and
 *   into a table like `candidate` (its indexes and foreign key, decision 106), both ratios, and the process's peak
 *   RSS (process.resourceUsage().maxRSS).
 */
import { FIRST_NAMES, LAST_NAMES } from '../src/server/features/demo/seed-data';
import { seededRandom } from '../src/server/seeded-random';
import { writeFileSync, unlinkSync, chmodSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { whenRunSettled } from '../src/server/features/candidates/import-runner';
import { createTestApp, type Actor } from '../tests/support/test-app';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite') as 'pglite' | 'postgres';
const CHUNKS = Number(option('chunks', '0'));
const SINGLE = args.includes('--single');
const ROWS = Number(option('rows', SINGLE ? '1000000' : '100000'));
const ITERATIONS = Number(option('iterations', '40'));
if (dbKind === 'postgres') process.env.TEST_DATABASE_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
else delete process.env.TEST_DATABASE_URL;
process.env.LOG_LEVEL ??= 'warn';

// ---- deterministic data ----

const AREAS = [212, 213, 214, 215, 216, 217, 218, 219, 301, 302];

export function syntheticCsv(rows: number, seed = 42): string {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const lines = ['First Name,Last Name,Phone,Email,DOB,Sex,Zip,City'];
  for (let i = 0; i < rows; i++) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const area = AREAS[Math.floor(i / 10_000) % AREAS.length];
    const phone = `(${area}) 555-${String(i % 10_000).padStart(4, '0')}`;
    const year = 1940 + Math.floor(random() * 65);
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
    const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
    const sex = random() < 0.5 ? 'F' : 'M';
    lines.push(
      `${first},${last},${phone},${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.test,${year}-${month}-${day},${sex},${String(10000 + Math.floor(random() * 89999))},Springfield`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Rows `from`..`to`-1 of an unbounded synthetic file for the scale modes: unique phones (exchange and line from
 * the row number, up to 8,000,000 rows) and emails, so successive chunks never merge into earlier ones.
 */
function scaleLines(from: number, to: number, seed = 7): string {
  const random = seededRandom(seed + from);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  let text = '';
  for (let i = from; i < to; i++) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const phone = `(212) ${200 + (Math.floor(i / 10_000) % 800)}-${String(i % 10_000).padStart(4, '0')}`;
    const year = 1940 + Math.floor(random() * 65);
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
    const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
    text += `${first},${last},${phone},${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.test,${year}-${month}-${day},${random() < 0.5 ? 'F' : 'M'},${String(10000 + Math.floor(random() * 89999))},Springfield\n`;
  }
  return text;
}
const SCALE_HEADER = 'First Name,Last Name,Phone,Email,DOB,Sex,Zip,City\n';

/** The rows as a request body generated while it is read, 10,000 rows a chunk. */
function scaleBody(from: number, to: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = from;
  let headerSent = false;
  return new ReadableStream({
    pull(controller) {
      if (!headerSent) {
        headerSent = true;
        return controller.enqueue(encoder.encode(SCALE_HEADER));
      }
      if (next >= to) return controller.close();
      const end = Math.min(to, next + 10_000);
      controller.enqueue(encoder.encode(scaleLines(next, end)));
      next = end;
    },
  });
}

const rowsPerSecond = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;
const megabytes = (kilobytes: number) => `${Math.round(kilobytes / 1024)} MB`;

/** One streamed import of rows from..to-1, waited for; its times. */
async function streamedImport(site: { actor: Actor }, from: number, to: number) {
  const started = performance.now();
  const accepted = await site.actor.upload('/api/candidates/bulk/stream?duplicates=merge', scaleBody(from, to));
  if (accepted.status !== 202) throw new Error(`import: ${accepted.status} ${JSON.stringify(accepted.body).slice(0, 300)}`);
  const acceptedMs = performance.now() - started;
  await whenRunSettled(accepted.body.run.id);
  const totalMs = performance.now() - started;
  const done = await site.actor.get(`/api/processing-runs/${accepted.body.run.id}/data?limit=1`);
  if (done.body.run.status !== 'completed' || done.body.run.succeeded !== to - from)
    throw new Error(`import did not complete: ${JSON.stringify(done.body.run)}`);
  return { acceptedMs, totalMs };
}

async function chunksMode(chunks: number) {
  const t = await createTestApp({ LOG_LEVEL: 'warn' });
  try {
    const site = await t.signUp({ organizationName: 'Bench Research Site' });
    process.stdout.write(
      `Cohortly import curve: ${dbKind}, ${chunks} successive imports of ${ROWS.toLocaleString('en-US')} rows into one organization, Node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
    );
    const table: Array<Record<string, string>> = [];
    const times: number[] = [];
    for (let chunk = 0; chunk < chunks; chunk++) {
      const { acceptedMs, totalMs } = await streamedImport(site, chunk * ROWS, (chunk + 1) * ROWS);
      times.push(totalMs);
      table.push({
        chunk: String(chunk + 1),
        'candidates before': (chunk * ROWS).toLocaleString('en-US'),
        'to 202': `${(acceptedMs / 1000).toFixed(2)} s`,
        'end to end': `${(totalMs / 1000).toFixed(2)} s`,
        rate: rowsPerSecond(ROWS, totalMs),
        load: os.loadavg()[0].toFixed(2),
      });
      process.stdout.write(`  chunk ${chunk + 1}: ${(totalMs / 1000).toFixed(2)} s, ${rowsPerSecond(ROWS, totalMs)}\n`);
    }
    console.table(table);
    process.stdout.write(
      `ratio last/first: ${(times.at(-1)! / times[0]).toFixed(2)}  (goal <= 1.3); peak RSS ${megabytes(process.resourceUsage().maxRSS)}; load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
    );
  } finally {
    await t.close();
  }
}

async function singleMode() {
  const t = await createTestApp({ LOG_LEVEL: 'warn' });
  try {
    const site = await t.signUp({ organizationName: 'Bench Research Site' });
    process.stdout.write(
      `Cohortly single-file import: ${dbKind}, ${ROWS.toLocaleString('en-US')} rows streamed, Node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
    );
    const rssBefore = process.memoryUsage().rss;
    const { acceptedMs, totalMs } = await streamedImport(site, 0, ROWS);
    const peakKb = process.resourceUsage().maxRSS;
    const loadAfter = os.loadavg();

    // COPY of the same file (written to disk in pieces, never whole in memory) into two tables: a bare one (no index,
    // no constraint: the goal's baseline, as before) and one shaped like `candidate` (decision 106): its indexes,
    // defaults, checks and its foreign key to the organization, which any writer of candidates pays. Not the import's
    // own rows (items, events, rollups) nor the row policy: those are the import's choices, measured against COPY.
    await t.deps.db.execute(
      sql`create table bench_copy (first_name text, last_name text, phone text, email text, date_of_birth date, sex text, postal_code text, city text)`,
    );
    // The same shape twice, without and with the foreign key, so its share shows.
    for (const [table, foreignKey] of [
      ['bench_copy_indexed', ''],
      ['bench_copy_candidate', ', add foreign key (organization_id) references organization (id) on delete cascade'],
    ]) {
      await t.deps.db.execute(sql.raw(`create table ${table} (like candidate including all)`));
      await t.deps.db.execute(sql.raw(`alter table ${table} alter column organization_id set default '${site.organizationId}'${foreignKey}`));
    }
    const file = path.join(os.tmpdir(), `cohortly-bench-${process.pid}.csv`);
    const out = createWriteStream(file);
    out.write(SCALE_HEADER);
    for (let from = 0; from < ROWS; from += 10_000) if (!out.write(scaleLines(from, Math.min(ROWS, from + 10_000)))) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    chmodSync(file, 0o644);
    const copyInto = async (target: string) => {
      const started = performance.now();
      const statement = `COPY ${target} FROM ${dbKind === 'pglite' ? "'/dev/blob'" : `'${file}'`} WITH (FORMAT csv, HEADER true)`;
      if (dbKind === 'pglite') {
        const { openAsBlob } = await import('node:fs');
        const pglite = (t.deps.db as unknown as { $client: { pglite: { query: (q: string, p: unknown[], o: unknown) => Promise<unknown> } } }).$client.pglite;
        await pglite.query(statement, [], { blob: await openAsBlob(file) });
      } else await t.deps.db.execute(sql.raw(statement));
      return performance.now() - started;
    };
    const copyMethod = dbKind === 'pglite' ? "COPY FROM '/dev/blob' (PGlite)" : 'server-side COPY FROM file';
    const fileColumns = '(first_name, last_name, phone, email, date_of_birth, sex, postal_code, city)';
    let copyMs: number;
    let indexedMs: number;
    let likeCandidateMs: number;
    try {
      copyMs = await copyInto('bench_copy');
      indexedMs = await copyInto(`bench_copy_indexed ${fileColumns}`);
      likeCandidateMs = await copyInto(`bench_copy_candidate ${fileColumns}`);
    } finally {
      unlinkSync(file);
    }
    const importRate = ROWS / (totalMs / 1000);
    const ratio = (baselineMs: number) => `${((importRate / (ROWS / (baselineMs / 1000))) * 100).toFixed(2)}%`;
    console.table([
      { step: 'streamed import, request to 202 (parse + store items)', time: `${(acceptedMs / 1000).toFixed(2)} s`, rate: rowsPerSecond(ROWS, acceptedMs) },
      { step: 'streamed import, end to end', time: `${(totalMs / 1000).toFixed(2)} s`, rate: rowsPerSecond(ROWS, totalMs) },
      { step: `baseline: ${copyMethod}, bare table`, time: `${(copyMs / 1000).toFixed(2)} s`, rate: rowsPerSecond(ROWS, copyMs) },
      { step: `baseline: ${copyMethod}, like candidate, no foreign key`, time: `${(indexedMs / 1000).toFixed(2)} s`, rate: rowsPerSecond(ROWS, indexedMs) },
      {
        step: `baseline: ${copyMethod}, like candidate (7 indexes, foreign key)`,
        time: `${(likeCandidateMs / 1000).toFixed(2)} s`,
        rate: rowsPerSecond(ROWS, likeCandidateMs),
      },
    ]);
    process.stdout.write(
      `import/COPY: ${ratio(copyMs)} of COPY into a bare table (goal >= 5%), ${ratio(likeCandidateMs)} of COPY into a table like candidate (${ratio(indexedMs)} without its foreign key); peak RSS ${megabytes(peakKb)} (goal < 500 MB; ${Math.round(rssBefore / 1024 / 1024)} MB before the import); load after the import ${loadAfter.map((n) => n.toFixed(2)).join(' ')}; after the COPYs ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
    );
  } finally {
    await t.close();
  }
}

// ---- helpers ----

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function timeRequests(actor: Actor, label: string, path: string | (() => string), results: Array<Record<string, string>>) {
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS + 3; i++) {
    const started = performance.now();
    const answer = await actor.get(typeof path === 'string' ? path : path());
    const elapsed = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    if (i >= 3) times.push(elapsed); // the first calls warm caches and plans
  }
  results.push({ endpoint: label, p50: `${percentile(times, 50).toFixed(1)} ms`, p99: `${percentile(times, 99).toFixed(1)} ms` });
}

async function main() {
  const t = await createTestApp({ LOG_LEVEL: 'warn' });
  try {
    const site = await t.signUp({ organizationName: 'Bench Research Site' });
    process.stdout.write(
      `Cohortly candidate bench: ${dbKind}, ${ROWS.toLocaleString('en-US')} rows, Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}\n`,
    );

    let started = performance.now();
    const csv = syntheticCsv(ROWS);
    const generateMs = performance.now() - started;

    // --- import through the app ---
    started = performance.now();
    const accepted = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: csv, duplicates: 'merge' });
    if (accepted.status !== 202) throw new Error(`import: ${accepted.status} ${JSON.stringify(accepted.body).slice(0, 300)}`);
    const acceptedMs = performance.now() - started;
    await whenRunSettled(accepted.body.run.id);
    const importMs = performance.now() - started;
    const done = await site.actor.get(`/api/processing-runs/${accepted.body.run.id}/data?limit=1`);
    if (done.body.run.status !== 'completed' || done.body.run.succeeded !== ROWS) throw new Error(`import did not complete: ${JSON.stringify(done.body.run)}`);

    // --- COPY baseline of the same rows ---
    await t.deps.db.execute(
      sql`create table bench_copy (first_name text, last_name text, phone text, email text, date_of_birth date, sex text, postal_code text, city text)`,
    );
    let copyMethod: string;
    started = performance.now();
    if (dbKind === 'pglite') {
      const pglite = (t.deps.db as unknown as { $client: { pglite: { query: (q: string, p: unknown[], o: unknown) => Promise<unknown> } } }).$client.pglite;
      await pglite.query(`COPY bench_copy FROM '/dev/blob' WITH (FORMAT csv, HEADER true)`, [], { blob: new Blob([csv]) });
      copyMethod = "COPY bench_copy FROM '/dev/blob' (PGlite blob)";
    } else {
      const file = path.join(os.tmpdir(), `cohortly-bench-${process.pid}.csv`);
      writeFileSync(file, csv);
      chmodSync(file, 0o644);
      try {
        await t.deps.db.execute(sql.raw(`COPY bench_copy FROM '${file}' WITH (FORMAT csv, HEADER true)`));
        copyMethod = 'server-side COPY bench_copy FROM file (same machine; pg-copy-streams is not a dependency)';
      } catch {
        started = performance.now();
        const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1);
        for (let i = 0; i < rows.length; i += 1000) {
          const chunk = rows.slice(i, i + 1000);
          await t.deps.db.execute(
            sql`insert into bench_copy select * from json_populate_recordset(null::bench_copy, ${JSON.stringify(chunk.map((r) => ({ first_name: r[0], last_name: r[1], phone: r[2], email: r[3], date_of_birth: r[4], sex: r[5], postal_code: r[6], city: r[7] })))}::json)`,
          );
        }
        copyMethod = 'multi-row INSERT of 1,000 rows per statement (COPY FROM STDIN needs pg-copy-streams; server file not reachable)';
      } finally {
        unlinkSync(file);
      }
    }
    const copyMs = performance.now() - started;

    // Spread statuses so the status filter has something to find (10 funnel states).
    await t.deps.db.execute(
      sql`update candidate set status = (array['new','contacted','prescreening','prescreen_passed','prescreen_failed','visit_scheduled','enrolled','not_interested','unreachable','do_not_contact'])[1 + (abs(hashtext(id::text)) % 10)]`,
    );
    await t.deps.db.execute(sql`analyze candidate`);

    // --- list and search latency ---
    const latency: Array<Record<string, string>> = [];
    await timeRequests(site.actor, 'list, first page (50, newest first)', '/api/candidates/', latency);
    let cursor: string | undefined;
    for (let page = 1; page < 50; page++) {
      const answer = await site.actor.get(`/api/candidates/?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      cursor = answer.body.nextCursor;
    }
    await timeRequests(site.actor, 'list, page 50 via cursor', `/api/candidates/?limit=50&cursor=${cursor}`, latency);
    await timeRequests(site.actor, 'list, status=contacted', '/api/candidates/?status=contacted', latency);
    await timeRequests(site.actor, 'list, sortBy=lastName asc', '/api/candidates/?sortBy=lastName&sortDir=asc', latency);
    await timeRequests(site.actor, 'list, limit=500', '/api/candidates/?limit=500', latency);
    await timeRequests(site.actor, 'search name "tara tanaka"', `/api/candidates/?search=${encodeURIComponent('tara tanaka')}`, latency);
    let n = 0;
    await timeRequests(
      site.actor,
      'search phone "(215) 555-1234" (whole number)',
      () => `/api/candidates/?search=${encodeURIComponent(`(215) 555-${String(1234 + n++).padStart(4, '0')}`)}`,
      latency,
    );
    await timeRequests(
      site.actor,
      'search phone digits "555-12" (substring)',
      () => `/api/candidates/?search=${encodeURIComponent(`555-${10 + (n++ % 89)}`)}`,
      latency,
    );
    const emails = (await t.deps.db.execute(sql`select email from candidate order by email limit 60 offset 5000`)) as unknown as {
      rows: Array<{ email: string }>;
    };
    await timeRequests(
      site.actor,
      'search email (whole address)',
      () => `/api/candidates/?search=${encodeURIComponent(emails.rows[n++ % emails.rows.length].email)}`,
      latency,
    );
    await timeRequests(site.actor, 'search email fragment ".7012@"', () => `/api/candidates/?search=${encodeURIComponent(`.${7000 + n++}@example`)}`, latency);

    const rate = (ms: number) => `${Math.round(ROWS / (ms / 1000)).toLocaleString('en-US')} rows/s`;
    process.stdout.write(`\nImport of ${ROWS.toLocaleString('en-US')} rows (CSV generated in ${generateMs.toFixed(0)} ms)\n`);
    console.table([
      { step: 'Cohortly import, request to 202 (parse + store rows)', time: `${(acceptedMs / 1000).toFixed(2)} s`, rate: rate(acceptedMs) },
      { step: 'Cohortly import, end to end (validate, dedupe, insert, events)', time: `${(importMs / 1000).toFixed(2)} s`, rate: rate(importMs) },
      { step: `Baseline: ${copyMethod}`, time: `${(copyMs / 1000).toFixed(2)} s`, rate: rate(copyMs) },
    ]);
    process.stdout.write(`\nList and search with ${ROWS.toLocaleString('en-US')} candidates (${ITERATIONS} requests each, through app.request)\n`);
    console.table(latency);
  } finally {
    await t.close();
  }
}

if (CHUNKS > 0) await chunksMode(CHUNKS);
else if (SINGLE) await singleMode();
else await main();
