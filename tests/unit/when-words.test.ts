import { describe, expect, it } from 'vitest';
import { whenInWords, zonePlace } from '../../src/contract/when-words';

/** Moments as a person says them (issue 32): on the reader's clocks, in their language, never an ISO date or a zone id. */
describe('moments in words', () => {
  const now = new Date('2026-11-29T12:00:00Z');

  it("says the day, the time and the zone on the person's clocks, in English and Spanish", () => {
    const at = new Date('2026-12-02T23:30:00Z'); // 10:30 on Thursday 3 December in Sydney (UTC+11)
    expect(whenInWords(at, 'Australia/Sydney', 'en', { now })).toBe('Thursday 3 December at 10:30 am (Sydney time)');
    expect(whenInWords(at, 'Australia/Sydney', 'es', { now })).toBe('jueves 3 de diciembre a las 10:30 (hora de Australia oriental)');
    expect(whenInWords(at, 'America/New_York', 'en', { now })).toBe('Wednesday 2 December at 6:30 pm (New York time)');
  });

  it('adds the year only when it is not this one, says noon and midnight plainly, and "a la 1" in Spanish', () => {
    expect(whenInWords(new Date('2027-01-05T13:05:00Z'), 'America/New_York', 'en', { now })).toBe('Tuesday 5 January 2027 at 8:05 am (New York time)');
    expect(whenInWords(new Date('2026-12-01T17:00:00Z'), 'America/New_York', 'en', { now, withZone: false })).toBe('Tuesday 1 December at 12:00 pm');
    expect(whenInWords(new Date('2026-12-01T06:00:00Z'), 'America/New_York', 'es', { now })).toMatch(/^martes 1 de diciembre a la 1:00 \(hora/);
  });

  it('names fixed-offset zones by their offset, the right way round', () => {
    expect(zonePlace('Etc/GMT-5')).toBe('UTC+5');
    expect(zonePlace('Etc/GMT+3')).toBe('UTC-3');
    expect(zonePlace('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
  });

  it('never answers an ISO date or a raw zone id', () => {
    for (const zone of ['Australia/Perth', 'Europe/Madrid', 'America/Los_Angeles', 'Etc/UTC']) {
      for (const language of ['en', 'es'] as const) {
        const text = whenInWords(new Date('2026-12-10T09:00:00Z'), zone, language, { now });
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:|\w+\/\w+/);
      }
    }
  });
});
