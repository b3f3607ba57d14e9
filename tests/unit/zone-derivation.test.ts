import { describe, expect, it } from 'vitest';
import { deriveTimeZone, zoneFromPhone, zoneFromPostalCode, zoneFromRegion } from '../../src/contract/zone-derivation';
import { isValidTimeZone } from '../../src/contract/time-zones';

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
    expect(zoneFromPhone('+442071234567')).toBeNull();
    expect(zoneFromPhone(null)).toBeNull();
  });

  it('prefers the postal code, then the state, then the phone', () => {
    expect(deriveTimeZone({ postalCode: '94103', region: 'NY', phone: '+12125550123' })).toEqual({ timeZone: 'America/Los_Angeles', from: 'postal_code' });
    expect(deriveTimeZone({ postalCode: 'n/a', region: 'Colorado', phone: '+12125550123' })).toEqual({ timeZone: 'America/Denver', from: 'region' });
    expect(deriveTimeZone({ phone: '+13125550123' })).toEqual({ timeZone: 'America/Chicago', from: 'phone' });
    expect(deriveTimeZone({ phone: '+442071234567', country: 'UK' })).toBeNull();
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
