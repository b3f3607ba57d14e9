/**
 * Phone speed of the first pages (issue 32, "Keep it fixed"): `npm run bench:lighthouse [-- options]`.
 *
 * Starts the product as `npm start` does (production build, production mode, simulators) on a fresh PGlite data
 * directory seeded with the demo organization (`npm run seed`, SEED_CANDIDATES people, default 3,000), signs in
 * the internal admin, and runs Lighthouse's mobile preset (its default: a mid-range phone on a slow 4G link,
 * simulated throttling) on /sign-in, /trials, /candidates and /admin/dashboard. Prints per page the median run's
 * performance and accessibility scores, LCP, TBT, the JavaScript transferred (KiB) and any failed accessibility
 * audit.
 *
 * Options: --runs N (default 3, the median by performance is printed), --no-build (reuse dist/web), --url URL with
 * --email/--password (measure a running server instead of starting one), --pages /a,/b, --keep-reports DIR (write
 * every run's Lighthouse JSON there, to read what it blames: LCP element, blocking scripts, unused JavaScript).
 * Needs the `lighthouse` CLI (devDependency, pinned to 12.2.3: later ones need Node 22) and Chromium: Debian's
 * /usr/bin/chromium, or CHROME_PATH; nothing is downloaded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionCookie, startSeededProduct } from './started-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const RUNS = Number(option('runs', '3'));
const PAGES = option('pages', '/sign-in,/trials,/candidates,/admin/dashboard').split(',');
const ADMIN = { email: option('email', 'admin@lighthouse.test'), password: option('password', 'lighthouse-admin-password') };
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const KEEP_REPORTS = option('keep-reports', '');

interface Figures {
  page: string;
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  scriptKiB: number;
  failedAccessibility: string[];
}

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(command, commandArgs, { cwd: repoRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed (${result.status})`);
}

/** The project's Lighthouse CLI, or one on PATH. */
function lighthouseBin(): string {
  const local = path.join(repoRoot, 'node_modules/.bin/lighthouse');
  return existsSync(local) ? local : 'lighthouse';
}

function audit(report: LighthouseReport, id: string) {
  return report.audits[id]?.numericValue ?? Number.NaN;
}

interface LighthouseReport {
  categories: Record<string, { score: number; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
}

/** One Lighthouse run of the mobile preset on a page; /sign-in is measured signed out, the others signed in. */
function lighthouse(url: string, cookie: string | null, workDir: string): Figures {
  const output = path.join(workDir, 'report.json');
  const lighthouseArgs = [
    url,
    '--quiet',
    '--output=json',
    `--output-path=${output}`,
    '--only-categories=performance,accessibility',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
  ];
  if (cookie) {
    writeFileSync(path.join(workDir, 'headers.json'), JSON.stringify({ Cookie: cookie }));
    lighthouseArgs.push(`--extra-headers=${path.join(workDir, 'headers.json')}`);
  }
  // Lighthouse now and then fails to record a load's trace (NO_NAVSTART): that run is taken again, once.
  try {
    run(lighthouseBin(), lighthouseArgs, { ...process.env, CHROME_PATH });
  } catch {
    console.warn(`Lighthouse failed on ${url}; running it again once`);
    run(lighthouseBin(), lighthouseArgs, { ...process.env, CHROME_PATH });
  }
  const json = readFileSync(output, 'utf8');
  if (KEEP_REPORTS) {
    mkdirSync(KEEP_REPORTS, { recursive: true });
    writeFileSync(path.join(KEEP_REPORTS, `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`), json);
  }
  const report = JSON.parse(json) as LighthouseReport;
  const scripts = report.audits['resource-summary']?.details?.items?.find((item) => item.resourceType === 'script');
  const accessibility = report.categories.accessibility!;
  return {
    page: new URL(url).pathname,
    performance: Math.round(report.categories.performance!.score * 100),
    accessibility: Math.round(accessibility.score * 100),
    lcpMs: audit(report, 'largest-contentful-paint'),
    tbtMs: audit(report, 'total-blocking-time'),
    scriptKiB: (scripts?.transferSize ?? 0) / 1024,
    failedAccessibility: accessibility.auditRefs.map((ref) => ref.id).filter((id) => report.audits[id]?.score === 0),
  };
}

async function main() {
  const external = option('url', '');
  const product = external
    ? { baseUrl: external.replace(/\/$/, ''), stop: async () => {} }
    : await startSeededProduct(repoRoot, ADMIN, !args.includes('--no-build'));
  const workDir = mkdtempSync(path.join(tmpdir(), 'cohortly-lighthouse-report-'));
  try {
    const cookie = await sessionCookie(product.baseUrl, ADMIN);
    const rows: Figures[] = [];
    for (const page of PAGES) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(lighthouse(`${product.baseUrl}${page}`, page === '/sign-in' ? null : cookie, workDir));
      runs.sort((a, b) => a.performance - b.performance);
      const median = runs[Math.floor(runs.length / 2)]!;
      rows.push(median);
      console.log(`${page}: performance ${runs.map((r) => r.performance).join(', ')} (median ${median.performance})`);
    }
    console.log(`\nLighthouse mobile preset, median of ${RUNS} run(s):`);
    console.log(
      `${'page'.padEnd(18)} ${'perf'.padStart(4)} ${'a11y'.padStart(4)} ${'LCP'.padStart(7)} ${'TBT'.padStart(7)} ${'JS KiB'.padStart(7)}  failed a11y`,
    );
    for (const row of rows) {
      console.log(
        `${row.page.padEnd(18)} ${String(row.performance).padStart(4)} ${String(row.accessibility).padStart(4)} ${`${(row.lcpMs / 1000).toFixed(1)} s`.padStart(7)} ${`${Math.round(row.tbtMs)} ms`.padStart(7)} ${row.scriptKiB.toFixed(0).padStart(7)}  ${row.failedAccessibility.join(', ') || '-'}`,
      );
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await product.stop();
  }
}

await main();
