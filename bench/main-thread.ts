/**
 * The main thread's work per page load, told apart from the machine's load (issue 32):
 * `npm run bench:main-thread [-- --builds before=/path/to/tree,after=. --loads 5 --pages /a,/b --no-build]
 * [--keep-traces DIR]`.
 *
 * Lighthouse's blocking time is the trace's wall time x4, so on a shared machine another session's work shows up in
 * it. This bench reads a Chromium trace of each load instead and sums the renderer main thread's CPU time (the trace's
 * `tdur`, time the thread actually ran), which other processes barely move. For each build (a tree with its own
 * `dist/web`, seeded and served as `npm start` does) and page, loads are taken in turn (build A, build B, A, B...) at
 * Lighthouse's phone viewport and 4x CPU slowdown, each in a browser of its own (cold cache). Printed per build and
 * page, medians of the loads: main-thread CPU (the slowdown is in the thread time), "blocking" = the sum over tasks
 * of max(0, CPU - 50 ms) (Lighthouse's rule on CPU time: over the whole load, and from the first contentful paint as
 * Lighthouse counts it), the longest task, and where the CPU went (script per file, modules' top level, style and
 * layout, paint, parsing, garbage collection).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { type StartedServer, sessionCookie, startSeededProduct } from './started-server';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const LOADS = Number(option('loads', '5'));
const PAGES = option('pages', '/sign-in,/trials,/candidates,/admin/dashboard').split(',');
const BUILDS = option('builds', 'this=.')
  .split(',')
  .map((pair) => {
    const [label, tree] = pair.split('=');
    return { label: label!, tree: path.resolve(tree!) };
  });
const ADMIN = { email: 'admin@main-thread.test', password: 'main-thread-admin-password' };
const CPU_SLOWDOWN = 4;
const KEEP_TRACES = option('keep-traces', '');
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; frame?: string } };
}

interface LoadFigures {
  cpuMs: number;
  blockingMs: number;
  blockingAfterPaintMs: number;
  longestMs: number;
  parts: Record<string, number>;
}

/** What a main-thread event's CPU counts as: script per file (its name), or the kind of native work. */
function partOf(event: TraceEvent): string | null {
  const url = event.args?.data?.url;
  switch (event.name) {
    case 'v8.evaluateModule':
      return 'script (modules at load)';
    case 'EvaluateScript':
    case 'FunctionCall':
      return url ? `script ${url.replace(/.*\//, '').replace(/-[\w-]{8}\.js$/, '.js')}` : 'script (other)';
    case 'TimerFire':
    case 'EventDispatch':
    case 'FireAnimationFrame':
    case 'RunMicrotasks':
    case 'v8.run':
      return 'script (other)';
    case 'UpdateLayoutTree':
    case 'Layout':
    case 'RecalculateStyles':
      return 'style and layout';
    case 'Paint':
    case 'PrePaint':
    case 'Layerize':
    case 'UpdateLayer':
    case 'CompositeLayers':
      return 'paint';
    case 'ParseHTML':
    case 'ParseAuthorStyleSheet':
    case 'v8.compile':
    case 'v8.compileModule':
      return 'parsing';
    case 'MajorGC':
    case 'MinorGC':
    case 'V8.GC_MC_BACKGROUND_MARKING':
      return 'garbage collection';
    default:
      return null;
  }
}

/** The page's renderer main thread: the CrRendererMain thread that evaluated the page's own scripts. */
function mainThreadTasks(events: TraceEvent[], origin: string) {
  const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const pageThread = events.find((e) => e.name === 'v8.compileModule' && e.args?.data?.url?.startsWith(origin) && mainThreads.has(`${e.pid}:${e.tid}`));
  if (!pageThread) throw new Error(`no main thread ran ${origin}'s scripts`);
  return events.filter((e) => e.ph === 'X' && e.pid === pageThread.pid && e.tid === pageThread.tid);
}

/** CPU of the main thread's tasks, each task's CPU given to its outermost event with a known part. */
function figuresOf(events: TraceEvent[], origin: string): LoadFigures {
  const cpuOf = (task: TraceEvent) => (task.tdur ?? task.dur ?? 0) / 1000;
  const thread = mainThreadTasks(events, origin).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = thread.filter((e) => e.name === 'RunTask');
  const firstPaint = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === thread[0]?.pid)?.ts ?? Number.POSITIVE_INFINITY;
  // The CPU slowdown is in the trace's thread time already: a task's CPU is its time on the slowed phone.
  const blocking = (task: TraceEvent) => Math.max(0, cpuOf(task) - 50);
  const parts: Record<string, number> = {};
  let claimedUntil = 0;
  for (const event of thread) {
    if (event.name === 'RunTask' || event.ts < claimedUntil) continue;
    const part = partOf(event);
    if (!part) continue;
    parts[part] = (parts[part] ?? 0) + (event.tdur ?? 0) / 1000;
    claimedUntil = event.ts + (event.dur ?? 0);
  }
  const cpuMs = tasks.reduce((sum, task) => sum + cpuOf(task), 0);
  parts['other (native)'] = cpuMs - Object.values(parts).reduce((sum, ms) => sum + ms, 0);
  return {
    cpuMs,
    blockingMs: tasks.reduce((sum, task) => sum + blocking(task), 0),
    blockingAfterPaintMs: tasks.filter((task) => task.ts >= firstPaint).reduce((sum, task) => sum + blocking(task), 0),
    longestMs: Math.max(0, ...tasks.map((task) => cpuOf(task))),
    parts,
  };
}

/** One load in a browser of its own (as Lighthouse does): no renderer or cache left from another load. */
async function measureLoad(url: string, cookie: string | null): Promise<LoadFigures> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    return await tracedLoad(browser, url, cookie);
  } finally {
    await browser.close();
  }
}

async function tracedLoad(browser: Browser, url: string, cookie: string | null): Promise<LoadFigures> {
  const context = await browser.newContext({ ...PHONE, extraHTTPHeaders: cookie ? { Cookie: cookie } : {} });
  const page = await context.newPage();
  // Slowed as Lighthouse's phone is, so the first paint comes where it would on one (the CPU read is the same).
  const devtools = await context.newCDPSession(page);
  await devtools.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'loading'] });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1000);
  const json = (await browser.stopTracing()).toString('utf8');
  if (KEEP_TRACES) {
    mkdirSync(KEEP_TRACES, { recursive: true });
    writeFileSync(path.join(KEEP_TRACES, `${new URL(url).port}${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`), json);
  }
  const trace = JSON.parse(json) as { traceEvents: TraceEvent[] };
  await context.close();
  return figuresOf(trace.traceEvents, new URL(url).origin);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main() {
  const servers: { label: string; server: StartedServer; cookie: string }[] = [];
  try {
    for (const build of BUILDS) {
      const server = await startSeededProduct(build.tree, ADMIN, !args.includes('--no-build'));
      servers.push({ label: build.label, server, cookie: await sessionCookie(server.baseUrl, ADMIN) });
    }
    const loads = new Map<string, LoadFigures[]>();
    for (let i = 0; i < LOADS; i++) {
      for (const pageUrl of PAGES) {
        for (const { label, server, cookie } of servers) {
          const figures = await measureLoad(`${server.baseUrl}${pageUrl}`, pageUrl === '/sign-in' ? null : cookie);
          loads.set(`${pageUrl} ${label}`, [...(loads.get(`${pageUrl} ${label}`) ?? []), figures]);
        }
      }
    }
    console.log(`\nMain thread per load, median of ${LOADS} (at ${CPU_SLOWDOWN}x CPU slowdown):`);
    for (const [key, runs] of loads) {
      const parts = Object.keys(runs[0]!.parts)
        .map((part) => [part, median(runs.map((run) => run.parts[part] ?? 0))] as const)
        .filter(([, ms]) => ms >= 5)
        .sort((a, b) => b[1] - a[1])
        .map(([part, ms]) => `${part} ${Math.round(ms)}`)
        .join(', ');
      console.log(
        `${key.padEnd(28)} CPU ${Math.round(median(runs.map((run) => run.cpuMs)))} ms (${runs.map((run) => Math.round(run.cpuMs)).join(', ')}), blocking ${Math.round(median(runs.map((run) => run.blockingMs)))} ms (after the first paint ${Math.round(median(runs.map((run) => run.blockingAfterPaintMs)))} ms), longest ${Math.round(median(runs.map((run) => run.longestMs)))} ms`,
      );
      console.log(`${''.padEnd(28)} ${parts}`);
    }
  } finally {
    for (const { server } of servers) await server.stop();
  }
}

await main();
