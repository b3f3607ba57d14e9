import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { watchConsole } from './page-check';
import { freePort } from '../support/free-port';

export { checkPage, expectAccessible } from './page-check';

export const ADMIN_EMAIL = 'admin@cohortly.test';
export const ADMIN_PASSWORD = 'e2e-admin-password';

/** Debian's Chromium with the flags that work on these machines (no downloads, no background network). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RunningApp {
  baseUrl: string;
  browser: Browser;
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

/**
 * Starts the built app (dist/web must exist: `npm run build`) as `npm start` does, on a fresh PGlite data
 * directory, and Chromium. `env` adds to or overrides the server's environment (e.g. a short
 * SESSION_IDLE_MINUTES).
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cohortly-e2e-'));
  const baseUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      // The way the README's `npm start` runs it: production mode, no provider secrets (simulators).
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      VAPI_API_KEY: '',
      VAPI_SERVER_SECRET: '',
      TWILIO_ACCOUNT_SID: '',
      TWILIO_AUTH_TOKEN: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_BASE_URL: baseUrl,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));

  // Generous: a cold start migrates a new embedded database, and CI machines are small and busy.
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`app did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // Every context a journey opens (through newPage() or the browser) starts at the checked desktop size and has
  // its console watched, so checkPage() can fail on an error seen anywhere in the journey.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({ viewport: { width: 1280, height: 800 }, ...options });
    watchConsole(context);
    return context;
  };
  return {
    baseUrl,
    browser,
    async newPage() {
      const context = await browser.newContext({ baseURL: baseUrl });
      const page = await context.newPage();
      return { context, page };
    },
    async stop() {
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Chooses in a Combobox (src/web/components/Combobox.tsx) as a person does: click it, type part of a name,
 * press Enter (the first match), then wait until the button shows the choice (`shows`, by default the typed
 * text, in any case).
 */
export async function pickFromCombobox(
  page: Page,
  combobox: Locator,
  typed: string,
  shows: string | RegExp = new RegExp(typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
) {
  await combobox.click();
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  await page.keyboard.type(typed);
  await expect.poll(() => listbox.getByRole('option').first().isVisible()).toBe(true);
  await page.keyboard.press('Enter');
  await expect.poll(() => listbox.count()).toBe(0);
  await expect.poll(async () => (await combobox.textContent()) ?? '').toMatch(shows);
}

/** Signs up a new research site's first user and waits for /trials, as a new customer does. */
export async function signUpSite(page: Page, person: { name: string; email: string; site: string }) {
  await page.goto('/sign-up');
  await page.getByLabel('Name', { exact: true }).fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill('a-good-long-password');
  await page.getByLabel('Research site name').fill(person.site);
  await page.getByRole('button', { name: 'Create account' }).click();
  await confirmEmailLink(page);
  await page.waitForURL(/\/trials$/);
}

/**
 * After a sign-up the address is confirmed by the mailed link (decision 121). The tests' server has no SMTP, so the
 * "check your email" screen shows the simulated mail's link: open it, as the person would open the mail.
 */
export async function confirmEmailLink(page: Page) {
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await page.getByRole('link', { name: 'Open the link from the message' }).click();
}

/**
 * Imports the asthma fixture from ClinicalTrials.gov through the import screen and starts recruiting, as a
 * coordinator does once the draft is reviewed (calls and the public chat need a recruiting trial). Answers
 * the trial's id; the page is left on the trial.
 */
export async function importRecruitingTrial(page: Page): Promise<string> {
  await page.goto('/trials/import');
  await page.getByLabel('ClinicalTrials.gov JSON file').setInputFiles('tests/fixtures/ctgov/asthma-study.json');
  await page.getByRole('button', { name: 'Create draft trial' }).click();
  await page.waitForURL(/\/trials\/[0-9a-f-]{36}$/);
  const trialId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Start recruiting' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Pause recruiting' }).isVisible(), { timeout: 20_000 }).toBe(true);
  return trialId;
}
