import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signUpSite, startApp, type RunningApp } from './support';

// Issue 11: a recruitment lead opens a trial's matcher, reads why a candidate is excluded, adds a likely
// eligible one to the trial, and looks at the gap analysis with a what-if.
let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;

describe('trial matcher', () => {
  it('matches, explains an exclusion, adds a likely candidate to the trial and tries a what-if', async () => {
    const { context, page } = await app.newPage();
    await signUpSite(page, { name: 'Rita Recruiter', email: `matcher.${Date.now().toString(36)}@site.test`, site: 'Matching Research Site' });
    const created = await page.request.post('/api/trials/', {
      data: {
        title: 'Asthma controller study',
        targetEnrollment: 20,
        criteria: [
          { kind: 'inclusion', text: 'Aged 18 to 65', rule: { type: 'age', minYears: 18, maxYears: 65 } },
          {
            kind: 'inclusion',
            text: 'Physician-diagnosed asthma',
            rule: { type: 'condition', condition: 'asthma', present: true, concepts: [{ id: 'mesh:D001249', name: 'asthma' }] },
          },
          { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const trialId = ((await created.json()) as { id: string }).id;
    const people: Array<[string, string, string]> = [
      ['Alice', yearsAgo(40), 'A 40-year-old woman with asthma since childhood. She has never smoked.'],
      ['Bruno', yearsAgo(72), 'A 72-year-old man with asthma on inhaled steroids.'],
      ['Chen', yearsAgo(33), 'A 33-year-old man with asthma who smokes a pack a day.'],
      // Nothing said of asthma: possibly eligible, and what to ask next.
      ['Dana', yearsAgo(50), 'A 50-year-old woman referred for a sleep study. She has never smoked.'],
    ];
    for (const [name, dateOfBirth, note] of people) {
      const candidate = await page.request.post('/api/candidates/', { data: { firstName: name, lastName: 'Match', dateOfBirth } });
      expect(candidate.status()).toBe(201);
      const id = ((await candidate.json()) as { id: string }).id;
      expect((await page.request.post(`/api/candidates/${id}/clinical/notes`, { data: { body: note } })).status()).toBe(201);
    }

    // The entry point on the trial page.
    await page.goto(`/trials/${trialId}`);
    await page.getByRole('link', { name: 'Find matching candidates' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Trial matching: Asthma controller study' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: 'Find matching candidates' }).click();
    const table = page.getByRole('table', { name: /ranked/i });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 20_000 }).toBe(5);
    await checkPage(page);

    // Why is Bruno excluded? His age, read from his date of birth.
    await table.getByRole('button', { name: 'Bruno Match' }).click();
    const dialog = page.getByRole('dialog', { name: 'Why: Bruno Match' });
    await expect.poll(() => dialog.getByText('Why excluded').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => dialog.getByText(/Age 72 \(date of birth\) is not 18-65/).isVisible()).toBe(true);
    // The class and its chance in plain words, from the same reasons (decision 131).
    await expect
      .poll(() => dialog.getByTestId('match-summary').textContent())
      .toMatch(/^Excluded \(\d+% chance\): not met: age 72 \(date of birth\) is not 18-65/);
    await checkPage(page);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Alice is likely eligible: add her to the trial in one step.
    await table.getByRole('checkbox', { name: 'Select Alice Match' }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Add to trial' }).click();
    await expect.poll(() => page.getByText('1 added to the trial').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect
      .poll(
        () =>
          table
            .getByRole('row', { name: /Alice Match/ })
            .getByText('In trial')
            .isVisible(),
        { timeout: 20_000 },
      )
      .toBe(true);
    const trial = (await (await page.request.get(`/api/trials/${trialId}`)).json()) as { candidateCount: number };
    expect(trial.candidateCount).toBe(1);

    // Selected candidates go into an outreach sequence from here too; Dana has no phone, so the text sequence refuses her and says why.
    const sequence = await page.request.post('/api/sequences/', {
      data: { name: 'Asthma texts', trialId, steps: [{ key: 'hello', type: 'sms', message: { en: 'Hi {firstName}' } }] },
    });
    expect(sequence.status()).toBe(201);
    await table.getByRole('checkbox', { name: 'Select Dana Match' }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Add to sequence' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add 1 candidate to a sequence' });
    await addDialog.getByLabel('Sequence', { exact: true }).selectOption({ label: 'Asthma texts (Asthma controller study)' });
    await addDialog.getByRole('button', { name: 'Add 1 candidate' }).click();
    await expect
      .poll(
        () =>
          addDialog
            .getByTestId('enroll-result')
            .getByRole('row', { name: /Dana Match/ })
            .textContent(),
        { timeout: 20_000 },
      )
      .toContain('No phone number for SMS');
    await checkPage(page);
    await addDialog.getByRole('button', { name: 'Done' }).click();

    // A prescreen call for the selection: the confirmation says how many and that calling hours apply; a refusal stays in it.
    await table.getByRole('checkbox', { name: 'Select Chen Match' }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Start prescreen call' }).click();
    const callDialog = page.getByRole('alertdialog', { name: 'Call 1 person for a prescreen?' });
    await expect.poll(() => callDialog.getByText(/Calling hours apply/).isVisible(), { timeout: 20_000 }).toBe(true);
    await callDialog.getByRole('button', { name: 'Call 1 person' }).click();
    await expect
      .poll(
        () =>
          callDialog
            .getByText(/no calls placed|no active prescreen voice agent|not in any trial/i)
            .first()
            .isVisible(),
        { timeout: 20_000 },
      )
      .toBe(true);
    await checkPage(page);
    await callDialog.getByRole('button', { name: 'Cancel' }).click();

    // A typed or shared link opens the tab it names (`?gap-analysis=1` reaches the router as the number 1).
    await page.goto(`/trial-matcher/${trialId}?gap-analysis=1`);
    await expect.poll(() => page.getByRole('tab', { name: 'Gap analysis' }).getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
    expect(await page.getByRole('tab', { name: 'Ranked candidates' }).getAttribute('aria-selected')).toBe('false');
    await page.getByRole('tab', { name: 'Ranked candidates' }).click();
    await expect.poll(() => page.getByRole('tab', { name: 'Ranked candidates' }).getAttribute('aria-selected')).toBe('true');

    // Gap analysis: what excludes people, and what raising the age limit would add.
    await page.getByRole('tab', { name: 'Gap analysis' }).click();
    const excluding = page.getByRole('table', { name: 'Criteria that exclude candidates, most first' });
    await expect.poll(() => excluding.getByRole('row').count(), { timeout: 20_000 }).toBe(3);
    const ageRow = excluding.getByRole('row', { name: /Aged 18 to 65/ });
    await ageRow.getByLabel('Max age').fill('75');
    await ageRow.getByRole('button', { name: 'Try these ages' }).click();
    await expect.poll(() => ageRow.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/adds 1/);
    await checkPage(page);

    // What to ask next, as prescreen questions: it says where they go first (issue 32), then what it did.
    await page.getByRole('button', { name: 'Make prescreen questions for these' }).click();
    const where = page.getByRole('group', { name: 'Where should the questions go?' });
    await expect.poll(() => where.getByRole('radio', { name: /A new draft form/ }).isChecked(), { timeout: 20_000 }).toBe(true);
    expect(await where.getByRole('radio', { name: /Add them to a draft form/ }).isVisible()).toBe(true);
    await checkPage(page);
    await where.getByRole('button', { name: 'Make the questions' }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: /Created a new draft form “Questions to ask next/ })
            .isVisible(),
        { timeout: 20_000 },
      )
      .toBe(true);
    await page.getByRole('link', { name: 'Review and publish the form' }).click();
    await expect.poll(() => page.getByText('Questions to ask next (from the trial matcher)').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});
