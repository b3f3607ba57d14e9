import { zoneOfInternationalPhone } from '../contract/phone-zones';
import { DEFAULT_ORGANIZATION_TIME_ZONE, isValidTimeZone, localTimeToUtc, toLocalTime } from '../contract/time-zones';

/**
 * The one owner of "when may we reach a person": the legal contact window, 08:00-21:00 in the person's time
 * zone (an unknown or missing zone counts as the organization default, America/New_York). Calls, marketing
 * SMS (sms/consent.ts), sequence steps and callbacks all ask this file; an agent's own hours can only narrow it.
 */
export const LEGAL_START_MINUTES = 8 * 60;
export const LEGAL_END_MINUTES = 21 * 60;

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const zoneOrDefault = (timeZone: string | null | undefined) => (timeZone && isValidTimeZone(timeZone) ? timeZone : DEFAULT_ORGANIZATION_TIME_ZONE);

/** Minutes since local midnight at `now` in `timeZone` (an unknown zone counts as America/New_York). */
export function localMinutes(now: Date, timeZone: string | null | undefined): number {
  const local = toLocalTime(now, zoneOrDefault(timeZone));
  return Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
}

/**
 * The calling window in minutes since local midnight: the agent's hours narrowed to the legal 08:00-21:00.
 * An agent whose hours lie wholly outside the legal window would never call: the legal window is used.
 */
function callingWindow(startHhmm = '08:00', endHhmm = '21:00'): { start: number; end: number } {
  const start = Math.max(toMinutes(startHhmm), LEGAL_START_MINUTES);
  const end = Math.min(toMinutes(endHhmm), LEGAL_END_MINUTES);
  return start < end ? { start, end } : { start: LEGAL_START_MINUTES, end: LEGAL_END_MINUTES };
}

/** Whether `now` is inside the calling window in the candidate's time zone (start inclusive, end exclusive). */
export function withinCallingHours(now: Date, timeZone: string | null | undefined, start = '08:00', end = '21:00'): boolean {
  const minutes = localMinutes(now, timeZone);
  const window = callingWindow(start, end);
  return minutes >= window.start && minutes < window.end;
}

/** Whether `now` is inside the legal 08:00-21:00 window in `timeZone`: the rule for marketing SMS and e-mail steps (no agent hours). */
export const withinContactHours = (now: Date, timeZone: string | null | undefined): boolean => withinCallingHours(now, timeZone);

function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The first instant at or after `at` inside the calling window in `timeZone` (the agent's hours narrowed to
 * 08:00-21:00; start inclusive, end exclusive): `at` itself when it is inside, else the window's start the
 * same local day (before it) or the next day (after it). A start skipped by a DST change moves an hour on.
 */
export function nextCallingTime(
  at: Date,
  timeZone: string | null | undefined,
  hours: { callingHoursStart: string; callingHoursEnd: string } = { callingHoursStart: '08:00', callingHoursEnd: '21:00' },
): Date {
  const zone = zoneOrDefault(timeZone);
  const { start } = callingWindow(hours.callingHoursStart, hours.callingHoursEnd);
  if (withinCallingHours(at, zone, hours.callingHoursStart, hours.callingHoursEnd)) return at;
  const minutes = localMinutes(at, zone);
  const today = toLocalTime(at, zone).slice(0, 10);
  const day = minutes < start ? today : nextDate(today);
  const converted = localTimeToUtc(`${day}T${hhmm(start)}`, zone);
  if (converted.ok) return converted.instant;
  const later = localTimeToUtc(`${day}T${hhmm(start + 60)}`, zone);
  return later.ok ? later.instant : new Date(at.getTime() + 60 * 60_000);
}

/** What calling hours need to know of a person: their zone, else their phone (its country may tell). */
export interface CallingPerson {
  timeZone: string | null;
  phone: string | null;
}

/**
 * The zones a person's calling hours are judged in (decision 136): their own zone when known; with none, and a
 * phone whose country keeps several clocks (an Australian mobile), every zone of that country, so a call is
 * only placed when it is 08:00-21:00 wherever they may be; else the organization default.
 */
export function callingZonesOf(person: CallingPerson): string[] {
  if (person.timeZone && isValidTimeZone(person.timeZone)) return [person.timeZone];
  const byPhone = zoneOfInternationalPhone(person.phone);
  if (byPhone.kind === 'several') return byPhone.zones.filter(isValidTimeZone);
  if (byPhone.kind === 'zone') return [byPhone.timeZone];
  return [DEFAULT_ORGANIZATION_TIME_ZONE];
}

/** withinCallingHours in every zone the person may be in. */
export function withinCallingHoursFor(now: Date, person: CallingPerson, start = '08:00', end = '21:00'): boolean {
  return callingZonesOf(person).every((zone) => withinCallingHours(now, zone, start, end));
}

/**
 * nextCallingTime in every zone the person may be in: the first instant inside the window in all of them
 * (each zone's next start, taken in turn until all agree). Countries span at most about ten hours, so the
 * windows overlap; should they not, the latest zone's next start is answered.
 */
export function nextCallingTimeFor(
  at: Date,
  person: CallingPerson,
  hours: { callingHoursStart: string; callingHoursEnd: string } = { callingHoursStart: '08:00', callingHoursEnd: '21:00' },
): Date {
  const zones = callingZonesOf(person);
  let candidate = at;
  for (let round = 0; round < 2 * zones.length + 2; round++) {
    const latest = zones.map((zone) => nextCallingTime(candidate, zone, hours)).reduce((a, b) => (b > a ? b : a));
    if (latest.getTime() === candidate.getTime()) return candidate;
    candidate = latest;
  }
  return candidate;
}
