import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../src/contract/candidates';
import { candidate, contactEvent, processingRun, processingRunItem, trial } from '../../src/server/db/schema';
import { resumeInterruptedRuns, whenRunSettled } from '../../src/server/features/candidates/import-runner';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/candidates', name), 'utf8');

let t: TestApp;
let site: SignedUp;
let trialId: string;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Ivy Importer', organizationName: 'Import Research Site' });
  const [row] = await t.deps.db.insert(trial).values({ organizationId: site.organizationId, title: 'Migraine study' }).returning();
  trialId = row.id;
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await t?.close();
});

/** Polls the run until it is no longer pending or running. */
async function waitForRun(actor: Actor, runId: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const answer = await actor.get(`/api/processing-runs/${runId}/data?limit=1000`);
    expect(answer.status).toBe(200);
    if (!['pending', 'running'].includes(answer.body.run.status)) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('run did not finish');
}

async function importCsv(actor: Actor, data: string, options: Record<string, unknown> = {}) {
  const answer = await actor.post('/api/candidates/bulk', { format: 'csv', data, duplicates: 'merge', ...options });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return waitForRun(actor, answer.body.run.id);
}

describe('POST /api/candidates/bulk/preview', () => {
  it('guesses the mapping and validates a sample without writing anything', async () => {
    const before = await t.deps.db.select().from(processingRun);
    const answer = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: fixture('mixed.csv'), duplicates: 'merge' });
    expect(answer.status).toBe(200);
    expect(answer.body.mapping).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Mobile: 'phone',
      'E-mail': 'email',
      DOB: 'dateOfBirth',
      Gender: 'sex',
      Zip: 'postalCode',
      // A notes column is a clinical note, read into facts on import (decision 132).
      'Referral Notes': 'notes',
    });
    expect(answer.body.totalRows).toBe(8);
    expect(answer.body.sample).toEqual({ size: 8, valid: 4, invalid: 4 });
    // Invalid rows first (issue 15: a bad row must not hide after the first page), then the valid ones in file order.
    expect(answer.body.rows.map((row: { rowNumber: number }) => row.rowNumber)).toEqual([3, 4, 5, 6, 1, 2, 7, 8]);
    expect(answer.body.rows[0]).toMatchObject({ valid: false, errors: [{ field: 'firstName' }] });
    expect(answer.body.rows[4]).toMatchObject({
      rowNumber: 1,
      valid: true,
      values: { firstName: 'Ada', phone: '+12125550101', sex: 'female' },
    });
    expect(answer.body.rows[5].values).toMatchObject({ email: 'grace@example.test', dateOfBirth: '1976-12-09' });
    expect(await t.deps.db.select().from(processingRun)).toEqual(before);
  });

  it('maps JSON keys like "given name", "cell", "Date of Birth", "Postal code"', async () => {
    const answer = await site.actor.post('/api/candidates/bulk/preview', { format: 'json', data: JSON.parse(fixture('contacts.json')), defaultCountry: 'FR' });
    expect(answer.body.mapping).toMatchObject({
      'given name': 'firstName',
      surname: 'lastName',
      cell: 'phone',
      'Date of Birth': 'dateOfBirth',
      'Postal code': 'postalCode',
    });
    expect(answer.body.rows.map((row: { values: { phone: string } }) => row.values.phone)).toEqual(['+33612345678', '+33612345679']);
  });
});

describe('POST /api/candidates/bulk', () => {
  it('imports good rows and reports bad ones by row number and field', async () => {
    const body = await importCsv(site.actor, fixture('mixed.csv'), { trialId });
    expect(body.run).toMatchObject({
      kind: 'candidate_import',
      status: 'completed',
      total: 8,
      processed: 8,
      succeeded: 3,
      merged: 1,
      skipped: 0,
      failed: 4,
      progress: 1,
    });
    expect(body.run.finishedAt).toBeTruthy();
    const byRow = Object.fromEntries(body.items.map((item: { rowNumber: number }) => [item.rowNumber, item]));
    expect(byRow[1]).toMatchObject({ outcome: 'created', input: null });
    expect(byRow[3]).toMatchObject({ outcome: 'invalid', errors: [{ field: 'firstName', message: 'First name is required' }] });
    expect(byRow[4]).toMatchObject({ outcome: 'invalid', errors: [{ field: 'phone' }] });
    expect(byRow[5]).toMatchObject({ outcome: 'invalid', errors: [{ field: 'dateOfBirth', message: 'Not a valid date: enter it as YYYY-MM-DD' }] });
    expect(byRow[6]).toMatchObject({ outcome: 'invalid', errors: [{ field: 'dateOfBirth', message: 'Date of birth cannot be in the future' }] });
    expect(byRow[4].input).toMatchObject({ phone: '12345' });
    // Row 7 has row 1's phone: merged into it (filling nothing it already had), same candidate.
    expect(byRow[7]).toMatchObject({ outcome: 'merged', candidateId: byRow[1].candidateId });
    expect(body.outcomes).toEqual({ created: 3, merged: 1, invalid: 4 });

    const invalidOnly = await site.actor.get(`/api/processing-runs/${body.run.id}/data?outcome=invalid&limit=2&offset=1`);
    expect(invalidOnly.body.itemTotal).toBe(4);
    expect(invalidOnly.body.items.map((item: { rowNumber: number }) => item.rowNumber)).toEqual([4, 5]);

    const ada = (await site.actor.get(`/api/candidates/${byRow[1].candidateId}`)).body;
    expect(ada).toMatchObject({ firstName: 'Ada', phone: '+12125550101', sex: 'female', source: 'import', importRunId: body.run.id, trialIds: [trialId] });
    const history = (await site.actor.get(`/api/contact-history?candidateId=${ada.id}`)).body.events;
    // Row 7 merged into the row-1 candidate before it was written: one created event naming both rows.
    expect(history.map((event: { kind: string; actor: { label: string } }) => [event.kind, event.actor.label])).toEqual([['created', 'Import']]);
    expect(history[0].details).toEqual({ runId: body.run.id, rowNumbers: [1, 7] });
  });

  it('merge fills empty fields of an existing candidate; skip leaves it as it was', async () => {
    const merged = await importCsv(
      site.actor,
      'Name,Phone,City,Email\nAlan Turing,212-555-0108,London,\nGrace Hopper,212 555 0102,Arlington,grace.other@example.test\n',
    );
    expect(merged.run).toMatchObject({ succeeded: 0, merged: 2 });
    const alan = (await site.actor.get(`/api/candidates/${merged.items[0].candidateId}`)).body;
    expect(alan).toMatchObject({ firstName: 'Alan', lastName: 'Turing', city: 'London', email: 'alan@example.test' });
    const grace = (await site.actor.get(`/api/candidates/${merged.items[1].candidateId}`)).body;
    expect(grace).toMatchObject({ city: 'Arlington', email: 'grace@example.test' });
    const graceHistory = (await site.actor.get(`/api/contact-history?candidateId=${grace.id}`)).body.events;
    expect(graceHistory.at(-1)).toMatchObject({ kind: 'import', summary: 'Import merged: filled city', actor: { label: 'Import' } });

    const skipped = await importCsv(site.actor, 'Name,Phone,Region\nAlan Turing,212-555-0108,Cheshire\nNew Person,212-555-0177,\n', { duplicates: 'skip' });
    expect(skipped.run).toMatchObject({ succeeded: 1, skipped: 1, merged: 0 });
    expect(skipped.items[0]).toMatchObject({ outcome: 'skipped', candidateId: alan.id, errors: [{ field: 'phone' }] });
    expect((await site.actor.get(`/api/candidates/${alan.id}`)).body.region).toBeNull();
  });

  it('handles duplicates inside the file itself (by phone and by email)', async () => {
    const csv = [
      'First Name,Last Name,Phone,Email,Zip',
      'Rosa,Franklin,+1 617 555 0140,rosa@dup.test,',
      'Rosa,Franklin,617-555-0140,,02139',
      'R.,Franklin,,ROSA@dup.test,',
      'Other,Person,617-555-0141,other@dup.test,',
    ].join('\n');
    const merged = await importCsv(site.actor, csv);
    expect(merged.run).toMatchObject({ succeeded: 2, merged: 2 });
    const [first, second, third] = merged.items;
    expect(second.candidateId).toBe(first.candidateId);
    expect(third.candidateId).toBe(first.candidateId);
    expect((await site.actor.get(`/api/candidates/${first.candidateId}`)).body).toMatchObject({ firstName: 'Rosa', postalCode: '02139' });

    const skipSite = await t.signUp({ organizationName: 'Skip Site Research' });
    const skipped = await importCsv(skipSite.actor, csv, { duplicates: 'skip' });
    expect(skipped.run).toMatchObject({ succeeded: 2, skipped: 2 });
    expect(skipped.items[1].errors[0].message).toContain('row 1 of this file');
  });

  it("gives every candidate a run creates one 'created' event naming its rows, across batches, and a later batch's duplicate an 'import' event", async () => {
    const own = await t.signUp({ organizationName: 'Event Count Research' });
    const lines = ['First Name,Last Name,Phone,Email,Zip'];
    for (let row = 1; row <= 2300; row++) lines.push(`Pat${row},Lee,(212) 300-${String(row).padStart(4, '0')},pat${row}@events.test,`);
    // Row 2301 (third batch) has row 10's phone and a zip code: merged into the candidate the first batch created.
    lines.push('Pat10,Lee,(212) 300-0010,,10001');
    const done = await importCsv(own.actor, lines.join('\n'));
    expect(done.run).toMatchObject({ total: 2301, succeeded: 2300, merged: 1 });

    const events = await t.deps.db
      .select({ candidateId: contactEvent.candidateId, kind: contactEvent.kind, details: contactEvent.details, occurredAt: contactEvent.occurredAt })
      .from(contactEvent)
      .where(eq(contactEvent.organizationId, own.organizationId))
      .orderBy(contactEvent.occurredAt);
    const created = events.filter((event) => event.kind === 'created');
    const candidates = await t.deps.db.select({ id: candidate.id }).from(candidate).where(eq(candidate.organizationId, own.organizationId));
    expect(created).toHaveLength(2300);
    expect(new Set(created.map((event) => event.candidateId))).toEqual(new Set(candidates.map((row) => row.id)));
    // In the file's order, each naming its own row.
    expect(created.map((event) => (event.details as { rowNumbers: number[] }).rowNumbers[0])).toEqual(Array.from({ length: 2300 }, (_, i) => i + 1));
    const rowTen = created[9];
    expect(events.filter((event) => event.kind === 'import')).toEqual([
      expect.objectContaining({ candidateId: rowTen.candidateId, details: expect.objectContaining({ runId: done.run.id, rowNumbers: [2301] }) }),
    ]);
  });

  it('imports JSON rows with a default country and an explicit mapping', async () => {
    const rows = JSON.parse(fixture('contacts.json'));
    const answer = await site.actor.post('/api/candidates/bulk', {
      format: 'json',
      data: rows,
      defaultCountry: 'FR',
      duplicates: 'merge',
      mapping: { 'Postal code': 'ignore' },
    });
    expect(answer.status).toBe(202);
    const body = await waitForRun(site.actor, answer.body.run.id);
    expect(body.run).toMatchObject({ succeeded: 2, failed: 0 });
    const pierre = (await site.actor.get(`/api/candidates/${body.items[1].candidateId}`)).body;
    expect(pierre).toMatchObject({ firstName: 'Pierre', phone: '+33612345679', postalCode: null });
  });

  it('rejects unparseable CSV, too many rows and wrong types with a 400 before writing anything', async () => {
    const runsBefore = (await t.deps.db.select().from(processingRun)).length;
    const broken = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: fixture('broken.csv'), duplicates: 'merge' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/line 3/);
    expect(broken.body.error.message).toMatch(/[Qq]uote/);

    const extraFields = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: 'a,b\n1,2,3\n', duplicates: 'merge' });
    expect(extraFields.status).toBe(400);

    const tooMany = `First Name\n${'x\n'.repeat(IMPORT_MAX_ROWS + 1)}`;
    const big = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: tooMany, duplicates: 'merge' });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain((IMPORT_MAX_ROWS + 1).toLocaleString('en-US'));
    const bigJson = await site.actor.post('/api/candidates/bulk', {
      format: 'json',
      data: Array.from({ length: IMPORT_MAX_ROWS + 1 }, () => ({ n: 'x' })),
      duplicates: 'merge',
    });
    expect(bigJson.status).toBe(400);

    for (const body of [
      { format: 'xml', data: 'a' },
      { format: 'csv', data: [{ a: 1 }] },
      { format: 'json', data: 'a,b' },
      { format: 'csv', data: 'a\n1', duplicates: 'replace' },
      { format: 'csv', data: 'a\n1', defaultCountry: 'USA' },
      { format: 'csv', data: '' },
      { format: 'csv', data: 'a\n1', trialId: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const answer = await site.actor.post('/api/candidates/bulk', body);
      expect([400, 404], JSON.stringify(body)).toContain(answer.status);
    }
    expect((await t.deps.db.select().from(processingRun)).length).toBe(runsBefore);
  });
});

describe('interrupted runs', () => {
  it('resumes a run left running from its pending items; committed batches are not redone', async () => {
    const orgId = site.organizationId;
    const [run] = await t.deps.db
      .insert(processingRun)
      .values({
        organizationId: orgId,
        kind: 'candidate_import',
        label: 'Interrupted import',
        status: 'running',
        total: 3,
        processed: 1,
        succeeded: 1,
        startedAt: new Date(),
        createdByUserId: site.userId,
        options: { duplicates: 'merge', defaultCountry: 'US', trialId: null, mapping: {}, format: 'csv' },
      })
      .returning();
    // Row 1 was committed by an earlier batch (its candidate exists); rows 2 and 3 are still pending.
    const [done] = await t.deps.db
      .insert(candidate)
      .values({ organizationId: orgId, firstName: 'Committed', phone: '+13125550190', importRunId: run.id, source: 'import' })
      .returning();
    await t.deps.db.insert(processingRunItem).values([
      { organizationId: orgId, runId: run.id, rowNumber: 1, outcome: 'created', candidateId: done.id, processedAt: new Date() },
      { organizationId: orgId, runId: run.id, rowNumber: 2, input: { firstName: 'Pending', lastName: 'Two', phone: '312-555-0191' } },
      { organizationId: orgId, runId: run.id, rowNumber: 3, input: { firstName: 'Pending', lastName: 'Three', phone: 'nope' } },
    ]);
    // A run that died while its rows were being stored: failed, its partial rows removed.
    const [partial] = await t.deps.db
      .insert(processingRun)
      .values({
        organizationId: orgId,
        kind: 'candidate_import',
        label: 'Half stored',
        status: 'pending',
        total: 10,
        // Its creator's claim lapsed: the request storing the rows is gone (decision 122).
        leaseOwner: 'a-process-that-died',
        leaseExpiresAt: new Date(Date.now() - 1000),
      })
      .returning();
    await t.deps.db.insert(processingRunItem).values({ organizationId: orgId, runId: partial.id, rowNumber: 1, input: { firstName: 'Half' } });

    const resumed = await resumeInterruptedRuns(t.deps);
    expect(resumed).toEqual([run.id]);
    await whenRunSettled(run.id);
    const body = await waitForRun(site.actor, run.id);
    expect(body.run).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 2, failed: 1 });
    expect(body.items.map((item: { outcome: string }) => item.outcome)).toEqual(['created', 'created', 'invalid']);
    const created = await t.deps.db.select().from(candidate).where(eq(candidate.importRunId, run.id));
    expect(created.map((row) => row.firstName).sort()).toEqual(['Committed', 'Pending']);

    const [failed] = await t.deps.db.select().from(processingRun).where(eq(processingRun.id, partial.id));
    expect(failed.status).toBe('failed');
    expect(await t.deps.db.select().from(processingRunItem).where(eq(processingRunItem.runId, partial.id))).toEqual([]);
  });
});

describe('processing runs', () => {
  it('lists runs newest first, with summary counts', async () => {
    const list = await site.actor.get('/api/processing-runs/');
    expect(list.status).toBe(200);
    const runs = list.body.runs as Array<{ createdAt: string; organizationId: string; label: string }>;
    expect(runs.length).toBeGreaterThan(3);
    expect(runs.map((run) => run.createdAt)).toEqual([...runs.map((run) => run.createdAt)].sort().reverse());
    expect(new Set(runs.map((run) => run.organizationId))).toEqual(new Set([site.organizationId]));

    const data = await site.actor.get(`/api/processing-runs/data?organizationIds=${site.organizationId}`);
    expect(data.status).toBe(200);
    expect(data.body.summary.runs).toBe(runs.length);
    expect(data.body.summary.byStatus.completed + data.body.summary.byStatus.failed).toBe(runs.length);
    expect(data.body.summary.rows.total).toBe(data.body.runs.reduce((sum: number, run: { total: number }) => sum + run.total, 0));

    const searched = await site.actor.get('/api/processing-runs/?search=interrupted');
    expect(searched.body.runs.map((run: { label: string }) => run.label)).toEqual(['Interrupted import']);
    expect((await site.actor.get('/api/processing-runs/00000000-0000-4000-8000-000000000000/data')).status).toBe(404);
    expect((await site.actor.get(`/api/processing-runs/${runs[0]}/data?limit=0`)).status).toBe(400);
  });
});

describe('Time-ordered ids (decision 117)', () => {
  const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const millisecondOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

  it('gives imported people, people added by hand and their contact events UUID version 7 ids of the time they were made', async () => {
    const before = Date.now();
    const body = await importCsv(site.actor, 'First Name,Last Name,Phone\nOrla,Vance,+12025550171\nPiet,Vance,+12025550172\n');
    const added = await site.actor.post('/api/candidates', { firstName: 'Quinn', lastName: 'Vance', phone: '+12025550173' });
    expect(added.status).toBe(201);
    const after = Date.now();

    const imported = body.items.map((item: { candidateId: string }) => item.candidateId);
    expect(imported).toHaveLength(2);
    for (const id of [...imported, added.body.id]) {
      expect(id).toMatch(UUID_V7);
      expect(millisecondOf(id)).toBeGreaterThanOrEqual(before);
      expect(millisecondOf(id)).toBeLessThanOrEqual(after);
    }
    const events = await t.deps.db.select().from(contactEvent).where(eq(contactEvent.candidateId, imported[0]));
    expect(events.map((event) => event.kind)).toContain('created');
    for (const event of events) expect(event.id).toMatch(UUID_V7);
  });
});
