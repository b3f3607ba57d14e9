import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOrganization, readScopedInOneMessage } from '../../src/server/db/scoped';
import { candidate } from '../../src/server/db/schema';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

// A read sent with its transaction in one message (decision 114) runs under the scope's role and row security, as a
// `withRowSecurity` transaction does: a statement that forgets its filter still sees only the scope's rows, and the
// connection is left as it was found.

let t: TestApp;
let alpha: SignedUp;
let beta: SignedUp;
const parsers = { pglite: {}, pg: { getTypeParser: (_id: number) => (value: string) => value } };

beforeAll(async () => {
  t = await createTestApp();
  alpha = await t.signUp({ organizationName: 'Alpha One Message' });
  beta = await t.signUp({ organizationName: 'Beta One Message' });
  await t.deps.db.insert(candidate).values([
    { organizationId: alpha.organizationId, firstName: 'Ada' },
    { organizationId: beta.organizationId, firstName: 'Bea' },
  ]);
});
afterAll(() => t?.close());

describe('readScopedInOneMessage', () => {
  it("sees only the scope's rows, under the app role, with no filter in the statement", async () => {
    const rows = await readScopedInOneMessage(
      t.deps.db,
      asOrganization(alpha.organizationId),
      "select first_name, current_user, current_setting('app.org_ids') from candidate order by first_name",
      parsers,
    );
    expect(rows).toEqual([['Ada', 'cohortly_app', alpha.organizationId]]);
  });

  it('leaves nothing behind: the next statements run as the owner with no scope, after a failed one too', async () => {
    await expect(readScopedInOneMessage(t.deps.db, asOrganization(beta.organizationId), 'select 1 / 0', parsers)).rejects.toThrow();
    const after = await t.deps.db.select({ firstName: candidate.firstName }).from(candidate);
    expect(after.map((row) => row.firstName).sort()).toEqual(['Ada', 'Bea']);
    const rows = await readScopedInOneMessage(t.deps.db, asOrganization(beta.organizationId), 'select first_name from candidate', parsers);
    expect(rows).toEqual([['Bea']]);
  });

  it('is not taken for a scope whose ids are not uuids (the caller then reads with parameters)', async () => {
    expect(await readScopedInOneMessage(t.deps.db, { global: false, reachableOrganizationIds: ["x'y"] }, 'select 1', parsers)).toBeUndefined();
  });
});
