import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, call, candidate, organization, processingRun } from '../../src/server/db/schema';
import { DEMO_ORGANIZATION_SLUG, DEMO_RESET_RUN_KIND } from '../../src/server/features/demo/seed';
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

/** The demo status once its reset run (if any) has ended. */
const settledStatus = async () => {
  const status = await poll(
    async () => (await admin.get('/api/demo/')).body,
    (body) => body.reset === null || !['pending', 'running'].includes(body.reset.status),
    60_000,
  );
  expect(status.reset?.status ?? 'none', JSON.stringify(status.reset)).not.toMatch(/pending|running/);
  return status;
};

describe('the demo area', () => {
  it('says there is no demo data yet, then "Reset" creates it as a processing run; a second reset keeps the organization id and the counts', async () => {
    const before = await admin.get('/api/demo/');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ exists: false, organization: null, lastResetAt: null, counts: null, reset: null });

    // The request answers at once with the run going; the status tells when it is done.
    const started = await admin.post('/api/demo/reset');
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.reset).toMatchObject({ kind: 'demo_reset', status: 'running', label: 'Demo data reset' });
    expect(started.body.organization).toMatchObject({ slug: DEMO_ORGANIZATION_SLUG, name: 'Demo Research Site' });
    const created = await settledStatus();
    expect(created).toMatchObject({ exists: true, lastResetAt: expect.any(String), reset: { id: started.body.reset.id, status: 'completed', progress: 1 } });
    expect(created.counts).toMatchObject({ trials: 4, candidates: 400, prescreenForms: 4 });
    expect(created.counts.sites).toBeGreaterThanOrEqual(20);
    expect(created.counts.prescreenResults).toBeGreaterThan(0);
    expect(created.counts.bookings).toBeGreaterThan(0);
    expect(created.counts.activityEvents).toBeGreaterThan(created.counts.candidates);

    const again = await admin.post('/api/demo/reset');
    expect(again.status).toBe(202);
    expect(again.body.reset.id).not.toBe(started.body.reset.id);
    const reset = await settledStatus();
    expect(reset.organization.id).toBe(created.organization.id);
    expect(reset.counts).toEqual(created.counts);
    expect(reset.reset).toMatchObject({ id: again.body.reset.id, status: 'completed' });
    expect(await t.deps.db.select().from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG))).toHaveLength(1);
    // Both resets are listed among the processing runs (a reset keeps the history of resets).
    const runs = await admin.get(`/api/processing-runs?orgs=${reset.organization.id}`);
    expect(
      runs.body.runs
        .filter((run: { kind: string }) => run.kind === 'demo_reset')
        .map((run: { id: string }) => run.id)
        .sort(),
    ).toEqual([started.body.reset.id, again.body.reset.id].sort());
  }, 120_000);

  it("gives the demo's voice agents the demo organization's phone number, as a customer's agents get theirs (issue 32)", async () => {
    const status = await settledStatus();
    const orgs = status.organization.id;
    const numbers = await admin.get(`/api/phone-numbers?orgs=${orgs}`);
    expect(numbers.status).toBe(200);
    // One number in the registry, for voice, kept through the reset above (not a second one per reset).
    expect(numbers.body.phoneNumbers).toHaveLength(1);
    const [line] = numbers.body.phoneNumbers;
    expect(line).toMatchObject({ organizationId: orgs, purpose: 'voice', provider: 'simulator' });
    const agents = await admin.get(`/api/voice-agents?orgs=${orgs}`);
    expect(agents.body.voiceAgents.length).toBeGreaterThan(0);
    for (const agent of agents.body.voiceAgents) expect(agent.fromNumber, agent.name).toBe(line.number);
    // The registry lists the agents calling from it, as for any organization's number.
    expect(line.agents.map((agent: { id: string }) => agent.id).sort()).toEqual(agents.body.voiceAgents.map((agent: { id: string }) => agent.id).sort());
  });

  it('matches the recruiting trials once the reset is written, so the trial matcher shows ranked people at once (decision 170)', async () => {
    const started = await admin.post('/api/demo/reset');
    expect(started.status).toBe(202);
    const status = await settledStatus();
    const trials = (await admin.get(`/api/trials?orgs=${status.organization.id}`)).body;
    const recruiting = (trials.trials ?? trials.items ?? trials).filter((trial: { status: string }) => trial.status === 'recruiting');
    expect(recruiting.length).toBeGreaterThan(0);
    for (const trial of recruiting) {
      const overview = await poll(
        async () => (await admin.get(`/api/trial-matcher/${trial.id}`)).body,
        (body) => body.counts !== null && body.counts !== undefined && body.counts.likely + body.counts.possible > 0,
        60_000,
      );
      expect(overview.counts.likely + overview.counts.possible, trial.id).toBeGreaterThan(0);
    }
    // The runs are listed with the reset that started them.
    const runs = (await admin.get(`/api/processing-runs?orgs=${status.organization.id}`)).body.runs;
    expect(runs.filter((run: { kind: string }) => run.kind === 'trial_match').length).toBeGreaterThanOrEqual(recruiting.length);
  }, 180_000);

  it('joins the reset already going: a double click starts no second reset', async () => {
    // Both clicks at once, as a double click sends them: on one PGlite connection a click sent after the first
    // answered could find the 400-person reset already ended and rightly start another.
    const [first, second] = await Promise.all([admin.post('/api/demo/reset'), admin.post('/api/demo/reset')]);
    // Settle before asserting, so a failure here leaves no reset running under the tests that follow.
    const done = await settledStatus();
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.reset.id, JSON.stringify({ first: first.body.reset, second: second.body.reset })).toBe(first.body.reset.id);
    expect(done.reset).toMatchObject({ id: first.body.reset.id, status: 'completed' });
    expect(done.counts.candidates).toBe(400);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, first.body.reset.id));
    expect(audits.filter((row) => row.action === 'processing_run.create')).toHaveLength(1);
  }, 120_000);

  it('lists the demo trials with their published form and prescreen agent, and callable candidates', async () => {
    const samples = await admin.get('/api/demo/samples');
    expect(samples.status).toBe(200);
    expect(samples.body.trials).toHaveLength(4);
    expect(samples.body.trials.every((item: { formId: string | null }) => item.formId)).toBe(true);
    // A call uses the agent of the person's trial (decision 174): every recruiting trial's agent is on, the others off.
    const trials = samples.body.trials as { status: string; voiceAgent: { active: boolean } | null }[];
    expect(trials.filter((item) => item.status === 'recruiting').length).toBeGreaterThan(1);
    expect(trials.filter((item) => item.voiceAgent?.active).map((item) => item.status)).toEqual(
      trials.filter((item) => item.status === 'recruiting').map((item) => item.status),
    );
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

  it("records the demo call as the demo organization's own: listed in its calls, with its real agent, and nowhere else", async () => {
    const placed = await admin.post('/api/demo/voice-call', {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const demo = (await admin.get('/api/demo/')).body.organization;
    expect(placed.body.organizationId).toBe(demo.id);
    const asDemo = await t.signInAdmin();
    asDemo.activeOrganizationId = demo.id;
    const listed = await asDemo.get('/api/calls?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.calls.map((item: { id: string }) => item.id)).toContain(placed.body.id);
    const agents = await asDemo.get('/api/voice-agents');
    const agent = agents.body.voiceAgents.find((item: { id: string }) => item.id === placed.body.voiceAgentId);
    expect(agent, JSON.stringify(agents.body)).toMatchObject({ type: 'PRESCREEN', active: true });
    expect((await asDemo.get(`/api/calls/${placed.body.id}`)).status).toBe(200);
    // Another organization neither lists nor opens it.
    const others = await customer.actor.get('/api/calls?limit=100');
    expect(others.body.calls.map((item: { id: string }) => item.id)).not.toContain(placed.body.id);
    expect((await customer.actor.get(`/api/calls/${placed.body.id}`)).status).toBe(404);
  });

  it('gives sample people a referral note, so their simulated calls end PASS, FAIL or INCONCLUSIVE by what it says (issue 32 item 10)', async () => {
    const samples = await admin.get('/api/demo/samples');
    const calling = samples.body.trials.filter((trial: { voiceAgent: { active: boolean } | null }) => trial.voiceAgent?.active);
    expect(calling.length).toBeGreaterThan(1);
    const seen: Array<{ recommendation: string; said: string[] }> = [];
    for (const trial of calling) {
      for (let i = 0; i < 8; i++) {
        const made = await admin.post('/api/demo/sample-candidate', { trialId: trial.id });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        const record = await admin.get(`/api/candidates/${made.body.candidateId}/clinical`);
        expect(record.body.notes, JSON.stringify(record.body)).toHaveLength(1);
        const placed = await admin.post('/api/demo/voice-call', { candidateId: made.body.candidateId });
        expect(placed.status, JSON.stringify(placed.body)).toBe(201);
        const ended = await poll(
          async () => (await admin.get(`/api/calls/${placed.body.id}`)).body,
          (body) => body.status === 'ended' && Boolean(body.prescreenResultId),
        );
        const results = await admin.get(`/api/prescreen/results?candidateId=${made.body.candidateId}&orgs=${ended.organizationId}`);
        const said = ended.transcript.filter((turn: { role: string }) => turn.role === 'user').map((turn: { text: string }) => turn.text);
        seen.push({ recommendation: results.body.results[0].aiRecommendation, said });
      }
    }
    // The same scripts: only the people's notes differ. A note that fits every criterion asked passes, one that
    // rules the person out fails, and one that says nothing of half the criteria leaves the person unsure of them.
    const outcomes = seen.map((item) => item.recommendation);
    for (const outcome of ['PASS', 'FAIL', 'INCONCLUSIVE']) expect(outcomes, outcomes.join(', ')).toContain(outcome);
    for (const item of seen.filter((call) => call.recommendation === 'INCONCLUSIVE')) expect(item.said).toContain("I'm not sure");
  }, 240_000);

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

  it('answers a demo action sent while a reset runs with a 409 in words, never a server error', async () => {
    // A reset going, as the run table says (another process's, say): its run marked running. A real reset's window
    // cannot be timed from here: on PGlite's one connection a request queues behind the reset's transaction.
    await settledStatus();
    const [demo] = await t.deps.db.select().from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG));
    const [latest] = await t.deps.db
      .select()
      .from(processingRun)
      .where(and(eq(processingRun.organizationId, demo.id), eq(processingRun.kind, DEMO_RESET_RUN_KIND)))
      .orderBy(desc(processingRun.createdAt))
      .limit(1);
    const samples = await admin.get('/api/demo/samples');
    await t.deps.db.update(processingRun).set({ status: 'running' }).where(eq(processingRun.id, latest.id));
    try {
      const during = await Promise.all([
        admin.post('/api/demo/voice-call', {}),
        admin.post('/api/demo/sample-candidate', { trialId: samples.body.trials[0].id }),
      ]);
      for (const answer of during) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body.error).toMatchObject({ code: 'DEMO_RESETTING', message: expect.stringMatching(/being reset/) });
      }
    } finally {
      await t.deps.db.update(processingRun).set({ status: latest.status }).where(eq(processingRun.id, latest.id));
    }

    // A real reset with the same actions sent straight after it: each is refused in words or done, never a 5xx.
    expect((await admin.post('/api/demo/reset')).status).toBe(202);
    const racing = await Promise.all([
      admin.post('/api/demo/voice-call', {}),
      admin.post('/api/demo/sample-candidate', { trialId: samples.body.trials[0].id }),
    ]);
    for (const answer of racing) {
      expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.error).toMatchObject({ code: 'DEMO_RESETTING' });
    }
    const done = await settledStatus();
    expect(done.reset.status).toBe('completed');
    // 400 people, and the sample people an action added after the reset's transaction, if it came after.
    expect(done.counts.candidates).toBeGreaterThanOrEqual(400);
    // Once the reset has ended the same actions work again.
    expect((await admin.post('/api/demo/voice-call', {})).status).toBe(201);
  }, 120_000);

  it('makes two sample people asked for at once, each with a number of their own', async () => {
    const samples = await admin.get('/api/demo/samples');
    const made = await Promise.all([0, 1].map(() => admin.post('/api/demo/sample-candidate', { trialId: samples.body.trials[0].id })));
    expect(made.map((answer) => answer.status)).toEqual([201, 201]);
    const people = await Promise.all(made.map(async (answer) => (await admin.get(`/api/candidates/${answer.body.candidateId}`)).body));
    expect(people[0].phone).not.toBe(people[1].phone);
  });

  it('refuses everyone but internal admins (403)', async () => {
    const calls = (await t.deps.db.select().from(call)).length;
    for (const path of ['/api/demo/', '/api/demo/samples']) expect((await customer.actor.get(path)).status).toBe(403);
    expect((await customer.actor.post('/api/demo/reset')).status).toBe(403);
    expect((await customer.actor.post('/api/demo/voice-call', {})).status).toBe(403);
    expect((await t.deps.db.select().from(call)).length).toBe(calls);
  });
});
