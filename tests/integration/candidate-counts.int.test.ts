import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, withRowSecurity } from '../../src/server/db/scoped';
import { foldCandidateCounts } from '../../src/server/db/maintenance';
import { databaseKind } from '../support/test-database';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Decision 115: `candidate_count` keeps every organization's candidates per status, by statement triggers on
 * `candidate`, as rows of changes that the hourly maintenance folds. Whatever writes candidates, the kept sums must
 * equal a count of the candidates, and the list's total must be that sum.
 */

let t: TestApp;
let site: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Counted Site' });
  other = await t.signUp({ organizationName: 'Other Counted Site' });
});
afterAll(() => t?.close());

type Tally = Record<string, number>;

/** organization:status -> candidates, counted from the candidates themselves. */
async function counted(): Promise<Tally> {
  const rows = rowsOf<{ key: string; n: number }>(
    await t.deps.db.execute(sql`select organization_id || ':' || status as key, count(*)::int as n from candidate group by 1`),
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.n]));
}

/** The same from the kept rows of changes (zero sums left out, as a count has no such group). */
async function kept(): Promise<Tally> {
  const rows = rowsOf<{ key: string; n: number }>(
    await t.deps.db.execute(sql`select organization_id || ':' || status as key, sum(change)::int as n from candidate_count group by 1 having sum(change) <> 0`),
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.n]));
}

const insertPeople = (organizationId: string, prefix: string, n: number, status = 'new') =>
  t.deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, status)
    select ${organizationId}::uuid, ${prefix} || g, 'Counted', '+1' || ${prefix === 'A' ? '267' : '215'} || lpad((g + ${prefix.length * 100000})::text, 7, '0'), ${status}
    from generate_series(1, ${n}) g`);

describe('kept candidate counts (decision 115)', () => {
  it('equal a count of the candidates after inserts, status changes, moves, upserts, deletes, a fold and a truncate', async () => {
    await insertPeople(site.organizationId, 'A', 30);
    await insertPeople(other.organizationId, 'B', 12, 'contacted');
    expect(await kept()).toEqual(await counted());
    expect((await kept())[`${site.organizationId}:new`]).toBe(30);

    // A status change of some rows, a change of nothing that is counted, a move to the other organization.
    await t.deps.db.execute(
      sql`update candidate set status = 'prescreen_passed' where organization_id = ${site.organizationId} and first_name in ('A1', 'A2', 'A3')`,
    );
    await t.deps.db.execute(sql`update candidate set city = 'Springfield' where organization_id = ${site.organizationId}`);
    await t.deps.db.execute(
      sql`update candidate set organization_id = ${other.organizationId} where first_name = 'A4' and organization_id = ${site.organizationId}`,
    );
    expect(await kept()).toEqual(await counted());
    expect((await kept())[`${site.organizationId}:prescreen_passed`]).toBe(3);
    expect((await kept())[`${site.organizationId}:new`]).toBe(26);

    // An upsert: one new row, one existing row whose status changes.
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, status)
      values (${site.organizationId}, 'A5', 'Counted', (select phone from candidate where first_name = 'A5' and organization_id = ${site.organizationId}), 'not_interested'),
             (${site.organizationId}, 'Fresh', 'Counted', '+14155550000', 'new')
      on conflict (organization_id, phone) where phone is not null do update set status = excluded.status`);
    expect(await kept()).toEqual(await counted());

    // Deletes, one statement and through the API; the fold leaves one row per group and the same sums.
    await t.deps.db.execute(sql`delete from candidate where organization_id = ${other.organizationId} and first_name in ('B1', 'B2')`);
    const ids = rowsOf<{ id: string }>(await t.deps.db.execute(sql`select id from candidate where organization_id = ${site.organizationId} limit 4`));
    expect((await site.actor.post('/api/candidates/bulk-delete', { candidateIds: ids.map((row) => row.id) })).body).toEqual({ deleted: 4 });
    const before = await kept();
    expect(before).toEqual(await counted());
    await foldCandidateCounts(t.deps);
    expect(await kept()).toEqual(before);
    const [groups] = rowsOf<{ rows: number; groups: number }>(
      await t.deps.db.execute(sql`select count(*)::int as rows, count(distinct (organization_id, status))::int as groups from candidate_count`),
    );
    expect(groups.rows).toBe(groups.groups);

    // The list's totals are those sums, with and without a status filter.
    const sums = await kept();
    const list = await site.actor.get('/api/candidates/?limit=2');
    const siteTotal = Object.entries(sums)
      .filter(([key]) => key.startsWith(site.organizationId))
      .reduce((sum, [, n]) => sum + n, 0);
    expect(list.body).toMatchObject({ total: siteTotal, totalAtLeast: false });
    const eligible = await site.actor.get('/api/candidates/?status=prescreen_passed&limit=1');
    expect(eligible.status, JSON.stringify(eligible.body)).toBe(200);
    expect(eligible.body.total).toBe(sums[`${site.organizationId}:prescreen_passed`]);

    await t.deps.db.execute(sql`truncate candidate cascade`);
    expect(await kept()).toEqual({});
    expect((await site.actor.get('/api/candidates/')).body).toMatchObject({ total: 0, candidates: [] });
  });

  it('are read under row security: an organization sees its own sums only, and staff cannot write them', async () => {
    await insertPeople(site.organizationId, 'A', 5);
    await insertPeople(other.organizationId, 'B', 7);
    const sumSeen = (organizationIds: string[]) =>
      withRowSecurity(
        t.deps.db,
        { global: false, reachableOrganizationIds: organizationIds },
        async (tx) => rowsOf<{ n: number }>(await tx.execute(sql`select coalesce(sum(change), 0)::int as n from candidate_count`))[0].n,
      );
    expect(await sumSeen([site.organizationId])).toBe(5);
    expect(await sumSeen([other.organizationId])).toBe(7);
    expect(await sumSeen([])).toBe(0);
    const refused = await withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [site.organizationId] }, (tx) =>
      tx.execute(sql`insert into candidate_count (organization_id, status, change) values (${site.organizationId}, 'new', 1000)`),
    ).then(
      () => null,
      (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
    );
    expect(refused).toMatch(/permission denied/);
    expect((await site.actor.get('/api/candidates/?limit=1')).body.total).toBe(5);
    expect((await other.actor.get('/api/candidates/?limit=1')).body.total).toBe(7);
  });

  it.skipIf(databaseKind() !== 'postgres')('let two transactions add candidates to one organization without waiting for each other', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into candidate (organization_id, first_name, phone) values (${site.organizationId}, 'Held', '+14155550001')`);
      firstInserted();
      await held;
    });
    await inserted;
    // While the first transaction is open: a wait on its locks would fail this one after a second.
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '1s'`);
      await tx.execute(sql`insert into candidate (organization_id, first_name, phone) values (${site.organizationId}, 'Second', '+14155550002')`);
    });
    release();
    await first;
    expect((await kept())[`${site.organizationId}:new`]).toBe((await counted())[`${site.organizationId}:new`]);
  });
});
