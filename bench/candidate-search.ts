/**
 * Substring search benchmark (decision 109): `npx tsx bench/candidate-search.ts [--rows 100000] [--iterations 40]
 * [--url postgres://...] [--before /work/main] [--keep]`.
 *
 * Creates a scratch PostgreSQL database (dropped at the end unless --keep), migrates it, seeds --rows candidates in
 * one organization (names from the demo's lists, phones and emails unique) plus 1,000 in another, ANALYZEs, then
 * times what a search request runs under the row-security role: the first page (51 rows) and the capped count
 * (10,001), in one transaction, one client, --iterations times per term; prints p50/p99 per term.
 * `--before DIR` also times DIR's src/server/features/candidates/queries.ts (e.g. the main branch: the plain LIKE)
 * on the same data, alternating before/after per iteration. Prints the load (/proc/loadavg) next to the figures.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../src/server/db/client';
import { withRowSecurity } from '../src/server/db/scoped';
import { FIRST_NAMES, LAST_NAMES } from '../src/server/features/demo/seed-data';
import * as after from '../src/server/features/candidates/queries';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const ROWS = Number(option('rows', '100000'));
const ITERATIONS = Number(option('iterations', '40'));
const serverUrl = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const beforeDir = option('before', '');
/** Common to rare: a last name (1 in 20 rows), a first and last name, an email, phone digits, a number, nothing. */
const TERMS = process.env.BENCH_TERMS?.split(',') ?? ['okafor', 'maya smi', 'maya.smith42', '0042421', '4242', 'zzqx'];

type Queries = Pick<typeof after, 'listCandidatePage' | 'countCandidates'>;
const load = () => readFileSync('/proc/loadavg', 'utf8').trim();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const name = `trgm_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const handle = await openPostgres(url.toString());
try {
  await handle.migrate();
  const db = handle.db;
  const [site, other] = ['Bench Site', 'Other Site'].map(() => crypto.randomUUID());
  for (const [id, label] of [
    [site, 'Bench Site'],
    [other, 'Other Site'],
  ])
    await db.execute(sql`insert into organization (id, name, slug, public_id) values (${id}, ${label}, ${`bench-${id}`}, ${`public-${id}`})`);
  const firsts = `{${FIRST_NAMES.map((n) => `"${n}"`).join(',')}}`;
  const lasts = `{${LAST_NAMES.map((n) => `"${n}"`).join(',')}}`;
  const seed = (organizationId: string, rows: number, prefix: string) =>
    db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, email)
      select ${organizationId}::uuid, first, last, ${prefix} || lpad(g::text, 7, '0'), lower(first || '.' || last) || g || '@example.test'
      from generate_series(1, ${rows}) g,
        lateral (select (${firsts}::text[])[1 + (g::bigint * 7919) % ${FIRST_NAMES.length}] as first, (${lasts}::text[])[1 + (g::bigint * 104729) % ${LAST_NAMES.length}] as last) person`);
  const seeded = performance.now();
  await seed(site, ROWS, '+1215');
  await seed(other, 1000, '+1312');
  await db.execute(sql`analyze candidate`);
  console.log(`seeded ${ROWS} + 1000 candidates in ${((performance.now() - seeded) / 1000).toFixed(1)} s; load ${load()}`);

  const scope = { global: false, reachableOrganizationIds: [site] };
  const request = (queries: Queries, term: string) =>
    withRowSecurity(db, scope, async (tx) => {
      const filter = { organizationIds: [site], search: term };
      const page = await queries.listCandidatePage(tx, filter, { sortBy: 'createdAt', sortDir: 'desc', limit: 51 });
      // As the list does (service.ts countForList): a page holding every match is its own count.
      const total = page.length < 51 ? page.length : await queries.countCandidates(tx, filter, 10_000);
      return total;
    });
  const variants: Array<[string, Queries]> = [['after', after]];
  if (beforeDir) variants.unshift(['before', (await import(path.resolve(beforeDir, 'src/server/features/candidates/queries.ts'))) as Queries]);

  for (const term of TERMS) {
    const times = new Map<string, number[]>(variants.map(([label]) => [label, []]));
    const totals = new Map<string, number>();
    for (let i = 0; i < ITERATIONS + 2; i++) {
      for (const [label, queries] of variants) {
        const start = performance.now();
        totals.set(label, await request(queries, term));
        // The first two rounds warm the caches and the connection pool.
        if (i >= 2) times.get(label)!.push(performance.now() - start);
      }
    }
    const line = variants
      .map(([label]) => {
        const sorted = times.get(label)!.sort((x, y) => x - y);
        return `${label} p50 ${percentile(sorted, 50).toFixed(1)} ms p99 ${percentile(sorted, 99).toFixed(1)} ms (${totals.get(label)} matches)`;
      })
      .join(' | ');
    console.log(`${JSON.stringify(term).padEnd(14)} ${line}; load ${load()}`);
  }
} finally {
  await handle.close();
  if (!args.includes('--keep')) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  else console.log(`kept database ${name}`);
  await admin.end();
}
