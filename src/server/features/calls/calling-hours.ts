import { isValidTimeZone, localTimeToUtc, toLocalTime } from '../prescreen/bookings';
import { DEFAULT_ORGANIZATION_TIME_ZONE } from '../sms/consent';
import { localMinutes } from './service';

/** The legal calling window, 08:00-21:00 local: an agent's own hours can only narrow it. */
export const LEGAL_START_MINUTES = 8 * 60;
export const LEGAL_END_MINUTES = 21 * 60;

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const zoneOrDefault = (timeZone: string | null | undefined) => (timeZone && isValidTimeZone(timeZone) ? timeZone : DEFAULT_ORGANIZATION_TIME_ZONE);

function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The first instant at or after `at` inside the calling window in `timeZone` (the agent's hours narrowed to
 * 08:00-21:00; start inclusive, end exclusive): `at` itself when it is inside, else the window's start the
 * same local day (before it) or the next day (after it). A start skipped by a DST change moves an hour on.
 */
export function nextCallingTime(at: Date, timeZone: string | null | undefined, hours: { callingHoursStart: string; callingHoursEnd: string } = { callingHoursStart: '08:00', callingHoursEnd: '21:00' }): Date {
  const zone = zoneOrDefault(timeZone);
  let start = Math.max(toMinutes(hours.callingHoursStart), LEGAL_START_MINUTES);
  let end = Math.min(toMinutes(hours.callingHoursEnd), LEGAL_END_MINUTES);
  // An agent whose hours lie wholly outside the legal window would never call: use the legal window.
  if (start >= end) [start, end] = [LEGAL_START_MINUTES, LEGAL_END_MINUTES];
  const minutes = localMinutes(at, zone);
  if (minutes >= start && minutes < end) return at;
  const today = toLocalTime(at, zone).slice(0, 10);
  const day = minutes < start ? today : nextDate(today);
  const converted = localTimeToUtc(`${day}T${hhmm(start)}`, zone);
  if (converted.ok) return converted.instant;
  const later = localTimeToUtc(`${day}T${hhmm(start + 60)}`, zone);
  return later.ok ? later.instant : new Date(at.getTime() + 60 * 60_000);
}
