import { type CountryCode, getCountries, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A candidate's phone as a person reads it on the list (issue 32): in its national form when the number belongs to
 * the person's own country ("(212) 555-0101", "02 9123 4567"), in international form when it is another country's
 * ("+61 2 9123 4567" for someone living in the US). Formatted here because the server has the phone-number library;
 * the list page's JavaScript stays without it (decision 157).
 */
export function phoneForDisplay(phone: string | null, personCountry: string | null): string | null {
  if (!phone) return null;
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed) return phone;
  const home = countryCodeOf(personCountry);
  // Countries sharing a calling code dial each other nationally (the US and Canada: "(416) 555-0101").
  const national = home ? getCountryCallingCode(home) === parsed.countryCallingCode : parsed.countryCallingCode === '1';
  return national ? parsed.formatNational() : parsed.formatInternational();
}

/** Names people write for a country that are neither its ISO code nor its English name. */
const OTHER_NAMES: Record<string, CountryCode> = {
  usa: 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
};

let byEnglishName: Map<string, CountryCode> | undefined;

/** A country as an address holds it ("US", "us", "United States", "USA", "Australia") as its ISO code; null when unknown. */
export function countryCodeOf(written: string | null | undefined): CountryCode | null {
  const text = written?.trim();
  if (!text) return null;
  const upper = text.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && isSupportedCountry(upper)) return upper;
  const key = text.toLowerCase().replace(/\s+/g, ' ');
  if (OTHER_NAMES[key]) return OTHER_NAMES[key];
  // The English names of every country the library knows, built on the first name that is not a code.
  if (!byEnglishName) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    byEnglishName = new Map(getCountries().map((code) => [(names.of(code) ?? code).toLowerCase(), code]));
  }
  return byEnglishName.get(key) ?? null;
}
