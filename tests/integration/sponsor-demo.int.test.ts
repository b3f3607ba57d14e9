import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateStatus } from '../../src/contract/candidates';
import { recordActivity, type ActivityEntry } from '../../src/server/activity';
import { runAsOrganization } from '../../src/server/db/scoped';
import { booking, candidate, candidateTrial, prescreenForm, prescreenFormVersion, prescreenResult, trial } from '../../src/server/db/schema';
import { insertOrganization } from '../../src/server/tenancy/organizations';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The sponsor demo's API on a hand-built demo organization: three sites of one trial (Chicago with six
 * candidates, Houston with four, Denver not started), so every number below can be counted by hand.
 */

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

let t: TestApp;
let admin: Actor;
let staff: SignedUp;
let demoId: string;
let trialId: string;
let otherTrialId: string;
const S1 = randomUUID();
const S2 = randomUUID();
const S3 = randomUUID();

interface Person {
  key: string;
  status: CandidateStatus;
  city: string;
  region: string;
  linkedDaysAgo: number;
  siteId?: string;
  doNotContact?: boolean;
  ethnicity?: string;
  race?: string;
  sex?: 'female' | 'male';
  language?: string;
  age?: number;
  firstContactDaysAgo?: number;
  bookedDaysAgo?: number;
  bookedSite?: string;
  result?: 'PASS' | 'FAIL';
}

const PEOPLE: Person[] = [
  // Chicago (S1, the organization's own site): six candidates over 100 days.
  {
    key: 'c1',
    status: 'enrolled',
    city: 'Chicago',
    region: 'IL',
    linkedDaysAgo: 100,
    ethnicity: 'Hispanic or Latino',
    race: 'White',
    sex: 'female',
    language: 'es',
    age: 70,
    firstContactDaysAgo: 70,
    bookedDaysAgo: 60,
    bookedSite: S1,
  },
  {
    key: 'c2',
    status: 'visit_scheduled',
    city: 'Chicago',
    region: 'IL',
    linkedDaysAgo: 90,
    ethnicity: 'Not Hispanic or Latino',
    race: 'Black or African American',
    sex: 'male',
    age: 40,
    firstContactDaysAgo: 24,
    bookedDaysAgo: 20,
    bookedSite: S1,
  },
  {
    key: 'c3',
    status: 'prescreen_passed',
    city: 'Chicago',
    region: 'IL',
    linkedDaysAgo: 30,
    ethnicity: 'Not Hispanic or Latino',
    race: 'White',
    sex: 'female',
    age: 30,
    firstContactDaysAgo: 10,
    result: 'PASS',
  },
  { key: 'c4', status: 'prescreen_failed', city: 'Chicago', region: 'IL', linkedDaysAgo: 30, firstContactDaysAgo: 9, result: 'FAIL' },
  { key: 'c5', status: 'contacted', city: 'chicago', region: 'il', linkedDaysAgo: 20 },
  { key: 'c6', status: 'new', city: 'Chicago', region: 'IL', linkedDaysAgo: 5 },
  // Houston (S2): three by their city, one by the site named in their record (though living in Chicago).
  {
    key: 'h1',
    status: 'enrolled',
    city: 'Houston',
    region: 'TX',
    linkedDaysAgo: 50,
    ethnicity: 'Hispanic or Latino',
    race: 'White',
    sex: 'female',
    firstContactDaysAgo: 33,
    bookedDaysAgo: 30,
    bookedSite: S2,
  },
  {
    key: 'h2',
    status: 'enrolled',
    city: 'Houston',
    region: 'TX',
    linkedDaysAgo: 40,
    ethnicity: 'Not Hispanic or Latino',
    race: 'White',
    sex: 'male',
    firstContactDaysAgo: 27,
    bookedDaysAgo: 25,
    bookedSite: S2,
  },
  { key: 'h3', status: 'do_not_contact', city: 'Houston', region: 'TX', linkedDaysAgo: 45, doNotContact: true },
  { key: 'h4', status: 'new', city: 'Chicago', region: 'IL', linkedDaysAgo: 10, siteId: S2 },
];

async function seedDemo(): Promise<void> {
  const organization = await insertOrganization(t.deps.db, { name: 'Demo Research Site', slug: 'demo-research-site' });
  demoId = organization.id;
  await runAsOrganization(t.deps.db, demoId, async (tx) => {
    const [row] = await tx
      .insert(trial)
      .values({
        organizationId: demoId,
        title: 'Asthma Control Study',
        status: 'recruiting',
        targetEnrollment: 20,
        sites: [
          { id: S1, name: 'Lakeshore Clinic', city: 'Chicago', region: 'IL', isOwnSite: true },
          { id: S2, name: 'Bayou Research', city: 'Houston', region: 'TX', isOwnSite: false },
          { id: S3, name: 'Front Range Health', city: 'Denver', region: 'CO', isOwnSite: false },
        ],
      })
      .returning();
    trialId = row.id;
    await tx.insert(trial).values({ organizationId: demoId, title: 'Draft Study', status: 'draft', sites: [] });
    const [form] = await tx.insert(prescreenForm).values({ organizationId: demoId, trialId, name: 'Asthma prescreen' }).returning();
    const [version] = await tx.insert(prescreenFormVersion).values({ organizationId: demoId, formId: form.id, version: 1, blocks: [] }).returning();
    const activity: ActivityEntry[] = [];
    for (const person of PEOPLE) {
      const birthYear = new Date().getUTCFullYear() - (person.age ?? 50) - 1;
      const [c] = await tx
        .insert(candidate)
        .values({
          organizationId: demoId,
          firstName: person.key,
          status: person.status,
          city: person.city,
          region: person.region,
          doNotContact: person.doNotContact ?? false,
          sex: person.sex ?? 'unknown',
          preferredLanguage: person.language ?? 'en',
          dateOfBirth: person.age ? `${birthYear}-06-15` : null,
          customFields: {
            ...(person.ethnicity ? { ethnicity: person.ethnicity } : {}),
            ...(person.race ? { race: person.race } : {}),
            ...(person.siteId ? { siteId: person.siteId } : {}),
          },
        })
        .returning();
      await tx.insert(candidateTrial).values({ organizationId: demoId, candidateId: c.id, trialId, linkedAt: ago(person.linkedDaysAgo) });
      if (person.firstContactDaysAgo !== undefined)
        activity.push({ organizationId: demoId, kind: 'sms_sent', source: 'sms', trialId, candidateId: c.id, occurredAt: ago(person.firstContactDaysAgo) });
      if (person.result) {
        await tx.insert(prescreenResult).values({
          organizationId: demoId,
          candidateId: c.id,
          trialId,
          formId: form.id,
          formVersionId: version.id,
          sourceType: 'manual',
          answers: [],
          evaluations: [],
          aiRecommendation: person.result,
        });
      }
      if (person.bookedDaysAgo !== undefined) {
        const site = person.bookedSite === S1 ? 'Lakeshore Clinic' : 'Bayou Research';
        await tx.insert(booking).values({
          organizationId: demoId,
          candidateId: c.id,
          trialId,
          siteId: person.bookedSite,
          siteName: site,
          siteTimeZone: 'America/Chicago',
          startsAt: ago(person.bookedDaysAgo - 5),
          createdAt: ago(person.bookedDaysAgo),
          status: 'completed',
        });
      }
    }
    await recordActivity(tx, activity);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  staff = await t.signUp({ organizationName: 'Other Research' });
  await seedDemo();
  const other = await staff.actor.post('/api/trials/', { title: 'Not a demo trial', status: 'recruiting' });
  expect(other.status, JSON.stringify(other.body)).toBe(201);
  otherTrialId = other.body.id;
});
afterAll(() => t?.close());

describe('sponsor demo API', () => {
  it("lists the demo organization's recruiting trials only", async () => {
    const answer = await admin.get('/api/sponsor-demo/trials');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      organizationId: demoId,
      trials: [
        {
          id: trialId,
          title: 'Asthma Control Study',
          publicTitle: null,
          nctId: null,
          phase: null,
          conditions: [],
          targetEnrollment: 20,
          enrolled: 3,
          siteCount: 3,
        },
      ],
    });
  });

  it('ranks the sites: Houston (fastest, most enrollments a month) over Chicago (largest pool) over Denver (not started)', async () => {
    const answer = await admin.get(`/api/sponsor-demo/trials/${trialId}/sites`);
    expect(answer.status).toBe(200);
    const sites = answer.body.sites;
    expect(sites.map((site: { id: string }) => site.id)).toEqual([S2, S1, S3]);
    expect(sites.map((site: { rank: number }) => site.rank)).toEqual([1, 2, 3]);
    const [houston, chicago, denver] = sites;
    expect(chicago).toMatchObject({
      name: 'Lakeshore Clinic',
      isOwnSite: true,
      started: true,
      funnel: { candidates: 6, pool: 5, contacted: 5, prescreened: 4, passed: 3, booked: 2, enrolled: 1 },
      // 10 and 4 days from first contact to booking.
      medianDaysToBooking: 7,
      // c1 Hispanic, c2 Black, c3 neither; c5 and c6 unknown.
      diversityShare: 0.667,
    });
    expect(chicago.reasons[0]).toBe('Largest pool (5)');
    expect(houston).toMatchObject({
      // h3 was marked do-not-contact without ever being reached: not a contact (decision 169).
      funnel: { candidates: 4, pool: 3, contacted: 2, prescreened: 2, passed: 2, booked: 2, enrolled: 2 },
      medianDaysToBooking: 2.5,
      diversityShare: 0.5,
    });
    expect(houston.reasons).toContain('Fastest to a booked visit (median 2.5 days)');
    // 2 enrolled over ~50 days: about 1.2 a month; Chicago 1 over ~100 days: about 0.3.
    expect(houston.enrollmentsPerMonth).toBeCloseTo(1.2, 1);
    expect(chicago.enrollmentsPerMonth).toBeCloseTo(0.3, 1);
    expect(houston.score).toBeGreaterThan(chicago.score);
    expect(denver).toMatchObject({
      started: false,
      activeDays: 0,
      funnel: { candidates: 0, pool: 0 },
      medianDaysToBooking: null,
      diversityShare: null,
      reasons: ['Not started yet: no candidates or track record'],
    });
    expect(answer.body.ranking).toMatchObject({ pool: 0.35, censusDiversityShare: 0.416 });
  });

  it('the dashboard over the chosen sites: totals, per-site funnels, the forecast and the demographics of the pool', async () => {
    const answer = await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?siteIds=${S1},${S2}&deadline=2099-01-01`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body;
    expect(body.sites.map((site: { id: string }) => site.id)).toEqual([S2, S1]);
    expect(body.totals).toEqual({ candidates: 10, pool: 8, contacted: 7, prescreened: 6, passed: 5, booked: 4, enrolled: 3 });
    // 10, 4, 3 and 2 days.
    expect(body.medianDaysToBooking).toBe(3.5);
    const forecast = body.forecast;
    expect(forecast).toMatchObject({ enrolled: 3, target: 20, status: 'ok', deadline: '2099-01-01', extraSites80: 0, extraSites95: 0 });
    expect(forecast.expectedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(forecast.band80.low <= forecast.expectedDate && forecast.expectedDate <= forecast.band80.high).toBe(true);
    expect(forecast.probabilityByDeadline).toBeGreaterThan(0.95);
    expect(forecast.sites.map((site: { siteId: string }) => site.siteId)).toEqual([S2, S1]);
    expect(forecast.sites[0].ratePerMonth).toBeGreaterThan(forecast.sites[1].ratePerMonth);

    const ethnicity = body.demographics.find((row: { dimension: string }) => row.dimension === 'ethnicity');
    // Known for c1, c2, c3, h1, h2 of the pool of eight.
    expect(ethnicity.known).toBe(5);
    expect(ethnicity.rows).toContainEqual({ value: 'Hispanic or Latino', count: 2, share: 0.4, goal: 0.19 });
    const language = body.demographics.find((row: { dimension: string }) => row.dimension === 'language');
    expect(language.rows).toContainEqual({ value: 'Spanish', count: 1, share: 0.125, goal: 0.13 });
    const age = body.demographics.find((row: { dimension: string }) => row.dimension === 'age');
    expect(age.rows.find((row: { value: string }) => row.value === '65-74')).toMatchObject({ count: 1 });
  });

  it('a tight deadline asks for more sites; a site not started joins the forecast at its opening', async () => {
    const soon = new Date(Date.now() + 120 * DAY).toISOString().slice(0, 10);
    const tight = await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?siteIds=${S1},${S2}&deadline=${soon}`);
    expect(tight.status).toBe(200);
    expect(tight.body.forecast.probabilityByDeadline).toBeLessThan(0.8);
    expect(tight.body.forecast.extraSites80 === null || tight.body.forecast.extraSites80 > 0).toBe(true);
    const withDenver = await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?siteIds=${S1},${S2},${S3}`);
    expect(withDenver.body.forecast.sites.find((site: { siteId: string }) => site.siteId === S3)).toMatchObject({ started: false, enrolled: 0 });
    expect(withDenver.body.forecast.newSiteOpensInDays).toBe(30);
    // No siteIds: every site.
    const all = await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard`);
    expect(all.body.sites).toHaveLength(3);
  });

  it('refuses bad input: a malformed or unknown site, a bad date (400); an unknown trial (404)', async () => {
    expect((await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?siteIds=${S1},not%20a%20site!`)).status).toBe(400);
    expect((await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?siteIds=${randomUUID()}`)).status).toBe(400);
    expect((await admin.get(`/api/sponsor-demo/trials/${trialId}/dashboard?deadline=2026-13-45`)).status).toBe(400);
    expect((await admin.get('/api/sponsor-demo/trials/not-an-id/sites')).status).toBe(404);
    expect((await admin.get(`/api/sponsor-demo/trials/${randomUUID()}/sites`)).status).toBe(404);
    // A trial of another organization is not a demo trial.
    expect((await admin.get(`/api/sponsor-demo/trials/${otherTrialId}/sites`)).status).toBe(404);
  });

  it('is for internal admins only: 403 to staff, 401 signed out', async () => {
    for (const path of ['/api/sponsor-demo/trials', `/api/sponsor-demo/trials/${trialId}/sites`, `/api/sponsor-demo/trials/${trialId}/dashboard`]) {
      expect((await staff.actor.get(path)).status).toBe(403);
      expect((await t.actor().get(path)).status).toBe(401);
    }
  });
});
