import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import type { TrialSite } from '../../src/contract/trials';
import { auditLog, booking, prescreenForm, prescreenFormVersion, smsMessage } from '../../src/server/db/schema';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Issue 15, "Booking picks the wrong site": sites carry facility, city, state, country and a zone derived from
 * their location; the site chosen is the site booked, and the confirmation SMS names its city.
 */

const SHARED = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov', name), 'utf8'));
/** A real record whose 131 sites are all called "Research Site" (Birmingham first, Chicago further down). */
const MANY_SITES = 'NCT05925803';
const realStudy = () =>
  (JSON.parse(readFileSync(SHARED, 'utf8')) as Array<{ protocolSection: { identificationModule: { nctId: string } } }>).find(
    (study) => study.protocolSection.identificationModule.nctId === MANY_SITES,
  );

let t: TestApp;
let site: SignedUp;
let phoneSeq = 0;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Windy City Research' });
});
afterAll(() => t?.close());

describe('site import', () => {
  it('keeps facility, city, state, country and derives the zone: coordinates first, else the state; none is never UTC', async () => {
    const preview = await site.actor.post('/api/trials/auto-gen', { study: fixture('asthma-study.json'), save: false });
    expect(preview.status).toBe(200);
    expect(preview.body.sites).toEqual([
      expect.objectContaining({
        name: 'Lakeside Clinical Research',
        city: 'Chicago',
        region: 'Illinois',
        country: 'United States',
        timeZone: 'America/Chicago',
        timeZoneSource: 'geo',
        isOwnSite: false,
      }),
      expect.objectContaining({
        name: 'Harbour Lung Centre',
        city: 'Halifax',
        region: 'Nova Scotia',
        country: 'Canada',
        timeZone: 'America/Halifax',
        timeZoneSource: 'region',
        isOwnSite: false,
      }),
    ]);
    const created = await site.actor.post('/api/trials/', {
      title: 'Unknown places',
      sites: [{ name: 'Field Office', country: 'Brazil' }, { name: 'Somewhere' }],
    });
    expect(created.status).toBe(201);
    for (const item of created.body.sites) {
      expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(item.timeZone).toBeUndefined();
    }
  });

  it.skipIf(!existsSync(SHARED))('a real record with 131 "Research Site"s: every site has its city and a zone; search and pages', async () => {
    const created = await site.actor.post('/api/trials/auto-gen', realStudy());
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const sites = created.body.sites as TrialSite[];
    expect(sites).toHaveLength(131);
    expect(new Set(sites.map((item) => item.id)).size).toBe(131);
    expect(sites.filter((item) => item.name === 'Research Site').length).toBeGreaterThan(100);
    expect(sites.every((item) => item.city && item.country)).toBe(true);
    // One site (Mexico City, no coordinates; Mexico has several zones) is left for a person: "time zone needed".
    expect(sites.filter((item) => !item.timeZone).map((item) => [item.city, item.country])).toEqual([['Cdmx', 'Mexico']]);
    expect(sites[0]).toMatchObject({ city: 'Birmingham', region: 'Alabama', timeZone: 'America/Chicago' });

    const chicago = await site.actor.get(`/api/trials/${created.body.id}/sites?q=chicago`);
    expect(chicago.status).toBe(200);
    expect(chicago.body.total).toBeGreaterThanOrEqual(1);
    expect(chicago.body.sites.every((item: TrialSite) => item.city === 'Chicago' && item.timeZone === 'America/Chicago')).toBe(true);
    expect(chicago.body).toMatchObject({ siteCount: 131, ownSiteCount: 0 });

    const second = await site.actor.get(`/api/trials/${created.body.id}/sites?limit=25&offset=25`);
    expect(second.body.sites.map((item: TrialSite) => item.id)).toEqual(sites.slice(25, 50).map((item) => item.id));
    expect(second.body.total).toBe(131);
    expect((await site.actor.get(`/api/trials/${created.body.id}/sites?limit=500`)).status).toBe(400);
  });
});

describe('our sites', () => {
  it('PATCH marks a site ours (listed first everywhere), sets or clears its zone, and is audited', async () => {
    const created = await site.actor.post('/api/trials/auto-gen', {
      ...fixture('asthma-study.json'),
      protocolSection: { ...fixture('asthma-study.json').protocolSection, identificationModule: { nctId: 'NCT09900077', briefTitle: 'Ours first' } },
    });
    expect(created.status).toBe(201);
    const trialId = created.body.id;
    const halifax = created.body.sites.find((item: TrialSite) => item.city === 'Halifax');

    const marked = await site.actor.patch(`/api/trials/${trialId}/sites/${halifax.id}`, { isOwnSite: true });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ id: halifax.id, isOwnSite: true });
    const trial = (await site.actor.get(`/api/trials/${trialId}`)).body;
    expect(trial.sites.map((item: TrialSite) => item.city)).toEqual(['Halifax', 'Chicago']);
    const page = (await site.actor.get(`/api/trials/${trialId}/sites`)).body;
    expect(page.sites[0].id).toBe(halifax.id);
    expect(page.ownSiteCount).toBe(1);
    expect((await site.actor.get(`/api/trials/${trialId}/sites?ownOnly=true`)).body.total).toBe(1);

    const zoned = await site.actor.patch(`/api/trials/${trialId}/sites/${halifax.id}`, { timeZone: 'America/St_Johns' });
    expect(zoned.body).toMatchObject({ timeZone: 'America/St_Johns', timeZoneSource: 'manual' });
    const cleared = await site.actor.patch(`/api/trials/${trialId}/sites/${halifax.id}`, { timeZone: null });
    expect(cleared.body).toMatchObject({ timeZone: 'America/Halifax', timeZoneSource: 'region', isOwnSite: true });
    const bad = await site.actor.patch(`/api/trials/${trialId}/sites/${halifax.id}`, { timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('timeZone');
    expect((await site.actor.patch(`/api/trials/${trialId}/sites/${halifax.id}`, {})).status).toBe(400);
    expect((await site.actor.patch(`/api/trials/${trialId}/sites/not-a-site`, { isOwnSite: true })).status).toBe(404);

    // Saving the trial's list back keeps the ids and the mark.
    const resaved = await site.actor.patch(`/api/trials/${trialId}`, {
      sites: trial.sites.map(({ timeZone: _zone, timeZoneSource: _source, ...rest }: TrialSite) => rest),
    });
    expect(resaved.status).toBe(200);
    expect(resaved.body.sites.map((item: TrialSite) => [item.id, item.isOwnSite])).toEqual(trial.sites.map((item: TrialSite) => [item.id, item.isOwnSite]));

    const audits = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, trialId), eq(auditLog.action, 'trial.site.update')));
    expect(audits.length).toBe(3);
  });
});

describe('booking picks the site chosen', () => {
  let trialId: string;
  let sites: TrialSite[];
  let formId: string;

  const approvedCandidate = async () => {
    const candidate = await site.actor.post('/api/candidates/', {
      firstName: 'Casey',
      lastName: 'Booker',
      phone: `+1312555${String(4000 + ++phoneSeq)}`,
      trialIds: [trialId],
    });
    expect(candidate.status, JSON.stringify(candidate.body)).toBe(201);
    const result = await site.actor.post('/api/prescreen/results', { candidateId: candidate.body.id, formId, answers: [{ questionId: 'adult', value: true }] });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect((await site.actor.post('/api/prescreen/review/decision', { resultId: result.body.id, decision: 'approve' })).status).toBe(200);
    return { candidateId: candidate.body.id as string, resultId: result.body.id as string };
  };

  beforeAll(async () => {
    // Three sites with one name, as sponsors list them; Chicago is not the first.
    const created = await site.actor.post('/api/trials/', {
      title: 'Sponsor study with look-alike sites',
      criteria: [{ kind: 'inclusion', text: 'Adult' }],
      sites: [
        { name: 'Research Site', city: 'Birmingham', region: 'Alabama', country: 'United States', latitude: 33.52066, longitude: -86.80249 },
        {
          name: 'Research Site',
          city: 'Chicago',
          region: 'Illinois',
          country: 'United States',
          latitude: 41.85003,
          longitude: -87.65005,
          address: '100 W Lake St',
        },
        { name: 'Research Site', city: 'Phoenix', region: 'Arizona', country: 'United States' },
      ],
    });
    expect(created.status).toBe(201);
    trialId = created.body.id;
    sites = created.body.sites;
    const blocks: StudyBlock[] = [
      {
        id: 'about',
        title: { en: 'About you' },
        questions: [
          {
            id: 'adult',
            type: 'yes_no',
            wording: { phone: { en: 'Are you 18 or older?' }, chat: { en: 'Adult?' } },
            required: true,
            criterionLinks: [{ criterionId: created.body.criteria[0].id, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
          },
        ],
      },
    ];
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({ organizationId: site.organizationId, trialId, name: 'Adult form', status: 'published', currentVersion: 1, publishedAt: new Date() })
      .returning();
    await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
    formId = form.id;
  });

  it('booking Chicago books Chicago, in Chicago time, and the SMS names Chicago', async () => {
    const { candidateId, resultId } = await approvedCandidate();
    const chicago = sites.find((item) => item.city === 'Chicago')!;
    expect(chicago.timeZone).toBe('America/Chicago');
    const answer = await site.actor.post('/api/prescreen/bookings', { resultId, siteId: chicago.id, localTime: '2031-03-04T09:00' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      siteId: chicago.id,
      siteName: 'Research Site',
      siteCity: 'Chicago',
      siteTimeZone: 'America/Chicago',
      startsAt: '2031-03-04T15:00:00.000Z',
    });
    const [sms] = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.candidateId, candidateId));
    expect(sms.body).toContain('Research Site, 100 W Lake St, Chicago');
    expect(sms.body).not.toContain('Birmingham');
    const review = (await site.actor.get(`/api/prescreen/review?candidateId=${candidateId}`)).body;
    expect(review.bookings[0]).toMatchObject({ siteId: chicago.id, siteCity: 'Chicago' });
  });

  it('the same hour at two look-alike sites is two bookings; a name shared by several sites is refused', async () => {
    const [first, second] = [await approvedCandidate(), await approvedCandidate()];
    const birmingham = sites.find((item) => item.city === 'Birmingham')!;
    const chicago = sites.find((item) => item.city === 'Chicago')!;
    expect((await site.actor.post('/api/prescreen/bookings', { resultId: first.resultId, siteId: birmingham.id, localTime: '2031-05-06T10:00' })).status).toBe(
      201,
    );
    expect((await site.actor.post('/api/prescreen/bookings', { resultId: second.resultId, siteId: chicago.id, localTime: '2031-05-06T10:00' })).status).toBe(
      201,
    );
    const ambiguous = await site.actor.post('/api/prescreen/bookings', { resultId: second.resultId, siteName: 'Research Site', localTime: '2031-05-07T10:00' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.details[0].path).toBe('siteId');
    const stored = await t.deps.db.select().from(booking).where(eq(booking.trialId, trialId));
    expect(
      stored
        .filter((row) => row.startsAt.toISOString() === '2031-05-06T15:00:00.000Z')
        .map((row) => row.siteCity)
        .sort(),
    ).toEqual(['Birmingham', 'Chicago']);
  });

  it('a site whose zone is unknown asks for one: never UTC', async () => {
    const { resultId } = await approvedCandidate();
    const created = await site.actor.patch(`/api/trials/${trialId}`, { sites: [...sites, { name: 'Mobile Unit' }] });
    const mobile = created.body.sites.find((item: TrialSite) => item.name === 'Mobile Unit');
    expect(mobile.timeZone).toBeUndefined();
    const refused = await site.actor.post('/api/prescreen/bookings', { resultId, siteId: mobile.id, localTime: '2031-05-08T10:00' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('timeZone');
    const booked = await site.actor.post('/api/prescreen/bookings', { resultId, siteId: mobile.id, localTime: '2031-05-08T10:00', timeZone: 'America/Denver' });
    expect(booked.body).toMatchObject({ siteTimeZone: 'America/Denver', startsAt: '2031-05-08T16:00:00.000Z' });
  });
});
