import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The time zone a phone number outside North America tells (issue 32, decision 136): its country from
 * libphonenumber, the country's zones from the runtime's ICU data (Intl.Locale's time zones), and a small
 * table of numbering plans whose geographic area codes name a zone. A country whose zones all keep the same
 * clock through the year gets that zone; otherwise the zone stays unknown and the callers judge calling hours
 * in every zone the country has (calling-hours.ts).
 */

export type PhoneZone =
  | { kind: 'zone'; timeZone: string; country: string }
  /** The country has several clocks and the number does not say which: its zones, for a conservative window. */
  | { kind: 'several'; country: string; zones: string[] }
  | { kind: 'none' };

/**
 * Geographic area codes that name a zone, where the numbering plan follows the zones (national significant
 * number prefixes). Mobile and non-geographic numbers, and area codes spanning zones (Australia's 08: South
 * Australia, Western Australia and the Northern Territory) are left out on purpose.
 */
const REGION_PREFIXES: Record<string, Array<[prefix: string, zone: string]>> = {
  // Australia: 02 New South Wales and the ACT, 03 Victoria and Tasmania, 07 Queensland (no daylight saving).
  AU: [
    ['26563', 'Australia/Lord_Howe'],
    ['2', 'Australia/Sydney'],
    ['3', 'Australia/Melbourne'],
    ['7', 'Australia/Brisbane'],
  ],
  // Spain: the Canary Islands' landlines (922, 928 and their 8xx twins) keep Atlantic time; other landlines Madrid's.
  ES: [
    ['922', 'Atlantic/Canary'],
    ['928', 'Atlantic/Canary'],
    ['822', 'Atlantic/Canary'],
    ['828', 'Atlantic/Canary'],
    ['8', 'Europe/Madrid'],
    ['9', 'Europe/Madrid'],
  ],
};

type LocaleWithZones = Intl.Locale & { getTimeZones?: () => string[]; timeZones?: string[] };

/** The country's IANA zones as the runtime's ICU data lists them (empty when the runtime cannot tell). */
export function zonesOfCountry(country: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${country}`) as LocaleWithZones;
    return [...(locale.getTimeZones?.() ?? locale.timeZones ?? [])];
  } catch {
    return [];
  }
}

/** Offsets through a year (the 1st and 15th of each month), enough to tell two zones' clocks apart. */
function offsetsThroughYear(timeZone: string, year: number): string {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const offsets: string[] = [];
  for (let month = 0; month < 12; month++)
    for (const day of [1, 15]) offsets.push(format.formatToParts(Date.UTC(year, month, day, 12)).find((part) => part.type === 'timeZoneName')?.value ?? '');
  return offsets.join(',');
}

const countryZoneCache = new Map<string, PhoneZone>();

/** One zone when all the country's zones keep the same clock (Germany's Berlin and Büsingen), else several. */
function zoneOfCountry(country: string, year: number): PhoneZone {
  const key = `${country}:${year}`;
  const cached = countryZoneCache.get(key);
  if (cached) return cached;
  const zones = zonesOfCountry(country).sort();
  let answer: PhoneZone;
  if (zones.length === 0) answer = { kind: 'none' };
  else {
    const clocks = new Set(zones.map((zone) => offsetsThroughYear(zone, year)));
    answer = clocks.size === 1 ? { kind: 'zone', timeZone: zones[0], country } : { kind: 'several', country, zones };
  }
  countryZoneCache.set(key, answer);
  return answer;
}

/**
 * The zone of a phone number (E.164) outside the +1 plan: by region prefix where the plan says it, else by
 * country when the country keeps one clock; `several` when it does not; `none` when the number has no country.
 */
export function zoneOfInternationalPhone(phone: string | null | undefined, now = new Date()): PhoneZone {
  const text = phone?.trim() ?? '';
  if (!text.startsWith('+') || text.startsWith('+1')) return { kind: 'none' };
  const parsed = parsePhoneNumberFromString(text);
  const country = parsed?.country;
  if (!parsed || !country) return { kind: 'none' };
  const national = String(parsed.nationalNumber);
  const byRegion = REGION_PREFIXES[country]?.find(([prefix]) => national.startsWith(prefix));
  if (byRegion) return { kind: 'zone', timeZone: byRegion[1], country };
  return zoneOfCountry(country, now.getUTCFullYear());
}
