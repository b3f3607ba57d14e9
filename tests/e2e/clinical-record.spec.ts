import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signUpSite, startApp, type RunningApp } from './support';

let app: RunningApp;
let scratch: string;
beforeAll(async () => {
  app = await startApp();
  scratch = mkdtempSync(path.join(tmpdir(), 'cohortly-clinical-e2e-'));
});
afterAll(async () => {
  await app?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const BUNDLE = path.resolve(process.cwd(), 'tests/fixtures/fhir/small-bundle.json');

/** The row of a facts table whose first cell is `name`. */
const factRow = (record: Locator, group: string, name: string) =>
  record
    .getByRole('table', { name: `Known facts: ${group}` })
    .getByRole('row')
    .filter({ has: record.page().getByRole('cell', { name, exact: true }) });

/** Picks in a ChoiceSelect (a Radix select) as a person does: open it, choose the option. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => select.textContent()).toContain(option);
}

describe('a candidate’s clinical record (issue 11)', () => {
  it('reads a pasted note into facts with their words, takes a fact by hand, and imports a health record', async () => {
    const { context, page } = await app.newPage();
    await signUpSite(page, { name: 'Cleo Clinical', email: `clinical.${unique()}@site.test`, site: 'Harbor Clinical Research' });

    await page.goto('/candidates');
    await page.getByRole('button', { name: 'Add candidate' }).click();
    await page.getByRole('dialog').getByLabel('First name').fill('Rosa');
    await page.getByRole('dialog').getByLabel('Last name').fill('Record');
    await page.getByRole('dialog').getByRole('button', { name: 'Add candidate' }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);

    const record = page.getByRole('region', { name: 'Clinical record' });
    await expect.poll(() => record.getByText('No clinical notes yet.', { exact: false }).isVisible()).toBe(true);
    const alsoFits = page.getByRole('region', { name: 'Other trials this candidate may fit' });
    await expect.poll(() => alsoFits.getByText('No other recruiting trial fits on what is known.').isVisible()).toBe(true);

    // A note is read into facts: asthma present, smoking denied, each shown with the words it came from.
    await record.getByLabel('New clinical note').fill('A 58-year-old woman with asthma. She denies smoking.');
    await record.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => page.getByText(/^Note saved: \d+ facts? read$/).isVisible()).toBe(true);
    const asthma = factRow(record, 'Conditions', 'asthma');
    await expect.poll(() => asthma.count()).toBe(1);
    expect(await asthma.getByText('Present', { exact: true }).isVisible()).toBe(true);
    expect(await asthma.getByText('Clinical note', { exact: true }).isVisible()).toBe(true);
    expect(await asthma.locator('mark').textContent()).toBe('asthma');
    expect(await asthma.locator('q').textContent()).toBe('A 58-year-old woman with asthma.');
    const smoking = factRow(record, 'Other', 'smoking');
    expect(await smoking.getByText('Absent', { exact: true }).isVisible()).toBe(true);
    expect(await smoking.locator('mark').textContent()).toBe('smoking');
    expect(await factRow(record, 'Other', 'age').getByText('58 years').isVisible()).toBe(true);
    const notes = record.getByRole('list', { name: 'Clinical notes, newest first' });
    expect(await notes.getByText(/Cleo Clinical · .+ · \d+ facts read/).isVisible()).toBe(true);

    // A fact by hand, checked with the contract's rules: a lab needs a value.
    await record.getByRole('button', { name: 'Add fact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a fact' });
    await choose(page, dialog.getByLabel('Kind'), 'Lab or vital sign');
    await dialog.getByLabel('Name').fill('HbA1c');
    await dialog.getByRole('button', { name: 'Add fact' }).click();
    await expect.poll(() => dialog.getByText('A value is needed').isVisible()).toBe(true);
    expect(await dialog.getByLabel('Value').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page);
    await dialog.getByLabel('Value').fill('7.1');
    await dialog.getByLabel('Unit (optional)').fill('%');
    await dialog.getByLabel('Date (optional)').fill('2025-03-04');
    await dialog.getByRole('button', { name: 'Add fact' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const hba1c = factRow(record, 'Labs and vitals', 'HbA1c');
    await expect.poll(() => hba1c.count()).toBe(1);
    expect(await hba1c.getByText('7.1 %').isVisible()).toBe(true);
    expect(await hba1c.getByText('Entered by staff').isVisible()).toBe(true);
    await page.waitForTimeout(600);
    await checkPage(page);

    // Deleting a note takes the facts read from it; the hand-entered fact stays.
    await notes.getByRole('button', { name: /^Delete the note of / }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.getByText(/facts read from it are removed/).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Delete note' }).click();
    // While the confirmation is open the page behind it is hidden from the accessibility tree.
    await expect.poll(() => confirm.count()).toBe(0);
    await expect.poll(() => record.getByRole('table', { name: 'Known facts: Conditions' }).count()).toBe(0);
    expect(await hba1c.count()).toBe(1);
    expect(await record.getByText('No clinical notes yet.', { exact: false }).isVisible()).toBe(true);

    // A FHIR R4 bundle from the list page: a file that is not JSON is told at once; the bundle makes a candidate.
    await page.goto('/candidates');
    await page.getByRole('button', { name: 'Import health record' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import a health record' });
    const notJson = path.join(scratch, 'not-json.json');
    writeFileSync(notJson, 'Patient: Ana Ruiz');
    await importDialog.getByLabel('FHIR bundle (.json)').setInputFiles(notJson);
    await importDialog.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => importDialog.getByText('The file is not JSON').isVisible()).toBe(true);
    await importDialog.getByLabel('FHIR bundle (.json)').setInputFiles(BUNDLE);
    await importDialog.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => importDialog.getByText(/^Created Ana Ruiz with \d+ facts$/).isVisible(), { timeout: 20_000 }).toBe(true);
    await checkPage(page);
    await importDialog.getByRole('link', { name: 'Open Ana Ruiz' }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ana Ruiz');
    await expect.poll(() => record.getByRole('table', { name: 'Known facts: Conditions' }).getByText('Health record (FHIR)').first().isVisible()).toBe(true);
    await page.waitForTimeout(600);
    await checkPage(page);
    await context.close();
  });
});
