import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signUpSite, startApp, type RunningApp } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
/** Background work (pg-boss polls every 2 s) and the lists' 5 s refresh. */
const SLOW = { timeout: 30_000, interval: 250 };

/**
 * A zone where it is now between 09:00 and 20:00, so texts go out at once instead of waiting for the morning
 * (messages keep to 08:00-21:00 on the candidate's clock).
 */
function zoneInContactHours(now = new Date()): string {
  const zones = [
    'America/New_York',
    'America/Chicago',
    'America/Los_Angeles',
    'Pacific/Honolulu',
    'Europe/London',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Asia/Tokyo',
    'Australia/Sydney',
    'Pacific/Auckland',
  ];
  for (const zone of zones) {
    const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(now));
    if (hour >= 9 && hour < 20) return zone;
  }
  throw new Error('no zone in contact hours');
}

async function addCandidate(page: Page, firstName: string, lastName: string, phone: string, timeZone: string, sms = true): Promise<string> {
  const answer = await page.request.post('/api/candidates/', { data: { firstName, lastName, phone, timeZone, consent: { sms, calls: true } } });
  expect(answer.status()).toBe(201);
  return (await answer.json()).id as string;
}

const row = (page: Page, name: string) => page.getByTestId('enrollment-row').filter({ has: page.getByRole('link', { name, exact: true }) });

describe('Outreach sequences', () => {
  it('a coordinator builds a sequence, enrolls candidates from the list, sees a reply end one enrollment and stops another', async () => {
    const { context, page } = await app.newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signUpSite(page, { name: 'Cora Coordinator', email: `seq.${unique()}@site.test`, site: 'Harbor Clinical Research' });
    const zone = zoneInContactHours();
    const ritaId = await addCandidate(page, 'Rita', 'Reply', '+12125550171', zone);
    const samId = await addCandidate(page, 'Sam', 'Stop', '+12125550172', zone);
    await addCandidate(page, 'Nora', 'Noconsent', '+12125550173', zone, false);
    const paulaId = await addCandidate(page, 'Paula', 'Later', '+12125550174', zone);

    // No sequences yet: the empty list offers a first one; the sidebar leads here.
    await page.goto('/admin/sequences');
    await expect.poll(() => page.getByText('No active sequences').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Manage' }).getByRole('link', { name: 'Sequences' }).isVisible()).toBe(true);
    await checkPage(page);
    await page.getByRole('link', { name: 'New sequence' }).click();
    await page.waitForURL(/\/admin\/sequences\/new$/);

    // The builder starts with one text message. Saving it empty names each problem, on the field too.
    await expect.poll(() => page.getByRole('heading', { name: 'Step 1: SMS' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: 'Create sequence' }).click();
    const problems = page.getByTestId('builder-problems');
    await expect.poll(() => problems.textContent(), { timeout: 20_000 }).toContain('Name: Enter a name');
    expect(await problems.textContent()).toContain('Step 1, Message (English): Required');
    expect(await page.getByLabel('Message (English)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await checkPage(page);

    await page.getByLabel('Name', { exact: true }).fill('Welcome texts');
    await page.getByLabel('A call was missed and no callback is set').check();
    // A variable chip goes in where the caret is.
    const english = page.getByLabel('Message (English)', { exact: true });
    await english.fill('Hi , can we talk about the study?');
    await english.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(3, 3));
    await page.getByRole('button', { name: '{firstName}' }).click();
    expect(await english.inputValue()).toBe('Hi {firstName}, can we talk about the study?');
    await page.getByLabel('Message (Spanish)', { exact: true }).fill('Hola {firstName}, ¿hablamos del estudio?');

    // A one-minute wait, then a reminder. An email step added and moved with the keyboard-reachable buttons, then deleted.
    const addStep = page.getByRole('group', { name: 'Add a step' });
    await addStep.getByRole('button', { name: 'Wait' }).click();
    await page.getByLabel('Amount').fill('1');
    await page.getByLabel('Unit').selectOption('minutes');
    await addStep.getByRole('button', { name: 'SMS' }).click();
    await page.getByLabel('Message (English)', { exact: true }).nth(1).fill('Still there, {firstName}? Reply any time.');
    await addStep.getByRole('button', { name: 'Email' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Step 4: Email' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: 'Move up' }).last().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Step 3: Email' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Move up');
    await page
      .locator('[data-step]')
      .filter({ has: page.getByRole('heading', { name: 'Step 3: Email' }) })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect
      .poll(() => page.getByRole('heading', { name: /^Step \d: / }).allTextContents(), { timeout: 20_000 })
      .toEqual(['Step 1: SMS', 'Step 2: Wait', 'Step 3: SMS']);

    // A branch back to an earlier step is refused as you build, by the contract's own rule.
    await addStep.getByRole('button', { name: 'Branch' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Step 4: Branch' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByLabel('If it did not').selectOption({ label: 'Go on to the next step' });
    expect(await page.getByLabel('If it did not').locator('option').allTextContents()).not.toContain('Go to step 1: SMS (sms-1)');
    await page
      .locator('[data-step]')
      .filter({ has: page.getByRole('heading', { name: 'Step 4: Branch' }) })
      .getByRole('button', { name: 'Delete' })
      .click();
    await checkPage(page);

    // Preview step 1 with a real candidate, in English and Spanish.
    await page.getByRole('button', { name: 'Preview step 1' }).click();
    const previewDialog = page.getByRole('dialog');
    await previewDialog.getByLabel('Candidate to preview with').fill('Rita');
    await previewDialog.getByRole('button', { name: /Rita Reply/ }).click();
    await expect.poll(() => previewDialog.getByTestId('preview-en').textContent(), SLOW).toContain('Hi Rita, can we talk about the study?');
    expect(await previewDialog.getByTestId('preview-es').textContent()).toContain('Hola Rita, ¿hablamos del estudio?');
    await checkPage(page);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Create sequence' }).click();
    await page.waitForURL(/\/admin\/sequences\/[0-9a-f-]{36}(\?|$)/);
    const sequenceUrl = new URL(page.url()).pathname;
    await expect.poll(() => page.getByTestId('sequence-step').count(), { timeout: 20_000 }).toBe(3);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome texts');
    expect(await page.getByText('A call was missed and no callback is set').isVisible()).toBe(true);
    expect(await page.getByTestId('sequence-step').nth(1).textContent()).toContain('For 1 minute.');
    await checkPage(page);

    // Enroll from the candidates list: two go in, the one without SMS consent is refused with the reason.
    await page.goto('/candidates');
    for (const name of ['Rita Reply', 'Sam Stop', 'Nora Noconsent']) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await page.getByRole('button', { name: 'Add to sequence' }).click();
    const addDialog = page.getByRole('dialog');
    await addDialog.getByLabel('Sequence', { exact: true }).selectOption({ label: 'Welcome texts' });
    await checkPage(page);
    await addDialog.getByRole('button', { name: 'Add 3 candidates' }).click();
    const result = addDialog.getByTestId('enroll-result');
    await expect.poll(() => result.isVisible(), SLOW).toBe(true);
    expect(await result.getByRole('status').textContent()).toBe('2 candidates enrolled, 1 not enrolled.');
    expect(await result.getByRole('row', { name: /Nora Noconsent/ }).textContent()).toContain('No SMS consent');
    await checkPage(page);
    await addDialog.getByRole('button', { name: 'Done' }).click();

    // The Enrollments tab: both active; the first text goes out within seconds, and the timeline says so.
    await page.goto(`${sequenceUrl}?tab=enrollments`);
    await expect.poll(() => page.getByTestId('enrollment-row').count(), SLOW).toBe(2);
    expect(await row(page, 'Rita Reply').getByTestId('enrollment-status').textContent()).toContain('Active');
    await row(page, 'Rita Reply').getByRole('button', { name: 'Timeline of Rita Reply' }).click();
    const timeline = page.getByTestId('enrollment-timeline');
    await expect.poll(() => timeline.locator('[data-kind="sent"]').count(), SLOW).toBeGreaterThan(0);
    expect(await timeline.locator('[data-kind="sent"]').first().textContent()).toContain('SMS sent');
    expect(await timeline.getByText('Enrolled by staff (version 1)').isVisible()).toBe(true);
    await checkPage(page);
    await page.keyboard.press('Escape');
    // Waiting a minute: the next send is shown on the candidate's own clock, with the zone named.
    await expect.poll(() => row(page, 'Rita Reply').getByTestId('next-send').textContent(), SLOW).toContain(`(${zone.replace(/_/g, ' ')})`);
    await checkPage(page);

    // Rita answers the text (the SMS screen's simulated reply): her enrollment ends as "Replied".
    await page.goto(`/admin/sms?candidateId=${ritaId}`);
    const log = page.getByRole('log', { name: 'Messages with Rita Reply' });
    await expect.poll(() => log.getByText('Hi Rita, can we talk about the study?').isVisible(), SLOW).toBe(true);
    await page.getByLabel('Simulate a reply').fill('Yes, tell me more');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => log.getByText('Yes, tell me more').isVisible(), SLOW).toBe(true);
    await page.goto(`${sequenceUrl}?tab=enrollments`);
    await expect.poll(() => row(page, 'Rita Reply').getByTestId('enrollment-status').textContent(), SLOW).toBe('ExitedReplied');

    // Sam is stopped from his timeline, before the reminder.
    await row(page, 'Sam Stop').getByRole('button', { name: 'Timeline of Sam Stop' }).click();
    await page.getByTestId('enrollment-timeline').getByRole('button', { name: 'Stop the sequence for Sam Stop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => page.getByTestId('enrollment-timeline').locator('[data-kind="exited"]').textContent(), SLOW).toContain('Exited');
    expect(await page.getByTestId('enrollment-timeline').getByTestId('enrollment-status').textContent()).toBe('ExitedStopped by staff');
    await checkPage(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, 'Sam Stop').getByTestId('enrollment-status').textContent(), SLOW).toBe('ExitedStopped by staff');

    // Statistics: both reached the first text and got it; one replied. The chart is hidden from assistive technology, the table says it.
    await page.getByRole('tab', { name: 'Statistics' }).click();
    const first = page.getByTestId('statistics-row').first();
    await expect.poll(async () => (await first.locator('td').allTextContents()).slice(0, 3), SLOW).toEqual(['1. SMS sms-1', '2', '2']);
    const exits = page.getByTestId('statistics-exits');
    expect(await exits.textContent()).toContain('Replied1');
    expect(await exits.textContent()).toContain('Stopped by staff1');
    await checkPage(page);

    // Paula is enrolled by name from the sequence's own dialog.
    await page.getByRole('tab', { name: 'Steps' }).click();
    await page.getByRole('button', { name: 'Enroll candidates' }).click();
    const enrollDialog = page.getByRole('dialog');
    await enrollDialog.getByLabel('Find candidates').fill('Paula');
    await enrollDialog.getByRole('checkbox', { name: /Paula Later/ }).check();
    await checkPage(page);
    await enrollDialog.getByRole('button', { name: 'Enroll 1 candidate' }).click();
    await expect.poll(() => enrollDialog.getByTestId('enroll-result').getByRole('status').textContent(), SLOW).toBe('1 candidate enrolled.');
    await enrollDialog.getByRole('button', { name: 'Done' }).click();

    // Editing the steps while Paula is in: a new version for new people, Paula finishes on hers.
    await page.getByRole('link', { name: 'Edit sequence' }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByLabel('Message (English)', { exact: true }).nth(1).fill('Still there, {firstName}? Just reply YES.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => page.getByTestId('save-notice').textContent(), SLOW)
      .toBe('Saved as version 2. People already enrolled finish on version 1; new enrollments use version 2.');
    await checkPage(page);

    // Her candidate page lists the sequence, where she is, and stops it.
    await page.goto(`/candidates/${paulaId}`);
    const card = page.getByTestId('candidate-sequence').filter({ hasText: 'Welcome texts' });
    await expect.poll(() => card.getByTestId('enrollment-status').textContent(), SLOW).toBe('Active');
    await checkPage(page);
    await card.getByRole('button', { name: 'Stop Welcome texts for Paula Later' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => card.getByTestId('enrollment-status').textContent(), SLOW).toBe('ExitedStopped by staff');
    await page.goto(`/candidates/${samId}`);
    await expect.poll(() => page.getByTestId('candidate-sequence').getByTestId('enrollment-status').textContent(), SLOW).toBe('ExitedStopped by staff');

    // Archive: it leaves the active list and is found under Archived.
    await page.goto(sequenceUrl);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make active again' }).isVisible(), SLOW).toBe(true);
    await page.goto('/admin/sequences');
    await expect.poll(() => page.getByText('No active sequences').isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByLabel('Show').selectOption('archived');
    await expect.poll(() => page.getByTestId('sequence-row').textContent(), { timeout: 20_000 }).toContain('Welcome texts');
    expect(await page.getByTestId('sequence-row').textContent()).toContain('Archived');
    await checkPage(page);
    void ritaId;
    await context.close();
  });
});
