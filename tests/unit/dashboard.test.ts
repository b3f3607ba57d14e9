import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/server/features/dashboard/csv';
import { resolveRange, weekOf } from '../../src/server/features/dashboard/range';
import { daysInStatus } from '../../src/server/features/dashboard/service';

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

describe('toCsv', () => {
  it('writes one quoted row per number and defuses spreadsheet formulas', () => {
    const csv = toCsv('costs', {
      filters: { from: null, to: '2026-11-23', preset: 'all', source: null, organizationIds: ['o1'] },
      total: 1.5,
      byChannel: [{ source: 'call', label: '=HYPERLINK("x")', amount: 1.5 }],
      overTime: [],
      unitCosts: [{ unit: 'prescreen', count: 0, cost: null }],
    });
    expect(csv.split('\r\n')).toEqual([
      'section,group,metric,value',
      'filters,,from,all',
      'filters,,to,2026-11-23',
      'filters,,source,all',
      'filters,,organizations,1',
      'totals,,spend_usd,1.5',
      `by_channel,"call/=HYPERLINK(""x"")",spend_usd,1.5`,
      'unit_costs,prescreen,count,0',
      'unit_costs,prescreen,cost_usd,',
      '',
    ]);
    const trial = toCsv('trial-lifecycle', {
      filters: { from: null, to: '2026-11-23', preset: 'all', source: null, organizationIds: [] },
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
