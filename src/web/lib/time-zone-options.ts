import { offsetMinutes } from '../../contract/time-zones';
import type { ComboboxOption } from '../components/Combobox';

/** Listed first: where most of our candidates and sites are. */
const COMMON_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Toronto',
  'America/Vancouver',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Asia/Tokyo',
  'Australia/Sydney',
];

/** Names people search by that a zone id does not contain. */
const ALSO_KNOWN_AS: Record<string, string> = {
  'America/New_York': 'Eastern Time ET EST EDT',
  'America/Chicago': 'Central Time CT CST CDT',
  'America/Denver': 'Mountain Time MT MST MDT',
  'America/Phoenix': 'Arizona Mountain Time MST',
  'America/Los_Angeles': 'Pacific Time PT PST PDT',
  'America/Anchorage': 'Alaska Time AKST AKDT',
  'Pacific/Honolulu': 'Hawaii Time HST',
  'Europe/London': 'United Kingdom UK GMT BST',
  UTC: 'Coordinated Universal Time GMT',
};

function allZones(): string[] {
  try {
    const zones = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
    return zones.length ? zones : COMMON_ZONES;
  } catch {
    return COMMON_ZONES;
  }
}

/** -300 -> "UTC−05:00" (with a minus sign, as written); 0 -> "UTC+00:00". */
export function utcOffsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+';
  const whole = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

function optionOf(zone: string, now: number): ComboboxOption {
  let offset: number | null = null;
  try {
    offset = offsetMinutes(now, zone);
  } catch {
    offset = null; // not a zone this browser knows: listed without its offset
  }
  const city = zone.split('/').pop()!.replace(/_/g, ' ');
  const ascii = offset === null ? '' : utcOffsetLabel(offset).replace('−', '-');
  const hours = offset === null ? '' : `UTC${offset < 0 ? '-' : '+'}${Math.abs(offset) / 60}`;
  return {
    value: zone,
    label: zone.replace(/_/g, ' '),
    description: offset === null ? undefined : utcOffsetLabel(offset),
    keywords: [city, zone, ascii, hours, ALSO_KNOWN_AS[zone]].filter(Boolean).join(' '),
  };
}

let cached: { options: ComboboxOption[]; at: number } | undefined;

/**
 * Every IANA time zone the browser knows as Combobox options, the common ones first: the zone with
 * underscores as spaces, its current UTC offset below ("UTC−05:00"), searchable by city, offset and (for the
 * common ones) names like "Eastern". `keep` (a stored value the browser does not list) is put first. Offsets
 * are read once an hour.
 */
export function timeZoneOptions(keep?: string | null): ComboboxOption[] {
  const now = Date.now();
  if (!cached || now - cached.at > 3_600_000) {
    const common = new Set(COMMON_ZONES);
    const rest = allZones().filter((zone) => !common.has(zone));
    if (!rest.includes('UTC')) rest.push('UTC');
    cached = { options: [...COMMON_ZONES, ...rest].map((zone) => optionOf(zone, now)), at: now };
  }
  if (keep && !cached.options.some((option) => option.value === keep)) return [optionOf(keep, now), ...cached.options];
  return cached.options;
}
