import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, startApp, type RunningApp, confirmEmailLink } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ASTHMA_TITLE = 'A Randomized, Placebo-Controlled Phase 2/3 Study of an Inhaled Study Drug in Adults With Moderate Persistent Asthma';

describe('trials of a research site', () => {
  it('imports a ClinicalTrials.gov record, reviews it, starts recruiting and fixes a criterion', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Tess Trials');
    await page.getByLabel('Email').fill(`trials.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Harbour Research Site');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    // An empty list offers both ways to create a trial.
    await expect.poll(() => page.getByText('No trials yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Create trial' }).isVisible()).toBe(true);
    await checkPage(page);

    // A file that is not JSON: the server's 400 shows inline.
    await page.getByRole('link', { name: 'Import from ClinicalTrials.gov' }).click();
    await page.waitForURL(/\/trials\/import$/);
    const fileInput = page.getByLabel('ClinicalTrials.gov JSON file');
    await fileInput.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('this is not json') });
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Malformed JSON' }).isVisible()).toBe(true);
    // JSON, but not a study record.
    await fileInput.setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Not a ClinicalTrials.gov study record' }).isVisible()).toBe(true);

    // Criteria the reader learnt in stop 48, in a record's own text: another cancer besides the trial's (decision 305)
    // and a lab value of an analyte outside the measures table (decision 304), each in the words staff read.
    const record = JSON.parse(readFileSync('tests/fixtures/ctgov/asthma-study.json', 'utf8'));
    record.protocolSection.eligibilityModule.eligibilityCriteria +=
      '\n* Other malignancy within 5 years prior to screening\n* Serum PSA > 10 ng/mL\n* VAS leg pain above 80/100';
    await fileInput.setInputFiles({ name: 'asthma-more.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
    await expect.poll(() => page.getByText("Must not have cancer besides the trial's condition in the last 5 years", { exact: false }).isVisible()).toBe(true);
    expect(await page.getByText('prostate-specific antigen ≤ 10 ng/mL').isVisible()).toBe(true);
    // A pain score keeps its region, its scale in words (decision 350).
    expect(await page.getByText('leg pain score ≤ 8 out of 10').isVisible()).toBe(true);

    // The real record: a preview with inclusion and exclusion criteria, nothing saved yet.
    await fileInput.setInputFiles('tests/fixtures/ctgov/asthma-study.json');
    await expect.poll(() => page.getByTestId('preview-title').textContent()).toBe(ASTHMA_TITLE);
    expect(await page.getByRole('heading', { name: /Inclusion criteria/ }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: /Exclusion criteria/ }).isVisible()).toBe(true);
    expect(await page.getByText('eGFR ≥ 45 mL/min').isVisible()).toBe(true);
    expect(await page.getByText('Must be 18–65 years').first().isVisible()).toBe(true);
    expect(await page.getByText('Needs review', { exact: true }).count()).toBeGreaterThan(0);
    await checkPage(page);

    await page.getByRole('button', { name: 'Create draft trial' }).click();
    await page.waitForURL(/\/trials\/[0-9a-f-]{36}$/);
    const trialId = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(ASTHMA_TITLE);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Trials' }).isVisible()).toBe(true);
    expect(await page.getByText('Diagnosis of asthma for at least 12 months').isVisible()).toBe(true);
    // Criteria first; the sites are collapsed under a header with their count, then searchable and editable.
    expect(await page.getByRole('heading', { name: 'Sites (2)' }).isVisible()).toBe(true);
    expect(await page.getByText('Harbour Lung Centre').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show sites' }).click();
    await expect.poll(() => page.getByTestId('site-row').count()).toBe(2);
    expect(await page.getByTestId('site-row').first().textContent()).toContain('Lakeside Clinical Research');
    expect(await page.getByTestId('site-row').first().textContent()).toContain('America/Chicago');
    // Marking Halifax ours lists it first.
    // The box follows the saved state (it flips once the server has it).
    await page.getByLabel('Ours: Harbour Lung Centre, Halifax, Nova Scotia, Canada').click();
    await expect.poll(() => page.getByLabel('Ours: Harbour Lung Centre, Halifax, Nova Scotia, Canada').isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('site-row').first().textContent()).toContain('Harbour Lung Centre');
    await expect.poll(() => page.getByText('1 ours').isVisible()).toBe(true);
    await page.getByLabel('Search', { exact: true }).fill('chicago');
    await expect.poll(() => page.getByTestId('site-row').count()).toBe(1);
    await checkPage(page);
    // The site's owner may delete it.
    expect(await page.getByRole('button', { name: 'Delete' }).isVisible()).toBe(true);

    // draft -> recruiting, kept in the history.
    await page.getByRole('button', { name: 'Start recruiting' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Pause recruiting' }).isVisible()).toBe(true);
    expect(await page.getByText('Draft → Recruiting').isVisible()).toBe(true);
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await checkPage(page);

    // Site staff fix their own criteria (the editor is open to the trial's organization).
    await page.getByRole('link', { name: 'Edit criteria' }).click();
    await page.waitForURL(new RegExp(`/admin/trial-criteria\\?trialId=${trialId}`));
    // The fixture's "one of the following" controller therapies are two criteria (alternatives, both to review);
    // "Diagnosis of asthma for at least 12 months" is read whole, with its duration (decision 045).
    await expect.poll(() => page.getByTestId('review-count').textContent()).toBe('3 of 12 criteria need review');
    const criterion = page.getByRole('group', { name: 'Inclusion criterion 4' });
    expect(await criterion.getByLabel('Text').inputValue()).toBe('Diagnosis of asthma for at least 12 months');
    await criterion.getByLabel('Text').fill('Doctor-diagnosed asthma for at least 12 months');
    await criterion.getByLabel('Needs review').uncheck();
    // The duration read from the text is in its fields (12 months is 1 year), and staff change it and add a qualifier
    // (decisions 045, 077), from the keyboard.
    const atLeast = criterion.getByLabel('Has had it for at least (optional)', { exact: true });
    expect(await atLeast.inputValue()).toBe('1');
    expect(await criterion.getByLabel('Has had it for at least (optional): unit').inputValue()).toBe('years');
    await atLeast.fill('2');
    // The qualifiers come in named groups; a cancer's extent and receptors are one of them (decision 316).
    expect(await criterion.getByRole('group', { name: 'A cancer’s extent and receptors' }).getByLabel('HER2-positive', { exact: true }).isChecked()).toBe(
      false,
    );
    // A heart failure's NYHA class range is a group of its own (decision 370).
    expect(await criterion.getByRole('group', { name: 'Heart failure class (NYHA)' }).getByLabel('NYHA class III–IV', { exact: true }).isChecked()).toBe(false);
    await criterion.getByRole('group', { name: 'Severity and course' }).getByLabel('severe', { exact: true }).press('Space');
    await expect.poll(() => criterion.getByText('Eligible when:').locator('..').textContent()).toContain('Must have asthma (severe) for at least 2 years');
    // Move the first exclusion criterion down, by keyboard.
    await page.getByRole('group', { name: 'Exclusion criterion 1' }).getByRole('button', { name: 'Move down' }).press('Enter');
    expect(await page.getByRole('group', { name: 'Exclusion criterion 2' }).getByLabel('Text').inputValue()).toBe('Pregnant or breastfeeding');
    // "Needs review only" hides the reviewed ones.
    await page.getByLabel('Needs review only').check();
    expect(await page.getByRole('group', { name: /criterion/ }).count()).toBe(3);
    await page.getByLabel('Needs review only').uncheck();
    await checkPage(page);
    await page.getByRole('button', { name: 'Save criteria' }).click();
    await expect.poll(() => page.getByText('All changes saved').isVisible(), { timeout: 20_000 }).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByTestId('review-count').textContent()).toBe('3 of 12 criteria need review');
    expect(await page.getByRole('group', { name: 'Inclusion criterion 4' }).getByLabel('Text').inputValue()).toBe(
      'Doctor-diagnosed asthma for at least 12 months',
    );
    expect(await page.getByRole('group', { name: 'Inclusion criterion 4' }).getByText('Eligible when:').locator('..').textContent()).toContain(
      'Must have asthma (severe) for at least 2 years',
    );
    expect(await page.getByRole('group', { name: 'Exclusion criterion 2' }).getByLabel('Text').inputValue()).toBe('Pregnant or breastfeeding');

    // The list shows the trial with its status and enrollment.
    await page.goto('/trials');
    const row = page.getByRole('row', { name: /Moderate Asthma/ });
    await expect.poll(() => row.isVisible()).toBe(true);
    // The table names the trial by its brief title; the official one is the trial page's heading (above).
    expect(await row.getByRole('link', { name: 'Inhaled Study Drug for Adults With Moderate Asthma', exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole('link', { name: ASTHMA_TITLE }).count()).toBe(0);
    expect(await row.getByText('Recruiting').isVisible()).toBe(true);
    expect(await row.getByText('0 of 120').isVisible()).toBe(true);
    await checkPage(page);
    await context.close();
  });

  it('creates a trial by hand with validation messages', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Hana Hand');
    await page.getByLabel('Email').fill(`hand.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Hand Made Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);
    // The form's code loads when the dialog first opens (the bundle budget): on a slow network the dialog opens
    // at once, titled, with a loading state, and the form follows.
    await page.route(/\/assets\/TrialFormDialog-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create trial' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create trial' });
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Loading…');
    await checkPage(page);
    await dialog.getByLabel('NCT id (optional)').fill('12345');
    await dialog.getByRole('button', { name: 'Create trial' }).click();
    await expect.poll(() => dialog.getByText('Enter a title').isVisible()).toBe(true);
    expect(await dialog.getByText('NCT id must look like NCT01234567').isVisible()).toBe(true);
    await checkPage(page);
    await dialog.getByLabel('Title', { exact: true }).fill('Sleep and Memory Study');
    await dialog.getByLabel('NCT id (optional)').fill('nct01234567');
    await dialog.getByLabel('Conditions (optional)').fill('Insomnia, Memory loss');
    await dialog.getByLabel('Target enrollment').fill('40');
    await dialog.getByRole('button', { name: 'Create trial' }).click();
    await page.waitForURL(/\/trials\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sleep and Memory Study');
    expect(await page.getByText('NCT01234567').first().isVisible()).toBe(true);
    expect(await page.getByText('Insomnia, Memory loss').isVisible()).toBe(true);
    await context.close();
  });
});

describe('an internal admin', () => {
  it('sees trials across organizations on /admin/trials, with their organization', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    // Global access: the Cohortly organization active.
    await page.locator('#org-switcher').selectOption({ label: 'Cohortly' });
    await page.goto('/admin/trials');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Trials (all organizations)');
    await expect.poll(() => page.getByRole('row', { name: /Moderate Asthma/ }).isVisible()).toBe(true);
    expect(
      await page
        .getByRole('row', { name: /Moderate Asthma/ })
        .getByText('Harbour Research Site')
        .isVisible(),
    ).toBe(true);
    expect(await page.getByRole('columnheader', { name: 'Organization' }).isVisible()).toBe(true);
    await checkPage(page);

    // Without a trialId the criteria editor offers a picker.
    await page.goto('/admin/trial-criteria');
    await expect.poll(() => page.getByRole('link', { name: 'Edit criteria' }).first().isVisible()).toBe(true);
    await checkPage(page);
    await context.close();
  });
});
