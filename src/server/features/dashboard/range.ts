import type { ActivityPreset } from '../../../contract/activity';
import { DEFAULT_ACTIVITY_PRESET } from '../../../contract/activity';
import type { DashboardBucket } from '../../../contract/dashboard';
import { badRequest } from '../../http/errors';

/** A dashboard's date range in UTC days, both ends included; `from` null means since the beginning. */
export interface DayRange {
  from: string | null;
  to: string;
  preset: ActivityPreset | null;
}

const DAY_MS = 86_400_000;
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
export const startOfDay = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The range of a request: explicit from/to win (a custom range); otherwise the preset (30 days by default)
 * ending today. `to` alone keeps the preset's length ending on that day.
 */
export function resolveRange(query: { from?: string; to?: string; preset?: ActivityPreset }, now: Date = new Date()): DayRange {
  const to = query.to ?? dayOf(now);
  if (query.from) {
    if (query.from > to) throw badRequest('from must not be after to');
    return { from: query.from, to, preset: null };
  }
  const preset = query.preset ?? DEFAULT_ACTIVITY_PRESET;
  switch (preset) {
    case '7d':
      return { from: addDays(to, -6), to, preset };
    case '30d':
      return { from: addDays(to, -29), to, preset };
    case '90d':
      return { from: addDays(to, -89), to, preset };
    case 'quarter': {
      const month = Number(to.slice(5, 7));
      const first = Math.floor((month - 1) / 3) * 3 + 1;
      return { from: `${to.slice(0, 4)}-${String(first).padStart(2, '0')}-01`, to, preset };
    }
    case 'ytd':
      return { from: `${to.slice(0, 4)}-01-01`, to, preset };
    case 'all':
      return { from: null, to, preset };
  }
}

/** Monday of the day's ISO week. */
export function weekOf(day: string): string {
  const date = startOfDay(day);
  const weekday = (date.getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The number of days a range covers (an open start counts from `earliest`). */
export function rangeDays(range: DayRange, earliest: string | null): number {
  const from = range.from ?? earliest ?? range.to;
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The longest range charted by day: two months, at most 62 bars (the 7- and 30-day presets). */
export const DAY_BUCKET_MAX_DAYS = 62;
/**
 * The longest range charted by week: about six months, 10 to 27 bars (90 days, a quarter, a spring year-to-date).
 * Weeks straddle months, so they are summed from the daily rollup; beyond this a range is charted by month, from the
 * monthly rollup (decision 044): seven or more bars, and two years are 25 instead of 105 weeks or 730 days of rows.
 */
export const WEEK_BUCKET_MAX_DAYS = 183;

/** The over-time charts' bucket for a range of `days` days (decision 044). */
export function bucketFor(days: number): DashboardBucket {
  if (days <= DAY_BUCKET_MAX_DAYS) return 'day';
  return days <= WEEK_BUCKET_MAX_DAYS ? 'week' : 'month';
}

/** The first day of the day's bucket: the day, the Monday of its ISO week, or the first of its UTC month. */
export function periodOf(bucket: DashboardBucket, day: string): string {
  if (bucket === 'week') return weekOf(day);
  return bucket === 'month' ? monthOf(day) : day;
}

/** Days `from`..`to`, both included; `from` null means since the beginning. */
export interface DaySpan {
  from: string | null;
  to: string;
}

/** The parts of a range the rollups answer: whole UTC months (first days, both included) and the days at its edges. */
export interface RangeParts {
  /** Whole months from `activity_monthly`; null when the range holds no whole month. `from` null: since the beginning. */
  months: DaySpan | null;
  /** The edge days (at most two spans) from `activity_daily`. */
  days: DaySpan[];
}

export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month after the day's month. */
const nextMonth = (day: string) => {
  const date = startOfDay(monthOf(day));
  date.setUTCMonth(date.getUTCMonth() + 1);
  return dayOf(date);
};

/**
 * Splits a range into whole months and edge days (decision 041): 1 Jan .. 14 Mar is January and February from the
 * monthly rollup and 1..14 Mar from the daily one; "all" up to 14 Mar is every month up to February and 1..14 Mar.
 * Months are UTC months, like the days.
 */
export function splitRange(range: DaySpan): RangeParts {
  const firstMonth = range.from === null ? null : range.from === monthOf(range.from) ? range.from : nextMonth(range.from);
  // The last whole month ends on `to` when `to` is its month's last day, else it is the month before `to`'s.
  const afterLast = nextMonth(range.to) === addDays(range.to, 1) ? addDays(range.to, 1) : monthOf(range.to);
  const lastMonth = monthOf(addDays(afterLast, -1));
  if (firstMonth !== null && firstMonth > lastMonth) return { months: null, days: [{ from: range.from, to: range.to }] };
  const days: DaySpan[] = [];
  if (range.from !== null && firstMonth !== range.from) days.push({ from: range.from, to: addDays(firstMonth!, -1) });
  if (afterLast <= range.to) days.push({ from: afterLast, to: range.to });
  return { months: { from: firstMonth, to: lastMonth }, days };
}
