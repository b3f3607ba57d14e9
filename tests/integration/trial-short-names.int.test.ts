import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOrganization } from '../../src/server/features/demo/seed';
import { DEMO_TRIALS } from '../../src/server/features/demo/seed-data';
import { createTestApp, type Actor, type TestApp } from '../support/test-app';

/**
 * Issue 32 (item 9): lists and lines name a trial by its brief title, not its long official title (kept for the
 * trial's own page). The demo trials have both, the brief one shorter.
 */

let t: TestApp;
let admin: Actor;
let orgs: string;
const official = new Set(DEMO_TRIALS.map((trial) => trial.title));
const brief = new Set(DEMO_TRIALS.map((trial) => trial.publicTitle));

beforeAll(async () => {
  t = await createTestApp();
  orgs = `orgs=${(await seedDemoOrganization(t.deps.db, { candidates: 60 })).organizationId}`;
  admin = await t.signInAdmin();
}, 60_000);
afterAll(() => t?.close());

describe('a trial is named briefly in lists', () => {
  it('prescreen forms, chat agents and prescreen results give the brief title; results keep the official one beside it', async () => {
    const forms = await admin.get(`/api/prescreen-forms/?${orgs}`);
    expect(forms.status, JSON.stringify(forms.body)).toBe(200);
    expect(forms.body.prescreenForms.length).toBeGreaterThan(0);
    for (const form of forms.body.prescreenForms) expect(brief.has(form.trialTitle), form.trialTitle).toBe(true);

    const agents = await admin.get(`/api/chat-agents/internal/?${orgs}`);
    expect(agents.status, JSON.stringify(agents.body)).toBe(200);
    expect(agents.body.chatAgents.length).toBeGreaterThan(0);
    for (const agent of agents.body.chatAgents) expect(brief.has(agent.trialTitle), agent.trialTitle).toBe(true);

    const results = await admin.get(`/api/prescreen/results?${orgs}`);
    expect(results.status, JSON.stringify(results.body)).toBe(200);
    expect(results.body.results.length).toBeGreaterThan(0);
    for (const result of results.body.results) {
      expect(brief.has(result.trial.shortTitle), result.trial.shortTitle).toBe(true);
      expect(official.has(result.trial.title), result.trial.title).toBe(true);
    }
  });
});
