import { describe, expect, it } from 'vitest';
import { nextCallingTime } from '../../src/server/calling-hours';
import { toLocalTime } from '../../src/contract/time-zones';

/** When a callback asked for `at` will really be placed: the next instant inside the calling window, in the candidate's zone. */

const local = (instant: Date, zone: string) => toLocalTime(instant, zone);

describe('the next calling time across time zones', () => {
  it('keeps a time already inside 08:00-21:00 local', () => {
    const at = new Date('2026-03-10T15:30:00Z'); // 11:30 in New York, 08:30 in Los Angeles
    expect(nextCallingTime(at, 'America/New_York')).toEqual(at);
    expect(nextCallingTime(at, 'America/Los_Angeles')).toEqual(at);
  });

  it('moves an early time to 08:00 the same local day and a late one to 08:00 the next day', () => {
    const at = new Date('2026-03-10T13:00:00Z'); // 06:00 in Los Angeles, 22:00 in Tokyo
    expect(local(nextCallingTime(at, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe('2026-03-10T08:00');
    expect(local(nextCallingTime(at, 'Asia/Tokyo'), 'Asia/Tokyo')).toBe('2026-03-11T08:00');
  });

  it('treats 21:00 as outside (the end is exclusive) and 08:00 as inside', () => {
    expect(local(nextCallingTime(new Date('2026-07-01T01:00:00Z'), 'America/New_York'), 'America/New_York')).toBe('2026-07-01T08:00'); // 21:00 EDT
    const eight = new Date('2026-07-01T12:00:00Z'); // 08:00 EDT
    expect(nextCallingTime(eight, 'America/New_York')).toEqual(eight);
  });

  it("narrows to the agent's hours, never wider than the legal window", () => {
    const at = new Date('2026-03-10T15:30:00Z'); // 11:30 New York
    expect(local(nextCallingTime(at, 'America/New_York', { callingHoursStart: '13:00', callingHoursEnd: '17:00' }), 'America/New_York')).toBe(
      '2026-03-10T13:00',
    );
    expect(
      local(
        nextCallingTime(new Date('2026-03-10T11:00:00Z'), 'America/New_York', { callingHoursStart: '06:00', callingHoursEnd: '23:00' }),
        'America/New_York',
      ),
    ).toBe('2026-03-10T08:00');
  });

  it('crosses a daylight-saving change at the right wall-clock hour', () => {
    // 23:00 on Saturday 7 March 2026 in New York (EST); clocks go forward that night.
    const moved = nextCallingTime(new Date('2026-03-08T04:00:00Z'), 'America/New_York');
    expect(local(moved, 'America/New_York')).toBe('2026-03-08T08:00');
    expect(moved.toISOString()).toBe('2026-03-08T12:00:00.000Z'); // EDT, UTC-4
  });

  it('crosses the date line and half-hour zones', () => {
    const at = new Date('2026-05-01T10:00:00Z'); // 22:00 in Auckland (NZST), 15:30 in Kolkata
    expect(local(nextCallingTime(at, 'Pacific/Auckland'), 'Pacific/Auckland')).toBe('2026-05-02T08:00');
    expect(nextCallingTime(at, 'Asia/Kolkata')).toEqual(at);
  });

  it('uses America/New_York for a missing or unknown zone', () => {
    const at = new Date('2026-03-10T05:00:00Z'); // 01:00 New York
    expect(local(nextCallingTime(at, null), 'America/New_York')).toBe('2026-03-10T08:00');
    expect(local(nextCallingTime(at, 'Mars/Olympus'), 'America/New_York')).toBe('2026-03-10T08:00');
  });
});
