import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidate, candidateTrial, contactEvent, trial } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/db/scoped';
import { CANDIDATE_LIST_FIELDS } from '../../src/contract/candidates';
import { BASE_URL, createTestApp, type SignedUp, type TestApp } from '../support/test-app';

let t: TestApp;
let site: SignedUp;
let trialId: string;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(1000 + ++phoneSeq).slice(-4)}`;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Casey Coordinator', organizationName: 'Harbor Clinical Research' });
  const [row] = await t.deps.db.insert(trial).values({ organizationId: site.organizationId, title: 'Asthma study', status: 'recruiting' }).returning();
  trialId = row.id;
});
afterAll(() => t?.close());

const create = async (body: Record<string, unknown>) => {
  const answer = await site.actor.post('/api/candidates/', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; [key: string]: any };
};

describe('POST /api/candidates', () => {
  it('creates a candidate with the phone in E.164 and the email lowercased, in the active organization', async () => {
    const created = await create({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '(212) 555-0142',
      email: 'Ada@Example.TEST',
      dateOfBirth: '1985-12-10',
      sex: 'female',
      postalCode: '10001',
      trialIds: [trialId],
    });
    expect(created).toMatchObject({
      organizationId: site.organizationId,
      firstName: 'Ada',
      phone: '+12125550142',
      email: 'ada@example.test',
      status: 'new',
      trialIds: [trialId],
      prescreenNotes: [],
      consent: { sms: false, calls: false, doNotContact: false, doNotContactAt: null, doNotContactReason: null },
    });
    const fetched = await site.actor.get(`/api/candidates/${created.id}/`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
  });

  it('rejects bad input with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ lastName: 'NoFirst' }, 'firstName'],
      [{ firstName: 'A', phone: '12345' }, 'phone'],
      [{ firstName: 'A', email: 'not-an-email' }, 'email'],
      [{ firstName: 'A', dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
      [{ firstName: 'A', dateOfBirth: '2999-01-01' }, 'dateOfBirth'],
      [{ firstName: 'A', sex: 'sometimes' }, 'sex'],
      [{ firstName: 42 }, 'firstName'],
      [{ firstName: 'A', consent: { sms: 'yes' } }, 'consent.sms'],
    ];
    for (const [body, field] of cases) {
      const answer = await site.actor.post('/api/candidates/', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(`${field}:`);
    }
  });

  it('refuses a second candidate with the same phone (409)', async () => {
    const phone = nextPhone();
    await create({ firstName: 'First', phone });
    expect((await site.actor.post('/api/candidates/', { firstName: 'Second', phone })).status).toBe(409);
  });

  it('answers 404 for an organization out of reach', async () => {
    const other = await t.signUp({ organizationName: 'Elsewhere Research' });
    expect((await site.actor.request('POST', `/api/candidates/?organizationId=${other.organizationId}`, { firstName: 'X' })).status).toBe(404);
  });

  it('writes a created event and an audit record without personal values', async () => {
    const created = await create({ firstName: 'Audit', lastName: 'Me', email: 'audit.me@example.test' });
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audits.map((row) => row.action)).toEqual(['candidate.create']);
    expect(JSON.stringify(audits[0].changes)).not.toMatch(/Audit|audit\.me/);
    const history = await site.actor.get(`/api/contact-history?candidateId=${created.id}`);
    expect(history.body.events).toHaveLength(1);
    expect(history.body.events[0]).toMatchObject({ kind: 'created', actor: { userId: site.userId, label: 'Casey Coordinator' } });
  });

  it("the planner's settings are the database's own, so a pooler that refuses startup parameters is fine (migration 0037)", async () => {
    const settings = rowsOf<{ setting: string }>(
      await t.deps.db.execute(
        sql`select unnest(setconfig) as setting from pg_db_role_setting where setdatabase = (select oid from pg_database where datname = current_database())`,
      ),
    ).map((row) => row.setting);
    expect(settings).toContain('random_page_cost=1.1');
  });

  it('60 candidates created at once all answer 201, each with its activity event (through a transaction pooler too: decision 125)', async () => {
    // Concurrent transactions spread over the pool's connections, and behind PgBouncer (npm run test:pgbouncer) over
    // its server connections: a statement named on one connection (record_activity's once) is unknown on the next.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) => site.actor.post('/api/candidates/', { firstName: 'Pool', lastName: `Burst ${index}`, phone: nextPhone() })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const ids = answers.map((answer) => answer.body.id as string);
    const [events] = rowsOf<{ count: number }>(
      await t.deps.db.execute(
        sql`select count(*)::int as count from activity_event where kind = 'candidate_created' and candidate_id = any(${`{${ids.join(',')}}`}::uuid[])`,
      ),
    );
    expect(events.count).toBe(60);
  });
});

describe('PATCH /api/candidates/{candidateId}', () => {
  it('changes fields and status; each status change is in the contact history in order', async () => {
    const created = await create({ firstName: 'Grace', phone: nextPhone() });
    const first = await site.actor.patch(`/api/candidates/${created.id}/`, { status: 'contacted', city: 'Arlington' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'contacted', city: 'Arlington' });
    await site.actor.patch(`/api/candidates/${created.id}`, { status: 'prescreening', statusReason: 'Agreed to a prescreen call' });
    const history = await site.actor.get(`/api/contact-history/?candidateId=${created.id}`);
    expect(history.status).toBe(200);
    expect(history.body.events.map((event: { kind: string; summary: string }) => [event.kind, event.summary])).toEqual([
      ['created', 'Added by Casey Coordinator'],
      ['updated', 'Details updated: city'],
      ['status_change', 'Status changed from New to Contacted'],
      ['status_change', 'Status changed from Contacted to Prescreening'],
    ]);
    expect(history.body.events[3].details).toEqual({ from: 'contacted', to: 'prescreening', reason: 'Agreed to a prescreen call' });
    const times = history.body.events.map((event: { occurredAt: string }) => event.occurredAt);
    expect([...times].sort()).toEqual(times);
    const newest = await site.actor.get(`/api/contact-history?candidateId=${created.id}&order=desc`);
    expect(newest.body.events[0].summary).toBe('Status changed from Contacted to Prescreening');
  });

  it('keeps do-not-contact and its status consistent, with date and reason', async () => {
    const created = await create({ firstName: 'Dana', phone: nextPhone() });
    const flagged = await site.actor.patch(`/api/candidates/${created.id}`, { consent: { doNotContact: true } });
    expect(flagged.body.status).toBe('do_not_contact');
    expect(flagged.body.consent).toMatchObject({ doNotContact: true, doNotContactReason: 'Requested by candidate' });
    expect(flagged.body.consent.doNotContactAt).toBeTruthy();
    const back = await site.actor.patch(`/api/candidates/${created.id}`, { status: 'contacted' });
    expect(back.body).toMatchObject({ status: 'contacted', consent: { doNotContact: false, doNotContactAt: null, doNotContactReason: null } });
    const viaStatus = await site.actor.patch(`/api/candidates/${created.id}`, { status: 'do_not_contact', statusReason: 'Asked on the phone' });
    expect(viaStatus.body.consent).toMatchObject({ doNotContact: true, doNotContactReason: 'Asked on the phone' });
    expect((await site.actor.patch(`/api/candidates/${created.id}`, { status: 'enrolled', consent: { doNotContact: true } })).status).toBe(400);
    const kinds = (await site.actor.get(`/api/contact-history?candidateId=${created.id}`)).body.events.map((event: { kind: string }) => event.kind);
    expect(kinds.filter((kind: string) => kind === 'consent')).toHaveLength(3);
  });

  it('rejects bad input and unknown candidates', async () => {
    const created = await create({ firstName: 'Eve' });
    expect((await site.actor.patch(`/api/candidates/${created.id}`, { phone: 'call me' })).status).toBe(400);
    expect((await site.actor.patch(`/api/candidates/${created.id}`, { status: 'maybe' })).status).toBe(400);
    expect((await site.actor.patch(`/api/candidates/${created.id}`, {})).status).toBe(400);
    expect((await site.actor.patch('/api/candidates/00000000-0000-4000-8000-000000000000', { city: 'X' })).status).toBe(404);
    expect((await site.actor.get('/api/candidates/not-a-uuid')).status).toBe(404);
  });
});

describe('prescreen notes', () => {
  it('adds, lists and deletes notes by index; out of range is 404', async () => {
    const created = await create({ firstName: 'Noah' });
    const added = await site.actor.post(`/api/candidates/${created.id}/prescreen-notes`, { text: 'Takes metformin daily.' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ index: 0, text: 'Takes metformin daily.', authorUserId: site.userId, authorName: 'Casey Coordinator' });
    await site.actor.post(`/api/candidates/${created.id}/prescreen-notes`, { text: 'Second note' });
    const listed = await site.actor.get(`/api/candidates/${created.id}/prescreen-notes`);
    expect(listed.body.notes.map((note: { index: number; text: string }) => [note.index, note.text])).toEqual([
      [0, 'Takes metformin daily.'],
      [1, 'Second note'],
    ]);

    expect((await site.actor.post(`/api/candidates/${created.id}/prescreen-notes`, { text: '' })).status).toBe(400);
    expect((await site.actor.post(`/api/candidates/${created.id}/prescreen-notes`, { text: 'x'.repeat(5001) })).status).toBe(400);
    expect((await site.actor.delete(`/api/candidates/${created.id}/prescreen-notes/2`)).status).toBe(404);
    expect((await site.actor.delete(`/api/candidates/${created.id}/prescreen-notes/-1`)).status).toBe(404);
    expect((await site.actor.delete(`/api/candidates/${created.id}/prescreen-notes/one`)).status).toBe(404);
    expect((await site.actor.delete(`/api/candidates/${created.id}/prescreen-notes/0`)).status).toBe(204);
    const after = await site.actor.get(`/api/candidates/${created.id}`);
    expect(after.body.prescreenNotes).toMatchObject([{ index: 0, text: 'Second note' }]);

    const events = (await site.actor.get(`/api/contact-history?candidateId=${created.id}`)).body.events;
    expect(events.filter((event: { kind: string }) => event.kind === 'note').map((event: { summary: string }) => event.summary)).toEqual([
      'Prescreen note added',
      'Prescreen note added',
      'Prescreen note deleted',
    ]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(JSON.stringify(audits)).not.toContain('metformin');
  });
});

describe('GET /api/candidates', () => {
  let listSite: SignedUp;
  beforeAll(async () => {
    listSite = await t.signUp({ organizationName: 'List Site Research' });
    const names = ['Zoe Adams', 'Yan Baker', 'Xia Chen', 'Will Davis', 'Vera Evans', 'Uma Fox', 'Tom Green'];
    for (const [i, name] of names.entries()) {
      const [firstName, lastName] = name.split(' ');
      const answer = await listSite.actor.post('/api/candidates/', {
        firstName,
        lastName,
        phone: `+1415555${String(1200 + i)}`,
        email: `${firstName.toLowerCase()}@list.test`,
        status: i % 2 ? 'contacted' : 'new',
      });
      expect(answer.status).toBe(201);
    }
  });

  it('pages with a keyset cursor until the end, newest first by default', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await listSite.actor.get(`/api/candidates/?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      expect(answer.body.total).toBe(7);
      seen.push(...answer.body.candidates.map((row: { firstName: string }) => row.firstName));
      cursor = answer.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['Tom', 'Uma', 'Vera', 'Will', 'Xia', 'Yan', 'Zoe']);
  });

  it('sorts by last name both ways and pages in that order', async () => {
    const asc = await listSite.actor.get('/api/candidates/?sortBy=lastName&sortDir=asc&limit=4');
    expect(asc.body.candidates.map((row: { lastName: string }) => row.lastName)).toEqual(['Adams', 'Baker', 'Chen', 'Davis']);
    const rest = await listSite.actor.get(`/api/candidates/?sortBy=lastName&sortDir=asc&limit=4&cursor=${asc.body.nextCursor}`);
    expect(rest.body.candidates.map((row: { lastName: string }) => row.lastName)).toEqual(['Evans', 'Fox', 'Green']);
    expect(rest.body.nextCursor).toBeUndefined();
    const byStatus = await listSite.actor.get('/api/candidates/?sortBy=status&sortDir=asc&limit=50');
    expect(byStatus.body.candidates.map((row: { status: string }) => row.status)).toEqual(['contacted', 'contacted', 'contacted', 'new', 'new', 'new', 'new']);
    const updated = await listSite.actor.get('/api/candidates/?sortBy=updatedAt&limit=2');
    expect(updated.status).toBe(200);
    expect((await listSite.actor.get('/api/candidates/?cursor=garbage')).status).toBe(400);
  });

  it('searches by name, phone and email and filters by status', async () => {
    const find = async (query: string) =>
      (await listSite.actor.get(`/api/candidates/?${query}`)).body.candidates.map((row: { firstName: string }) => row.firstName);
    expect(await find('search=chen')).toEqual(['Xia']);
    expect(await find(`search=${encodeURIComponent('Vera Ev')}`)).toEqual(['Vera']);
    expect(await find(`search=${encodeURIComponent('(415) 555-1203')}`)).toEqual(['Will']);
    expect(await find('search=uma%40list')).toEqual(['Uma']);
    expect(await find('status=contacted')).toHaveLength(3);
    expect(await find('status=contacted,new')).toHaveLength(7);
    expect(await find('status=contacted&status=new&search=zoe')).toEqual(['Zoe']);
    expect((await listSite.actor.get('/api/candidates/?status=bogus')).status).toBe(400);
    expect((await listSite.actor.get('/api/candidates/?limit=501')).status).toBe(400);
    expect((await listSite.actor.get('/api/candidates/?limit=abc')).status).toBe(400);
  });

  it('filters by trial and never shows another organization', async () => {
    const listed = await site.actor.get(`/api/candidates/?trialId=${trialId}`);
    expect(listed.body.candidates.map((row: { firstName: string }) => row.firstName)).toEqual(['Ada']);
    expect(listed.body.candidates[0].trialIds).toEqual([trialId]);
    const mine = await listSite.actor.get(`/api/candidates/?organizationIds=${site.organizationId}`);
    expect(mine.body).toEqual({ candidates: [], total: 0, totalAtLeast: false });
  });

  it("a list row carries what the list screen and the pickers show, and the candidate's page has the rest (decision 114)", async () => {
    const rowSite = await t.signUp({ organizationName: 'Row Fields Site' });
    const [rowTrial] = await t.deps.db.insert(trial).values({ organizationId: rowSite.organizationId, title: 'Row study', status: 'recruiting' }).returning();
    const created = await rowSite.actor.post('/api/candidates/', {
      firstName: 'Rosa',
      lastName: 'Parkes',
      phone: '(212) 555-0177',
      email: 'rosa@example.test',
      dateOfBirth: '1971-03-04',
      sex: 'female',
      addressLine: '1 Main St',
      city: 'Springfield',
      postalCode: '10001',
      source: 'referral',
      customFields: { insurer: 'Acme' },
      status: 'contacted',
      consent: { sms: true, source: 'paper form' },
      trialIds: [rowTrial.id],
    });
    expect(created.status).toBe(201);
    const listed = await rowSite.actor.get('/api/candidates/');
    expect(listed.status).toBe(200);
    // Exactly the contract's list fields, with the values the screen shows (name, phone, email, status, trials,
    // source, created; the pickers' do-not-contact and phone).
    expect(listed.body.candidates).toEqual([
      {
        id: created.body.id,
        organizationId: rowSite.organizationId,
        firstName: 'Rosa',
        lastName: 'Parkes',
        phone: '+12125550177',
        // Formatted by the server for the list, which loads no phone-number library (decision 157).
        phoneDisplay: '(212) 555-0177',
        email: 'rosa@example.test',
        status: 'contacted',
        source: 'referral',
        consent: { sms: true, calls: false, doNotContact: false },
        trialIds: [rowTrial.id],
        createdAt: created.body.createdAt,
        updatedAt: created.body.updatedAt,
      },
    ]);
    expect(Object.keys(listed.body.candidates[0])).toEqual(CANDIDATE_LIST_FIELDS);
    // The candidate's page (the detail) still has everything.
    const detail = await rowSite.actor.get(`/api/candidates/${created.body.id}`);
    expect(detail.body).toMatchObject({
      dateOfBirth: '1971-03-04',
      addressLine: '1 Main St',
      city: 'Springfield',
      customFields: { insurer: 'Acme' },
      consent: { sms: true, smsSource: 'paper form' },
    });
  });

  it('answers the exact total at any size from the kept counts, and "at least 10,000" only for a counted search (decision 115)', async () => {
    const large = await t.signUp({ organizationName: 'Large Site' });
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, status)
      select ${large.organizationId}::uuid, 'Bulk' || g, 'Person', '+1267' || lpad(g::text, 7, '0'), case when g <= 20 then 'contacted' else 'new' end
      from generate_series(1, 10050) g`);
    const all = await large.actor.get('/api/candidates/?limit=5');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 10_050, totalAtLeast: false });
    expect(all.body.candidates).toHaveLength(5);
    const few = await large.actor.get('/api/candidates/?status=contacted');
    expect(few.body).toMatchObject({ total: 20, totalAtLeast: false });
    const both = await large.actor.get('/api/candidates/?status=contacted&status=new&limit=5');
    expect(both.body).toMatchObject({ total: 10_050, totalAtLeast: false });
    // A search matching more than the trigram ids carry is counted, and stops at the limit.
    const searched = await large.actor.get('/api/candidates/?search=Person&limit=5');
    expect(searched.body).toMatchObject({ total: 10_000, totalAtLeast: true });
    // Removing and changing candidates moves the totals at once.
    const ids = rowsOf<{ id: string }>(
      await t.deps.db.execute(sql`select id from candidate where organization_id = ${large.organizationId} and status = 'new' limit 60`),
    );
    expect((await large.actor.post('/api/candidates/bulk-delete', { candidateIds: ids.map((row) => row.id) })).body).toEqual({ deleted: 60 });
    expect((await large.actor.get('/api/candidates/?limit=5')).body).toMatchObject({ total: 9_990, totalAtLeast: false });
    const [one] = rowsOf<{ id: string }>(
      await t.deps.db.execute(sql`select id from candidate where organization_id = ${large.organizationId} and status = 'new' limit 1`),
    );
    expect((await large.actor.patch(`/api/candidates/${one.id}`, { status: 'contacted' })).status).toBe(200);
    expect((await large.actor.get('/api/candidates/?status=contacted')).body).toMatchObject({ total: 21 });
    expect((await large.actor.get('/api/candidates/?limit=5')).body).toMatchObject({ total: 9_990 });
  });

  it('a list whose user has gone is not read (499); a change whose user has gone is still made', async () => {
    // As @hono/node-server hands a request over once its client closed the connection: the signal is aborted.
    const gone = (method: string, path: string, body?: unknown) =>
      t.app.request(
        path,
        {
          method,
          signal: AbortSignal.abort(),
          headers: { cookie: listSite.actor.cookie, accept: 'application/json', origin: BASE_URL, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        { incoming: { socket: { remoteAddress: listSite.actor.ip } } },
      );
    expect((await gone('GET', '/api/candidates/?limit=5')).status).toBe(499);
    expect((await gone('POST', '/api/candidates/', { firstName: 'Lea', lastName: 'Leaver', phone: '+14155551299' })).status).toBe(201);
    const found = await listSite.actor.get('/api/candidates/?search=Leaver');
    expect(found.body.candidates.map((row: { lastName: string }) => row.lastName)).toEqual(['Leaver']);
  });

  it('a search whose first page holds every match counts that page, and paging on counts the rest', async () => {
    const many = await t.signUp({ organizationName: 'Paged Site' });
    await t.deps.db.execute(sql`
      insert into candidate (organization_id, first_name, last_name, phone, status)
      select ${many.organizationId}::uuid, 'Paged' || g, 'Person', '+1267' || lpad(g::text, 7, '0'), 'new'
      from generate_series(1, 7) g`);
    const whole = await many.actor.get('/api/candidates/?limit=7');
    expect(whole.body).toMatchObject({ total: 7, totalAtLeast: false });
    expect(whole.body.candidates).toHaveLength(7);
    expect(whole.body.nextCursor).toBeUndefined();
    const first = await many.actor.get('/api/candidates/?limit=3');
    expect(first.body).toMatchObject({ total: 7, totalAtLeast: false });
    const last = await many.actor.get(`/api/candidates/?limit=5&cursor=${first.body.nextCursor}`);
    expect(last.body).toMatchObject({ total: 7, totalAtLeast: false });
    expect(last.body.candidates).toHaveLength(4);
  });
});

describe('bulk actions', () => {
  it('reset-status returns candidates to new and keeps the history', async () => {
    const a = await create({ firstName: 'Reset', lastName: 'One', status: 'prescreen_failed' });
    const b = await create({ firstName: 'Reset', lastName: 'Two' });
    const c = await create({ firstName: 'Reset', lastName: 'Three', status: 'do_not_contact' });
    const answer = await site.actor.patch(`/api/candidates/reset-status?organizationId=${site.organizationId}`, { candidateIds: [a.id, b.id, c.id] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ reset: 1, unchanged: [b.id], skippedDoNotContact: [c.id] });
    expect((await site.actor.get(`/api/candidates/${a.id}`)).body.status).toBe('new');
    const events = (await site.actor.get(`/api/contact-history?candidateId=${a.id}`)).body.events;
    expect(events.map((event: { summary: string }) => event.summary)).toEqual(['Added by Casey Coordinator', 'Status changed from Prescreen failed to New']);
    expect((await site.actor.patch('/api/candidates/reset-status', { candidateIds: [] })).status).toBe(400);
    expect((await site.actor.patch('/api/candidates/reset-status', { candidateIds: [a.id, '00000000-0000-4000-8000-000000000000'] })).status).toBe(404);
  });

  it('bulk-update changes status and links/unlinks a trial; an unknown id changes nothing', async () => {
    const a = await create({ firstName: 'Bulk', lastName: 'A' });
    const b = await create({ firstName: 'Bulk', lastName: 'B' });
    const answer = await site.actor.post('/api/candidates/bulk-update', { candidateIds: [a.id, b.id], status: 'contacted', addTrialId: trialId });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ updated: 2 });
    const fetched = (await site.actor.get(`/api/candidates/${b.id}`)).body;
    expect(fetched).toMatchObject({ status: 'contacted', trialIds: [trialId] });
    await site.actor.post('/api/candidates/bulk-update', { candidateIds: [a.id], removeTrialId: trialId });
    expect((await site.actor.get(`/api/candidates/${a.id}`)).body.trialIds).toEqual([]);

    const refused = await site.actor.post('/api/candidates/bulk-update', { candidateIds: [a.id, 'ffffffff-0000-4000-8000-000000000000'], status: 'enrolled' });
    expect(refused.status).toBe(404);
    expect((await site.actor.get(`/api/candidates/${a.id}`)).body.status).toBe('contacted');
    expect((await site.actor.post('/api/candidates/bulk-update', { candidateIds: [a.id] })).status).toBe(400);
    expect((await site.actor.post('/api/candidates/bulk-update', { candidateIds: [a.id], addTrialId: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    );
  });

  it('bulk-delete removes all or nothing', async () => {
    const a = await create({ firstName: 'Gone', lastName: 'A' });
    const b = await create({ firstName: 'Gone', lastName: 'B' });
    expect((await site.actor.post('/api/candidates/bulk-delete', { candidateIds: [a.id, 'ffffffff-0000-4000-8000-000000000000'] })).status).toBe(404);
    expect((await site.actor.get(`/api/candidates/${a.id}`)).status).toBe(200);
    const answer = await site.actor.post('/api/candidates/bulk-delete', { candidateIds: [a.id, b.id] });
    expect(answer.body).toEqual({ deleted: 2 });
    expect((await site.actor.get(`/api/candidates/${b.id}`)).status).toBe(404);
  });
});

describe('DELETE /api/candidates/{candidateId}', () => {
  it('removes the personal data for good and leaves only an audit record', async () => {
    const phone = nextPhone();
    const created = await create({ firstName: 'Forget', lastName: 'Me', phone, email: 'forget.me@example.test', trialIds: [trialId] });
    await site.actor.post(`/api/candidates/${created.id}/prescreen-notes`, { text: 'Private note' });
    await site.actor.patch(`/api/candidates/${created.id}`, { status: 'contacted' });
    expect((await site.actor.delete(`/api/candidates/${created.id}/`)).status).toBe(204);

    expect((await site.actor.get(`/api/candidates/${created.id}`)).status).toBe(404);
    expect((await site.actor.get(`/api/contact-history?candidateId=${created.id}`)).status).toBe(404);
    expect(await t.deps.db.select().from(candidate).where(eq(candidate.id, created.id))).toEqual([]);
    expect(await t.deps.db.select().from(contactEvent).where(eq(contactEvent.candidateId, created.id))).toEqual([]);
    expect(await t.deps.db.select().from(candidateTrial).where(eq(candidateTrial.candidateId, created.id))).toEqual([]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audits.map((row) => row.action)).toContain('candidate.delete');
    // The whole phone number, not "555": a random uuid in the audit rows may contain those digits.
    const written = JSON.stringify(audits);
    for (const personal of ['Forget', 'forget.me', 'Private note', phone, phone.slice(-7)]) expect(written).not.toContain(personal);
    expect((await site.actor.delete(`/api/candidates/${created.id}`)).status).toBe(404);
  });
});

describe('GET /api/candidates/:id reads the candidate and their trials together (decision 111)', () => {
  it("gives the candidate's trials in the order they were linked, as the list does, and no one else's", async () => {
    const [second] = await t.deps.db.insert(trial).values({ organizationId: site.organizationId, title: 'Linked first', status: 'recruiting' }).returning();
    const person = await create({ firstName: 'Order', lastName: 'Oftrials', phone: nextPhone() });
    const other = await create({ firstName: 'Someone', lastName: 'Else', phone: nextPhone() });
    // Linked out of id order: `second` first, then the suite's trial; the other person has only the suite's trial.
    await t.deps.db.insert(candidateTrial).values([
      { candidateId: person.id, trialId: second.id, organizationId: site.organizationId, linkedAt: new Date(Date.now() - 60_000) },
      { candidateId: person.id, trialId, organizationId: site.organizationId, linkedAt: new Date() },
      { candidateId: other.id, trialId, organizationId: site.organizationId },
    ]);
    const fetched = await site.actor.get(`/api/candidates/${person.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.trialIds).toEqual([second.id, trialId]);
    const listed = await site.actor.get(`/api/candidates?search=${encodeURIComponent('order oftrials')}`);
    expect(listed.body.candidates.map((row: { trialIds: string[] }) => row.trialIds)).toEqual([[second.id, trialId]]);
    expect((await site.actor.get(`/api/candidates/${other.id}`)).body.trialIds).toEqual([trialId]);
  });

  it("answers 404 for another organization's candidate, and for an id that is not one", async () => {
    const elsewhere = await t.signUp({ name: 'Other Site', organizationName: 'Elsewhere Research' });
    const theirs = await elsewhere.actor.post('/api/candidates/', { firstName: 'Not', lastName: 'Yours', phone: nextPhone() });
    expect(theirs.status).toBe(201);
    expect((await site.actor.get(`/api/candidates/${theirs.body.id}`)).status).toBe(404);
    expect((await site.actor.get('/api/candidates/not-a-uuid')).status).toBe(404);
    expect((await elsewhere.actor.get(`/api/candidates/${theirs.body.id}`)).status).toBe(200);
  });
});
