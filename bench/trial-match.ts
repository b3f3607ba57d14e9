/**
 * Trial matcher benchmark (issue 11): `npm run bench:trial-match -- --db pglite|postgres [--rows N] [--facts F]`.
 *
 * One organization with N candidates (default 100,000), each with about F facts (default 20: conditions,
 * medications, labs, smoking), inserted in SQL; a trial of 30 criteria with machine rules of every kind.
 * Prints: the match run end to end (POST .../runs until the run shows as completed, polled every 25 ms; and when it
 * settled: the clean-up of the results it replaced and the analyze after it, decision 113), then the first results page,
 * a filtered page and one candidate's evidence, as p50/p99 over repeated requests.
 *
 * PGlite: in memory, or on disk in a new directory with --pglite-dir DIR (as `npm start` opens it; left behind).
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database
 * is created and dropped, as the integration tests do.
 *
 * --slices 25000,50000,...: the match run is repeated once per slice size, in that order (same data, same hour;
 * each later run also replaces the earlier run's results, as a re-run does); the default is the app's size.
 * --first 2500,10000,...: the first slice's size for each of those runs (the last one given repeats).
 *
 * --toggle-fks: an experiment (decision 043): trial_match's two foreign keys are dropped before the 2nd, 4th, ...
 * run and added back (validated) before the others, so runs with and without them alternate on the same data.
 *
 * The run's timeline is printed too: when each slice's results committed, when the run completed, when it settled
 * (after `analyze trial_match`).
 *
 * --explain: after the runs, EXPLAIN (ANALYZE, BUFFERS) of the results' first page and of a page excluded by one
 * criterion (on the run's own analyze, then after a full one), of the first slice's read and of writing one slice's
 * results (25,000 of the run's own rows again under a new run id, rolled back), as the run issues them (row security on).
 *
 * BENCH_PROFILE=<file.cpuprofile>: the match run is profiled (this process's CPU, node:inspector) into that file
 * (open it in Chrome's DevTools), and the functions with the most self time are printed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { CriterionRule } from '../src/contract/trials';
import type { Database } from '../src/server/db/client';
import { rowsOf, runAsOrganization, type Transaction } from '../src/server/db/scoped';
import { matchRunTuning, whenMatchRunSettled } from '../src/server/features/matching/matcher';
import { candidateSlice } from '../src/server/features/matching/queries-run-reads';
import { insertMatches, type TrialMatchInsert } from '../src/server/features/matching/queries-run-writes';
import { vocabulary } from '../src/server/features/trials/vocabulary';
import { createRecruitingTrial } from '../tests/support/trials';
import { createTestApp } from '../tests/support/test-app';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite') as 'pglite' | 'postgres';
const ROWS = Number(option('rows', '100000'));
const FACTS = Number(option('facts', '20'));
const SAMPLES = Number(option('samples', '50'));
const TOGGLE_FKS = args.includes('--toggle-fks');
const EXPLAIN = args.includes('--explain');
const SLICES = option('slices', String(matchRunTuning.sliceSize)).split(',').map(Number);
// --first 2500,10000,...: the first slice's size per run (paired with --slices; the app's by default).
const FIRSTS = option('first', '').split(',').filter(Boolean).map(Number);
if (dbKind === 'postgres') process.env.TEST_DATABASE_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
else delete process.env.TEST_DATABASE_URL;
// --pglite-dir DIR: PGlite on disk in a new directory, as `npm start` runs it (the default is in memory, where
// growing files costs copies of them that a data directory does not have).
const pgliteDir = option('pglite-dir', '');
if (pgliteDir) {
  if (existsSync(pgliteDir)) throw new Error(`--pglite-dir ${pgliteDir} exists: give a new directory`);
  process.env.TEST_PGLITE_DIR = pgliteDir;
}
process.env.LOG_LEVEL ??= 'warn';

const CONDITIONS = [
  'asthma',
  'type 2 diabetes',
  'hypertension',
  'copd',
  'obesity',
  'depression',
  'heart failure',
  'chronic kidney disease',
  'atrial fibrillation',
  'osteoarthritis',
];
const MEDICATIONS = ['metformin', 'insulin', 'lisinopril', 'atorvastatin', 'albuterol', 'prednisone', 'warfarin', 'sertraline'];

/** 30 criteria: age, sex, conditions wanted and excluded, washouts, labs, smoking, pregnancy, site judgement, and a few without a rule. */
function criteria(): Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule: CriterionRule | null }> {
  const list: Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule: CriterionRule | null }> = [
    { kind: 'inclusion', text: 'Aged 18 to 75', rule: { type: 'age', minYears: 18, maxYears: 75 } },
    {
      kind: 'inclusion',
      text: 'Type 2 diabetes',
      rule: { type: 'condition', condition: 'type 2 diabetes', present: true, concepts: [{ id: 'bench:type 2 diabetes', name: 'type 2 diabetes' }] },
    },
    { kind: 'inclusion', text: 'HbA1c 7-10%', rule: { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10, unit: '%' } },
    { kind: 'inclusion', text: 'BMI 25-40', rule: { type: 'lab', measure: 'BMI', comparator: 'between', value: 25, upperValue: 40, unit: 'kg/m2' } },
    {
      kind: 'inclusion',
      text: 'Taking metformin',
      rule: { type: 'medication', medication: 'metformin', taking: true, concepts: [{ id: 'bench:metformin', name: 'metformin' }] },
    },
    { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
    { kind: 'exclusion', text: 'Pregnant', rule: { type: 'pregnancy', allowed: false } },
    { kind: 'exclusion', text: 'Investigator judgement', rule: { type: 'site_judgement', reason: 'investigator_judgement' } },
    { kind: 'exclusion', text: 'eGFR below 45', rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' } },
    {
      kind: 'exclusion',
      text: 'Insulin in the last 3 months',
      rule: {
        type: 'medication',
        medication: 'insulin',
        taking: false,
        concepts: [{ id: 'bench:insulin', name: 'insulin' }],
        within: { value: 3, unit: 'months' },
      },
    },
  ];
  // A realistic mix: most people are excluded by something, some are likely and possibly eligible.
  for (const name of ['heart failure', 'chronic kidney disease'])
    list.push({
      kind: 'exclusion',
      text: `History of ${name}`,
      rule: { type: 'condition', condition: name, present: false, history: true, concepts: [{ id: `bench:${name}`, name }] },
    });
  for (const name of ['cancer', 'hepatitis b', 'hiv infection', 'epilepsy'])
    list.push({
      kind: 'exclusion',
      text: `Current ${name}`,
      rule: { type: 'condition', condition: name, present: false, concepts: [{ id: `bench:${name}`, name }] },
    });
  list.push({
    kind: 'exclusion',
    text: 'Taking warfarin',
    rule: { type: 'medication', medication: 'warfarin', taking: false, concepts: [{ id: 'bench:warfarin', name: 'warfarin' }] },
  });
  while (list.length < 30) list.push({ kind: 'exclusion', text: `Other condition ${list.length} the investigator considers`, rule: null });
  return list;
}

/**
 * CPU seconds (user + system) of this database's PostgreSQL server processes, by pid, read from /proc (the server
 * runs on this machine): work a loaded machine does not distort the way it does wall time. Backends started after
 * the first reading count whole; one that exits in between is lost (the pool keeps its connections for the run).
 */
async function databaseCpu(db: Database): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  if (dbKind !== 'postgres') return ticks;
  const pids = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
  for (const { pid } of pids) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), after the parenthesised command name.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Not on this machine, or gone.
    }
  }
  return ticks;
}

/** Seconds of database CPU between two readings (clock ticks of 1/100 s, Linux's USER_HZ). */
function databaseCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100;
}

/** The functions with the most self time in a CPU profile. */
function printTopSelfTime(profile: {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    const name = frame ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : '?';
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[index] ?? 0));
  });
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  console.log('profile, self time:');
  for (const [name, micros] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The bench's experiment: trial_match with or without its two foreign keys (the owner's statements, scratch database). */
async function toggleForeignKeys(owner: Database, on: boolean) {
  await owner.execute(sql`alter table trial_match drop constraint if exists trial_match_trial_id_trial_id_fk`);
  await owner.execute(sql`alter table trial_match drop constraint if exists trial_match_candidate_id_candidate_id_fk`);
  if (!on) return;
  await owner.execute(
    sql`alter table trial_match add constraint trial_match_trial_id_trial_id_fk foreign key (trial_id) references trial(id) on delete cascade`,
  );
  await owner.execute(
    sql`alter table trial_match add constraint trial_match_candidate_id_candidate_id_fk foreign key (candidate_id) references candidate(id) on delete cascade`,
  );
}

const dialect = new PgDialect();
/** A transaction whose statements are explained (analyze, buffers) and printed; `thenRun` runs each for real too. */
function explaining(tx: Transaction, label: string, thenRun: boolean): Transaction {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return async (query: Parameters<Transaction['execute']>[0]) => {
        // A setting (set local ...) has no plan: applied as it is.
        if (/^\s*set /i.test(dialect.sqlToQuery(query as SQL).sql)) return target.execute(query);
        const plan = rowsOf<{ 'QUERY PLAN': string }>(await target.execute(sql`explain (analyze, buffers) ${query}`));
        console.log(`${label}:\n${plan.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
        return thenRun ? target.execute(query) : { rows: [] };
      };
    },
  });
}

/** The plans of the results' first page and of a page excluded by one criterion, as the list asks them (row security on). */
async function explainPages(db: Database, organizationId: string, runId: string, criterionId: string, statistics: string) {
  await runAsOrganization(db, organizationId, async (tx) => {
    const columns = sql`candidate_id, match_class, score, met_count, not_met_ids, unknown_ids`;
    const order = sql`order by class_rank, score desc nulls last, candidate_id limit 50`;
    await explaining(tx, `first page (${statistics})`, false).execute(sql`select ${columns} from trial_match where run_id = ${runId} ${order}`);
    await explaining(tx, `excluded by one criterion (${statistics})`, false).execute(
      sql`select ${columns} from trial_match where run_id = ${runId} and class_rank = 2 and ${criterionId} = any(not_met_ids) ${order}`,
    );
  });
}

/** The plans of a slice's read and of a slice's write (decision 087's measurements). */
async function explainReadAndWrite(db: Database, organizationId: string, trialId: string, runId: string) {
  await runAsOrganization(db, organizationId, async (tx) => {
    await tx.execute(sql`set local jit = off`);
    await candidateSlice(explaining(tx, 'slice read', true), organizationId, null, matchRunTuning.sliceSize);
  });
  const rows = rowsOf<{
    candidate_id: string;
    match_class: TrialMatchInsert['matchClass'];
    class_rank: number;
    score: number;
    met_count: number;
    unknown_count: number;
    not_met_ids: string[];
    unknown_ids: string[];
  }>(await db.execute(sql`select * from trial_match where run_id = ${runId} order by candidate_id limit ${matchRunTuning.sliceSize}`));
  // One array per distinct list, as the run hands them over (decision 104: each distinct list is sent once).
  const lists = new Map<string, string[]>();
  const shared = (ids: string[]) => {
    const key = ids.join(',');
    if (!lists.has(key)) lists.set(key, ids);
    return lists.get(key)!;
  };
  const results = rows.map((row) => ({
    candidateId: row.candidate_id,
    matchClass: row.match_class,
    classRank: row.class_rank,
    score: row.score,
    metCount: row.met_count,
    unknownCount: row.unknown_count,
    notMetIds: shared(row.not_met_ids),
    unknownIds: shared(row.unknown_ids),
  }));
  await runAsOrganization(db, organizationId, async (tx) => {
    await tx.execute(sql`set local jit = off`);
    await tx.execute(sql`savepoint explain_write`);
    await insertMatches(explaining(tx, `slice write (${results.length} rows)`, false), { runId: crypto.randomUUID(), organizationId, trialId }, results);
    await tx.execute(sql`rollback to savepoint explain_write`);
  });
}

async function main() {
  const t = await createTestApp();
  try {
    const owner = await t.signUp({ organizationName: 'Bench Matching Site' });
    const trial = await createRecruitingTrial(owner.actor, { title: 'Bench diabetes study', criteria: criteria() });
    if (trial.status !== 201) throw new Error(`trial: ${JSON.stringify(trial.body)}`);
    let started = performance.now();
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, date_of_birth, sex)
      select ${owner.organizationId}::uuid, 'Bench', 'Person ' || i, (date '1940-01-01' + (i * 7919 % 25000)), case when i % 2 = 0 then 'female' else 'male' end
      from generate_series(1, ${ROWS}) as i`);
    // About FACTS facts per person: conditions and medications from the lists, labs, smoking.
    const conditionArray = `{${CONDITIONS.map((name) => `"${name}"`).join(',')}}`;
    const medicationArray = `{${MEDICATIONS.map((name) => `"${name}"`).join(',')}}`;
    const perKind = Math.max(1, Math.floor(FACTS / 4));
    await t.deps.db.execute(sql`
      insert into candidate_fact (organization_id, candidate_id, kind, concept_id, name, status, source, observed_on)
      select c.organization_id, c.id, 'condition', 'bench:' || n.name, n.name, case when (hashtext(c.id::text) + k) % 5 = 0 then 'history' else 'present' end, 'import', date '2025-01-01'
      from candidate c, generate_series(1, ${perKind}) k, lateral (select (${conditionArray}::text[])[1 + abs(hashtext(c.id::text || k)) % ${CONDITIONS.length}] as name) n
      where c.organization_id = ${owner.organizationId}::uuid`);
    await t.deps.db.execute(sql`
      insert into candidate_fact (organization_id, candidate_id, kind, concept_id, name, status, source, observed_on)
      select c.organization_id, c.id, 'medication', 'bench:' || n.name, n.name, 'present', 'import', date '2025-06-01'
      from candidate c, generate_series(1, ${perKind}) k, lateral (select (${medicationArray}::text[])[1 + abs(hashtext(c.id::text || 'm' || k)) % ${MEDICATIONS.length}] as name) n
      where c.organization_id = ${owner.organizationId}::uuid`);
    await t.deps.db.execute(sql`
      insert into candidate_fact (organization_id, candidate_id, kind, name, value, unit, source, observed_on)
      select c.organization_id, c.id, 'lab', m.name, m.low + (abs(hashtext(c.id::text || m.name || k)) % 1000) / 1000.0 * (m.high - m.low), m.unit, 'import', date '2025-01-01' + k * 30
      from candidate c, generate_series(1, ${perKind}) k,
           (values ('HbA1c', 5.0, 12.0, '%'), ('BMI', 18.0, 45.0, 'kg/m2'), ('eGFR', 20.0, 120.0, 'mL/min/1.73m2')) as m(name, low, high, unit)
      where c.organization_id = ${owner.organizationId}::uuid and k <= ${Math.ceil(perKind / 3)}`);
    await t.deps.db.execute(sql`
      insert into candidate_fact (organization_id, candidate_id, kind, name, status, source)
      select c.organization_id, c.id, 'smoking', 'smoking', case abs(hashtext(c.id::text)) % 3 when 0 then 'present' when 1 then 'history' else 'absent' end, 'import'
      from candidate c where c.organization_id = ${owner.organizationId}::uuid`);
    await t.deps.db.execute(sql`analyze`);
    const factCount = Number(
      ((await t.deps.db.execute(sql`select count(*)::int as n from candidate_fact`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n,
    );
    console.log(
      `database: ${dbKind}; ${ROWS.toLocaleString('en-US')} candidates, ${factCount.toLocaleString('en-US')} facts (${(factCount / ROWS).toFixed(1)} each), 30 criteria; seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // The server reads the clinical vocabulary at start (src/server/main.ts); so does this process, before the timed runs.
    vocabulary();

    for (const [index, sliceSize] of SLICES.entries()) {
      matchRunTuning.sliceSize = sliceSize;
      const firstSlice = FIRSTS[index] ?? FIRSTS[FIRSTS.length - 1];
      if (firstSlice) matchRunTuning.firstSliceSize = firstSlice;
      const withoutFks = TOGGLE_FKS && index % 2 === 1;
      if (TOGGLE_FKS) await toggleForeignKeys(t.deps.db, !withoutFks);
      const profiler = process.env.BENCH_PROFILE ? new Session() : null;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const databaseBefore = await databaseCpu(t.deps.db);
      started = performance.now();
      const cpuBefore = process.cpuUsage();
      const run = await owner.actor.post(`/api/trial-matcher/${trial.body.id}/runs`, {});
      // The timeline: when each slice's write committed (the run's processed count moved) and when it completed.
      const timeline: string[] = [];
      let seen = 0;
      let polling = true;
      // When the run showed as completed (its results are what the screen reads): the run end to end.
      let completedMs = Number.NaN;
      const poll = (async () => {
        while (polling) {
          const [row] = rowsOf<{ processed: number; status: string }>(
            await t.deps.db.execute(sql`select processed, status from processing_run where id = ${run.body.id}`),
          );
          const at = `${((performance.now() - started) / 1000).toFixed(2)} s`;
          if (row && row.processed !== seen) timeline.push(`${((seen = row.processed)).toLocaleString('en-US')} at ${at}`);
          if (row?.status === 'completed') {
            completedMs = performance.now() - started;
            return void timeline.push(`completed at ${at}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();
      await whenMatchRunSettled(run.body.id);
      const runMs = performance.now() - started;
      polling = false;
      await poll;
      console.log(`match run timeline, processed: ${timeline.join(', ')}; settled at ${(runMs / 1000).toFixed(2)} s`);
      const cpu = process.cpuUsage(cpuBefore);
      const databaseSeconds = dbKind === 'postgres' ? databaseCpuSince(databaseBefore, await databaseCpu(t.deps.db)) : null;
      console.log(
        `match run, this process's CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s${databaseSeconds === null ? '' : `; the database's (this database's server processes, to settled): ${databaseSeconds.toFixed(2)} s`} (the rest of the wall time is waiting)`,
      );
      if (profiler && process.env.BENCH_PROFILE) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
        printTopSelfTime(profile);
        profiler.disconnect();
      }
      const overview = await owner.actor.get(`/api/trial-matcher/${trial.body.id}`);
      if (overview.body.resultsRun?.status !== 'completed') throw new Error(`run: ${JSON.stringify(overview.body.latestRun)}`);
      console.log(
        `match run end to end (slices of ${sliceSize.toLocaleString('en-US')}, the first of ${Math.min(sliceSize, matchRunTuning.firstSliceSize).toLocaleString('en-US')}${TOGGLE_FKS ? (withoutFks ? ', no foreign keys' : ', foreign keys') : ''}): ${(completedMs / 1000).toFixed(2)} s to completed (${Math.round(ROWS / (completedMs / 1000)).toLocaleString('en-US')} candidates/s), settled (clean-up, analyze) at ${(runMs / 1000).toFixed(2)} s; counts ${JSON.stringify(overview.body.counts)}; load average ${loadavg()[0].toFixed(1)}`,
      );
    }

    if (EXPLAIN) {
      const overview = await owner.actor.get(`/api/trial-matcher/${trial.body.id}`);
      const smokingId = trial.body.criteria.find((criterion: { text: string }) => criterion.text === 'Current smoker').id;
      // The pages' plans on the statistics the run's analyze left (decision 104: a 3,000-row sample), then on a full one.
      await explainPages(t.deps.db, owner.organizationId, overview.body.resultsRun.id, smokingId, "the run's analyze");
      await t.deps.db.execute(sql`analyze trial_match`);
      await explainPages(t.deps.db, owner.organizationId, overview.body.resultsRun.id, smokingId, 'a full analyze');
      await explainReadAndWrite(t.deps.db, owner.organizationId, trial.body.id, overview.body.resultsRun.id);
    }

    const sample = async (label: string, path: string) => {
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const begin = performance.now();
        const answer = await owner.actor.get(path);
        times.push(performance.now() - begin);
        if (answer.status !== 200) throw new Error(`${label}: ${answer.status}`);
      }
      console.log(`${label}: p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))} (${SAMPLES} requests, one at a time)`);
    };
    const base = `/api/trial-matcher/${trial.body.id}`;
    await sample('results, first page', `${base}/matches?limit=50`);
    await sample('results, page 100 of excluded', `${base}/matches?class=excluded&limit=50&offset=5000`);
    const smokingId = trial.body.criteria.find((criterion: { text: string }) => criterion.text === 'Current smoker').id;
    await sample('results, excluded by one criterion', `${base}/matches?class=excluded&criterionId=${smokingId}&limit=50`);
    const first = await owner.actor.get(`${base}/matches?limit=1`);
    await sample("one candidate's evidence", `${base}/candidates/${first.body.matches[0].candidate.id}`);
    await sample('gap analysis', `${base}/gaps`);
  } finally {
    await t.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
