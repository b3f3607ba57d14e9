import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, signIn, startApp, type RunningApp, confirmEmailLink, signUpSite } from './support';

let app: RunningApp;
let scratch: string;
beforeAll(async () => {
  app = await startApp();
  scratch = mkdtempSync(path.join(tmpdir(), 'cohortly-candidates-e2e-'));
});
afterAll(async () => {
  await app?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Five rows: three good, row 3 without a first name, row 4 with a phone that is not one. */
const CSV = [
  'First Name,Last Name,Mobile,Email,DOB',
  'Ada,Lovelace,(212) 555-0101,ada@example.test,1985-12-10',
  'Grace,Hopper,212-555-0102,grace@example.test,1976-12-09',
  ',Nameless,212-555-0103,nameless@example.test,1990-01-01',
  'Bad,Phone,12345,badphone@example.test,1990-01-01',
  'Alan,Turing,212-555-0105,alan@example.test,1954-06-07',
].join('\n');

describe('candidates of a research site', () => {
  it('imports consent columns with a documented source, so the candidates are contactable; bulk consent records the rest (issue 15)', async () => {
    const { page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Connie Consent');
    await page.getByLabel('Email').fill(`consent.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Consent Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    await page.goto('/candidates/import');
    const file = path.join(scratch, 'consented.csv');
    writeFileSync(
      file,
      ['First Name,Last Name,Mobile,Zip,SMS Consent,Call Consent', 'Nia,Brooks,212-555-0181,94103,yes,yes', 'Omar,Reyes,212-555-0182,,no,no'].join('\n'),
    );
    await page.getByLabel('Candidates file (CSV or JSON)').setInputFiles(file);
    await page.getByRole('button', { name: 'Next: check columns' }).click();
    await expect.poll(() => page.getByLabel('Column “SMS Consent”').isVisible()).toBe(true);
    expect(await page.getByLabel('Column “SMS Consent”').inputValue()).toBe('consentSms');
    expect(await page.getByLabel('Column “Call Consent”').inputValue()).toBe('consentCalls');
    // Documented consent: the import must say where it was given.
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await expect.poll(() => page.getByText('Say where the consent was given').isVisible()).toBe(true);
    await page.getByLabel('Consent source (required)').fill('paper form at clinic');
    await checkPage(page);
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('Completed');
    // Outcomes name the candidates.
    await page.getByRole('link', { name: /Nia Brooks/ }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('consent-sources').textContent()).toContain('SMS: paper form at clinic');
    expect(await page.getByLabel('SMS', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('Calls', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByText('America/Los Angeles').count()).toBeGreaterThan(0);

    // Omar said no in the file; staff record the consent he gave later, with its source.
    await page.goto('/candidates?search=reyes');
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–1 of 1');
    await page.getByLabel('Select Omar Reyes').check();
    await page.getByRole('button', { name: 'Record consent' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Record consent for 1 candidate').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Record consent' }).click();
    await expect.poll(() => dialog.getByText('Say where the consent was given').isVisible()).toBe(true);
    await dialog.getByLabel('Source').fill('phone call with the coordinator');
    await checkPage(page);
    await dialog.getByRole('button', { name: 'Record consent' }).click();
    await expect.poll(() => page.getByText('Consent recorded for 1 candidate').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Omar Reyes' }).click();
    await expect.poll(() => page.getByTestId('consent-sources').textContent()).toContain('Calls: phone call with the coordinator');
  });

  it("shows each phone as a person reads it: national for the person's own country, international for another's (issue 32)", async () => {
    const { page } = await app.newPage();
    await signUpSite(page, { name: 'Phoebe Phones', email: `phones.${unique()}@site.test`, site: 'Phones Clinic' });
    await page.goto('/candidates/import');
    const file = path.join(scratch, 'phones.csv');
    writeFileSync(
      file,
      [
        'First Name,Last Name,Mobile,Country',
        'Ava,Sydneysider,+61 2 9123 4567,Australia',
        'Liam,Traveller,+61 2 9123 4568,United States',
        'Mia,Manhattan,+1 212 555 0199,US',
      ].join('\n'),
    );
    await page.getByLabel('Candidates file (CSV or JSON)').setInputFiles(file);
    await page.getByRole('button', { name: 'Next: check columns' }).click();
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('Completed');
    await page.goto('/candidates');
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–3 of 3');
    const rowText = (name: string) => page.getByRole('row', { name: new RegExp(name) }).textContent();
    expect(await rowText('Ava Sydneysider')).toContain('(02) 9123 4567');
    expect(await rowText('Liam Traveller')).toContain('+61 2 9123 4568');
    expect(await rowText('Mia Manhattan')).toContain('(212) 555-0199');
    // Never the stored E.164 form.
    expect(await page.locator('table').textContent()).not.toMatch(/\+\d{10,}/);
    await checkPage(page);
  });

  it('imports diagnosis and lab columns as clinical facts, naming the values it does not recognize (issue 11)', async () => {
    const { page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Dina Diagnoses');
    await page.getByLabel('Email').fill(`facts.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Registry Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    await page.goto('/candidates/import');
    const file = path.join(scratch, 'registry.csv');
    writeFileSync(file, ['First Name,Last Name,Diagnoses,HbA1c', 'Ivy,Hale,Type 2 diabetes; Zorblax syndrome,7.9', 'Jon,Marsh,Asthma,high'].join('\n'));
    await page.getByLabel('Candidates file (CSV or JSON)').setInputFiles(file);
    await page.getByRole('button', { name: 'Next: check columns' }).click();
    await expect.poll(() => page.getByLabel('Column “Diagnoses”').isVisible()).toBe(true);
    expect(await page.getByLabel('Column “Diagnoses”').inputValue()).toBe('conditions');
    expect(await page.getByLabel('Column “HbA1c”').inputValue()).toBe('lab');
    await expect.poll(() => page.getByText('4 clinical facts read from the diagnosis, medication and lab columns', { exact: false }).isVisible()).toBe(true);
    const unrecognised = page.getByRole('table', { name: 'Values not recognized' });
    expect(await unrecognised.getByRole('row', { name: /Zorblax syndrome/ }).textContent()).toContain('kept by its name');
    expect(await unrecognised.getByRole('row', { name: /high/ }).textContent()).toContain('left out');
    await checkPage(page);
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('Completed');
    await page.getByRole('link', { name: /Ivy Hale/ }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').at(-1);
    const record = (await (await page.request.get(`/api/candidates/${id}/clinical`)).json()) as { facts: Array<{ name: string; source: string }> };
    expect(record.facts.map((fact) => fact.name).sort()).toEqual(['HbA1c', 'Zorblax syndrome', 'type 2 diabetes']);
    expect(record.facts.every((fact) => fact.source === 'import')).toBe(true);
  });

  it('imports a CSV, finds a candidate, adds and deletes a note, and reads the contact history', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Cara Candidates');
    await page.getByLabel('Email').fill(`candidates.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Riverside Recruiting');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    // An empty list offers both ways in.
    await page.goto('/candidates');
    await expect.poll(() => page.getByText('No candidates yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Add candidate' }).isVisible()).toBe(true);
    await checkPage(page);

    // Step 1: the file and options.
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.waitForURL(/\/candidates\/import$/);
    const file = path.join(scratch, 'site-list.csv');
    writeFileSync(file, CSV);
    await page.getByLabel('Candidates file (CSV or JSON)').setInputFiles(file);
    await expect.poll(() => page.getByText('Chosen: site-list.csv (CSV)').isVisible()).toBe(true);
    expect(await page.getByLabel(/^Merge/).isChecked()).toBe(true);
    await checkPage(page);
    await page.getByRole('button', { name: 'Next: check columns' }).click();

    // Step 2: the guessed mapping and a validated sample.
    await expect.poll(() => page.getByLabel('Column “First Name”').isVisible()).toBe(true);
    expect(await page.getByLabel('Column “First Name”').inputValue()).toBe('firstName');
    expect(await page.getByLabel('Column “Last Name”').inputValue()).toBe('lastName');
    expect(await page.getByLabel('Column “Mobile”').inputValue()).toBe('phone');
    expect(await page.getByLabel('Column “DOB”').inputValue()).toBe('dateOfBirth');
    expect(await page.getByText('3 valid and 2 with problems', { exact: false }).isVisible()).toBe(true);
    // Dates of birth in words, as on the candidate's page, never the stored form.
    expect(await page.getByRole('cell', { name: /Dec 10, 1985|10 Dec 1985/ }).count()).toBe(1);
    expect(await page.getByText('1985-12-10').count()).toBe(0);
    await checkPage(page);

    // Step 3: the run, polled to the end.
    await page.getByRole('button', { name: 'Import 5 rows' }).click();
    const progress = page.getByRole('progressbar', { name: /Progress of Import of site-list.csv/ });
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('Completed');
    expect(await progress.getAttribute('aria-valuenow')).toBe('5');
    expect(await progress.getAttribute('aria-valuemax')).toBe('5');
    await expect.poll(() => page.getByTestId('count-created').textContent()).toBe('3');
    expect(await page.getByTestId('count-invalid').textContent()).toBe('2');
    expect(await page.getByTestId('row-outcome-3').textContent()).toContain('Invalid');
    expect(await page.getByTestId('row-outcome-3').textContent()).toContain('First name is required');
    expect(await page.getByTestId('row-outcome-4').textContent()).toContain('Invalid');
    expect(await page.getByTestId('row-outcome-4').textContent()).toMatch(/phone/i);
    expect(await page.getByTestId('row-outcome-1').textContent()).toContain('Created');
    expect(await page.getByRole('link', { name: 'View in processed runs' }).getAttribute('href')).toMatch(/\/admin\/processed-runs\?id=/);
    await checkPage(page);

    // Staff follow their own runs on /admin/processed-runs.
    await page.getByRole('link', { name: 'View in processed runs' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Completed');
    await page.goto('/admin/processed-runs');
    await expect.poll(() => page.getByRole('link', { name: 'Import of site-list.csv' }).isVisible()).toBe(true);
    expect(await page.getByRole('progressbar', { name: 'Progress of Import of site-list.csv' }).getAttribute('aria-valuenow')).toBe('5');
    await checkPage(page);
    // The runs' search box narrows the list as one types, and keeps the words in the address.
    const runSearch = page.getByRole('searchbox', { name: 'Search runs' });
    await runSearch.fill('no such run');
    await page.waitForURL(/search=no\+such\+run|search=no%20such%20run/);
    await expect.poll(() => page.getByText('No runs match').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Import of site-list.csv' }).count()).toBe(0);
    await checkPage(page);
    await runSearch.fill('site-list');
    await page.waitForURL(/search=site-list/);
    await expect.poll(() => page.getByRole('link', { name: 'Import of site-list.csv' }).isVisible()).toBe(true);

    // The list: three candidates; a search narrows to one and survives a reload.
    await page.goto('/candidates');
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–3 of 3');
    expect(await page.getByRole('cell', { name: '(212) 555-0101' }).isVisible()).toBe(true);
    await checkPage(page);
    await page.getByLabel('Search').fill('lovelace');
    await page.waitForURL(/search=lovelace/);
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–1 of 1');
    await page.reload();
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–1 of 1');
    expect(await page.getByLabel('Search').inputValue()).toBe('lovelace');
    expect(await page.locator('tbody tr').count()).toBe(1);

    // The detail: add a note, then delete it.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada Lovelace');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await breadcrumb.getByRole('link', { name: 'Candidates' }).isVisible()).toBe(true);
    await expect.poll(() => breadcrumb.getByText('Ada Lovelace').isVisible()).toBe(true);
    expect(await page.getByText('No notes yet.').isVisible()).toBe(true);
    await page.getByLabel('New note').fill('Interested in the evening visit slots.');
    // The clinical record has an "Add note" of its own: this is the prescreen note's form.
    await page
      .locator('form', { has: page.getByLabel('New note') })
      .getByRole('button', { name: 'Add note' })
      .click();
    const notes = page.getByRole('list', { name: 'Prescreen notes' });
    await expect.poll(() => notes.getByText('Interested in the evening visit slots.').isVisible()).toBe(true);
    expect(await notes.getByText(/Cara Candidates/).isVisible()).toBe(true);
    await page.waitForTimeout(600);
    await checkPage(page);
    await page.getByRole('button', { name: 'Delete note 1' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.getByText('Delete this note?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Delete note' }).click();
    await expect.poll(() => page.getByText('No notes yet.').isVisible()).toBe(true);
    expect(await page.getByText('Interested in the evening visit slots.').count()).toBe(0);

    // The contact history: created by the import, the note added and deleted, with who and when.
    await page.getByRole('link', { name: 'Contact history' }).click();
    await page.waitForURL(/\/contact-history$/);
    const timeline = page.getByRole('list', { name: 'Contact history' });
    await expect.poll(() => timeline.locator('li').count()).toBeGreaterThanOrEqual(2);
    const created = timeline.locator('li[data-kind="created"]');
    expect(await created.count()).toBe(1);
    expect(await created.textContent()).toMatch(/By .+ · /);
    const noteEntries = timeline.locator('li[data-kind="note"]');
    expect(await noteEntries.count()).toBeGreaterThanOrEqual(1);
    expect(await noteEntries.first().textContent()).toContain('By Cara Candidates');
    expect(await noteEntries.first().locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await breadcrumb.getByRole('link', { name: 'Ada Lovelace' }).isVisible()).toBe(true);
    expect(await breadcrumb.getByText('Contact history').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(page);
    await context.close();
  });

  it('adds candidates by hand with the server’s field errors inline, then changes status and deletes them in bulk', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Bo Bulk');
    await page.getByLabel('Email').fill(`bulk.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Bulk Street Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);
    await page.goto('/candidates');
    await page.getByRole('button', { name: 'Add candidate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Nell');
    await dialog.getByLabel('Phone').fill('12345');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Add candidate' }).click();
    await expect.poll(() => dialog.getByText(/Enter a valid phone number/).isVisible()).toBe(true);
    expect(await dialog.getByText('Enter a valid email address').isVisible()).toBe(true);
    expect(await dialog.getByLabel('Phone').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page);
    await dialog.getByLabel('Last name').fill('Nightingale');
    await dialog.getByLabel('Phone').fill('+1 212 555 0199');
    await dialog.getByLabel('Email').fill('nell@example.test');
    // Time zones are searched, not scrolled through: typing a city finds its zone, with its UTC offset.
    const zone = dialog.getByLabel('Time zone', { exact: true });
    expect(await zone.textContent()).toBe('Not set');
    await zone.click();
    await page.keyboard.type('chicago');
    const zones = page.getByRole('listbox', { name: 'Time zones' });
    await expect.poll(() => zones.getByRole('option').count()).toBe(1);
    expect(await zones.getByRole('option').textContent()).toMatch(/America\/Chicago\s*UTC−0[56]:00/);
    await checkPage(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => zone.textContent()).toBe('America/Chicago');
    await dialog.getByLabel('Consents to SMS').check();
    await dialog.getByRole('button', { name: 'Add candidate' }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Nell Nightingale');
    expect(await page.getByLabel('SMS').isChecked()).toBe(true);

    await page.goto('/candidates');
    await page.getByRole('button', { name: 'Add candidate' }).click();
    await page.getByRole('dialog').getByLabel('First name').fill('Otto');
    await page.getByRole('dialog').getByRole('button', { name: 'Add candidate' }).click();
    await page.waitForURL(/\/candidates\/[0-9a-f-]{36}$/);
    await page.goto('/candidates');
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–2 of 2');

    await page.getByLabel('Select all on this page').check();
    await expect.poll(() => page.getByText('2 selected').isVisible()).toBe(true);
    await page.getByLabel('Change status').selectOption('contacted');
    await page.getByRole('button', { name: 'Apply status' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'Contacted' }).count()).toBe(2);
    await page.getByLabel('Status', { exact: true }).selectOption('contacted');
    await page.waitForURL(/status=contacted/);
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–2 of 2');

    await page.getByLabel('Select Otto').check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.getByText('Delete 1 candidate?').isVisible()).toBe(true);
    expect(await confirm.getByText(/removed for good/).isVisible()).toBe(true);
    await checkPage(page);
    await confirm.getByRole('button', { name: 'Delete 1 candidate' }).click();
    await expect.poll(() => page.getByTestId('paging-summary').textContent()).toBe('Showing 1–1 of 1');
    expect(await page.getByRole('link', { name: 'Nell Nightingale' }).isVisible()).toBe(true);
    await context.close();
  });
  it("names the trials a candidate of Cohortly's own organization is linked to, outside the default selection", async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const { organizations } = await (await page.request.get('/api/organizations')).json();
    const own = organizations.find((org: { slug: string }) => org.slug === 'cohortly');
    const trial = await page.request.post(`/api/trials?organizationIds=${own.id}`, { data: { title: 'In-House Feasibility Study of Knee Pain' } });
    expect(trial.status()).toBe(201);
    const trialId = (await trial.json()).id;
    const candidate = await page.request.post(`/api/candidates?organizationId=${own.id}`, {
      data: { firstName: 'Ines', lastName: 'Inhouse', phone: '(212) 555-0177', trialIds: [trialId] },
    });
    expect(candidate.status()).toBe(201);
    await page.locator('#org-switcher').selectOption({ label: 'Cohortly' });
    await page.goto(`/candidates/${(await candidate.json()).id}`);
    await expect.poll(() => page.getByRole('link', { name: 'In-House Feasibility Study of Knee Pain' }).isVisible()).toBe(true);
    await context.close();
  });
});
