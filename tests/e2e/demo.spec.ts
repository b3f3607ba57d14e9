import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, startApp, type RunningApp } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

describe('the demo area', () => {
  it('an internal admin creates the demo data, runs the voice demo to a recommendation and walks the prescreen demo', async () => {
    const { page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const main = page.getByRole('main');

    // Issue 32: the chat demo without demo data says what to do, not "Coming soon", and leads there.
    await page.goto('/admin/demo/chat');
    await expect.poll(() => main.getByText('Create demo data first').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByText(/Coming soon/i).count()).toBe(0);
    await checkPage(page);
    await main.getByRole('link', { name: 'Create demo data' }).click();
    await page.waitForURL(/\/admin\/demo$/);

    // No demo organization yet: the button creates it, after a confirmation.
    await page.goto('/admin/demo');
    await expect.poll(() => main.getByRole('button', { name: 'Create demo data' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByRole('link', { name: 'Voice demo' }).isVisible()).toBe(true);
    await checkPage(page);
    await main.getByRole('button', { name: 'Create demo data' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.getByText('Create the demo data?').isVisible(), { timeout: 20_000 }).toBe(true);
    await confirm.getByRole('button', { name: 'Create demo data' }).click();
    // Issue 32: the seeding is a processing run; the page shows it going and offers no second start meanwhile.
    await expect.poll(() => main.getByTestId('demo-reset-progress').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByRole('button', { name: 'Resetting…' }).isDisabled()).toBe(true);
    await checkPage(page);
    await expect.poll(() => main.getByRole('status').filter({ hasText: 'Demo data created' }).isVisible(), { timeout: 90_000 }).toBe(true);
    expect(await main.getByTestId('demo-reset-progress').count()).toBe(0);
    await expect.poll(() => main.getByTestId('demo-count-candidates').textContent(), { timeout: 20_000 }).toBe('3,000');
    expect(await main.getByRole('button', { name: 'Reset demo data' }).isVisible()).toBe(true);
    await checkPage(page);
    // Issue 32 QA: the trials list's default selection leaves the demo organization out, and its empty state says so.
    await page.goto('/trials');
    await expect.poll(() => main.getByTestId('default-selection-note').isVisible(), { timeout: 20_000 }).toBe(true);
    await checkPage(page);
    // Issue 32 QA: the prescreen form, chat agent and candidate lists honour the organization filter like the trials
    // list; an empty default selection keeps the filter its note points to.
    for (const list of ['/admin/prescreen-forms', '/candidates', '/admin/chat-agents']) {
      await page.goto(list);
      await main.getByRole('button', { name: /^Filter by organization/ }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Demo Research Site' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => main.getByRole('table').locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await main.getByText(/No (prescreen forms|candidates|chat agents) yet/).count()).toBe(0);
      await checkPage(page);
    }
    expect(await main.getByText('Public chat page of Demo Research Site').isVisible()).toBe(true);
    await page.goto('/admin/demo');
    await expect.poll(() => main.getByTestId('demo-last-reset').isVisible(), { timeout: 20_000 }).toBe(true);
    // The run is listed with the other processed runs, in words.
    await main.getByTestId('demo-last-reset').getByRole('link', { name: 'Processed runs' }).click();
    await page.waitForURL(/\/admin\/processed-runs/);
    await expect.poll(() => main.getByText('Demo data reset').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await checkPage(page);

    // Voice: a simulated call to a sample person ends with the AI's recommendation.
    await page.goto('/admin/demo/voice');
    await expect.poll(() => main.getByRole('button', { name: 'Start demo call' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await checkPage(page);
    await main.getByRole('button', { name: 'Start demo call' }).click();
    await expect.poll(() => main.getByTestId('demo-transcript').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => main.getByTestId('demo-recommendation').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await main.getByTestId('demo-recommendation').getByText('Why').isVisible()).toBe(true);
    // Issue 32 QA: each turn says when it was said ("Agent · 0:04 into the call"), never a dash.
    expect(await main.getByTestId('demo-transcript').innerText()).toMatch(/Agent · 0:\d\d into the call/);
    expect(await main.getByTestId('demo-transcript').innerText()).not.toContain('· —');
    // Issue 32: a person says a date of birth in words, never the stored 1982-04-12.
    expect(await main.getByTestId('demo-transcript').innerText()).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    await checkPage(page);
    // Issue 32: the call is the demo organization's, with its real agent, and listed under its Calls.
    await main.getByRole('link', { name: 'Open the full call record' }).click();
    await page.waitForURL(/\/admin\/calls\/[^/]+$/);
    const callPath = new URL(page.url()).pathname;
    await expect
      .poll(
        () =>
          main
            .getByText(/ - prescreen calls/)
            .first()
            .isVisible(),
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await main.getByText('Deleted agent').count()).toBe(0);
    await page.goto('/admin/calls');
    await expect.poll(() => main.locator(`a[href="${callPath}"]`).count(), { timeout: 20_000 }).toBe(1);
    expect(await main.getByText('Deleted agent').count()).toBe(0);
    await checkPage(page);

    // Prescreen: pick a trial, answer the form, see the recommendation, decide with an override.
    await page.goto('/admin/demo/prescreen');
    await expect.poll(() => main.getByRole('button', { name: 'Use a sample candidate' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByTestId('demo-step-explain').textContent()).toMatch(/^Step 1:/);
    await checkPage(page);
    await main.getByRole('button', { name: 'Use a sample candidate' }).click();
    await expect.poll(() => main.getByTestId('step').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByTestId('demo-step-explain').textContent()).toMatch(/^Step 2:/);
    await checkPage(page);
    for (let block = 0; block < 10; block++) {
      for (const fieldset of await main.locator('fieldset[data-question]').all()) {
        if ((await fieldset.locator('input:checked').count()) === 0) await fieldset.locator('input').first().check();
      }
      for (const input of await main.locator('[data-question] input[type="text"], [data-question] input[type="date"]').all()) {
        if (!(await input.inputValue())) await input.fill((await input.getAttribute('type')) === 'date' ? '1980-01-01' : '5');
      }
      const submit = main.getByRole('button', { name: 'Submit prescreen' });
      if (await submit.isVisible()) {
        await submit.click();
        break;
      }
      const before = await main.getByTestId('step').textContent();
      await main.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => main.getByTestId('step').textContent(), { timeout: 20_000 }).not.toBe(before);
    }
    await expect.poll(() => main.getByTestId('demo-recommendation').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await main.getByTestId('demo-step-explain').textContent()).toMatch(/^Step 3:/);
    await checkPage(page);
    const options = await main.getByLabel('Recommendation you hold').locator('option').allTextContents();
    await main.getByLabel('Recommendation you hold').selectOption({ label: options.find((text) => text.startsWith('Override'))! });
    await main.getByLabel('Reason').fill('Confirmed with the candidate by phone');
    await main.getByRole('button', { name: /^(Approve|Reject)$/ }).click();
    await expect.poll(() => main.getByTestId('demo-decision').textContent(), { timeout: 20_000 }).toMatch(/with an override/);
    expect(await main.getByTestId('demo-step-explain').textContent()).toMatch(/^Step 4:/);
    await checkPage(page);
  }, 240_000);

  // Runs after the test above, which created the demo data.
  it('offers in the agent dialogs only trials of the organization the agent belongs to, and the conversations page agents of the chosen organizations', async () => {
    const { page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const main = page.getByRole('main');
    const DEMO_TRIAL = 'Inhaled Biologic for Moderate to Severe Asthma';
    const chooseDemo = async () => {
      await main.getByRole('button', { name: /^Filter by organization/ }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Demo Research Site' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => main.getByRole('table').locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    };
    /** The trials the open dialog's trial picker offers (their titles), then the dialog closed. */
    const offeredTrials = async () => {
      const dialog = page.getByRole('dialog');
      const picker = dialog.getByLabel('Trial', { exact: true });
      await expect.poll(async () => (await picker.isVisible()) && !/loading/i.test((await picker.textContent()) ?? ''), { timeout: 20_000 }).toBe(true);
      if (await picker.isDisabled()) {
        // No trial to offer: the picker says so and cannot open.
        const said = (await picker.textContent()) ?? '';
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count(), { timeout: 20_000 }).toBe(0);
        return said;
      }
      await picker.click();
      const listbox = page.getByRole('listbox');
      await listbox.waitFor();
      // The list is read once the trials have loaded (it says so when there are none).
      await expect.poll(async () => (await listbox.innerText()).trim().length, { timeout: 20_000 }).toBeGreaterThan(0);
      const text = await listbox.innerText();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count(), { timeout: 20_000 }).toBe(0);
      return text;
    };

    // Voice agents: the active organization is Cohortly, whose agent cannot take the demo's trial.
    await page.goto('/admin/voice-agents');
    await expect.poll(() => main.getByRole('button', { name: 'New voice agent' }).first().isVisible(), { timeout: 20_000 }).toBe(true);
    await main.getByRole('button', { name: 'New voice agent' }).first().click();
    expect(await offeredTrials()).not.toContain(DEMO_TRIAL);
    await chooseDemo();
    await checkPage(page);
    await page.getByRole('button', { name: 'New voice agent' }).first().click();
    await expect.poll(() => page.getByRole('dialog').getByText('Trials of Demo Research Site').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await offeredTrials()).toContain(DEMO_TRIAL);

    // Chat agents: a new agent belongs to its trial's organization; the filter says which are offered.
    await page.goto('/admin/chat-agents');
    await chooseDemo();
    await page.getByRole('button', { name: 'New agent' }).first().click();
    expect(await offeredTrials()).toContain(DEMO_TRIAL);

    // Conversations: the agent filter lists the chosen organization's agents.
    await page.goto('/admin/chat-conversations');
    const agentFilter = main.getByLabel('Agent', { exact: true });
    await agentFilter.waitFor();
    expect(await agentFilter.locator('option').allTextContents()).not.toContain(`${DEMO_TRIAL} - chat`);
    await main.getByRole('button', { name: /^Filter by organization/ }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Demo Research Site' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => agentFilter.locator('option').allTextContents(), { timeout: 20_000 }).toContain(`${DEMO_TRIAL} - chat`);
    await checkPage(page);
  }, 180_000);
});
