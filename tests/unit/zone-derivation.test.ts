import { describe, expect, it } from 'vitest';
import { deriveTimeZone, zoneFromPhone, zoneFromPostalCode, zoneFromRegion } from '../../src/contract/zone-derivation';
import { isValidTimeZone } from '../../src/contract/time-zones';
import { zoneOfInternationalPhone, zonesOfCountry } from '../../src/contract/phone-zones';
import { callingZonesOf, nextCallingTimeFor, withinCallingHoursFor } from '../../src/server/calling-hours';

/** A candidate without a time zone gets one from their address or phone, so calling hours apply where they live. */

describe('time zone derivation', () => {
  it('reads US ZIP codes by their 3-digit prefix, with the split areas of a state', () => {
    expect(zoneFromPostalCode('10001')).toBe('America/New_York');
    expect(zoneFromPostalCode('90210-1234')).toBe('America/Los_Angeles');
    expect(zoneFromPostalCode('60614')).toBe('America/Chicago');
    expect(zoneFromPostalCode('80202')).toBe('America/Denver');
    expect(zoneFromPostalCode('85004')).toBe('America/Phoenix');
    expect(zoneFromPostalCode('96813')).toBe('Pacific/Honolulu');
    expect(zoneFromPostalCode('32501')).toBe('America/Chicago'); // Pensacola, Florida
    expect(zoneFromPostalCode('33101')).toBe('America/New_York'); // Miami
    expect(zoneFromPostalCode('37902')).toBe('America/New_York'); // Knoxville, Tennessee
    expect(zoneFromPostalCode('37203')).toBe('America/Chicago'); // Nashville
    expect(zoneFromPostalCode('79901')).toBe('America/Denver'); // El Paso
  });

  it('reads Canadian postal codes, and nothing outside North America', () => {
    expect(zoneFromPostalCode('M5V 3L9')).toBe('America/Toronto');
    expect(zoneFromPostalCode('V6B1A1')).toBe('America/Vancouver');
    expect(zoneFromPostalCode('10115', 'Germany')).toBeNull();
    expect(zoneFromPostalCode('SW1A 1AA')).toBeNull();
    expect(zoneFromPostalCode('')).toBeNull();
  });

  it('reads states and provinces by code or name', () => {
    expect(zoneFromRegion('TX')).toBe('America/Chicago');
    expect(zoneFromRegion('california')).toBe('America/Los_Angeles');
    expect(zoneFromRegion('New York')).toBe('America/New_York');
    expect(zoneFromRegion('Québec')).toBe('America/Toronto');
    expect(zoneFromRegion('AB', 'Canada')).toBe('America/Edmonton');
    expect(zoneFromRegion('Bavaria')).toBeNull();
    expect(zoneFromRegion('TX', 'Mexico')).toBeNull();
  });

  it('reads North American area codes of E.164 numbers', () => {
    expect(zoneFromPhone('+12125550123')).toBe('America/New_York');
    expect(zoneFromPhone('+13105550123')).toBe('America/Los_Angeles');
    expect(zoneFromPhone('+13125550123')).toBe('America/Chicago');
    expect(zoneFromPhone('+13035550123')).toBe('America/Denver');
    expect(zoneFromPhone('+19155550123')).toBe('America/Denver'); // El Paso
    expect(zoneFromPhone('+14165550123')).toBe('America/Toronto');
    expect(zoneFromPhone(null)).toBeNull();
  });

  it('prefers the postal code, then the state, then the phone', () => {
    expect(deriveTimeZone({ postalCode: '94103', region: 'NY', phone: '+12125550123' })).toEqual({ timeZone: 'America/Los_Angeles', from: 'postal_code' });
    expect(deriveTimeZone({ postalCode: 'n/a', region: 'Colorado', phone: '+12125550123' })).toEqual({ timeZone: 'America/Denver', from: 'region' });
    expect(deriveTimeZone({ phone: '+13125550123' })).toEqual({ timeZone: 'America/Chicago', from: 'phone' });
    expect(deriveTimeZone({ phone: '+442071234567', country: 'UK' })).toEqual({ timeZone: 'Europe/London', from: 'phone' });
    expect(deriveTimeZone({ phone: '+61412345678' })).toBeNull();
  });

  it('only ever answers zones the runtime knows', async () => {
    const module = await import('../../src/contract/zone-derivation');
    const zones = new Set<string>();
    for (let prefix = 0; prefix < 1000; prefix++) {
      const zone = module.zoneFromPostalCode(`${String(prefix).padStart(3, '0')}01`);
      if (zone) zones.add(zone);
    }
    for (let code = 200; code < 1000; code++) {
      const zone = module.zoneFromPhone(`+1${code}5550123`);
      if (zone) zones.add(zone);
    }
    expect(zones.size).toBeGreaterThan(8);
    for (const zone of zones) expect(isValidTimeZone(zone), zone).toBe(true);
  });
});

describe('issue 32: numbers outside North America', () => {
  it('a country that keeps one clock gives its zone (zones that share a clock count as one)', () => {
    expect(zoneFromPhone('+442071234567')).toBe('Europe/London');
    expect(zoneFromPhone('+33123456789')).toBe('Europe/Paris');
    expect(zonesOfCountry('DE').length).toBeGreaterThan(1); // Berlin and Büsingen: the same clock
    expect(zoneFromPhone('+4930123456')).toBe('Europe/Berlin');
  });

  it("a region's area code where the numbering plan follows the zones (Australia, Spain's Canary Islands)", () => {
    expect(zoneFromPhone('+61291234567')).toBe('Australia/Sydney');
    expect(zoneFromPhone('+61391234567')).toBe('Australia/Melbourne');
    expect(zoneFromPhone('+61731234567')).toBe('Australia/Brisbane');
    expect(zoneFromPhone('+34912345678')).toBe('Europe/Madrid');
    expect(zoneFromPhone('+34922123456')).toBe('Atlantic/Canary');
  });

  it('several clocks and nothing in the number to choose: unknown, with the country and its zones', () => {
    const mobile = zoneOfInternationalPhone('+61412345678');
    expect(mobile).toMatchObject({ kind: 'several', country: 'AU' });
    expect(mobile.kind === 'several' && mobile.zones).toEqual(expect.arrayContaining(['Australia/Perth', 'Australia/Sydney', 'Australia/Brisbane']));
    expect(zoneFromPhone('+61412345678')).toBeNull();
    expect(zoneFromPhone('+61892345678')).toBeNull(); // 08 spans Adelaide, Perth and Darwin
    expect(zoneFromPhone('+34612345678')).toBeNull(); // a Spanish mobile: mainland or Canaries
    expect(zoneFromPhone('+525512345678')).toBeNull();
    expect(zoneOfInternationalPhone('+12125550123')).toEqual({ kind: 'none' });
    expect(zoneOfInternationalPhone('not a phone')).toEqual({ kind: 'none' });
  });

  it('an unknown zone is judged in every zone of the country: a call only when it is 08:00-21:00 in all of them', () => {
    const person = { timeZone: null, phone: '+61412345678' };
    expect(callingZonesOf(person)).toContain('Australia/Perth');
    expect(callingZonesOf({ timeZone: 'Australia/Perth', phone: '+61412345678' })).toEqual(['Australia/Perth']);
    expect(callingZonesOf({ timeZone: null, phone: '+12125550123' })).toEqual(['America/New_York']);
    // 1 June 2027, 00:30 UTC: 08:30 in Perth (UTC+8), 10:30 in Sydney (UTC+10): inside everywhere.
    expect(withinCallingHoursFor(new Date('2027-06-01T00:30:00Z'), person)).toBe(true);
    // 23:30 UTC: 07:30 in Perth, 09:30 in Sydney: Sydney alone would allow it, Perth does not.
    const early = new Date('2027-06-01T23:30:00Z');
    expect(withinCallingHoursFor(early, { timeZone: 'Australia/Sydney', phone: null })).toBe(true);
    expect(withinCallingHoursFor(early, person)).toBe(false);
    // The next time that suits all: 08:00 in Perth (00:00 UTC); Lord Howe, half an hour ahead of Sydney, is fine by then.
    expect(nextCallingTimeFor(early, person).toISOString()).toBe('2027-06-02T00:00:00.000Z');
    // Late: 11:00 UTC is 19:00 in Perth, 21:00 in Sydney: closed until Perth's 08:00 next day.
    expect(nextCallingTimeFor(new Date('2027-06-01T11:00:00Z'), person).toISOString()).toBe('2027-06-02T00:00:00.000Z');
  });
});
