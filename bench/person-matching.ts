/**
 * Per-person matching benchmark (decision 133): `npm run bench:person-matching -- --db pglite|postgres [--trials N] [--samples S]`.
 *
 * One organization with N recruiting trials (default 200) of 30 criteria each (age, sex, conditions wanted and
 * excluded, medications, labs, smoking, pregnancy, a site judgement, a few without a rule), inserted in SQL, and
 * one person with a referral note read into facts plus a few facts by hand. Prints the time of
 * GET /api/trial-matcher/candidates/{id}/trials through the app (the request, its five reads, the evaluation of
 * every trial and the JSON answer) as p50 / p90 / p99 over S requests after 3 warm-up requests, and the answer's size.
 * The goal (issue 31): under 300 ms. --full asks for every trial's criterion-by-criterion evidence too (evidence=full).
 *
 * PostgreSQL: --url (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test); a scratch database is
 * created and dropped, as the integration tests do.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import type { CriterionRule } from '../src/contract/trials';
import { runAsOrganization } from '../src/server/db/scoped';
import { trial, trialCriterion } from '../src/server/db/schema';
import { createTestApp } from '../tests/support/test-app';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const dbKind = option('db', 'pglite') as 'pglite' | 'postgres';
const TRIALS = Number(option('trials', '200'));
const SAMPLES = Number(option('samples', '30'));
if (dbKind === 'postgres') process.env.TEST_DATABASE_URL = option('url', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
else delete process.env.TEST_DATABASE_URL;
process.env.LOG_LEVEL ??= 'warn';

const CONDITIONS = ['asthma', 'type 2 diabetes', 'hypertension', 'COPD', 'obesity', 'depression', 'heart failure', 'chronic kidney disease', 'migraine'];
const MEDICATIONS = ['metformin', 'insulin', 'lisinopril', 'atorvastatin', 'albuterol', 'prednisone', 'warfarin'];

/** 30 criteria for trial i: the main condition rotates, so some trials fit the person and others do not. */
function criteriaOf(i: number): Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule: CriterionRule | null }> {
  const main = CONDITIONS[i % CONDITIONS.length];
  const list: Array<{ kind: 'inclusion' | 'exclusion'; text: string; rule: CriterionRule | null }> = [
    { kind: 'inclusion', text: 'Aged 18 to 75', rule: { type: 'age', minYears: 18, maxYears: 75 } },
    { kind: 'inclusion', text: main, rule: { type: 'condition', condition: main, present: true } },
    { kind: 'inclusion', text: 'HbA1c 7-10%', rule: { type: 'lab', measure: 'HbA1c', comparator: 'between', value: 7, upperValue: 10, unit: '%' } },
    { kind: 'inclusion', text: 'BMI 25-40', rule: { type: 'lab', measure: 'BMI', comparator: 'between', value: 25, upperValue: 40, unit: 'kg/m2' } },
    { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
    { kind: 'exclusion', text: 'Pregnant', rule: { type: 'pregnancy', allowed: false } },
    { kind: 'exclusion', text: 'Investigator judgement', rule: { type: 'site_judgement', reason: 'investigator_judgement' } },
    { kind: 'exclusion', text: 'eGFR below 45', rule: { type: 'lab', measure: 'eGFR', comparator: '>=', value: 45, unit: 'mL/min/1.73m2' } },
  ];
  for (const name of CONDITIONS.filter((name) => name !== main && name !== 'type 2 diabetes'))
    list.push({ kind: 'exclusion', text: `History of ${name}`, rule: { type: 'condition', condition: name, present: false, history: true } });
  for (const name of MEDICATIONS.filter((name) => name !== 'metformin'))
    list.push({ kind: 'exclusion', text: `Taking ${name}`, rule: { type: 'medication', medication: name, taking: false } });
  while (list.length < 30) list.push({ kind: 'inclusion', text: `Willing to attend visit ${list.length}`, rule: null });
  return list.slice(0, 30);
}

const NOTE =
  'Referred by Dr. Patel. 58-year-old woman with type 2 diabetes on metformin 1000 mg twice daily. HbA1c 8.1% last month. BMI 31. ' +
  'No history of pancreatitis. Not on insulin. Never smoked. eGFR 72.';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main() {
  const t = await createTestApp();
  try {
    const site = await t.signUp({ organizationName: 'Per-person bench site' });
    const setupStart = performance.now();
    await runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
      const rows = Array.from({ length: TRIALS }, (_, i) => ({
        organizationId: site.organizationId,
        title: `Bench trial ${String(i + 1).padStart(3, '0')}: ${CONDITIONS[i % CONDITIONS.length]}`,
        status: 'recruiting' as const,
      }));
      const trials = await tx.insert(trial).values(rows).returning({ id: trial.id });
      const criteria = trials.flatMap((row, i) =>
        criteriaOf(i).map((criterion, position) => ({
          organizationId: site.organizationId,
          trialId: row.id,
          position,
          kind: criterion.kind,
          text: criterion.text,
          rule: criterion.rule,
          ruleSource: criterion.rule ? ('structured' as const) : null,
          needsReview: false,
        })),
      );
      for (let start = 0; start < criteria.length; start += 1000) await tx.insert(trialCriterion).values(criteria.slice(start, start + 1000));
    });
    const person = await site.actor.post('/api/candidates/', { firstName: 'Bench', lastName: 'Person', dateOfBirth: '1968-04-02', sex: 'female' });
    if (person.status !== 201) throw new Error(`candidate: ${person.status}`);
    const note = await site.actor.post(`/api/candidates/${person.body.id}/clinical/notes`, { body: NOTE });
    if (note.status !== 201) throw new Error(`note: ${note.status}`);
    console.log(
      `setup: ${TRIALS} recruiting trials x 30 criteria, one person with ${note.body.facts.length} facts, in ${Math.round(performance.now() - setupStart)} ms`,
    );

    const path = `/api/trial-matcher/candidates/${person.body.id}/trials${args.includes('--full') ? '?evidence=full' : ''}`;
    let answerBytes = 0;
    let classes = '';
    for (let i = 0; i < 3; i++) {
      const warm = await site.actor.get(path);
      if (warm.status !== 200) throw new Error(`trials: ${warm.status} ${JSON.stringify(warm.body).slice(0, 300)}`);
      answerBytes = JSON.stringify(warm.body).length;
      classes = JSON.stringify(warm.body.counts);
    }
    const times: number[] = [];
    // BENCH_PROFILE=<file.cpuprofile>: the measured requests are profiled (this process's CPU) into that file.
    const profile = process.env.BENCH_PROFILE ? new Session() : null;
    if (profile) {
      profile.connect();
      await profile.post('Profiler.enable');
      await profile.post('Profiler.start');
    }
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      const answer = await site.actor.get(path);
      times.push(performance.now() - start);
      if (answer.status !== 200) throw new Error(`trials: ${answer.status}`);
    }
    if (profile) {
      const { profile: taken } = await profile.post('Profiler.stop');
      writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(taken));
    }
    times.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `${dbKind}: GET ${path.replace(person.body.id, '{id}')} over ${TRIALS} trials, ${SAMPLES} requests: p50 ${ms(quantile(times, 0.5))}, p90 ${ms(quantile(times, 0.9))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(times.at(-1)!)}; answer ${(answerBytes / 1024).toFixed(0)} KiB; counts ${classes}; load average ${loadavg()[0].toFixed(1)}`,
    );
  } finally {
    await t.close();
  }
}

await main();
