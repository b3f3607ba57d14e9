import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsOrganization } from '../../src/server/db/scoped';
import { auditLog, processingRun, processingRunItem } from '../../src/server/db/schema';
import { defineRunKind, type RunDeps } from '../../src/server/features/processing-runs/runner';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

// The run engine (processing-runs/runner.ts, decision 039) with two toy kinds: one settling its items in
// batches in the engine's transaction, one item by item in its own. Each item's input says what to do with it.

type ToyInput = { value: number; boom?: boolean; giveUp?: boolean };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which instance (deps object) handled which item, in order. */
const handled: Array<{ itemId: string; by: object }> = [];

const doubling = defineRunKind<RunDeps, 'even' | 'odd'>({
  kind: 'toy_doubling',
  batchSize: 2,
  counters: { even: 'succeeded', odd: 'skipped' },
  messages: { failed: 'The toy broke; the rows marked done were doubled', interrupted: 'The toy run was cut off while being created' },
  completion: (run) => ({ total: run.total, even: run.succeeded, odd: run.skipped }),
  async processBatch(_tx, ctx, items) {
    return items.map((item) => {
      const input = item.input as ToyInput;
      if (input.boom) throw new Error('boom');
      handled.push({ itemId: item.id, by: ctx.deps });
      return { itemId: item.id, outcome: input.value % 2 === 0 ? 'even' : 'odd', errors: null };
    });
  },
});

const oneByOne = defineRunKind<RunDeps, 'done'>({
  kind: 'toy_one_by_one',
  pageSize: 2,
  counters: { done: 'succeeded' },
  messages: { failed: 'The slow toy broke', interrupted: 'The slow toy was cut off while being created' },
  completion: (run) => ({ total: run.total, done: run.succeeded }),
  async processItem(ctx, item) {
    const input = item.input as ToyInput;
    await sleep(30); // slow enough for a second worker to try its luck meanwhile
    return runAsOrganization(ctx.deps.db, ctx.run.organizationId, async (tx) => {
      if (!(await ctx.holds(tx))) return 'stop';
      if (input.giveUp) {
        await ctx.fail(tx, `Gave up at value ${input.value}`);
        return 'stop';
      }
      handled.push({ itemId: item.id, by: ctx.deps });
      await ctx.settle(tx, { itemId: item.id, outcome: 'done', errors: null });
      return 'next';
    });
  },
});

let t: TestApp;
let site: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Run Engine Research' });
});
afterAll(async () => {
  await t?.close();
});

/** Creates and begins a run of `kind` with one item per input, as a feature's start does, without triggering it. */
async function createRun(kind: typeof doubling, inputs: ToyInput[]) {
  return runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
    const { run, items } = await kind.create(tx, {
      organizationId: site.organizationId,
      createdByUserId: site.userId,
      label: 'Toy run',
      options: { toy: true },
      addItems: async (runId) => {
        await tx.insert(processingRunItem).values(inputs.map((input, i) => ({ organizationId: site.organizationId, runId, rowNumber: i + 1, input })));
        return inputs.length;
      },
      audit: (count) => ({ items: count }),
    });
    return kind.begin(tx, run.id, { total: items });
  });
}

async function runData(runId: string) {
  const answer = await site.actor.get(`/api/processing-runs/${runId}/data?limit=100`);
  expect(answer.status).toBe(200);
  return answer.body;
}

async function auditActions(runId: string) {
  const rows = await t.deps.db
    .select({ action: auditLog.action, changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'processing_run'), eq(auditLog.entityId, runId)))
    .orderBy(auditLog.createdAt);
  return rows;
}

describe('the run engine', () => {
  it('runs a batch kind to completion through the processing-run queue, counting outcomes and auditing both ends', async () => {
    const run = await createRun(doubling, [{ value: 1 }, { value: 2 }, { value: 4 }, { value: 7 }, { value: 8 }]);
    expect(run).toMatchObject({ status: 'running', total: 5 });
    expect(run.startedAt).toBeTruthy();
    await doubling.trigger(t.deps, run.id, site.organizationId);
    // The trigger is a job any process could take, not a call into this one.
    const jobs = await t.deps.db.execute(sql`select data from pgboss.job where name = 'processing-run' and data->>'runId' = ${run.id}`);
    expect((jobs as unknown as { rows: Array<{ data: { kind: string } }> }).rows.map((row) => row.data.kind)).toEqual(['toy_doubling']);

    await doubling.whenSettled(run.id);
    const data = await runData(run.id);
    expect(data.run).toMatchObject({ status: 'completed', total: 5, processed: 5, succeeded: 3, skipped: 2, failed: 0, progress: 1, error: null });
    expect(data.run.finishedAt).toBeTruthy();
    expect(data.items.map((item: { outcome: string }) => item.outcome)).toEqual(['odd', 'even', 'even', 'odd', 'even']);
    expect(await auditActions(run.id)).toEqual([
      { action: 'processing_run.create', changes: { kind: 'toy_doubling', items: 5 } },
      { action: 'processing_run.complete', changes: { total: 5, even: 3, odd: 2 } },
    ]);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row.leaseOwner).toBeNull(); // the claim is released with the loop
  });

  it('fails a run whose processing throws with the message the kind gives; batches already done stay done', async () => {
    const run = await createRun(doubling, [{ value: 2 }, { value: 3 }, { value: 4, boom: true }, { value: 5 }]);
    await doubling.trigger(t.deps, run.id, site.organizationId);
    await doubling.whenSettled(run.id);
    const data = await runData(run.id);
    expect(data.run).toMatchObject({ status: 'failed', processed: 2, succeeded: 1, skipped: 1, error: 'The toy broke; the rows marked done were doubled' });
    expect(data.run.finishedAt).toBeTruthy();
    // The failing batch rolled back whole: its items are still pending.
    expect(data.items.map((item: { outcome: string }) => item.outcome)).toEqual(['even', 'odd', 'pending', 'pending']);
    expect((await auditActions(run.id)).map((entry) => entry.action)).toEqual(['processing_run.create']);
  });

  it('lets an item kind stop its run as failed with its own message', async () => {
    const run = await createRun(oneByOne, [{ value: 1 }, { value: 2, giveUp: true }, { value: 3 }]);
    await oneByOne.trigger(t.deps, run.id, site.organizationId);
    await oneByOne.whenSettled(run.id);
    const data = await runData(run.id);
    expect(data.run).toMatchObject({ status: 'failed', processed: 1, succeeded: 1, error: 'Gave up at value 2' });
    expect(data.outcomes).toEqual({ done: 1, pending: 2 });
  });

  it('after a crash: resumes a run left running from its pending items only, and fails one left half-created', async () => {
    const run = await createRun(oneByOne, [{ value: 1 }, { value: 2 }, { value: 3 }]);
    // The dead process settled item 1 and held the claim, which has lapsed.
    const [first] = await t.deps.db
      .select()
      .from(processingRunItem)
      .where(and(eq(processingRunItem.runId, run.id), eq(processingRunItem.rowNumber, 1)));
    await t.deps.db.update(processingRunItem).set({ outcome: 'done', processedAt: new Date() }).where(eq(processingRunItem.id, first.id));
    await t.deps.db
      .update(processingRun)
      .set({ processed: 1, succeeded: 1, leaseOwner: 'a-process-that-died', leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(processingRun.id, run.id));
    const halfMade = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
      const { run: created } = await oneByOne.create(tx, {
        organizationId: site.organizationId,
        createdByUserId: site.userId,
        label: 'Half made',
        total: 10,
        options: {},
        audit: () => ({}),
      });
      await tx.insert(processingRunItem).values({ organizationId: site.organizationId, runId: created.id, rowNumber: 1, input: { value: 1 } });
      return created;
    });

    handled.length = 0;
    expect(await oneByOne.resume(t.deps)).toEqual([run.id]);
    await oneByOne.whenSettled(run.id);
    const data = await runData(run.id);
    expect(data.run).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 3 });
    expect(handled.map((entry) => entry.itemId)).not.toContain(first.id);
    expect(handled).toHaveLength(2);

    const failed = await runData(halfMade.id);
    expect(failed.run).toMatchObject({ status: 'failed', error: 'The slow toy was cut off while being created' });
    expect(failed.itemTotal).toBe(0);
  });

  it('never lets two instances work on one run at once: the second waits for the claim and finds the run done', async () => {
    const run = await createRun(oneByOne, [{ value: 1 }, { value: 2 }, { value: 3 }, { value: 4 }, { value: 5 }, { value: 6 }]);
    // Two instances (each deps object is one, as two processes would be) take the same run together.
    const a = { ...t.deps };
    const b = { ...t.deps };
    handled.length = 0;
    const results = await Promise.all([oneByOne.take(a, run.id, site.organizationId), oneByOne.take(b, run.id, site.organizationId)]);
    expect(results.filter((result) => result === 'claimed')).toHaveLength(1);
    const [held] = results.filter((result) => result !== 'claimed');
    expect(held).toMatchObject({ heldForMs: expect.any(Number) });
    await oneByOne.whenSettled(run.id);
    expect((await runData(run.id)).run).toMatchObject({ status: 'completed', processed: 6, succeeded: 6 });
    expect(handled).toHaveLength(6);
    expect(new Set(handled.map((entry) => entry.by)).size).toBe(1);
    // The loser looks again once the claim could have lapsed: a delayed job, not a second loop now.
    const later = await t.deps.db.execute(
      sql`select start_after > now() + interval '30 seconds' as later from pgboss.job where name = 'processing-run' and data->>'runId' = ${run.id}`,
    );
    expect((later as unknown as { rows: Array<{ later: boolean }> }).rows.map((row) => row.later)).toEqual([true]);
    // Once the run is over, taking it again finds nothing to do.
    expect(await oneByOne.take(b, run.id, site.organizationId)).toBe('gone');
  });
});
