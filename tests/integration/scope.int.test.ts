import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRowSecurity } from '../../src/server/db/scoped';
import { member, organization, user } from '../../src/server/db/schema';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

// The request scope (docs/ARCHITECTURE.md, "The scope rule"), observed through GET /api/users/, which lists the members of the
// organizations a request covers.

let t: TestApp;
let admin: Actor;
let alpha: SignedUp;
let beta: SignedUp;
let demo: SignedUp;
let testSite: SignedUp;

const organizationsSeen = async (actor: Actor, query = '') => {
  const answer = await actor.get(`/api/users/${query}`);
  expect(answer.status).toBe(200);
  return [...new Set((answer.body.users as Array<{ organizationName: string }>).map((row) => row.organizationName))].sort();
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  alpha = await t.signUp({ organizationName: 'Alpha Research' });
  beta = await t.signUp({ organizationName: 'Beta Clinic' });
  demo = await t.signUp({ organizationName: 'Sponsor Demo Site' });
  testSite = await t.signUp({ organizationName: 'QA Test Site' });
});
afterAll(() => t?.close());

/** An organization written straight to the database, with a member so the users list shows it. */
async function insertOrganizationRow(app: TestApp, name: string) {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const rows = await app.deps.db
    .insert(organization)
    .values({ name, slug, publicId: `pub-${slug}` })
    .returning();
  const userId = `user-${slug}`;
  await app.deps.db.insert(user).values({ id: userId, name: 'Direct Member', email: `${slug}@example.test`, emailVerified: true });
  await app.deps.db.insert(member).values({ organizationId: rows[0].id, userId, role: 'coordinator' });
  return rows;
}

describe('ordinary user', () => {
  it('sees only their own organization, and orgs cannot widen it', async () => {
    expect(await organizationsSeen(alpha.actor)).toEqual(['Alpha Research']);
    expect(await organizationsSeen(alpha.actor, `?organizationIds=${beta.organizationId}`)).toEqual([]);
    expect(await organizationsSeen(alpha.actor, `?orgs=${beta.organizationId},${alpha.organizationId}`)).toEqual(['Alpha Research']);
  });

  it('cannot pick another active organization: the header is ignored for non-admins', async () => {
    alpha.actor.activeOrganizationId = beta.organizationId;
    try {
      expect(await organizationsSeen(alpha.actor)).toEqual(['Alpha Research']);
    } finally {
      alpha.actor.activeOrganizationId = undefined;
    }
  });
});

describe('internal admin', () => {
  it('with a customer organization active, is scoped to that organization', async () => {
    admin.activeOrganizationId = beta.organizationId;
    expect(await organizationsSeen(admin)).toEqual(['Beta Clinic']);
    expect(await organizationsSeen(admin, `?orgs=${alpha.organizationId}`)).toEqual([]);
  });

  it('with cohortly active, sees every organization but demo, test and cohortly ones by default', async () => {
    admin.activeOrganizationId = t.internalOrganizationId;
    const seen = await organizationsSeen(admin);
    expect(seen).toEqual(expect.arrayContaining(['Alpha Research', 'Beta Clinic']));
    expect(seen).not.toContain('Sponsor Demo Site');
    expect(seen).not.toContain('QA Test Site');
    expect(seen).not.toContain('Cohortly');
  });

  it('with cohortly active, narrows with orgs, including to an excluded-by-default organization', async () => {
    admin.activeOrganizationId = t.internalOrganizationId;
    expect(await organizationsSeen(admin, `?orgs=${alpha.organizationId}`)).toEqual(['Alpha Research']);
    expect(await organizationsSeen(admin, `?organizationIds=${demo.organizationId},${testSite.organizationId}`)).toEqual(['QA Test Site', 'Sponsor Demo Site']);
    expect(await organizationsSeen(admin, `?orgId=${beta.organizationId}`)).toEqual(['Beta Clinic']);
  });

  it('is refused, never moved to its own organization, when the active one does not exist (decision 123)', async () => {
    admin.activeOrganizationId = '00000000-0000-4000-8000-000000000000';
    const refused = await admin.get('/api/users/');
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toMatch(/organization not found/i);
    const write = await admin.post('/api/trials/', { title: 'Lands nowhere', phase: 'Phase 2' });
    expect(write.status).toBe(404);
  });

  it('names an organization created after the list was read (another process, a direct insert): read from the database', async () => {
    admin.activeOrganizationId = t.internalOrganizationId;
    expect(await organizationsSeen(admin)).not.toContain('Gamma Direct');
    // As another process would: no in-process notice; the organization's trigger moves the version.
    const [gamma] = await insertOrganizationRow(t, 'Gamma Direct');
    expect(await organizationsSeen(admin)).toContain('Gamma Direct');
    admin.activeOrganizationId = gamma.id;
    expect(await organizationsSeen(admin)).toEqual(['Gamma Direct']);
    admin.activeOrganizationId = t.internalOrganizationId;
  });

  it('a slug compared case-insensitively: only the internal organization grants global scope', async () => {
    const lookalike = await admin.post('/api/organizations/', { name: 'Cohortly Partners' });
    admin.activeOrganizationId = lookalike.body.id;
    expect(await organizationsSeen(admin)).toEqual([]);
  });
});

describe('row-level security, the second line of defence', () => {
  it("hides other organizations' rows even from a query with no filter", async () => {
    const scope = { global: false, reachableOrganizationIds: [alpha.organizationId] };
    const rows = await withRowSecurity(t.deps.db, scope, (tx) => tx.select().from(member));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.organizationId))).toEqual(new Set([alpha.organizationId]));
  });

  it('refuses to write a row into another organization', async () => {
    const scope = { global: false, reachableOrganizationIds: [alpha.organizationId] };
    await expect(
      withRowSecurity(t.deps.db, scope, (tx) =>
        tx.execute(sql`update member set role = 'owner' where organization_id = ${beta.organizationId}::uuid returning id`),
      ),
    ).resolves.toMatchObject({ rows: [] });
    await expect(
      withRowSecurity(t.deps.db, scope, (tx) => tx.insert(member).values({ organizationId: beta.organizationId, userId: alpha.userId, role: 'owner' })),
    ).rejects.toThrow();
  });

  it('sees nothing with an empty scope', async () => {
    const rows = await withRowSecurity(t.deps.db, { global: false, reachableOrganizationIds: [] }, (tx) => tx.select().from(member));
    expect(rows).toEqual([]);
  });
});

// Decision 111: the scope statement goes with the transaction's BEGIN, handed to the engine's client only while
// `db.transaction` starts. These check that the scope still applies, and that it never reaches another transaction.
describe('the scope sent with BEGIN', () => {
  const whoAmI = (tx: { execute: typeof t.deps.db.execute }) =>
    tx
      .execute(sql`select current_user as role, coalesce(current_setting('app.org_ids', true), '') as ids`)
      .then((result) => (result as unknown as { rows: Array<{ role: string; ids: string }> }).rows[0]);

  it('runs the work as the app role with the scope, and the owner transaction next to it as the owner', async () => {
    const alphaScope = { global: false, reachableOrganizationIds: [alpha.organizationId] };
    const betaScope = { global: false, reachableOrganizationIds: [beta.organizationId] };
    // Started together: each transaction's scope is its own, and the owner's transaction has none.
    const [inAlpha, owner, inBeta] = await Promise.all([
      withRowSecurity(t.deps.db, alphaScope, async (tx) => ({ who: await whoAmI(tx), rows: await tx.select().from(member) })),
      t.deps.db.transaction(async (tx) => ({ who: await whoAmI(tx), rows: await tx.select().from(member) })),
      withRowSecurity(t.deps.db, betaScope, async (tx) => ({ who: await whoAmI(tx), rows: await tx.select().from(member) })),
    ]);
    expect(inAlpha.who).toEqual({ role: 'cohortly_app', ids: alpha.organizationId });
    expect(new Set(inAlpha.rows.map((row) => row.organizationId))).toEqual(new Set([alpha.organizationId]));
    expect(inBeta.who).toEqual({ role: 'cohortly_app', ids: beta.organizationId });
    expect(new Set(inBeta.rows.map((row) => row.organizationId))).toEqual(new Set([beta.organizationId]));
    expect(owner.who.role).not.toBe('cohortly_app');
    expect(owner.who.ids).toBe('');
    const ownerSees = new Set(owner.rows.map((row) => row.organizationId));
    for (const site of [alpha, beta, demo, testSite]) expect(ownerSees.has(site.organizationId)).toBe(true);
    // And after them, a plain query on the same handle is the owner's again.
    expect((await whoAmI(t.deps.db)).role).not.toBe('cohortly_app');
  });

  it('applies the scope inside an open transaction too (a savepoint: the statement runs on its own)', async () => {
    const scope = { global: false, reachableOrganizationIds: [alpha.organizationId] };
    const rows = await t.deps.db.transaction((outer) => withRowSecurity(outer as unknown as typeof t.deps.db, scope, (tx) => tx.select().from(member)));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.organizationId))).toEqual(new Set([alpha.organizationId]));
  });

  it('keeps nothing of a transaction whose statement failed, even when the work caught the error', async () => {
    const scope = { global: false, reachableOrganizationIds: [alpha.organizationId] };
    const before = await t.deps.db.select().from(member);
    const attempt = withRowSecurity(t.deps.db, scope, async (tx) => {
      await tx.execute(sql`update member set role = 'admin' where organization_id = ${alpha.organizationId}::uuid`);
      await tx.execute(sql`select 1 / 0`).catch(() => undefined);
    });
    // PGlite refuses to call it a success (as its own transaction did); PostgreSQL answers the commit with a rollback.
    await attempt.catch(() => undefined);
    expect(await t.deps.db.select().from(member)).toEqual(before);
  });
});
