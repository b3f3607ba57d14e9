import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, organization } from '../../src/server/db/schema';
import { badRequestsFor, NIL_LIKE_UUID, type OpenApiDocument } from '../support/bad-input';
import { BASE_URL, createTestApp, uniqueEmail, type Actor, type TestApp } from '../support/test-app';

/**
 * Onboarding a customer organization (decision 027): an internal admin with the Cohortly organization active
 * creates the organization, invites its owner, adds its sites, imports its first trial, creates its agents and
 * ends on the checklist; a half-finished onboarding is listed and continues where it was left.
 */

const asthmaStudy = JSON.parse(readFileSync('tests/fixtures/ctgov/asthma-study.json', 'utf8'));
const LAKESIDE = {
  name: 'Lakeside Clinical Research',
  address: '100 N Lake Shore Dr',
  city: 'Chicago',
  region: 'Illinois',
  postalCode: '60601',
  country: 'United States',
  timeZone: 'America/Chicago',
};
const DENVER = {
  name: 'Front Range Clinic',
  address: '1600 Glenarm Pl',
  city: 'Denver',
  region: 'Colorado',
  country: 'United States',
  timeZone: 'America/Denver',
};

let t: TestApp;
let admin: Actor;
let id: string;
let organizationId: string;
let ownerEmail: string;

const stepStatus = (body: { steps: Array<{ step: string; status: string }> }) => Object.fromEntries(body.steps.map((item) => [item.step, item.status]));

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
});
afterAll(() => t?.close());

describe('an onboarding, step by step', () => {
  it('starts by creating the organization, and is listed as open', async () => {
    const started = await admin.post('/api/onboarding/', { name: 'Riverbend Research' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    id = started.body.id;
    organizationId = started.body.organizationId;
    expect(started.body).toMatchObject({
      organizationName: 'Riverbend Research',
      organizationSlug: 'riverbend-research',
      currentStep: 'owner',
      owner: null,
      sites: [],
      trial: null,
      completedAt: null,
    });
    expect(stepStatus(started.body)).toEqual({
      organization: 'done',
      owner: 'pending',
      sites: 'pending',
      trial: 'pending',
      agents: 'pending',
      sequence: 'pending',
      checklist: 'pending',
    });
    const [org] = await t.deps.db.select().from(organization).where(eq(organization.id, organizationId));
    expect(org.name).toBe('Riverbend Research');

    const list = await admin.get('/api/onboarding/');
    expect(list.status).toBe(200);
    expect(list.body.onboardings).toEqual([
      expect.objectContaining({ id, organizationName: 'Riverbend Research', currentStep: 'owner', completedAt: null, startedByName: expect.any(String) }),
    ]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.organizationId, organizationId));
    expect(audits.map((row) => row.action).sort()).toEqual(['onboarding.start', 'organization.create']);
  });

  it('refuses a taken slug without creating anything', async () => {
    const before = (await admin.get('/api/onboarding/?status=all')).body.total;
    const taken = await admin.post('/api/onboarding/', { name: 'Another Riverbend', slug: 'riverbend-research' });
    expect(taken.status).toBe(409);
    expect((await admin.get('/api/onboarding/?status=all')).body.total).toBe(before);
  });

  it('invites the first owner by email through the mail port', async () => {
    ownerEmail = uniqueEmail('owner');
    const invalid = await admin.post(`/api/onboarding/${id}/owner`, { email: 'not an email' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details[0].path).toBe('email');

    const invited = await admin.post(`/api/onboarding/${id}/owner`, { email: ownerEmail.toUpperCase() });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(invited.body.owner).toMatchObject({ email: ownerEmail, status: 'invited' });
    expect(stepStatus(invited.body).owner).toBe('done');
    const mail = (await t.outbox()).find((message) => message.toAddress === ownerEmail);
    expect(mail?.subject).toBe('You are invited to Riverbend Research on Cohortly');
    expect(mail?.textBody).toContain('/sign-up?invitation=');
    // Issue 32: the same link comes back once, for "Copy invitation link" when no mail server delivers it.
    expect(invited.body.ownerInvitationUrl).toMatch(/\/sign-up\?invitation=/);
    expect(mail?.textBody).toContain(invited.body.ownerInvitationUrl);
    const readBack = await admin.get(`/api/onboarding/${id}`);
    expect(readBack.body).not.toHaveProperty('ownerInvitationUrl');
  });

  it('invites again: the earlier open invitation is revoked, one stays', async () => {
    const again = await admin.post(`/api/onboarding/${id}/owner`, { email: ownerEmail });
    expect(again.status).toBe(200);
    const users = await admin.get(`/api/users/?organizationIds=${organizationId}`);
    expect(users.body.invitations).toEqual([
      expect.objectContaining({ email: ownerEmail, role: 'owner', status: 'pending', id: again.body.owner.invitationId }),
    ]);
  });

  it('resumes after a reload: a new session finds the step the admin moved to, and what was done', async () => {
    const moved = await admin.patch(`/api/onboarding/${id}`, { currentStep: 'sites' });
    expect(moved.status).toBe(200);
    const reloaded = await t.signInAdmin();
    const resumed = await reloaded.get(`/api/onboarding/${id}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.currentStep).toBe('sites');
    expect(resumed.body.owner).toMatchObject({ email: ownerEmail, status: 'invited' });
    expect(stepStatus(resumed.body)).toMatchObject({ organization: 'done', owner: 'done', sites: 'pending' });
    const list = await reloaded.get('/api/onboarding/');
    expect(list.body.onboardings.find((row: { id: string }) => row.id === id)).toMatchObject({ currentStep: 'sites' });
    expect((await admin.patch(`/api/onboarding/${id}`, { currentStep: 'nowhere' })).status).toBe(400);
  });

  it('keeps the sites with their time zones, refusing an unknown zone', async () => {
    const badZone = await admin.put(`/api/onboarding/${id}/sites`, { sites: [{ ...LAKESIDE, timeZone: 'Mars/Olympus_Mons' }] });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['sites.0.timeZone']);
    expect((await admin.put(`/api/onboarding/${id}/sites`, { sites: [] })).status).toBe(400);

    const saved = await admin.put(`/api/onboarding/${id}/sites`, { sites: [LAKESIDE, DENVER] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.sites).toEqual([
      { id: expect.any(String), ...LAKESIDE },
      { id: expect.any(String), ...DENVER },
    ]);
    expect(stepStatus(saved.body).sites).toBe('done');

    // Saving the list again with ids keeps the sites (and their ids); a site left out goes.
    const [lakeside] = saved.body.sites;
    const edited = await admin.put(`/api/onboarding/${id}/sites`, { sites: [{ ...lakeside, address: '101 N Lake Shore Dr' }, DENVER] });
    expect(edited.body.sites[0]).toMatchObject({ id: lakeside.id, address: '101 N Lake Shore Dr' });
    expect(edited.body.sites[1].id).not.toBe(saved.body.sites[1].id);
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'organization.sites.replace'));
    expect(audit.at(-1)?.changes).toEqual({ added: 1, updated: 1, removed: 1, timeZones: ['America/Chicago', 'America/Denver'] });
  });

  it('imports the first trial from a ClinicalTrials.gov record, marks our sites on it and starts recruiting', async () => {
    const notARecord = await admin.post(`/api/onboarding/${id}/trial`, { study: { protocolSection: {} } });
    expect(notARecord.status).toBe(400);
    expect(notARecord.body.error.message).toContain('study.protocolSection.identificationModule');

    const imported = await admin.post(`/api/onboarding/${id}/trial`, { study: asthmaStudy, startRecruiting: true });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.trial).toMatchObject({ nctId: 'NCT09900001', status: 'recruiting', siteCount: 3, ownSiteCount: 2 });
    expect(imported.body.trial.criteriaCount).toBeGreaterThan(3);
    expect(stepStatus(imported.body).trial).toBe('done');

    // The record's Lakeside site is ours, in the organization's zone; Denver is added; Halifax is not ours.
    const trial = (await admin.get(`/api/trials/${imported.body.trial.id}`)).body;
    expect(trial.organizationId).toBe(organizationId);
    const byName = Object.fromEntries(trial.sites.map((site: { name: string }) => [site.name, site]));
    expect(byName['Lakeside Clinical Research']).toMatchObject({ isOwnSite: true, timeZone: 'America/Chicago', address: '101 N Lake Shore Dr' });
    expect(byName['Front Range Clinic']).toMatchObject({ isOwnSite: true, timeZone: 'America/Denver', city: 'Denver' });
    expect(byName['Harbour Lung Centre']).toMatchObject({ isOwnSite: false });

    const second = await admin.post(`/api/onboarding/${id}/trial`, { study: asthmaStudy });
    expect(second.status).toBe(409);
    expect((await admin.get(`/api/trials/?organizationIds=${organizationId}`)).body.total).toBe(1);
  });

  it('creates a published prescreen form and the default chat and voice agents, once', async () => {
    const created = await admin.post(`/api/onboarding/${id}/agents`, {});
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.prescreenForm).toMatchObject({ status: 'published', name: expect.stringContaining('Moderate Asthma') });
    expect(created.body.prescreenForm.questionCount).toBeGreaterThan(0);
    expect(created.body.chatAgent).toMatchObject({ name: 'Prescreen chat', active: true });
    expect(created.body.voiceAgent).toMatchObject({ name: 'Prescreen caller', active: true });
    expect(stepStatus(created.body).agents).toBe('done');

    const chat = (await admin.get(`/api/chat-agents/internal/${created.body.chatAgent.id}`)).body;
    expect(chat).toMatchObject({ organizationId, trialId: created.body.trial.id, prescreenFormId: created.body.prescreenForm.id, languages: ['en', 'es'] });
    expect(chat.greeting.es).toBeTruthy();
    const voice = (await admin.get(`/api/voice-agents/${created.body.voiceAgent.id}`)).body;
    expect(voice).toMatchObject({ organizationId, type: 'PRESCREEN', prescreenFormId: created.body.prescreenForm.id });

    const again = await admin.post(`/api/onboarding/${id}/agents`, {});
    expect(again.body.chatAgent.id).toBe(created.body.chatAgent.id);
    expect(again.body.voiceAgent.id).toBe(created.body.voiceAgent.id);
    expect((await admin.get(`/api/chat-agents/internal?organizationId=${organizationId}`)).body.total).toBe(1);
    expect((await admin.get(`/api/prescreen-forms/?organizationIds=${organizationId}`)).body.total).toBe(1);
  });

  it('creates the starter sequence from a template, in English and Spanish, once', async () => {
    expect((await admin.post(`/api/onboarding/${id}/sequence`, { template: 'nope' })).status).toBe(400);
    const created = await admin.post(`/api/onboarding/${id}/sequence`, { template: 'invite-follow-up' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.sequence).toMatchObject({ name: 'Invite and follow up', status: 'active' });
    expect(stepStatus(created.body).sequence).toBe('done');
    const sequence = (await admin.get(`/api/sequences/${created.body.sequence.id}`)).body;
    expect(sequence).toMatchObject({ organizationId, trialId: created.body.trial.id, triggers: [], status: 'active' });
    expect(sequence.steps.map((step: { type: string }) => step.type)).toEqual(['sms', 'wait', 'branch', 'sms', 'wait', 'call']);
    expect(sequence.steps[1]).toMatchObject({ amount: 2, unit: 'days' });
    expect(sequence.steps[2]).toMatchObject({ condition: 'replied', ifTrue: 'end', ifFalse: 'next' });
    for (const step of sequence.steps.filter((item: { type: string }) => item.type === 'sms')) {
      for (const text of [step.message.en, step.message.es]) {
        expect(text).toContain('{firstName}');
        expect(text).toContain('{trialTitle}');
        expect(text).toContain('{organizationName}');
      }
    }
    expect((await admin.post(`/api/onboarding/${id}/sequence`, { template: 'call-first' })).status).toBe(409);
    expect((await admin.get(`/api/sequences/?organizationId=${organizationId}`)).body.total).toBe(1);
  });

  it('the checklist says what is done and what is missing, with where to fix it', async () => {
    expect((await admin.patch(`/api/onboarding/${id}`, { currentStep: 'checklist' })).body.currentStep).toBe('checklist');
    const answer = await admin.get(`/api/onboarding/${id}/checklist`);
    expect(answer.status).toBe(200);
    const items = Object.fromEntries(answer.body.items.map((item: { key: string }) => [item.key, item]));
    expect(items.owner).toMatchObject({ state: 'attention', detail: expect.stringContaining(ownerEmail), fix: { target: 'step', step: 'owner' } });
    expect(items.sites).toMatchObject({ state: 'done', detail: '2 sites, in America/Chicago, America/Denver.' });
    expect(items.trial).toMatchObject({ state: 'done' });
    expect(items.recruiting).toMatchObject({ state: 'done' });
    expect(items.prescreen_form).toMatchObject({ state: 'done' });
    expect(items.chat_agent).toMatchObject({ state: 'done' });
    expect(items.voice_agent).toMatchObject({ state: 'done' });
    expect(items.sequence).toMatchObject({ state: 'done', detail: expect.stringContaining('Invite and follow up') });
    expect(items.sms).toMatchObject({ state: 'attention', detail: expect.stringContaining('SMS simulator in use'), fix: { target: 'phone-numbers' } });
    expect(items.voice).toMatchObject({ state: 'attention', detail: expect.stringContaining('Voice simulator in use') });
    expect(answer.body.doneCount).toBe(7);
    expect(answer.body.total).toBe(10);
  });

  it('follows what happens elsewhere: the owner signing up, an agent switched off, a number assigned', async () => {
    const invitationId = (await admin.get(`/api/onboarding/${id}`)).body.owner.invitationId;
    const mail = (await t.outbox()).filter((message) => message.toAddress === ownerEmail).at(-1)!;
    const token = /invitation=([^\s]+)/.exec(mail.textBody)![1];
    const owner = t.actor();
    expect(
      (
        await owner.post('/api/auth/sign-up/email', {
          name: 'River Owner',
          email: ownerEmail,
          password: 'long-enough-pass',
          invitationToken: decodeURIComponent(token),
        })
      ).status,
    ).toBe(200);
    expect(invitationId).toBeTruthy();

    const state = (await admin.get(`/api/onboarding/${id}`)).body;
    expect(state.owner).toEqual({ email: ownerEmail, status: 'member', invitationId: null });
    expect((await admin.patch(`/api/chat-agents/internal/${state.chatAgent.id}`, { active: false })).status).toBe(200);
    expect((await admin.post('/api/phone-numbers/', { number: '+12125550188', organizationId, purpose: 'both' })).status).toBe(201);

    const items = Object.fromEntries((await admin.get(`/api/onboarding/${id}/checklist`)).body.items.map((item: { key: string }) => [item.key, item]));
    expect(items.owner).toMatchObject({ state: 'done', fix: null });
    expect(items.chat_agent).toMatchObject({ state: 'missing', detail: 'Prescreen chat is inactive.', fix: { target: 'chat-agents' } });
    expect(items.sms).toMatchObject({ state: 'attention', fix: null });

    // An archived sequence is not a starter sequence any more: the step can make another.
    expect((await admin.delete(`/api/sequences/${state.sequence.id}`)).status).toBe(200);
    const archived = (await admin.get(`/api/onboarding/${id}`)).body;
    expect(archived.sequence).toMatchObject({ status: 'archived' });
    expect(stepStatus(archived).sequence).toBe('skipped');
    const another = await admin.post(`/api/onboarding/${id}/sequence`, { template: 'call-first' });
    expect(another.body.sequence).toMatchObject({ name: 'Call first', status: 'active' });

    // The owner works in their organization, but onboarding is Cohortly's: 403, and nothing listed.
    expect((await owner.get(`/api/onboarding/${id}`)).status).toBe(403);
    expect((await owner.get('/api/onboarding/')).status).toBe(403);
    expect((await owner.post(`/api/onboarding/${id}/complete`)).status).toBe(403);
  });

  it('a deleted trial makes its step not done again; the step can be done anew', async () => {
    const state = (await admin.get(`/api/onboarding/${id}`)).body;
    expect((await admin.delete(`/api/trials/${state.trial.id}`)).status).toBe(204);
    const after = (await admin.get(`/api/onboarding/${id}`)).body;
    expect(after.trial).toBeNull();
    expect(stepStatus(after).trial).toBe('skipped');
    expect((await admin.post(`/api/onboarding/${id}/agents`, {})).status).toBe(409);
    const reimported = await admin.post(`/api/onboarding/${id}/trial`, { study: asthmaStudy });
    expect(reimported.status).toBe(200);
    expect(reimported.body.trial).toMatchObject({ status: 'draft', ownSiteCount: 2 });
  });

  it('completing it moves it from the open list to the completed one', async () => {
    const completed = await admin.post(`/api/onboarding/${id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ currentStep: 'checklist', completedAt: expect.any(String) });
    expect(stepStatus(completed.body).checklist).toBe('done');
    expect((await admin.get('/api/onboarding/')).body.onboardings.map((row: { id: string }) => row.id)).not.toContain(id);
    expect((await admin.get('/api/onboarding/?status=completed')).body.onboardings.map((row: { id: string }) => row.id)).toContain(id);
  });
});

describe('who may onboard', () => {
  it('only internal admins with the Cohortly organization active', async () => {
    const site = await t.signUp({ organizationName: 'Plain Site Research' });
    expect((await site.actor.get('/api/onboarding/')).status).toBe(403);
    expect((await site.actor.post('/api/onboarding/', { name: 'Made by a site' })).status).toBe(403);

    const adminElsewhere = await t.signInAdmin();
    adminElsewhere.activeOrganizationId = organizationId;
    expect((await adminElsewhere.get('/api/onboarding/')).status).toBe(403);
    expect((await adminElsewhere.post('/api/onboarding/', { name: 'Made from Riverbend' })).status).toBe(403);
    // Its own onboarding is within reach of an admin with Riverbend active, but onboarding needs the global scope.
    const own = await adminElsewhere.get(`/api/onboarding/${id}`);
    expect(own.status).toBe(403);
    expect(own.body.error.message).toContain('Switch to the Cohortly organization');
  });

  it('malformed and unknown ids are 404 without reaching the database', async () => {
    for (const bad of ['not-a-uuid', '123', '7d0b4a57-1f1e-4c43-9a59-5d6c0a7e2b11']) {
      expect((await admin.get(`/api/onboarding/${bad}`)).status).toBe(404);
      expect((await admin.put(`/api/onboarding/${bad}/sites`, { sites: [LAKESIDE] })).status).toBe(404);
    }
  });
});

describe('bad input, as an internal admin', () => {
  it('the generated bad requests of every onboarding operation never answer 5xx nor reach the database with a bad value', async () => {
    const doc = (await t.actor().get('/api/openapi.json')).body as OpenApiDocument;
    // The suite in bad-input.int.test.ts sends them as a site owner (refused before the service); here they reach it.
    const started = await admin.post('/api/onboarding/', { name: 'Fuzzed Research' });
    const onboardingId = started.body.id as string;
    const failures: string[] = [];
    let sent = 0;
    for (const [path, methods] of Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/onboarding'))) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const request of badRequestsFor(doc, method, path, operation as never)) {
          const url = request.label.startsWith('path ') ? request.url : request.url.replace(NIL_LIKE_UUID, onboardingId);
          const headers: Record<string, string> = { accept: 'application/json', origin: BASE_URL, cookie: admin.cookie, ...request.headers };
          const response = await t.app.request(url, { method: request.method, headers, body: request.body });
          const text = await response.text();
          sent++;
          if (response.status >= 500) failures.push(`${request.operation} [${request.label}] -> ${response.status} ${text.slice(0, 160)}`);
          if (text.includes('An input value is not valid')) failures.push(`${request.operation} [${request.label}] -> reached the database`);
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 300_000);
});
