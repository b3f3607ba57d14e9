/**
 * Wall-clock times in IANA time zones without a dependency: Intl.DateTimeFormat gives a zone's offset at an
 * instant; converting a local time to UTC guesses with the offset at the wall time read as UTC, then
 * corrects once with the offset at the guess (which settles DST changes between the two).
 */

/**
 * The time zone of a candidate without one. Organizations list their sites with time zones (decision 027),
 * but a candidate is not tied to a site, so this default stays.
 */
export const DEFAULT_ORGANIZATION_TIME_ZONE = 'America/New_York';

/**
 * Zones already asked about: building an Intl.DateTimeFormat costs a fraction of a millisecond, and a trial with
 * hundreds of sites asks about the same few zones again and again (bounded: the input may be anyone's text).
 */
const validZones = new Map<string, boolean>();
const VALID_ZONES_KEPT = 1000;

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  const known = validZones.get(timeZone);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    valid = false;
  }
  if (validZones.size < VALID_ZONES_KEPT) validZones.set(timeZone, valid);
  return valid;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in minutes (New York in winter: -300). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** An instant as YYYY-MM-DDTHH:mm in the zone. */
export function toLocalTime(instant: Date, timeZone: string): string {
  const wall = wallClock(instant.getTime(), timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

export type LocalToUtc = { ok: true; instant: Date } | { ok: false; message: string };

/**
 * YYYY-MM-DDTHH:mm at the zone -> the UTC instant. A time that does not exist (an impossible date, or the
 * hour skipped when clocks go forward) is refused; in the repeated hour when clocks go back, the first
 * (daylight-saving) occurrence is taken.
 */
export function localTimeToUtc(localTime: string, timeZone: string): LocalToUtc {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(localTime);
  if (!match) return { ok: false, message: 'Use YYYY-MM-DDTHH:mm' };
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) {
    return { ok: false, message: `${localTime} is not a valid date and time` };
  }
  const first = wall - offsetMinutes(wall, timeZone) * 60_000;
  let instant = wall - offsetMinutes(first, timeZone) * 60_000;
  // Repeated hour (clocks go back): prefer the earlier instant with the same wall time.
  const earlier = instant - 60 * 60_000;
  if (toLocalTime(new Date(earlier), timeZone) === localTime) instant = earlier;
  if (toLocalTime(new Date(instant), timeZone) !== localTime) {
    return { ok: false, message: `${localTime} does not exist in ${timeZone} (the clocks change then)` };
  }
  return { ok: true, instant: new Date(instant) };
}
