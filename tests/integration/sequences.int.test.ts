import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import type { SequenceStepInput } from '../../src/contract/sequences';
import { booking, call, mailOutbox, prescreenForm, prescreenFormVersion, sequenceEnrollment, sequenceStepRun, smsMessage } from '../../src/server/db/schema';
import { runOwnerOf } from '../../src/server/features/processing-runs/runner';
import { runSequenceStep, sweepSequences } from '../../src/server/features/sequences/engine';
import { whenEnrollmentRunSettled } from '../../src/server/features/sequences/enroll-run';
import { enrollTuning } from '../../src/server/features/sequences/enrollments';
import { localMinutes } from '../../src/server/calling-hours';
import { createTestApp, type SignedUp, type TestApp } from '../support/test-app';
import { createRecruitingTrial } from '../support/trials';
import { zoneAtHour } from '../support/zones';

/**
 * Outreach sequences end to end with the simulators: enrollment (and its refusals), the engine's steps (SMS,
 * wait, call, branch), exits on reply / STOP / booking, quiet hours, versions, and sending at most once when a
 * job is retried or its transaction fails. Time beyond "now" is reached by running a step's job with a later
 * clock; the first step of every enrollment is run by the real pg-boss worker.
 */

let t: TestApp;
let site: SignedUp;
let trialId: string;
let phoneSeq = 0;
const nextPhone = () => `+1415555${String(1000 + ++phoneSeq)}`;

const blocks: StudyBlock[] = [
  {
    id: 'about',
    title: { en: 'About you' },
    questions: [
      { id: 'asthma', type: 'yes_no', wording: { phone: { en: 'Do you have asthma?' }, chat: { en: 'Asthma?' } }, required: true, criterionLinks: [] },
    ],
  },
];

const smsStep = (key: string, en: string, es?: string): SequenceStepInput => ({ key, type: 'sms', message: { en, ...(es ? { es } : {}) } });

async function newCandidate(overrides: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/candidates/', {
    firstName: 'Maya',
    lastName: 'Lopez',
    phone: nextPhone(),
    timeZone: zoneAtHour(12),
    consent: { sms: true, calls: true },
    trialIds: [trialId],
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; phone: string };
}

async function createSequence(steps: SequenceStepInput[], extra: Record<string, unknown> = {}) {
  const answer = await site.actor.post('/api/sequences/', { name: `Outreach ${Math.random().toString(36).slice(2, 7)}`, trialId, steps, ...extra });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; currentVersion: number };
}

async function enroll(sequenceId: string, candidateIds: string[]) {
  const answer = await site.actor.post(`/api/sequences/${sequenceId}/enrollments`, { candidateIds });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { enrolled: number; alreadyEnrolled: number; refused: Array<{ candidateId: string; reason: string }>; refusedCount: number };
}

const enrollmentOf = async (sequenceId: string, candidateId: string) =>
  (
    await t.deps.db
      .select()
      .from(sequenceEnrollment)
      .where(and(eq(sequenceEnrollment.sequenceId, sequenceId), eq(sequenceEnrollment.candidateId, candidateId)))
      .orderBy(asc(sequenceEnrollment.enrolledAt))
  )[0];
const timelineKinds = async (enrollmentId: string) =>
  (
    await t.deps.db
      .select()
      .from(sequenceStepRun)
      .where(eq(sequenceStepRun.enrollmentId, enrollmentId))
      .orderBy(asc(sequenceStepRun.createdAt), asc(sequenceStepRun.id))
  ).map((row) => row.kind);
const outboundTo = async (candidateId: string) =>
  (
    await t.deps.db
      .select()
      .from(smsMessage)
      .where(and(eq(smsMessage.candidateId, candidateId), eq(smsMessage.direction, 'outbound')))
      .orderBy(asc(smsMessage.createdAt))
  ).filter((row) => row.purpose === 'marketing');

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Runs the enrollment's current job as if its time had come (`now` defaults to its next run time). */
async function runDueStep(enrollmentId: string, now?: Date) {
  const row = (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, enrollmentId)))[0];
  await runSequenceStep(t.deps, { enrollmentId }, row.jobId!, now ?? new Date(row.nextRunAt!.getTime() + 1000));
  return (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, enrollmentId)))[0];
}

beforeAll(async () => {
  t = await createTestApp();
  site = await t.signUp({ organizationName: 'Sequence Research Site' });
  const trial = await createRecruitingTrial(site.actor, { title: 'Asthma relief study', criteria: [{ kind: 'inclusion', text: 'Asthma' }] });
  trialId = trial.body.id;
  const [form] = await t.deps.db
    .insert(prescreenForm)
    .values({ organizationId: site.organizationId, trialId, name: 'Form', status: 'published', currentVersion: 1, publishedAt: new Date() })
    .returning();
  await t.deps.db.insert(prescreenFormVersion).values({ organizationId: site.organizationId, formId: form.id, version: 1, blocks });
  const agent = await site.actor.post('/api/voice-agents/', {
    name: 'Screener',
    type: 'PRESCREEN',
    trialId,
    prescreenFormId: form.id,
    firstMessage: { en: 'Hello' },
    voicemailMessage: { en: 'Sorry we missed you' },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
});
afterAll(() => t?.close());

describe('a three-step sequence with the simulators', () => {
  const steps: SequenceStepInput[] = [
    smsStep(
      'invite',
      'Hi {firstName}, {organizationName} is looking for volunteers for {trialTitle}.',
      'Hola {firstName}, {organizationName} busca voluntarios para {trialTitle}.',
    ),
    { key: 'pause', type: 'wait', amount: 2, unit: 'days' },
    { key: 'screen', type: 'call', agentType: 'PRESCREEN' },
    { key: 'answered', type: 'branch', condition: 'call_answered', ifTrue: 'end', ifFalse: 'next' },
    smsStep('missed', 'Sorry we missed you, {firstName}. Reply here when it suits you.'),
  ];

  it('texts in the candidate language, waits, calls, and ends when the call is answered', async () => {
    const sequence = await createSequence(steps);
    const person = await newCandidate({ preferredLanguage: 'es' });
    expect(await enroll(sequence.id, [person.id])).toMatchObject({ enrolled: 1, alreadyEnrolled: 0, refused: [] });

    // The worker sends the first step at once; the enrollment then waits two days at the call.
    const sent = await waitFor(
      () => outboundTo(person.id),
      (rows) => rows.length > 0,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toBe('Hola Maya, Sequence Research Site busca voluntarios para Asthma relief study. Responda STOP para no recibir más mensajes.');
    const waiting = await waitFor(
      () => enrollmentOf(sequence.id, person.id),
      (row) => row.stepIndex === 2,
    );
    expect(waiting.stepIndex).toBe(2);
    expect(waiting.nextRunAt!.getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);
    expect(await timelineKinds(waiting.id)).toEqual(['enrolled', 'sent', 'waited']);

    // Two days later (midday there): the call goes out, then the branch waits for it to end.
    const afterCall = await runDueStep(waiting.id);
    expect(afterCall.lastCallId).toBeTruthy();
    expect(afterCall.stepIndex).toBe(3);
    const ended = await waitFor(
      async () => (await t.deps.db.select().from(call).where(eq(call.id, afterCall.lastCallId!)))[0],
      (row) => row.status === 'ended',
      30_000,
    );
    expect(ended.outcome).toBe('completed');
    const done = await runDueStep(waiting.id);
    expect(done.status).toBe('completed');
    expect(await timelineKinds(waiting.id)).toEqual(['enrolled', 'sent', 'waited', 'sent', 'branched', 'completed']);
    expect(await outboundTo(person.id)).toHaveLength(1);

    const history = await site.actor.get(`/api/contact-history/?candidateId=${person.id}&order=asc`);
    const summaries = (history.body.events as Array<{ summary: string }>).map((event) => event.summary);
    expect(summaries.some((line) => line.startsWith('Enrolled in sequence'))).toBe(true);
    expect(summaries.some((line) => line.startsWith('Sequence completed'))).toBe(true);
    expect(summaries.some((line) => /SMS sent: Outreach \w+, step 1/.test(line))).toBe(true);
  });

  it('takes the other branch when the call is missed, and the statistics count each step', async () => {
    const sequence = await createSequence(steps);
    const person = await newCandidate({ customFields: { simulate: 'no_answer' } });
    await enroll(sequence.id, [person.id]);
    const waiting = await waitFor(
      () => enrollmentOf(sequence.id, person.id),
      (row) => row.stepIndex === 2,
    );
    const afterCall = await runDueStep(waiting.id);
    await waitFor(
      async () => (await t.deps.db.select().from(call).where(eq(call.id, afterCall.lastCallId!)))[0],
      (row) => row.status === 'ended' || row.status === 'failed',
      30_000,
    );
    const after = await runDueStep(waiting.id);
    expect(after.status).toBe('completed');
    const texts = await outboundTo(person.id);
    expect(texts.map((row) => row.body)).toEqual([
      expect.stringContaining('looking for volunteers'),
      'Sorry we missed you, Maya. Reply here when it suits you. Reply STOP to opt out.',
    ]);

    const stats = await site.actor.get(`/api/sequences/${sequence.id}/statistics`);
    expect(stats.status).toBe(200);
    expect(stats.body.steps.map((step: { key: string; sent: number }) => [step.key, step.sent])).toEqual([
      ['invite', 1],
      ['pause', 0],
      ['screen', 1],
      ['answered', 0],
      ['missed', 1],
    ]);
    expect(stats.body.steps[0].delivered).toBe(1);
    expect(stats.body.enrollments.completed).toBe(1);
  });
});

describe('exits', () => {
  const steps: SequenceStepInput[] = [
    smsStep('first', 'Hi {firstName}, can we tell you about a study?'),
    { key: 'wait', type: 'wait', amount: 1, unit: 'days' },
    smsStep('second', 'Hi {firstName}, a reminder about the study.'),
  ];

  async function enrolledAfterFirstText() {
    const sequence = await createSequence(steps);
    const person = await newCandidate();
    await enroll(sequence.id, [person.id]);
    const row = await waitFor(
      () => enrollmentOf(sequence.id, person.id),
      (value) => value.stepIndex === 2,
    );
    expect(row.stepIndex).toBe(2);
    return { sequence, person, row };
  }

  it('a reply ends the enrollment and the next step sends nothing', async () => {
    const { person, row } = await enrolledAfterFirstText();
    const reply = await site.actor.post('/api/sms/simulator/inbound', { candidateId: person.id, body: 'Yes please tell me more' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const ended = (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, row.id)))[0];
    expect(ended).toMatchObject({ status: 'exited', exitReason: 'replied', nextRunAt: null });
    await runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, new Date(Date.now() + 2 * 86400_000));
    expect(await outboundTo(person.id)).toHaveLength(1);
    const detail = await site.actor.get(`/api/sequence-enrollments/${row.id}`);
    expect(detail.body.timeline.at(-1)).toMatchObject({ kind: 'exited', summary: 'Exited: replied' });
  });

  it('STOP ends it as opted out', async () => {
    const { person, row } = await enrolledAfterFirstText();
    await site.actor.post('/api/sms/simulator/inbound', { candidateId: person.id, body: 'STOP' });
    const ended = (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, row.id)))[0];
    expect(ended).toMatchObject({ status: 'exited', exitReason: 'opted_out' });
  });

  it('a booked visit ends it', async () => {
    const { person, row } = await enrolledAfterFirstText();
    const patched = await site.actor.patch(`/api/candidates/${person.id}`, { status: 'visit_scheduled' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const ended = (await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, row.id)))[0];
    expect(ended).toMatchObject({ status: 'exited', exitReason: 'booked' });
  });

  it('a sequence that does not end on replies lets a branch act on the reply', async () => {
    const sequence = await createSequence(
      [
        smsStep('ask', 'Hi {firstName}, interested in a study?'),
        { key: 'wait', type: 'wait', amount: 1, unit: 'hours' },
        { key: 'did-reply', type: 'branch', condition: 'replied', ifTrue: 'thanks', ifFalse: 'end' },
        smsStep('thanks', 'Thanks {firstName}, a coordinator will call you.'),
      ],
      { exitOnReply: false },
    );
    const person = await newCandidate();
    await enroll(sequence.id, [person.id]);
    const row = await waitFor(
      () => enrollmentOf(sequence.id, person.id),
      (value) => value.stepIndex === 2,
    );
    await site.actor.post('/api/sms/simulator/inbound', { candidateId: person.id, body: 'yes' });
    expect((await enrollmentOf(sequence.id, person.id)).status).toBe('active');
    const done = await runDueStep(row.id);
    expect(done.status).toBe('completed');
    expect((await outboundTo(person.id)).map((message) => message.body.split(',')[0])).toEqual(['Hi Maya', 'Thanks Maya']);
  });
});

describe('the contact window', () => {
  it('a step due at 22:00 local is moved to 08:00 the next day, and the move is in the timeline', async () => {
    const sequence = await createSequence([smsStep('late', 'Hi {firstName}, about the study.')]);
    const zone = zoneAtHour(22);
    const person = await newCandidate({ timeZone: zone });
    await enroll(sequence.id, [person.id]);
    const moved = await waitFor(
      () => enrollmentOf(sequence.id, person.id),
      (row) => row.nextRunAt !== null && row.nextRunAt.getTime() > Date.now() + 60_000,
    );
    expect(localMinutes(moved.nextRunAt!, zone)).toBe(8 * 60);
    expect(moved.nextRunAt!.getTime() - Date.now()).toBeGreaterThan(9 * 3600_000);
    expect(moved.nextRunAt!.getTime() - Date.now()).toBeLessThan(11 * 3600_000);
    const detail = await site.actor.get(`/api/sequence-enrollments/${moved.id}`);
    expect(detail.body.timeline.map((entry: { kind: string }) => entry.kind)).toEqual(['enrolled', 'moved']);
    expect(detail.body.timeline[1].summary).toMatch(
      /^Moved to \w{3} 08:00 \(Etc\/GMT[+-]\d+\) \(quiet hours\)$|^Moved to \w{3} 08:00 \(Etc\/UTC\) \(quiet hours\)$/,
    );
    expect(await outboundTo(person.id)).toHaveLength(0);
    const history = await site.actor.get(`/api/contact-history/?candidateId=${person.id}&order=asc`);
    expect(
      (history.body.events as Array<{ kind: string; summary: string }>).filter((event) => event.kind === 'sequence').map((event) => event.summary),
    ).toEqual([
      expect.stringMatching(/^Enrolled in sequence: Outreach/),
      expect.stringMatching(/^Outreach \w+, step 1: Moved to \w{3} 08:00 .* \(quiet hours\)$/),
    ]);
  });
});

describe('sending at most once', () => {
  const steps: SequenceStepInput[] = [smsStep('only', 'Hi {firstName}, one message only.')];

  async function pendingEnrollment() {
    const sequence = await createSequence(steps);
    const person = await newCandidate();
    // Starting in an hour keeps the worker away; the test runs the job itself.
    const answer = await site.actor.post(`/api/sequences/${sequence.id}/enrollments`, {
      candidateIds: [person.id],
      startAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(answer.body.enrolled).toBe(1);
    return { person, row: await enrollmentOf(sequence.id, person.id) };
  }

  it('two deliveries of the same job racing send one message', async () => {
    const { person, row } = await pendingEnrollment();
    const at = new Date(Date.now() + 3600_000 + 1000);
    await Promise.all([runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, at), runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, at)]);
    await runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, at);
    expect(await outboundTo(person.id)).toHaveLength(1);
    expect((await timelineKinds(row.id)).filter((kind) => kind === 'sent')).toHaveLength(1);
  });

  it('a job whose transaction dies before the send is recorded sends once when retried', async () => {
    const { person, row } = await pendingEnrollment();
    // The step's record fails once, as if the process died mid-transaction: nothing may be sent or kept.
    await t.deps.db.execute(sql`create table if not exists sequence_fault (armed boolean)`);
    await t.deps.db.execute(sql`insert into sequence_fault values (true)`);
    await t.deps.db.execute(sql`
      create or replace function sequence_fail_once() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from sequence_fault where armed) then
          update sequence_fault set armed = false;
          raise exception 'worker died';
        end if;
        return new;
      end $$`);
    await t.deps.db.execute(
      sql`create trigger sequence_fail_once before insert on sequence_step_run for each row when (new.kind = 'sent') execute function sequence_fail_once()`,
    );
    try {
      const at = new Date(Date.now() + 3600_000 + 1000);
      await expect(runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, at)).rejects.toThrow();
      // The raise rolled back the armed flag too: disarm it for the retry outside the failed transaction.
      await t.deps.db.execute(sql`update sequence_fault set armed = false`);
      expect(await outboundTo(person.id)).toHaveLength(0);
      await runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, at);
      expect(await outboundTo(person.id)).toHaveLength(1);
      expect(
        (await enrollmentOf((await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.id, row.id)))[0].sequenceId, person.id)).status,
      ).toBe('completed');
    } finally {
      await t.deps.db.execute(sql`drop trigger if exists sequence_fail_once on sequence_step_run`);
      await t.deps.db.execute(sql`drop table if exists sequence_fault`);
    }
  });
});

describe('enrollment and versions', () => {
  it('refuses people who cannot be reached on the channels used, with the reason', async () => {
    const sequence = await createSequence([smsStep('text', 'Hi {firstName}'), { key: 'ring', type: 'call', agentType: 'PRESCREEN' }]);
    const fine = await newCandidate();
    const noSms = await newCandidate({ consent: { calls: true } });
    const noCalls = await newCandidate({ consent: { sms: true } });
    const blocked = await newCandidate({ consent: { sms: true, calls: true, doNotContact: true } });
    const result = await enroll(sequence.id, [fine.id, noSms.id, noCalls.id, blocked.id]);
    expect(result.enrolled).toBe(1);
    expect(Object.fromEntries(result.refused.map((item) => [item.candidateId, item.reason]))).toEqual({
      [noSms.id]: 'No SMS consent (or opted out)',
      [noCalls.id]: 'No call consent',
      [blocked.id]: 'Do not contact',
    });
    expect((await enroll(sequence.id, [fine.id])).alreadyEnrolled).toBe(1);
  });

  it("a filter larger than one request enrolls in the background as a processing run, with each person's outcome", async () => {
    const sequence = await createSequence([smsStep('text', 'Hi {firstName}')]);
    const lastName = `Runfilter${Math.random().toString(36).slice(2, 7)}`;
    const fine = await Promise.all([1, 2, 3].map(() => newCandidate({ lastName })));
    const noSms = await newCandidate({ lastName, consent: { calls: true } });
    const already = await newCandidate({ lastName });
    // Starting tomorrow, so the worker cannot finish this enrollment before the run looks at it.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await site.actor.post(`/api/sequences/${sequence.id}/enrollments`, { candidateIds: [already.id], startAt: tomorrow })).status).toBe(200);
    const saved = enrollTuning.inRequest;
    enrollTuning.inRequest = 2;
    try {
      const answer = await site.actor.post(`/api/sequences/${sequence.id}/enrollments`, { filter: { search: lastName } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      expect(answer.body).toMatchObject({ enrolled: 0, run: { total: 5 } });
      await whenEnrollmentRunSettled(answer.body.run.id);
      const done = await site.actor.get(`/api/processing-runs/${answer.body.run.id}/data?limit=10`);
      expect(done.body.run).toMatchObject({ kind: 'sequence_enrollment', status: 'completed', total: 5, processed: 5, succeeded: 3, skipped: 1, failed: 1 });
      const outcomes = Object.fromEntries(
        (done.body.items as Array<{ candidateId: string; outcome: string; errors: Array<{ message: string }> | null }>).map((item) => [
          item.candidateId,
          item.errors?.length ? `${item.outcome}: ${item.errors[0].message}` : item.outcome,
        ]),
      );
      expect(outcomes).toEqual({
        [fine[0].id]: 'enrolled',
        [fine[1].id]: 'enrolled',
        [fine[2].id]: 'enrolled',
        [noSms.id]: 'refused: No SMS consent (or opted out)',
        [already.id]: 'already_enrolled',
      });
      const rows = await t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.sequenceId, sequence.id));
      expect(rows.map((row) => row.candidateId).sort()).toEqual([already.id, ...fine.map((person) => person.id)].sort());
      // Each person the run enrolled has their first step queued (the sweep after each batch), or already done by the worker.
      expect(rows.filter((row) => row.source === 'filter').every((row) => row.jobId !== null || row.status === 'completed')).toBe(true);
    } finally {
      enrollTuning.inRequest = saved;
    }
  });

  it('editing the steps of a sequence with people in it makes a new version; they finish on theirs', async () => {
    const sequence = await createSequence([smsStep('one', 'First version, {firstName}')]);
    const edited = await site.actor.patch(`/api/sequences/${sequence.id}`, { steps: [smsStep('one', 'Still the first version, {firstName}')] });
    expect(edited.body).toMatchObject({ newVersion: false, sequence: { currentVersion: 1 } });

    const early = await newCandidate();
    await enroll(sequence.id, [early.id]);
    const changed = await site.actor.patch(`/api/sequences/${sequence.id}`, { steps: [smsStep('one', 'Second version, {firstName}')] });
    expect(changed.body).toMatchObject({ newVersion: true, sequence: { currentVersion: 2 } });
    const late = await newCandidate();
    await enroll(sequence.id, [late.id]);
    await waitFor(
      () => outboundTo(late.id),
      (rows) => rows.length > 0,
    );
    await waitFor(
      () => outboundTo(early.id),
      (rows) => rows.length > 0,
    );
    expect((await outboundTo(early.id))[0].body).toMatch(/^Still the first version, Maya/);
    expect((await outboundTo(late.id))[0].body).toMatch(/^Second version, Maya/);
    expect((await enrollmentOf(sequence.id, early.id)).version).toBe(1);
    expect((await enrollmentOf(sequence.id, late.id)).version).toBe(2);
  });

  it('answers bad steps with the field that is wrong', async () => {
    const backwards = await site.actor.post('/api/sequences/', {
      name: 'Loop',
      steps: [smsStep('a', 'Hi'), { key: 'b', type: 'branch', condition: 'replied', ifTrue: 'a', ifFalse: 'end' }],
    });
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('A branch can only go to a later step');
    const halfWait = await site.actor.post('/api/sequences/', { name: 'Wait', steps: [smsStep('a', 'Hi'), { key: 'b', type: 'wait', amount: 2 }] });
    expect(halfWait.status).toBe(400);
    expect(JSON.stringify(halfWait.body)).toContain('Give both amount and unit');
  });

  it('pause keeps a person from being texted until resumed; stop ends it', async () => {
    const sequence = await createSequence([smsStep('one', 'Hi {firstName}')]);
    const person = await newCandidate();
    const answer = await site.actor.post(`/api/sequences/${sequence.id}/enrollments`, {
      candidateIds: [person.id],
      startAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(answer.body.enrolled).toBe(1);
    const row = await enrollmentOf(sequence.id, person.id);
    const paused = await site.actor.post(`/api/sequence-enrollments/${row.id}/action`, { action: 'pause' });
    expect(paused.body).toMatchObject({ status: 'paused', nextRunAt: null });
    await runSequenceStep(t.deps, { enrollmentId: row.id }, row.jobId!, new Date(Date.now() + 3600_000 + 1000));
    expect(await outboundTo(person.id)).toHaveLength(0);
    expect((await site.actor.post(`/api/sequence-enrollments/${row.id}/action`, { action: 'pause' })).status).toBe(409);
    const stopped = await site.actor.post(`/api/sequence-enrollments/${row.id}/action`, { action: 'stop' });
    expect(stopped.body).toMatchObject({ status: 'exited', exitReason: 'stopped' });
  });

  it('previews a message with a real candidate in both languages', async () => {
    const person = await newCandidate();
    const answer = await site.actor.post('/api/sequences/preview', {
      step: smsStep('p', 'Hi {firstName}, about {trialTitle}', 'Hola {firstName}, sobre {trialTitle}'),
      candidateId: person.id,
      trialId,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      candidateName: 'Maya Lopez',
      en: { text: 'Hi Maya, about Asthma relief study Reply STOP to opt out.' },
      es: { text: 'Hola Maya, sobre Asthma relief study Responda STOP para no recibir más mensajes.' },
      missing: [],
    });
  });
});

describe('triggers', () => {
  it('people imported for the trial join a sequence listening for imports, and get its email', async () => {
    const sequence = await createSequence(
      [{ key: 'welcome', type: 'email', subject: { en: 'About {trialTitle}' }, body: { en: 'Dear {firstName}, thank you for your interest.' } }],
      { triggers: ['candidate_imported'] },
    );
    const email = `ivy.${Date.now()}@example.test`;
    const started = await site.actor.post('/api/candidates/bulk', {
      format: 'csv',
      data: `first_name,last_name,email,time_zone\nIvy,Imported,${email},${zoneAtHour(12)}\n`,
      duplicates: 'merge',
      trialId,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const enrolled = await waitFor(
      async () => t.deps.db.select().from(sequenceEnrollment).where(eq(sequenceEnrollment.sequenceId, sequence.id)),
      (rows) => rows.length > 0,
    );
    expect(enrolled.map((row) => row.source)).toEqual(['candidate_imported']);
    await sweepSequences(t.deps);
    const mail = await waitFor(
      async () => t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)),
      (rows) => rows.length > 0,
    );
    expect(mail.map((row) => row.subject)).toEqual(['About Asthma relief study']);
    expect(mail[0].textBody).toMatch(/^Dear Ivy, thank you for your interest\./);
  });

  it('a no-show at a booked visit starts the no-show follow-up', async () => {
    const sequence = await createSequence([smsStep('sorry', 'Hi {firstName}, we missed you at your visit. Reply to book a new time.')], {
      triggers: ['visit_no_show'],
    });
    const person = await newCandidate();
    const [visit] = await t.deps.db
      .insert(booking)
      .values({
        organizationId: site.organizationId,
        candidateId: person.id,
        trialId,
        siteName: 'Main clinic',
        siteTimeZone: 'America/New_York',
        startsAt: new Date(Date.now() - 3600_000),
      })
      .returning();
    const marked = await site.actor.post(`/api/prescreen/bookings/${visit.id}/outcome`, { status: 'no_show' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.status).toBe('no_show');
    expect((await enrollmentOf(sequence.id, person.id)).source).toBe('visit_no_show');
    await sweepSequences(t.deps);
    const texts = await waitFor(
      () => outboundTo(person.id),
      (rows) => rows.length > 0,
    );
    expect(texts[0].body).toMatch(/^Hi Maya, we missed you at your visit/);
    expect((await site.actor.post(`/api/prescreen/bookings/${visit.id}/outcome`, { status: 'cancelled' })).status).toBe(200);
    expect((await site.actor.post(`/api/prescreen/bookings/${visit.id}/outcome`, { status: 'completed' })).status).toBe(409);
  });
});

describe('a sender that died (decision 122)', () => {
  it('the due step whose job a gone process took gets a new job at the next sweep; a live sender keeps its job', async () => {
    const sequence = await createSequence([
      { key: 'wait', type: 'wait', amount: 1, unit: 'days' },
      smsStep('hello', 'Hi {firstName}, one more question about the study.'),
    ]);
    const gone = await newCandidate();
    const kept = await newCandidate();
    await enroll(sequence.id, [gone.id, kept.id]);
    const waiting = async () => Promise.all([enrollmentOf(sequence.id, gone.id), enrollmentOf(sequence.id, kept.id)]);
    // The first job walks into the day's wait: both are then due tomorrow.
    await waitFor(waiting, (rows) => rows.every((row) => row.nextRunAt!.getTime() > Date.now() + 3_600_000));
    // Both due now, each job taken by a process: one that died (no heartbeat), and this live one.
    const due = new Date(Date.now() - 5000);
    const [goneRow, keptRow] = await waiting();
    await t.deps.db
      .update(sequenceEnrollment)
      .set({ nextRunAt: due, jobId: 'job-of-a-dead-sender', sender: 'dead-host:4242:0 job-of-a-dead-sender' })
      .where(eq(sequenceEnrollment.id, goneRow.id));
    await t.deps.db
      .update(sequenceEnrollment)
      .set({ nextRunAt: due, jobId: 'job-of-a-live-sender', sender: `${runOwnerOf(t.deps)} job-of-a-live-sender` })
      .where(eq(sequenceEnrollment.id, keptRow.id));

    await sweepSequences(t.deps);
    const [goneAfter, keptAfter] = await waiting();
    expect(keptAfter.jobId).toBe('job-of-a-live-sender');
    expect(goneAfter.jobId).not.toBe('job-of-a-dead-sender');
    // The new job runs the step: the person gets the text once.
    const texts = await waitFor(
      () => outboundTo(gone.id),
      (rows) => rows.length > 0,
    );
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toMatch(/^Hi Maya, one more question about the study\./);
    // Should the dead sender's job ever run, it is stale: nothing is sent twice.
    await runSequenceStep(t.deps, { enrollmentId: goneRow.id }, 'job-of-a-dead-sender');
    expect(await outboundTo(gone.id)).toHaveLength(1);
    await t.deps.db.update(sequenceEnrollment).set({ status: 'exited', jobId: null }).where(eq(sequenceEnrollment.id, keptRow.id));
  });
});
