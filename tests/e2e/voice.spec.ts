import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, pickFromCombobox, signIn, startApp, type RunningApp, importRecruitingTrial, signUpSite } from './support';

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
    await checkPage(page);
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
    await checkPage(page);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    const agentRow = page.getByRole('row', { name: /Asthma caller/ });
    await expect.poll(() => agentRow.isVisible()).toBe(true);
    expect(await agentRow.getByText('Active').isVisible()).toBe(true);
    // Bound to the chosen trial: the row links to it.
    expect(await agentRow.getByRole('link', { name: /Moderate.*Asthma/ }).getAttribute('href')).toBe(`/trials/${trialId}`);
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await checkPage(page);

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
    await checkPage(page);
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
    // The agent is named once the pre-check has answered (Place the call stays off until then).
    await expect.poll(() => confirmCall.getByTestId('call-now-summary').innerText()).toContain('Asthma caller');
    await expect.poll(() => confirmCall.getByRole('button', { name: 'Place the call' }).isEnabled()).toBe(true);
    const summary = await confirmCall.getByTestId('call-now-summary').innerText();
    expect(summary).toContain('Carla Caller');
    expect(summary).toContain('Asthma caller');
    expect((await (await page.request.get(`/api/calls/?candidateId=${candidateId}`)).json()).calls ?? []).toHaveLength(0);
    await checkPage(page);
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
    // Issue 32: the call page agrees with the review: answers with their questions, speakers in words, no dash
    // for a missing time, events in words.
    const transcriptText = await transcript.innerText();
    expect(transcriptText).toMatch(/^Agent/m);
    expect(transcriptText).toMatch(/^Person/m);
    expect(transcriptText).not.toMatch(/·\s*[-—]/);
    const answersList = page.getByTestId('call-answers');
    await expect.poll(() => answersList.isVisible()).toBe(true);
    expect(await answersList.locator('li').count()).toBeGreaterThan(0);
    expect(await answersList.innerText()).not.toContain('call structured data');
    expect(await page.getByText('No answers were').count()).toBe(0);
    // The report may arrive a moment after the answers; the page shows it when it does.
    await expect
      .poll(async () => (await page.getByRole('list', { name: 'Call events' }).innerText()).includes('Call report received'), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByRole('link', { name: /Prescreen result|Review prescreen/ }).getAttribute('href')).toContain(`candidateId=${candidateId}`);
    // The call's log: the provider's messages, folded away until asked for, in order and in words, ending with the report.
    const callLog = page.getByRole('list', { name: 'Call log' });
    expect(await callLog.isVisible()).toBe(false);
    await page.getByText(/Show the provider's messages/).click();
    await expect.poll(() => callLog.getByText('Call report received').last().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await callLog.locator(':scope > li').count()).toBeGreaterThan(2);
    // Issue 32: each line's summary in words, not the provider's codes ("Status: ended (customer-ended-call)", "user (final)").
    const logText = await callLog.innerText();
    expect(logText).toMatch(/The call ended: /);
    expect(logText).toMatch(/The (person|agent) spoke/);
    expect(logText).not.toMatch(/Status: |Tool calls: |\((final|partial)\)|\b\w+-\w+-\w+\b/);
    await checkPage(page);
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
    await checkPage(page);

    // The list shows the call with its candidate and agent.
    await page.goto('/admin/calls');
    const callRow = page.getByRole('row', { name: /Carla Caller/ });
    await expect.poll(() => callRow.isVisible()).toBe(true);
    // The agent's name comes with the agents' list, which may answer after the calls: never "Deleted agent" meanwhile.
    await expect.poll(() => callRow.getByText('Asthma caller').isVisible()).toBe(true);
    expect(await callRow.getByText('Deleted agent').count()).toBe(0);
    expect(await callRow.getByText('Ended').isVisible()).toBe(true);
    expect(await page.getByTestId('paging-summary').innerText()).toContain('of 1');
    await checkPage(page);

    // Issue 32: "Call now" checks everything up front. An Australian mobile without consent: every reason at once,
    // in words, the unknown zone said plainly, and "Place the call" stays off (no callback: time fixes nothing here).
    const quiet = await page.request.post('/api/candidates/', {
      data: { firstName: 'Nora', lastName: 'Noconsent', phone: '+61 412 345 678', trialIds: [trialId] },
    });
    const quietId = (await quiet.json()).id as string;
    await page.goto(`/candidates/${quietId}`);
    await page.getByRole('button', { name: 'Call now' }).click();
    const blockedDialog = page.getByRole('alertdialog', { name: 'Call Nora Noconsent now?' });
    const check = blockedDialog.getByTestId('call-pre-check');
    await expect.poll(() => check.isVisible()).toBe(true);
    expect(await check.getByRole('alert').innerText()).toContain('This person has not agreed to be called. Record their consent on the profile first.');
    expect(await check.innerText()).toContain('Time zone unknown: Australia has several');
    expect(await blockedDialog.getByRole('button', { name: 'Place the call' }).isDisabled()).toBe(true);
    expect(await blockedDialog.getByRole('button', { name: /Schedule a callback/ }).count()).toBe(0);
    expect(await page.getByText('no_call_consent').count()).toBe(0);
    await checkPage(page);
    await blockedDialog.getByRole('button', { name: 'Cancel' }).click();

    // Consent given, but it is 3 am where they live: only the hours are in the way, so the dialog offers the
    // callback at the next allowed time, in words, and scheduling it closes the dialog.
    const nightZone = (() => {
      const offset = ((3 - new Date().getUTCHours() + 36) % 24) - 12;
      return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    })();
    const night = await page.request.post('/api/candidates/', {
      data: { firstName: 'Nina', lastName: 'Night', phone: '+12125550155', timeZone: nightZone, consent: { calls: true }, trialIds: [trialId] },
    });
    const nightId = (await night.json()).id as string;
    await page.goto(`/candidates/${nightId}`);
    await page.getByRole('button', { name: 'Call now' }).click();
    const nightDialog = page.getByRole('alertdialog', { name: 'Call Nina Night now?' });
    const offer = nightDialog.getByRole('button', { name: /^Schedule a callback at / });
    await expect.poll(() => offer.isVisible()).toBe(true);
    expect(await nightDialog.getByRole('alert').innerText()).toContain('outside calling hours');
    // "Schedule a callback at Monday 30 November at 9:00 am (UTC-9 time)": a weekday and a time in the morning (calling
    // hours and the agent's own hours), never an ISO date.
    expect(await offer.innerText()).toMatch(/^Schedule a callback at [A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ at 9:00 am \(.+ time\)$/);
    expect(await nightDialog.getByRole('button', { name: 'Place the call' }).isDisabled()).toBe(true);
    await checkPage(page);
    await offer.click();
    await expect.poll(() => nightDialog.isVisible()).toBe(false);
    const callbacks = (await (await page.request.get(`/api/callbacks/?candidateId=${nightId}`)).json()) as {
      callbacks: Array<{ status: string; scheduledFor: string }>;
    };
    expect(callbacks.callbacks[0]?.status).toBe('pending');
    const localHour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: nightZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(callbacks.callbacks[0]!.scheduledFor)),
    );
    // The agent made in this journey keeps the dialog's default hours, 09:00-21:00: the callback waits for them.
    expect(localHour).toBe(9);
    expect((await (await page.request.get(`/api/calls/?candidateId=${nightId}`)).json()).calls ?? []).toHaveLength(0);
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
    await checkPage(page);
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
    await checkPage(adminPage);
    await assign.getByRole('button', { name: 'Assign number' }).click();
    const row = adminPage.getByRole('row', { name: /\+12125550142/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByText(siteName).isVisible()).toBe(true);
    await adminPage.waitForTimeout(600);
    await checkPage(adminPage);

    // The site's dialog now offers it.
    await page.reload();
    await page.getByRole('button', { name: 'New voice agent' }).click();
    const from = page.getByRole('dialog').getByRole('combobox', { name: 'From number' });
    await expect.poll(() => from.isVisible()).toBe(true);
    // Checked before the list opens: the phone-size pass resizes the window, which closes an open list.
    await checkPage(page);
    await from.click();
    const option = page.getByRole('option', { name: /\+12125550142/ });
    await expect.poll(() => option.isVisible()).toBe(true);
    await option.click();
    await expect.poll(() => from.textContent()).toContain('+12125550142');
  });
});
