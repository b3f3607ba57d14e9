import type { DashboardBucket, DropOffReason, FunnelStage } from '../../../contract/dashboard';

export const STAGE_LABELS: Record<FunnelStage, string> = {
  created: 'Created',
  contacted: 'Contacted',
  prescreened: 'Prescreened',
  passed: 'Passed',
  booked: 'Visit booked',
  attended: 'Attended',
  enrolled: 'Enrolled',
};
/** The funnel's order (the contract's FUNNEL_STAGES, without loading zod). */
export const STAGE_ORDER = Object.keys(STAGE_LABELS) as FunnelStage[];
export const DROP_OFF_LABELS: Record<DropOffReason, string> = {
  not_interested: 'Not interested',
  unreachable: 'Unreachable',
  prescreen_failed: 'Failed prescreen',
  opted_out: 'Opted out',
  no_show: 'No-show',
  do_not_contact: 'Do not contact',
};
export const SOURCE_LABELS: Record<string, string> = { call: 'Call', chat: 'Chat', sms: 'SMS', import: 'Import', manual: 'Manual' };
export const UNIT_LABELS: Record<string, string> = {
  prescreen: 'Per prescreen',
  pass: 'Per PASS',
  booked_visit: 'Per booked visit',
  enrolled: 'Per enrollment',
};
export const SPEND_LABELS: Record<string, string> = { call_minutes: 'Call minutes', sms_segments: 'SMS segments', llm_tokens: 'AI tokens' };
export const FLAG_LABELS: Record<string, string> = { no_recent_activity: 'No activity in 14 days', high_opt_out: 'Opt-out rate above 5%' };
export const STATUS_LABELS: Record<string, string> = { draft: 'Draft', recruiting: 'Recruiting', paused: 'Paused', closed: 'Closed' };

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A bucket's name from its first day (YYYY-MM-DD, UTC; decision 044): "Mar 2026" for a month, "Mar 2, 2026" for a day
 * or the Monday of a week ("Mar 2" when short, for a chart's axis). Read from the text, so no time zone shifts it.
 */
export function periodLabel(bucket: DashboardBucket, period: string, short = false): string {
  const [year, month, day] = period.split('-');
  const name = MONTH_NAMES[Number(month) - 1] ?? month;
  if (bucket === 'month') return `${name} ${year}`;
  return short ? `${name} ${Number(day)}` : `${name} ${Number(day)}, ${year}`;
}
/** A series' table column and the words for its bucket. */
export const BUCKET_COLUMN: Record<DashboardBucket, string> = { day: 'Day', week: 'Week of', month: 'Month' };
export const BUCKET_NOTE: Record<DashboardBucket, string | null> = {
  day: null,
  week: 'Weeks start on Monday (UTC); the first and last count only the days in the range.',
  month: 'Months are UTC months; the first and last count only the days in the range.',
};
