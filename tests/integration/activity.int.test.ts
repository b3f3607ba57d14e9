import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityKind, ActivitySource } from '../../src/contract/activity';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { recordActivity, type ActivityEntry } from '../../src/server/activity';
import { activityDaily, activityEvent, NO_TRIAL, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { runAsOrganization } from '../../src/server/db/scoped';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The activity event model (decision 031): the product's own actions write their funnel steps once, in the
 * change's transaction, and the daily rollup always equals a count over the raw events.
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
  const raw = await t.deps.db
    .select({
      key: sql<string>`${activityEvent.kind} || '|' || ${activityEvent.source} || '|' || ${activityEvent.label} || '|' || coalesce(${activityEvent.trialId}, ${NO_TRIAL}::uuid)`,
      count: sql<number>`count(*)::int`,
      value: sql<number>`coalesce(sum(${activityEvent.value}), 0)`,
    })
    .from(activityEvent)
    .where(
      and(eq(activityEvent.organizationId, organizationId), sql`(${activityEvent.occurredAt} at time zone 'UTC')::date between ${from}::date and ${to}::date`),
    )
    .groupBy(sql`1`);
  const asMap = (rows: Array<{ key: string; count: number; value: number }>) =>
    Object.fromEntries(rows.map((row) => [row.key, [Number(row.count), Math.round(Number(row.value) * 1e6) / 1e6]]));
  return { rolled: asMap(rolled), raw: asMap(raw) };
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
    expect(rows.filter((row) => row.kind === 'status_changed').map((row) => row.label)).toEqual(['prescreen_failed', 'prescreen_passed']);
  });
});

describe('the daily rollup', () => {
  it('equals a direct count over the raw events for random ranges (property, seeded)', async () => {
    const other = await t.signUp({ name: 'Parker Property', organizationName: 'Rollup Research' });
    let seed = 20261123;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const kinds: ActivityKind[] = ['candidate_created', 'status_changed', 'sms_sent', 'call_ended', 'spend', 'satisfaction_rated'];
    const sources: ActivitySource[] = ['call', 'chat', 'sms', 'import', 'manual'];
    const trials = [null, '11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const start = Date.UTC(2026, 0, 1);
    // Many batches of mixed events (some in the same batch with the same key, some crossing midnight UTC).
    for (let batch = 0; batch < 40; batch++) {
      const entries: ActivityEntry[] = Array.from({ length: 1 + Math.floor(random() * 30) }, () => ({
        organizationId: other.organizationId,
        trialId: pick(trials),
        kind: pick(kinds),
        source: pick(sources),
        label: pick(['', 'a', 'b']),
        value: random() < 0.5 ? null : Math.round(random() * 1000) / 100,
        occurredAt: new Date(start + Math.floor(random() * 60 * 86_400_000)),
      }));
      await runAsOrganization(t.deps.db, other.organizationId, (tx) => recordActivity(tx, entries));
    }
    for (let round = 0; round < 12; round++) {
      const a = Math.floor(random() * 60);
      const b = a + Math.floor(random() * (60 - a));
      const day = (offset: number) => new Date(start + offset * 86_400_000).toISOString().slice(0, 10);
      const { rolled, raw } = await compare(other.organizationId, day(a), day(b));
      expect(rolled, `${day(a)}..${day(b)}`).toEqual(raw);
    }
  });

  it('row security: an organization sees only its own events and rollups', async () => {
    const rows = await runAsOrganization(t.deps.db, site.organizationId, async (tx) => ({
      events: await tx.select({ organizationId: activityEvent.organizationId }).from(activityEvent),
      daily: await tx.select({ organizationId: activityDaily.organizationId }).from(activityDaily),
    }));
    expect(rows.events.length).toBeGreaterThan(0);
    expect(new Set([...rows.events, ...rows.daily].map((row) => row.organizationId))).toEqual(new Set([site.organizationId]));
  });
});

describe('the backfill of migration 0023', () => {
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
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`delete from activity_daily`);
      await tx.execute(sql`delete from activity_event`);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
    });
    expect(await steps()).toEqual(recorded);
    const { rolled, raw } = await compare(org.organizationId, '2000-01-01', '2100-01-01');
    expect(rolled).toEqual(raw);
  });
});
