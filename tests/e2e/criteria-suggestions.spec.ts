import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm } from '../support/fake-llm';
import { checkPage, signUpSite, startApp, type RunningApp } from './support';

// Issue 10: "Improve with suggestions" on /admin/trial-criteria, with the app pointed at a local fake of an
// OpenAI-compatible API (the model proposes a rule for every criterion it is asked about).
const KEY = 'e2e-llm-key';
let fake: Awaited<ReturnType<typeof startFakeLlm>>;
let app: RunningApp;
beforeAll(async () => {
  fake = await startFakeLlm({
    apiKey: KEY,
    reply: ({ criteria }) =>
      JSON.stringify({
        results: criteria.map((criterion) => ({
          index: criterion.index,
          rule: { type: 'site_judgement', reason: 'protocol' },
          quote: criterion.text.slice(0, 12),
        })),
      }),
  });
  app = await startApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: KEY, LLM_MODEL: 'fake-model-e2e' });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('criteria suggestions', () => {
  it('asks the model about unread criteria, then a coordinator accepts one and saves', async () => {
    const { context, page } = await app.newPage();
    await signUpSite(page, { name: 'Sam Suggest', email: `suggest.${Date.now().toString(36)}@site.test`, site: 'Suggestion Research Site' });
    const created = await page.request.post('/api/trials/', {
      data: {
        title: 'Device study',
        criteria: [
          { kind: 'inclusion', text: 'Aged 18 or older' },
          { kind: 'inclusion', text: 'Keeps a wristband that can sync with the study app' },
          { kind: 'exclusion', text: 'Has no working freezer at home' },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const trialId = ((await created.json()) as { id: string }).id;

    await page.goto(`/admin/trial-criteria?trialId=${trialId}`);
    const panel = page.getByRole('region', { name: 'Improve with suggestions' });
    // Typed by hand, nothing is read yet: reading the text again finds the age.
    await expect.poll(() => panel.getByText('3 criteria have no rule yet').isVisible(), { timeout: 20_000 }).toBe(true);
    await panel.getByRole('button', { name: 'Read the text again' }).click();
    await expect.poll(() => panel.getByText('1 criterion has a new rule to review').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => panel.getByText('2 criteria have no rule yet').isVisible()).toBe(true);

    await panel.getByRole('button', { name: 'Suggest rules for unread criteria' }).click();
    await expect.poll(() => panel.getByText('fake-model-e2e proposed 2 of 2 rules').isVisible(), { timeout: 20_000 }).toBe(true);
    const proposals = panel.getByRole('list', { name: 'Proposed rules' }).getByRole('listitem');
    expect(await proposals.count()).toBe(2);
    await checkPage(page);

    await panel.getByRole('button', { name: 'Accept the rule for Inclusion 2' }).click();
    await panel.getByRole('button', { name: 'Reject the rule for Exclusion 1' }).click();
    expect(await proposals.count()).toBe(0);
    await page.getByRole('button', { name: 'Save criteria' }).click();
    await expect.poll(() => page.getByText('All changes saved').isVisible(), { timeout: 20_000 }).toBe(true);

    const saved = (await (await page.request.get(`/api/trials/${trialId}`)).json()) as {
      criteria: Array<{ text: string; rule: { type: string } | null; ruleSource: string | null; needsReview: boolean }>;
    };
    expect(saved.criteria.find((criterion) => criterion.text.startsWith('Keeps'))).toMatchObject({
      ruleSource: 'llm',
      needsReview: false,
      rule: { type: 'site_judgement' },
    });
    expect(saved.criteria.find((criterion) => criterion.text.startsWith('Has no'))).toMatchObject({ rule: null });
    expect(fake.received.length).toBe(1);
    await context.close();
  });
});
