import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, signUpSite, startApp, type RunningApp } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const WAIT = { timeout: 20_000 };

/** The tab's panel has finished loading: no skeleton, some content (KPIs, an empty state or an error). */
async function tabLoaded(page: Page) {
  const panel = page.getByRole('tabpanel');
  await expect
    .poll(async () => (await page.getByTestId('dashboard-skeleton').count()) === 0 && ((await panel.textContent()) ?? '').trim().length > 0, WAIT)
    .toBe(true);
  expect(await panel.getByRole('alert').count()).toBe(0);
}

describe('Admin dashboard', () => {
  it('a coordinator goes through every tab, keeps the filters across a reload and downloads a CSV', async () => {
    const { context, page } = await app.newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signUpSite(page, { name: 'Dana Dashboard', email: `dash.${unique()}@site.test`, site: 'Meadow Research' });
    const trial = await page.request.post('/api/trials/', { data: { title: 'Migraine prevention study', targetEnrollment: 20 } });
    expect(trial.status()).toBe(201);
    expect((await page.request.patch(`/api/trials/${(await trial.json()).id}`, { data: { status: 'recruiting' } })).status()).toBe(200);
    // Two candidates entered by hand: the funnel's first stage.
    for (const [firstName, phone] of [
      ['Uma', '+12125550191'],
      ['Vic', '+12125550192'],
    ]) {
      expect((await page.request.post('/api/candidates/', { data: { firstName, lastName: 'Funnel', phone, timeZone: 'America/New_York' } })).status()).toBe(
        201,
      );
    }

    // The staff menu leads to the dashboard; it opens on the funnel with the last 30 days.
    await page.getByRole('navigation', { name: 'Manage' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/admin\/dashboard/);
    await tabLoaded(page);
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Funnel');
    expect(await page.getByLabel('Range').inputValue()).toBe('30d');
    const kpis = page.getByTestId('kpis');
    await expect.poll(() => kpis.textContent(), WAIT).toContain('Candidates created2');
    await checkPage(page);
    // On a phone the sidebar's links are drawn when the menu opens (hidden, they only cost the first render: issue 32).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.getByRole('navigation', { name: 'Manage' }).count(), WAIT).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Manage' }).getByRole('link', { name: 'Dashboard' }).isVisible(), WAIT).toBe(true);
    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await expect.poll(() => page.getByRole('navigation', { name: 'Manage' }).isVisible(), WAIT).toBe(true);
    // Each chart has its table: "Show as table" brings it into view.
    await page.getByRole('button', { name: 'Show as table' }).first().click();
    const stages = page.getByRole('table', { name: 'Funnel stages' });
    await expect.poll(() => stages.isVisible(), WAIT).toBe(true);
    expect(await stages.getByRole('row').nth(1).textContent()).toContain('Created2');
    await checkPage(page);

    // Staff see six tabs: the customer overview is for Cohortly's admins.
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Funnel', 'Prescreen', 'Satisfaction', 'Trial lifecycle', 'Trial matcher', 'Costs']);
    for (const name of tabs.slice(1)) {
      await page.getByRole('tab', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { selected: true }).textContent(), WAIT).toBe(name);
      await tabLoaded(page);
      await checkPage(page);
    }
    // The satisfaction tab says how ratings are collected; the lifecycle tab lists the trial.
    await page.getByRole('tab', { name: 'Satisfaction' }).click();
    await expect.poll(() => page.getByRole('tabpanel').textContent(), WAIT).toMatch(/end of a chat|CSAT/);
    await page.getByRole('tab', { name: 'Trial lifecycle' }).click();
    await expect.poll(() => page.getByRole('tabpanel').textContent(), WAIT).toContain('Migraine prevention study');

    // Arrow keys move between tabs.
    await page.getByRole('tab', { name: 'Trial lifecycle' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent(), WAIT).toBe('Trial matcher');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent(), WAIT).toBe('Trial lifecycle');

    // Filters live in the URL: they survive a reload.
    await page.getByLabel('Range').selectOption('7d');
    await page.getByLabel('Source').selectOption('call');
    await expect.poll(() => page.url(), WAIT).toMatch(/preset=7d/);
    expect(page.url()).toMatch(/source=call/);
    await page.reload();
    await tabLoaded(page);
    expect(await page.getByLabel('Range').inputValue()).toBe('7d');
    expect(await page.getByLabel('Source').inputValue()).toBe('call');
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Trial lifecycle');

    // A custom range.
    await page.getByLabel('From').fill('2026-01-01');
    await expect.poll(() => page.url(), WAIT).toMatch(/from=2026-01-01/);
    expect(await page.getByLabel('Range').inputValue()).toBe('custom');
    await tabLoaded(page);

    // The CSV of the tab, with the same filters.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('cohortly-trial-lifecycle.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('section,group,metric,value');
    expect(lines).toContain('filters,,from,2026-01-01');
    expect(lines).toContain('filters,,source,call');
    expect(lines).toContain('trial,Migraine prevention study,target_enrollment,20');
    await context.close();
  });

  it('a Cohortly admin sees the customer overview', async () => {
    const { context, page } = await app.newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const switcher = page.locator('#org-switcher');
    await switcher.waitFor();
    await switcher.selectOption({ label: 'Cohortly' });
    await page.goto('/admin/dashboard?tab=customer-overview');
    await tabLoaded(page);
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Customers');
    await expect.poll(() => page.getByRole('tabpanel').textContent(), WAIT).toContain('Meadow Research');
    await checkPage(page);
    await context.close();
  });
});
