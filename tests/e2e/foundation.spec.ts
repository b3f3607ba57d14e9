import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, startApp, type RunningApp, confirmEmailLink } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

describe('a new research site', () => {
  it('signs up, lands on /trials, signs out and back in, and returns to where it was going', async () => {
    const { context, page } = await app.newPage();
    const email = `coordinator.${unique()}@site.test`;

    await page.goto('/');
    await page.waitForURL(/\/sign-in\?redirect=/);
    await checkPage(page);

    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Casey Coordinator');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Riverside Research Center');
    await checkPage(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);
    await expect.poll(() => page.getByText('Riverside Research Center').first().isVisible()).toBe(true);
    await checkPage(page);
    // A non-admin has no organization switcher.
    expect(await page.locator('#org-switcher').count()).toBe(0);

    await page.goto('/sign-out');
    await page.waitForURL(/\/sign-in/);

    // A signed-out visit to a signed-in route goes to sign-in with a redirect, and comes back after.
    await page.goto('/settings/account');
    await page.waitForURL(/\/sign-in\?redirect=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings\/account$/);
    await checkPage(page);

    // Signed in, /sign-in sends the user home, and home is /trials.
    await page.goto('/sign-in');
    await page.waitForURL(/\/trials$/);
    await context.close();
  });

  it('flags every empty field on the first submit, the research site name included', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Casey Coordinator');
    await page.getByLabel('Email').fill(`coordinator.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    // The research site name is left empty: one click on "Create account" says so, nothing is created.
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText('Enter the name of your research site').isVisible()).toBe(true);
    expect(await page.getByLabel('Research site name').getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/sign-up');
    await context.close();
  });

  it('refuses a wrong password with a message, and stays on sign-in', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, 'not-the-password');
    await expect
      .poll(() =>
        page
          .getByText(/invalid email or password/i)
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });
});

describe('an internal admin', () => {
  it('switches the active organization, and the choice survives a reload', async () => {
    // A customer organization to switch to.
    const setup = await app.newPage();
    await setup.page.goto('/sign-up');
    await setup.page.getByLabel('Name', { exact: true }).fill('Owner');
    await setup.page.getByLabel('Email').fill(`owner.${unique()}@site.test`);
    await setup.page.getByLabel('Password').fill('a-good-long-password');
    await setup.page.getByLabel('Research site name').fill('Switch Target Clinic');
    await setup.page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(setup.page);
    await setup.page.waitForURL(/\/trials$/);
    await setup.context.close();

    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const switcher = page.locator('#org-switcher');
    await switcher.waitFor();
    const optionLabels = await switcher.locator('option').allTextContents();
    expect(optionLabels).toEqual(expect.arrayContaining(['Cohortly', 'Switch Target Clinic']));

    // What a person sees, each waited for (never a fixed pause): under load a page can take seconds to show, and a
    // one-second poll on a call that itself waits for the element was the flake CI saw.
    const shown = (locator: typeof switcher) => locator.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent ?? null);
    const seen = { timeout: 20_000 };
    await switcher.selectOption({ label: 'Switch Target Clinic' });
    // The switcher shows the choice: the app has stored it (synchronously, before any request), so a reload keeps it.
    await expect.poll(() => shown(switcher), seen).toBe('Switch Target Clinic');
    await page.goto('/admin/organization');
    await expect.poll(() => page.getByLabel('Organization name').isVisible(), seen).toBe(true);
    await expect.poll(() => page.getByLabel('Organization name').inputValue(), seen).toBe('Switch Target Clinic');
    const stored = await page.evaluate(() => localStorage.getItem('cohortly-active-org-id'));
    expect(stored).toBeTruthy();

    await page.reload();
    await expect.poll(() => page.locator('#org-switcher').isVisible(), seen).toBe(true);
    await expect.poll(() => shown(page.locator('#org-switcher')), seen).toBe('Switch Target Clinic');
    await expect.poll(() => page.getByLabel('Organization name').inputValue(), seen).toBe('Switch Target Clinic');
    await checkPage(page);

    // A quick reload right after switching keeps the choice too: it is stored before the reload can start.
    await page.locator('#org-switcher').selectOption({ label: 'Cohortly' });
    await page.reload();
    await expect.poll(() => page.locator('#org-switcher').isVisible(), seen).toBe(true);
    await expect.poll(() => shown(page.locator('#org-switcher')), seen).toBe('Cohortly');
    await expect.poll(() => page.getByLabel('Organization name').inputValue(), seen).toBe('Cohortly');

    // A stored choice that no longer exists falls back to the first organization.
    await page.evaluate(() => localStorage.setItem('cohortly-active-org-id', 'gone'));
    await page.reload();
    await expect.poll(() => page.locator('#org-switcher').isVisible(), seen).toBe(true);
    await expect.poll(() => page.locator('#org-switcher').evaluate((element) => (element as HTMLSelectElement).selectedIndex), seen).toBe(0);
    await context.close();
  });

  it('creates and renames an organization from /admin/organizations', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    await page.goto('/admin/organizations');
    await page.getByRole('button', { name: /create organization/i }).click();
    const name = `Lakeview Trials ${unique()}`;
    await page
      .getByRole('dialog')
      .getByLabel(/^name$/i)
      .fill(name);
    await checkPage(page);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /create/i })
      .click();
    await expect.poll(() => page.getByRole('cell', { name }).isVisible()).toBe(true);
    // Let the confirmation toast finish its fade-in, so axe measures its real contrast.
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await checkPage(page);

    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: 'Rename' })
      .click();
    await page.getByRole('dialog').getByLabel(/name/i).first().fill(`${name} Renamed`);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /save|rename/i })
      .click();
    await expect.poll(() => page.getByRole('cell', { name: `${name} Renamed` }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('the admin menu', () => {
  it('lists every admin screen once, no placeholders, and /admin opens a working page', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    // The admin section appears once the session and organizations have loaded.
    await expect.poll(() => page.getByRole('navigation', { name: 'Admin' }).getByRole('link').count(), { timeout: 15_000 }).toBeGreaterThan(3);
    const labels = async (name: string) => (await page.getByRole('navigation', { name }).getByRole('link').allTextContents()).map((text) => text.trim());
    const workspace = await labels('Workspace');
    const admin = await labels('Admin');
    const all = [...workspace, ...admin];
    expect(new Set(all).size, all.join(', ')).toBe(all.length);
    expect(all).not.toContain('Trial matcher');
    // Sequences and Onboarding work now (issue 12), and the dashboard (decision 032).
    expect(admin).toContain('Dashboard');
    expect(admin).toContain('Sequences');
    expect(admin).toContain('Onboarding');
    expect(admin[0]).toBe('Organizations');

    // The specification's /admin -> /admin/dashboard (decision 134): open to staff too, never Forbidden.
    await page.goto('/admin');
    await page.waitForURL(/\/admin\/dashboard(\?|$)/);
    expect(await page.getByRole('heading', { name: 'Forbidden' }).count()).toBe(0);
    expect(await page.getByText('Coming soon').count()).toBe(0);
    await context.close();
  });

  it('opens the sponsor demo under /admin/demo/sponsors, and the old root paths lead there', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    await page.goto('/admin/demo');
    await page.getByRole('link', { name: 'Sponsor demo' }).click();
    await page.waitForURL(/\/admin\/demo\/sponsors\/intro$/);
    await page.getByRole('link', { name: 'Next: Site selection' }).click();
    await page.waitForURL(/\/admin\/demo\/sponsors\/site-selection$/);
    await page.goto('/dashboard?tab=forecasting');
    await page.waitForURL(/\/admin\/demo\/sponsors\/dashboard\?tab=forecasting$/);
    // A coming-soon panel says what will be there, not the route's internals.
    await expect.poll(() => page.getByRole('heading', { name: 'Sponsor dashboard' }).isVisible()).toBe(true);
    expect(await page.getByText('Current filters').count()).toBe(0);
    expect(await page.getByText('forecasting', { exact: true }).count()).toBe(0);
    await context.close();
  });
});

describe('screens for everyone', () => {
  it('shows the 404 page for an unknown URL, with a way home', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/this/page/does-not-exist');
    await expect.poll(() => page.getByText("Oops! The page you're looking for doesn't exist.").isVisible()).toBe(true);
    expect(await page.getByText('404', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('The page might have been moved, deleted, or you entered the wrong URL.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Go back home' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('button', { name: 'Go back' }).isVisible()).toBe(true);
    await checkPage(page);
    await context.close();
  });

  it('answers a bad search param with the route defaults instead of crashing', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    await page.goto('/admin/calls?page=0&filter=nope');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await context.close();
  });
});
