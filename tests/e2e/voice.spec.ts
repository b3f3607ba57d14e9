import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  pickFromCombobox,
  signIn,
  startApp,
  type RunningApp,
  importRecruitingTrial,
  signUpSite,
} from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** An Etc/GMT zone where it is now about 14:00 (inside every calling window). Etc/GMT signs are inverted: Etc/GMT-5 is UTC+5. */
function afternoonZone(): string {
  const offset = ((14 - new Date().getUTCHours() + 36) % 24) - 12; // hours east of UTC, -12..11
  if (offset === 0) return 'Etc/GMT';
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

describe('voice agents and calls', () => {
  it('staff create a prescreen voice agent, call a candidate, and read the finished call in the list and its detail', async () => {
    const { page } = await app.newPage();
    await signUpSite(page, { name: 'Victor Voice', email: `voice.${unique()}@site.test`, site: 'Harbor Voice Research' });

    // A trial imported from ClinicalTrials.gov, and a published prescreen form generated from it.
    const trialId = await importRecruitingTrial(page);
    const generated = await page.request.post('/api/prescreen-forms/generate-study-blocks', { data: { trialId } });
    expect(generated.status()).toBe(200);
    const form = await page.request.post('/api/prescreen-forms/', {
      data: {
        trialId,
        name: 'Asthma voice form',
        blocks: (await generated.json()).blocks,
        status: 'published',
      },
    });
    expect(form.status(), await form.text()).toBe(201);

    // Voice agents: the empty state, then a new prescreen agent.
    await page.goto('/admin/voice-agents');
    await expect.poll(() => page.getByText('No prescreen agents yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New voice agent' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => dialog.getByText('Enter a name').isVisible()).toBe(true);
    await dialog.getByLabel('Name', { exact: true }).fill('Asthma caller');
    // The trial field the chat and voice agent dialogs share: a prescreen form is a trial's, so none before one.
    const formSelect = dialog.getByLabel('Prescreen form');
    expect(await formSelect.isDisabled()).toBe(true);
    expect(await formSelect.locator('option').first().textContent()).toBe('Choose a trial first');
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'moderate asthma');
    await expect.poll(() => formSelect.locator('option', { hasText: 'Asthma voice form' }).count()).toBe(1);
    await formSelect.selectOption({ label: 'Asthma voice form (v1)' });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    const agentRow = page.getByRole('row', { name: /Asthma caller/ });
    await expect.poll(() => agentRow.isVisible()).toBe(true);
    expect(await agentRow.getByText('Active').isVisible()).toBe(true);
    // Bound to the chosen trial: the row links to it.
    expect(await agentRow.getByRole('link', { name: /Moderate.*Asthma/ }).getAttribute('href')).toBe(`/trials/${trialId}`);
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await expectAccessible(page);

    // The other tab writes agent-type to the URL and is empty.
    await page.getByRole('button', { name: 'Site-visit scheduling' }).click();
    await page.waitForURL(/agent-type=SITE_VISIT_SCHEDULING/);
    await expect.poll(() => page.getByText('No site-visit scheduling agents yet').isVisible()).toBe(true);

    // A scheduling agent books visits at sites of its trial that have a time zone: give the first one a zone.
    const trialRead = (await (await page.request.get(`/api/trials/${trialId}`)).json()) as { sites: Array<{ id: string; name: string; timeZone?: string }> };
    const [firstSite, secondSite] = trialRead.sites;
    expect(firstSite && secondSite).toBeTruthy();
    // A zone is derived from a site's location: a site without one has no coordinates, state or country.
    const placeless = (site: (typeof trialRead.sites)[number]) => ({ id: site.id, name: site.name });
    const zonedSites = trialRead.sites.map((site, index) => (index === 0 ? { ...placeless(site), timeZone: 'America/Chicago' } : placeless(site)));
    const unzonedSites = trialRead.sites.map(placeless);
    expect((await page.request.patch(`/api/trials/${trialId}`, { data: { sites: zonedSites } })).status()).toBe(200);
    await page.getByRole('button', { name: 'New voice agent' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Visit booker');
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'moderate asthma');
    const schedule = dialog.getByTestId('visit-schedule');
    await expect.poll(() => schedule.getByLabel(firstSite!.name).isVisible()).toBe(true);
    // A site without a time zone cannot be chosen; no site chosen is refused beside the sites.
    expect(await schedule.getByLabel(secondSite!.name).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => schedule.getByText('Choose at least one site').isVisible()).toBe(true);
    await schedule.getByLabel(firstSite!.name).check();
    await schedule.getByLabel('Saturday').check();
    await schedule.getByRole('button', { name: 'Remove start time 3' }).click();
    await schedule.getByRole('button', { name: 'Add start time' }).click();
    expect(await schedule.getByLabel('Start time 3', { exact: true }).inputValue()).toBe('12:00');
    await schedule.getByLabel('Visit length (minutes)').fill('45');
    // The server's refusal shows beside the field: here the site lost its time zone behind the dialog's back.
    expect((await page.request.patch(`/api/trials/${trialId}`, { data: { sites: unzonedSites } })).status()).toBe(200);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => schedule.getByText(/Give these sites a time zone on the trial first/).isVisible()).toBe(true);
    expect(await dialog.getByRole('alert').filter({ hasText: 'see the messages next to the fields' }).isVisible()).toBe(true);
    await expectAccessible(page);
    expect((await page.request.patch(`/api/trials/${trialId}`, { data: { sites: zonedSites } })).status()).toBe(200);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    const bookerRow = page.getByRole('row', { name: /Visit booker/ });
    await expect.poll(() => bookerRow.isVisible()).toBe(true);
    const saved = (await (await page.request.get('/api/voice-agents/?type=SITE_VISIT_SCHEDULING')).json()) as {
      voiceAgents: Array<{ name: string; schedule: Record<string, unknown> }>;
    };
    expect(saved.voiceAgents.find((agent) => agent.name === 'Visit booker')?.schedule).toMatchObject({
      sites: [firstSite!.id],
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
      times: ['09:00', '11:00', '12:00'],
      durationMinutes: 45,
      daysAhead: 14,
      minNoticeHours: 24,
    });

    // A candidate who agreed to calls, where it is now the afternoon.
    const created = await page.request.post('/api/candidates/', {
      data: {
        firstName: 'Carla',
        lastName: 'Caller',
        phone: '+12125550144',
        timeZone: afternoonZone(),
        consent: { calls: true },
        trialIds: [trialId],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const candidateId = (await created.json()).id as string;

    // Call now, then open the call: it ends by itself (the simulator) with a transcript.
    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole('button', { name: 'Call now' }).click();
    // Nothing is dialled yet: a confirmation says who, at which number, with which agent.
    const confirmCall = page.getByRole('alertdialog', { name: 'Call Carla Caller now?' });
    await expect.poll(() => confirmCall.isVisible()).toBe(true);
    // The number reads in national format once the phone library has arrived (it loads behind the page).
    await expect.poll(() => confirmCall.getByTestId('call-now-summary').innerText()).toContain('(212) 555-0144');
    const summary = await confirmCall.getByTestId('call-now-summary').innerText();
    expect(summary).toContain('Carla Caller');
    expect(summary).toContain('Asthma caller');
    expect((await (await page.request.get(`/api/calls/?candidateId=${candidateId}`)).json()).calls ?? []).toHaveLength(0);
    await expectAccessible(page);
    await confirmCall.getByRole('button', { name: 'Place the call' }).click();
    const openCall = page.getByRole('link', { name: 'Open the call' });
    // Placing the call is a server round trip that plans, checks consent and hours, and dials: allow for a busy machine.
    await expect.poll(() => openCall.isVisible(), { timeout: 20_000 }).toBe(true);
    await openCall.click();
    await page.waitForURL(/\/admin\/calls\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.getByTestId('call-status').innerText(), {
        timeout: 15_000,
      })
      .toContain('Ended');
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.locator('li').count()).toBeGreaterThan(1);
    expect(await page.getByRole('link', { name: /Prescreen result|Review prescreen/ }).getAttribute('href')).toContain(`candidateId=${candidateId}`);
    // The call's log: the provider's messages in order, ending with the end-of-call report.
    const callLog = page.getByRole('list', { name: 'Call log' });
    await expect.poll(() => callLog.getByText('end-of-call-report').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await callLog.locator(':scope > li').count()).toBeGreaterThan(2);
    await expectAccessible(page);
    // The result the call recorded opens in the prescreen review.
    await page.getByRole('link', { name: /Prescreen result|Review prescreen/ }).click();
    await page.waitForURL(new RegExp(`/prescreen/results\\?candidateId=${candidateId}`));
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Prescreen review' }).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByText(/Carla Caller/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await expectAccessible(page);

    // The list shows the call with its candidate and agent.
    await page.goto('/admin/calls');
    const callRow = page.getByRole('row', { name: /Carla Caller/ });
    await expect.poll(() => callRow.isVisible()).toBe(true);
    expect(await callRow.getByText('Asthma caller').isVisible()).toBe(true);
    expect(await callRow.getByText('Ended').isVisible()).toBe(true);
    expect(await page.getByTestId('paging-summary').innerText()).toContain('of 1');
    await expectAccessible(page);

    // A candidate without call consent: the refusal is shown beside the button.
    const quiet = await page.request.post('/api/candidates/', {
      data: {
        firstName: 'Nora',
        lastName: 'Noconsent',
        phone: '+12125550133',
        timeZone: afternoonZone(),
      },
    });
    const quietId = (await quiet.json()).id as string;
    await page.goto(`/candidates/${quietId}`);
    await page.getByRole('button', { name: 'Call now' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Place the call' }).click();
    // In words, not the code (no_call_consent).
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'has not consented to calls' }).isVisible()).toBe(true);
    expect(await page.getByText('no_call_consent').count()).toBe(0);
  });

  it("a Cohortly admin assigns a phone number to a site, and the site's voice agent dialog offers it", async () => {
    const { page } = await app.newPage();
    const siteName = `Number Voice Research ${unique()}`;
    await signUpSite(page, { name: 'Nora Number', email: `numbers.${unique()}@site.test`, site: siteName });

    // No number yet: the dialog says who assigns them.
    await page.goto('/admin/voice-agents');
    await page.getByRole('button', { name: 'New voice agent' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('No phone numbers yet: ask Cohortly to assign one.').isVisible()).toBe(true);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The internal admin (Cohortly active) assigns one on /admin/phone-numbers, linked from the admin menu.
    const { page: adminPage } = await app.newPage();
    await signIn(adminPage, ADMIN_EMAIL, ADMIN_PASSWORD);
    await adminPage.waitForURL(/\/trials$/);
    await adminPage.getByRole('link', { name: 'Phone numbers' }).click();
    await adminPage.waitForURL(/\/admin\/phone-numbers$/);
    await expect.poll(() => adminPage.getByRole('heading', { name: 'Phone numbers', level: 1 }).isVisible()).toBe(true);
    await adminPage.getByRole('button', { name: 'Assign number' }).click();
    const assign = adminPage.getByRole('dialog');
    await assign.getByLabel('Number').fill('+1 (212) 555-0142');
    await assign.getByRole('combobox', { name: 'Organization' }).click();
    await adminPage.getByRole('option', { name: siteName }).click();
    await assign.getByLabel('Label').fill('Main line');
    await expectAccessible(adminPage);
    await assign.getByRole('button', { name: 'Assign number' }).click();
    const row = adminPage.getByRole('row', { name: /\+12125550142/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByText(siteName).isVisible()).toBe(true);
    await adminPage.waitForTimeout(600);
    await expectAccessible(adminPage);

    // The site's dialog now offers it.
    await page.reload();
    await page.getByRole('button', { name: 'New voice agent' }).click();
    const from = page.getByRole('dialog').getByRole('combobox', { name: 'From number' });
    await expect.poll(() => from.isVisible()).toBe(true);
    await from.click();
    const option = page.getByRole('option', { name: /\+12125550142/ });
    await expect.poll(() => option.isVisible()).toBe(true);
    await expectAccessible(page);
    await option.click();
    await expect.poll(() => from.textContent()).toContain('+12125550142');
  });
});
