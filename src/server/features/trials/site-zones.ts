import tzLookup from '@photostructure/tz-lookup';
import { isValidTimeZone } from '../../../contract/time-zones';
import type { TrialSiteInput } from '../../../contract/trials';

/**
 * A trial site's IANA time zone from its location, offline: the coordinates first (tz-lookup's bundled
 * boundary grid), else the country and state (a table of US states and Canadian provinces, and countries
 * with a single zone). Never a guess beyond that: an unknown zone stays unknown ("time zone needed") rather
 * than UTC. See docs/decisions/015-trial-sites.md.
 */

export type DerivedZone = { timeZone: string; source: 'geo' | 'region' } | null;

/** Each state's zone where most of its people live (split states take their larger part). */
const US_STATES: Record<string, string> = {
  alabama: 'America/Chicago',
  alaska: 'America/Anchorage',
  arizona: 'America/Phoenix',
  arkansas: 'America/Chicago',
  california: 'America/Los_Angeles',
  colorado: 'America/Denver',
  connecticut: 'America/New_York',
  delaware: 'America/New_York',
  'district of columbia': 'America/New_York',
  florida: 'America/New_York',
  georgia: 'America/New_York',
  hawaii: 'Pacific/Honolulu',
  idaho: 'America/Boise',
  illinois: 'America/Chicago',
  indiana: 'America/Indiana/Indianapolis',
  iowa: 'America/Chicago',
  kansas: 'America/Chicago',
  kentucky: 'America/New_York',
  louisiana: 'America/Chicago',
  maine: 'America/New_York',
  maryland: 'America/New_York',
  massachusetts: 'America/New_York',
  michigan: 'America/Detroit',
  minnesota: 'America/Chicago',
  mississippi: 'America/Chicago',
  missouri: 'America/Chicago',
  montana: 'America/Denver',
  nebraska: 'America/Chicago',
  nevada: 'America/Los_Angeles',
  'new hampshire': 'America/New_York',
  'new jersey': 'America/New_York',
  'new mexico': 'America/Denver',
  'new york': 'America/New_York',
  'north carolina': 'America/New_York',
  'north dakota': 'America/Chicago',
  ohio: 'America/New_York',
  oklahoma: 'America/Chicago',
  oregon: 'America/Los_Angeles',
  pennsylvania: 'America/New_York',
  'puerto rico': 'America/Puerto_Rico',
  'rhode island': 'America/New_York',
  'south carolina': 'America/New_York',
  'south dakota': 'America/Chicago',
  tennessee: 'America/Chicago',
  texas: 'America/Chicago',
  utah: 'America/Denver',
  vermont: 'America/New_York',
  virginia: 'America/New_York',
  washington: 'America/Los_Angeles',
  'west virginia': 'America/New_York',
  wisconsin: 'America/Chicago',
  wyoming: 'America/Denver',
};

const US_STATE_CODES: Record<string, string> = {
  al: 'alabama',
  ak: 'alaska',
  az: 'arizona',
  ar: 'arkansas',
  ca: 'california',
  co: 'colorado',
  ct: 'connecticut',
  de: 'delaware',
  dc: 'district of columbia',
  fl: 'florida',
  ga: 'georgia',
  hi: 'hawaii',
  id: 'idaho',
  il: 'illinois',
  in: 'indiana',
  ia: 'iowa',
  ks: 'kansas',
  ky: 'kentucky',
  la: 'louisiana',
  me: 'maine',
  md: 'maryland',
  ma: 'massachusetts',
  mi: 'michigan',
  mn: 'minnesota',
  ms: 'mississippi',
  mo: 'missouri',
  mt: 'montana',
  ne: 'nebraska',
  nv: 'nevada',
  nh: 'new hampshire',
  nj: 'new jersey',
  nm: 'new mexico',
  ny: 'new york',
  nc: 'north carolina',
  nd: 'north dakota',
  oh: 'ohio',
  ok: 'oklahoma',
  or: 'oregon',
  pa: 'pennsylvania',
  pr: 'puerto rico',
  ri: 'rhode island',
  sc: 'south carolina',
  sd: 'south dakota',
  tn: 'tennessee',
  tx: 'texas',
  ut: 'utah',
  vt: 'vermont',
  va: 'virginia',
  wa: 'washington',
  wv: 'west virginia',
  wi: 'wisconsin',
  wy: 'wyoming',
};

const CANADA_PROVINCES: Record<string, string> = {
  alberta: 'America/Edmonton',
  'british columbia': 'America/Vancouver',
  manitoba: 'America/Winnipeg',
  'new brunswick': 'America/Moncton',
  'newfoundland and labrador': 'America/St_Johns',
  'nova scotia': 'America/Halifax',
  ontario: 'America/Toronto',
  'prince edward island': 'America/Halifax',
  quebec: 'America/Toronto',
  québec: 'America/Toronto',
  saskatchewan: 'America/Regina',
  yukon: 'America/Whitehorse',
  'northwest territories': 'America/Yellowknife',
};

/** Countries with one zone (where trials commonly run); a country with several needs coordinates or a state. */
const SINGLE_ZONE_COUNTRIES: Record<string, string> = {
  argentina: 'America/Argentina/Buenos_Aires',
  austria: 'Europe/Vienna',
  belgium: 'Europe/Brussels',
  bulgaria: 'Europe/Sofia',
  china: 'Asia/Shanghai',
  colombia: 'America/Bogota',
  croatia: 'Europe/Zagreb',
  czechia: 'Europe/Prague',
  'czech republic': 'Europe/Prague',
  denmark: 'Europe/Copenhagen',
  egypt: 'Africa/Cairo',
  estonia: 'Europe/Tallinn',
  finland: 'Europe/Helsinki',
  france: 'Europe/Paris',
  germany: 'Europe/Berlin',
  greece: 'Europe/Athens',
  'hong kong': 'Asia/Hong_Kong',
  hungary: 'Europe/Budapest',
  india: 'Asia/Kolkata',
  ireland: 'Europe/Dublin',
  israel: 'Asia/Jerusalem',
  italy: 'Europe/Rome',
  japan: 'Asia/Tokyo',
  'korea, republic of': 'Asia/Seoul',
  'south korea': 'Asia/Seoul',
  latvia: 'Europe/Riga',
  lithuania: 'Europe/Vilnius',
  netherlands: 'Europe/Amsterdam',
  'new zealand': 'Pacific/Auckland',
  norway: 'Europe/Oslo',
  peru: 'America/Lima',
  philippines: 'Asia/Manila',
  poland: 'Europe/Warsaw',
  romania: 'Europe/Bucharest',
  serbia: 'Europe/Belgrade',
  singapore: 'Asia/Singapore',
  slovakia: 'Europe/Bratislava',
  slovenia: 'Europe/Ljubljana',
  'south africa': 'Africa/Johannesburg',
  sweden: 'Europe/Stockholm',
  switzerland: 'Europe/Zurich',
  taiwan: 'Asia/Taipei',
  thailand: 'Asia/Bangkok',
  turkey: 'Europe/Istanbul',
  türkiye: 'Europe/Istanbul',
  ukraine: 'Europe/Kyiv',
  'united kingdom': 'Europe/London',
  vietnam: 'Asia/Ho_Chi_Minh',
};

const key = (value: string | undefined) => value?.trim().toLowerCase().replace(/\s+/g, ' ') ?? '';

function fromCoordinates(latitude: number | undefined, longitude: number | undefined): string | null {
  if (typeof latitude !== 'number' || typeof longitude !== 'number' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  try {
    const zone = tzLookup(latitude, longitude);
    // Open sea answers Etc/GMT±N: not where a clinic is, so not trusted.
    return zone && !zone.startsWith('Etc/') && isValidTimeZone(zone) ? zone : null;
  } catch {
    return null;
  }
}

function fromRegion(country: string | undefined, region: string | undefined): string | null {
  const countryKey = key(country);
  const regionKey = key(region);
  if (['united states', 'united states of america', 'usa', 'us'].includes(countryKey)) {
    return US_STATES[regionKey] ?? US_STATES[US_STATE_CODES[regionKey] ?? ''] ?? null;
  }
  if (countryKey === 'puerto rico') return 'America/Puerto_Rico';
  if (countryKey === 'canada') return CANADA_PROVINCES[regionKey] ?? null;
  return SINGLE_ZONE_COUNTRIES[countryKey] ?? null;
}

/** The zone of a location: coordinates first, else country and state; null when neither tells. */
export function deriveTimeZone(location: Pick<TrialSiteInput, 'latitude' | 'longitude' | 'country' | 'region'>): DerivedZone {
  const geo = fromCoordinates(location.latitude, location.longitude);
  if (geo) return { timeZone: geo, source: 'geo' };
  const region = fromRegion(location.country, location.region);
  return region && isValidTimeZone(region) ? { timeZone: region, source: 'region' } : null;
}
