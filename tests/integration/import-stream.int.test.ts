import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../src/contract/candidates';
import { auditLog, candidate, processingRun, processingRunItem, trial } from '../../src/server/db/schema';
import { whenRunSettled } from '../../src/server/features/candidates/import-runner';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/** POST /api/candidates/bulk/stream (decision 046): the CSV file as the body, read as it arrives. */

let t: TestApp;
let site: SignedUp;
let other: SignedUp;
let trialId: string;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Stream Import Site' });
  other = await t.signUp({ organizationName: 'Other Stream Site' });
  const [row] = await t.deps.db.insert(trial).values({ organizationId: site.organizationId, title: 'Asthma study' }).returning();
  trialId = row.id;
}, 60_000);
afterAll(() => t?.close());

/** The body as a stream of small chunks, so records and multi-byte characters are cut across reads. */
function chunked(text: string, size = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

/** A body of `rows` data rows generated as it is read (never a whole string in memory); `pulled` counts the rows handed to the reader. */
function generated(rows: number, pulled = { rows: 0 }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next === 0) controller.enqueue(encoder.encode('First Name,Last Name\n'));
      if (next >= rows) return controller.close();
      const end = Math.min(rows, next + 10_000);
      let text = '';
      for (; next < end; next++) text += `P${next},Row\n`;
      pulled.rows = next;
      controller.enqueue(encoder.encode(text));
    },
  });
}

const counts = async (organizationId: string) => ({
  runs: (await t.deps.db.select().from(processingRun).where(eq(processingRun.organizationId, organizationId))).length,
  items: (await t.deps.db.select({ id: processingRunItem.id }).from(processingRunItem).where(eq(processingRunItem.organizationId, organizationId))).length,
  candidates: (await t.deps.db.select({ id: candidate.id }).from(candidate).where(eq(candidate.organizationId, organizationId))).length,
});

describe('POST /api/candidates/bulk/stream', () => {
  it('imports a CSV body read in small chunks: quoted line breaks, a BOM, multi-byte names, the mapping from the query', async () => {
    const csv = [
      '\uFEFFGiven,Surname,Mobile,Remarks,Skip me',
      'Zoë,Ångström,(212) 555-0301,"line one',
      'line two, with a comma",x',
      '',
      'Ada,Lovelace,212-555-0302,"she said ""hi""",y',
      'Grace,Hopper,212-555-0301,,z',
      '',
    ].join('\r\n');
    const mapping = encodeURIComponent(JSON.stringify({ Given: 'firstName', 'Skip me': 'ignore' }));
    const answer = await site.actor.upload(`/api/candidates/bulk/stream?mapping=${mapping}&trialId=${trialId}&label=Clinic%20list`, chunked(csv));
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.run).toMatchObject({ status: 'running', total: 3, label: 'Clinic list' });
    await whenRunSettled(answer.body.run.id);
    const done = await site.actor.get(`/api/processing-runs/${answer.body.run.id}/data?limit=10`);
    expect(done.body.run).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 2, merged: 1 });
    const list = await site.actor.get(`/api/candidates/?trialId=${trialId}&sortBy=lastName&sortDir=asc`);
    expect(list.body.candidates.map((c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`)).toEqual(['Ada Lovelace', 'Zoë Ångström']);
    const [ada, zoe] = await Promise.all(list.body.candidates.map(async (c: { id: string }) => (await site.actor.get(`/api/candidates/${c.id}`)).body));
    // A column the import does not know stays a custom field, its quoted line breaks and quotes kept (a "Notes" column
    // would be read as a clinical note: decision 132).
    expect(zoe.customFields).toEqual({ Remarks: 'line one\r\nline two, with a comma' });
    expect(ada.customFields).toEqual({ Remarks: 'she said "hi"' });
  });

  it('takes a semicolon-separated file and guesses the mapping from its header', async () => {
    const answer = await site.actor.upload('/api/candidates/bulk/stream?defaultCountry=FR', 'First Name;Last Name;Phone\nLouise;Michel;06 12 34 56 78\n');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    await whenRunSettled(answer.body.run.id);
    const done = await site.actor.get(`/api/processing-runs/${answer.body.run.id}/data?limit=10`);
    expect(done.body.run).toMatchObject({ status: 'completed', succeeded: 1 });
    expect(done.body.items[0]).toMatchObject({ outcome: 'created' });
  });

  it('refreshes the statistics after the first batch and at the end, and leaves no pending item or used input behind', async () => {
    const stats = async () => {
      const result = (await t.deps.db.execute(
        sql`select analyze_count::int as n, last_analyze from pg_stat_user_tables where relname = 'candidate'`,
      )) as unknown as { rows: Array<{ n: number; last_analyze: string | null }> };
      return result.rows[0];
    };
    const before = await stats();
    const rows = Array.from({ length: 2500 }, (_, i) => (i === 1700 ? 'Nobody,bad-email' : `Stat${i},stat.${i}@example.test`)).join('\n');
    const answer = await site.actor.upload('/api/candidates/bulk/stream', `First Name,Email\n${rows}\n`);
    expect(answer.status).toBe(202);
    await whenRunSettled(answer.body.run.id);
    // Three batches of 1,000: ANALYZE after the first (later batches' duplicate lookups plan on fresh figures) and after the last.
    const after = await stats();
    // (PostgreSQL's autovacuum may add one of its own meanwhile; PGlite has none.)
    expect(after.n - before.n).toBeGreaterThanOrEqual(2);
    expect(after.last_analyze).not.toBeNull();
    const items = await t.deps.db.select().from(processingRunItem).where(eq(processingRunItem.runId, answer.body.run.id));
    expect(items).toHaveLength(2500);
    expect(items.filter((item) => item.outcome === 'pending')).toEqual([]);
    // Personal data stays only where someone must read it to fix the row.
    expect(items.filter((item) => item.input !== null).map((item) => [item.rowNumber, item.outcome])).toEqual([[1701, 'invalid']]);
  });

  it(`refuses a file over ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows with a 413 naming the limit at its first row over, storing nothing`, async () => {
    const before = await counts(site.organizationId);
    // Twice the limit: the reader stops at the first row over it instead of reading the rest of the file.
    const pulled = { rows: 0 };
    const answer = await site.actor.upload('/api/candidates/bulk/stream', generated(2 * IMPORT_MAX_ROWS, pulled));
    expect(answer.status).toBe(413);
    expect(answer.body.error.message).toContain(`more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows (one million)`);
    expect(pulled.rows).toBeLessThanOrEqual(IMPORT_MAX_ROWS + 20_000);
    expect(await counts(site.organizationId)).toEqual(before);
    expect(await t.deps.db.select().from(processingRun).where(eq(processingRun.status, 'pending'))).toEqual([]);
  }, 300_000);

  it('refuses a malformed line with a 400 naming it, after earlier rows were stored: nothing stays, no pending run', async () => {
    const before = await counts(site.organizationId);
    const good = Array.from({ length: 12_000 }, (_, i) => `Row${i},Fine`).join('\n');
    const answer = await site.actor.upload('/api/candidates/bulk/stream', chunked(`First Name,Last Name\n${good}\nBad,"unclosed\n`, 4096));
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/line 12002/);
    const wide = await site.actor.upload('/api/candidates/bulk/stream', 'First Name\nAnn\nBen,extra\n');
    expect(wide.status).toBe(400);
    expect(wide.body.error.message).toMatch(/row 2 \(after the header\)/);
    const control = await site.actor.upload('/api/candidates/bulk/stream', 'First Name\nAnn\nB\u0000en\n');
    expect(control.status).toBe(400);
    expect(control.body.error.message).toMatch(/line 3/);
    expect(await counts(site.organizationId)).toEqual(before);
    expect(await t.deps.db.select().from(processingRun).where(eq(processingRun.status, 'pending'))).toEqual([]);
  });

  it('refuses an empty file, another content type (415) and a body over the byte limit (413 from Content-Length)', async () => {
    const before = await counts(site.organizationId);
    expect((await site.actor.upload('/api/candidates/bulk/stream', '')).status).toBe(400);
    expect((await site.actor.upload('/api/candidates/bulk/stream', '\n\n')).status).toBe(400);
    expect((await site.actor.upload('/api/candidates/bulk/stream', '{"a":1}', 'application/json')).status).toBe(415);
    const huge = await site.actor.request('POST', '/api/candidates/bulk/stream', undefined, {
      'content-type': 'text/csv',
      'content-length': String(600 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    const mapping = await site.actor.upload('/api/candidates/bulk/stream?mapping=not-json', 'First Name\nAnn\n');
    expect(mapping.status).toBe(400);
    expect(mapping.body.error.message).toContain('mapping');
    const consent = await site.actor.upload('/api/candidates/bulk/stream', 'First Name,SMS consent\nAnn,yes\n');
    expect(consent.status).toBe(400);
    expect(consent.body.error.message).toContain('consentSource');
    expect(await counts(site.organizationId)).toEqual(before);
  });

  it("puts the run in the uploader's organization; another organization's id or trial is 404 with nothing stored", async () => {
    const answer = await other.actor.upload('/api/candidates/bulk/stream', 'First Name,Phone\nOtto,212-555-0399\n');
    expect(answer.status).toBe(202);
    await whenRunSettled(answer.body.run.id);
    const [run] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, answer.body.run.id));
    expect(run.organizationId).toBe(other.organizationId);
    expect((await site.actor.get(`/api/processing-runs/${run.id}/data`)).status).toBe(404);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, run.id));
    expect(audits.every((entry) => entry.organizationId === other.organizationId)).toBe(true);

    const before = await counts(site.organizationId);
    const intoA = await other.actor.upload(`/api/candidates/bulk/stream?organizationId=${site.organizationId}`, 'First Name\nIntruder\n');
    expect(intoA.status).toBe(404);
    const withTrial = await other.actor.upload(`/api/candidates/bulk/stream?trialId=${trialId}`, 'First Name\nIntruder\n');
    expect(withTrial.status).toBe(404);
    expect(await counts(site.organizationId)).toEqual(before);
  });
});
