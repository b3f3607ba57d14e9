import type { DropOffReason, FunnelStage } from '../../../contract/dashboard';

export const STAGE_LABELS: Record<FunnelStage, string> = {
  created: 'Created',
  contacted: 'Contacted',
  prescreened: 'Prescreened',
  passed: 'PASS',
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
  enrolled: 'Per enrolment',
};
export const SPEND_LABELS: Record<string, string> = { call_minutes: 'Call minutes', sms_segments: 'SMS segments', llm_tokens: 'AI tokens' };
export const FLAG_LABELS: Record<string, string> = { no_recent_activity: 'No activity in 14 days', high_opt_out: 'Opt-out rate above 5%' };
export const STATUS_LABELS: Record<string, string> = { draft: 'Draft', recruiting: 'Recruiting', paused: 'Paused', closed: 'Closed' };
