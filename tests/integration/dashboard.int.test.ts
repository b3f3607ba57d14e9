import { eq, sql } from 'drizzle-orm';
import { seededRandom } from '../../src/server/seeded-random';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity, type ActivityEntry } from '../../src/server/activity';
import { runAsOrganization, rowsOf } from '../../src/server/db/scoped';
import { candidate, prescreenForm, prescreenFormVersion, prescreenResult, trial as trialTable } from '../../src/server/db/schema';
import { recordSatisfaction } from '../../src/server/features/satisfaction/service';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { addDays, dayOf } from '../../src/server/features/dashboard/range';
import { createTestApp, type Actor, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * The admin dashboard's tabs on a small hand-built set of events (decision 032): what a site user and a
 * Cohortly admin see, presets and ranges, the source filter, the CSV export, and the rollups against the raw
 * events for random ranges.
 */

let t: TestApp;
let a: SignedUp;
let b: SignedUp;
let demoOrganizationId: string;
let admin: Actor;
let trialId: string;
let agentId: string;

const today = dayOf(new Date());
/** Noon UTC, `days` days ago. */
const ago = (days: number) => new Date(`${addDays(today, -days)}T12:00:00Z`);
const daysBefore = (days: number) => new Date(Date.now() - days * 86_400_000);

type Event = Omit<ActivityEntry, 'organizationId'>;
const times = (n: number, event: Event): Event[] => Array.from({ length: n }, () => event);

async function record(organizationId: string, events: Event[]) {
  await runAsOrganization(t.deps.db, organizationId, (tx) =>
    recordActivity(
      tx,
      events.map((event) => ({ ...event, organizationId })),
    ),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.signUp({ organizationName: 'Alpha Research' });
  b = await t.signUp({ organizationName: 'Beta Clinic' });
  const demo = await t.signUp({ organizationName: 'Demo Hospital' });
  demoOrganizationId = demo.organizationId;
  admin = await t.signInAdmin();
  admin.activeOrganizationId = t.internalOrganizationId;
  const trial = await createRecruitingTrial(a.actor, { title: 'Asthma study', targetEnrollment: 10 });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  trialId = trial.body.id;
  agentId = '11111111-2222-4333-8444-555555555555';

  await record(a.organizationId, [
    // yesterday
    ...times(3, { kind: 'candidate_created', source: 'import', occurredAt: ago(1) }),
    ...times(2, { kind: 'status_changed', source: 'sms', label: 'contacted', occurredAt: ago(1) }),
    { kind: 'prescreen_result', source: 'call', label: 'PASS', value: 2, trialId, occurredAt: ago(1) },
    { kind: 'prescreen_result', source: 'chat', label: 'FAIL', value: 6, trialId, occurredAt: ago(1) },
    { kind: 'visit_booked', source: 'call', trialId, occurredAt: ago(1) },
    { kind: 'review_decision', source: 'manual', label: 'agree', value: 0, occurredAt: ago(1) },
    { kind: 'spend', source: 'call', label: 'call_minutes', value: 1.5, occurredAt: ago(1) },
    { kind: 'spend', source: 'sms', label: 'sms_segments', value: 0.5, occurredAt: ago(1) },
    { kind: 'satisfaction_rated', source: 'chat', value: 5, agentId, occurredAt: ago(1) },
    { kind: 'satisfaction_rated', source: 'call', value: 4, occurredAt: ago(1) },
    { kind: 'satisfaction_rated', source: 'call', value: 2, occurredAt: ago(1) },
    { kind: 'opted_out', source: 'sms', label: 'sms', occurredAt: ago(1) },
    // ten days ago
    ...times(2, { kind: 'candidate_created', source: 'manual', occurredAt: ago(10) }),
    { kind: 'status_changed', source: 'call', label: 'contacted', occurredAt: ago(10) },
    { kind: 'prescreen_result', source: 'call', label: 'PASS', value: 10, trialId, occurredAt: ago(10) },
    { kind: 'visit_attended', source: 'manual', trialId, occurredAt: ago(10) },
    { kind: 'status_changed', source: 'manual', label: 'enrolled', trialId, occurredAt: ago(10) },
    { kind: 'review_decision', source: 'manual', label: 'override', value: 1, occurredAt: ago(10) },
    { kind: 'spend', source: 'call', label: 'call_minutes', value: 2, occurredAt: ago(10) },
    { kind: 'status_changed', source: 'call', label: 'not_interested', occurredAt: ago(10) },
    // older
    { kind: 'candidate_created', source: 'import', occurredAt: ago(45) },
    { kind: 'status_changed', source: 'manual', label: 'enrolled', trialId, occurredAt: ago(45) },
    { kind: 'spend', source: 'call', label: 'call_minutes', value: 4, occurredAt: ago(45) },
    { kind: 'candidate_created', source: 'manual', occurredAt: ago(200) },
  ]);
  await record(b.organizationId, [
    ...times(7, { kind: 'candidate_created', source: 'import', occurredAt: ago(1) }),
    { kind: 'spend', source: 'sms', label: 'sms_segments', value: 100, occurredAt: ago(1) },
  ]);
  await record(demoOrganizationId, times(5, { kind: 'candidate_created', source: 'import', occurredAt: ago(1) }));
  // A rating with a comment through the satisfaction feature (today): its event counts, and its comment is listed.
  await runAsOrganization(t.deps.db, a.organizationId, (tx) =>
    recordSatisfaction(tx, { organizationId: a.organizationId, channel: 'sms', referenceId: 'booking-1', rating: 1, comment: 'Nobody called me back' }),
  );
});
afterAll(() => t?.close());

const stage = (body: { stages: Array<{ stage: string; count: number }> }, name: string) => body.stages.find((entry) => entry.stage === name)?.count;

describe('funnel-breakdown', () => {
  it("shows a site user their organization's funnel for the last 30 days by default", async () => {
    const answer = await a.actor.get('/api/dashboard/funnel-breakdown');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.fromEntries(answer.body.stages.map((entry: { stage: string; count: number }) => [entry.stage, entry.count]))).toEqual({
      created: 5,
      contacted: 3,
      prescreened: 3,
      passed: 2,
      booked: 1,
      attended: 1,
      enrolled: 1,
    });
    expect(answer.body.stages[1].conversion).toBeCloseTo(0.6);
    expect(answer.body.filters).toMatchObject({ preset: '30d', to: today, from: addDays(today, -29), organizationIds: [a.organizationId] });
    const asthma = answer.body.byTrial.find((row: { trialId: string | null }) => row.trialId === trialId);
    expect(asthma).toMatchObject({ trialTitle: 'Asthma study', counts: { prescreened: 3, passed: 2, booked: 1, enrolled: 1, created: 0 } });
    expect(answer.body.bySource.find((row: { source: string }) => row.source === 'import').counts.created).toBe(3);
    expect(Object.fromEntries(answer.body.dropOff.map((row: { reason: string; count: number }) => [row.reason, row.count]))).toMatchObject({
      not_interested: 1,
      opted_out: 1,
      no_show: 0,
    });
  });

  it('follows the presets and explicit ranges', async () => {
    const created = async (query: string) => stage((await a.actor.get(`/api/dashboard/funnel-breakdown?${query}`)).body, 'created');
    expect(await created('preset=7d')).toBe(3);
    expect(await created('preset=30d')).toBe(5);
    expect(await created('preset=90d')).toBe(6);
    expect(await created('preset=all')).toBe(7);
    const expectedSince = (from: string) =>
      [
        [1, 3],
        [10, 2],
        [45, 1],
        [200, 1],
      ]
        .filter(([days]) => addDays(today, -days) >= from)
        .reduce((sum, [, n]) => sum + n, 0);
    expect(await created('preset=ytd')).toBe(expectedSince(`${today.slice(0, 4)}-01-01`));
    const month = Number(today.slice(5, 7));
    expect(await created('preset=quarter')).toBe(expectedSince(`${today.slice(0, 4)}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, '0')}-01`));
    // An explicit range wins over the preset; both ends are included.
    expect(await created(`from=${addDays(today, -10)}&to=${addDays(today, -10)}&preset=7d`)).toBe(2);
    expect(await created(`from=${addDays(today, -45)}&to=${addDays(today, -2)}`)).toBe(3);
    expect((await a.actor.get(`/api/dashboard/funnel-breakdown?from=${today}&to=${addDays(today, -1)}`)).status).toBe(400);
    expect((await a.actor.get('/api/dashboard/funnel-breakdown?from=2025-02-30')).status).toBe(400);
    expect((await a.actor.get('/api/dashboard/funnel-breakdown?preset=forever')).status).toBe(400);
  });

  it('filters by source', async () => {
    const answer = await a.actor.get('/api/dashboard/funnel-breakdown?source=import&preset=all');
    expect(stage(answer.body, 'created')).toBe(4);
    expect(stage(answer.body, 'prescreened')).toBe(0);
    expect(stage((await a.actor.get('/api/dashboard/funnel-breakdown?source=call')).body, 'prescreened')).toBe(2);
    expect((await a.actor.get('/api/dashboard/funnel-breakdown?source=fax')).status).toBe(400);
  });

  it("never shows a site user another organization's numbers", async () => {
    for (const query of [`orgs=${b.organizationId}`, `orgs=${b.organizationId},${a.organizationId}`, `orgs=${demoOrganizationId}`]) {
      const answer = await a.actor.get(`/api/dashboard/funnel-breakdown?${query}`);
      expect(answer.status).toBe(200);
      expect(answer.body.filters.organizationIds).not.toContain(b.organizationId);
      expect(answer.body.filters.organizationIds).not.toContain(demoOrganizationId);
    }
    expect(stage((await a.actor.get(`/api/dashboard/funnel-breakdown?orgs=${b.organizationId}`)).body, 'created')).toBe(0);
    expect(stage((await b.actor.get('/api/dashboard/funnel-breakdown')).body, 'created')).toBe(7);
  });

  it('shows a Cohortly admin every customer by default, leaving out demo, test and cohortly organizations', async () => {
    const answer = await admin.get('/api/dashboard/funnel-breakdown');
    expect(answer.status).toBe(200);
    expect(answer.body.filters.organizationIds).toEqual(expect.arrayContaining([a.organizationId, b.organizationId]));
    expect(answer.body.filters.organizationIds).not.toContain(demoOrganizationId);
    expect(answer.body.filters.organizationIds).not.toContain(t.internalOrganizationId);
    expect(stage(answer.body, 'created')).toBe(12);
    expect(stage((await admin.get(`/api/dashboard/funnel-breakdown?orgs=${demoOrganizationId}`)).body, 'created')).toBe(5);
    expect(stage((await admin.get(`/api/dashboard/funnel-breakdown?orgs=${b.organizationId}`)).body, 'created')).toBe(7);
  });
});

describe('prescreen-analytics', () => {
  it('counts recommendations by day, time to result, and reviewer agreement', async () => {
    const answer = await a.actor.get('/api/dashboard/prescreen-analytics');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.bucket).toBe('day');
    expect(answer.body.totals).toEqual({ results: 3, PASS: 2, FAIL: 1, INCONCLUSIVE: 0, POTENTIAL: 0 });
    expect(answer.body.overTime).toEqual([
      { period: addDays(today, -10), PASS: 1, FAIL: 0, INCONCLUSIVE: 0, POTENTIAL: 0 },
      { period: addDays(today, -1), PASS: 1, FAIL: 1, INCONCLUSIVE: 0, POTENTIAL: 0 },
    ]);
    // The median is read from 1-hour buckets (decision 094): 2, 6 and 10 hours put it halfway into the 6-7 hour bucket.
    expect(answer.body.hoursToResult).toEqual({ average: 6, median: 6.5, measured: 3 });
    expect(answer.body.review).toEqual({ decisions: 2, agree: 1, override: 1, agreementRate: 50, overrideRate: 50 });
    expect(answer.body.failingCriteria).toEqual([]);
    // "All" starts at the first activity (200 days ago): months, each the first day of its UTC month.
    const all = (await a.actor.get('/api/dashboard/prescreen-analytics?preset=all')).body;
    expect(all.bucket).toBe('month');
    expect(all.overTime.map((row: { period: string }) => row.period)).toEqual([...new Set([10, 1].map((days) => `${addDays(today, -days).slice(0, 7)}-01`))]);
    expect((await a.actor.get('/api/dashboard/prescreen-analytics?preset=90d')).body.bucket).toBe('week');
    expect((await a.actor.get('/api/dashboard/prescreen-analytics?source=chat')).body.hoursToResult).toEqual({ average: 6, median: 6.5, measured: 1 });
  });
});

describe('patient-satisfaction', () => {
  it('gives CSAT, the distribution, ratings by channel and agent, and recent comments', async () => {
    const answer = await a.actor.get('/api/dashboard/patient-satisfaction');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ ratings: 4, csat: 50, average: 3 });
    expect(answer.body.distribution.map((row: { count: number }) => row.count)).toEqual([1, 1, 0, 1, 1]);
    expect(answer.body.byChannel).toEqual([
      { source: 'call', ratings: 2, csat: 50, average: 3 },
      { source: 'chat', ratings: 1, csat: 100, average: 5 },
      { source: 'sms', ratings: 1, csat: 0, average: 1 },
    ]);
    expect(answer.body.byAgent).toEqual(
      expect.arrayContaining([expect.objectContaining({ agentId, ratings: 1, csat: 100 }), expect.objectContaining({ agentId: null, ratings: 3 })]),
    );
    expect(answer.body.comments).toEqual([
      expect.objectContaining({ organizationId: a.organizationId, channel: 'sms', rating: 1, comment: 'Nobody called me back' }),
    ]);
    // The source filter applies to the comments too; another organization sees none of them.
    expect((await a.actor.get('/api/dashboard/patient-satisfaction?source=chat')).body).toMatchObject({ ratings: 1, comments: [] });
    expect((await a.actor.get(`/api/dashboard/patient-satisfaction?from=${addDays(today, -5)}&to=${addDays(today, -1)}`)).body).toMatchObject({
      ratings: 3,
      comments: [],
    });
    const empty = await b.actor.get(`/api/dashboard/patient-satisfaction?orgs=${a.organizationId}`);
    expect(empty.body).toMatchObject({ ratings: 0, csat: null, byChannel: [], byAgent: [], comments: [] });
  });
});

describe('trial-lifecycle', () => {
  it('gives days in each status and enrollment against target', async () => {
    const answer = await a.actor.get('/api/dashboard/trial-lifecycle');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const trial = answer.body.trials.find((row: { trialId: string }) => row.trialId === trialId);
    expect(trial).toMatchObject({ title: 'Asthma study', status: 'recruiting', targetEnrollment: 10, enrolledInRange: 1, enrolledTotal: 2 });
    expect(trial.daysInStatus.map((row: { status: string }) => row.status)).toContain('recruiting');
    expect(trial.enrollment.at(-1).cumulative).toBe(1);
    // Recruiting since today: no rate to project from yet.
    expect(trial.forecast).toMatchObject({ status: 'no-data', expectedDate: null });
    expect((await b.actor.get('/api/dashboard/trial-lifecycle')).body.trials).toEqual([]);
  });
});

describe('trial-matcher', () => {
  it('answers with no results before any matching run', async () => {
    const answer = await a.actor.get('/api/dashboard/trial-matcher');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ totals: { found: 0, contacted: 0, converted: 0 }, trials: [], topGaps: [] });
  });
});

describe('costs', () => {
  it('gives spend by channel and the cost of each step', async () => {
    const answer = await a.actor.get('/api/dashboard/costs');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.total).toBe(4);
    expect(answer.body.byChannel).toEqual([
      { source: 'call', label: 'call_minutes', amount: 3.5 },
      { source: 'sms', label: 'sms_segments', amount: 0.5 },
    ]);
    expect(answer.body.unitCosts).toEqual([
      { unit: 'prescreen', count: 3, cost: 1.33 },
      { unit: 'pass', count: 2, cost: 2 },
      { unit: 'booked_visit', count: 1, cost: 4 },
      { unit: 'enrolled', count: 1, cost: 4 },
    ]);
    expect((await a.actor.get('/api/dashboard/costs?preset=all')).body.total).toBe(8);
  });
});

describe('customer-overview', () => {
  it('is for Cohortly admins only', async () => {
    expect((await a.actor.get('/api/dashboard/customer-overview')).status).toBe(403);
    expect((await a.actor.get('/api/dashboard/export?tab=customer-overview')).status).toBe(403);
    const adminInA = await t.signInAdmin();
    adminInA.activeOrganizationId = a.organizationId;
    expect((await adminInA.get('/api/dashboard/customer-overview')).status).toBe(403);
  });

  it('shows each customer with activity, sign-in and health flags', async () => {
    const answer = await admin.get('/api/dashboard/customer-overview');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ids = answer.body.organizations.map((row: { organizationId: string }) => row.organizationId);
    expect(ids).toEqual(expect.arrayContaining([a.organizationId, b.organizationId]));
    expect(ids).not.toContain(demoOrganizationId);
    const alpha = answer.body.organizations.find((row: { organizationId: string }) => row.organizationId === a.organizationId);
    expect(alpha).toMatchObject({
      name: 'Alpha Research',
      candidatesCreated: 5,
      enrolled: 1,
      spend: 4,
      recruitingTrials: 1,
      lastActivityDay: today,
      optOutRate: 33.3,
      flags: ['high_opt_out'],
    });
    expect(alpha.lastSignInAt).not.toBeNull();
    const beta = answer.body.organizations.find((row: { organizationId: string }) => row.organizationId === b.organizationId);
    expect(beta).toMatchObject({ name: 'Beta Clinic', candidatesCreated: 7, recruitingTrials: 0, flags: [] });
  });
});

/** A minimal RFC 4180 reader (quotes, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') row.push(cell), (cell = '');
    else if (char === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (char !== '\r') cell += char;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

describe('CSV export', () => {
  it('exports a tab with the same filters as a download', async () => {
    const answer = await a.actor.request('GET', '/api/dashboard/export?tab=funnel-breakdown&preset=7d&source=import', undefined, { accept: 'text/csv' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="cohortly-funnel-breakdown-${today}.csv"`);
    const rows = parseCsv(answer.body as string);
    expect(rows[0]).toEqual(['section', 'group', 'metric', 'value']);
    const value = (section: string, group: string, metric: string) => rows.find((row) => row[0] === section && row[1] === group && row[2] === metric)?.[3];
    expect(value('filters', '', 'from')).toBe(addDays(today, -6));
    expect(value('filters', '', 'source')).toBe('import');
    expect(value('stages', 'created', 'count')).toBe('3');
    expect(value('stages', 'prescreened', 'count')).toBe('0');
  });

  it('exports every tab a site user may see', async () => {
    for (const tab of ['prescreen-analytics', 'patient-satisfaction', 'trial-lifecycle', 'trial-matcher', 'costs']) {
      const answer = await a.actor.get(`/api/dashboard/export?tab=${tab}`);
      expect(answer.status, tab).toBe(200);
      expect(
        parseCsv(answer.body as string).every((row) => row.length === 4),
        tab,
      ).toBe(true);
    }
    const costs = parseCsv((await a.actor.get('/api/dashboard/export?tab=costs')).body as string);
    expect(costs.find((row) => row[0] === 'unit_costs' && row[1] === 'prescreen' && row[2] === 'cost_usd')?.[3]).toBe('1.33');
    const overview = parseCsv((await admin.get('/api/dashboard/export?tab=customer-overview')).body as string);
    expect(overview.find((row) => row[1] === 'Alpha Research' && row[2] === 'flags')?.[3]).toBe('high_opt_out');
    expect((await a.actor.get('/api/dashboard/export?tab=nope')).status).toBe(400);
  });
});

describe('over-time buckets against the raw events', () => {
  it('every bucket (day, week, month) of prescreen results, spend and enrollments equals a count over activity_event, partial edge months included (property, seeded)', async () => {
    const m = await t.signUp({ organizationName: 'Bucket Research' });
    const created = await createRecruitingTrial(m.actor, { title: 'Bucket study', targetEnrollment: 50 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bucketTrial = created.body.id as string;
    const next = seededRandom(20261124);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const SPAN = 430;
    const at = (daysAgo: number) => new Date(Date.parse(`${addDays(today, -daysAgo)}T00:00:00Z`) + Math.floor(next() * 86_400_000));
    const event = (daysAgo: number): Event => {
      const occurredAt = at(daysAgo);
      const source = pick(['call', 'chat', 'sms', 'manual'] as const);
      switch (pick(['prescreen', 'spend', 'enrolled'] as const)) {
        case 'prescreen':
          return { kind: 'prescreen_result', source, label: pick(['PASS', 'FAIL', 'INCONCLUSIVE', 'POTENTIAL']), value: 1, trialId: bucketTrial, occurredAt };
        case 'spend':
          return { kind: 'spend', source, label: 'call_minutes', value: Math.round(next() * 500) / 100, occurredAt };
        case 'enrolled':
          return { kind: 'status_changed', source, label: 'enrolled', trialId: bucketTrial, occurredAt };
      }
    };
    // Random days over 14 months, and every day around two month edges (the 14th..16th of the month 13 months ago and
    // the 9th..12th of last month), so a range from the 15th to the 10th has events just outside both partial months.
    const startMonth = `${addDays(today, -395).slice(0, 7)}-15`;
    const endMonth = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-10`;
    const daysAgoOf = (day: string) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);
    const edgeDays = [-1, 0, 1].map((offset) => addDays(startMonth, offset)).concat([-1, 0, 1, 2].map((offset) => addDays(endMonth, offset)));
    const events = [
      ...Array.from({ length: 600 }, () => event(1 + Math.floor(next() * SPAN))),
      ...edgeDays.flatMap((day) => Array.from({ length: 3 }, () => event(daysAgoOf(day)))),
    ];
    for (let index = 0; index < events.length; index += 100) await record(m.organizationId, events.slice(index, index + 100));

    /** The raw events' counts and sums by bucket (first day, UTC) in [from, to] (from null: since ever). */
    const raw = async (bucket: string, from: string | null, to: string) =>
      rowsOf<{ period: string; kind: string; label: string; count: number; value: number }>(
        await t.deps.db.execute(sql`
          select to_char(date_trunc(${bucket}, occurred_at at time zone 'UTC'), 'YYYY-MM-DD') as period, kind, label, count(*)::int as count,
            coalesce(sum(value), 0)::float8 as value
          from activity_event
          where organization_id = ${m.organizationId} and occurred_at < ${`${addDays(to, 1)}T00:00:00Z`}
            ${from ? sql`and occurred_at >= ${`${from}T00:00:00Z`}` : sql``}
          group by 1, 2, 3`),
      );
    const ranges: Array<[string | null, string]> = [
      [null, today],
      [startMonth, endMonth],
      [addDays(today, -29), today],
      [addDays(today, -120), addDays(today, -20)],
    ];
    for (let round = 0; round < 10; round++) {
      const from = addDays(today, -Math.floor(next() * SPAN));
      ranges.push([from, addDays(from, Math.floor(next() * (daysAgoOf(from) + 1)))]);
    }
    const seen = new Set<string>();
    for (const [from, to] of ranges) {
      const query = from ? `from=${from}&to=${to}` : `preset=all&to=${to}`;
      const prescreen = (await m.actor.get(`/api/dashboard/prescreen-analytics?${query}`)).body;
      const costs = (await m.actor.get(`/api/dashboard/costs?${query}`)).body;
      const lifecycle = (await m.actor.get(`/api/dashboard/trial-lifecycle?${query}`)).body;
      const { bucket } = prescreen;
      seen.add(bucket);
      expect([costs.bucket, lifecycle.bucket], query).toEqual([bucket, bucket]);
      const rows = await raw(bucket, from, to);
      const periods = (kind: string, label?: string, value = false) => {
        const sums = new Map<string, number>();
        for (const row of rows.filter((row) => row.kind === kind && (label === undefined || row.label === label)))
          sums.set(row.period, (sums.get(row.period) ?? 0) + (value ? row.value : row.count));
        return [...sums.entries()].sort(([x], [y]) => x.localeCompare(y));
      };
      expect(
        prescreen.overTime.map((row: Record<string, number | string>) => [
          row.period,
          Number(row.PASS) + Number(row.FAIL) + Number(row.INCONCLUSIVE) + Number(row.POTENTIAL),
        ]),
        query,
      ).toEqual(periods('prescreen_result'));
      expect(
        prescreen.overTime.map((row: { period: string; PASS: number }) => [row.period, row.PASS]).filter(([, count]: [string, number]) => count > 0),
        query,
      ).toEqual(periods('prescreen_result', 'PASS'));
      const spend = periods('spend', undefined, true);
      expect(
        costs.overTime.map((row: { period: string }) => row.period),
        query,
      ).toEqual(spend.map(([period]) => period));
      for (const [index, row] of (costs.overTime as Array<{ amount: number }>).entries())
        expect(Math.abs(row.amount - spend[index][1]), query).toBeLessThan(0.006);
      const trial = lifecycle.trials.find((row: { trialId: string }) => row.trialId === bucketTrial);
      expect(
        trial.enrollment.map((row: { period: string; enrolled: number }) => [row.period, row.enrolled]),
        query,
      ).toEqual(periods('status_changed', 'enrolled'));
    }
    // The partial edge months above are a real test: their months hold events on days outside the range.
    expect((await raw('month', `${startMonth.slice(0, 7)}-01`, addDays(startMonth, -1))).length).toBeGreaterThan(0);
    expect((await raw('month', addDays(endMonth, 1), addDays(endMonth, 2))).length).toBeGreaterThan(0);
    expect([...seen].sort()).toEqual(['day', 'month', 'week']);
    // The CSV carries the bucket.
    const csv = parseCsv((await m.actor.get(`/api/dashboard/export?tab=costs&from=${startMonth}&to=${endMonth}`)).body as string);
    expect(csv).toContainEqual(['filters', '', 'bucket', 'month']);
    expect(csv.filter((row) => row[0] === 'spend_by_month').length).toBeGreaterThan(6);
    const lifecycleCsv = parseCsv((await m.actor.get(`/api/dashboard/export?tab=trial-lifecycle&from=${startMonth}&to=${endMonth}`)).body as string);
    expect(lifecycleCsv.some((row) => row[0] === 'enrollment_by_month' && row[1] === 'Bucket study')).toBe(true);
  });
});

describe('rollups against the raw events', () => {
  it('tab totals equal a direct count over activity_event for random ranges and sources', async () => {
    const next = seededRandom(20261123);
    const sources = [undefined, 'call', 'chat', 'sms', 'import', 'manual'] as const;
    // 25 random ranges (most hold whole months and edge days: decision 041's split read), then "all" (the all-time
    // totals) for every source.
    const ranges = Array.from({ length: 25 }, () => {
      const from = addDays(today, -Math.floor(next() * 240));
      return { from, to: addDays(from, Math.floor(next() * 120)), source: sources[Math.floor(next() * sources.length)] };
    });
    for (const source of sources) ranges.push({ from: '2000-01-01', to: today, source });
    for (const { from, to, source } of ranges) {
      const range = from === '2000-01-01' ? 'preset=all' : `from=${from}&to=${to}`;
      const query = `orgs=${a.organizationId},${b.organizationId}&${range}${source ? `&source=${source}` : ''}`;
      const raw = rowsOf<{ kind: string; label: string; count: number; value: number | null }>(
        await t.deps.db.execute(sql`
          select kind, label, count(*)::int as count, sum(value)::float8 as value from activity_event
          where organization_id in (${a.organizationId}, ${b.organizationId})
            and occurred_at >= ${`${from}T00:00:00Z`} and occurred_at < ${`${addDays(to, 1)}T00:00:00Z`}
            ${source ? sql`and source = ${source}` : sql``}
          group by kind, label`),
      );
      const count = (kind: string, label?: string) =>
        raw.filter((row) => row.kind === kind && (label === undefined || row.label === label)).reduce((sum, row) => sum + Number(row.count), 0);
      const funnel = (await admin.get(`/api/dashboard/funnel-breakdown?${query}`)).body;
      expect(stage(funnel, 'created'), query).toBe(count('candidate_created'));
      expect(stage(funnel, 'contacted'), query).toBe(count('status_changed', 'contacted'));
      expect(stage(funnel, 'prescreened'), query).toBe(count('prescreen_result'));
      expect(stage(funnel, 'enrolled'), query).toBe(count('status_changed', 'enrolled'));
      const spend = raw.filter((row) => row.kind === 'spend').reduce((sum, row) => sum + Number(row.value), 0);
      expect((await admin.get(`/api/dashboard/costs?${query}`)).body.total, query).toBeCloseTo(spend, 2);
      expect((await admin.get(`/api/dashboard/prescreen-analytics?${query}`)).body.totals.results, query).toBe(count('prescreen_result'));
      expect((await admin.get(`/api/dashboard/patient-satisfaction?${query}`)).body.ratings, query).toBe(count('satisfaction_rated'));
    }
  });
});

/** Last: it adds a trial and enrollments the tabs above would count. */
describe('trial-lifecycle forecast', () => {
  it('projects the date a recruiting trial reaches its target, with 80% and 95% bands', async () => {
    const created = await createRecruitingTrial(a.actor, { title: 'Long-running study', targetEnrollment: 4 });
    const longId = created.body.id;
    // Recruiting for 60 days, two enrollments so far: about one a month, two more to go.
    await t.deps.db
      .update(trialTable)
      // Exact instants, not ago()'s noon: days in status counts from the moment, so noon would read 60.5 late in the day.
      .set({ createdAt: daysBefore(70), statusHistory: [{ from: 'draft', to: 'recruiting', at: daysBefore(60).toISOString(), byUserId: null }] })
      .where(eq(trialTable.id, longId));
    await record(a.organizationId, [
      { kind: 'status_changed', source: 'manual', label: 'enrolled', trialId: longId, occurredAt: ago(40) },
      { kind: 'status_changed', source: 'manual', label: 'enrolled', trialId: longId, occurredAt: ago(20) },
    ]);
    const answer = await a.actor.get('/api/dashboard/trial-lifecycle');
    const long = answer.body.trials.find((row: { trialId: string }) => row.trialId === longId);
    expect(long).toMatchObject({ enrolledTotal: 2, targetEnrollment: 4 });
    expect(long.daysInStatus.find((row: { status: string }) => row.status === 'recruiting').days).toBeCloseTo(60, 0);
    expect(long.forecast.status).toBe('ok');
    const { expectedDate, band80, band95 } = long.forecast;
    expect(expectedDate > today).toBe(true);
    expect(band95.low <= band80.low && band80.low <= expectedDate && expectedDate <= band80.high && band80.high <= band95.high).toBe(true);
    // About two months to go at one a month: the median within a year.
    expect(expectedDate < addDays(today, 365)).toBe(true);
  });
});

/** Last too: a real matching run in an organization of its own, through the API. */
describe('trial-matcher with results', () => {
  it('counts matches found, contacted and converted, and the top gaps', async () => {
    const m = await t.signUp({ organizationName: 'Matcher Research' });
    const asthma = [{ id: 'mesh:D001249', name: 'asthma' }];
    const created = await createRecruitingTrial(m.actor, {
      title: 'Asthma controller study',
      criteria: [
        { kind: 'inclusion', text: 'Aged 18 to 65', rule: { type: 'age', minYears: 18, maxYears: 65 } },
        { kind: 'inclusion', text: 'Physician-diagnosed asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } },
        { kind: 'exclusion', text: 'Current smoker', rule: { type: 'smoking', smoker: false } },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const year = new Date().getUTCFullYear();
    const people: Record<string, string> = {};
    for (const [name, age, facts] of [
      [
        'Ann',
        40,
        [
          { kind: 'condition', name: 'asthma', status: 'present' },
          { kind: 'smoking', name: 'smoking', status: 'absent' },
        ],
      ],
      ['Bob', 30, [{ kind: 'condition', name: 'asthma', status: 'present' }]],
      ['Cat', 80, [{ kind: 'condition', name: 'asthma', status: 'present' }]],
      [
        'Dan',
        35,
        [
          { kind: 'condition', name: 'asthma', status: 'present' },
          { kind: 'smoking', name: 'smoking', status: 'present' },
        ],
      ],
    ] as const) {
      const person = await m.actor.post('/api/candidates/', { firstName: name, lastName: 'Match', dateOfBirth: `${year - age}-01-01` });
      expect(person.status).toBe(201);
      people[name] = person.body.id;
      for (const fact of facts) expect((await m.actor.post(`/api/candidates/${person.body.id}/clinical/facts`, fact)).status).toBe(201);
    }
    const run = await m.actor.post(`/api/trial-matcher/${created.body.id}/runs`, {});
    expect(run.status).toBe(202);
    await whenMatchRunSettled(run.body.id);
    const overview = (await m.actor.get(`/api/trial-matcher/${created.body.id}`)).body;
    const found = overview.counts.likely + overview.counts.possible;
    expect(found).toBe(2);
    // Ann is contacted and enrolled; Bob is contacted.
    for (const status of ['contacted', 'enrolled']) expect((await m.actor.patch(`/api/candidates/${people.Ann}`, { status })).status).toBe(200);
    expect((await m.actor.patch(`/api/candidates/${people.Bob}`, { status: 'contacted' })).status).toBe(200);
    // A re-run, with the first run's rows back as if the process had stopped before deleting them (decision 113):
    // each trial counts its latest completed run only.
    const rerun = await m.actor.post(`/api/trial-matcher/${created.body.id}/runs`, {});
    expect(rerun.status).toBe(202);
    await whenMatchRunSettled(rerun.body.id);
    await t.deps.db.execute(sql`
      insert into trial_match (run_id, organization_id, trial_id, candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_ids, unknown_ids)
      select ${run.body.id}::uuid, organization_id, trial_id, candidate_id, match_class, class_rank, score, met_count, unknown_count, not_met_ids, unknown_ids
      from trial_match where run_id = ${rerun.body.id}::uuid`);

    const answer = await m.actor.get('/api/dashboard/trial-matcher');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.totals).toEqual({ found: 2, contacted: 2, converted: 1 });
    expect(answer.body.trials).toEqual([
      {
        trialId: created.body.id,
        trialTitle: 'Asthma controller study',
        found: 2,
        likely: overview.counts.likely,
        possible: overview.counts.possible,
        contacted: 2,
        converted: 1,
      },
    ]);
    const gaps = Object.fromEntries(answer.body.topGaps.map((gap: { text: string; notMet: number }) => [gap.text, gap.notMet]));
    expect(gaps).toMatchObject({ 'Aged 18 to 65': 1, 'Current smoker': 1 });
    // Another organization's staff see none of it.
    expect((await a.actor.get(`/api/dashboard/trial-matcher?orgs=${m.organizationId}`)).body.trials).toEqual([]);
  });
});

/** Prescreen results with their criterion evaluations (inserted as stored; they record no events). */
describe('prescreen-analytics failing criteria', () => {
  it('lists the criteria that disqualified people most in the range, by source', async () => {
    const db = t.deps.db;
    const [person] = await db.insert(candidate).values({ organizationId: a.organizationId, firstName: 'Eval', lastName: 'Person' }).returning();
    const [form] = await db.insert(prescreenForm).values({ organizationId: a.organizationId, trialId, name: 'Asthma form', status: 'published' }).returning();
    const [version] = await db.insert(prescreenFormVersion).values({ organizationId: a.organizationId, formId: form.id, version: 1, blocks: [] }).returning();
    const evaluation = (criterionId: string, kind: 'inclusion' | 'exclusion', text: string, disqualifying: boolean) => ({
      criterionId,
      kind,
      text,
      status: disqualifying ? 'not_met' : 'met',
      covered: true,
      conflict: false,
      disqualifying,
      decidingQuestionId: null,
      decidingAnswer: null,
      reason: '',
      outcomes: [],
    });
    const age = (disqualifying: boolean) => evaluation('c-age', 'inclusion', 'Aged 18 to 65', disqualifying);
    const smoker = (disqualifying: boolean) => evaluation('c-smoke', 'exclusion', 'Current smoker', disqualifying);
    const result = (sourceType: 'call' | 'chat', evaluations: unknown[], createdAt: Date) => ({
      organizationId: a.organizationId,
      candidateId: person.id,
      trialId,
      formId: form.id,
      formVersionId: version.id,
      sourceType,
      answers: [],
      evaluations,
      aiRecommendation: 'FAIL' as const,
      createdAt,
    });
    await db
      .insert(prescreenResult)
      .values([result('call', [age(true), smoker(true)], ago(2)), result('chat', [age(false), smoker(true)], ago(3)), result('call', [age(true)], ago(60))]);
    const failing = async (query: string) =>
      Object.fromEntries(
        (await a.actor.get(`/api/dashboard/prescreen-analytics?${query}`)).body.failingCriteria.map(
          (row: { text: string; failures: number; trialTitle: string }) => [row.text, [row.failures, row.trialTitle]],
        ),
      );
    expect(await failing('')).toEqual({ 'Current smoker': [2, 'Asthma study'], 'Aged 18 to 65': [1, 'Asthma study'] });
    expect(await failing('preset=90d')).toEqual({ 'Current smoker': [2, 'Asthma study'], 'Aged 18 to 65': [2, 'Asthma study'] });
    expect(await failing('source=call')).toEqual({ 'Current smoker': [1, 'Asthma study'], 'Aged 18 to 65': [1, 'Asthma study'] });
    expect(await failing('source=sms')).toEqual({});
    expect((await b.actor.get(`/api/dashboard/prescreen-analytics?orgs=${a.organizationId}`)).body.failingCriteria).toEqual([]);
    const csv = parseCsv((await a.actor.get('/api/dashboard/export?tab=prescreen-analytics')).body as string);
    expect(csv.find((row) => row[0] === 'failing_criteria' && row[1] === 'Asthma study: Current smoker')?.[3]).toBe('2');
  });
});

describe('trial-matcher tab: the trial named briefly, do-not-contact (issue 32, decision 169)', () => {
  it('names the trial by its brief title and counts a person marked do-not-contact only when reached before', async () => {
    const m = await t.signUp({ organizationName: 'Brief Names Research' });
    const asthma = [{ id: 'mesh:D001249', name: 'asthma' }];
    const created = await createRecruitingTrial(m.actor, {
      title: 'A Phase 3, Randomized, Double-blind, Placebo-controlled Study of an Inhaled Biologic in Adults With Moderate to Severe Asthma',
      publicTitle: 'Inhaled biologic for asthma',
      criteria: [{ kind: 'inclusion', text: 'Physician-diagnosed asthma', rule: { type: 'condition', condition: 'asthma', present: true, concepts: asthma } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ids: string[] = [];
    for (const name of ['Eve', 'Fay']) {
      const person = await m.actor.post('/api/candidates/', { firstName: name, lastName: 'Brief', dateOfBirth: '1980-01-01' });
      expect(person.status).toBe(201);
      ids.push(person.body.id);
      const fact = { kind: 'condition', name: 'asthma', status: 'present' };
      expect((await m.actor.post(`/api/candidates/${person.body.id}/clinical/facts`, fact)).status).toBe(201);
    }
    const run = await m.actor.post(`/api/trial-matcher/${created.body.id}/runs`, {});
    expect(run.status).toBe(202);
    await whenMatchRunSettled(run.body.id);
    // Eve is marked do-not-contact while still new (never reached); Fay is reached first, then asks not to be contacted.
    expect((await m.actor.patch(`/api/candidates/${ids[0]}`, { status: 'do_not_contact' })).status).toBe(200);
    for (const status of ['contacted', 'do_not_contact']) expect((await m.actor.patch(`/api/candidates/${ids[1]}`, { status })).status).toBe(200);

    const answer = await m.actor.get('/api/dashboard/trial-matcher');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.trials).toMatchObject([{ trialTitle: 'Inhaled biologic for asthma', found: 2, contacted: 1 }]);
    expect(answer.body.totals).toMatchObject({ found: 2, contacted: 1 });
    // The matcher's own screen names the trial briefly too; the trial's page keeps the official title.
    expect((await m.actor.get(`/api/trial-matcher/${created.body.id}`)).body.trial.title).toBe('Inhaled biologic for asthma');
    expect((await m.actor.get(`/api/trials/${created.body.id}`)).body.title).toMatch(/^A Phase 3, Randomized/);
  });
});

describe('contacted, one definition (issue 32, decision 159)', () => {
  it('counts a person whose status left new without passing through contacted, as the matcher tab does', async () => {
    const site = await t.signUp({ organizationName: 'Gamma Contact Clinic' });
    const contacted = async () => stage((await site.actor.get('/api/dashboard/funnel-breakdown')).body, 'contacted');
    const person = await site.actor.post('/api/candidates', { firstName: 'Quinn', lastName: 'Vance', phone: '+12025550173' });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    expect(await contacted()).toBe(0);
    // Straight from new to not interested (a reply to an invitation): the person was reached, so contacted.
    expect((await site.actor.patch(`/api/candidates/${person.body.id}`, { status: 'not_interested' })).status).toBe(200);
    expect(await contacted()).toBe(1);
    // Through contacted the usual way: counted once, not twice.
    const other = await site.actor.post('/api/candidates', { firstName: 'Rita', lastName: 'Moss', phone: '+12025550174' });
    expect((await site.actor.patch(`/api/candidates/${other.body.id}`, { status: 'contacted' })).status).toBe(200);
    expect((await site.actor.patch(`/api/candidates/${other.body.id}`, { status: 'prescreening' })).status).toBe(200);
    expect(await contacted()).toBe(2);
  });

  it('does not count a new person marked do-not-contact: nobody reached them (decision 169)', async () => {
    const site = await t.signUp({ organizationName: 'Delta Contact Clinic' });
    const contacted = async () => stage((await site.actor.get('/api/dashboard/funnel-breakdown')).body, 'contacted');
    const person = await site.actor.post('/api/candidates', { firstName: 'Sol', lastName: 'Price', phone: '+12025550175' });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    expect((await site.actor.patch(`/api/candidates/${person.body.id}`, { status: 'do_not_contact' })).status).toBe(200);
    expect(await contacted()).toBe(0);
    // Reached first, then asked not to be contacted again: that person was contacted, once.
    const other = await site.actor.post('/api/candidates', { firstName: 'Tess', lastName: 'Lowe', phone: '+12025550176' });
    expect((await site.actor.patch(`/api/candidates/${other.body.id}`, { status: 'contacted' })).status).toBe(200);
    expect((await site.actor.patch(`/api/candidates/${other.body.id}`, { status: 'do_not_contact' })).status).toBe(200);
    expect(await contacted()).toBe(1);
  });
});
