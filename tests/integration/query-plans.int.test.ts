import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRowSecurity } from '../../src/server/db/scoped';
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

  it("still sees only the scope's rows when a query forgets its filter", async () => {
    const other = await t.signUp({ organizationName: 'Other Plan Site' });
    const counted = await withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [other.organizationId] }, (tx) =>
      tx.execute(sql`select count(*)::int as n from candidate`),
    );
    expect((counted as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });
});
