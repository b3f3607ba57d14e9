import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { VisitScheduleSchema, WEEKDAYS, type VisitSchedule } from '../../../contract/voice';
import { booking } from '../../db/schema';
import type { Executor, Transaction } from '../../db/scoped';
import type { OfferedSlot } from '../../integrations/voice/port';
import { insertContactEvents } from '../candidates/service';
import { isValidTimeZone, localTimeToUtc, toLocalTime } from '../../../contract/time-zones';
import { bookVisitForCandidate, VisitNotBooked } from '../prescreen/bookings';
import { findTrialRow } from '../trials/service';
import { scheduleSites } from '../trials/sites';
import { siteShortLabel } from '../../../contract/trials';
import { findVoiceAgent, type VoiceAgentRow } from '../voice-agents/service';
import { updateCall, type CallRow } from './queries';

/**
 * Site-visit scheduling calls: the free slots an agent offers (from its VisitSchedule, minus visits already
 * booked at the site) and, when the call ends, booking the one the person chose.
 */

/** How many slots a call offers. */
export const OFFERED_SLOT_COUNT = 3;

export interface SlotSite {
  id: string;
  /** As the agent says it: facility and city. */
  name: string;
  /** IANA zone: the schedule's times are wall-clock times here. */
  timeZone: string;
}

export interface TakenSlot {
  siteId: string | null;
  startsAt: Date;
  durationMinutes: number;
}

export interface VisitSlot extends OfferedSlot {
  startsAt: Date;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The earliest free slots, earliest first (ties keep the order of `sites`): on the schedule's weekdays at its
 * times in each site's zone, from now + minNoticeHours to now + daysAhead days. A time the clocks skip is not
 * offered; a repeated time is its first occurrence. A slot overlapping a booked visit at the same site is not
 * free.
 */
export function freeVisitSlots(schedule: VisitSchedule, sites: SlotSite[], taken: TakenSlot[], now: Date, limit = OFFERED_SLOT_COUNT): VisitSlot[] {
  const earliest = now.getTime() + schedule.minNoticeHours * HOUR;
  const latest = now.getTime() + schedule.daysAhead * DAY;
  const times = [...new Set(schedule.times)].sort();
  const weekdays = new Set(schedule.weekdays);
  const length = schedule.durationMinutes * 60_000;
  const usable = sites.filter((site) => isValidTimeZone(site.timeZone));
  const slots: VisitSlot[] = [];
  let enoughAt: number | null = null;
  // Day by day across all sites: zones differ by at most 26 hours, so two days after the day that filled the
  // list nothing earlier can turn up.
  for (let offset = 0; offset <= schedule.daysAhead + 1; offset++) {
    if (enoughAt !== null && offset > enoughAt + 2) break;
    for (const site of usable) {
      const [year, month, day] = toLocalTime(now, site.timeZone).slice(0, 10).split('-').map(Number);
      const date = new Date(Date.UTC(year, month - 1, day + offset));
      if (!weekdays.has(WEEKDAYS[(date.getUTCDay() + 6) % 7])) continue;
      const localDate = date.toISOString().slice(0, 10);
      const busy = taken.filter((item) => item.siteId === site.id);
      for (const time of times) {
        const localTime = `${localDate}T${time}`;
        const converted = localTimeToUtc(localTime, site.timeZone);
        if (!converted.ok) continue;
        const start = converted.instant.getTime();
        if (start < earliest || start > latest) continue;
        if (busy.some((item) => start < item.startsAt.getTime() + item.durationMinutes * 60_000 && item.startsAt.getTime() < start + length)) continue;
        slots.push({ siteId: site.id, siteName: site.name, localTime, timeZone: site.timeZone, startsAt: converted.instant });
      }
    }
    if (enoughAt === null && slots.length >= limit) enoughAt = offset;
  }
  return slots.sort((left, right) => left.startsAt.getTime() - right.startsAt.getTime()).slice(0, limit);
}

/** The agent's schedule, or null when it is not a valid VisitSchedule (agents saved before it was required). */
export function visitScheduleOf(agent: Pick<VoiceAgentRow, 'schedule'>): VisitSchedule | null {
  const parsed = VisitScheduleSchema.safeParse(agent.schedule ?? {});
  return parsed.success ? parsed.data : null;
}

/** Scheduled visits at these sites of the trial that could overlap slots from `from` on. */
async function takenSlots(executor: Executor, organizationId: string, trialId: string, siteIds: string[], from: Date, until: Date): Promise<TakenSlot[]> {
  if (siteIds.length === 0) return [];
  return executor
    .select({ siteId: booking.siteId, startsAt: booking.startsAt, durationMinutes: booking.durationMinutes })
    .from(booking)
    .where(
      and(
        eq(booking.organizationId, organizationId),
        eq(booking.trialId, trialId),
        eq(booking.status, 'scheduled'),
        inArray(booking.siteId, siteIds),
        // The longest visit is 8 hours: an earlier start cannot overlap.
        gte(booking.startsAt, new Date(from.getTime() - 8 * HOUR)),
        lt(booking.startsAt, until),
      ),
    );
}

/** The slots a scheduling agent offers now (none when its schedule, trial or sites are missing). */
export async function offeredVisitSlots(tx: Transaction, agent: VoiceAgentRow, now: Date): Promise<OfferedSlot[]> {
  const schedule = visitScheduleOf(agent);
  if (!schedule || !agent.trialId) return [];
  const trial = await findTrialRow(tx, agent.trialId);
  if (!trial) return [];
  const sites = scheduleSites(trial.sites, schedule.sites).found.flatMap((site) =>
    site.timeZone ? [{ id: site.id, name: siteShortLabel(site), timeZone: site.timeZone }] : [],
  );
  const taken = await takenSlots(
    tx,
    agent.organizationId,
    trial.id,
    sites.map((site) => site.id),
    now,
    new Date(now.getTime() + (schedule.daysAhead + 1) * DAY),
  );
  return freeVisitSlots(schedule, sites, taken, now).map(({ siteId, siteName, localTime, timeZone }) => ({ siteId, siteName, localTime, timeZone }));
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The slot the person chose: set-call-metadata key 'booking' (an object, or JSON text from an LLM), else the call analysis. */
export function chosenSlot(structuredData: Record<string, unknown>): { siteName: string; localTime: string } | null {
  let value: unknown = asRecord(structuredData.metadata).booking ?? asRecord(structuredData.analysis).booking;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const record = asRecord(value);
  const siteName = typeof record.siteName === 'string' ? record.siteName.trim() : '';
  const localTime = typeof record.localTime === 'string' ? record.localTime.trim().replace(' ', 'T').slice(0, 16) : '';
  return siteName && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(localTime) ? { siteName, localTime } : null;
}

const offeredOf = (structuredData: Record<string, unknown>): OfferedSlot[] =>
  (Array.isArray(structuredData.offeredSlots) ? structuredData.offeredSlots : [])
    .map(asRecord)
    .flatMap((slot) =>
      typeof slot.siteName === 'string' && typeof slot.localTime === 'string' && typeof slot.timeZone === 'string'
        ? [{ ...(typeof slot.siteId === 'string' ? { siteId: slot.siteId } : {}), siteName: slot.siteName, localTime: slot.localTime, timeZone: slot.timeZone }]
        : [],
    );

const NOT_BOOKED: Record<string, string> = {
  no_slot_chosen: 'no time was chosen on the call',
  unknown_caller: 'the caller is not a known candidate',
  no_trial: 'the scheduling agent has no trial',
  not_offered: 'the time chosen was not one the call offered',
  no_approved_result: 'no approved prescreen for this trial',
  slot_taken: 'that time was just taken',
  do_not_contact: 'the candidate asked not to be contacted',
};

const VOICE_AGENT = { userId: null, label: 'Voice agent' } as const;

/**
 * A finished SITE_VISIT_SCHEDULING call books the visit the person agreed to: one of the slots the call
 * offered (structuredData.offeredSlots), for the candidate's newest approved prescreen result of the agent's
 * trial, through the staff booking rules (prescreen/bookings.ts). Without a booking the reason is kept in
 * structuredData.bookingError and the contact history says so. Runs once: a booked call is left alone.
 */
export async function bookVisitFromCall(tx: Transaction, call: CallRow): Promise<CallRow> {
  if (call.type !== 'SITE_VISIT_SCHEDULING' || call.structuredData.bookingId) return call;
  const notBooked = async (reason: string, detail?: string) => {
    const updated = await updateCall(tx, call.id, { structuredData: { ...call.structuredData, bookingError: reason } });
    if (call.candidateId) {
      await insertContactEvents(tx, [
        {
          organizationId: call.organizationId,
          candidateId: call.candidateId,
          kind: 'booking',
          summary: `Visit not booked: ${NOT_BOOKED[reason] ?? detail ?? reason}`,
          details: { callId: call.id, reason },
          referenceId: call.id,
          actorUserId: null,
          actorLabel: VOICE_AGENT.label,
        },
      ]);
    }
    return updated;
  };
  const chosen = chosenSlot(call.structuredData);
  if (!chosen) return notBooked('no_slot_chosen');
  if (!call.candidateId) return notBooked('unknown_caller');
  const agent = call.voiceAgentId ? await findVoiceAgent(tx, call.voiceAgentId) : undefined;
  if (!agent?.trialId) return notBooked('no_trial');
  const slot = offeredOf(call.structuredData).find((item) => item.siteName.trim() === chosen.siteName && item.localTime === chosen.localTime);
  if (!slot) return notBooked('not_offered');
  try {
    const booked = await bookVisitForCandidate(tx, VOICE_AGENT, {
      candidateId: call.candidateId,
      trialId: agent.trialId,
      ...(slot.siteId ? { siteId: slot.siteId } : { siteName: slot.siteName }),
      localTime: slot.localTime,
      timeZone: slot.timeZone,
      durationMinutes: visitScheduleOf(agent)?.durationMinutes,
    });
    // The confirmation SMS is sent after the webhook's commit (handleVapiMessage -> confirmBooking).
    const { bookingError: _previous, ...rest } = call.structuredData;
    return updateCall(tx, call.id, { structuredData: { ...rest, bookingId: booked.id } });
  } catch (error) {
    if (!(error instanceof VisitNotBooked)) throw error;
    return notBooked(error.reason === 'invalid' ? 'invalid' : error.reason, error.message);
  }
}
