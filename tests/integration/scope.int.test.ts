import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRowSecurity } from '../../src/server/db/scoped';
import { member } from '../../src/server/db/schema';
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

  it('falls back to its own organization when the active one no longer exists', async () => {
    admin.activeOrganizationId = '00000000-0000-4000-8000-000000000000';
    const seen = await organizationsSeen(admin);
    expect(seen).toEqual(expect.arrayContaining(['Alpha Research', 'Beta Clinic']));
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
