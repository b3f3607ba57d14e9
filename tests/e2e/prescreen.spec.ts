import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, pickFromCombobox, startApp, type RunningApp, confirmEmailLink } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
/** A local date-time some days ahead, YYYY-MM-DDTHH:mm. */
const future = (days: number, time = '10:00') => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

describe('prescreening at a research site', () => {
  it('generates a form from an imported trial, publishes it, runs a manual prescreen, reviews, approves and books a visit', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Petra Prescreen');
    await page.getByLabel('Email').fill(`prescreen.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Prescreen Research Site');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    // A trial imported from ClinicalTrials.gov.
    await page.goto('/trials/import');
    await page.getByLabel('ClinicalTrials.gov JSON file').setInputFiles('tests/fixtures/ctgov/asthma-study.json');
    await page.getByRole('button', { name: 'Create draft trial' }).click();
    await page.waitForURL(/\/trials\/[0-9a-f-]{36}$/);
    const trialId = new URL(page.url()).pathname.split('/').pop()!;

    // A candidate of that trial, through the API with the page's session.
    const created = await page.request.post('/api/candidates/', {
      data: { firstName: 'Pat', lastName: 'Prescreen', phone: '+12125550177', trialIds: [trialId] },
    });
    expect(created.status()).toBe(201);
    const candidateId = (await created.json()).id as string;

    // No forms yet: the empty state offers a new one.
    await page.goto('/admin/prescreen-forms');
    await expect.poll(() => page.getByText('No prescreen forms yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(page);
    await page.getByRole('button', { name: 'New form' }).click();
    const dialog = page.getByRole('dialog');
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'moderate asthma');
    await dialog.getByLabel('Form name').fill('Asthma prescreen');
    await dialog.getByRole('button', { name: 'Generate and open' }).click();
    await page.waitForURL(/\/admin\/prescreen-forms\/[0-9a-f-]{36}$/);

    // The builder: generated blocks, every criterion covered, version 1.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Asthma prescreen');
    expect(await page.getByTestId('form-version').textContent()).toBe('Version 1');
    expect(await page.getByText('Every criterion is linked to a question.').isVisible()).toBe(true);
    const dob = page.getByRole('group', { name: 'Question 1 in About you' });
    // Questions start collapsed to a one-line summary; opening one shows its fields, "Expand all" every one.
    expect(await page.getByLabel('Chat wording (English)').count()).toBe(0);
    expect(await dob.getByText('What is your date of birth?').isVisible()).toBe(true);
    // Collapsed, each question's one-line summary is cut to the width it has: on a phone no row is wider than the page.
    await checkPage(page);
    await dob.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Chat wording (English)').count()).toBe(1);
    await page.getByRole('button', { name: 'Expand all' }).click();
    expect(await page.getByLabel('Chat wording (English)').count()).toBeGreaterThan(1);
    expect(await dob.getByLabel('Chat wording (English)').inputValue()).toBe('What is your date of birth?');
    await dob.getByLabel('Chat wording (English)').fill('When were you born?');
    // Reorder by keyboard: question 2 of Medical history moves up.
    const history = page.getByRole('group', { name: 'Question 2 in Medical history' });
    const secondWording = await history.getByLabel('Chat wording (English)').inputValue();
    await history.getByRole('button', { name: 'Move up' }).press('Enter');
    expect(await page.getByRole('group', { name: 'Question 1 in Medical history' }).getByLabel('Chat wording (English)').inputValue()).toBe(secondWording);
    expect(await page.getByTestId('save-state').textContent()).toBe('Unsaved changes');
    await checkPage(page);

    // Preview in chat wording, English then Spanish.
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('form-preview');
    await expect.poll(() => preview.getByText('When were you born?').isVisible()).toBe(true);
    await page.getByRole('dialog').getByLabel('Spanish').check();
    await expect.poll(() => preview.getByText('Sobre usted').isVisible()).toBe(true);
    await checkPage(page);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('save-state').textContent()).toBe('All changes saved');
    expect(await page.getByTestId('save-notice').textContent()).toBe('Saved version 1.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.getByTestId('save-notice').textContent()).toContain('Published version 1');
    expect(await page.getByText('Published', { exact: true }).first().isVisible()).toBe(true);

    // The list shows the form.
    await page.goto('/admin/prescreen-forms');
    const row = page.getByRole('row', { name: /Asthma prescreen/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByText('Published').isVisible()).toBe(true);

    // A manual prescreen from the candidate's page, one block at a time.
    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole('link', { name: 'Run prescreen' }).click();
    await page.waitForURL(new RegExp(`/candidates/${candidateId}/prescreen$`));
    await page.getByRole('button', { name: 'Start prescreen' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'About you' }).isVisible()).toBe(true);
    // Required answers are asked for.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Answer this question').isVisible()).toBe(true);
    await page.getByLabel('When were you born?').fill('1980-04-02');
    await checkPage(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Medical history' }).isVisible()).toBe(true);
    const yesNo = (name: RegExp, answer: 'Yes' | 'No') => page.getByRole('group', { name }).getByLabel(answer, { exact: true }).check();
    // Plain-language questions read from the criteria, not the criteria's text.
    await yesNo(/long-term medical conditions/, 'Yes');
    // "Diagnosis of asthma for at least 12 months" is asked with its duration (decision 045).
    await yesNo(/had asthma for at least/, 'Yes');
    await yesNo(/pregnant/, 'No');
    await yesNo(/smoke or use tobacco/, 'No');
    await page.getByLabel(/BMI result/).fill('25');
    await page.getByLabel(/HbA1c result/).fill('5.5');
    await checkPage(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Medications' }).isVisible()).toBe(true);
    for (const group of await page.getByRole('group', { name: /steroid inhaler/ }).all()) await group.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Logistics' }).isVisible()).toBe(true);
    await yesNo(/travel to/, 'Yes');
    await page.getByRole('button', { name: 'Next' }).click();
    // Staff-only items: lab values a patient would not know.
    await expect.poll(() => page.getByRole('heading', { name: 'Site review (staff only)' }).isVisible()).toBe(true);
    await page.getByLabel(/Staff: most recent eGFR/).fill('90');
    await page.getByLabel(/Staff: most recent ALT/).fill('1');
    await page.getByRole('button', { name: 'Submit prescreen' }).click();

    // The review: recommendation, reasons, criteria with their deciding answers.
    await page.waitForURL(/\/prescreen\/results\?candidateId=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Prescreen review: Pat Prescreen');
    await expect.poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(/Prescreen\s+Results\s+Pat Prescreen/);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const recommendation = (await page.getByRole('heading', { name: 'AI recommendation' }).locator('xpath=../..').textContent()) ?? '';
    expect(recommendation).toMatch(/Pass|Potential/);
    expect(await page.getByTestId('evaluation').count()).toBeGreaterThanOrEqual(10);
    expect(
      await page.getByTestId('evaluation').filter({ hasText: 'Diagnosis of asthma for at least 12 months' }).getByText('Met', { exact: true }).isVisible(),
    ).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Prescreen' }).isVisible()).toBe(true);
    await checkPage(page);

    // Booking before approval is not offered; rejecting needs a reason.
    expect(await page.getByText('Approve the prescreen before booking a screening visit.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => page.getByText('Give a reason to reject').isVisible()).toBe(true);
    await page.getByLabel('Reason', { exact: true }).fill('Answers check out on the phone');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Book visit' }).isVisible()).toBe(true);
    expect(await page.getByTestId('decisions').getByText('Approved').isVisible()).toBe(true);

    // No site is chosen for the coordinator (none is ours); the picker searches by city, keyboard only.
    await page.getByRole('button', { name: 'Book visit' }).click();
    await expect.poll(() => page.getByText('Choose a site').last().isVisible()).toBe(true);
    await page.getByTestId('site-picker').focus();
    await page.keyboard.press('Enter');
    const search = page.getByRole('combobox', { name: /Search sites/ });
    await expect.poll(() => search.isVisible()).toBe(true);
    await search.fill('halifax');
    await expect.poll(() => page.getByRole('listbox', { name: 'Sites' }).getByRole('option').count()).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('site-picker').textContent()).toContain('Harbour Lung Centre, Halifax, Nova Scotia, Canada');
    // The site's zone comes from its province: no browser or UTC default.
    await expect.poll(() => page.getByTestId('site-time-zone').textContent()).toContain('America/Halifax');

    // Book a visit at a future local time; the same slot again is refused inline.
    const slot = future(7, '10:30');
    await page.getByLabel(/Visit start/).fill(slot);
    await page.getByRole('button', { name: 'Book visit' }).click();
    await expect
      .poll(() => page.getByTestId('bookings').textContent())
      .toMatch(/Harbour Lung Centre, Halifax: \w+ \d{1,2} \w+( \d{4})? at 10:30 am \(Halifax time\)/);
    await expect.poll(() => page.getByText('Visit booked at Harbour Lung Centre, Halifax').isVisible()).toBe(true);
    await page.getByLabel(/Visit start/).fill(slot);
    await page.getByRole('button', { name: 'Book visit' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'That slot is already booked' }).isVisible()).toBe(true);
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await checkPage(page);

    // The results list with filters that live in the URL.
    await page.goto('/prescreen/results');
    const resultRow = page.getByRole('row', { name: /Pat Prescreen/ });
    await expect.poll(() => resultRow.isVisible()).toBe(true);
    expect(await resultRow.getByText('Approved').isVisible()).toBe(true);
    await checkPage(page);
    await page.getByLabel('AI recommendation').selectOption('FAIL');
    await page.waitForURL(/aiRecommendation=FAIL/);
    await expect.poll(() => page.getByText('No results match').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByText('No results match').isVisible()).toBe(true);
    expect(await page.getByLabel('AI recommendation').inputValue()).toBe('FAIL');
    await context.close();
  });
});
