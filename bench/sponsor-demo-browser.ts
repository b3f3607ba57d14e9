/**
 * The browser half of `npm run bench:sponsor-demo` (issue 32, item 10): the product started as `npm start` runs it,
 * the demo data made by the demo page's reset, and Chromium timing each sponsor demo screen from navigation to its
 * data on the screen. See bench/sponsor-demo.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { freePort } from '../tests/support/free-port';
import { productEnv, whenServerAnswers } from './started-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { email: 'admin@sponsor-bench.test', password: 'sponsor-bench-password' };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

/** What shows that a screen's data is on the screen (the sponsor demo journey's own markers). */
const TAB_MARKERS = {
  overview: '[data-testid="sponsor-kpis"]',
  'site-performance': '[data-testid="performance-row"]',
  forecasting: '[data-testid="sites-needed"]',
  demographics: '[data-testid="demographics-ethnicity"]',
} as const;
const TAB_LABELS: Record<keyof typeof TAB_MARKERS, string> = {
  overview: 'Overview',
  'site-performance': 'Site performance',
  forecasting: 'Forecasting',
  demographics: 'Demographics',
};

export async function startProduct(build: boolean, candidates: number) {
  const env = { ...process.env, NODE_ENV: 'production' };
  if (build) {
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: repoRoot, env, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cohortly-sponsor-bench-'));
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: { ...productEnv(env, { dataDir, port, baseUrl, admin: ADMIN }), DEMO_CANDIDATES: String(candidates) },
    stdio: 'ignore',
  });
  return whenServerAnswers(server, baseUrl, dataDir, 150_000);
}

/** The admin's session cookie, and the demo data made by the demo page's reset (waited for). */
export async function seedThroughTheApp(baseUrl: string): Promise<string> {
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(ADMIN),
  });
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.status}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const call = (method: string, route: string) => fetch(`${baseUrl}${route}`, { method, headers: { cookie, origin: baseUrl, accept: 'application/json' } });
  const started = await call('POST', '/api/demo/reset');
  if (started.status !== 202) throw new Error(`reset: ${started.status}`);
  for (;;) {
    const status = (await (await call('GET', '/api/demo/')).json()) as { reset: { status: string } | null };
    if (status.reset?.status === 'completed') break;
    if (status.reset?.status === 'failed') throw new Error('the demo reset failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return cookie;
}

/** In the page: performance.now() (ms since the navigation began) once an element matching `selector` is visible. */
async function whenShown(selector: string): Promise<number> {
  for (;;) {
    const element = document.querySelector(selector) as HTMLElement | null;
    if (element && element.getClientRects().length > 0) return performance.now();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}

/** Times the sponsor demo's screens in Chromium; rows of [screen, samples in ms]. */
export async function browserRows(options: { build: boolean; samples: number; candidates: number }): Promise<Array<[string, number[]]>> {
  const product = await startProduct(options.build, options.candidates);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const cookie = await seedThroughTheApp(product.baseUrl);
    const trials = (await (await fetch(`${product.baseUrl}/api/sponsor-demo/trials`, { headers: { cookie, accept: 'application/json' } })).json()) as {
      trials: Array<{ id: string }>;
    };
    const trial = trials.trials[0].id;
    const sites = (await (
      await fetch(`${product.baseUrl}/api/sponsor-demo/trials/${trial}/sites`, { headers: { cookie, accept: 'application/json' } })
    ).json()) as {
      sites: Array<{ id: string }>;
    };
    const chosen = sites.sites.slice(0, 2).map((site) => site.id);
    const flow = `trial=${encodeURIComponent(JSON.stringify(trial))}&sites=${encodeURIComponent(JSON.stringify(chosen))}`;
    const context = await browser.newContext({ baseURL: product.baseUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));

    const screens: Array<[string, string, string]> = [
      ['site selection (load)', `/admin/demo/sponsors/site-selection?trial=${encodeURIComponent(JSON.stringify(trial))}`, '[data-testid="site-row"]'],
      ['connect (load)', `/admin/demo/sponsors/connect?${flow}`, '[data-testid="connect-site"]'],
      ...Object.entries(TAB_MARKERS).map(([tab, marker]): [string, string, string] => [
        `dashboard ${tab} (load)`,
        `/admin/demo/sponsors/dashboard?${flow}&tab=${tab}`,
        marker,
      ]),
      ['complete (load)', `/admin/demo/sponsors/complete?${flow}`, '[data-testid="sponsor-summary"]'],
    ];
    const rows: Array<[string, number[]]> = [];
    // Timed in the page, not by polling from outside (Playwright's waits poll at up to 500 ms and would be measured):
    // performance.now() counts from the navigation's start, and a frame-by-frame check sees the data when it shows.
    const load = async (url: string, marker: string) => {
      await page.goto(url, { waitUntil: 'commit' });
      return page.evaluate(whenShown, marker);
    };
    // Where a load's time goes: when the screen's data request left, the server's answer (request to first byte, the
    // network a loopback), and the page's own work from the answer to the data on the screen.
    const dataRequest = (path: string) =>
      page.evaluate((part) => {
        const entry = performance.getEntriesByType('resource').find((item) => item.name.includes(part)) as PerformanceResourceTiming | undefined;
        return entry ? { sent: entry.requestStart, firstByte: entry.responseStart, end: entry.responseEnd } : null;
      }, path);
    const parts = new Map<string, Record<'sent' | 'server' | 'drawn', number[]>>();
    for (const [name, url, marker] of screens) {
      await load(url, marker); // warm-up: the code and the answer cached as a returning sponsor would have them
      const samples: number[] = [];
      // Every dashboard tab's load is one group; the complete step shows the dashboard's answer too.
      const group = name.startsWith('dashboard') ? 'dashboard (all tabs)' : name.replace(' (load)', '');
      // The API's address only: a route's code file (assets/dashboard-*.js) also has '/dashboard' in its name.
      const path = `/api/sponsor-demo/trials/${trial}/${group === 'site selection' || group === 'connect' ? 'sites' : 'dashboard'}`;
      for (let i = 0; i < options.samples; i++) {
        const shown = await load(url, marker);
        samples.push(shown);
        const request = await dataRequest(path);
        if (!request) continue;
        const split = parts.get(group) ?? { sent: [], server: [], drawn: [] };
        split.sent.push(request.sent);
        split.server.push(request.firstByte - request.sent);
        split.drawn.push(shown - request.end);
        parts.set(group, split);
      }
      rows.push([name, samples]);
    }
    for (const [group, split] of parts) {
      rows.push([`  ${group}: request sent at`, split.sent]);
      rows.push([`  ${group}: server answer`, split.server]);
      rows.push([`  ${group}: answer to shown`, split.drawn]);
    }
    // Within the dashboard: a click on a tab until its data shows.
    for (const [tab, marker] of Object.entries(TAB_MARKERS) as Array<[keyof typeof TAB_MARKERS, string]>) {
      const samples: number[] = [];
      for (let i = 0; i <= options.samples; i++) {
        const from = tab === 'overview' ? 'demographics' : 'overview';
        await load(`/admin/demo/sponsors/dashboard?${flow}&tab=${from}`, TAB_MARKERS[from]);
        const tabButton = `#sponsor-tab-${tab}`;
        const took = await page.evaluate(
          async ([button, selector]) => {
            const started = performance.now();
            (document.querySelector(button) as HTMLElement).click();
            for (;;) {
              const element = document.querySelector(selector) as HTMLElement | null;
              if (element && element.getClientRects().length > 0) return performance.now() - started;
              await new Promise((resolve) => requestAnimationFrame(resolve));
            }
          },
          [tabButton, marker] as const,
        );
        if (i > 0) samples.push(took);
      }
      rows.push([`dashboard ${tab} (tab click)`, samples]);
    }
    return rows;
  } finally {
    await browser.close();
    await product.stop();
  }
}
