import { describe, expect, it } from 'vitest';
import { deriveTimeZone } from '../../src/server/features/trials/site-zones';

describe('deriveTimeZone', () => {
  it('reads the coordinates first', () => {
    expect(deriveTimeZone({ latitude: 41.85003, longitude: -87.65005, country: 'United States', region: 'Illinois' })).toEqual({
      timeZone: 'America/Chicago',
      source: 'geo',
    });
    // Coordinates beat a state table: western Florida (Pensacola) is on Central time.
    expect(deriveTimeZone({ latitude: 30.42131, longitude: -87.21691, country: 'United States', region: 'Florida' })).toEqual({
      timeZone: 'America/Chicago',
      source: 'geo',
    });
    expect(deriveTimeZone({ latitude: 51.5072, longitude: -0.1276 })).toEqual({ timeZone: 'Europe/London', source: 'geo' });
  });

  it('else the US state or Canadian province, by name or code', () => {
    expect(deriveTimeZone({ country: 'United States', region: 'Arizona' })).toEqual({ timeZone: 'America/Phoenix', source: 'region' });
    expect(deriveTimeZone({ country: 'United States', region: 'NY' })).toEqual({ timeZone: 'America/New_York', source: 'region' });
    expect(deriveTimeZone({ country: 'Canada', region: 'Nova Scotia' })).toEqual({ timeZone: 'America/Halifax', source: 'region' });
  });

  it('else a country with one zone', () => {
    expect(deriveTimeZone({ country: 'Germany' })).toEqual({ timeZone: 'Europe/Berlin', source: 'region' });
  });

  it('unknown stays unknown: no UTC, no guess for a country with several zones or the open sea', () => {
    expect(deriveTimeZone({ country: 'Brazil' })).toBeNull();
    expect(deriveTimeZone({ country: 'United States' })).toBeNull();
    expect(deriveTimeZone({})).toBeNull();
    expect(deriveTimeZone({ latitude: 0, longitude: -30 })).toBeNull();
  });
});
