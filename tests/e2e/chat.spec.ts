import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, pickFromCombobox, startApp, type RunningApp, importRecruitingTrial, signUpSite } from './support';

/** The chat's closing: the agent's default closing text, or the thanks that opens an outcome's next step. */
const CLOSING_THANKS = /^(Thank you for answering our questions\.|Thank you for your answers, Maria\.)/;

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const messages = (page: Page) => page.getByTestId('chat-log').getByTestId('chat-message');
const lastAgentText = async (page: Page) =>
  (await page.locator('[data-testid=chat-message][data-role=agent]').last().innerText()).replace(/^Assistant:\s*/, '');

/** Sends a message with Enter and waits for the agent's reply. */
async function say(page: Page, text: string) {
  const before = await messages(page).count();
  const box = page.getByLabel('Your message');
  await box.fill(text);
  await box.press('Enter');
  await expect.poll(() => messages(page).count()).toBeGreaterThan(before + 1);
}

/** An answer a person who fits the asthma study would give to the question. */
function answerFor(question: string): string {
  if (/born|birth/i.test(question)) return '03/15/1980';
  if (/BMI/i.test(question)) return '25';
  if (/eGFR/i.test(question)) return '90';
  if (/HbA1c/i.test(question)) return '5.5';
  if (/\bALT\b/i.test(question)) return '1';
  if (/pregnan|smok/i.test(question)) return 'no';
  return 'yes';
}

describe('the public prescreen chat', () => {
  it('staff create an agent; an anonymous visitor chats, verifies the phone, reloads midway and completes; staff read the transcript beside the result', async () => {
    const { context: staff, page } = await app.newPage();
    await signUpSite(page, { name: 'Chloe Chat', email: `chat.${unique()}@site.test`, site: 'Harbor Chat Research' });

    // A trial imported from ClinicalTrials.gov, and a published prescreen form generated from it.
    const trialId = await importRecruitingTrial(page);
    const generated = await page.request.post('/api/prescreen-forms/generate-study-blocks', { data: { trialId } });
    expect(generated.status()).toBe(200);
    const form = await page.request.post('/api/prescreen-forms/', {
      data: { trialId, name: 'Asthma chat form', blocks: (await generated.json()).blocks, status: 'published' },
    });
    expect(form.status(), await form.text()).toBe(201);
    // A second trial, with no prescreen form.
    expect((await page.request.post('/api/trials/', { data: { title: 'Migraine prevention study' } })).status()).toBe(201);

    // Chat agents: the empty state, then a new agent with phone verification on.
    await page.goto('/admin/chat-agents');
    await expect.poll(() => page.getByText('No chat agents yet').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(page);
    const publicLink = (await page.getByTestId('public-chat-link').textContent())!;
    const publicId = new URL(publicLink).pathname.split('/').pop()!;
    await page.getByRole('button', { name: 'New agent' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => dialog.getByText('Enter a name').isVisible()).toBe(true);
    await dialog.getByLabel('Name', { exact: true }).fill('Asthma assistant');
    // The trial field the chat and voice agent dialogs share: a prescreen form is a trial's, so none before one.
    const formSelect = dialog.getByLabel('Prescreen form');
    expect(await formSelect.isDisabled()).toBe(true);
    expect(await formSelect.locator('option').first().textContent()).toBe('Choose a trial first');
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'moderate asthma');
    await expect.poll(() => formSelect.locator('option', { hasText: 'Asthma chat form' }).count()).toBe(1);
    await formSelect.selectOption({ label: 'Asthma chat form (v1)' });
    // Another trial clears the chosen form (it was the first trial's); that trial has none to offer.
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'migraine');
    await expect.poll(() => formSelect.inputValue()).toBe('');
    await expect.poll(() => formSelect.locator('option').first().textContent()).toBe('No published forms');
    await pickFromCombobox(page, dialog.getByLabel('Trial', { exact: true }), 'moderate asthma');
    await expect.poll(() => formSelect.locator('option', { hasText: 'Asthma chat form' }).count()).toBe(1);
    await formSelect.selectOption({ label: 'Asthma chat form (v1)' });
    await dialog.getByLabel('Next step').selectOption('callback');
    expect(await dialog.getByLabel('Require phone verification').isChecked()).toBe(true);
    await checkPage(page);
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    const agentRow = page.getByRole('row', { name: /Asthma assistant/ });
    await expect.poll(() => agentRow.isVisible()).toBe(true);
    expect(await agentRow.getByText('Required').isVisible()).toBe(true);
    expect(await agentRow.getByText('English, Español').isVisible()).toBe(true);
    // Bound to the chosen trial: the row links to it.
    expect(await agentRow.getByRole('link', { name: /Moderate.*Asthma/ }).getAttribute('href')).toBe(`/trials/${trialId}`);
    // (after the toast's entry animation)
    await page.locator('[data-sonner-toast]').first().waitFor();
    await page.waitForTimeout(600);
    await checkPage(page);

    // Try it: a test conversation opens in a new tab, and its link is shown.
    const popup = staff.waitForEvent('page');
    await agentRow.getByRole('button', { name: 'Try Asthma assistant' }).click();
    const testTab = await popup;
    await expect.poll(() => page.getByRole('dialog', { name: 'Test chat started' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Test chat link').inputValue()).toMatch(new RegExp(`/chat/${publicId}\\?conversation-id=[0-9a-f-]{36}&token=`));
    await expect.poll(() => testTab.url()).toContain('conversation-id=');
    await testTab.close();
    await page.keyboard.press('Escape');

    // An anonymous visitor on a phone-sized screen.
    const visitor = await app.browser.newContext({ baseURL: app.baseUrl, viewport: { width: 390, height: 844 } });
    const chat = await visitor.newPage();
    await chat.goto(`/chat/${publicId}`);
    await expect.poll(() => chat.getByRole('heading', { level: 1 }).textContent()).toBe('Harbor Chat Research');
    await expect.poll(() => chat.getByText(/Hi! I can help you find out/).isVisible()).toBe(true);
    // Issue 32: a visit shows the greeting but starts nothing; the first message creates the conversation.
    expect(chat.url()).not.toContain('conversation-id');
    expect(await chat.getByRole('log').getAttribute('aria-live')).toBe('polite');
    await checkPage(chat);

    // The counter follows the text, and a message has at most 1000 characters.
    await chat.getByLabel('Your message').fill('Hello');
    expect(await chat.getByTestId('chat-counter').innerText()).toContain('5/1000');
    expect(await chat.getByLabel('Your message').getAttribute('maxlength')).toBe('1000');

    await say(chat, 'Maria');
    await expect.poll(() => lastAgentText(chat)).toMatch(/contact you by text message/);
    await chat.waitForURL(/conversation-id=[0-9a-f-]{36}&token=/);
    const conversationUrl = chat.url();
    await chat.getByRole('group', { name: 'Suggested answers' }).getByRole('button', { name: 'Yes' }).click();

    // Phone verification: a wrong code is refused clearly, the texted one is accepted.
    const phone = '+12125550188';
    await chat.getByLabel('Mobile phone number').fill(phone);
    await checkPage(chat);
    await chat.getByRole('button', { name: 'Text me a code' }).click();
    await expect.poll(() => chat.getByLabel('6-digit code').isVisible()).toBe(true);
    // Issue 32: on a default install (the SMS simulator) the page shows the text a real phone would receive,
    // labelled as a simulation, so the visitor can finish without any API; it is the text the outbox holds.
    const simulated = chat.getByTestId('simulated-text');
    await expect.poll(() => simulated.isVisible()).toBe(true);
    expect(await simulated.innerText()).toMatch(/^Simulated text message\s+This site sends no real texts yet/);
    const code = /\b(\d{6})\b/.exec(await simulated.innerText())?.[1];
    expect(code).toBeDefined();
    const outbox = await page.request.get('/api/sms/simulator/outbox');
    const sent = ((await outbox.json()).messages as Array<{ toPhone: string; body: string }>).find((message) => message.toPhone === phone);
    expect(sent?.body).toContain(code);
    await checkPage(chat);
    await chat.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await chat.getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() =>
        chat
          .getByRole('alert')
          .filter({ hasText: /does not match/ })
          .isVisible(),
      )
      .toBe(true);
    await chat.getByLabel('6-digit code').fill(code!);
    await chat.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => chat.getByText('Thank you, your number is confirmed.').isVisible()).toBe(true);
    expect(await chat.getByText(code!).count()).toBe(0);
    expect(await simulated.count()).toBe(0);

    // A few answers, then a reload resumes the same conversation.
    for (let i = 0; i < 3; i++) await say(chat, answerFor(await lastAgentText(chat)));
    const countBefore = await messages(chat).count();
    const questionBefore = await lastAgentText(chat);
    await chat.reload();
    await expect.poll(() => messages(chat).count()).toBe(countBefore);
    expect(chat.url()).toBe(conversationUrl);
    expect(await lastAgentText(chat)).toBe(questionBefore);

    // The rest of the questions, to the end.
    for (let i = 0; i < 15 && !(await chat.getByTestId('chat-complete').isVisible()); i++) {
      await say(chat, answerFor(await lastAgentText(chat)));
    }
    await expect.poll(() => chat.getByTestId('chat-complete').isVisible()).toBe(true);
    // One closing message by outcome (decision 200): the agent's own closing text where its promise holds, else thanks
    // and what happens next; never a promise of contact beside "not the right fit".
    expect(await chat.getByText(CLOSING_THANKS).first().isVisible()).toBe(true);
    const endText = await messages(chat).allInnerTexts();
    expect(
      endText.some((t) => /not be the right fit/.test(t)) && endText.some((t) => /contact you if the study could be a fit|will call you back/.test(t)),
    ).toBe(false);
    expect(await chat.getByLabel('Your message').count()).toBe(0);
    expect(await chat.getByRole('heading', { level: 1 }).count()).toBe(1);
    await checkPage(chat);
    await chat.screenshot({ path: '/tmp/chat-complete-390.png', fullPage: true });

    // The finished chat asks for a rating: 4 of 5 with a comment, by keyboard; then it thanks and stops asking.
    const rating = chat.getByTestId('chat-rating');
    expect(await rating.getByRole('radio', { name: /^4 of 5/ }).getAttribute('aria-checked')).toBe('false');
    await rating.getByRole('button', { name: 'Send rating' }).click();
    await expect.poll(() => rating.getByText('Choose a number from 1 to 5 first.').isVisible()).toBe(true);
    await rating.getByRole('radio', { name: /^4 of 5/ }).focus();
    await chat.keyboard.press('Enter');
    expect(await rating.getByRole('radio', { name: /^4 of 5/ }).getAttribute('aria-checked')).toBe('true');
    await rating.getByLabel('Anything we could do better? (optional)').fill('Clear questions');
    await rating.getByRole('button', { name: 'Send rating' }).click();
    await expect.poll(() => chat.getByText('Thank you for your feedback!').isVisible()).toBe(true);
    expect(await chat.getByTestId('chat-rating').count()).toBe(0);
    await chat.reload();
    await expect.poll(() => chat.getByText('Thank you for your feedback!').isVisible()).toBe(true);
    expect(await chat.getByTestId('chat-rating').count()).toBe(0);

    // A wrong token finds nothing; Start over begins a new conversation, which can switch to Spanish.
    await chat.goto(`/chat/${publicId}?conversation-id=${new URL(conversationUrl).searchParams.get('conversation-id')}&token=not-the-token`);
    await expect.poll(() => chat.getByRole('heading', { name: "This conversation can't be found" }).isVisible()).toBe(true);
    expect(await chat.getByText('Maria').count()).toBe(0);
    await checkPage(chat);
    await chat.getByRole('button', { name: 'Start over' }).click();
    await expect.poll(() => chat.getByText(/Hi! I can help you find out/).isVisible()).toBe(true);
    await chat.waitForURL((url) => !url.searchParams.has('token') && !url.searchParams.has('conversation-id'));
    // Before the first message, Español shows the greeting again in Spanish; the message then starts the chat in it.
    await chat.getByRole('button', { name: 'Español' }).click();
    await expect.poll(() => chat.getByLabel('Su mensaje').isVisible()).toBe(true);
    await chat.getByLabel('Su mensaje').fill('Ana');
    await chat.getByLabel('Su mensaje').press('Enter');
    await chat.waitForURL(/conversation-id=[0-9a-f-]{36}&token=/);
    await expect.poll(() => lastAgentText(chat)).toMatch(/equipo del estudio|mensaje de texto/);
    await visitor.close();

    // Staff: the conversations list, filtered to completed ones (the filter survives a reload).
    await page.goto('/admin/chat-conversations');
    await expect.poll(() => page.getByRole('row', { name: /Maria/ }).isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /Anonymous visitor/ }).count()).toBeGreaterThanOrEqual(1);
    await checkPage(page);
    await page.getByLabel('Status').selectOption('COMPLETED');
    await page.waitForURL(/status=COMPLETED/);
    await expect.poll(() => page.getByRole('row', { name: /Anonymous visitor/ }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole('row', { name: /Maria/ }).isVisible()).toBe(true);
    expect(await page.getByLabel('Status').inputValue()).toBe('COMPLETED');
    expect(await page.getByRole('row', { name: /Anonymous visitor/ }).count()).toBe(0);

    // The conversation: its transcript beside the prescreen result.
    await page.getByRole('row', { name: /Maria/ }).getByRole('link', { name: 'Maria' }).click();
    await page.waitForURL(/conversationId=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Conversation with Maria');
    expect(page.url()).toContain('status=COMPLETED');
    expect(await page.getByTestId('transcript').getByText(CLOSING_THANKS).first().isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('prescreen-result').innerText()).toMatch(/Pass|Potential|Inconclusive|Fail/);
    const review = page.getByRole('link', { name: 'Review prescreen result' });
    expect(await review.getAttribute('href')).toMatch(/\/prescreen\/results\?candidateId=[0-9a-f-]{36}/);
    await checkPage(page);
    await page.screenshot({ path: '/tmp/chat-conversation-detail.png', fullPage: true });

    // Back to the list keeps the filter; the review opens from the detail.
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'COMPLETED' && !url.searchParams.has('conversationId'));
    await page.getByRole('row', { name: /Maria/ }).getByRole('link', { name: 'Maria' }).click();
    await page.getByRole('link', { name: 'Review prescreen result' }).click();
    await page.waitForURL(/\/prescreen\/results\?candidateId=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Prescreen review: Maria');
    await staff.close();
  });
  it('a visitor answering fast, 26 messages in a row, never sees an error (issue 15)', async () => {
    const { page } = await app.newPage();
    await signUpSite(page, { name: 'Fay Fast', email: `fast.${unique()}@site.test`, site: 'Quick Tap Research' });
    const trialId = await importRecruitingTrial(page);
    const generated = await page.request.post('/api/prescreen-forms/generate-study-blocks', { data: { trialId } });
    const form = await page.request.post('/api/prescreen-forms/', {
      data: { trialId, name: 'Fast form', blocks: (await generated.json()).blocks, status: 'published' },
    });
    expect(form.status()).toBe(201);
    const agent = await page.request.post('/api/chat-agents/internal/', {
      data: {
        name: 'Fast assistant',
        type: 'PRESCREEN',
        trialId,
        prescreenFormId: (await form.json()).id,
        greeting: { en: 'Hello there.' },
        closingMessage: { en: 'Thanks.' },
        languages: ['en'],
        requirePhoneVerification: false,
        nextStep: 'none',
        active: true,
      },
    });
    expect(agent.status(), await agent.text()).toBe(201);
    await page.goto('/admin/chat-agents');
    const publicId = new URL((await page.getByTestId('public-chat-link').textContent())!).pathname.split('/').pop()!;

    const visitor = await app.browser.newContext({ baseURL: app.baseUrl });
    const chat = await visitor.newPage();
    await chat.goto(`/chat/${publicId}`);
    await expect.poll(() => chat.getByText('Hello there.').isVisible()).toBe(true);
    // Questions about the study are answered and the prompt repeated: 26 quick messages, more than the old 20 a minute.
    for (let i = 0; i < 26; i++) await say(chat, 'what is this study about?');
    expect(await chat.getByRole('alert').count()).toBe(0);
    expect(await chat.getByText(/Too many|wait a moment|try again/i).count()).toBe(0);
    expect(await chat.getByTestId('chat-log').getByText('what is this study about?').count()).toBe(26);
    await visitor.close();
  });
});
