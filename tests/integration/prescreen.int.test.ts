import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import {
  auditLog,
  booking,
  candidate,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  satisfactionResponse,
  smsMessage,
} from '../../src/server/db/schema';
import { recordPrescreenResult } from '../../src/server/features/prescreen/record-result';
import { askVisitFeedback } from '../../src/server/features/prescreen/visit-feedback';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';

/**
 * Prescreen results, review, decisions and bookings through the HTTP app. Forms are inserted directly
 * (the forms API is built separately): a published form whose questions link to the trial's criteria.
 */

let t: TestApp;
let site: SignedUp;
let trialId: string;
let criteria: Record<'age' | 'asthma' | 'smoker', string>;
let formId: string;
let phoneSeq = 0;

const blocksFor = (wording = 'Do you smoke?'): StudyBlock[] => [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      {
        id: 'dob',
        type: 'date',
        wording: { phone: { en: 'What is your date of birth?' }, chat: { en: 'Your date of birth?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.age, when: { op: 'age_lt', value: 18 }, then: 'not_met', otherwise: 'met' }],
      },
      {
        id: 'asthma',
        type: 'yes_no',
        wording: { phone: { en: 'Has a doctor told you that you have asthma?' }, chat: { en: 'Diagnosed with asthma?' } },
        required: true,
        criterionLinks: [{ criterionId: criteria.asthma, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
      {
        id: 'smoke',
        type: 'yes_no',
        wording: { phone: { en: wording }, chat: { en: wording } },
        required: true,
        criterionLinks: [{ criterionId: criteria.smoker, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
      },
      {
        id: 'notes',
        type: 'text',
        wording: { phone: { en: 'Anything else?' }, chat: { en: 'Anything else?' } },
        required: false,
        criterionLinks: [{ criterionId: criteria.smoker, when: { op: 'answered' }, then: 'review' }],
      },
    ],
  },
];

const PASS_ANSWERS = [
  { questionId: 'dob', value: '1980-04-02' },
  { questionId: 'asthma', value: 'yes', evidence: 'Yes, since I was a kid' },
  { questionId: 'smoke', value: false },
];
const FAIL_ANSWERS = [
  { questionId: 'dob', value: '1980-04-02' },
  { questionId: 'asthma', value: true },
  { questionId: 'smoke', value: 'yes', evidence: 'I smoke a pack a day' },
];
const POTENTIAL_ANSWERS = [...PASS_ANSWERS, { questionId: 'notes', value: 'Quit smoking last month' }];

async function insertForm(organizationId: string, forTrialId: string, status: 'draft' | 'published' = 'published') {
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId, trialId: forTrialId, name: 'Asthma prescreen', status, currentVersion: 1 })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId, formId: form.id, version: 1, blocks: blocksFor() });
  return form.id;
}

async function newCandidate(firstName = 'Pat', lastName = 'Prescreen') {
  const answer = await site.actor.post('/api/candidates/', { firstName, lastName, phone: `+1212555${String(2000 + ++phoneSeq)}`, trialIds: [trialId] });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

async function run(candidateId: string, answers: unknown[], useFormId = formId) {
  return site.actor.post('/api/prescreen/results', { candidateId, formId: useFormId, answers });
}

async function runOk(candidateId: string, answers: unknown[]) {
  const answer = await run(candidateId, answers);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const statusOf = async (candidateId: string) => (await site.actor.get(`/api/candidates/${candidateId}`)).body.status;
const history = async (candidateId: string) =>
  (await site.actor.get(`/api/contact-history?candidateId=${candidateId}`)).body.events as Array<{ kind: string; summary: string; details: any }>;
const audits = (entityId: string) => t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, entityId));

/** A local time some days ahead, YYYY-MM-DDTHH:mm. */
const future = (days: number, time = '10:00') => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ name: 'Riley Reviewer', organizationName: 'Harbor Clinical Research' });
  const created = await site.actor.post('/api/trials/', {
    title: 'Asthma inhaler study',
    sites: [{ name: 'Downtown Clinic', timeZone: 'America/New_York' }, { name: 'Mobile Unit' }],
    criteria: [
      { kind: 'inclusion', text: 'Aged 18 or older' },
      { kind: 'inclusion', text: 'Diagnosed with asthma' },
      { kind: 'exclusion', text: 'Current smoker' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  trialId = created.body.id;
  const [age, asthma, smoker] = created.body.criteria.map((criterion: { id: string }) => criterion.id);
  criteria = { age, asthma, smoker };
  formId = await insertForm(site.organizationId, trialId);
});
afterAll(() => t?.close());

describe('POST /api/prescreen/results (manual run)', () => {
  it('records a PASS with evaluations and deciding answers; the candidate moves to prescreen_passed', async () => {
    const candidateId = await newCandidate('Ada', 'Passer');
    const result = await runOk(candidateId, PASS_ANSWERS);
    expect(result).toMatchObject({
      organizationId: site.organizationId,
      candidate: { id: candidateId, firstName: 'Ada', lastName: 'Passer' },
      trial: { id: trialId, title: 'Asthma inhaler study' },
      formId,
      formVersion: 1,
      sourceType: 'manual',
      sourceId: null,
      aiRecommendation: 'PASS',
      reviewStatus: 'pending',
      decision: null,
      booking: null,
    });
    expect(result.answers[1]).toEqual({
      questionId: 'asthma',
      question: 'Diagnosed with asthma?',
      type: 'yes_no',
      value: true,
      evidence: 'Yes, since I was a kid',
    });
    expect(result.evaluations.map((e: any) => [e.criterionId, e.status, e.decidingQuestionId])).toEqual([
      [criteria.age, 'met', 'dob'],
      [criteria.asthma, 'met', 'asthma'],
      [criteria.smoker, 'not_met', 'smoke'],
    ]);
    expect(await statusOf(candidateId)).toBe('prescreen_passed');
    const events = await history(candidateId);
    expect(events.map((e) => [e.kind, e.summary]).slice(-2)).toEqual([
      ['prescreen', 'Prescreen (manual): PASS'],
      ['status_change', 'Status changed from New to Prescreen passed'],
    ]);
    const rows = await audits(result.id);
    expect(rows.map((row) => row.action)).toEqual(['prescreen.result.create']);
    // The audit names what changed, never the patient's answers (the date of birth, the free text).
    // Whole values only: a random uuid in the row may well contain "1980".
    expect(JSON.stringify(rows[0].changes)).not.toMatch(/1980-04-02|since I was a kid/);
    expect((await audits(candidateId)).map((row) => row.action)).toContain('candidate.status.prescreen');
  });

  it('FAIL names the criterion and the answer; POTENTIAL for a free-text review; statuses follow', async () => {
    const failing = await newCandidate('Sam', 'Smoker');
    const failed = await runOk(failing, FAIL_ANSWERS);
    expect(failed.aiRecommendation).toBe('FAIL');
    expect(failed.aiReasons).toEqual(['Exclusion "Current smoker" applies: "Do you smoke?" answered "yes"']);
    expect(await statusOf(failing)).toBe('prescreen_failed');

    const borderline = await newCandidate('Bo', 'Borderline');
    const potential = await runOk(borderline, POTENTIAL_ANSWERS);
    expect(potential.aiRecommendation).toBe('POTENTIAL');
    expect(potential.evaluations[2]).toMatchObject({ status: 'review', decidingQuestionId: 'notes' });
    expect(await statusOf(borderline)).toBe('prescreening');

    const dropped = await newCandidate('Di', 'Dropped');
    expect((await runOk(dropped, [{ questionId: 'asthma', value: true }])).aiRecommendation).toBe('INCONCLUSIVE');
    expect(await statusOf(dropped)).toBe('prescreening');
  });

  it('answers bad input with a 400 naming the question', async () => {
    const candidateId = await newCandidate();
    const unknown = await run(candidateId, [{ questionId: 'shoe_size', value: 42 }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('shoe_size');
    const wrongType = await run(candidateId, [
      { questionId: 'dob', value: 'last spring' },
      { questionId: 'smoke', value: 'sometimes' },
    ]);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('Question dob');
    expect(wrongType.body.error.message).toContain('Question smoke');
    expect(wrongType.body.error.details.map((d: { path: string }) => d.path)).toEqual(['answers.0', 'answers.1']);
    expect((await site.actor.post('/api/prescreen/results', { candidateId, formId })).status).toBe(400);
    expect(await statusOf(candidateId)).toBe('new');
  });

  it('refuses a draft form (409) and unknown ids (404)', async () => {
    const candidateId = await newCandidate();
    const draft = await insertForm(site.organizationId, trialId, 'draft');
    const answer = await run(candidateId, PASS_ANSWERS, draft);
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toMatch(/Publish/);
    expect((await run(candidateId, PASS_ANSWERS, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await run('not-a-uuid', PASS_ANSWERS)).status).toBe(404);
  });

  it("links the candidate to the form's trial when not linked yet", async () => {
    const loose = await site.actor.post('/api/candidates/', { firstName: 'Lou', phone: `+1212555${String(2000 + ++phoneSeq)}` });
    await runOk(loose.body.id, PASS_ANSWERS);
    expect((await site.actor.get(`/api/candidates/${loose.body.id}`)).body.trialIds).toEqual([trialId]);
  });

  it('versioned forms: new results use the current version, old ones keep theirs', async () => {
    const candidateId = await newCandidate('Vera', 'Versions');
    const first = await runOk(candidateId, PASS_ANSWERS);
    const [form] = await t.deps.db
      .insert(prescreenForm)
      .values({ organizationId: site.organizationId, trialId, name: 'Versioned', status: 'published', currentVersion: 1 })
      .returning();
    await t.deps.db
      .insert(prescreenFormVersion)
      .values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks: blocksFor('Do you smoke?') });
    const v1 = await run(candidateId, PASS_ANSWERS, form.id);
    await t.deps.db
      .insert(prescreenFormVersion)
      .values({ organizationId: site.organizationId, formId: form.id, version: 2, blocks: blocksFor('Do you smoke cigarettes or vape?') });
    await t.deps.db.update(prescreenForm).set({ currentVersion: 2 }).where(eq(prescreenForm.id, form.id));
    const v2 = await run(candidateId, PASS_ANSWERS, form.id);
    expect([v1.body.formVersion, v2.body.formVersion]).toEqual([1, 2]);
    expect(v2.body.answers[2].question).toBe('Do you smoke cigarettes or vape?');
    const listed = await site.actor.get(`/api/prescreen/results?candidateId=${candidateId}`);
    expect(listed.body.results.map((r: any) => [r.id, r.formVersion])).toEqual([
      [v2.body.id, 2],
      [v1.body.id, 1],
      [first.id, 1],
    ]);
    expect(listed.body.results[1].answers[2].question).toBe('Do you smoke?');
    const review = await site.actor.get(`/api/prescreen/review?candidateId=${candidateId}`);
    expect(review.body.latestForm).toMatchObject({ formId: form.id, version: 2, name: 'Versioned' });
    expect(review.body.latestForm.blocks[0].questions[2].wording.chat.en).toBe('Do you smoke cigarettes or vape?');
  });

  it('calls and chats record through the same function (sourceType and sourceId kept)', async () => {
    const candidateId = await newCandidate('Cal', 'Caller');
    const result = await recordPrescreenResult(
      t.deps.db,
      { organizationId: site.organizationId },
      { candidateId, formId, sourceType: 'call', sourceId: 'call-123', answers: PASS_ANSWERS },
    );
    expect(result).toMatchObject({ sourceType: 'call', sourceId: 'call-123', aiRecommendation: 'PASS', createdByUserId: null });
    const events = await history(candidateId);
    expect(events.find((e) => e.kind === 'prescreen')).toMatchObject({ summary: 'Prescreen (call): PASS' });
    await expect(
      recordPrescreenResult(t.deps.db, { organizationId: '00000000-0000-4000-8000-000000000000' }, { candidateId, formId, sourceType: 'chat', answers: [] }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('GET /api/prescreen/results', () => {
  it('filters by recommendation, source, candidate and search; newest first with a total', async () => {
    const all = await site.actor.get('/api/prescreen/results');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.results.length);
    const times = all.body.results.map((r: { createdAt: string }) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const fails = await site.actor.get('/api/prescreen/results?aiRecommendation=FAIL');
    expect(fails.body.results.length).toBeGreaterThan(0);
    expect(fails.body.results.every((r: any) => r.aiRecommendation === 'FAIL')).toBe(true);
    const calls = await site.actor.get('/api/prescreen/results?sourceType=call');
    expect(calls.body.results.map((r: any) => r.sourceId)).toEqual(['call-123']);
    const byName = await site.actor.get('/api/prescreen/results?search=sam%20smok');
    expect(byName.body.results.map((r: any) => r.candidate.firstName)).toEqual(['Sam']);
    const paged = await site.actor.get('/api/prescreen/results?limit=2&offset=1');
    expect(paged.body.results.map((r: any) => r.id)).toEqual(all.body.results.slice(1, 3).map((r: any) => r.id));
    expect(paged.body.total).toBe(all.body.total);
    expect((await site.actor.get('/api/prescreen/results?aiRecommendation=MAYBE')).status).toBe(400);
    const other = await t.signUp({ organizationName: 'Other Research' });
    expect((await site.actor.get(`/api/prescreen/results?organizationIds=${other.organizationId}`)).body).toEqual({ results: [], total: 0 });
  });
});

describe('review, decisions and bookings', () => {
  let candidateId: string;
  let resultId: string;

  beforeAll(async () => {
    candidateId = await newCandidate('Rita', 'Review');
    await runOk(candidateId, FAIL_ANSWERS);
    resultId = (await runOk(candidateId, POTENTIAL_ANSWERS)).id;
  });

  it('GET /api/prescreen/review gives the candidate, results newest first, the form, and the sites', async () => {
    const review = await site.actor.get(`/api/prescreen/review?candidateId=${candidateId}`);
    expect(review.status).toBe(200);
    expect(review.body.candidate).toMatchObject({ id: candidateId, firstName: 'Rita', status: 'prescreening', trialIds: [trialId] });
    expect(review.body.results.map((r: any) => r.aiRecommendation)).toEqual(['POTENTIAL', 'FAIL']);
    expect(review.body.results[0].evaluations).toHaveLength(3);
    expect(review.body.latestForm).toMatchObject({ formId, version: 1 });
    expect(review.body.decisions).toEqual([]);
    expect(review.body.bookings).toEqual([]);
    expect(review.body.trials).toEqual([
      {
        id: trialId,
        title: 'Asthma inhaler study',
        sites: [
          { id: expect.any(String), name: 'Downtown Clinic', timeZone: 'America/New_York', timeZoneSource: 'manual', isOwnSite: false },
          // No zone on record and none its location tells: "time zone needed", never UTC.
          { id: expect.any(String), name: 'Mobile Unit', isOwnSite: false },
        ],
      },
    ]);
    expect((await site.actor.get('/api/prescreen/review?candidateId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await site.actor.get('/api/prescreen/review')).status).toBe(400);
  });

  it('booking before approval: 409', async () => {
    const answer = await site.actor.post('/api/prescreen/bookings', { resultId, siteName: 'Downtown Clinic', localTime: future(10) });
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toBe('Approve the prescreen before booking');
  });

  it('a decision needs a reason to reject or to override', async () => {
    const noReason = await site.actor.post('/api/prescreen/review/decision', { resultId, decision: 'reject' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.message).toContain('reason');
    expect((await site.actor.post('/api/prescreen/review/decision', { resultId, decision: 'approve', overrideRecommendation: 'PASS' })).status).toBe(400);
    expect((await site.actor.post('/api/prescreen/review/decision', { resultId: '00000000-0000-4000-8000-000000000000', decision: 'approve' })).status).toBe(
      404,
    );
  });

  it('reject, then approve with an override: the override and reason are kept, history and audit have both', async () => {
    const rejected = await site.actor.post('/api/prescreen/review/decision', { resultId, decision: 'reject', reason: 'Recent smoker' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      reviewStatus: 'rejected',
      decision: { decision: 'reject', reason: 'Recent smoker', overrideRecommendation: null, decidedByName: 'Riley Reviewer', decidedByUserId: site.userId },
    });
    expect(await statusOf(candidateId)).toBe('prescreen_failed');
    expect((await site.actor.post('/api/prescreen/bookings', { resultId, siteName: 'Downtown Clinic', localTime: future(10) })).status).toBe(409);

    const approved = await site.actor.post('/api/prescreen/review/decision', {
      resultId,
      decision: 'approve',
      overrideRecommendation: 'PASS',
      reason: 'Quit 6 months ago per chart',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      aiRecommendation: 'POTENTIAL',
      reviewStatus: 'approved',
      decision: { decision: 'approve', overrideRecommendation: 'PASS', overrideReason: 'Quit 6 months ago per chart', reason: 'Quit 6 months ago per chart' },
    });
    expect(await statusOf(candidateId)).toBe('prescreen_passed');

    const rows = await audits(resultId);
    const decisions = rows.filter((row) => row.action === 'prescreen.decision');
    expect(decisions.map((row) => (row.changes as any).decision)).toEqual(['reject', 'approve']);
    expect(decisions[1].changes).toMatchObject({
      overrideRecommendation: 'PASS',
      aiRecommendation: 'POTENTIAL',
      reasonGiven: true,
      previous: { decision: 'reject' },
    });

    const review = await site.actor.get(`/api/prescreen/review?candidateId=${candidateId}`);
    expect(review.body.decisions.map((d: any) => [d.decision, d.current, d.resultId])).toEqual([
      ['approve', true, resultId],
      ['reject', false, resultId],
    ]);
    const events = await history(candidateId);
    expect(events.filter((e) => e.kind === 'decision').map((e) => e.summary)).toEqual([
      'Prescreen rejected',
      'Prescreen approved; recommendation overridden: POTENTIAL -> PASS',
    ]);
    expect(
      events
        .filter((e) => e.kind === 'status_change')
        .map((e) => e.summary)
        .slice(-2),
    ).toEqual(['Status changed from Prescreening to Prescreen failed', 'Status changed from Prescreen failed to Prescreen passed']);
  });

  it('validates the booking: site, time zone, local time, past', async () => {
    const book = (body: Record<string, unknown>) => site.actor.post('/api/prescreen/bookings', { resultId, ...body });
    const badSite = await book({ siteName: 'Uptown', localTime: future(10) });
    expect(badSite.status).toBe(400);
    expect(badSite.body.error.message).toContain('siteId');
    expect((await book({ siteId: 'not-a-site', localTime: future(10) })).status).toBe(400);
    const noZone = await book({ siteName: 'Mobile Unit', localTime: future(10) });
    expect(noZone.status).toBe(400);
    expect(noZone.body.error.message).toContain('timeZone');
    const badZone = await book({ siteName: 'Mobile Unit', localTime: future(10), timeZone: 'Nowhere/Special' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error.message).toContain('Unknown time zone Nowhere/Special');
    // A zone that does not exist is refused when the trial is saved, so booking never meets one.
    const brokenZone = await site.actor.patch(`/api/trials/${trialId}`, { sites: [{ name: 'Broken Zone Site', timeZone: 'Mars/Olympus_Mons' }] });
    expect(brokenZone.status).toBe(400);
    expect(brokenZone.body.error.details[0].path).toBe('sites.0.timeZone');
    const past = await book({ siteName: 'Downtown Clinic', localTime: '2020-01-01T10:00' });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain('past');
    expect((await book({ siteName: 'Downtown Clinic', localTime: '2030-02-30T10:00' })).status).toBe(400);
    expect((await book({ siteName: 'Downtown Clinic', localTime: '2030-01-01 10:00' })).status).toBe(400);
    expect((await site.actor.post('/api/prescreen/bookings', { siteName: 'Downtown Clinic', localTime: future(10) })).status).toBe(400);
    expect(await t.deps.db.select().from(booking).where(eq(booking.candidateId, candidateId))).toEqual([]);
  });

  it('books an approved result in the site time zone; the candidate is visit_scheduled; a taken slot is 409', async () => {
    const answer = await site.actor.post('/api/prescreen/bookings', {
      resultId,
      siteName: 'Downtown Clinic',
      localTime: '2031-01-15T09:30',
      durationMinutes: 45,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      candidateId,
      trialId,
      prescreenResultId: resultId,
      siteName: 'Downtown Clinic',
      siteTimeZone: 'America/New_York',
      startsAt: '2031-01-15T14:30:00.000Z',
      localTime: '2031-01-15T09:30',
      durationMinutes: 45,
      status: 'scheduled',
      // The simulator delivers the confirmation at once (the candidate gave a phone and has not opted out).
      confirmationSms: 'sent',
    });
    const confirmation = await t.deps.db.select().from(smsMessage).where(eq(smsMessage.candidateId, candidateId)).orderBy(smsMessage.createdAt);
    // The confirmation only, the visit in words in the site's zone (issue 32); how it went is asked after the visit.
    expect(confirmation.map((message) => message.templateKey)).toEqual(['visit_confirmation']);
    expect(confirmation[0].body).toContain('confirmed for Wednesday 15 January 2031 at 9:30 am (New York time)');
    expect(confirmation[0].body).not.toMatch(/\d{4}-\d{2}-\d{2}|America\/New_York/);
    expect(await statusOf(candidateId)).toBe('visit_scheduled');
    const events = await history(candidateId);
    expect(events.find((e) => e.kind === 'booking')?.summary).toBe('Visit booked: Downtown Clinic, 2031-01-15T09:30 (America/New_York)');
    expect((await audits(answer.body.id)).map((row) => row.action)).toEqual(['prescreen.booking.create']);

    // Another approved candidate, same site and slot: taken. By candidateId + trialId this time.
    const other = await newCandidate('Otto', 'Other');
    const otherResult = await runOk(other, PASS_ANSWERS);
    await site.actor.post('/api/prescreen/review/decision', { resultId: otherResult.id, decision: 'approve' });
    const taken = await site.actor.post('/api/prescreen/bookings', { candidateId: other, trialId, siteName: 'Downtown Clinic', localTime: '2031-01-15T09:30' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('That slot is already booked');
    expect(await statusOf(other)).toBe('prescreen_passed');
    const free = await site.actor.post('/api/prescreen/bookings', {
      candidateId: other,
      trialId,
      siteName: 'Mobile Unit',
      timeZone: 'Europe/Berlin',
      localTime: '2031-07-01T08:00',
    });
    expect(free.status).toBe(201);

    // After the visit (an hour after its end, 10:00 in Berlin) the question how easy booking was goes out, once;
    // not before, and never about a cancelled visit.
    const feedbackJob = { bookingId: free.body.id, organizationId: site.organizationId };
    const askedOf = async () =>
      (
        await t.deps.db
          .select()
          .from(smsMessage)
          .where(and(eq(smsMessage.candidateId, other), eq(smsMessage.templateKey, 'booking_feedback')))
      ).map((message) => message.body);
    expect(await askVisitFeedback(t.deps, feedbackJob, new Date('2031-07-01T07:30:00Z'))).toBe('not_due');
    expect(await askVisitFeedback(t.deps, feedbackJob, new Date('2031-07-01T07:59:00Z'))).toBe('not_due');
    expect(await askedOf()).toEqual([]);
    expect(await askVisitFeedback(t.deps, feedbackJob, new Date('2031-07-01T08:01:00Z'))).toBe('asked');
    expect(await askVisitFeedback(t.deps, feedbackJob, new Date('2031-07-01T09:00:00Z'))).toBe('already_asked');
    expect(await askedOf()).toEqual([expect.stringContaining('thank you for coming to your visit')]);
    expect((await askedOf())[0]).toContain('Reply with a number from 1 (very hard) to 5 (very easy)');

    // "4 very easy" answers the booking-feedback question: a rating with its comment, thanked, counted once.
    const reply = (body: string) => site.actor.post('/api/sms/simulator/inbound', { candidateId: other, body });
    expect((await reply('4 very easy, thanks')).status).toBeLessThan(300);
    const ratings = () => t.deps.db.select().from(satisfactionResponse).where(eq(satisfactionResponse.candidateId, other));
    expect(await ratings()).toEqual([
      expect.objectContaining({ channel: 'sms', rating: 4, comment: 'very easy, thanks', organizationId: site.organizationId }),
    ]);
    const thanks = await t.deps.db
      .select()
      .from(smsMessage)
      .where(and(eq(smsMessage.candidateId, other), eq(smsMessage.templateKey, 'feedback_thanks')));
    expect(thanks.map((message) => message.body)).toEqual(['Thank you for your feedback!']);
    expect((await reply('5')).status).toBeLessThan(300);
    expect((await ratings()).map((row) => row.rating)).toEqual([4]);
    expect(free.body).toMatchObject({
      siteTimeZone: 'Europe/Berlin',
      startsAt: '2031-07-01T06:00:00.000Z',
      localTime: '2031-07-01T08:00',
      durationMinutes: 60,
    });

    const review = await site.actor.get(`/api/prescreen/review?candidateId=${candidateId}`);
    expect(review.body.bookings.map((b: any) => b.id)).toEqual([answer.body.id]);
    expect(review.body.results[0].booking.id).toBe(answer.body.id);
    // Approving again does not move a visit_scheduled candidate back.
    await site.actor.post('/api/prescreen/review/decision', { resultId, decision: 'approve' });
    expect(await statusOf(candidateId)).toBe('visit_scheduled');
  });

  it('rejecting after booking cancels the visit from that result', async () => {
    const rejected = await site.actor.post('/api/prescreen/review/decision', { resultId, decision: 'reject', reason: 'Sponsor feedback' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.booking).toBeNull();
    const rows = await t.deps.db
      .select()
      .from(booking)
      .where(and(eq(booking.candidateId, candidateId)));
    expect(rows.map((row) => row.status)).toEqual(['cancelled']);
    expect(await statusOf(candidateId)).toBe('prescreen_failed');
    // A cancelled visit is not asked about, even once its time has passed.
    expect(await askVisitFeedback(t.deps, { bookingId: rows[0].id, organizationId: site.organizationId }, new Date('2031-02-01T00:00:00Z'))).toBe(
      'not_attended',
    );
    const [row] = await t.deps.db.select().from(prescreenResult).where(eq(prescreenResult.id, resultId));
    expect(row.reviewStatus).toBe('rejected');
  });

  it('a do-not-contact candidate keeps the flag through prescreen and decisions, and cannot be booked', async () => {
    const dnc = await newCandidate('Nora', 'NoContact');
    await site.actor.patch(`/api/candidates/${dnc}`, { consent: { doNotContact: true } });
    const result = await runOk(dnc, PASS_ANSWERS);
    await site.actor.post('/api/prescreen/review/decision', { resultId: result.id, decision: 'approve' });
    const [row] = await t.deps.db.select().from(candidate).where(eq(candidate.id, dnc));
    expect(row).toMatchObject({ status: 'do_not_contact', doNotContact: true });
    expect((await site.actor.post('/api/prescreen/bookings', { resultId: result.id, siteName: 'Downtown Clinic', localTime: future(20) })).status).toBe(409);
  });
});
