import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityKind, ActivitySource } from '../../src/contract/activity';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { LEAN_MONTHLY_ROLLUPS, recordActivity, TIME_TO_RESULT_KIND, type ActivityEntry } from '../../src/server/activity';
import {
  activityDaily,
  activityEvent,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  NO_TRIAL,
  prescreenForm,
  prescreenFormVersion,
} from '../../src/server/db/schema';
import { rowsOf, runAsOrganization } from '../../src/server/db/scoped';
import { firstActivityDay, kindDailyFits, lastActivityDays, leanRollupFor, rollup, timeToResultHistogram } from '../../src/server/features/dashboard/queries';
import { addDays, splitRange } from '../../src/server/features/dashboard/range';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The activity event model (decision 031): the product's own actions write their funnel steps once, in the
 * change's transaction, and the daily, monthly and all-time rollups always equal a count over the raw events (also
 * read by month, decision 044).
 */

let t: TestApp;
let site: SignedUp;
let phoneSeq = 0;
const nextPhone = () => `+1212555${String(3000 + ++phoneSeq).slice(-4)}`;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Avery Analyst', organizationName: 'Lakeside Research' });
});
afterAll(() => t?.close());

const eventsOf = (organizationId: string) => t.deps.db.select().from(activityEvent).where(eq(activityEvent.organizationId, organizationId));
const kindsFor = async (candidateId: string) =>
  (await t.deps.db.select().from(activityEvent).where(eq(activityEvent.candidateId, candidateId)))
    .map((row) => `${row.kind}:${row.source}:${row.label}`)
    .sort();

const asMap = (rows: Array<{ key: string; count: number; value: number }>) =>
  Object.fromEntries(rows.map((row) => [row.key, [Number(row.count), Math.round(Number(row.value) * 1e6) / 1e6]]));

/**
 * A direct count over the raw events per (kind, source, label, trial) of one organization, for UTC days in
 * [from, to] (from null: since ever); `byMonth` puts the event's UTC month first in the key.
 */
async function rawCounts(organizationId: string, from: string | null, to: string, byMonth = false) {
  const month = byMonth ? sql`to_char(date_trunc('month', ${activityEvent.occurredAt} at time zone 'UTC'), 'YYYY-MM-DD') || '|' || ` : sql``;
  const raw = await t.deps.db
    .select({
      key: sql<string>`${month}${activityEvent.kind} || '|' || ${activityEvent.source} || '|' || ${activityEvent.label} || '|' || coalesce(${activityEvent.trialId}, ${NO_TRIAL}::uuid)`,
      count: sql<number>`count(*)::int`,
      value: sql<number>`coalesce(sum(${activityEvent.value}), 0)`,
    })
    .from(activityEvent)
    .where(
      and(
        eq(activityEvent.organizationId, organizationId),
        sql`(${activityEvent.occurredAt} at time zone 'UTC')::date <= ${to}::date`,
        from === null ? undefined : sql`(${activityEvent.occurredAt} at time zone 'UTC')::date >= ${from}::date`,
      ),
    )
    .groupBy(sql`1`);
  return asMap(raw);
}

/** Rollup count and raw count per (kind, source, label, trial) of one organization, for days in [from, to]. */
async function compare(organizationId: string, from: string, to: string) {
  const rolled = await t.deps.db
    .select({
      key: sql<string>`${activityDaily.kind} || '|' || ${activityDaily.source} || '|' || ${activityDaily.label} || '|' || ${activityDaily.trialId}`,
      count: sql<number>`sum(${activityDaily.count})::int`,
      value: sql<number>`sum(${activityDaily.valueSum})`,
    })
    .from(activityDaily)
    .where(and(eq(activityDaily.organizationId, organizationId), gte(activityDaily.day, from), lte(activityDaily.day, to)))
    .groupBy(sql`1`);
  return { rolled: asMap(rolled), raw: await rawCounts(organizationId, from, to) };
}

/** The monthly rollup's count per key for the months [from, to] (first days), against the raw events of those months. */
async function compareMonths(organizationId: string, from: string, to: string) {
  const rolled = await t.deps.db
    .select({
      key: sql<string>`${activityMonthly.kind} || '|' || ${activityMonthly.source} || '|' || ${activityMonthly.label} || '|' || ${activityMonthly.trialId}`,
      count: sql<number>`sum(${activityMonthly.count})::int`,
      value: sql<number>`sum(${activityMonthly.valueSum})`,
    })
    .from(activityMonthly)
    .where(and(eq(activityMonthly.organizationId, organizationId), gte(activityMonthly.month, from), lte(activityMonthly.month, to)))
    .groupBy(sql`1`);
  const lastDay = addDays(`${addDays(to, 31).slice(0, 7)}-01`, -1);
  return { rolled: asMap(rolled), raw: await rawCounts(organizationId, from, lastDay) };
}

/** The all-time rollup against every raw event of the organization. */
async function compareTotal(organizationId: string) {
  const rolled = await t.deps.db
    .select({
      key: sql<string>`${activityTotal.kind} || '|' || ${activityTotal.source} || '|' || ${activityTotal.label} || '|' || ${activityTotal.trialId}`,
      count: sql<number>`sum(${activityTotal.count})::int`,
      value: sql<number>`sum(${activityTotal.valueSum})`,
    })
    .from(activityTotal)
    .where(eq(activityTotal.organizationId, organizationId))
    .groupBy(sql`1`);
  return { rolled: asMap(rolled), raw: await rawCounts(organizationId, null, '9999-12-31') };
}

/**
 * Each lean monthly rollup (decision 078) read as the dashboard reads it, by month over the range (its whole months
 * from the lean table, edge days from the daily one), against the raw events of its kind (and label). The read must
 * take the lean table: that is asserted too.
 */
async function compareLeanReads(organizationId: string, from: string | null, to: string) {
  const filter = { organizationIds: [organizationId], range: { from, to, preset: null } };
  const compared: Array<{ name: string; rolled: ReturnType<typeof asMap>; raw: ReturnType<typeof asMap> }> = [];
  for (const lean of LEAN_MONTHLY_ROLLUPS) {
    const labels = lean.label === undefined ? undefined : [lean.label];
    expect(leanRollupFor(filter, [lean.kind], lean.keys, labels)?.rollup).toBe(lean);
    const rows = await runAsOrganization(t.deps.db, organizationId, (tx) => rollup(tx, filter, [lean.kind], [...lean.keys, 'month'], labels));
    const rolled = asMap(rows.map((row) => ({ key: [row.period, ...lean.keys.map((key) => row[key])].join('|'), count: row.count, value: row.value_sum })));
    const keyColumns = lean.keys.map((key) => (key === 'trial_id' ? `coalesce(trial_id, '${NO_TRIAL}'::uuid)::text` : key));
    const result = await t.deps.db.execute(sql`
      select ${sql.raw(`to_char(date_trunc('month', occurred_at at time zone 'UTC'), 'YYYY-MM-DD') || '|' || ${keyColumns.join(" || '|' || ")}`)} as key,
        count(*)::int as count, coalesce(sum(value), 0) as value
      from activity_event
      where organization_id = ${organizationId} and kind = ${lean.kind} ${lean.label === undefined ? sql`` : sql`and label = ${lean.label}`}
        and (occurred_at at time zone 'UTC')::date <= ${to}::date ${from === null ? sql`` : sql`and (occurred_at at time zone 'UTC')::date >= ${from}::date`}
      group by 1`);
    compared.push({ name: lean.kind, rolled, raw: asMap((result as unknown as { rows: Array<{ key: string; count: number; value: number }> }).rows) });
  }
  return compared;
}

/** The time-to-result histogram the dashboard reads for a range (and source), against the raw results bucketed directly. */
async function compareHistogram(organizationId: string, from: string | null, to: string, source?: ActivitySource) {
  const buckets = await runAsOrganization(t.deps.db, organizationId, (tx) =>
    timeToResultHistogram(tx, { organizationIds: [organizationId], range: { from, to, preset: null }, source }),
  );
  const result = await t.deps.db.execute(sql`
    select activity_hours_bucket(value) as bucket, count(*)::int as count from activity_event
    where organization_id = ${organizationId} and kind = ${TIME_TO_RESULT_KIND} and value is not null ${source ? sql`and source = ${source}` : sql``}
      and (occurred_at at time zone 'UTC')::date <= ${to}::date ${from === null ? sql`` : sql`and (occurred_at at time zone 'UTC')::date >= ${from}::date`}
    group by 1 order by 1`);
  return {
    rolled: buckets.map((row) => [row.bucket, row.count]),
    raw: (result as unknown as { rows: Array<{ bucket: number; count: number }> }).rows.map((row) => [Number(row.bucket), Number(row.count)]),
  };
}

/** What the dashboard reads for a range (whole months from the monthly rollup, edge days from the daily one), against the raw events. */
async function compareDashboardRead(organizationId: string, from: string | null, to: string) {
  const rows = await runAsOrganization(t.deps.db, organizationId, (tx) =>
    rollup(tx, { organizationIds: [organizationId], range: { from, to, preset: null } }, undefined, ['kind', 'source', 'label', 'trial_id']),
  );
  const rolled = asMap(rows.map((row) => ({ key: `${row.kind}|${row.source}|${row.label}|${row.trial_id}`, count: row.count, value: row.value_sum })));
  return { rolled, raw: await rawCounts(organizationId, from, to) };
}

describe('the product records its funnel steps', () => {
  it('a trial, a candidate, a status change, an SMS with its cost and delivery, a reply, and STOP', async () => {
    const trial = await site.actor.post('/api/trials/', { title: 'Migraine study', criteria: [{ kind: 'inclusion', text: 'Migraine for at least a year' }] });
    expect(trial.status, JSON.stringify(trial.body)).toBe(201);
    const trialId = trial.body.id as string;
    expect((await site.actor.patch(`/api/trials/${trialId}`, { status: 'recruiting' })).status).toBe(200);

    const person = await site.actor.post('/api/candidates/', {
      firstName: 'Nora',
      lastName: 'Nguyen',
      phone: nextPhone(),
      source: 'referral',
      trialIds: [trialId],
      consent: { sms: true },
    });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    const candidateId = person.body.id as string;
    expect((await site.actor.patch(`/api/candidates/${candidateId}`, { status: 'contacted' })).status).toBe(200);
    const sent = await site.actor.post('/api/sms/send', { candidateId, body: 'Hello from the migraine study team' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await site.actor.post('/api/sms/simulator/inbound', { candidateId, body: 'Sounds interesting' })).status).toBeLessThan(300);
    expect((await site.actor.post('/api/sms/simulator/inbound', { candidateId, body: 'STOP' })).status).toBeLessThan(300);

    expect(await kindsFor(candidateId)).toEqual(
      [
        'candidate_created:manual:',
        'status_changed:manual:contacted',
        'sms_sent:sms:transactional',
        'spend:sms:sms_segments',
        'sms_delivered:sms:transactional',
        'sms_replied:sms:reply',
        'sms_replied:sms:opt_out',
        'opted_out:sms:sms',
      ].sort(),
    );
    const events = await eventsOf(site.organizationId);
    // Funnel steps of a candidate count on the candidate's trial; one segment at the default rate.
    expect(events.find((row) => row.kind === 'status_changed')?.trialId).toBe(trialId);
    expect(events.find((row) => row.kind === 'spend')?.value).toBeCloseTo(0.0083, 6);
    expect(
      events
        .filter((row) => row.kind === 'trial_status_changed')
        .map((row) => row.label)
        .sort(),
    ).toEqual(['draft', 'recruiting']);
    // No personal data: labels are codes.
    expect(events.every((row) => !/Nora|Nguyen|migraine|interesting/i.test(`${row.label}${row.referenceId}`))).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const { rolled, raw } = await compare(site.organizationId, today, today);
    expect(rolled).toEqual(raw);
  });

  it('a prescreen result carries the time since first contact; a reviewer who overrides it is counted as an override', async () => {
    const trial = await site.actor.post('/api/trials/', { title: 'Sleep study', criteria: [{ kind: 'inclusion', text: 'Trouble sleeping' }] });
    const trialId = trial.body.id as string;
    const criterionId = trial.body.criteria[0].id as string;
    const blocks: StudyBlock[] = [
      {
        id: 'sleep',
        title: { en: 'Sleep' },
        questions: [
          {
            id: 'trouble',
            type: 'yes_no',
            wording: { phone: { en: 'Do you have trouble sleeping?' }, chat: { en: 'Trouble sleeping?' } },
            required: true,
            criterionLinks: [{ criterionId, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
          },
        ],
      },
    ];
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({ organizationId: site.organizationId, trialId, name: 'Sleep prescreen', status: 'published', currentVersion: 1 })
      .returning();
    await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
    const person = await site.actor.post('/api/candidates/', {
      firstName: 'Omar',
      lastName: 'Ortiz',
      phone: nextPhone(),
      trialIds: [trialId],
      consent: { sms: true },
    });
    const candidateId = person.body.id as string;
    expect((await site.actor.post('/api/sms/send', { candidateId, body: 'Hi, may we ask you a few questions?' })).status).toBe(201);

    const result = await site.actor.post('/api/prescreen/results', { candidateId, formId: form.id, answers: [{ questionId: 'trouble', value: false }] });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.aiRecommendation).toBe('FAIL');
    const decided = await site.actor.post('/api/prescreen/review/decision', {
      resultId: result.body.id,
      decision: 'approve',
      overrideRecommendation: 'PASS',
      reason: 'Sleeps badly per chart',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    const rows = await t.deps.db.select().from(activityEvent).where(eq(activityEvent.candidateId, candidateId));
    const prescreen = rows.find((row) => row.kind === 'prescreen_result')!;
    expect(prescreen).toMatchObject({ trialId, source: 'manual', label: 'FAIL' });
    expect(prescreen.value).toBeGreaterThanOrEqual(0);
    expect(prescreen.value).toBeLessThan(0.1);
    expect(rows.find((row) => row.kind === 'review_decision')).toMatchObject({ label: 'override', value: 1 });
    // From new straight to prescreen_failed: that first step is counted as contacted too (decision 159).
    expect(rows.filter((row) => row.kind === 'status_changed').map((row) => row.label)).toEqual(['contacted', 'prescreen_failed', 'prescreen_passed']);
  });
});

/** The dashboard's read by month (decision 044: whole months monthly, edge days daily, by the day's month), against the raw events by UTC month. */
async function compareMonthBuckets(organizationId: string, from: string | null, to: string) {
  const rows = await runAsOrganization(t.deps.db, organizationId, (tx) =>
    rollup(tx, { organizationIds: [organizationId], range: { from, to, preset: null } }, undefined, ['month', 'kind', 'source', 'label', 'trial_id']),
  );
  const rolled = asMap(
    rows.map((row) => ({ key: `${row.period}|${row.kind}|${row.source}|${row.label}|${row.trial_id}`, count: row.count, value: row.value_sum })),
  );
  return { rolled, raw: await rawCounts(organizationId, from, to, true) };
}

/**
 * A direct count over the raw events per (kind, label) of one organization for UTC days in [from, to] (from null:
 * since ever), with the day first when `byDay`, of one source when given.
 */
async function rawKindCounts(organizationId: string, from: string | null, to: string, byDay = false, source?: ActivitySource) {
  const result = await t.deps.db.execute(sql`
    select ${byDay ? sql`to_char((occurred_at at time zone 'UTC')::date, 'YYYY-MM-DD') || '|' || ` : sql``}kind || '|' || label as key,
      count(*)::int as count, coalesce(sum(value), 0) as value
    from activity_event
    where organization_id = ${organizationId} and (occurred_at at time zone 'UTC')::date <= ${to}::date
      ${from === null ? sql`` : sql`and (occurred_at at time zone 'UTC')::date >= ${from}::date`} ${source ? sql`and source = ${source}` : sql``}
    group by 1`);
  return asMap(rowsOf<{ key: string; count: number; value: number }>(result));
}

/** `activity_kind_daily` itself (decision 082) per (kind, label) for the days [from, to], against the raw events. */
async function compareKindDaily(organizationId: string, from: string, to: string) {
  const result = await t.deps.db.execute(sql`
    select kind || '|' || label as key, sum(count)::int as count, sum(value_sum) as value
    from activity_kind_daily where organization_id = ${organizationId} and day >= ${from}::date and day <= ${to}::date
    group by 1`);
  return { rolled: asMap(rowsOf<{ key: string; count: number; value: number }>(result)), raw: await rawKindCounts(organizationId, from, to) };
}

/**
 * The dashboard's reads that need no trial or source, which take their days from `activity_kind_daily` (decision
 * 082; asserted), by (kind, label) and by day, and the same read with a source (which cannot take it), against the
 * raw events.
 */
async function compareKindReads(organizationId: string, from: string | null, to: string) {
  const filter = { organizationIds: [organizationId], range: { from, to, preset: null } };
  const chat = { ...filter, source: 'chat' as const };
  expect(kindDailyFits(filter, ['kind', 'label'])).toBe(true);
  expect(kindDailyFits(filter, ['organization_id', 'kind', 'label'])).toBe(true);
  expect(kindDailyFits(chat, ['kind', 'label'])).toBe(false);
  expect(kindDailyFits(filter, ['kind', 'trial_id'])).toBe(false);
  expect(kindDailyFits(filter, ['source', 'label'])).toBe(false);
  const [byKind, byDay, bySource] = await runAsOrganization(t.deps.db, organizationId, async (tx) => [
    await rollup(tx, filter, undefined, ['kind', 'label']),
    await rollup(tx, filter, undefined, ['day', 'kind', 'label']),
    await rollup(tx, chat, undefined, ['kind', 'label']),
  ]);
  const keyed = (rows: typeof byKind) =>
    asMap(
      rows.map((row) => ({ key: [row.period, row.kind, row.label].filter((part) => part !== undefined).join('|'), count: row.count, value: row.value_sum })),
    );
  return [
    { name: 'by kind and label', rolled: keyed(byKind), raw: await rawKindCounts(organizationId, from, to) },
    { name: 'by day, kind and label', rolled: keyed(byDay), raw: await rawKindCounts(organizationId, from, to, true) },
    { name: 'chat, by kind and label', rolled: keyed(bySource), raw: await rawKindCounts(organizationId, from, to, false, 'chat') },
  ];
}

describe('the daily, monthly and all-time rollups', () => {
  it('equal a direct count over the raw events for random ranges, read by day, by month, all-time and as the dashboard reads (property, seeded)', async () => {
    const other = await t.signUp({ name: 'Parker Property', organizationName: 'Rollup Research' });
    let seed = 20261123;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const kinds: ActivityKind[] = ['candidate_created', 'status_changed', 'sms_sent', 'call_ended', 'spend', 'satisfaction_rated', 'prescreen_result'];
    const sources: ActivitySource[] = ['call', 'chat', 'sms', 'import', 'manual'];
    const trials = [null, '11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    // 150 days from 1 November 2025: five month ends and a year end.
    const start = Date.UTC(2025, 10, 1);
    const SPAN = 150;
    const entry = (occurredAt: Date): ActivityEntry => {
      const kind = pick(kinds);
      // Hours to a result span every histogram regime (1 h, 6 h, 1 day, the open bucket from 720 h).
      const scale = kind === 'prescreen_result' ? 100 : 1;
      return {
        organizationId: other.organizationId,
        trialId: pick(trials),
        kind,
        source: pick(sources),
        label: pick(['', 'a', 'b', 'enrolled', 'with "quotes", a comma and \\ a backslash']),
        value: random() < 0.5 ? null : (Math.round(random() * 1000) / 100) * scale,
        occurredAt,
      };
    };
    // Many batches of mixed events (some in the same batch with the same key, some crossing midnight UTC).
    for (let batch = 0; batch < 40; batch++) {
      const entries = Array.from({ length: 1 + Math.floor(random() * 30) }, () => entry(new Date(start + Math.floor(random() * SPAN * 86_400_000))));
      await runAsOrganization(t.deps.db, other.organizationId, (tx) => recordActivity(tx, entries));
    }
    // The last and first instants of months (UTC), written with other offsets too.
    const edges = ['2025-11-30T23:59:59.999Z', '2025-12-01T00:00:00.000Z', '2025-12-31T19:30:00-05:00', '2026-01-01T01:30:00+02:00', '2026-02-28T23:59:59Z'];
    await runAsOrganization(t.deps.db, other.organizationId, (tx) =>
      recordActivity(
        tx,
        edges.map((at) => entry(new Date(at))),
      ),
    );

    // And some this month, around today, one of them dated tomorrow: "all" up to today reads the all-time totals less the days after.
    const today = new Date().toISOString().slice(0, 10);
    const recent = ['T00:00:00Z', 'T12:00:00Z', 'T23:59:59Z'].flatMap((time) => [-40, -1, 0, 1].map((offset) => new Date(`${addDays(today, offset)}${time}`)));
    await runAsOrganization(t.deps.db, other.organizationId, (tx) => recordActivity(tx, recent.map(entry)));

    const day = (offset: number) => new Date(start + offset * 86_400_000).toISOString().slice(0, 10);
    for (let round = 0; round < 12; round++) {
      const a = Math.floor(random() * SPAN);
      const b = a + Math.floor(random() * (SPAN - a));
      const daily = await compare(other.organizationId, day(a), day(b));
      expect(daily.rolled, `daily ${day(a)}..${day(b)}`).toEqual(daily.raw);
      const monthA = `${day(a).slice(0, 7)}-01`;
      const monthly = await compareMonths(other.organizationId, monthA, `${day(b).slice(0, 7)}-01`);
      expect(monthly.rolled, `monthly ${monthA}..${day(b)}`).toEqual(monthly.raw);
      const kindDaily = await compareKindDaily(other.organizationId, day(a), day(b));
      expect(kindDaily.rolled, `kind daily ${day(a)}..${day(b)}`).toEqual(kindDaily.raw);
    }
    // The dashboard's reads: random ranges (most hold whole months and edge days), open starts, and month edges.
    const ranges: Array<[string | null, string]> = [
      [null, day(SPAN)],
      [null, today],
      [null, addDays(today, -1)],
      [null, addDays(today, 1)],
      [null, `${today.slice(0, 7)}-01`],
      [addDays(today, -40), today],
      [null, '2025-12-31'],
      [null, '2026-01-01'],
      ['2025-12-01', '2025-12-31'],
      ['2025-11-30', '2026-01-01'],
      ['2026-02-01', '2026-02-28'],
    ];
    for (let round = 0; round < 20; round++) {
      const a = Math.floor(random() * SPAN);
      ranges.push([day(a), day(a + Math.floor(random() * (SPAN - a)))]);
    }
    let split = 0;
    for (const [from, to] of ranges) {
      const { months, days } = splitRange({ from, to });
      if (months && days.length) split++;
      const read = await compareDashboardRead(other.organizationId, from, to);
      expect(read.rolled, `dashboard read ${from}..${to}`).toEqual(read.raw);
      const byMonth = await compareMonthBuckets(other.organizationId, from, to);
      expect(byMonth.rolled, `dashboard read by month ${from}..${to}`).toEqual(byMonth.raw);
      for (const lean of await compareLeanReads(other.organizationId, from, to)) expect(lean.rolled, `${lean.name} by month ${from}..${to}`).toEqual(lean.raw);
      for (const read of await compareKindReads(other.organizationId, from, to)) expect(read.rolled, `${read.name} ${from}..${to}`).toEqual(read.raw);
      const histogram = await compareHistogram(other.organizationId, from, to);
      expect(histogram.rolled, `time to result ${from}..${to}`).toEqual(histogram.raw);
      const bySource = await compareHistogram(other.organizationId, from, to, 'chat');
      expect(bySource.rolled, `time to result by chat ${from}..${to}`).toEqual(bySource.raw);
    }
    // The lean rollups and the histogram were fed (so the comparisons above compared something), in every bucket regime.
    const leanAll = await compareLeanReads(other.organizationId, null, today);
    expect(leanAll.every((lean) => Object.keys(lean.raw).length > 2)).toBe(true);
    expect((await compareKindReads(other.organizationId, null, today)).every((read) => Object.keys(read.raw).length > 5)).toBe(true);
    const regimes = (await compareHistogram(other.organizationId, null, today)).raw.map(([bucket]) =>
      bucket < 24 ? 'h' : bucket < 168 ? '6h' : bucket < 720 ? 'd' : 'open',
    );
    expect(new Set(regimes)).toEqual(new Set(['h', '6h', 'd', 'open']));
    expect(split).toBeGreaterThan(5);
    const total = await compareTotal(other.organizationId);
    expect(total.rolled).toEqual(total.raw);
    // The first and last day of activity (from the all-time rollup's key spans) equal the raw events' (decision 078).
    const span = await runAsOrganization(t.deps.db, other.organizationId, async (tx) => ({
      first: await firstActivityDay(tx, [other.organizationId]),
      last: (await lastActivityDays(tx, [other.organizationId])).get(other.organizationId),
    }));
    const rawSpan = await t.deps.db.execute(sql`
      select to_char(min((occurred_at at time zone 'UTC')::date), 'YYYY-MM-DD') as first, to_char(max((occurred_at at time zone 'UTC')::date), 'YYYY-MM-DD') as last
      from activity_event where organization_id = ${other.organizationId}`);
    expect(span).toEqual((rawSpan as unknown as { rows: Array<{ first: string; last: string }> }).rows[0]);
    expect(span.last).toBe(addDays(today, 1));
    // ~200 reads of 31 ranges: 18-36 s on PGlite at load 9-14, past the 30 s default.
  }, 120_000);

  it('row security: an organization sees only its own events and rollups', async () => {
    const rows = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => ({
      events: await tx.select({ organizationId: activityEvent.organizationId }).from(activityEvent),
      daily: await tx.select({ organizationId: activityDaily.organizationId }).from(activityDaily),
      monthly: await tx.select({ organizationId: activityMonthly.organizationId }).from(activityMonthly),
      total: await tx.select({ organizationId: activityTotal.organizationId }).from(activityTotal),
      kindDaily: await tx.select({ organizationId: activityKindDaily.organizationId }).from(activityKindDaily),
    }));
    expect(rows.events.length).toBeGreaterThan(0);
    expect(rows.monthly.length).toBeGreaterThan(0);
    expect(rows.total.length).toBeGreaterThan(0);
    expect(rows.kindDaily.length).toBeGreaterThan(0);
    expect(new Set([...rows.events, ...rows.daily, ...rows.monthly, ...rows.total, ...rows.kindDaily].map((row) => row.organizationId))).toEqual(
      new Set([site.organizationId]),
    );
  });

  it('events get time-ordered ids (UUID version 7), so each insert lands beside the last in the primary key (decision 102)', async () => {
    const other = await t.signUp({ name: 'Ola Order', organizationName: 'Ordered Ids Clinic' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const referenceId = `order-probe-${i}`;
      await runAsOrganization(t.deps.db, other.organizationId, (tx) =>
        recordActivity(tx, [{ organizationId: other.organizationId, kind: 'sms_sent', source: 'sms', label: 'outreach', referenceId }]),
      );
      const [row] = await t.deps.db.select({ id: activityEvent.id }).from(activityEvent).where(eq(activityEvent.referenceId, referenceId));
      ids.push(row.id);
      // Two ids of the same millisecond may sort either way: the order holds across milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('the backfill of migrations 0023, 0025, 0026 and 0028', () => {
  it('rebuilds from the feature tables the same funnel steps the product records as they happen', async () => {
    const org = await t.signUp({ name: 'Bea Backfill', organizationName: 'Backfill Research' });
    const trial = await org.actor.post('/api/trials/', { title: 'Backfill study', criteria: [{ kind: 'inclusion', text: 'Adult' }] });
    const trialId = trial.body.id as string;
    expect((await org.actor.patch(`/api/trials/${trialId}`, { status: 'recruiting' })).status).toBe(200);
    for (const name of ['Ada', 'Ben', 'Cy']) {
      const person = await org.actor.post('/api/candidates/', {
        firstName: name,
        lastName: 'Backfill',
        phone: nextPhone(),
        trialIds: [trialId],
        consent: { sms: true },
      });
      expect(person.status).toBe(201);
      expect((await org.actor.patch(`/api/candidates/${person.body.id}`, { status: 'contacted' })).status).toBe(200);
      expect((await org.actor.post('/api/sms/send', { candidateId: person.body.id, body: 'Hello' })).status).toBe(201);
      expect((await org.actor.post('/api/sms/simulator/inbound', { candidateId: person.body.id, body: 'Hi there' })).status).toBeLessThan(300);
    }
    // Steps the backfill cannot rebuild from rows: SMS costs (no segment record) and opt-outs (no consent history row).
    const COMPARED = sql`${activityEvent.kind} not in ('spend', 'opted_out')`;
    const steps = async () =>
      (
        await t.deps.db
          .select()
          .from(activityEvent)
          .where(and(eq(activityEvent.organizationId, org.organizationId), COMPARED))
      )
        .map((row) => `${row.kind}|${row.label}|${row.trialId ?? ''}|${row.candidateId ?? ''}`)
        .sort();
    const recorded = await steps();
    expect(recorded.length).toBeGreaterThan(10);

    const migration = readFileSync(join(__dirname, '../../src/server/db/migrations/0023_activity.sql'), 'utf8');
    const backfill = migration
      .slice(migration.indexOf('-- Backfill'))
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter(Boolean);
    // Migration 0025 then builds the monthly and all-time rollups from the daily one.
    const monthly = readFileSync(join(__dirname, '../../src/server/db/migrations/0025_activity_monthly.sql'), 'utf8');
    const monthlyBackfill = monthly
      .slice(monthly.indexOf('-- Backfill'))
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .filter(Boolean);
    expect(monthlyBackfill).toHaveLength(2);
    // Migration 0026 builds the lean rollups from the monthly one and the histogram from the raw results.
    const lean = readFileSync(join(__dirname, '../../src/server/db/migrations/0026_activity_lean_rollups.sql'), 'utf8');
    const leanBackfill = lean
      .slice(lean.indexOf('-- Backfill'))
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .filter(Boolean);
    expect(leanBackfill).toHaveLength(5);
    const leanTables = ['time_to_result_total', 'time_to_result_monthly', 'prescreen_result_monthly', 'enrolment_monthly'];
    // And the all-time keys' first and last days, which 0026 adds and fills.
    const spanRows = async () =>
      rowsOf<{ first_day: string | null; last_day: string | null }>(
        await t.deps.db.execute(
          sql`select kind, source, label, trial_id, first_day, last_day from activity_total where organization_id = ${org.organizationId} order by 1, 2, 3, 4`,
        ),
      );
    const leanRows = async () => {
      const rows: string[] = [];
      for (const table of leanTables) {
        const result = await t.deps.db.execute(sql.raw(`select * from ${table} where organization_id = '${org.organizationId}'`));
        rows.push(...(result as unknown as { rows: object[] }).rows.map((row) => `${table} ${JSON.stringify(row)}`));
      }
      return rows.sort();
    };
    // A prescreen result with its hours, and an enrollment, as the product records them, so the lean backfill has rows to rebuild.
    await runAsOrganization(t.deps.db, org.organizationId, (tx) =>
      recordActivity(tx, [
        { organizationId: org.organizationId, trialId, kind: 'prescreen_result', source: 'call', label: 'PASS', value: 30.5 },
        { organizationId: org.organizationId, trialId, kind: 'status_changed', source: 'manual', label: 'enrolled' },
      ]),
    );
    const leanRecorded = await leanRows();
    const spansRecorded = await spanRows();
    expect(spansRecorded.every((row) => row.first_day !== null && row.last_day !== null)).toBe(true);
    expect(leanRecorded.filter((row) => row.startsWith('time_to_result_total')).length).toBe(1);
    await t.deps.db.transaction(async (tx) => {
      for (const table of leanTables) await tx.execute(sql.raw(`delete from ${table}`));
      await tx.execute(sql`update activity_total set first_day = null, last_day = null`);
      for (const statement of leanBackfill) await tx.execute(sql.raw(statement));
    });
    expect(await leanRows()).toEqual(leanRecorded);
    expect(await spanRows()).toEqual(spansRecorded);
    // Migration 0028 builds the rollup without trial and source from the raw events (decision 082): every
    // organization's rows, rebuilt, equal what recordActivity kept.
    const kindDaily = readFileSync(join(__dirname, '../../src/server/db/migrations/0028_activity_kind_daily.sql'), 'utf8');
    const kindDailyBackfill = kindDaily
      .slice(kindDaily.indexOf('-- Backfill'))
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .filter(Boolean);
    expect(kindDailyBackfill).toHaveLength(1);
    const kindDailyRows = async () =>
      rowsOf<object>(
        await t.deps.db.execute(
          // Sums rounded: the backfill adds the values in another order than the batches did.
          sql`select organization_id, kind, to_char(day, 'YYYY-MM-DD') as day, label, count, round(value_sum::numeric, 6)::text as value_sum, value_count
            from activity_kind_daily order by 1, 2, 3, 4`,
        ),
      ).map((row) => JSON.stringify(row));
    const kindDailyRecorded = await kindDailyRows();
    expect(kindDailyRecorded.filter((row) => row.includes(org.organizationId)).length).toBeGreaterThan(3);
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`delete from activity_kind_daily`);
      for (const statement of kindDailyBackfill) await tx.execute(sql.raw(statement));
    });
    expect(await kindDailyRows()).toEqual(kindDailyRecorded);
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`delete from activity_total`);
      await tx.execute(sql`delete from activity_monthly`);
      await tx.execute(sql`delete from activity_daily`);
      await tx.execute(sql`delete from activity_event`);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
      for (const statement of monthlyBackfill) await tx.execute(sql.raw(statement));
    });
    expect(await steps()).toEqual(recorded);
    const { rolled, raw } = await compare(org.organizationId, '2000-01-01', '2100-01-01');
    expect(rolled).toEqual(raw);
    const months = await compareMonths(org.organizationId, '2000-01-01', '2100-01-01');
    expect(months.rolled).toEqual(months.raw);
    expect(Object.keys(months.rolled).length).toBeGreaterThan(3);
    const total = await compareTotal(org.organizationId);
    expect(total.rolled).toEqual(total.raw);
  });
});
