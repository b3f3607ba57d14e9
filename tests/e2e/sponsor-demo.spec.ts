import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, startApp, type RunningApp } from './support';

/**
 * The sponsor demo, start to finish, on seeded demo data (`npm run seed` into the app's data directory before it
 * starts): intro, site selection (sorting, choosing, a reload keeps the choice), the simulated connection, the
 * dashboard's four tabs (a reload keeps the tab), the summary. Axe on every step.
 */

let app: RunningApp;
let dataDir: string;

async function seedDemo(directory: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: directory, DATABASE_URL: '', SEED_CANDIDATES: '600' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seed failed (${code}):\n${output}`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'cohortly-e2e-sponsor-'));
  await seedDemo(dataDir);
  app = await startApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const WAIT = { timeout: 20_000 };

describe('Sponsor demo', () => {
  it('walks a sponsor from the intro to the summary, and every step survives a reload', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);

    // 1. Intro.
    await page.goto('/admin/demo/sponsors/intro');
    await expect.poll(() => page.getByRole('heading', { name: 'Sponsor demo', level: 1 }).isVisible(), WAIT).toBe(true);
    await checkPage(page);
    // Issue 32: shown to a sponsor, so its own full-width layout: no admin sidebar or breadcrumbs, one way out.
    expect(await page.locator('#sidebar').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Exit demo' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Start' }).click();

    // 2. Site selection: a trial, its ranked sites.
    await page.waitForURL(/\/admin\/demo\/sponsors\/site-selection/);
    const trialSelect = page.getByRole('combobox', { name: 'Trial', exact: true });
    await expect.poll(() => trialSelect.isVisible(), WAIT).toBe(true);
    await trialSelect.selectOption({ index: 1 });
    const rows = page.getByTestId('site-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThanOrEqual(5);
    await checkPage(page);
    // Ranked: rank 1 first; a site not started is last.
    await expect.poll(async () => (await rows.first().locator('td').nth(1).textContent())?.trim(), WAIT).toBe('1');
    expect(await rows.last().getByText('Not started', { exact: true }).count()).toBe(1);
    // Sorting by the pool: largest first, then smallest first.
    const poolHeader = page.getByRole('columnheader', { name: /Matching pool/ });
    await poolHeader.getByRole('button').click();
    await expect.poll(() => poolHeader.getAttribute('aria-sort')).toBe('descending');
    const pools = async () => (await rows.locator('td:nth-child(4)').allTextContents()).map((text) => Number(text.replace(/,/g, '')));
    const descending = await pools();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    await poolHeader.getByRole('button').click();
    await expect.poll(() => poolHeader.getAttribute('aria-sort')).toBe('ascending');

    // Choose sites: the top 3, then untick one; a reload keeps the choice (it is in the URL).
    await page.getByRole('button', { name: 'Choose the top 3' }).click();
    await expect.poll(() => page.getByTestId('chosen-count').textContent()).toMatch(/^3 of \d+ sites chosen$/);
    const firstChosen = rows.filter({ has: page.locator('input[type=checkbox]:checked') }).first();
    await firstChosen.locator('input[type=checkbox]').uncheck();
    await expect.poll(() => page.getByTestId('chosen-count').textContent()).toMatch(/^2 of \d+ sites chosen$/);
    await page.reload();
    await expect.poll(() => page.getByTestId('chosen-count').textContent(), WAIT).toMatch(/^2 of \d+ sites chosen$/);
    expect(await page.locator('input[type=checkbox]:checked').count()).toBe(2);
    await page.getByRole('link', { name: 'Next: Connect' }).click();

    // 3. Connect: each chosen site goes through its steps (simulated).
    await page.waitForURL(/\/admin\/demo\/sponsors\/connect/);
    await expect.poll(() => page.getByTestId('connect-site').count(), WAIT).toBe(2);
    await expect.poll(() => page.getByTestId('connect-status').textContent(), WAIT).toBe('All 2 sites are connected and ready.');
    await checkPage(page);
    await page.getByRole('link', { name: 'Open the dashboard' }).click();

    // 4. Dashboard: overview.
    await page.waitForURL(/\/admin\/demo\/sponsors\/dashboard/);
    await expect.poll(() => page.getByTestId('sponsor-kpis').isVisible(), WAIT).toBe(true);
    await expect.poll(() => page.getByTestId('funnel-row').count(), WAIT).toBe(6);
    // The tiles are one chain from the candidates: no step shows more people than the one before it (decision 160).
    const tiles = page.getByTestId('sponsor-kpis').locator('dt');
    expect(await tiles.allTextContents()).toEqual(['Candidates', 'Contacted', 'Prescreened', 'Passed', 'Booked', 'Enrolled']);
    const values = (await page.getByTestId('sponsor-kpis').locator('dd.text-2xl').allTextContents()).map((text) => Number(text.replace(/,/g, '')));
    expect(
      values.every((value, i) => i === 0 || value <= values[i - 1]),
      values.join(' > '),
    ).toBe(true);
    await checkPage(page);

    // Site performance: one row per chosen site.
    await page.getByRole('tab', { name: 'Site performance' }).click();
    await expect.poll(() => page.getByTestId('performance-row').count(), WAIT).toBe(2);
    await checkPage(page);

    // Forecasting: the projected date, and sites needed by a date.
    await page.getByRole('tab', { name: 'Forecasting' }).click();
    await expect.poll(() => page.getByTestId('sites-needed').isVisible(), WAIT).toBe(true);
    expect(await page.getByTestId('forecast-row').count()).toBe(2);
    await checkPage(page);
    const finishBy = page.getByLabel('Finish by');
    const nextYear = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    await finishBy.fill(nextYear);
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(new RegExp(`deadline=${nextYear}`));
    await expect
      .poll(() => page.getByRole('columnheader', { name: /Expected by/ }).textContent(), WAIT)
      .toContain(new Date(`${nextYear}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }));

    // A reload keeps the tab, the trial and the sites.
    await page.reload();
    await expect.poll(() => page.getByRole('tab', { name: 'Forecasting' }).getAttribute('aria-selected'), WAIT).toBe('true');
    await expect.poll(() => page.getByTestId('forecast-row').count(), WAIT).toBe(2);

    // Demographics: the pool against the goals.
    await page.getByRole('tab', { name: 'Demographics' }).click();
    await expect.poll(() => page.getByTestId('demographics-ethnicity').isVisible(), WAIT).toBe(true);
    expect(await page.getByTestId('demographics-race').count()).toBe(1);
    await checkPage(page);

    // 5. Complete: the summary.
    await page.getByRole('link', { name: 'Next: Complete' }).click();
    await page.waitForURL(/\/admin\/demo\/sponsors\/complete/);
    await expect.poll(() => page.getByTestId('sponsor-summary').isVisible(), WAIT).toBe(true);
    expect(await page.getByText('2 sites chosen:').count()).toBe(1);
    await checkPage(page);
    // Exit demo: back to the demos, in the admin layout again.
    await page.getByRole('link', { name: 'Exit demo' }).click();
    await page.waitForURL(/\/admin\/demo$/);
    await expect.poll(() => page.locator('#sidebar').count(), WAIT).toBe(1);
    await context.close();
  });
});
