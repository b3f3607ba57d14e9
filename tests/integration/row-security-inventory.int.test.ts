import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('row-level security inventory', () => {
  it('protects every table that holds organization_id with a tenant_isolation policy', async () => {
    const result = await t.deps.db.execute(sql`
      select c.relname as table, c.relrowsecurity as enabled,
             exists (select 1 from pg_policies p where p.tablename = c.relname and p.policyname = 'tenant_isolation') as has_policy
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      where c.relkind = 'r'
        and exists (select 1 from information_schema.columns col
                    where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'organization_id')
      order by c.relname`);
    const rows = (result as unknown as { rows: unknown[] }).rows as Array<{ table: string; enabled: boolean; has_policy: boolean }>;
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => !row.enabled || !row.has_policy).map((row) => row.table)).toEqual([]);
  });
});
