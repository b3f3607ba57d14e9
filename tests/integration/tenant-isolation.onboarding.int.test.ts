import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, chatAgent, invitation, onboarding, organization, organizationSite, sequence, trial, voiceAgent } from '../../src/server/db/schema';
import { ENDPOINTS } from '../support/endpoints/onboarding';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Onboarding is Cohortly's work: from organization B (its owner, or an internal admin with B active), the
 * onboarding of organization A does not exist (404, nothing changed), and listing or starting onboardings is
 * refused (403) without showing any.
 */

const asthmaStudy = JSON.parse(readFileSync('tests/fixtures/ctgov/asthma-study.json', 'utf8'));
const SITE = { name: 'A Clinic', address: '1 Main St', city: 'Boston', timeZone: 'America/New_York' };

let t: TestApp;
let globalAdmin: Actor;
let b: SignedUp;
let adminInB: Actor;
let aOnboardingId: string;
let aOrganizationId: string;

const snapshot = async () => ({
  organizations: (await t.deps.db.select().from(organization)).length,
  onboardings: await t.deps.db.select().from(onboarding),
  sites: await t.deps.db.select().from(organizationSite),
  trials: await t.deps.db.select().from(trial).where(eq(trial.organizationId, aOrganizationId)),
  invitations: await t.deps.db.select().from(invitation).where(eq(invitation.organizationId, aOrganizationId)),
  chatAgents: (await t.deps.db.select().from(chatAgent)).length,
  voiceAgents: (await t.deps.db.select().from(voiceAgent)).length,
  sequences: (await t.deps.db.select().from(sequence)).length,
  audits: (await t.deps.db.select().from(auditLog)).length,
});

beforeAll(async () => {
  t = await createTestApp();
  globalAdmin = await t.signInAdmin();
  const started = await globalAdmin.post('/api/onboarding/', { name: 'Tenant A Research' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  aOnboardingId = started.body.id;
  aOrganizationId = started.body.organizationId;
  expect((await globalAdmin.put(`/api/onboarding/${aOnboardingId}/sites`, { sites: [SITE] })).status).toBe(200);
  b = await t.signUp({ organizationName: 'Tenant B Research' });
  adminInB = await t.signInAdmin();
  adminInB.activeOrganizationId = b.organizationId;
});
afterAll(() => t?.close());

const probes: Array<[string, (actor: Actor) => Promise<{ status: number; body: unknown }>]> = [
  ['GET /api/onboarding/{id}', (actor) => actor.get(`/api/onboarding/${aOnboardingId}`)],
  ['PATCH /api/onboarding/{id}', (actor) => actor.patch(`/api/onboarding/${aOnboardingId}`, { currentStep: 'trial' })],
  ['POST /api/onboarding/{id}/owner', (actor) => actor.post(`/api/onboarding/${aOnboardingId}/owner`, { email: uniqueEmail('intruder') })],
  ['PUT /api/onboarding/{id}/sites', (actor) => actor.put(`/api/onboarding/${aOnboardingId}/sites`, { sites: [{ ...SITE, name: 'Taken over' }] })],
  ['POST /api/onboarding/{id}/trial', (actor) => actor.post(`/api/onboarding/${aOnboardingId}/trial`, { study: asthmaStudy })],
  ['POST /api/onboarding/{id}/agents', (actor) => actor.post(`/api/onboarding/${aOnboardingId}/agents`, {})],
  ['POST /api/onboarding/{id}/sequence', (actor) => actor.post(`/api/onboarding/${aOnboardingId}/sequence`, { template: 'call-first' })],
  ['GET /api/onboarding/{id}/checklist', (actor) => actor.get(`/api/onboarding/${aOnboardingId}/checklist`)],
  ['POST /api/onboarding/{id}/complete', (actor) => actor.post(`/api/onboarding/${aOnboardingId}/complete`)],
];

describe("from organization B, A's onboarding does not exist", () => {
  for (const [operation, probe] of probes) {
    it(`${operation} answers 404 to B's owner and changes nothing`, async () => {
      const before = await snapshot();
      const answer = await probe(b.actor);
      expect(answer.status).toBe(404);
      expect(JSON.stringify(answer.body)).not.toContain('Tenant A');
      expect(await snapshot()).toEqual(before);
    });
    it(`${operation} answers 404 to an internal admin whose active organization is B`, async () => {
      const before = await snapshot();
      expect((await probe(adminInB)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('listing and starting onboardings are refused (403), showing nothing', async () => {
    for (const actor of [b.actor, adminInB]) {
      const before = await snapshot();
      for (const query of ['', '?status=all', '?status=completed']) {
        const list = await actor.get(`/api/onboarding/${query}`);
        expect(list.status).toBe(403);
        expect(JSON.stringify(list.body)).not.toContain('Tenant A');
      }
      expect((await actor.post('/api/onboarding/', { name: 'Made from B' })).status).toBe(403);
      expect(await snapshot()).toEqual(before);
    }
    // The global admin still sees A's onboarding, untouched by the probes.
    const listed = await globalAdmin.get(`/api/onboarding/${aOnboardingId}`);
    expect(listed.body).toMatchObject({
      currentStep: 'owner',
      owner: null,
      trial: null,
      completedAt: null,
      sites: [expect.objectContaining({ name: 'A Clinic' })],
    });
  });

  it('covers every tenant-row endpoint of the feature', () => {
    const probed = new Set(probes.map(([operation]) => operation));
    const tenantRows = Object.entries(ENDPOINTS)
      .filter(([, kind]) => kind === 'tenant-row')
      .map(([operation]) => operation);
    expect(tenantRows.filter((operation) => !probed.has(operation))).toEqual([]);
  });
});
