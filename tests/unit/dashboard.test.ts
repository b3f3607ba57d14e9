import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/server/features/dashboard/csv';
import { activityDay, activityMonth } from '../../src/server/activity';
import { addDays, bucketFor, periodOf, rangeDays, resolveRange, splitRange, weekOf } from '../../src/server/features/dashboard/range';
import { daysInStatus, histogramPercentile } from '../../src/server/features/dashboard/service';
import { number, pct, ratioPct } from '../../src/web/features/dashboard/parts';
import { periodLabel } from '../../src/web/features/dashboard/words';

/** The dashboard's pure parts (decision 032): date ranges, days in each trial status, the CSV. */

const now = new Date('2026-11-23T15:00:00Z');

describe('resolveRange', () => {
  it('ends presets today (UTC) and counts both ends', () => {
    expect(resolveRange({}, now)).toEqual({ from: '2026-10-25', to: '2026-11-23', preset: '30d' });
    expect(resolveRange({ preset: '7d' }, now)).toEqual({ from: '2026-11-17', to: '2026-11-23', preset: '7d' });
    expect(resolveRange({ preset: '90d' }, now)).toEqual({ from: '2026-08-26', to: '2026-11-23', preset: '90d' });
    expect(resolveRange({ preset: 'quarter' }, now)).toEqual({ from: '2026-10-01', to: '2026-11-23', preset: 'quarter' });
    expect(resolveRange({ preset: 'ytd' }, now)).toEqual({ from: '2026-01-01', to: '2026-11-23', preset: 'ytd' });
    expect(resolveRange({ preset: 'all' }, now)).toEqual({ from: null, to: '2026-11-23', preset: 'all' });
    expect(resolveRange({ preset: 'quarter', to: '2026-03-31' }, now)).toEqual({ from: '2026-01-01', to: '2026-03-31', preset: 'quarter' });
  });

  it('lets an explicit from win over the preset, and refuses from after to', () => {
    expect(resolveRange({ from: '2026-02-01', preset: '7d' }, now)).toEqual({ from: '2026-02-01', to: '2026-11-23', preset: null });
    expect(resolveRange({ from: '2026-02-01', to: '2026-02-01' }, now)).toEqual({ from: '2026-02-01', to: '2026-02-01', preset: null });
    expect(() => resolveRange({ from: '2026-02-02', to: '2026-02-01' }, now)).toThrow(/from must not be after to/);
  });

  it('buckets days into ISO weeks starting on Monday', () => {
    expect(weekOf('2026-11-23')).toBe('2026-11-23');
    expect(weekOf('2026-11-29')).toBe('2026-11-23');
    expect(weekOf('2026-11-22')).toBe('2026-11-16');
  });
});

describe('bucketFor', () => {
  it('charts short ranges by day, up to about six months by week, and longer ones by month', () => {
    const days = (query: Parameters<typeof resolveRange>[0]) => rangeDays(resolveRange(query, now), '2024-11-24');
    expect(bucketFor(days({ preset: '7d' }))).toBe('day');
    expect(bucketFor(days({}))).toBe('day');
    expect(bucketFor(62)).toBe('day');
    expect(bucketFor(63)).toBe('week');
    expect(bucketFor(days({ preset: '90d' }))).toBe('week');
    // The quarter so far (54 days on 23 November) is days; a whole quarter (92) weeks.
    expect(bucketFor(days({ preset: 'quarter' }))).toBe('day');
    expect(bucketFor(days({ preset: 'quarter', to: '2026-09-30' }))).toBe('week');
    expect(bucketFor(183)).toBe('week');
    expect(bucketFor(184)).toBe('month');
    expect(bucketFor(days({ preset: 'ytd' }))).toBe('month');
    // "all" counts from the first activity: two years are months.
    expect(bucketFor(days({ preset: 'all' }))).toBe('month');
  });

  it("names a day's bucket by its first day", () => {
    expect(periodOf('day', '2026-03-15')).toBe('2026-03-15');
    expect(periodOf('week', '2026-03-15')).toBe('2026-03-09');
    expect(periodOf('month', '2026-03-15')).toBe('2026-03-01');
    expect(periodOf('month', '2026-12-31')).toBe('2026-12-01');
  });
});

describe('periodLabel (web)', () => {
  it('names a month "Mar 2026" and a day or week by its first day, in UTC', () => {
    expect(periodLabel('month', '2026-03-01')).toBe('Mar 2026');
    expect(periodLabel('month', '2025-12-01')).toBe('Dec 2025');
    expect(periodLabel('week', '2026-03-02')).toBe('Mar 2, 2026');
    expect(periodLabel('day', '2026-01-01', true)).toBe('Jan 1');
  });
});

describe('splitRange', () => {
  it('reads a range inside one month from days only', () => {
    expect(splitRange({ from: '2026-03-05', to: '2026-03-20' })).toEqual({ months: null, days: [{ from: '2026-03-05', to: '2026-03-20' }] });
    expect(splitRange({ from: '2026-03-01', to: '2026-03-30' })).toEqual({ months: null, days: [{ from: '2026-03-01', to: '2026-03-30' }] });
    expect(splitRange({ from: '2026-03-02', to: '2026-03-31' })).toEqual({ months: null, days: [{ from: '2026-03-02', to: '2026-03-31' }] });
    // The 30-day default that spans two partial months.
    expect(splitRange(resolveRange({}, now))).toEqual({ months: null, days: [{ from: '2026-10-25', to: '2026-11-23' }] });
  });

  it('reads a whole month from the monthly rollup, February of a leap year included', () => {
    expect(splitRange({ from: '2026-03-01', to: '2026-03-31' })).toEqual({ months: { from: '2026-03-01', to: '2026-03-01' }, days: [] });
    expect(splitRange({ from: '2028-02-01', to: '2028-02-29' })).toEqual({ months: { from: '2028-02-01', to: '2028-02-01' }, days: [] });
    expect(splitRange({ from: '2026-02-01', to: '2026-02-28' })).toEqual({ months: { from: '2026-02-01', to: '2026-02-01' }, days: [] });
    expect(splitRange({ from: '2028-02-01', to: '2028-02-28' }).months).toBeNull();
  });

  it('keeps days only at the edges, across a year', () => {
    expect(splitRange({ from: '2025-11-15', to: '2026-02-10' })).toEqual({
      months: { from: '2025-12-01', to: '2026-01-01' },
      days: [
        { from: '2025-11-15', to: '2025-11-30' },
        { from: '2026-02-01', to: '2026-02-10' },
      ],
    });
    expect(splitRange({ from: '2025-12-31', to: '2026-01-31' })).toEqual({
      months: { from: '2026-01-01', to: '2026-01-01' },
      days: [{ from: '2025-12-31', to: '2025-12-31' }],
    });
    expect(splitRange({ from: '2025-12-01', to: '2026-01-01' })).toEqual({
      months: { from: '2025-12-01', to: '2025-12-01' },
      days: [{ from: '2026-01-01', to: '2026-01-01' }],
    });
    // Presets: year to date and this quarter start on a month's first day.
    expect(splitRange(resolveRange({ preset: 'ytd' }, now))).toEqual({
      months: { from: '2026-01-01', to: '2026-10-01' },
      days: [{ from: '2026-11-01', to: '2026-11-23' }],
    });
    expect(splitRange(resolveRange({ preset: 'quarter' }, now))).toEqual({
      months: { from: '2026-10-01', to: '2026-10-01' },
      days: [{ from: '2026-11-01', to: '2026-11-23' }],
    });
  });

  it('reads "all" as every month before the last one and its days', () => {
    expect(splitRange(resolveRange({ preset: 'all' }, now))).toEqual({
      months: { from: null, to: '2026-10-01' },
      days: [{ from: '2026-11-01', to: '2026-11-23' }],
    });
    expect(splitRange({ from: null, to: '2026-11-30' })).toEqual({ months: { from: null, to: '2026-11-01' }, days: [] });
    expect(splitRange({ from: null, to: '2026-01-01' })).toEqual({
      months: { from: null, to: '2025-12-01' },
      days: [{ from: '2026-01-01', to: '2026-01-01' }],
    });
  });

  it('covers every day of random ranges exactly once', () => {
    let seed = 41;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const daysOf = (from: string, to: string) => {
      const list: string[] = [];
      for (let day = from; day <= to; day = addDays(day, 1)) list.push(day);
      return list;
    };
    const monthEnd = (month: string) => addDays(`${addDays(month, 31).slice(0, 7)}-01`, -1);
    for (let round = 0; round < 300; round++) {
      const from = addDays('2025-01-01', Math.floor(random() * 800));
      const to = addDays(from, Math.floor(random() * 400));
      const { months, days } = splitRange({ from, to });
      const covered = days.flatMap((span) => daysOf(span.from!, span.to));
      if (months) covered.push(...daysOf(months.from!, monthEnd(months.to)));
      const expected = daysOf(from, to);
      expect(covered.sort(), `${from}..${to}`).toEqual(expected);
    }
  });
});

describe('the UTC day and month an event counts on', () => {
  it('uses the UTC calendar, whatever the offset the time was written with', () => {
    // 23:30 in New York on 31 January is 1 February in UTC: February's day and month.
    expect(activityDay(new Date('2026-01-31T23:30:00-05:00'))).toBe('2026-02-01');
    expect(activityMonth(new Date('2026-01-31T23:30:00-05:00'))).toBe('2026-02-01');
    // 00:30 in Paris on 1 April is still 31 March in UTC.
    expect(activityMonth(new Date('2026-04-01T00:30:00+02:00'))).toBe('2026-03-01');
    expect(activityMonth(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-01');
    expect(activityMonth(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01');
  });
});

describe('daysInStatus', () => {
  it('splits the time since creation over the statuses, the current one up to now', () => {
    const spans = daysInStatus(
      new Date('2026-11-01T15:00:00Z'),
      [
        { from: 'draft', to: 'recruiting', at: '2026-11-03T15:00:00Z' },
        { from: 'recruiting', to: 'paused', at: '2026-11-13T15:00:00Z' },
        { from: 'paused', to: 'recruiting', at: '2026-11-18T15:00:00Z' },
      ],
      'recruiting',
      now,
    );
    expect(Object.fromEntries(spans.map((span) => [span.status, span.days]))).toEqual({ draft: 2, recruiting: 15, paused: 5 });
  });

  it('counts a trial with no history as its current status since creation', () => {
    expect(daysInStatus(new Date('2026-11-21T15:00:00Z'), [], 'draft', now)).toEqual([{ status: 'draft', days: 2 }]);
  });
});

describe('histogramPercentile (the bucketed median, decision 094)', () => {
  it('interpolates inside the bucket the rank falls in', () => {
    // 2, 6 and 10 hours: the median's rank (1.5) is halfway through the one result of the 6-7 hour bucket.
    const buckets = [
      { bucket: 2, end: 3, count: 1 },
      { bucket: 10, end: 11, count: 1 },
      { bucket: 6, end: 7, count: 1 },
    ];
    expect(histogramPercentile(buckets, 0.5)).toBe(6.5);
    // 30 results between 24 and 30 hours, 10 below an hour: the median's rank 20 is 10 into the 6-hour bucket of 30.
    expect(
      histogramPercentile(
        [
          { bucket: 0, end: 1, count: 10 },
          { bucket: 24, end: 30, count: 30 },
        ],
        0.5,
      ),
    ).toBe(26);
  });

  it('gives the open last bucket its lower bound, and nothing for no results', () => {
    expect(
      histogramPercentile(
        [
          { bucket: 5, end: 6, count: 1 },
          { bucket: 720, end: null, count: 3 },
        ],
        0.5,
      ),
    ).toBe(720);
    expect(histogramPercentile([], 0.5)).toBeNull();
  });
});

describe('toCsv', () => {
  it('writes one quoted row per number and defuses spreadsheet formulas', () => {
    const csv = toCsv('costs', {
      filters: { from: null, to: '2026-11-23', preset: 'all', source: null, organizationIds: ['o1'] },
      total: 1.5,
      byChannel: [{ source: 'call', label: '=HYPERLINK("x")', amount: 1.5 }],
      bucket: 'month',
      overTime: [{ period: '2026-10-01', amount: 1.5 }],
      unitCosts: [{ unit: 'prescreen', count: 0, cost: null }],
    });
    expect(csv.split('\r\n')).toEqual([
      'section,group,metric,value',
      'filters,,from,all',
      'filters,,to,2026-11-23',
      'filters,,source,all',
      'filters,,organizations,1',
      'filters,,bucket,month',
      'totals,,spend_usd,1.5',
      `by_channel,"call/=HYPERLINK(""x"")",spend_usd,1.5`,
      'spend_by_month,2026-10-01,spend_usd,1.5',
      'unit_costs,prescreen,count,0',
      'unit_costs,prescreen,cost_usd,',
      '',
    ]);
    const trial = toCsv('trial-lifecycle', {
      filters: { from: null, to: '2026-11-23', preset: 'all', source: null, organizationIds: [] },
      bucket: 'week',
      trials: [
        {
          trialId: 't',
          organizationId: 'o',
          title: '=cmd|calc',
          status: 'recruiting',
          targetEnrollment: 5,
          daysInStatus: [],
          enrolledInRange: 0,
          enrolledTotal: 0,
          enrollment: [],
          forecast: null,
        },
      ],
    });
    expect(trial).toContain("trial,'=cmd|calc,status,recruiting");
  });
});

describe("the dashboard's figures", () => {
  it('reads a figure as a US English browser writes it, whole or with its decimals', () => {
    for (const value of [0, 8, 512, 4096, 65_536, -2048, 30_000_000, 0.25, 17.75, 1234.5678, -3.04]) {
      for (const digits of [0, 1, 2]) {
        expect(number(value, digits), `${value} to ${digits}`).toBe(value.toLocaleString('en-US', { maximumFractionDigits: digits }));
      }
    }
    expect(number(2.6)).toBe('3');
    expect(number(null)).toBe('—');
    expect(pct(12.345)).toBe('12.3%');
    expect(pct(2500)).toBe('2,500%');
    expect(ratioPct(0.4567)).toBe('45.7%');
    expect(ratioPct(undefined)).toBe('—');
  });
});
