import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, startApp, type RunningApp, confirmEmailLink } from './support';

/** Minutes: the warning opens a minute before the sign-out, so 15 seconds after the last activity. */
const IDLE_MINUTES = 1.25;
const IDLE_MS = IDLE_MINUTES * 60_000;

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ SESSION_IDLE_MINUTES: String(IDLE_MINUTES) });
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** When the server would end the session, read without counting as activity (the web app's passive header). */
async function serverDeadline(page: Page): Promise<number> {
  const response = await page.request.get('/api/users/me', { headers: { 'x-cohortly-passive': '1' } });
  expect(response.status()).toBe(200);
  return Date.parse(response.headers()['x-session-expires-at']!);
}

describe('idle sign-out (issue 14)', () => {
  it('warns a minute before the idle sign-out, stays signed in on request, then signs out and returns the user to the same page after signing in', async () => {
    const { page } = await app.newPage();
    const email = `idle.${unique()}@site.test`;
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Ida Idle');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Quiet Hours Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    // A filtered list, its filters in the URL.
    const listUrl = '/candidates?search=nell&status=new&sort=lastName%3Aasc';
    await page.goto(listUrl);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Candidates');
    const before = await serverDeadline(page);
    expect(before - Date.now()).toBeLessThanOrEqual(IDLE_MS);

    // Left alone, the warning opens a minute before the sign-out, with the seconds left.
    const warning = page.getByRole('dialog', { name: 'Are you still there?' });
    await warning.waitFor({ timeout: IDLE_MS });
    expect(await warning.textContent()).toMatch(/For the safety of patient data you will be signed out in ([1-5]\d|60) seconds\./);
    await checkPage(page);

    // "Stay signed in" is activity: the dialog closes and the server's deadline moves a full idle period ahead.
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    await expect.poll(() => warning.count()).toBe(0);
    const stayedAt = Date.now();
    const after = await serverDeadline(page);
    expect(after).toBeGreaterThan(before);
    expect(after).toBeGreaterThan(stayedAt + IDLE_MS - 10_000);
    expect(new URL(page.url()).pathname).toBe('/candidates');

    // Left alone again: the warning comes back, and at the deadline the app signs out to the sign-in page.
    await warning.waitFor({ timeout: IDLE_MS });
    await page.waitForURL(/\/sign-in\?redirect=/, { timeout: IDLE_MS });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect((await page.request.get('/api/users/me', { headers: { 'x-cohortly-passive': '1' } })).status()).toBe(401);

    // Signing in again returns to the same list with its filters.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/candidates');
    const back = new URL(page.url());
    expect(Object.fromEntries(back.searchParams)).toEqual({ search: 'nell', status: 'new', sort: 'lastName:asc' });
    await expect.poll(() => page.locator('#candidate-search').inputValue()).toBe('nell');
  });
});
