import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, candidate, contactEvent } from '../../src/server/db/schema';
import { contactPermission } from '../../src/server/features/sms/consent';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/** Issue 15: imported candidates become contactable (documented consent, time zones), and the preview shows every bad row. */

let t: TestApp;
let site: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Cora Consent', organizationName: 'Intake Research Site' });
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await t?.close();
});

async function waitForRun(actor: Actor, runId: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const answer = await actor.get(`/api/processing-runs/${runId}/data?limit=1000`);
    if (!['pending', 'running'].includes(answer.body.run.status)) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('run did not finish');
}

const byPhone = async (phone: string) => (await t.deps.db.select().from(candidate).where(eq(candidate.phone, phone)))[0];

describe('import with consent columns', () => {
  const csv = [
    'First Name,Phone,Zip,State,SMS Consent,Call Consent,Consent Source,Consent Date',
    'Ana,212-555-0301,94103,,yes,Y,web form,2026-01-15',
    'Ben,312-555-0302,,TX,1,0,,',
    'Cal,303-555-0303,,,no,N,,',
    'Dee,212-555-0304,,,maybe,,,',
  ].join('\n');

  it('refuses a file with consent columns when the import gives no source for them', async () => {
    const answer = await site.actor.post('/api/candidates/bulk', { format: 'csv', data: csv, duplicates: 'merge' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('consentSource');
  });

  it('records consent with its source and date, derives time zones, and the candidates may be texted and called', async () => {
    const preview = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: csv });
    expect(preview.body.mapping).toMatchObject({
      'SMS Consent': 'consentSms',
      'Call Consent': 'consentCalls',
      'Consent Source': 'consentSource',
      'Consent Date': 'consentDate',
    });
    expect(preview.body.consentMapped).toBe(true);

    const started = await site.actor.post('/api/candidates/bulk', {
      format: 'csv',
      data: csv,
      duplicates: 'merge',
      consentSource: 'paper form at clinic',
      consentDate: '2026-02-01',
    });
    expect(started.status).toBe(202);
    const done = await waitForRun(site.actor, started.body.run.id);
    const invalid = done.items.filter((item: { outcome: string }) => item.outcome === 'invalid');
    expect(invalid).toHaveLength(1);
    expect(invalid[0].errors).toEqual([{ field: 'consentSms', message: 'Use yes or no (also Y/N, true/false, 1/0)' }]);

    const ana = await site.actor.get(`/api/candidates/${(await byPhone('+12125550301')).id}`);
    expect(ana.body.consent).toMatchObject({ sms: true, calls: true, smsSource: 'web form', callsSource: 'web form' });
    expect(ana.body.consent.smsAt.slice(0, 10)).toBe('2026-01-15');
    expect(ana.body.timeZone).toBe('America/Los_Angeles'); // from the ZIP, not the New York phone

    const ben = await site.actor.get(`/api/candidates/${(await byPhone('+13125550302')).id}`);
    expect(ben.body.consent).toMatchObject({ sms: true, calls: false, smsSource: 'paper form at clinic', callsSource: null });
    expect(ben.body.consent.smsAt.slice(0, 10)).toBe('2026-02-01');
    expect(ben.body.timeZone).toBe('America/Chicago'); // from the state

    const cal = await site.actor.get(`/api/candidates/${(await byPhone('+13035550303')).id}`);
    expect(cal.body.consent).toMatchObject({ sms: false, calls: false, smsSource: null });
    expect(cal.body.timeZone).toBe('America/Denver'); // from the area code

    const history = await site.actor.get(`/api/contact-history?candidateId=${ana.body.id}`);
    const consentEvent = history.body.events.find((event: { kind: string }) => event.kind === 'consent');
    expect(consentEvent.summary).toBe('Consent: SMS on, calls on (web form, 2026-01-15)');
    expect(consentEvent.details).toMatchObject({ source: 'web form' });

    // The consent rule now lets marketing texts and calls through at noon where Ana lives (imports left everyone blocked before).
    const row = await byPhone('+12125550301');
    const noonInSanFrancisco = new Date('2026-03-10T20:00:00Z');
    const subject = { ...row, smsOptedOutAt: null };
    expect(contactPermission(subject, 'sms', 'marketing', noonInSanFrancisco)).toEqual({ allowed: true });
    expect(contactPermission(subject, 'call', 'marketing', noonInSanFrancisco)).toEqual({ allowed: true });
    // 7:00 in San Francisco is 10:00 in New York: the derived zone keeps the call to calling hours.
    expect(contactPermission(subject, 'call', 'marketing', new Date('2026-03-10T14:00:00Z'))).toEqual({ allowed: false, reason: 'quiet_hours' });
  });

  it('a merge turns consent on for a candidate whose consent was never recorded, never for one who withdrew it', async () => {
    const fresh = (await site.actor.post('/api/candidates/', { firstName: 'Eve', phone: '+12125550305' })).body;
    const withdrew = (await site.actor.post('/api/candidates/', { firstName: 'Fay', phone: '+12125550306', consent: { sms: true } })).body;
    await site.actor.patch(`/api/candidates/${withdrew.id}`, { consent: { sms: false } });
    const data = 'Name,Phone,SMS consent\nEve,212-555-0305,yes\nFay,212-555-0306,yes\n';
    const started = await site.actor.post('/api/candidates/bulk', { format: 'csv', data, duplicates: 'merge', consentSource: 'web form' });
    await waitForRun(site.actor, started.body.run.id);
    expect((await site.actor.get(`/api/candidates/${fresh.id}`)).body.consent).toMatchObject({ sms: true, smsSource: 'web form' });
    expect((await site.actor.get(`/api/candidates/${withdrew.id}`)).body.consent.sms).toBe(false);
  });
});

describe('POST /api/candidates/bulk-consent', () => {
  it('records consent with a source for the chosen candidates, skips do-not-contact, and audits each change', async () => {
    const one = (await site.actor.post('/api/candidates/', { firstName: 'Gus', phone: '+12125550311' })).body;
    const two = (await site.actor.post('/api/candidates/', { firstName: 'Hal', phone: '+12125550312', consent: { doNotContact: true } })).body;
    const noSource = await site.actor.post('/api/candidates/bulk-consent', { candidateIds: [one.id], sms: true });
    expect(noSource.status).toBe(400);
    const answer = await site.actor.post('/api/candidates/bulk-consent', {
      candidateIds: [one.id, two.id],
      sms: true,
      calls: true,
      source: 'phone call recording',
      date: '2026-03-02',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ updated: 1, unchanged: 0, skippedDoNotContact: 1 });
    const gus = (await site.actor.get(`/api/candidates/${one.id}`)).body;
    expect(gus.consent).toMatchObject({ sms: true, calls: true, smsSource: 'phone call recording', callsSource: 'phone call recording' });
    expect(gus.consent.callsAt.slice(0, 10)).toBe('2026-03-02');
    expect((await site.actor.get(`/api/candidates/${two.id}`)).body.consent).toMatchObject({ sms: false, calls: false, doNotContact: true });
    const events = await t.deps.db.select().from(contactEvent).where(eq(contactEvent.candidateId, one.id));
    expect(events.find((event) => event.kind === 'consent')?.summary).toBe('Consent: SMS on, calls on (phone call recording, 2026-03-02)');
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, one.id));
    expect(audits.map((audit) => audit.action)).toContain('candidate.bulk_consent');

    const again = await site.actor.post('/api/candidates/bulk-consent', { candidateIds: [one.id], sms: true, source: 'phone call recording' });
    expect(again.body).toEqual({ updated: 0, unchanged: 1, skippedDoNotContact: 0 });
  });

  it('records consent for every candidate matching the list filter', async () => {
    const other = await t.signUp({ organizationName: 'Filter Consent Site' });
    for (const name of ['Ivy Alpha', 'Jon Alpha', 'Kim Beta']) {
      const [firstName, lastName] = name.split(' ');
      await other.actor.post('/api/candidates/', { firstName, lastName });
    }
    const answer = await other.actor.post('/api/candidates/bulk-consent', { filter: { search: 'alpha' }, calls: true, source: 'web form' });
    expect(answer.body).toEqual({ updated: 2, unchanged: 0, skippedDoNotContact: 0 });
    const list = (await other.actor.get('/api/candidates/?sortBy=lastName&sortDir=asc')).body.candidates;
    expect(list.map((row: { firstName: string; consent: { calls: boolean } }) => [row.firstName, row.consent.calls])).toEqual([
      ['Ivy', true],
      ['Jon', true],
      ['Kim', false],
    ]);
  });
});

describe('time zones when none is given', () => {
  it('are derived at create and follow the address on update, but a chosen zone stays', async () => {
    const created = (await site.actor.post('/api/candidates/', { firstName: 'Lou', phone: '+13105550321' })).body;
    expect(created.timeZone).toBe('America/Los_Angeles');
    const moved = (await site.actor.patch(`/api/candidates/${created.id}`, { postalCode: '60614' })).body;
    expect(moved.timeZone).toBe('America/Chicago');
    const chosen = (await site.actor.patch(`/api/candidates/${created.id}`, { timeZone: 'America/Phoenix' })).body;
    expect(chosen.timeZone).toBe('America/Phoenix');
    expect((await site.actor.patch(`/api/candidates/${created.id}`, { postalCode: '10001' })).body.timeZone).toBe('America/Phoenix');
  });
});

describe('the import preview', () => {
  it('shows every invalid row first (paged), each problem once, whatever its place in the file', async () => {
    const lines = ['First Name,Phone,DOB'];
    for (let i = 1; i <= 60; i++) lines.push(`P${i},212-555-${String(1000 + i)},1980-01-01`);
    lines.push('Late,212-555-2000,not-a-date');
    lines.push(',212-555-2001,1980-01-01');
    const first = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: lines.join('\n') });
    expect(first.body.sample).toEqual({ size: 62, valid: 60, invalid: 2 });
    expect(first.body.rows.slice(0, 2).map((row: { rowNumber: number; valid: boolean }) => [row.rowNumber, row.valid])).toEqual([
      [61, false],
      [62, false],
    ]);
    expect(first.body.rows[0].errors).toEqual([{ field: 'dateOfBirth', message: 'Not a valid date: enter it as YYYY-MM-DD' }]);
    expect(first.body.rows).toHaveLength(20);
    expect(first.body.page).toEqual({ offset: 0, limit: 20, total: 62 });
    const third = await site.actor.post('/api/candidates/bulk/preview', { format: 'csv', data: lines.join('\n'), previewOffset: 40, previewLimit: 20 });
    expect(third.body.rows.map((row: { rowNumber: number }) => row.rowNumber)).toEqual(Array.from({ length: 20 }, (_, i) => 39 + i));
  });
});
