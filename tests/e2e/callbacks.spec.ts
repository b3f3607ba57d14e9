import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneAtHour } from '../support/zones';
import { checkPage, startApp, type RunningApp, importRecruitingTrial, signUpSite } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The candidate lives in New York; the browser in Los Angeles: the list shows both clocks. */
const CANDIDATE_ZONE = 'America/New_York';
const VIEWER_ZONE = 'America/Los_Angeles';

/** Tomorrow's date (YYYY-MM-DD) on the clocks of `timeZone`. */
function tomorrowIn(timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const next = new Date(`${parts}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** "Nov 24, 2026" as the page formats it (en-US, medium date) in `timeZone`. */
function dateText(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}

/** Signs up a research site, imports a trial with a published form, and creates the active prescreen agent. */
async function setUpSite(page: Page, siteName: string): Promise<{ trialId: string }> {
  await signUpSite(page, { name: 'Cora Callback', email: `callbacks.${unique()}@site.test`, site: siteName });

  const trialId = await importRecruitingTrial(page);
  const generated = await page.request.post('/api/prescreen-forms/generate-study-blocks', { data: { trialId } });
  expect(generated.status()).toBe(200);
  const form = await page.request.post('/api/prescreen-forms/', {
    data: { trialId, name: 'Asthma phone form', blocks: (await generated.json()).blocks, status: 'published' },
  });
  expect(form.status(), await form.text()).toBe(201);
  const agent = await page.request.post('/api/voice-agents/', {
    data: {
      name: 'Asthma caller',
      type: 'PRESCREEN',
      trialId,
      prescreenFormId: (await form.json()).id,
      firstMessage: { en: 'Hello, this is the research site calling about our asthma study.' },
      voicemailMessage: { en: 'Sorry we missed you.' },
    },
  });
  expect(agent.status(), await agent.text()).toBe(201);
  return { trialId };
}

async function newCandidate(page: Page, data: Record<string, unknown>): Promise<string> {
  const created = await page.request.post('/api/candidates/', { data });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).id as string;
}

/** Waits for the toast to settle (axe would catch it mid-fade), then checks the page. */
async function settleAndCheck(page: Page) {
  await page.waitForTimeout(600);
  await checkPage(page);
}

describe('callbacks', () => {
  it('staff schedule a callback from the candidate page, see it on /admin/callbacks in both time zones, reschedule and cancel it', async () => {
    const context = await app.browser.newContext({ baseURL: app.baseUrl, timezoneId: VIEWER_ZONE, locale: 'en-US' });
    const page = await context.newPage();
    const { trialId } = await setUpSite(page, 'Harbor Callback Research');
    const candidateId = await newCandidate(page, {
      firstName: 'Carmen',
      lastName: 'Callback',
      phone: '+12125550177',
      timeZone: CANDIDATE_ZONE,
      consent: { calls: true },
      trialIds: [trialId],
    });

    // No callbacks yet: the empty state.
    await page.goto('/admin/callbacks');
    await expect.poll(() => page.getByText('No callbacks yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(page);

    // The candidate page: no callback, then "Schedule callback" for tomorrow at 11:00 the candidate's time.
    await page.goto(`/candidates/${candidateId}`);
    await expect.poll(() => page.getByText('No callback is scheduled.', { exact: false }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Schedule callback' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Call at').isVisible()).toBe(true);
    expect(await dialog.getByLabel('Clock').inputValue()).toBe('candidate');
    const tomorrow = tomorrowIn(CANDIDATE_ZONE);
    // The default is tomorrow at 10:00 on the candidate's clocks.
    expect(await dialog.getByLabel('Call at').inputValue()).toBe(`${tomorrow}T10:00`);
    await dialog.getByLabel('Call at').fill(`${tomorrow}T11:00`);
    // The hint says what that is on the viewer's clocks (three hours earlier in Los Angeles).
    await expect.poll(() => dialog.getByText(/8:00\sAM your time/).isVisible()).toBe(true);
    await dialog.getByLabel('Note (optional)').fill('Prefers late mornings');
    await checkPage(page);
    await dialog.getByRole('button', { name: 'Schedule callback' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const card = page.getByTestId('candidate-callback');
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.getByTestId('callback-candidate-time').innerText()).toMatch(/11:00\sAM candidate’s time \(America\/New York\)/);
    expect(await card.innerText()).toContain('Prefers late mornings');
    expect(await page.getByRole('button', { name: 'Reschedule callback' }).isVisible()).toBe(true);
    await settleAndCheck(page);

    // The list: candidate, type, status, reason, both clocks, attempts and the note.
    await page.goto('/admin/callbacks');
    const row = page.getByRole('row', { name: /Carmen Callback/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    const rowText = await row.innerText();
    expect(rowText).toContain('Prescreen');
    expect(rowText).toContain('Pending');
    expect(rowText).toContain('Requested');
    expect(rowText).toContain('0 of 3');
    expect(rowText).toContain('Prefers late mornings');
    const scheduled = row.getByTestId('callback-scheduled-for');
    expect(await scheduled.innerText()).toMatch(new RegExp(`${dateText(tomorrow).replace(/ /g, '\\s')}, 8:00\\sAM`));
    expect(await row.getByTestId('callback-candidate-time').innerText()).toMatch(/11:00\sAM candidate’s time/);
    expect(await row.getByTestId('callback-moved').count()).toBe(0);
    expect(await row.getByRole('link', { name: 'Carmen Callback' }).getAttribute('href')).toBe(`/candidates/${candidateId}`);
    expect(await page.getByText('Refreshing every 15 seconds', { exact: false }).isVisible()).toBe(true);
    await checkPage(page);

    // Tabs and the status filter live in the URL.
    await page.getByRole('button', { name: 'Failed prescreens' }).click();
    await page.waitForURL(/filter=failedPrescreen/);
    await expect.poll(() => page.getByText('No callbacks match').isVisible()).toBe(true);
    await checkPage(page);
    await page.getByRole('button', { name: 'Show all callbacks' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'all');
    await page.getByLabel('Status').selectOption('pending');
    await page.waitForURL(/status=pending/);
    await expect.poll(() => row.isVisible()).toBe(true);
    await page.getByLabel('Status').selectOption('');

    // Reschedule to 23:00 the candidate's time: outside calling hours, so the server moves it to the morning.
    await row.getByRole('button', { name: /Reschedule/ }).click();
    await expect.poll(() => dialog.getByLabel('Call at').isVisible()).toBe(true);
    expect(await dialog.getByLabel('Call at').inputValue()).toBe(`${tomorrow}T11:00`);
    expect(await dialog.getByLabel('Note (optional)').inputValue()).toBe('Prefers late mornings');
    await dialog.getByLabel('Call at').fill(`${tomorrow}T23:00`);
    await dialog.getByLabel('Note (optional)').fill('Asked for a late call');
    await dialog.getByRole('button', { name: 'Move callback' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'moved into calling hours' }).isVisible()).toBe(true);
    await expect.poll(() => row.getByTestId('callback-moved').isVisible()).toBe(true);
    expect(await row.getByTestId('callback-moved').innerText()).toMatch(/Moved into calling hours \(asked for .*11:00\sPM\)/);
    expect(await row.innerText()).toContain('Asked for a late call');
    // Still the one callback: moved, not duplicated.
    expect(await page.getByTestId('callback-row').count()).toBe(1);
    await settleAndCheck(page);

    // Cancel: confirm, then it shows as cancelled and the candidate has none open.
    await row.getByRole('button', { name: 'Cancel the callback to Carmen Callback' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    await checkPage(page);
    await confirm.getByRole('button', { name: 'Cancel callback' }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await expect.poll(() => row.getByText('Cancelled').isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: /Cancel the callback/ }).count()).toBe(0);
    await settleAndCheck(page);

    await page.goto(`/candidates/${candidateId}`);
    await expect.poll(() => page.getByText('No callback is scheduled.', { exact: false }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Schedule callback' }).isVisible()).toBe(true);
    await context.close();
  });

  it('says up front, all at once and in words, why a callback cannot be scheduled', async () => {
    // A new site as a coordinator meets it: a trial but no voice agent yet, and an imported person with no call consent.
    const { context, page } = await app.newPage();
    await signUpSite(page, { name: 'Nora New', email: `callbacks.${unique()}@site.test`, site: 'First Day Research' });
    const trialId = await importRecruitingTrial(page);
    const candidateId = await newCandidate(page, { firstName: 'Dana', lastName: 'Noconsent', phone: '+12125550178', trialIds: [trialId] });

    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole('button', { name: 'Schedule callback' }).click();
    const dialog = page.getByRole('dialog');
    const reasons = dialog.getByTestId('callback-pre-check');
    // Before anything is typed: both reasons, in sentences, and the button off (no refusal one reason at a time).
    await expect.poll(() => reasons.isVisible()).toBe(true);
    const said = await reasons.innerText();
    expect(said).toContain('The callback cannot be scheduled yet');
    expect(said).toContain('This person has not agreed to be called. Record their consent on the profile first.');
    expect(said).toMatch(/No active prescreen voice agent|no active prescreen voice agent/i);
    expect(await dialog.getByRole('button', { name: 'Schedule callback' }).isDisabled()).toBe(true);
    await checkPage(page);
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('Prescreen all on /admin/calls shows the run reaching completed and the calls it placed', async () => {
    const { context, page } = await app.newPage();
    const { trialId } = await setUpSite(page, 'Lakeside Bulk Research');
    // Two candidates in their afternoon, one who never agreed to calls, one in the middle of the night.
    await newCandidate(page, {
      firstName: 'Paula',
      lastName: 'Prescreen',
      phone: '+12125550181',
      timeZone: zoneAtHour(14),
      consent: { calls: true },
      trialIds: [trialId],
    });
    // All in the trial: "Prescreen all" calls the people of the trial its agent recruits for (decision 174).
    await newCandidate(page, {
      firstName: 'Pedro',
      lastName: 'Prescreen',
      phone: '+12125550182',
      timeZone: zoneAtHour(14),
      consent: { calls: true },
      trialIds: [trialId],
    });
    await newCandidate(page, { firstName: 'Nadia', lastName: 'Noconsent', phone: '+12125550183', timeZone: zoneAtHour(14), trialIds: [trialId] });
    await newCandidate(page, {
      firstName: 'Nico',
      lastName: 'Night',
      phone: '+12125550184',
      timeZone: zoneAtHour(3),
      consent: { calls: true },
      trialIds: [trialId],
    });

    await page.goto('/admin/calls');
    await expect.poll(() => page.getByText('No calls yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Prescreen all' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    const explanation = await confirm.innerText();
    expect(explanation).toContain('consent');
    expect(explanation).toContain('do-not-contact');
    expect(explanation).toContain('calling hours');
    expect(explanation).toContain('calls are open at once');
    await checkPage(page);
    await confirm.getByRole('button', { name: 'Start calling' }).click();

    // The run's progress, polled every second until it completes.
    const panel = page.getByTestId('prescreen-run');
    await expect.poll(() => panel.isVisible()).toBe(true);
    await expect.poll(() => panel.getByRole('progressbar', { name: 'Prescreen calls progress' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('prescreen-run-status').innerText(), { timeout: 60_000 }).toBe('Completed');
    expect(await page.getByTestId('prescreen-count-called').innerText()).toBe('2');
    expect(await page.getByTestId('prescreen-count-callbacks').innerText()).toBe('1');
    expect(await page.getByTestId('prescreen-count-skipped').innerText()).toBe('1');
    expect(await page.getByTestId('prescreen-count-failed').innerText()).toBe('0');
    expect(await panel.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('4');
    const runLink = panel.getByRole('link', { name: /Open the run/ });
    expect(await runLink.getAttribute('href')).toMatch(/\/admin\/processed-runs\?id=/);

    // The calls it placed appear in the list (refreshed while the run went on).
    await expect.poll(() => page.getByRole('row', { name: /Paula Prescreen/ }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /Pedro Prescreen/ }).isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /Nadia Noconsent/ }).count()).toBe(0);
    await settleAndCheck(page);

    // The run's page lists every candidate's outcome.
    await runLink.click();
    await page.waitForURL(/\/admin\/processed-runs\?id=/);
    await expect.poll(() => page.getByText('Prescreen calls (4 candidates)').first().isVisible()).toBe(true);

    // The night owl got a callback instead.
    await page.goto('/admin/callbacks');
    const nightRow = page.getByRole('row', { name: /Nico Night/ });
    await expect.poll(() => nightRow.isVisible()).toBe(true);
    expect(await nightRow.innerText()).toContain('Outside calling hours');
    await checkPage(page);
    await context.close();
  });
});
