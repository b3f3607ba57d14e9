/**
 * Sponsor demo benchmark (issue 32, item 10): `npm run bench:sponsor-demo -- [--db pglite|postgres] [--samples S]
 * [--no-browser] [--no-build] [--browser-samples B]`.
 *
 * The API: seeds the demo organization as `npm run seed` does (3,000 candidates by default, SEED_CANDIDATES
 * overrides), signs in as the internal admin and times, through the real app, each call the sponsor demo's screens
 * make: the trial list, the ranked sites of every recruiting trial, and its dashboard (the four tabs share one answer)
 * for all sites and for the two best-ranked. Prints p50/p95/max in milliseconds per call; the goal is < 500 ms.
 *
 * The browser (unless --no-browser): starts the product as `npm start` does (production build unless --no-build,
 * production mode, a fresh PGlite data directory), creates the demo data with the demo page's reset (a processing
 * run), signs in in Debian's Chromium (CHROMIUM_PATH) and times, per sponsor demo screen and dashboard tab, a
 * navigation to its address until its data is on the screen (a full page load: the app, the session, the data),
 * and a click on each dashboard tab until its data shows. Same goal: < 500 ms.
 *
 * PostgreSQL: TEST_DATABASE_URL (a scratch database is created and dropped, as the integration tests do). */
import { DEFAULT_DEMO_CANDIDATES, seedDemoOrganization } from '../src/server/features/demo/seed';
import { createTestApp, type Actor } from '../tests/support/test-app';
import { browserRows } from './sponsor-demo-browser';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const SAMPLES = Number(option('samples', '10'));
const db = option('db', 'pglite');
if (db === 'postgres') process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
else delete process.env.TEST_DATABASE_URL;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function time(actor: Actor, path: string): Promise<number[]> {
  const first = await actor.get(path);
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${JSON.stringify(first.body).slice(0, 200)}`);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const answer = await actor.get(path);
    samples.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
  }
  return samples.sort((left, right) => left - right);
}

const t = await createTestApp({ LOG_LEVEL: 'warn' });
try {
  const candidates = Number(process.env.SEED_CANDIDATES ?? DEFAULT_DEMO_CANDIDATES);
  const seeded = performance.now();
  await seedDemoOrganization(t.deps.db, { candidates });
  console.log(
    `sponsor demo bench on ${db}: ${candidates} demo candidates seeded in ${Math.round(performance.now() - seeded)} ms; ${SAMPLES} samples per call (after one warm-up)`,
  );
  const admin = await t.signInAdmin();
  const rows: Array<[string, number[]]> = [['trials', await time(admin, '/api/sponsor-demo/trials')]];
  const trials = (await admin.get('/api/sponsor-demo/trials')).body.trials as Array<{ id: string; title: string }>;
  for (const [index, trial] of trials.entries()) {
    rows.push([`trial ${index + 1} sites`, await time(admin, `/api/sponsor-demo/trials/${trial.id}/sites`)]);
    rows.push([`trial ${index + 1} dashboard, all sites`, await time(admin, `/api/sponsor-demo/trials/${trial.id}/dashboard`)]);
    const sites = (await admin.get(`/api/sponsor-demo/trials/${trial.id}/sites`)).body.sites as Array<{ id: string }>;
    const chosen = `siteIds=${sites
      .slice(0, 2)
      .map((site) => site.id)
      .join(',')}`;
    rows.push([`trial ${index + 1} dashboard, 2 sites`, await time(admin, `/api/sponsor-demo/trials/${trial.id}/dashboard?${chosen}`)]);
  }
  report('API', rows);
} finally {
  await t.close();
}
if (!args.includes('--no-browser')) {
  report(
    'browser',
    await browserRows({
      build: !args.includes('--no-build'),
      samples: Number(option('browser-samples', '5')),
      candidates: Number(process.env.SEED_CANDIDATES ?? DEFAULT_DEMO_CANDIDATES),
    }),
  );
}

function report(what: string, rows: Array<[string, number[]]>) {
  console.log(`\n${what}`);
  console.log('call'.padEnd(40), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'max ms'.padStart(8));
  for (const [name, samples] of rows) {
    const sorted = [...samples].sort((left, right) => left - right);
    console.log(name.padEnd(40), ...[50, 95, 100].map((p) => percentile(sorted, p).toFixed(0).padStart(8)));
  }
  // Indented rows are parts of a load (bench/sponsor-demo-browser.ts), not screens of their own.
  const worst = Math.max(
    ...rows
      .filter(([name]) => !name.startsWith(' '))
      .map(([, samples]) =>
        percentile(
          [...samples].sort((left, right) => left - right),
          95,
        ),
      ),
  );
  console.log(`${what} worst p95: ${worst.toFixed(0)} ms (goal < 500 ms) ${worst < 500 ? 'met' : 'NOT met'}`);
}
