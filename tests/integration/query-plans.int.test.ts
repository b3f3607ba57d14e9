import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRowSecurity } from '../../src/server/db/scoped';
import { duplicateLookup } from '../../src/server/features/candidates/import-runner';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Issue 17: under the row-security role, the candidate list's first page and a whole-phone search read an
 * index, not every row of the organization. The policy's organization set is an InitPlan (read once per
 * statement), so the planner can use the (organization, created) and (organization, phone) indexes.
 */

let t: TestApp;
let site: SignedUp;
const ROWS = 3000;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Plan Research Site' });
  await t.deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, status, created_at, updated_at)
    select ${site.organizationId}::uuid, 'F' || g, 'L' || g, '+1215' || (200 + g / 10000)::text || lpad((g % 10000)::text, 4, '0'), 'new', now() - make_interval(secs => g), now()
    from generate_series(1, ${ROWS}) g`);
  await t.deps.db.execute(sql`analyze candidate`);
});
afterAll(() => t?.close());

/** The statement with its parameters written in as literals (EXPLAIN of a prepared statement needs them). */
const inline = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });

async function planOf(query: ReturnType<typeof sql>): Promise<string> {
  return withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [site.organizationId] }, async (tx) => {
    const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Array<Record<string, string>> };
    return result.rows.map((row) => Object.values(row)[0]).join('\n');
  });
}

describe('query plans under row-level security', () => {
  it('the first page of the list reads the (organization, created) index', async () => {
    const plan = await planOf(sql`select id from candidate where organization_id in (${site.organizationId}::uuid) order by created_at desc, id desc limit 51`);
    expect(plan).toMatch(/Index (?:Only )?Scan Backward using candidate_organization_created_idx/);
    expect(plan).not.toMatch(/Seq Scan on candidate/);
    // The policy is evaluated once per statement, not per row.
    expect(plan).toMatch(/InitPlan/);
  });

  it('a whole phone number is one index lookup', async () => {
    const plan = await planOf(sql`select id from candidate where organization_id in (${site.organizationId}::uuid) and phone = '+12152001234'`);
    expect(plan).toMatch(/Index (?:Only )?Scan using candidate_organization_phone_uidx/);
  });

  it("an import batch's duplicate lookup (1,000 phones, 1,000 emails) reads its organization's index ranges, not a table 50,000 other rows grew", async () => {
    // The curve (issue 17): a batch's lookup must not cost more as other imports grow the table.
    const other = await t.signUp({ organizationName: 'Large Plan Site' });
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, email, status)
      select ${other.organizationId}::uuid, 'F' || g, 'L' || g, '+1312' || (200 + g / 10000)::text || lpad((g % 10000)::text, 4, '0'), 'person.' || g || '@example.test', 'new'
      from generate_series(1, 50000) g`);
    await t.deps.db.execute(sql`analyze candidate`);
    const phones = Array.from({ length: 1000 }, (_, i) => `+1215${200 + Math.floor(i / 10)}${String(i * 7).padStart(4, '0')}`);
    const emails = Array.from({ length: 1000 }, (_, i) => `person.${i}@example.test`);
    const plan = await withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [site.organizationId] }, async (tx) => {
      const query = duplicateLookup(tx, site.organizationId, phones, emails).toSQL();
      const result = (await tx.execute(sql`explain ${sql.raw(inline(query.sql, query.params))}`)) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    // An index led by organization_id: the unique indexes (BitmapOr) or the organization's range, whichever is cheaper.
    expect(plan).toMatch(/Index Scan (?:Backward )?using candidate_organization_|Bitmap Index Scan on candidate_organization_/);
    expect(plan).not.toMatch(/Seq Scan on candidate/);
  });

  it("still sees only the scope's rows when a query forgets its filter", async () => {
    const other = await t.signUp({ organizationName: 'Other Plan Site' });
    const counted = await withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [other.organizationId] }, (tx) =>
      tx.execute(sql`select count(*)::int as n from candidate`),
    );
    expect((counted as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });
});
