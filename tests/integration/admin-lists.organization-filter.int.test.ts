import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * The prescreen form and chat agent lists honour the organization filter (`orgs`) as the other admin lists do: a
 * global admin's default selection leaves a demo organization out, choosing it shows its forms and agents, and an
 * organization the caller may not act for is dropped, never put in place of the caller's own.
 */

let t: TestApp;
let admin: Actor;
let demo: SignedUp;
let other: SignedUp;
let formId: string;
let agentId: string;

const idsOf = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
const formIdsSeen = async (actor: Actor, query = '') => {
  const answer = await actor.get(`/api/prescreen-forms/${query}`);
  expect(answer.status).toBe(200);
  return idsOf(answer.body.prescreenForms);
};
const agentIdsSeen = async (actor: Actor, query = '') => {
  const answer = await actor.get(`/api/chat-agents/internal/${query}`);
  expect(answer.status).toBe(200);
  return idsOf(answer.body.chatAgents);
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  demo = await t.signUp({ organizationName: 'Harborview Demo Research' });
  other = await t.signUp({ organizationName: 'Northgate Clinical Site' });
  const trial = await createRecruitingTrial(demo.actor, {
    title: 'A study of a night-time cough syrup in adults with chronic cough',
    criteria: [{ kind: 'exclusion', text: 'Current smoker' }],
  });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  const question = { id: 'smoking', type: 'yes_no', wording: { phone: { en: 'Do you smoke now?' }, chat: { en: 'Do you smoke now?' } } };
  const blocks = [
    {
      id: 'habits',
      title: { en: 'Habits' },
      questions: [{ ...question, criterionLinks: [{ criterionId: trial.body.criteria[0].id, when: { op: 'is_yes' }, then: 'met' }] }],
    },
  ];
  const form = await demo.actor.post('/api/prescreen-forms/', { trialId: trial.body.id, name: 'Cough study form', blocks, status: 'published' });
  expect(form.status, JSON.stringify(form.body)).toBe(201);
  formId = form.body.id;
  const agent = await demo.actor.post('/api/chat-agents/internal/', {
    name: 'Cough study helper',
    type: 'PRESCREEN',
    trialId: trial.body.id,
    prescreenFormId: formId,
    greeting: { en: 'Hello.' },
    closingMessage: { en: 'Thank you.' },
    languages: ['en'],
    requirePhoneVerification: false,
    nextStep: 'none',
    active: true,
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});
afterAll(() => t?.close());

describe('the organization filter on the prescreen form and chat agent lists', () => {
  it('a global admin: the default selection leaves the demo organization out; choosing it shows its form and agent', async () => {
    admin.activeOrganizationId = t.internalOrganizationId;
    expect(await formIdsSeen(admin)).not.toContain(formId);
    expect(await agentIdsSeen(admin)).not.toContain(agentId);
    expect(await formIdsSeen(admin, `?orgs=${demo.organizationId}`)).toEqual([formId]);
    expect(await agentIdsSeen(admin, `?orgs=${demo.organizationId}`)).toEqual([agentId]);
    // Several organizations in view, as the other list pages send them.
    expect(await formIdsSeen(admin, `?orgs=${demo.organizationId},${other.organizationId}`)).toEqual([formId]);
    expect(await agentIdsSeen(admin, `?orgs=${other.organizationId}&orgs=${demo.organizationId}`)).toEqual([agentId]);
  });

  it('an organization out of reach is dropped, not put in place of the caller’s own', async () => {
    admin.activeOrganizationId = other.organizationId;
    expect(await formIdsSeen(admin, `?orgs=${demo.organizationId}`)).toEqual([]);
    expect(await agentIdsSeen(admin, `?orgs=${demo.organizationId}`)).toEqual([]);
    expect(await formIdsSeen(other.actor, `?orgs=${demo.organizationId}`)).toEqual([]);
    expect(await agentIdsSeen(other.actor, `?orgs=${demo.organizationId}`)).toEqual([]);
    // The demo organization's own staff still see their form and agent, with or without the filter.
    expect(await formIdsSeen(demo.actor)).toEqual([formId]);
    expect(await agentIdsSeen(demo.actor, `?orgs=${demo.organizationId}`)).toEqual([agentId]);
  });
});
