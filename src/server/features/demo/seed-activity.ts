/**
 * The demo's activity step: what a person's history is made of, each written as the live features write it (the
 * row, its contact-history event and its activity events): texts sent and received, calls, chats, status changes,
 * visits booked and what became of them, satisfaction ratings.
 */
import type { CandidateStatus } from '../../../contract/candidates';
import { callEndedSummary } from '../../../contract/words';
import type { call } from '../../db/schema';
import { addActivity, COORDINATOR, type DemoPerson, type DemoSite, DAY, HOUR, type Insert, MINUTE, type SeedContext } from './seed-context';

const SMS_SEGMENT_USD = 0.0079;
const CALL_MINUTE_USD = 0.12;
/** The organization's number in the demo's texts and calls. */
const OUR_PHONE = '+12175550100';
/** Standard-time UTC offsets of the demo cities' zones (visits are booked in local working hours). */
const ZONE_OFFSET: Record<string, number> = {
  'America/New_York': -5,
  'America/Chicago': -6,
  'America/Denver': -7,
  'America/Phoenix': -7,
  'America/Los_Angeles': -8,
};

const personOf = (ctx: SeedContext, person: DemoPerson) => ({ organizationId: ctx.org, candidateId: person.id });

/** The first free hour at or after `at` for a visit at the site. */
export function uniqueSlot(ctx: SeedContext, trialId: string, siteId: string, at: number) {
  let time = at;
  while (ctx.slots.has(`${trialId}|${siteId}|${time}`)) time += HOUR;
  ctx.slots.add(`${trialId}|${siteId}|${time}`);
  return time;
}

/** A local working hour (9:00-16:00) at the site, on the day of `at`, in UTC. */
export function visitTime(ctx: SeedContext, site: DemoSite, at: number) {
  const day = Math.floor(at / DAY) * DAY;
  return day + (ctx.dice.int(9, 16) - (ZONE_OFFSET[site.timeZone!] ?? -6)) * HOUR;
}

/** A screening visit booked at the person's site, with its booking activity. */
export function bookVisit(
  ctx: SeedContext,
  person: DemoPerson,
  bookingId: string,
  bookedAt: number,
  visitAt: number,
  status: 'scheduled' | 'completed' | 'no_show',
) {
  const { site, trial } = person;
  ctx.data.bookings.push({
    id: bookingId,
    organizationId: ctx.org,
    candidateId: person.id,
    trialId: trial.id,
    prescreenResultId: person.resultId,
    siteId: site.id,
    siteName: site.name,
    siteCity: site.city,
    siteTimeZone: site.timeZone!,
    startsAt: new Date(visitAt),
    durationMinutes: 60,
    status,
    confirmationSms: 'sent',
    createdAt: new Date(bookedAt),
  });
  addActivity(ctx, {
    kind: 'visit_booked',
    source: 'manual',
    trialId: trial.id,
    candidateId: person.id,
    label: site.id,
    referenceId: bookingId,
    occurredAt: new Date(bookedAt),
  });
}

/** What became of the visit, an hour after it started: in the activity and the contact history. */
export function visitOutcome(
  ctx: SeedContext,
  person: DemoPerson,
  kind: 'visit_attended' | 'visit_no_show',
  bookingId: string,
  visitAt: number,
  summary: string,
) {
  const at = new Date(visitAt + HOUR);
  addActivity(ctx, { kind, source: 'manual', trialId: person.trial.id, candidateId: person.id, label: person.site.id, referenceId: bookingId, occurredAt: at });
  ctx.data.contactEvents.push({
    ...personOf(ctx, person),
    kind: 'booking',
    summary,
    details: { bookingId },
    referenceId: bookingId,
    actorLabel: COORDINATOR,
    occurredAt: at,
  });
}

/** A satisfaction rating; they lean positive, as real ones do. */
export function rate(ctx: SeedContext, person: DemoPerson, source: 'call' | 'chat' | 'sms', at: number, agentId: string | null, referenceId: string) {
  const value = ctx.dice.weighted([5, 4, 3, 2, 1], [48, 30, 12, 6, 4]);
  addActivity(ctx, {
    kind: 'satisfaction_rated',
    source,
    trialId: person.trial.id,
    candidateId: person.id,
    value,
    agentId,
    referenceId,
    occurredAt: new Date(at),
  });
}

/** An outbound text, delivered a minute later, with its cost. */
export function sendSms(ctx: SeedContext, person: DemoPerson, at: number, body: string, templateKey: string, purpose: 'transactional' | 'marketing') {
  const smsId = ctx.dice.uuid();
  const segments = Math.ceil(body.length / 153) || 1;
  ctx.data.sms.push({
    id: smsId,
    ...personOf(ctx, person),
    direction: 'outbound',
    toPhone: person.phone ?? '+12175550199',
    fromPhone: OUR_PHONE,
    body,
    status: 'delivered',
    purpose,
    provider: 'simulator',
    templateKey,
    createdAt: new Date(at),
    updatedAt: new Date(at + MINUTE),
  });
  ctx.data.contactEvents.push({
    ...personOf(ctx, person),
    kind: 'sms',
    summary: 'SMS sent',
    details: { direction: 'outbound', templateKey },
    referenceId: smsId,
    actorLabel: 'System',
    occurredAt: new Date(at),
  });
  const common = { source: 'sms' as const, trialId: person.trial.id, candidateId: person.id, referenceId: smsId };
  addActivity(ctx, { ...common, kind: 'sms_sent', label: purpose, occurredAt: new Date(at) });
  addActivity(ctx, { ...common, kind: 'sms_delivered', label: purpose, occurredAt: new Date(at + MINUTE) });
  const cost = Math.round(segments * SMS_SEGMENT_USD * 10_000) / 10_000;
  addActivity(ctx, { ...common, kind: 'spend', label: 'sms_segments', value: cost, occurredAt: new Date(at) });
  return smsId;
}

/** A reply from the person. */
export function receiveSms(ctx: SeedContext, person: DemoPerson, at: number, body: string) {
  const smsId = ctx.dice.uuid();
  ctx.data.sms.push({
    id: smsId,
    ...personOf(ctx, person),
    direction: 'inbound',
    toPhone: OUR_PHONE,
    fromPhone: person.phone ?? '+12175550199',
    body,
    status: 'received',
    purpose: 'reply',
    provider: 'simulator',
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });
  ctx.data.contactEvents.push({
    ...personOf(ctx, person),
    kind: 'sms',
    summary: 'SMS received',
    details: { direction: 'inbound' },
    referenceId: smsId,
    actorLabel: 'Candidate',
    occurredAt: new Date(at),
  });
  addActivity(ctx, { kind: 'sms_replied', source: 'sms', trialId: person.trial.id, candidateId: person.id, referenceId: smsId, occurredAt: new Date(at) });
}

/** An ended call by the trial's voice agent, with its events and cost; `extra` adds a prescreen's transcript and answers. */
export function placeCall(ctx: SeedContext, person: DemoPerson, at: number, outcome: string, seconds: number, extra: Partial<Insert<typeof call>> = {}) {
  const callId = ctx.dice.uuid();
  const answered = ['completed', 'declined', 'hung_up'].includes(outcome);
  const cost = Math.round(Math.max(1, Math.ceil(seconds / 60)) * CALL_MINUTE_USD * 10_000) / 10_000;
  const endedAt = new Date(at + seconds * 1000);
  ctx.data.calls.push({
    id: callId,
    ...personOf(ctx, person),
    voiceAgentId: person.trial.voiceAgentId,
    type: 'PRESCREEN',
    direction: 'outbound',
    status: 'ended',
    outcome,
    provider: 'simulator',
    toPhone: person.phone,
    fromPhone: OUR_PHONE,
    language: person.language,
    startedAt: new Date(at),
    endedAt,
    durationSeconds: seconds,
    costUsd: cost.toFixed(4),
    transcript: [],
    createdAt: new Date(at - 5000),
    updatedAt: endedAt,
    ...extra,
  });
  ctx.data.contactEvents.push({
    ...personOf(ctx, person),
    kind: 'call',
    summary: `${callEndedSummary(outcome)} (prescreen)`,
    details: { outcome, durationSeconds: seconds },
    referenceId: callId,
    actorLabel: 'Voice agent',
    occurredAt: endedAt,
  });
  const common = { source: 'call' as const, trialId: person.trial.id, candidateId: person.id, agentId: person.trial.voiceAgentId, referenceId: callId };
  addActivity(ctx, { ...common, kind: 'call_placed', occurredAt: new Date(at) });
  if (answered) addActivity(ctx, { ...common, kind: 'call_answered', occurredAt: new Date(at + 8000) });
  addActivity(ctx, { ...common, kind: 'call_ended', label: outcome, value: seconds, occurredAt: endedAt });
  addActivity(ctx, { ...common, kind: 'spend', label: 'call_minutes', value: cost, occurredAt: endedAt });
  return callId;
}

/** The fields every activity event of a chat shares. */
export function chatActivity(person: DemoPerson, conversationId: string) {
  return { source: 'chat' as const, trialId: person.trial.id, candidateId: person.id, agentId: person.trial.chatAgentId, referenceId: conversationId };
}

/** A status change in the contact history and the activity. */
export function changeStatus(ctx: SeedContext, person: DemoPerson, to: CandidateStatus, at: number, source: 'sms' | 'call' | 'chat' | 'manual') {
  const from = person.previous;
  ctx.data.contactEvents.push({
    ...personOf(ctx, person),
    kind: 'status_change',
    summary: `Status: ${from} -> ${to}`,
    details: { from, to },
    actorLabel: source === 'manual' ? COORDINATOR : 'System',
    occurredAt: new Date(at),
  });
  addActivity(ctx, { kind: 'status_changed', source, trialId: person.trial.id, candidateId: person.id, label: to, occurredAt: new Date(at) });
}
