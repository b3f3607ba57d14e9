import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, checkPage, confirmEmailLink, type RunningApp, signIn, startApp } from './support';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

describe('SMS with candidates', () => {
  it('a coordinator sends an SMS and sees the simulated reply, then a STOP blocks further messages', async () => {
    const { context, page } = await app.newPage();
    await page.goto('/sign-up');
    await page.getByLabel('Name', { exact: true }).fill('Sam Sender');
    await page.getByLabel('Email').fill(`sms.${unique()}@site.test`);
    await page.getByLabel('Password').fill('a-good-long-password');
    await page.getByLabel('Research site name').fill('Harbor Clinical Research');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmEmailLink(page);
    await page.waitForURL(/\/trials$/);

    // A candidate with a phone who consented to SMS, through the API with the page's session.
    const created = await page.request.post('/api/candidates/', {
      data: { firstName: 'Rita', lastName: 'Reply', phone: '+12125550166', consent: { sms: true } },
    });
    expect(created.status()).toBe(201);
    const candidateId = (await created.json()).id as string;

    // No conversations yet: the empty list offers a new message; staff reach the page from the sidebar.
    await page.goto('/admin/sms');
    await expect.poll(() => page.getByText('No text messages yet').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'SMS', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(page);

    // "New message" finds the candidate by name and opens the thread.
    await page.getByRole('button', { name: 'New message' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Candidate name').fill('Rita');
    await dialog.getByRole('button', { name: /Rita Reply/ }).click();
    await page.waitForURL(new RegExp(`candidateId=${candidateId}`));
    const log = page.getByRole('log', { name: 'Messages with Rita Reply' });
    await expect.poll(() => log.getByText('No messages yet').isVisible()).toBe(true);
    expect(await page.getByTestId('sms-consent').textContent()).toContain('Consented to SMS');

    // A free-text message: counted, sent, shown with its delivery status.
    await page.goto(`/admin/sms?candidateId=${candidateId}`);
    const message = page.getByLabel('Message', { exact: true });
    await message.fill('Hi Rita, this is Harbor Clinical Research about the asthma study. Is now a good time?');
    expect(await page.getByTestId('sms-count').textContent()).toContain('1 SMS segment');
    await checkPage(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const outbound = log.getByTestId('sms-message').filter({ hasText: 'Is now a good time?' });
    await expect.poll(() => outbound.isVisible()).toBe(true);
    expect(await outbound.getAttribute('data-direction')).toBe('outbound');
    await expect.poll(() => outbound.getByTestId('sms-status').textContent()).toMatch(/^(Delivered|Sent)$/);
    await expect.poll(() => message.inputValue()).toBe('');

    // The simulated reply lands in the thread, and the thread list shows it waiting for an answer.
    await page.getByLabel('Simulate a reply').fill("Yes I'm interested");
    await page.getByRole('button', { name: 'Send reply' }).click();
    const inbound = log.getByTestId('sms-message').filter({ hasText: "Yes I'm interested" });
    await expect.poll(() => inbound.isVisible()).toBe(true);
    expect(await inbound.getAttribute('data-direction')).toBe('inbound');
    const threadRow = page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /Rita Reply/ });
    await expect.poll(() => threadRow.textContent()).toContain('1 unanswered');
    await checkPage(page);

    // STOP: SMS is blocked, the composer is disabled with the reason, and the automatic answer is in the thread.
    await page.getByLabel('Simulate a reply').fill('STOP');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => page.getByTestId('sms-blocked-banner').isVisible()).toBe(true);
    expect(await page.getByTestId('sms-blocked-banner').textContent()).toContain('opted out');
    expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId('composer-disabled-reason').textContent()).toContain('opted out of text messages');
    await expect.poll(() => log.getByTestId('sms-message').filter({ hasText: 'STOP' }).count()).toBeGreaterThan(0);

    // The server refuses too: a direct send is a 409 with the reason.
    const refused = await page.request.post('/api/sms/send', { data: { candidateId, body: 'One more thing' } });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error.message).toContain('opted out');

    // A reload keeps the thread selected, with its messages and the block.
    await page.reload();
    await expect.poll(() => page.getByTestId('sms-blocked-banner').isVisible()).toBe(true);
    expect(await log.getByText("Yes I'm interested").isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2, name: 'Rita Reply' }).isVisible()).toBe(true);
    expect(
      await page
        .getByRole('list', { name: 'Conversations' })
        .getByRole('link', { name: /Rita Reply/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.waitForTimeout(400);
    await checkPage(page);

    // A marketing template to someone who never consented to SMS: the server's 409 reason shows inline.
    const quiet = await page.request.post('/api/candidates/', { data: { firstName: 'Max', lastName: 'Marketing', phone: '+12125550155' } });
    const quietId = (await quiet.json()).id as string;
    await page.goto(`/admin/sms?candidateId=${quietId}`);
    await expect.poll(() => page.getByTestId('sms-consent').textContent()).toContain('No SMS consent recorded');
    await page.getByRole('radio', { name: 'From a template' }).check();
    await page.getByLabel('Template', { exact: true }).selectOption('prescreen_invitation');
    await page.getByLabel('Trial', { exact: true }).fill('the asthma study');
    await expect
      .poll(() => page.getByTestId('sms-preview').textContent())
      .toContain('Hi Max, Harbor Clinical Research is looking for volunteers for the asthma study.');
    await checkPage(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByTestId('send-error').textContent()).toContain('not consented to marketing');
    const refusedMessage = page.getByRole('log', { name: 'Messages with Max Marketing' }).getByTestId('sms-message');
    await expect.poll(() => refusedMessage.getByTestId('sms-status').textContent()).toBe('Blocked');
    expect(await refusedMessage.textContent()).toContain('Not sent');

    // The candidate's page links to the thread.
    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole('link', { name: 'Text message' }).click();
    await page.waitForURL(new RegExp(`/admin/sms\\?candidateId=${candidateId}`));
    await expect.poll(() => page.getByTestId('sms-blocked-banner').isVisible()).toBe(true);

    await context.close();
  });
});

describe('texts no organization could be matched to (issue 35, decisions 118 and 119)', () => {
  it('an internal admin finds them in the admin navigation, the sender masked and the text shown only when asked', async () => {
    const { context, page } = await app.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL(/\/trials$/);
    const switcher = page.locator('#org-switcher');
    await switcher.waitFor();
    await switcher.selectOption({ label: 'Cohortly' });

    await page.getByRole('link', { name: 'Unmatched texts' }).click();
    await page.waitForURL(/\/admin\/unmatched-texts$/);
    await expect.poll(() => page.getByText('No unmatched texts').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Texts no organization could be matched to');

    // A text from a number no organization ever texted, to the shared sender no organization owns: kept, not guessed.
    const text = 'Hello, is this about the sleep study? My husband got a message';
    const sent = await page.request.post('/api/sms/simulator/inbound', { data: { from: '+12025550188', body: text } });
    expect(sent.status()).toBe(200);
    expect((await sent.json()).message.candidateId).toBeNull();
    await page.reload();

    const list = page.getByRole('list', { name: 'Texts no organization could be matched to' });
    const item = list.getByRole('listitem').first();
    await expect.poll(() => item.isVisible(), { timeout: 30_000 }).toBe(true);
    const shown = await item.textContent();
    expect(shown).toContain('just now');
    expect(shown).toContain('••• 0188');
    expect(shown).not.toContain('2025550188');
    expect(shown).not.toContain(text);
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    await checkPage(page);

    // The text (and the whole number) on demand, by keyboard.
    const toggle = item.getByRole('button', { name: 'Show the text' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item.getByText(text).isVisible()).toBe(true);
    expect(await item.textContent()).toContain('+12025550188');
    expect(await item.getByRole('button', { name: 'Hide the text' }).getAttribute('aria-expanded')).toBe('true');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await context.close();
  });
});
