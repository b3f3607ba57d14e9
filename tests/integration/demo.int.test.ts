import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, candidate, organization } from '../../src/server/db/schema';
import { DEMO_ORGANIZATION_SLUG } from '../../src/server/features/demo/seed';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** The demo area's API: status, reset (create, then again under the same id), samples and the voice demo's call. */

let t: TestApp;
let admin: Actor;
let customer: SignedUp;

beforeAll(async () => {
  // A smaller demo organization than the default 3,000 people: the same seeding, in a fraction of the time.
  t = await createTestApp({ DEMO_CANDIDATES: '400' });
  admin = await t.signInAdmin();
  customer = await t.signUp({ organizationName: 'Customer Research' });
});
afterAll(() => t?.close());

const poll = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('the demo area', () => {
  it('says there is no demo data yet, then "Reset" creates it; a second reset keeps the organization id and the counts', async () => {
    const before = await admin.get('/api/demo/');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ exists: false, organization: null, lastResetAt: null, counts: null });

    const created = await admin.post('/api/demo/reset');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      exists: true,
      organization: { slug: DEMO_ORGANIZATION_SLUG, name: 'Demo Research Site' },
      lastResetAt: expect.any(String),
    });
    expect(created.body.counts).toMatchObject({ trials: 4, candidates: 400, prescreenForms: 4 });
    expect(created.body.counts.sites).toBeGreaterThanOrEqual(20);
    expect(created.body.counts.prescreenResults).toBeGreaterThan(0);
    expect(created.body.counts.bookings).toBeGreaterThan(0);
    expect(created.body.counts.activityEvents).toBeGreaterThan(created.body.counts.candidates);

    const again = await admin.post('/api/demo/reset');
    expect(again.status).toBe(200);
    expect(again.body.organization.id).toBe(created.body.organization.id);
    expect(again.body.counts).toEqual(created.body.counts);
    expect(await t.deps.db.select().from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG))).toHaveLength(1);
    expect((await admin.get('/api/demo/')).body).toEqual(again.body);
  }, 120_000);

  it('lists the demo trials with their published form and prescreen agent, and callable candidates', async () => {
    const samples = await admin.get('/api/demo/samples');
    expect(samples.status).toBe(200);
    expect(samples.body.trials).toHaveLength(4);
    expect(samples.body.trials.every((item: { formId: string | null }) => item.formId)).toBe(true);
    expect(samples.body.trials.filter((item: { voiceAgent: { active: boolean } | null }) => item.voiceAgent?.active)).toHaveLength(1);
    expect(samples.body.candidates.length).toBeGreaterThan(0);
  });

  it('places a simulated prescreen call to a sample person that ends with a recommendation', async () => {
    const placed = await admin.post('/api/demo/voice-call', {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const sample = (await t.deps.db.select().from(candidate).where(eq(candidate.id, placed.body.candidateId)))[0];
    expect(sample.customFields).toMatchObject({ sample: true });
    const ended = await poll(
      async () => (await admin.get(`/api/calls/${placed.body.id}`)).body,
      (body) => body.status === 'ended' && Boolean(body.prescreenResultId),
    );
    expect(ended).toMatchObject({ status: 'ended', prescreenResultId: expect.any(String) });
    expect(ended.transcript.length).toBeGreaterThan(2);
    // Global admins' lists leave demo organizations out unless asked for them (orgs).
    const results = await admin.get(`/api/prescreen/results?candidateId=${placed.body.candidateId}&orgs=${placed.body.organizationId}`);
    expect(results.body.results[0].aiRecommendation).toMatch(/^(PASS|FAIL|INCONCLUSIVE|POTENTIAL)$/);
  });

  it("gives a sample person for a demo trial, and refuses a trial that is not the demo organization's", async () => {
    const samples = await admin.get('/api/demo/samples');
    const made = await admin.post('/api/demo/sample-candidate', { trialId: samples.body.trials[1].id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const detail = await admin.get(`/api/candidates/${made.body.candidateId}`);
    expect(detail.body.trialIds).toEqual([samples.body.trials[1].id]);
    const other = await customer.actor.post('/api/trials/', { title: 'Customer trial' });
    expect((await admin.post('/api/demo/sample-candidate', { trialId: other.body.id ?? '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await admin.post('/api/demo/sample-candidate', { trialId: 'not-a-uuid' })).status).toBe(400);
  });

  it('refuses everyone but internal admins (403)', async () => {
    const calls = (await t.deps.db.select().from(call)).length;
    for (const path of ['/api/demo/', '/api/demo/samples']) expect((await customer.actor.get(path)).status).toBe(403);
    expect((await customer.actor.post('/api/demo/reset')).status).toBe(403);
    expect((await customer.actor.post('/api/demo/voice-call', {})).status).toBe(403);
    expect((await t.deps.db.select().from(call)).length).toBe(calls);
  });
});
