import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityDaily,
  activityMonthly,
  activityTotal,
  activityEvent,
  booking,
  call,
  candidate,
  candidateFact,
  candidateNote,
  candidateTrial,
  chatConversation,
  organization,
  prescreenForm,
  prescreenResult,
  smsMessage,
  trial,
} from '../../src/server/db/schema';
import { DEMO_ORGANIZATION_SLUG, resetDemoOrganization, seedDemoOrganization } from '../../src/server/features/demo/seed';
import { rowsOf } from '../../src/server/db/scoped';
import { whenMatchRunSettled } from '../../src/server/features/matching/matcher';
import { createTestApp, type TestApp } from '../support/test-app';

/** The demo organization's data: sites, candidates at them, the funnel's rows and their activity events. */

let t: TestApp;
let organizationId: string;
const CANDIDATES = 400;

const countWhere = async (
  table: typeof booking | typeof call | typeof smsMessage | typeof prescreenResult | typeof chatConversation | typeof activityEvent,
  extra?: ReturnType<typeof eq>,
) =>
  Number(
    (
      await t.deps.db
        .select({ n: sql<number>`count(*)` })
        .from(table)
        .where(extra ? and(eq(table.organizationId, organizationId), extra) : eq(table.organizationId, organizationId))
    )[0].n,
  );
const events = async (kind: string, label?: string) =>
  Number(
    (
      await t.deps.db
        .select({ n: sql<number>`count(*)` })
        .from(activityEvent)
        .where(
          and(
            eq(activityEvent.organizationId, organizationId),
            eq(activityEvent.kind, kind as never),
            label === undefined ? undefined : eq(activityEvent.label, label),
          ),
        )
    )[0].n,
  );

beforeAll(async () => {
  t = await createTestApp();
  const result = await seedDemoOrganization(t.deps.db, { candidates: CANDIDATES });
  expect(result.created).toBe(true);
  organizationId = result.organizationId;
}, 120_000);
afterAll(() => t?.close());

describe('the demo data', () => {
  it('gives every trial 5-6 US sites with stable ids and time zones, one of which has no candidates yet', async () => {
    const trials = await t.deps.db.select().from(trial).where(eq(trial.organizationId, organizationId));
    expect(trials).toHaveLength(4);
    const people = await t.deps.db
      .select({ customFields: candidate.customFields, city: candidate.city, timeZone: candidate.timeZone, trialId: candidateTrial.trialId })
      .from(candidate)
      .innerJoin(candidateTrial, eq(candidateTrial.candidateId, candidate.id))
      .where(eq(candidate.organizationId, organizationId));
    for (const row of trials) {
      expect(row.targetEnrollment).toBeGreaterThan(0);
      expect(row.sites.length).toBeGreaterThanOrEqual(5);
      expect(row.sites.length).toBeLessThanOrEqual(6);
      expect(new Set(row.sites.map((site) => site.city)).size).toBe(row.sites.length);
      expect(row.sites.filter((site) => site.isOwnSite)).toHaveLength(1);
      for (const site of row.sites)
        expect(site).toMatchObject({ id: expect.any(String), country: 'United States', timeZone: expect.stringMatching(/^America\//) });
      const atSite = (siteId: string) => people.filter((person) => person.trialId === row.id && person.customFields.siteId === siteId);
      const empty = row.sites.filter((site) => atSite(site.id).length === 0);
      expect(empty).toHaveLength(1);
      // Candidates live in their site's city and zone.
      for (const site of row.sites) for (const person of atSite(site.id)) expect([person.city, person.timeZone]).toEqual([site.city, site.timeZone]);
    }
  });

  it('describes candidates with sex, date of birth, language and OMB ethnicity and race that differ by site', async () => {
    const rows = await t.deps.db.select().from(candidate).where(eq(candidate.organizationId, organizationId));
    expect(rows).toHaveLength(CANDIDATES);
    expect(new Set(rows.map((row) => row.sex))).toEqual(new Set(['female', 'male']));
    expect(rows.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.dateOfBirth ?? ''))).toBe(true);
    expect(new Set(rows.map((row) => row.preferredLanguage))).toEqual(new Set(['en', 'es']));
    expect(new Set(rows.map((row) => row.customFields.ethnicity))).toEqual(new Set(['Hispanic or Latino', 'Not Hispanic or Latino']));
    expect(rows.every((row) => typeof row.customFields.race === 'string')).toBe(true);
    const hispanicShare = (city: string) => {
      const here = rows.filter((row) => row.city === city);
      return here.filter((row) => row.customFields.ethnicity === 'Hispanic or Latino').length / here.length;
    };
    expect(hispanicShare('Springfield')).toBeLessThan(hispanicShare('Houston'));
  });

  it('creates the rows the statuses imply, with activity events whose counts match them', async () => {
    const [forms] = await t.deps.db
      .select({ n: sql<number>`count(*)` })
      .from(prescreenForm)
      .where(and(eq(prescreenForm.organizationId, organizationId), eq(prescreenForm.status, 'published')));
    expect(Number(forms.n)).toBe(4);
    const results = await countWhere(prescreenResult);
    expect(results).toBeGreaterThan(0);
    expect(await events('prescreen_result')).toBe(results);
    expect(await countWhere(prescreenResult, eq(prescreenResult.reviewStatus, 'pending'))).toBeGreaterThan(0);
    expect(await events('review_decision')).toBe(results - (await countWhere(prescreenResult, eq(prescreenResult.reviewStatus, 'pending'))));
    expect(await events('review_decision', 'override')).toBeGreaterThan(0);

    const enrolled = (
      await t.deps.db
        .select()
        .from(candidate)
        .where(and(eq(candidate.organizationId, organizationId), eq(candidate.status, 'enrolled')))
    ).length;
    expect(enrolled).toBeGreaterThan(0);
    expect(await countWhere(booking, eq(booking.status, 'completed'))).toBe(enrolled);
    expect(await events('visit_attended')).toBe(enrolled);
    expect(await events('status_changed', 'enrolled')).toBe(enrolled);
    expect(await events('visit_booked')).toBe(await countWhere(booking));
    expect(await events('visit_no_show')).toBe(await countWhere(booking, eq(booking.status, 'no_show')));

    const calls = await countWhere(call);
    expect(await events('call_placed')).toBe(calls);
    expect(await events('call_ended')).toBe(calls);
    expect(await events('spend', 'call_minutes')).toBe(calls);
    const outbound = await countWhere(smsMessage, eq(smsMessage.direction, 'outbound'));
    expect(await events('sms_sent')).toBe(outbound);
    expect(await events('spend', 'sms_segments')).toBe(outbound);
    expect(await events('sms_replied')).toBe(await countWhere(smsMessage, eq(smsMessage.direction, 'inbound')));
    expect(await events('chat_started')).toBe(await countWhere(chatConversation));
    expect(await events('candidate_created')).toBe(CANDIDATES);
    expect(await events('satisfaction_rated')).toBeGreaterThan(0);
    const ratings = await t.deps.db
      .select({ value: activityEvent.value })
      .from(activityEvent)
      .where(and(eq(activityEvent.organizationId, organizationId), eq(activityEvent.kind, 'satisfaction_rated')));
    expect(ratings.every((row) => row.value! >= 1 && row.value! <= 5)).toBe(true);

    // The rollup agrees with the events, and the last 30 days are busy.
    const [daily] = await t.deps.db
      .select({ n: sql<number>`sum(${activityDaily.count})` })
      .from(activityDaily)
      .where(eq(activityDaily.organizationId, organizationId));
    expect(Number(daily.n)).toBe(await countWhere(activityEvent));
    const recent = await countWhere(activityEvent, sql`${activityEvent.occurredAt} > now() - interval '30 days'` as never);
    expect(recent).toBeGreaterThan(100);
  });

  it("gives most people a referral note read into facts, so the demo's matcher finds likely, possible and excluded people", async () => {
    const notes = await t.deps.db.select().from(candidateNote).where(eq(candidateNote.organizationId, organizationId));
    expect(notes.length).toBeGreaterThan(CANDIDATES * 0.8);
    expect(notes.length).toBeLessThan(CANDIDATES);
    const facts = await t.deps.db
      .select()
      .from(candidateFact)
      .where(and(eq(candidateFact.organizationId, organizationId), eq(candidateFact.source, 'note')));
    const noteIds = new Set(notes.map((note) => note.id));
    expect(facts.length).toBeGreaterThan(notes.length * 2);
    expect(facts.every((fact) => noteIds.has(fact.sourceRef ?? ''))).toBe(true);
    const admin = await t.signInAdmin();
    admin.activeOrganizationId = organizationId;
    const [asthma] = await t.deps.db
      .select({ id: trial.id })
      .from(trial)
      .where(and(eq(trial.organizationId, organizationId), sql`${trial.title} like '%Asthma%'`));
    const run = await admin.post(`/api/trial-matcher/${asthma.id}/runs`, {});
    expect(run.status).toBe(202);
    await whenMatchRunSettled(run.body.id);
    const { counts } = (await admin.get(`/api/trial-matcher/${asthma.id}`)).body;
    expect(counts.likely).toBeGreaterThan(0);
    expect(counts.possible).toBeGreaterThan(0);
    expect(counts.excluded).toBeGreaterThan(0);
  }, 120_000);

  it('shows the sponsor overview a funnel that never rises from one step to the next, the pool within the candidates', async () => {
    const admin = await t.signInAdmin();
    const trials = await t.deps.db.select({ id: trial.id }).from(trial).where(eq(trial.organizationId, organizationId));
    for (const row of trials) {
      const dashboard = await admin.get(`/api/sponsor-demo/trials/${row.id}/dashboard`);
      expect(dashboard.status, JSON.stringify(dashboard.body)).toBe(200);
      const { totals } = dashboard.body;
      const chain = [totals.candidates, totals.contacted, totals.prescreened, totals.passed, totals.booked, totals.enrolled];
      expect(
        chain.every((value, i) => i === 0 || value <= chain[i - 1]),
        JSON.stringify(totals),
      ).toBe(true);
      expect(totals.contacted).toBeGreaterThan(0);
      expect(totals.pool).toBeLessThanOrEqual(totals.candidates);
    }
  });

  it('does nothing when seeded again, and a reset gives the same counts under the same organization id', async () => {
    expect(await seedDemoOrganization(t.deps.db, { candidates: CANDIDATES })).toMatchObject({ created: false, organizationId });
    const now = new Date();
    const first = await resetDemoOrganization(t.deps.db, { candidates: CANDIDATES, now });
    const second = await resetDemoOrganization(t.deps.db, { candidates: CANDIDATES, now });
    expect(first.organizationId).toBe(organizationId);
    expect(second.organizationId).toBe(organizationId);
    expect(second.counts).toEqual(first.counts);
    expect(first.counts).toMatchObject({ candidates: CANDIDATES, trials: 4, voiceAgents: 4, chatAgents: 4 });
    const orgs = await t.deps.db.select().from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG));
    expect(orgs.map((row) => row.id)).toEqual([organizationId]);
    // After two resets the monthly and all-time rollups still count each event once (a reset clears it with the events).
    const [monthly] = await t.deps.db
      .select({ n: sql<number>`sum(${activityMonthly.count})` })
      .from(activityMonthly)
      .where(eq(activityMonthly.organizationId, organizationId));
    expect(Number(monthly.n)).toBe(await countWhere(activityEvent));
    const [total] = await t.deps.db
      .select({ n: sql<number>`sum(${activityTotal.count})` })
      .from(activityTotal)
      .where(eq(activityTotal.organizationId, organizationId));
    expect(Number(total.n)).toBe(await countWhere(activityEvent));
    // And so do the rollups of some kinds (decisions 078, 082): each equals its events once.
    const sumOf = async (table: string) =>
      Number(
        rowsOf<{ n: string }>(
          await t.deps.db.execute(sql.raw(`select coalesce(sum(count), 0) as n from ${table} where organization_id = '${organizationId}'`)),
        )[0].n,
      );
    const events = async (condition: string) =>
      Number(
        rowsOf<{ n: string }>(
          await t.deps.db.execute(sql.raw(`select count(*) as n from activity_event where organization_id = '${organizationId}' and ${condition}`)),
        )[0].n,
      );
    expect(await sumOf('activity_kind_daily')).toBe(await countWhere(activityEvent));
    expect(await sumOf('prescreen_result_monthly')).toBe(await events(`kind = 'prescreen_result'`));
    expect(await sumOf('time_to_result_total')).toBe(await events(`kind = 'prescreen_result' and value is not null`));
    expect(await sumOf('time_to_result_monthly')).toBe(await events(`kind = 'prescreen_result' and value is not null`));
    expect(await sumOf('enrolment_monthly')).toBe(await events(`kind = 'status_changed' and label = 'enrolled'`));
    expect(await events(`kind = 'prescreen_result' and value is not null`)).toBeGreaterThan(0);
    expect(await events(`kind = 'status_changed' and label = 'enrolled'`)).toBeGreaterThan(0);
  }, 120_000);
});
