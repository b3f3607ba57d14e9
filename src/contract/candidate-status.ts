// No zod and no phone library here: the web app's first page loads this (the candidate list's search params).
import type { ActivityKind } from './activity';

/** The recruitment funnel: new, contacted, prescreening, passed or failed, visit scheduled, enrolled (or out: not interested, unreachable, do not contact). Each change of status is an activity event the dashboards count (decision 031). */
export const CANDIDATE_STATUSES = [
  'new',
  'contacted',
  'prescreening',
  'prescreen_passed',
  'prescreen_failed',
  'visit_scheduled',
  'enrolled',
  'not_interested',
  'unreachable',
  'do_not_contact',
] as const;

/**
 * "Contacted", the one definition every count uses (the dashboard's funnel and matcher tabs, the sponsor demo;
 * issue 32, decision 159): the person's status has left `new`. A change from `new` straight to a later status (a
 * chat visitor who prescreened at once, a call that prescreened) is their first contact as well.
 */
export const NOT_YET_CONTACTED = 'new' satisfies (typeof CANDIDATE_STATUSES)[number];
/**
 * Do-not-contact set on a person still `new` (a referral's wish, a list's flag) is no contact: the person was never
 * reached (decision 169). A person at do-not-contact counts as contacted only when they were reached before
 * (`reachedBefore`: an earlier status change to contacted, a text, call or chat).
 */
export const NEVER_A_CONTACT = 'do_not_contact' satisfies (typeof CANDIDATE_STATUSES)[number];
/**
 * What reaches a person (decision 169), as activity events: a text sent, a call placed, a chat started, or the status
 * change to contacted. Both the sponsor demo's first contacts and the matcher tab's "reached before" read these.
 */
export const REACHING_ACTIVITY_KINDS = ['sms_sent', 'call_placed', 'chat_started'] as const satisfies readonly ActivityKind[];
export const CONTACTED_STATUS = 'contacted' satisfies (typeof CANDIDATE_STATUSES)[number];
export const wasContacted = (status: string, reachedBefore = false): boolean => status !== NOT_YET_CONTACTED && (status !== NEVER_A_CONTACT || reachedBefore);
/** A status change that is the person's first contact without passing through `contacted`. */
export const skipsContacted = (from: unknown, to: unknown): boolean =>
  from === NOT_YET_CONTACTED && to !== NOT_YET_CONTACTED && to !== 'contacted' && to !== NEVER_A_CONTACT;
