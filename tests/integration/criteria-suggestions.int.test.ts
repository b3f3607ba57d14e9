import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvent, auditLog } from '../../src/server/db/schema';
import { startFakeLlm } from '../support/fake-llm';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Issue 10: the optional language-model reader. Off by default (409); with LLM_BASE_URL/LLM_MODEL it proposes
 * rules for the criteria the text reader left unread, through a local fake of an OpenAI-compatible API. Every
 * proposal is validated against the rule schema and stored as 'llm' + needs review until a person accepts it.
 */

const KEY = 'llm-test-key-0123';
let mode: 'good' | 'error' | 'garbage' | 'slow' = 'good';
const fake = await startFakeLlm({
  apiKey: KEY,
  reply: ({ criteria }) => {
    if (mode === 'error') return 500;
    if (mode === 'garbage') return 'I think the patient should be fine.';
    const results = criteria.map((criterion) => {
      if (/wristband/i.test(criterion.text))
        return { index: criterion.index, rule: { type: 'site_judgement', reason: 'protocol_compliance' }, quote: 'wristband that can sync with the study app' };
      if (/freezer/i.test(criterion.text)) return { index: criterion.index, rule: { type: 'appliance', owns: 'freezer' }, quote: 'freezer' };
      return { index: criterion.index, rule: null };
    });
    const content = JSON.stringify({ results });
    return mode === 'slow' ? { delayMs: 3000, content } : content;
  },
});

let off: TestApp;
let t: TestApp;
let site: SignedUp;

beforeAll(async () => {
  off = await createTestApp();
  t = await createTestApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: KEY, LLM_MODEL: 'fake-model-1', LLM_TIMEOUT_MS: '1500' });
  site = await t.signUp({ organizationName: 'Suggestion Research Site' });
});
afterAll(async () => {
  await t?.close();
  await off?.close();
  await fake.close();
});

async function newTrial() {
  const created = await site.actor.post('/api/trials/', {
    title: 'Tablet study',
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 or older' },
      { kind: 'inclusion', text: 'Keeps a wristband that can sync with the study app' },
      { kind: 'exclusion', text: 'Has no working freezer at home for the study drug' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // Criteria typed by hand are read by the text reader on request.
  const read = await site.actor.post(`/api/trials/${created.body.id}/reparse`, {});
  expect(read.body.trial.criteria[0].rule).toMatchObject({ type: 'age', minYears: 18 });
  return read.body.trial as { id: string; criteria: Array<{ id: string; text: string; rule: unknown; ruleSource: string | null; needsReview: boolean }> };
}

describe('rule suggestions from a language model', () => {
  it('is off by default: 409 LLM_NOT_CONFIGURED, nothing changes', async () => {
    const other = await off.signUp({ organizationName: 'No Model Site' });
    const trial = (
      await other.actor.post('/api/trials/', { title: 'T', criteria: [{ kind: 'inclusion', text: 'Keeps a wristband that can sync with the study app' }] })
    ).body;
    const answer = await other.actor.post(`/api/trials/${trial.id}/suggestions`, {});
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'LLM_NOT_CONFIGURED', message: expect.stringContaining('ask an administrator') });
    expect(answer.body.error.message).not.toMatch(/LLM_/);
    expect((await other.actor.get(`/api/trials/${trial.id}`)).body.criteria[0]).toMatchObject({ rule: null });
  });

  it('stores a valid proposal as needing review, drops one the rule schema refuses, and sends only the criteria', async () => {
    mode = 'good';
    const trial = await newTrial();
    const before = fake.received.length;
    const answer = await site.actor.post(`/api/trials/${trial.id}/suggestions`, {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ model: 'fake-model-1', asked: 2 });
    expect(answer.body.suggested).toEqual([
      {
        criterionId: trial.criteria[1].id,
        text: 'Keeps a wristband that can sync with the study app',
        rule: { type: 'site_judgement', reason: 'protocol_compliance', span: { start: 8, end: 50 } },
      },
    ]);
    expect(answer.body.unread).toEqual([
      { criterionId: trial.criteria[2].id, text: trial.criteria[2].text, reason: expect.stringContaining('refused by the rule schema') },
    ]);
    const stored = answer.body.trial.criteria.find((criterion: { id: string }) => criterion.id === trial.criteria[1].id);
    expect(stored).toMatchObject({ ruleSource: 'llm', needsReview: true });

    // One request: the model, the key, and the two unread criteria's text (the age was read by the rules).
    expect(fake.received.length).toBe(before + 1);
    const sent = fake.received.at(-1)!;
    expect(sent.body.model).toBe('fake-model-1');
    expect(JSON.parse(sent.body.messages[1].content).criteria.map((item: { text: string }) => item.text)).toEqual([
      'Keeps a wristband that can sync with the study app',
      'Has no working freezer at home for the study drug',
    ]);
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, trial.id));
    expect(audit.map((row) => row.action)).toContain('trial.suggest_rules');
    // The model's tokens are spend on the costs dashboard: 1,000 tokens at the default $0.002 per 1,000.
    const spend = await t.deps.db
      .select()
      .from(activityEvent)
      .where(and(eq(activityEvent.trialId, trial.id), eq(activityEvent.kind, 'spend')));
    expect(spend).toEqual([expect.objectContaining({ source: 'manual', label: 'llm_tokens', value: 0.002 })]);

    // A person accepts it in the editor (clears Needs review): the rule stays, marked as the model's.
    const accepted = await site.actor.patch(`/api/trials/${trial.id}`, {
      criteria: answer.body.trial.criteria.map((criterion: { id: string; kind: string; text: string }) => ({
        id: criterion.id,
        kind: criterion.kind,
        text: criterion.text,
        ...(criterion.id === stored.id ? { needsReview: false } : {}),
      })),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.criteria.find((criterion: { id: string }) => criterion.id === stored.id)).toMatchObject({
      ruleSource: 'llm',
      needsReview: false,
      rule: { type: 'site_judgement' },
    });
    // Re-reading the text keeps the model's rule (the text reader still cannot read it); asking again asks only the rest.
    const reparsed = await site.actor.post(`/api/trials/${trial.id}/reparse`, {});
    expect(reparsed.body.trial.criteria.find((criterion: { id: string }) => criterion.id === stored.id)).toMatchObject({
      ruleSource: 'llm',
      rule: { type: 'site_judgement' },
    });
    const again = await site.actor.post(`/api/trials/${trial.id}/suggestions`, {});
    expect(again.body.asked).toBe(1);
  });

  it('a failing, nonsensical or slow model is a 502 with the reason, and nothing is stored', async () => {
    const trial = await newTrial();
    for (const [failure, reason] of [
      ['error', 'HTTP 500'],
      ['garbage', 'expected JSON shape'],
      ['slow', 'did not answer in time'],
    ] as const) {
      mode = failure;
      const answer = await site.actor.post(`/api/trials/${trial.id}/suggestions`, {});
      expect(answer.status, failure).toBe(502);
      expect(answer.body.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringContaining(reason) });
    }
    mode = 'good';
    const after = (await site.actor.get(`/api/trials/${trial.id}`)).body.criteria;
    expect(after.filter((criterion: { ruleSource: string | null }) => criterion.ruleSource === 'llm')).toEqual([]);
  });

  it('another organization gets 404', async () => {
    const trial = await newTrial();
    const other = await t.signUp({ organizationName: 'Other Site' });
    expect((await other.actor.post(`/api/trials/${trial.id}/suggestions`, {})).status).toBe(404);
  });
});
