import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import { VisitScheduleSchema } from '../../src/contract/voice';
import { booking, call, candidate, contactEvent, prescreenForm, prescreenFormVersion } from '../../src/server/db/schema';
import { freeVisitSlots } from '../../src/server/features/calls/scheduling';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';

/**
 * Site-visit scheduling agents: the schedule they need (validated against the trial's sites), the slots their
 * calls offer, and the visit a finished call books (the simulator takes the first slot offered).
 */

const SECRET = 'vapi-secret-scheduling-test';
const LAKESIDE = { name: 'Lakeside Clinic', timeZone: 'America/Chicago' };
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const SCHEDULE = { sites: [LAKESIDE.name], weekdays: EVERY_DAY, times: ['09:00', '11:00', '14:00'], durationMinutes: 60, daysAhead: 14, minNoticeHours: 24 };

/** An Etc/GMT zone where the local hour is `hour` right now (calling hours are real time). */
function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

let t: TestApp;
let site: SignedUp;
let trialId: string;
let siteIds: Record<string, string>;
let formId: string;
let phoneSeq = 0;

const agentBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Visit booker',
  type: 'SITE_VISIT_SCHEDULING',
  trialId,
  schedule: SCHEDULE,
  firstMessage: {
    en: 'Hello, this is Lakeside Clinical Research about booking your screening visit.',
    es: 'Hola, le llamamos de Lakeside para reservar su visita.',
  },
  voicemailMessage: { en: 'Please call us back to book your visit.' },
  ...overrides,
});

async function newCandidate() {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Sam',
    lastName: 'Visit',
    phone: `+1312555${String(7000 + ++phoneSeq)}`,
    timeZone: zoneAtHour(12),
    consent: { calls: true },
    trialIds: [trialId],
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

/** A manual prescreen for the candidate, approved (or left pending). */
async function prescreen(candidateId: string, approve = true) {
  const result = await site.actor.post('/api/prescreen/results', { candidateId, formId, answers: [{ questionId: 'asthma', value: true }] });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  if (approve) {
    const decided = await site.actor.post('/api/prescreen/review/decision', { resultId: result.body.id, decision: 'approve' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  }
  return result.body.id as string;
}

async function schedulingCall(candidateId: string) {
  const placed = await site.actor.post('/api/calls/', { candidateId, type: 'SITE_VISIT_SCHEDULING' });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  await t.deps.voice.drain();
  return (await site.actor.get(`/api/calls/${placed.body.id}`)).body;
}

const bookingsOf = (candidateId: string) => t.deps.db.select().from(booking).where(eq(booking.candidateId, candidateId));
const statusOf = async (candidateId: string) => (await t.deps.db.select().from(candidate).where(eq(candidate.id, candidateId)))[0].status;
const bookingEvents = async (candidateId: string) =>
  (
    await t.deps.db
      .select()
      .from(contactEvent)
      .where(and(eq(contactEvent.candidateId, candidateId), eq(contactEvent.kind, 'booking')))
  ).map((event) => event.summary);

beforeAll(async () => {
  t = await createTestApp({ VAPI_SERVER_SECRET: SECRET });
  site = await t.signUp({ organizationName: 'Lakeside Clinical Research' });
  const trial = await createRecruitingTrial(site.actor, {
    title: 'Asthma inhaler study',
    criteria: [{ kind: 'inclusion', text: 'Diagnosed with asthma' }],
    sites: [LAKESIDE, { name: 'Downtown Site', timeZone: 'America/New_York' }, { name: 'Satellite Office' }],
  });
  expect(trial.status, JSON.stringify(trial.body)).toBe(201);
  trialId = trial.body.id;
  siteIds = Object.fromEntries(trial.body.sites.map((item: { id: string; name: string }) => [item.name, item.id]));
  const blocks: StudyBlock[] = [
    {
      id: 'about',
      title: { en: 'About you' },
      questions: [
        {
          id: 'asthma',
          type: 'yes_no',
          wording: { phone: { en: 'Has a doctor ever told you that you have asthma?' }, chat: { en: 'Asthma?' } },
          required: true,
          criterionLinks: [{ criterionId: trial.body.criteria[0].id, when: { op: 'is_yes' }, then: 'met', otherwise: 'not_met' }],
        },
      ],
    },
  ];
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId, name: 'Asthma form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  formId = form.id;
});
afterAll(() => t?.close());

describe('scheduling agent validation', () => {
  const refused = async (payload: Record<string, unknown>, status: number, path?: string) => {
    const answer = await site.actor.post('/api/voice-agents/', payload);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (path) expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    return answer;
  };

  it('needs a trial and a valid schedule whose sites are sites of the trial with a time zone', async () => {
    await refused(agentBody({ trialId: undefined }), 400, 'trialId');
    await refused(agentBody({ schedule: undefined }), 400, 'schedule.sites');
    await refused(agentBody({ schedule: { ...SCHEDULE, sites: [] } }), 400, 'schedule.sites');
    await refused(agentBody({ schedule: { ...SCHEDULE, weekdays: ['funday'] } }), 400, 'schedule.weekdays.0');
    await refused(agentBody({ schedule: { ...SCHEDULE, times: ['9am'] } }), 400, 'schedule.times.0');
    await refused(agentBody({ schedule: { ...SCHEDULE, durationMinutes: 2 } }), 400, 'schedule.durationMinutes');
    await refused(agentBody({ schedule: { ...SCHEDULE, daysAhead: 365 } }), 400, 'schedule.daysAhead');
    const unknownSite = await refused(agentBody({ schedule: { ...SCHEDULE, sites: ['Mars Base'] } }), 400, 'schedule.sites');
    expect(unknownSite.body.error.message).toContain('Mars Base');
    const zoneless = await refused(agentBody({ schedule: { ...SCHEDULE, sites: ['Satellite Office'] } }), 400, 'schedule.sites');
    expect(zoneless.body.error.message).toContain('time zone');
    await refused(agentBody({ trialId: '00000000-0000-4000-8000-000000000000' }), 404);
    const other = await t.signUp({ organizationName: 'Another Site' });
    const theirs = await createRecruitingTrial(other.actor, { title: 'Their trial', criteria: [{ kind: 'inclusion', text: 'Adult' }], sites: [LAKESIDE] });
    await refused(agentBody({ trialId: theirs.body.id }), 404);
  });

  it('stores the schedule with its defaults; updates are checked against the trial too', async () => {
    const created = await site.actor.post('/api/voice-agents/', agentBody({ schedule: { sites: [' Lakeside Clinic ', 'Downtown Site'] }, active: false }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ type: 'SITE_VISIT_SCHEDULING', trialId, prescreenFormId: null });
    // Stored by site id (names are not unique), our sites first.
    expect(created.body.schedule).toEqual({
      sites: [siteIds['Lakeside Clinic'], siteIds['Downtown Site']],
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      times: ['09:00', '11:00', '14:00'],
      durationMinutes: 60,
      daysAhead: 14,
      minNoticeHours: 24,
    });
    const id = created.body.id;
    const badSite = await site.actor.patch(`/api/voice-agents/${id}`, { schedule: { sites: ['Nowhere'] } });
    expect(badSite.status).toBe(400);
    expect(badSite.body.error.details[0].path).toBe('schedule.sites');
    const noTrial = await site.actor.patch(`/api/voice-agents/${id}`, { trialId: null });
    expect(noTrial.status).toBe(400);
    expect(noTrial.body.error.details[0].path).toBe('trialId');
    const badTimes = await site.actor.patch(`/api/voice-agents/${id}`, { schedule: { sites: [LAKESIDE.name], times: [] } });
    expect(badTimes.status).toBe(400);
    expect(badTimes.body.error.details[0].path).toBe('schedule.times');
    const updated = await site.actor.patch(`/api/voice-agents/${id}`, { schedule: { sites: [LAKESIDE.name], times: ['10:00'] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.schedule).toMatchObject({ sites: [siteIds[LAKESIDE.name]], times: ['10:00'] });
    // A rename alone does not re-check the schedule.
    expect((await site.actor.patch(`/api/voice-agents/${id}`, { name: 'Renamed booker' })).status).toBe(200);
    expect((await site.actor.delete(`/api/voice-agents/${id}`)).status).toBe(204);
  });

  it("a PRESCREEN agent's schedule stays free-form", async () => {
    const answer = await site.actor.post('/api/voice-agents/', {
      ...agentBody({ type: 'PRESCREEN', prescreenFormId: formId, schedule: { note: 'anything', sites: 'not checked' } }),
      active: false,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.schedule).toEqual({ note: 'anything', sites: 'not checked' });
  });
});

describe('a scheduling call books the visit', () => {
  let agentId: string;
  let firstSlots: ReturnType<typeof freeVisitSlots>;
  let firstCandidate: string;
  beforeAll(async () => {
    const agent = await site.actor.post('/api/voice-agents/', agentBody());
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    agentId = agent.body.id;
  });

  it('approved result -> call -> booking at the first free slot, candidate visit_scheduled', async () => {
    firstCandidate = await newCandidate();
    await prescreen(firstCandidate);
    firstSlots = freeVisitSlots(VisitScheduleSchema.parse(SCHEDULE), [{ ...LAKESIDE, id: siteIds['Lakeside Clinic'] }], [], new Date());
    const detail = await schedulingCall(firstCandidate);
    expect(detail).toMatchObject({ type: 'SITE_VISIT_SCHEDULING', voiceAgentId: agentId, status: 'ended', outcome: 'completed' });
    const offered = firstSlots.map(({ siteId, siteName, localTime, timeZone }) => ({ siteId, siteName, localTime, timeZone }));
    expect(detail.structuredData.offeredSlots).toEqual(offered);
    expect(detail.structuredData.metadata.booking).toEqual({ siteName: LAKESIDE.name, localTime: firstSlots[0].localTime });
    expect(detail.structuredData.bookingId).toBeTruthy();
    expect(detail.structuredData.bookingError).toBeUndefined();
    expect(detail.transcript.some((turn: { text: string }) => turn.text.startsWith('I can offer these times: Lakeside Clinic'))).toBe(true);

    const [visit] = await bookingsOf(firstCandidate);
    expect(visit).toMatchObject({
      id: detail.structuredData.bookingId,
      siteName: LAKESIDE.name,
      siteTimeZone: LAKESIDE.timeZone,
      durationMinutes: 60,
      status: 'scheduled',
      trialId,
      createdByUserId: null,
    });
    // The confirmation SMS went out after the webhook's commit, through the SMS port and its consent rules.
    expect(visit.confirmationSms).toBe('sent');
    expect(visit.startsAt.toISOString()).toBe(firstSlots[0].startsAt.toISOString());
    expect(await statusOf(firstCandidate)).toBe('visit_scheduled');
    expect(await bookingEvents(firstCandidate)).toEqual([`Visit booked: ${LAKESIDE.name}, ${firstSlots[0].localTime} (${LAKESIDE.timeZone})`]);
    const review = await site.actor.get(`/api/prescreen/review?candidateId=${firstCandidate}`);
    expect(review.body.bookings).toEqual([expect.objectContaining({ siteName: LAKESIDE.name, localTime: firstSlots[0].localTime })]);
  });

  it('a second candidate gets the next slot', async () => {
    const second = await newCandidate();
    await prescreen(second);
    const detail = await schedulingCall(second);
    expect(detail.structuredData.offeredSlots[0]).toEqual({
      siteId: siteIds[LAKESIDE.name],
      siteName: LAKESIDE.name,
      localTime: firstSlots[1].localTime,
      timeZone: LAKESIDE.timeZone,
    });
    const [visit] = await bookingsOf(second);
    expect(visit.startsAt.toISOString()).toBe(firstSlots[1].startsAt.toISOString());
    expect(await statusOf(second)).toBe('visit_scheduled');
  });

  it('no approved result: no booking, the reason kept on the call and in the contact history', async () => {
    const pending = await newCandidate();
    await prescreen(pending, false);
    const statusBefore = await statusOf(pending);
    const detail = await schedulingCall(pending);
    expect(detail).toMatchObject({ status: 'ended', outcome: 'completed' });
    expect(detail.structuredData.bookingError).toBe('no_approved_result');
    expect(detail.structuredData.bookingId).toBeUndefined();
    expect(await bookingsOf(pending)).toEqual([]);
    expect(await statusOf(pending)).toBe(statusBefore);
    expect(await bookingEvents(pending)).toEqual(['Visit not booked: no approved prescreen for this trial']);
  });

  it('a slot taken meanwhile, or one never offered, is not booked', async () => {
    const late = await newCandidate();
    await prescreen(late);
    const endOfCall = async (structuredData: Record<string, unknown>) => {
      const providerCallId = `sim_test_${++phoneSeq}`;
      const [row] = await t.deps.db
        .insert(call)
        .values({
          organizationId: site.organizationId,
          candidateId: late,
          voiceAgentId: agentId,
          type: 'SITE_VISIT_SCHEDULING',
          status: 'in_progress',
          provider: 'simulator',
          providerCallId,
          structuredData,
        })
        .returning();
      const answer = await t.app.request('/api/inbound/vapi', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vapi-secret': SECRET },
        body: JSON.stringify({
          message: { type: 'end-of-call-report', call: { id: providerCallId }, endedReason: 'assistant-ended-call', artifact: { messages: [] } },
        }),
      });
      expect(answer.status).toBe(200);
      return (await t.deps.db.select().from(call).where(eq(call.id, row.id)))[0];
    };
    const taken = { siteName: LAKESIDE.name, localTime: firstSlots[0].localTime, timeZone: LAKESIDE.timeZone };
    const raced = await endOfCall({ offeredSlots: [taken], metadata: { booking: { siteName: taken.siteName, localTime: taken.localTime } } });
    expect(raced).toMatchObject({ status: 'ended', outcome: 'completed' });
    expect(raced.structuredData.bookingError).toBe('slot_taken');
    const invented = await endOfCall({
      offeredSlots: [taken],
      metadata: { booking: JSON.stringify({ siteName: LAKESIDE.name, localTime: '2099-01-01T09:00' }) },
    });
    expect(invented.structuredData.bookingError).toBe('not_offered');
    expect(await bookingsOf(late)).toEqual([]);
    expect(await statusOf(late)).toBe('prescreen_passed');
    expect((await bookingEvents(late)).sort()).toEqual([
      'Visit not booked: that time was just taken',
      'Visit not booked: the time chosen was not one the call offered',
    ]);
    // The first candidate's visit is untouched.
    expect(await bookingsOf(firstCandidate)).toHaveLength(1);
  });
});
