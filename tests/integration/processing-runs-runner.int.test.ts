import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsOrganization } from '../../src/server/db/scoped';
import { appInstance, auditLog, processingRun, processingRunItem } from '../../src/server/db/schema';
import { INSTANCE_GRACE_SECONDS } from '../../src/server/features/processing-runs/lease';
import { beatInstance, defineRunKind, defineSliceRunKind, runOwnerOf, sweepRuns, type RunDeps } from '../../src/server/features/processing-runs/runner';
import { systemDb } from '../../src/server/db/system';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

// The run engine (processing-runs/runner.ts, decision 039) with three toy kinds: one settling its items in
// batches in the engine's transaction, one item by item in its own (each item's input says what to do with
// it), and one in slices over a cursor with no items (decision 042): the numbers 1..limit, summed.

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

/** What the slice kind did, in order: reads (after which cursor), slices processed and written. */
const sliceEvents: string[] = [];
type SumOptions = { limit: number; boomAt?: number; writeBoomAt?: number; cursor?: number | null; sum?: number };

const summing = defineSliceRunKind<RunDeps, { limit: number; boomAt?: number; writeBoomAt?: number }, number, number, number>({
  kind: 'toy_summing',
  messages: { failed: 'The summing toy broke; run it again', interrupted: 'The summing toy was cut off while being created' },
  completion: (run) => ({ sum: (run.options as SumOptions).sum ?? 0, processed: run.processed }),
  async prepare(_tx, { run }) {
    const options = run.options as SumOptions;
    return { limit: options.limit, boomAt: options.boomAt, writeBoomAt: options.writeBoomAt };
  },
  async readSlice(tx, _ctx, { limit }, after) {
    sliceEvents.push(`read after ${after}`);
    const rows = await tx.execute(sql`select n::int from generate_series(${(after ?? 0) + 1}::int, least(${(after ?? 0) + 3}::int, ${limit}::int)) as n`);
    return (rows as unknown as { rows: Array<{ n: number }> }).rows.map((row) => row.n);
  },
  cursorAfter: (n) => n,
  async processSlice(_ctx, { boomAt }, numbers) {
    if (boomAt !== undefined && numbers.includes(boomAt)) throw new Error('boom');
    await sleep(20); // long enough for the next slice's read to start meanwhile
    sliceEvents.push(`processed ${numbers.join(',')}`);
    return numbers.reduce((sum, n) => sum + n, 0);
  },
  async writeSlice(_tx, _ctx, { setup: { writeBoomAt }, rows, result, run }) {
    sliceEvents.push(`writing ${rows.join(',')}`);
    await sleep(40); // long enough for the next slice to be processed meanwhile
    if (writeBoomAt !== undefined && rows.includes(writeBoomAt)) throw new Error('boom');
    sliceEvents.push(`wrote ${rows.join(',')}`);
    return {
      counters: { succeeded: rows.filter((n) => n % 2 === 0).length, skipped: rows.filter((n) => n % 2 === 1).length },
      options: { sum: ((run.options as SumOptions).sum ?? 0) + result },
    };
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

/** Creates and begins a slice run, as a feature's start does, without triggering it. */
async function createSliceRun(options: SumOptions, patch: Partial<typeof processingRun.$inferInsert> = {}) {
  const run = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
    const { run: created } = await summing.create(tx, {
      organizationId: site.organizationId,
      createdByUserId: site.userId,
      label: 'Summing',
      total: 5, // an estimate: the run counts what it finds
      options: { cursor: null, ...options },
      audit: () => ({ limit: options.limit }),
    });
    return summing.begin(tx, created.id);
  });
  if (Object.keys(patch).length > 0) await t.deps.db.update(processingRun).set(patch).where(eq(processingRun.id, run.id));
  return run;
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
    // Its creator died while storing the items: the creation claim it carried lapsed.
    await t.deps.db
      .update(processingRun)
      .set({ leaseOwner: 'a-creator-that-died', leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(processingRun.id, halfMade.id));

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

  it('leaves a run its live creator is still storing to it: neither a start-up nor a sweep fails it, and it begins (decision 122)', async () => {
    const creator = { ...t.deps };
    const created = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
      const { run } = await oneByOne.create(tx, {
        organizationId: site.organizationId,
        createdByUserId: site.userId,
        label: 'Still being stored',
        total: 2,
        options: {},
        audit: () => ({}),
        creator: runOwnerOf(creator),
      });
      await tx.insert(processingRunItem).values({ organizationId: site.organizationId, runId: run.id, rowNumber: 1, input: { value: 1 } });
      return run;
    });
    const another = { ...t.deps };
    expect(await oneByOne.resume(another)).not.toContain(created.id);
    expect(await sweepRuns(another, [oneByOne])).not.toContain(created.id);
    expect((await runData(created.id)).run).toMatchObject({ status: 'pending' });
    expect((await runData(created.id)).itemTotal).toBe(1);

    await runAsOrganization(t.deps.db, site.organizationId, (tx) =>
      tx.insert(processingRunItem).values({ organizationId: site.organizationId, runId: created.id, rowNumber: 2, input: { value: 2 } }),
    );
    handled.length = 0;
    await runAsOrganization(t.deps.db, site.organizationId, (tx) => oneByOne.begin(tx, created.id));
    await oneByOne.trigger(creator, created.id, site.organizationId);
    await oneByOne.whenSettled(created.id);
    expect((await runData(created.id)).run).toMatchObject({ status: 'completed', total: 2, processed: 2, succeeded: 2 });
  });

  it('a sweep takes over a running run whose claim lapsed, without a restart; a run whose claim is live stays with its holder', async () => {
    const lapsed = await createRun(oneByOne, [{ value: 1 }, { value: 2 }]);
    const held = await createRun(oneByOne, [{ value: 3 }]);
    await t.deps.db
      .update(processingRun)
      .set({ leaseOwner: 'a-worker-that-died', leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(processingRun.id, lapsed.id));
    await t.deps.db
      .update(processingRun)
      .set({ leaseOwner: 'a-live-worker', leaseExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(processingRun.id, held.id));
    handled.length = 0;
    const queued = await sweepRuns({ ...t.deps }, [oneByOne]);
    expect(queued).toContain(lapsed.id);
    expect(queued).not.toContain(held.id);
    await oneByOne.whenSettled(lapsed.id);
    expect((await runData(lapsed.id)).run).toMatchObject({ status: 'completed', processed: 2, succeeded: 2 });
    expect((await runData(held.id)).run).toMatchObject({ status: 'running', processed: 0 });
    await t.deps.db.update(processingRun).set({ status: 'cancelled' }).where(eq(processingRun.id, held.id));
  });

  it('a sweep forgets the heartbeat rows of processes gone past the grace, and keeps the live and the recently gone', async () => {
    const ago = (seconds: number) => sql`now() - ${`${seconds} seconds`}::interval`;
    await t.deps.db.insert(appInstance).values([
      { id: 'host:101:long-gone', heartbeatAt: ago(INSTANCE_GRACE_SECONDS + 60) },
      { id: 'host:102:gone-a-moment-ago', heartbeatAt: ago(INSTANCE_GRACE_SECONDS - 30) },
    ]);
    const live = runOwnerOf(t.deps);
    await beatInstance(systemDb(t.deps.db), live);
    await sweepRuns({ ...t.deps }, [oneByOne]);
    const left = (await t.deps.db.select({ id: appInstance.id }).from(appInstance)).map((row) => row.id);
    expect(left).not.toContain('host:101:long-gone');
    expect(left).toContain('host:102:gone-a-moment-ago');
    expect(left).toContain(live);
    // A process that stalled past the grace comes back: its next heartbeat writes its row again.
    await t.deps.db
      .update(appInstance)
      .set({ heartbeatAt: ago(INSTANCE_GRACE_SECONDS + 60) })
      .where(eq(appInstance.id, live));
    await sweepRuns({ ...t.deps }, [oneByOne]);
    expect((await t.deps.db.select().from(appInstance).where(eq(appInstance.id, live))).length).toBe(0);
    await beatInstance(systemDb(t.deps.db), live);
    expect((await t.deps.db.select().from(appInstance).where(eq(appInstance.id, live))).length).toBe(1);
  });

  it('refuses to begin a run a sweep failed because its creator stalled past its claim', async () => {
    const created = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => {
      const { run } = await oneByOne.create(tx, {
        organizationId: site.organizationId,
        createdByUserId: site.userId,
        label: 'Stalled creator',
        total: 1,
        options: {},
        audit: () => ({}),
        creator: 'a-stalled-creator',
      });
      return run;
    });
    await t.deps.db
      .update(processingRun)
      .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(processingRun.id, created.id));
    await sweepRuns({ ...t.deps }, [oneByOne]);
    await expect(runAsOrganization(t.deps.db, site.organizationId, (tx) => oneByOne.begin(tx, created.id))).rejects.toMatchObject({ status: 503 });
    expect((await runData(created.id)).run).toMatchObject({ status: 'failed', error: 'The slow toy was cut off while being created' });
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

describe('the run engine, slices over a cursor', () => {
  it('sums slice by slice, reading the next slice while one is processed, with progress, counters and the cursor stored per slice', async () => {
    const run = await createSliceRun({ limit: 8 });
    sliceEvents.length = 0;
    await summing.trigger(t.deps, run.id, site.organizationId);
    await summing.whenSettled(run.id);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row).toMatchObject({ status: 'completed', total: 8, processed: 8, succeeded: 4, skipped: 4, error: null, leaseOwner: null });
    expect(row.options).toEqual({ limit: 8, cursor: 8, sum: 36 });
    expect(await runData(run.id)).toMatchObject({ itemTotal: 0 });
    // Each next read starts before the slice before it is written.
    expect(sliceEvents.indexOf('read after 3')).toBeLessThan(sliceEvents.indexOf('wrote 1,2,3'));
    expect(sliceEvents.indexOf('read after 6')).toBeLessThan(sliceEvents.indexOf('wrote 4,5,6'));
    expect(sliceEvents.filter((event) => event.startsWith('wrote'))).toEqual(['wrote 1,2,3', 'wrote 4,5,6', 'wrote 7,8']);
    // Each slice is processed while the slice before it is written (decision 104), and written after that write.
    expect(sliceEvents.indexOf('processed 4,5,6')).toBeGreaterThan(sliceEvents.indexOf('writing 1,2,3'));
    expect(sliceEvents.indexOf('processed 4,5,6')).toBeLessThan(sliceEvents.indexOf('wrote 1,2,3'));
    expect(sliceEvents.indexOf('writing 4,5,6')).toBeGreaterThan(sliceEvents.indexOf('wrote 1,2,3'));
    expect(await auditActions(run.id)).toEqual([
      { action: 'processing_run.create', changes: { kind: 'toy_summing', limit: 8 } },
      { action: 'processing_run.complete', changes: { sum: 36, processed: 8 } },
    ]);
  });

  it('after a crash: resumes from the stored cursor with the stored sums, without redoing a slice', async () => {
    // The dead process wrote the first slice (1..3) and held the claim, which has lapsed.
    const run = await createSliceRun(
      { limit: 7 },
      { processed: 3, succeeded: 1, skipped: 2, leaseOwner: 'a-process-that-died', leaseExpiresAt: new Date(Date.now() - 1000) },
    );
    await t.deps.db
      .update(processingRun)
      .set({ options: { limit: 7, cursor: 3, sum: 6 } })
      .where(eq(processingRun.id, run.id));
    sliceEvents.length = 0;
    expect(await summing.resume(t.deps)).toEqual([run.id]);
    await summing.whenSettled(run.id);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row).toMatchObject({ status: 'completed', total: 7, processed: 7, succeeded: 3, skipped: 4 });
    expect(row.options).toMatchObject({ cursor: 7, sum: 28 });
    expect(sliceEvents[0]).toBe('read after 3');
  });

  it('fails a run whose slice throws with the kind message; the slices written before stay written', async () => {
    const run = await createSliceRun({ limit: 9, boomAt: 5 });
    await summing.trigger(t.deps, run.id, site.organizationId);
    await summing.whenSettled(run.id);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row).toMatchObject({ status: 'failed', processed: 3, error: 'The summing toy broke; run it again' });
    expect(row.options).toMatchObject({ cursor: 3, sum: 6 });
  });

  it('fails a run whose write throws while the next slice is processed; only the slices committed before count', async () => {
    const run = await createSliceRun({ limit: 9, writeBoomAt: 5 });
    sliceEvents.length = 0;
    await summing.trigger(t.deps, run.id, site.organizationId);
    await summing.whenSettled(run.id);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row).toMatchObject({ status: 'failed', processed: 3, error: 'The summing toy broke; run it again' });
    expect(row.options).toMatchObject({ cursor: 3, sum: 6 });
    // The slice after the failed one was processed meanwhile and never written.
    expect(sliceEvents).toContain('processed 7,8,9');
    expect(sliceEvents.filter((event) => event.startsWith('writing'))).toEqual(['writing 1,2,3', 'writing 4,5,6']);
  });

  it('leaves a run alone while another live instance holds it', async () => {
    const run = await createSliceRun({ limit: 4 }, { leaseOwner: 'a-live-process', leaseExpiresAt: new Date(Date.now() + 60_000) });
    expect(await summing.take({ ...t.deps }, run.id, site.organizationId)).toMatchObject({ heldForMs: expect.any(Number) });
    await summing.whenSettled(run.id);
    const [row] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, run.id));
    expect(row).toMatchObject({ status: 'running', processed: 0 });
  });
});
