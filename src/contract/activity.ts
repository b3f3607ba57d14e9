/**
 * The activity event model (decision 031): every funnel step the product records is written once, in the
 * transaction of the change, as an append-only `activity_event`, and counted into `activity_daily` in the
 * same statement batch. The admin dashboard and the sponsor demo read these, never the feature tables.
 * Plain constants: the dashboard's first page imports them without zod.
 */

export const ACTIVITY_KINDS = [
  /** A candidate entered the organization. source: import, manual or chat. */
  'candidate_created',
  /** The candidate's funnel status changed. label: the new status (contract/candidate-status.ts); enrollment is
   *  status_changed with label enrolled. */
  'status_changed',
  /** An outbound SMS left (label: purpose), was delivered, or the candidate replied. */
  'sms_sent',
  'sms_delivered',
  'sms_replied',
  /** A call was placed; answered (a person spoke); ended (value: duration in seconds, label: outcome). */
  'call_placed',
  'call_answered',
  'call_ended',
  'chat_started',
  'chat_completed',
  /** A prescreen result. label: the AI recommendation; value: hours from the first contact to the result. */
  'prescreen_result',
  /** A reviewer's decision on a result. label: agree or override; value: 1 for an override. */
  'review_decision',
  /** A screening visit: booked, attended (completed) or missed (no_show); cancelled too. */
  'visit_booked',
  'visit_attended',
  'visit_no_show',
  'visit_cancelled',
  /** The candidate withdrew consent (label: sms, calls or all) or was marked do-not-contact. */
  'opted_out',
  /** A trial's status changed. label: the new status. */
  'trial_status_changed',
  /** A satisfaction rating, value 1..5, from the end of a chat, a call, or a reply after a booking. */
  'satisfaction_rated',
  /** Money spent. source: the channel; label: what (call_minutes, sms_segments, llm_tokens); value: US dollars. */
  'spend',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The channel an event happened through (the dashboard's `source` filter). */
export const ACTIVITY_SOURCES = ['call', 'chat', 'sms', 'import', 'manual'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/** Date-range presets of the dashboard's filters. */
export const ACTIVITY_PRESETS = ['7d', '30d', '90d', 'quarter', 'ytd', 'all'] as const;
export type ActivityPreset = (typeof ACTIVITY_PRESETS)[number];
export const DEFAULT_ACTIVITY_PRESET: ActivityPreset = '30d';
