/**
 * Admin dashboard benchmark (decision 032): `npm run bench:dashboard -- --db pglite|postgres|both [--events N] [--samples S]`.
 *
 * 50 customer organizations with 5 trials each; N activity events (default 5,000,000 on PostgreSQL, 1,000,000 on
 * PGlite: in-memory PGlite holds the whole database in WebAssembly memory; DASHBOARD_BENCH_EVENTS or --events
 * overrides both) spread over two years, generated in SQL with generate_series, and `activity_daily` built from
 * them with one INSERT ... SELECT ... GROUP BY, and `activity_monthly` and `activity_total` from that (migration 0025's backfill); then the
 * activity tables are vacuumed (what autovacuum does on a live database). Then each tab's API is timed through the real app with a signed-in
 * global admin (every organization in the default selection), for the 30-day default and for "all": p50/p95 per
 * tab. Last, `recordActivity` of one event inside a transaction (the cost every write site adds).
 * With --db both, PostgreSQL runs first, then PGlite, and the PGlite/PostgreSQL ratio of each p95 is printed.
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database is
 * created and dropped, as the integration tests do.
 *
 * --keep NAME seeds once and reuses: on PostgreSQL the database NAME on that server, on PGlite the data directory NAME
 * (on disk, not in memory). The first run creates and seeds it and leaves it; later runs find the bench's
 * organizations there and only measure (the events already there count, --events is ignored). Drop it by hand.
 */
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { recordActivity } from '../src/server/activity';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/server/db/client';
import { runAsOrganization } from '../src/server/db/scoped';
import { createTestApp } from '../tests/support/test-app';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const mode = option('db', 'pglite') as 'pglite' | 'postgres' | 'both';
const SAMPLES = Number(option('samples', '20'));
const ORGS = 50;
const TRIALS_PER_ORG = 5;
/** --hold S: keep the generated database S seconds after measuring (to EXPLAIN queries against it), then drop it. */
const HOLD_SECONDS = Number(option('hold', '0'));
const PG_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
/** --keep NAME: seed once into a database (PostgreSQL) or data directory (PGlite) of that name and reuse it. */
const KEEP = option('keep', '');

/** The kept database, created and migrated if new. */
async function openKept(db: 'pglite' | 'postgres'): Promise<DatabaseHandle> {
  if (db === 'pglite') {
    const handle = await openPglite(KEEP);
    await handle.migrate();
    return handle;
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(KEEP)) throw new Error('--keep on PostgreSQL takes a plain database name');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [KEEP])).rowCount;
  if (!exists) await admin.query(`CREATE DATABASE ${KEEP}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${KEEP}`;
  const handle = await openPostgres(url.toString());
  await handle.migrate();
  return handle;
}
process.env.LOG_LEVEL ??= 'warn';

const eventsFor = (db: 'pglite' | 'postgres') => Number(option('events', process.env.DASHBOARD_BENCH_EVENTS ?? (db === 'postgres' ? '5000000' : '1000000')));

const TABS = ['funnel-breakdown', 'prescreen-analytics', 'patient-satisfaction', 'trial-lifecycle', 'trial-matcher', 'costs', 'customer-overview'] as const;

/** The mix of kinds, by weight (a kind listed twice is twice as frequent). */
const KINDS = [
  ...Array(6).fill('sms_sent'),
  ...Array(5).fill('sms_delivered'),
  'sms_replied',
  ...Array(3).fill('call_placed'),
  ...Array(2).fill('call_answered'),
  ...Array(2).fill('call_ended'),
  'chat_started',
  'chat_completed',
  ...Array(4).fill('candidate_created'),
  ...Array(4).fill('status_changed'),
  ...Array(2).fill('prescreen_result'),
  'review_decision',
  'visit_booked',
  'visit_attended',
  'visit_no_show',
  'opted_out',
  'satisfaction_rated',
  ...Array(6).fill('spend'),
];
const SOURCES = ['call', 'chat', 'sms', 'import', 'manual'];
const STATUSES = [
  'contacted',
  'contacted',
  'prescreening',
  'prescreen_passed',
  'prescreen_failed',
  'visit_scheduled',
  'enrolled',
  'not_interested',
  'unreachable',
  'do_not_contact',
];
const RECOMMENDATIONS = ['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL'];
const SPEND = ['call_minutes', 'sms_segments', 'llm_tokens'];
const textArray = (values: string[]) => `{${values.join(',')}}`;

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Migrations that build rollups from `activity_daily` or the raw events; their statements after "-- Backfill" run after seeding. */
const ROLLUP_BACKFILLS = /^(0025|0026|0028)_/;

/**
 * The backfill statements of the rollup migrations this database has applied (drizzle records each one's journal
 * time), in migration order, comments removed.
 */
async function backfillStatements(t: Bench): Promise<string[]> {
  const folder = join(import.meta.dirname, '../src/server/db/migrations');
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> };
  const applied = new Set(
    ((await t.deps.db.execute(sql`select created_at from drizzle.__drizzle_migrations`)) as unknown as { rows: Array<{ created_at: string }> }).rows.map(
      (row) => Number(row.created_at),
    ),
  );
  return journal.entries
    .filter((entry) => ROLLUP_BACKFILLS.test(entry.tag) && applied.has(entry.when))
    .flatMap((entry) => {
      const text = readFileSync(join(folder, `${entry.tag}.sql`), 'utf8');
      return text
        .slice(text.indexOf('-- Backfill'))
        .split('--> statement-breakpoint')
        .map((statement) => statement.replace(/^--.*$/gm, '').trim())
        .filter(Boolean);
    });
}

type Figures = Map<string, { p50: number; p95: number }>;

async function run(db: 'pglite' | 'postgres'): Promise<Figures> {
  if (db === 'postgres') process.env.TEST_DATABASE_URL = PG_URL;
  else delete process.env.TEST_DATABASE_URL;
  let events = eventsFor(db);
  const kept = KEEP ? await openKept(db) : undefined;
  // A kept database is shared with the app (its close leaves it open), and closed below.
  const t = await createTestApp({}, kept);
  const figures: Figures = new Map();
  const seeded =
    kept !== undefined &&
    Number(
      (
        (await t.deps.db.execute(sql`select count(*)::int as n from organization where slug like 'bench-customer-%'`)) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0].n,
    ) > 0;
  try {
    if (!seeded) await seed(t, events);
    else {
      events = Number(((await t.deps.db.execute(sql`select count(*)::int as n from activity_event`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
      console.log(`\n== ${db}: reusing ${KEEP} (${events.toLocaleString('en-US')} events)`);
    }
    await measure(t, figures);
  } finally {
    await t.close();
    await kept?.close();
  }
  return figures;
}

type Bench = Awaited<ReturnType<typeof createTestApp>>;
type BenchTransaction = Parameters<Parameters<Bench['deps']['db']['transaction']>[0]>[0];

/**
 * Fills an empty table in one statement with its indexes and foreign keys set aside (decision 082): its indexes,
 * primary key included, are dropped and built again afterwards (one sort each instead of an index insert per row, a
 * random one into the uuid primary key, which is what made 5M events take ~10 minutes on PostgreSQL), and the
 * foreign-key triggers are off during the load (`session_replication_role = replica`, local to the transaction; the
 * bench's organization ids are valid by construction, and it connects as a superuser on both engines).
 */
async function bulkLoad(t: Bench, table: string, load: (tx: BenchTransaction) => Promise<unknown>) {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await t.deps.db.execute(query)) as unknown as { rows: T[] }).rows;
  const constraints = await rows<{ name: string; definition: string }>(sql`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u')`);
  const indexes = await rows<{ name: string; definition: string }>(sql`
    select i.relname as name, pg_get_indexdef(i.oid) as definition from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = ${table}::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`);
  for (const constraint of constraints) await t.deps.db.execute(sql.raw(`alter table ${table} drop constraint ${constraint.name}`));
  for (const index of indexes) await t.deps.db.execute(sql.raw(`drop index ${index.name}`));
  await t.deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await load(tx);
  });
  for (const constraint of constraints) await t.deps.db.execute(sql.raw(`alter table ${table} add constraint ${constraint.name} ${constraint.definition}`));
  for (const index of indexes) await t.deps.db.execute(sql.raw(index.definition));
}

/** 50 organizations, their trials and N events over two years, the three rollups from them, vacuumed. */
async function seed(t: Bench, events: number) {
  const db = t.database.kind;
  {
    let started = performance.now();
    // 50 customers and their trials, in SQL (no users: the global admin reads them all).
    await t.deps.db.execute(sql`
      insert into organization (name, slug, public_id)
      select 'Bench Customer ' || i, 'bench-customer-' || i, 'bench' || md5(i::text) from generate_series(1, ${ORGS}) i`);
    await t.deps.db.execute(sql`
      insert into trial (organization_id, title, status, target_enrollment, status_history, created_at)
      select o.id, o.name || ' trial ' || k, case when k <= 3 then 'recruiting' else 'closed' end, 100,
        jsonb_build_array(jsonb_build_object('from', 'draft', 'to', 'recruiting', 'at', to_char(now() - interval '600 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'byUserId', null)),
        now() - interval '700 days'
      from organization o, generate_series(1, ${TRIALS_PER_ORG}) k where o.slug like 'bench-customer-%'`);
    const orgRows = (await t.deps.db.execute(sql`select id from organization where slug like 'bench-customer-%' order by slug`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const trialRows = (await t.deps.db.execute(
      sql`select t.id from trial t join organization o on o.id = t.organization_id where o.slug like 'bench-customer-%' order by o.slug, t.title`,
    )) as unknown as { rows: Array<{ id: string }> };
    const orgIds = textArray(orgRows.rows.map((row) => row.id));
    const trialIds = textArray(trialRows.rows.map((row) => row.id));

    // N events over two years: organization i % 50, a trial of that organization for trial-bound kinds.
    await bulkLoad(t, 'activity_event', (tx) =>
      tx.execute(sql`
      insert into activity_event (organization_id, trial_id, kind, source, label, value, occurred_at)
      select (${orgIds}::uuid[])[1 + i % ${ORGS}],
        case when e.kind in ('prescreen_result', 'visit_booked', 'visit_attended', 'visit_no_show', 'status_changed', 'sms_sent', 'call_placed')
          then (${trialIds}::uuid[])[1 + (i % ${ORGS}) * ${TRIALS_PER_ORG} + (i / ${ORGS}) % ${TRIALS_PER_ORG}] end,
        e.kind,
        case e.kind when 'spend' then (array['call','sms','chat'])[1 + i % 3] when 'candidate_created' then (array['import','manual','chat'])[1 + i % 3]
          else (${textArray(SOURCES)}::text[])[1 + (i / 7) % 5] end,
        case e.kind
          when 'status_changed' then (${textArray(STATUSES)}::text[])[1 + (i / 11) % ${STATUSES.length}]
          when 'prescreen_result' then (${textArray(RECOMMENDATIONS)}::text[])[1 + (i / 13) % 4]
          when 'review_decision' then case when i % 9 = 0 then 'override' else 'agree' end
          when 'spend' then (${textArray(SPEND)}::text[])[1 + i % 3]
          when 'opted_out' then 'sms'
          else '' end,
        case e.kind
          when 'spend' then ((i * 37) % 100) / 100.0
          when 'satisfaction_rated' then 1 + (i / 17) % 5
          when 'prescreen_result' then (i * 13) % 96
          when 'call_ended' then (i * 7) % 900
          when 'review_decision' then case when i % 9 = 0 then 1 else 0 end
          end,
        now() - ((i::bigint * 7919) % (730 * 24 * 60)) * interval '1 minute'
      from generate_series(1, ${events}) i
      cross join lateral (select (${textArray(KINDS)}::text[])[1 + (i * 31) % ${KINDS.length}] as kind) e`),
    );
    const generated = performance.now() - started;
    started = performance.now();
    // The daily rollup is empty here (a fresh database), so its rows are plain inserts, one per key, in day order as
    // a live database writes them (decision 082): in hash order the last 30 days were a page per row (39k pages).
    await bulkLoad(t, 'activity_daily', (tx) =>
      tx.execute(sql`
        insert into activity_daily (organization_id, day, trial_id, kind, source, label, count, value_sum, value_count)
        select organization_id, (occurred_at at time zone 'UTC')::date, coalesce(trial_id, '00000000-0000-0000-0000-000000000000'::uuid), kind, source, label,
          count(*), coalesce(sum(value), 0), count(value)
        from activity_event group by 1, 2, 3, 4, 5, 6 order by 2`),
    );
    const dailyBuilt = performance.now() - started;
    started = performance.now();
    // Every other rollup from the daily one (and the raw events) by the migrations' own backfill statements, so the
    // bench's database holds what a migrated live one holds (the lean rollups were empty here before decision 082).
    const statements = await backfillStatements(t);
    await t.deps.db.transaction(async (tx) => {
      // The organization ids are valid by construction: no foreign-key trigger per rollup row (see bulkLoad).
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    const monthlyBuilt = performance.now() - started;
    // A live database's autovacuum keeps the visibility map current (insert-only tables too, PostgreSQL 13+); a bulk load
    // needs it done once, or no scan is index-only.
    await t.deps.db.execute(sql`vacuum analyze`);
    const countOf = async (table: string) =>
      Number(((await t.deps.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    const rollups = await countOf('activity_daily');
    const monthlyRows = await countOf('activity_monthly');
    const totalRows = await countOf('activity_total');
    const otherRollups = ['activity_kind_daily', 'enrolment_monthly', 'prescreen_result_monthly', 'time_to_result_monthly', 'time_to_result_total'];
    const otherCounts: string[] = [];
    for (const table of otherRollups) otherCounts.push(`${table} ${(await countOf(table)).toLocaleString('en-US')}`);
    console.log(
      `\n== ${db}: ${events.toLocaleString('en-US')} events, ${ORGS} organizations, ${ORGS * TRIALS_PER_ORG} trials; events generated in ${(generated / 1000).toFixed(1)} s, ` +
        `activity_daily (${rollups.toLocaleString('en-US')} rows) built in ${(dailyBuilt / 1000).toFixed(1)} s, ` +
        `activity_monthly (${monthlyRows.toLocaleString('en-US')} rows) and activity_total (${totalRows.toLocaleString('en-US')}) in ${(monthlyBuilt / 1000).toFixed(1)} s; rows: ${otherCounts.join(', ')}`,
    );
  }
}

/** Each tab's p50/p95 for the 30-day default and "all", then recordActivity of one event. */
async function measure(t: Bench, figures: Figures) {
  const orgRows = (await t.deps.db.execute(sql`select id from organization where slug like 'bench-customer-%' order by slug`)) as unknown as {
    rows: Array<{ id: string }>;
  };
  const trialRows = (await t.deps.db.execute(
    sql`select t.id from trial t join organization o on o.id = t.organization_id where o.slug like 'bench-customer-%' order by o.slug, t.title`,
  )) as unknown as { rows: Array<{ id: string }> };
  {
    const admin = await t.signInAdmin();
    admin.activeOrganizationId = t.internalOrganizationId;
    const check = await admin.get('/api/dashboard/funnel-breakdown?preset=all');
    if (check.status !== 200) throw new Error(`funnel: ${check.status} ${JSON.stringify(check.body)}`);
    console.log(
      `global admin's default selection: ${check.body.filters.organizationIds.length} organizations; funnel "all": ${JSON.stringify(check.body.stages.map((s: { count: number }) => s.count))}`,
    );

    for (const preset of ['30d', 'all']) {
      for (const tab of TABS) {
        const path = `/api/dashboard/${tab}?preset=${preset}`;
        for (let i = 0; i < 3; i++) await admin.get(path);
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const begin = performance.now();
          const answer = await admin.get(path);
          times.push(performance.now() - begin);
          if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
        const p50 = percentile(times, 50);
        const p95 = percentile(times, 95);
        figures.set(`${tab} ${preset}`, { p50, p95 });
        console.log(`${`${tab} (${preset})`.padEnd(34)} p50 ${ms(p50).padStart(9)}  p95 ${ms(p95).padStart(9)}`);
      }
    }

    // recordActivity for one event inside a transaction: what each write site adds.
    const organizationId = orgRows.rows[0].id;
    const inside: number[] = [];
    for (let i = 0; i < 200; i++) {
      await runAsOrganization(t.deps.db, organizationId, async (tx) => {
        const begin = performance.now();
        await recordActivity(tx, [{ organizationId, kind: 'sms_sent', source: 'sms', label: 'outreach', trialId: trialRows.rows[0].id }]);
        inside.push(performance.now() - begin);
      });
    }
    const warm = inside.slice(20);
    const p50 = percentile(warm, 50);
    const p95 = percentile(warm, 95);
    figures.set('recordActivity (1 event)', { p50, p95 });
    console.log(`${'recordActivity, 1 event, in a tx'.padEnd(34)} p50 ${ms(p50).padStart(9)}  p95 ${ms(p95).padStart(9)}  (${warm.length} transactions)`);
    if (HOLD_SECONDS > 0) {
      const name = ((await t.deps.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> }).rows[0].name;
      console.log(`holding database ${name} for ${HOLD_SECONDS} s`);
      await new Promise((resolve) => setTimeout(resolve, HOLD_SECONDS * 1000));
    }
  }
}

async function main() {
  if (mode === 'both') {
    const pg = await run('postgres');
    const lite = await run('pglite');
    console.log('\n== PGlite / PostgreSQL, p95 (note: different event counts unless --events is given)');
    for (const [name, figure] of pg) {
      const other = lite.get(name);
      if (other) console.log(`${name.padEnd(34)} ${(other.p95 / figure.p95).toFixed(1)}x`);
    }
  } else await run(mode);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
