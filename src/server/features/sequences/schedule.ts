import type { SequenceStep } from '../../../contract/sequences';
import { WEEKDAYS } from '../../../contract/voice';
import { localTimeToUtc, toLocalTime } from '../../../contract/time-zones';
import { nextCallingTime, zoneOrDefault } from '../../calling-hours';

/**
 * When sequence steps run, in the candidate's own clock (pure; unit-tested in tests/unit/sequence-schedule.test.ts).
 * Messages and calls go out only 08:00-21:00 local: the same window as single messages and calls.
 */

type WaitStep = Extract<SequenceStep, { type: 'wait' }>;

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/** Days of the week as Intl names them in en-US short form, in WEEKDAYS order (mon..sun). */
const INTL_WEEKDAY = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function localWeekday(instant: Date, zone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(instant);
  return INTL_WEEKDAY.indexOf(name);
}

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** `day` at `hhmm` local in `zone`; a time a DST change skips moves an hour on. */
function localInstant(day: string, hhmm: string, zone: string): Date | null {
  const converted = localTimeToUtc(`${day}T${hhmm}`, zone);
  if (converted.ok) return converted.instant;
  const later = localTimeToUtc(`${day}T${String(Number(hhmm.slice(0, 2)) + 1).padStart(2, '0')}${hhmm.slice(2)}`, zone);
  return later.ok ? later.instant : null;
}

/**
 * The end of a wait step that starts at `from`: a duration later, or the first moment after `from` that is
 * `untilTime` local (on `untilWeekday` when given). A local time skipped by a DST change moves an hour on.
 */
export function waitEnd(step: WaitStep, from: Date, timeZone: string | null | undefined): Date {
  if (step.amount !== undefined && step.unit) return new Date(from.getTime() + step.amount * UNIT_MS[step.unit]);
  const zone = zoneOrDefault(timeZone);
  const today = toLocalTime(from, zone).slice(0, 10);
  const wantedDay = step.untilWeekday ? WEEKDAYS.indexOf(step.untilWeekday) : -1;
  for (let offset = 0; offset <= 8; offset += 1) {
    const instant = localInstant(addDays(today, offset), step.untilTime!, zone);
    if (!instant || instant.getTime() <= from.getTime()) continue;
    if (wantedDay >= 0 && localWeekday(instant, zone) !== wantedDay) continue;
    return instant;
  }
  return new Date(from.getTime() + 7 * UNIT_MS.days);
}

/** `at` when it is inside 08:00-21:00 in the candidate's zone, else the next 08:00 there. */
export function nextContactTime(at: Date, timeZone: string | null | undefined): Date {
  return nextCallingTime(at, timeZone);
}

/** "Tue 08:00 (America/Chicago)": a moment as the candidate's clock shows it. */
export function localLabel(instant: Date, timeZone: string | null | undefined): string {
  const zone = zoneOrDefault(timeZone);
  const weekday = INTL_WEEKDAY[localWeekday(instant, zone)];
  return `${weekday} ${toLocalTime(instant, zone).slice(11, 16)} (${zone})`;
}
