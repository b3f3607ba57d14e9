import { describe, expect, it } from 'vitest';
import { VisitScheduleSchema } from '../../src/contract/voice';
import { chosenSlot, freeVisitSlots } from '../../src/server/features/calls/scheduling';

/** The free visit slots a scheduling agent offers: weekdays, notice, the booking window, taken slots, DST. */

const schedule = (overrides: Record<string, unknown> = {}) => VisitScheduleSchema.parse({ sites: ['Lakeside'], ...overrides });
const UTC = [{ id: 'Lakeside', name: 'Lakeside', timeZone: 'Etc/UTC' }];
// Monday 2 June 2025, 12:00 UTC.
const MONDAY_NOON = new Date('2025-06-02T12:00:00Z');
const local = (slots: Array<{ localTime: string }>) => slots.map((slot) => slot.localTime);

describe('free visit slots', () => {
  it('defaults: weekdays 09:00, 11:00, 14:00, 60 minutes, 14 days ahead, 24 hours notice', () => {
    expect(schedule()).toMatchObject({
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      times: ['09:00', '11:00', '14:00'],
      durationMinutes: 60,
      daysAhead: 14,
      minNoticeHours: 24,
    });
    // Notice ends Tuesday 12:00: Tuesday 14:00 first, then Wednesday.
    expect(local(freeVisitSlots(schedule(), UTC, [], MONDAY_NOON))).toEqual(['2025-06-03T14:00', '2025-06-04T09:00', '2025-06-04T11:00']);
  });

  it('only on the chosen weekdays, and never past daysAhead', () => {
    const slots = freeVisitSlots(schedule({ weekdays: ['wed'], times: ['09:00'], minNoticeHours: 0 }), UTC, [], MONDAY_NOON, 10);
    // Wednesdays 4, 11 June; 18 June is more than 14 days ahead.
    expect(local(slots)).toEqual(['2025-06-04T09:00', '2025-06-11T09:00']);
    expect(local(freeVisitSlots(schedule({ weekdays: ['sat', 'sun'], times: ['10:00'], daysAhead: 7, minNoticeHours: 0 }), UTC, [], MONDAY_NOON, 10))).toEqual([
      '2025-06-07T10:00',
      '2025-06-08T10:00',
    ]);
  });

  it('minimum notice: a slot closer than minNoticeHours is not offered', () => {
    const times = { times: ['09:00', '14:00'], weekdays: ['mon', 'tue'] };
    expect(local(freeVisitSlots(schedule({ ...times, minNoticeHours: 0 }), UTC, [], MONDAY_NOON, 2))).toEqual(['2025-06-02T14:00', '2025-06-03T09:00']);
    expect(local(freeVisitSlots(schedule({ ...times, minNoticeHours: 2 }), UTC, [], MONDAY_NOON, 2))).toEqual(['2025-06-02T14:00', '2025-06-03T09:00']);
    expect(local(freeVisitSlots(schedule({ ...times, minNoticeHours: 3 }), UTC, [], MONDAY_NOON, 2))).toEqual(['2025-06-03T09:00', '2025-06-03T14:00']);
  });

  it('taken: a booked slot, or a visit overlapping one, at the same site is not free', () => {
    const rules = schedule({ minNoticeHours: 0, times: ['14:00', '16:00'] });
    const sites = [...UTC, { id: 'Downtown', name: 'Downtown', timeZone: 'Etc/UTC' }];
    const taken = [
      { siteId: 'Lakeside', startsAt: new Date('2025-06-02T14:00:00Z'), durationMinutes: 60 },
      // A 30-minute staff booking at 16:30 overlaps the 16:00 visit (60 minutes).
      { siteId: 'Lakeside', startsAt: new Date('2025-06-02T16:30:00Z'), durationMinutes: 30 },
    ];
    const slots = freeVisitSlots(rules, sites, taken, MONDAY_NOON, 4);
    expect(slots.map((slot) => `${slot.siteName} ${slot.localTime}`)).toEqual([
      'Downtown 2025-06-02T14:00',
      'Downtown 2025-06-02T16:00',
      'Lakeside 2025-06-03T14:00',
      'Downtown 2025-06-03T14:00',
    ]);
    // A visit ending exactly when the slot starts does not overlap it.
    const touching = [{ siteId: 'Lakeside', startsAt: new Date('2025-06-02T13:00:00Z'), durationMinutes: 60 }];
    expect(local(freeVisitSlots(rules, UTC, touching, MONDAY_NOON, 1))).toEqual(['2025-06-02T14:00']);
  });

  it("times are the site's wall clock: sites in different zones are merged by the real instant", () => {
    const sites = [
      { id: 'Chicago', name: 'Chicago', timeZone: 'America/Chicago' },
      { id: 'New York', name: 'New York', timeZone: 'America/New_York' },
    ];
    const slots = freeVisitSlots(schedule({ times: ['09:00'], minNoticeHours: 0 }), sites, [], MONDAY_NOON, 4);
    // At 12:00Z it is 08:00 in New York and 07:00 in Chicago: 09:00 in New York (13:00Z) comes before 09:00 in Chicago (14:00Z).
    expect(slots.map((slot) => [slot.siteName, slot.localTime, slot.startsAt.toISOString(), slot.timeZone])).toEqual([
      ['New York', '2025-06-02T09:00', '2025-06-02T13:00:00.000Z', 'America/New_York'],
      ['Chicago', '2025-06-02T09:00', '2025-06-02T14:00:00.000Z', 'America/Chicago'],
      ['New York', '2025-06-03T09:00', '2025-06-03T13:00:00.000Z', 'America/New_York'],
      ['Chicago', '2025-06-03T09:00', '2025-06-03T14:00:00.000Z', 'America/Chicago'],
    ]);
    // A site whose zone is unknown offers nothing.
    expect(freeVisitSlots(schedule({ minNoticeHours: 0 }), [{ id: 'Nowhere', name: 'Nowhere', timeZone: 'Mars/Olympus' }], [], MONDAY_NOON)).toEqual([]);
  });

  it('DST: the skipped hour is never offered; the offset follows the date; a repeated hour is its first occurrence', () => {
    const newYork = [{ id: 'Lakeside', name: 'Lakeside', timeZone: 'America/New_York' }];
    const all = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    // Clocks go forward on Sunday 9 March 2025 at 02:00.
    const spring = freeVisitSlots(
      schedule({ weekdays: all, times: ['02:30', '09:00'], minNoticeHours: 0, daysAhead: 3 }),
      newYork,
      [],
      new Date('2025-03-07T12:00:00Z'),
      10,
    );
    // From Friday 07:00 EST to Monday 08:00 EDT (12:00Z): no 02:30 on Sunday; 09:00 is 14:00Z before, 13:00Z after.
    expect(spring.map((slot) => [slot.localTime, slot.startsAt.toISOString()])).toEqual([
      ['2025-03-07T09:00', '2025-03-07T14:00:00.000Z'],
      ['2025-03-08T02:30', '2025-03-08T07:30:00.000Z'],
      ['2025-03-08T09:00', '2025-03-08T14:00:00.000Z'],
      ['2025-03-09T09:00', '2025-03-09T13:00:00.000Z'],
      ['2025-03-10T02:30', '2025-03-10T06:30:00.000Z'],
    ]);
    // Clocks go back on Sunday 2 November 2025: 01:30 happens twice; the first (EDT, 05:30Z) is offered.
    const autumn = freeVisitSlots(
      schedule({ weekdays: ['sun'], times: ['01:30'], minNoticeHours: 0, daysAhead: 3 }),
      newYork,
      [],
      new Date('2025-10-31T12:00:00Z'),
      10,
    );
    expect(autumn.map((slot) => [slot.localTime, slot.startsAt.toISOString()])).toEqual([['2025-11-02T01:30', '2025-11-02T05:30:00.000Z']]);
  });

  it('answers at most `limit` slots, earliest first', () => {
    const slots = freeVisitSlots(
      schedule({ minNoticeHours: 0, daysAhead: 90, weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] }),
      UTC,
      [],
      MONDAY_NOON,
      5,
    );
    expect(slots).toHaveLength(5);
    expect([...slots].sort((left, right) => left.startsAt.getTime() - right.startsAt.getTime())).toEqual(slots);
  });
});

describe('the slot a person chose on a call', () => {
  it('reads set-call-metadata booking as an object or JSON text, else the call analysis', () => {
    expect(chosenSlot({ metadata: { booking: { siteName: ' Lakeside ', localTime: '2025-06-03T14:00' } } })).toEqual({
      siteName: 'Lakeside',
      localTime: '2025-06-03T14:00',
    });
    expect(chosenSlot({ metadata: { booking: '{"siteName":"Lakeside","localTime":"2025-06-03 14:00"}' } })).toEqual({
      siteName: 'Lakeside',
      localTime: '2025-06-03T14:00',
    });
    expect(chosenSlot({ analysis: { booking: { siteName: 'Lakeside', localTime: '2025-06-03T14:00' } } })).toEqual({
      siteName: 'Lakeside',
      localTime: '2025-06-03T14:00',
    });
    expect(chosenSlot({ metadata: { booking: 'tomorrow morning' } })).toBeNull();
    expect(chosenSlot({})).toBeNull();
  });
});
