import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLike } from '../../src/server/db/postgres';
import { rowsOf, withRowSecurity } from '../../src/server/db/scoped';
import { countCandidates, findCandidatesMatching, listCandidatePage, TRIGRAM_MAX_IDS } from '../../src/server/features/candidates/queries';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Decision 109: a search term of 3+ characters reads the pg_trgm indexes through candidate_ids_matching(), a
 * SECURITY DEFINER function that applies the row-security policy's scope itself. It must find exactly the rows the
 * plain LIKE search finds, and never a candidate outside the request's scope.
 */

let t: TestApp;
let site: SignedUp;
let other: SignedUp;
const FILLER = 20_000;

const PEOPLE: Array<[first: string, last: string, phone: string | null, email: string | null]> = [
  ['Ann', 'Smith', '+14155550101', 'ann.smith@example.test'],
  ['Joanna', "O'Brien", '+14155550102', 'JOANNA@Example.TEST'],
  ['Hannah', 'Annis', null, 'hannah_a@mail.test'],
  ['Percy', '50% Off', '+12125550199', null],
  ['Under', 'Score_Name', '+12125550188', 'under%score@mail.test'],
  ['Zoë', 'Ångström', '+33612345678', 'zoe@mail.test'],
  ['Max', 'Mustermann', '+4930123456', 'max@5550101.test'],
];

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Search Site Research' });
  other = await t.signUp({ organizationName: 'Other Search Site' });
  for (const organizationId of [site.organizationId, other.organizationId]) {
    for (const [first, last, phone, email] of PEOPLE) {
      // Written directly (not through the API) so an email with capitals, as an old row might hold, is covered too.
      await t.deps.db.execute(
        sql`insert into candidate (organization_id, first_name, last_name, phone, email) values (${organizationId}, ${first}, ${last}, ${phone}, ${email})`,
      );
    }
  }
  // Enough rows that the planner prefers the trigram indexes to reading the table.
  await t.deps.db.execute(sql`
    insert into candidate (organization_id, first_name, last_name, phone, email)
    select ${site.organizationId}::uuid, 'Filler' || g, 'Person' || g, '+1267' || lpad(g::text, 7, '0'), 'filler' || g || '@bulk.test'
    from generate_series(1, ${FILLER}) g`);
  await t.deps.db.execute(sql`analyze candidate`);
});
afterAll(() => t?.close());

const inSite = () => ({ global: false, reachableOrganizationIds: [site.organizationId] });

/** The search as it was before decision 109: a LIKE on every row of the organization. */
async function plainSearch(term: string): Promise<string[]> {
  const pattern = `%${escapeLike(term.toLowerCase())}%`;
  const digits = term.replace(/\D/g, '');
  const phonePattern = digits.length >= 3 && /^[\d\s()+.-]+$/.test(term) ? `%${digits}%` : null;
  const emailPattern = /\s/.test(term) ? null : pattern;
  const rows = await withRowSecurity(t.deps.db, inSite(), (tx) =>
    tx.execute(sql`select id from candidate where organization_id = ${site.organizationId}
      and (lower(first_name || ' ' || last_name) like ${pattern} or lower(email) like ${emailPattern}::text or phone like ${phonePattern}::text)`),
  );
  return rowsOf<{ id: string }>(rows)
    .map((row) => row.id)
    .sort();
}

const filterOf = (search: string) => ({ organizationIds: [site.organizationId], search });

describe('substring search (decision 109)', () => {
  it('finds exactly the rows the plain LIKE search finds: case, escaped % and _, apostrophes, accents, emails, phone digits', async () => {
    const terms = [
      'ann',
      'ANN',
      'Ann Sm',
      'n s',
      "o'br",
      'example.te',
      'joanna@',
      '50%',
      '0% o',
      'e_n',
      'r%s',
      '_a@',
      'zoë',
      'ÅNGS',
      '555',
      '0101',
      '(415) 555-01',
      '+1 212',
      '555 01',
      'Filler12',
      'person299',
      'r19999@bulk',
      'Filler1',
      'nobody here',
      'an',
      'a',
      '%%%',
      '___',
    ];
    for (const term of terms) {
      const expected = await plainSearch(term);
      const listed = await withRowSecurity(t.deps.db, inSite(), (tx) =>
        listCandidatePage(tx, filterOf(term), { sortBy: 'createdAt', sortDir: 'desc', limit: 50_000 }),
      );
      expect(listed.map((row) => row.id).sort(), term).toEqual(expected);
      const counted = await withRowSecurity(t.deps.db, inSite(), (tx) => countCandidates(tx, filterOf(term)));
      expect(counted, term).toBe(expected.length);
      const locked = await withRowSecurity(t.deps.db, inSite(), (tx) => findCandidatesMatching(tx, filterOf(term)));
      expect(locked.map((row) => row.id).sort(), term).toEqual(expected);
    }
    // The cases above are not vacuous: the fixtures match where they should.
    expect(await plainSearch('ann')).toHaveLength(4);
    expect(await plainSearch('50%')).toHaveLength(1);
    expect(await plainSearch('e_n')).toHaveLength(1);
    expect(await plainSearch('Filler12')).toHaveLength(1111);
    // More matches than the trigram path carries (the plain scan's case).
    expect((await plainSearch('Filler1')).length).toBeGreaterThan(TRIGRAM_MAX_IDS);
  });

  it('answers the list with the total of the matches, counted from the trigram ids or by a count, paged by cursor to the last match', async () => {
    for (const term of ['ann', 'Filler12', 'Filler1', 'nobody here', '0101']) {
      const expected = await plainSearch(term);
      const first = await site.actor.request('GET', `/api/candidates?search=${encodeURIComponent(term)}&limit=500`);
      expect(first.status, term).toBe(200);
      expect(first.body.total, term).toBe(Math.min(expected.length, 10_000));
      // The later pages keep the same total, and together the pages hold every match once.
      const seen = first.body.candidates.map((row: { id: string }) => row.id);
      let cursor = first.body.nextCursor as string | undefined;
      while (cursor) {
        const next = await site.actor.request('GET', `/api/candidates?search=${encodeURIComponent(term)}&limit=500&cursor=${encodeURIComponent(cursor)}`);
        expect(next.body.total, term).toBe(first.body.total);
        seen.push(...next.body.candidates.map((row: { id: string }) => row.id));
        cursor = next.body.nextCursor;
      }
      expect(seen.sort(), term).toEqual(expected);
    }
    // With a status filter too, the count is of the rows with that status (the ids alone would count every status).
    const contacted = await site.actor.request('GET', '/api/candidates?search=Filler12&status=contacted&limit=5');
    expect(contacted.status).toBe(200);
    expect(contacted.body.total).toBe(0);
  });

  it("never returns another organization's matching candidate, even when asked for its organization", async () => {
    const asked = sql`select count(*)::int as n from candidate_ids_matching(${`{${site.organizationId},${other.organizationId}}`}::uuid[], '%ann%', '%ann%', null)`;
    const count = async (scope: { global: boolean; reachableOrganizationIds: string[] }) =>
      rowsOf<{ n: number }>(await withRowSecurity(t.deps.db, scope, (tx) => tx.execute(asked)))[0].n;
    // Ann Smith, Joanna, Hannah Annis and Max Mustermann in each organization.
    expect(await count(inSite())).toBe(4);
    expect(await count({ global: false, reachableOrganizationIds: [other.organizationId] })).toBe(4);
    expect(await count({ global: false, reachableOrganizationIds: [site.organizationId, other.organizationId] })).toBe(8);
    expect(await count({ global: true, reachableOrganizationIds: [] })).toBe(8);
    // An empty scope, and no scope at all (the settings never set in this transaction), find nothing.
    expect(await count({ global: false, reachableOrganizationIds: [] })).toBe(0);
    const unscoped = await t.deps.db.transaction(async (tx) => rowsOf<{ n: number }>(await tx.execute(asked))[0].n);
    expect(unscoped).toBe(0);
    // Through the list: the other organization's Ann is not there even if its id is asked for.
    const listed = await withRowSecurity(t.deps.db, inSite(), (tx) =>
      listCandidatePage(
        tx,
        { organizationIds: [site.organizationId, other.organizationId], search: 'ann' },
        { sortBy: 'createdAt', sortDir: 'desc', limit: 50 },
      ),
    );
    expect(listed).toHaveLength(4);
    expect(new Set(listed.map((row) => row.organizationId))).toEqual(new Set([site.organizationId]));
  });

  it('reads the trigram index under the row-security role, and the candidates by primary key, never the whole table', async () => {
    // Scans of each relation in this transaction (for a table: its sequential scans).
    const scans = async (tx: Parameters<Parameters<typeof withRowSecurity>[2]>[0]) =>
      rowsOf<{ trigram: number; key: number; table: number }>(
        await tx.execute(sql`select pg_stat_get_xact_numscans('candidate_name_trgm_idx'::regclass)::int as trigram,
          pg_stat_get_xact_numscans('candidate_pkey'::regclass)::int as key, pg_stat_get_xact_numscans('candidate'::regclass)::int as table`),
      )[0];
    const { before, after, found } = await withRowSecurity(t.deps.db, inSite(), async (tx) => {
      const before = await scans(tx);
      const found = await listCandidatePage(tx, filterOf('filler1234'), { sortBy: 'createdAt', sortDir: 'desc', limit: 51 });
      return { before, after: await scans(tx), found };
    });
    expect(found).toHaveLength(11);
    expect(after.trigram).toBeGreaterThan(before.trigram);
    expect(after.key).toBeGreaterThan(before.key);
    expect(after.table).toBe(before.table);
  });
});
