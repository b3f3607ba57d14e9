import type { CANDIDATE_STATUSES } from './candidate-status';
import type { BOOKING_STATUSES } from './prescreen';
import type { MEMBER_ROLES } from './users';
import type { CALL_OUTCOMES, CALL_STATUSES } from './voice';

/**
 * The words a site coordinator reads for the product's internal codes, shared by the server (contact-history
 * summaries, error messages) and the web (src/web/lib/words.ts). Plain constants: no zod.
 */
export const CANDIDATE_STATUS_LABELS: Record<(typeof CANDIDATE_STATUSES)[number], string> = {
  new: 'New',
  contacted: 'Contacted',
  prescreening: 'Prescreening',
  prescreen_passed: 'Prescreen passed',
  prescreen_failed: 'Prescreen failed',
  visit_scheduled: 'Visit scheduled',
  enrolled: 'Enrolled',
  not_interested: 'Not interested',
  unreachable: 'Unreachable',
  do_not_contact: 'Do not contact',
};

/** Why an SMS, call or callback was not made, in a few words ("SMS not sent (no consent to texts)"). */
export const CONTACT_BLOCK_WORDS: Record<string, string> = {
  do_not_contact: 'marked do not contact',
  sms_opted_out: 'opted out of texts',
  no_sms_consent: 'no consent to texts',
  no_call_consent: 'no consent to calls',
  quiet_hours: 'outside contact hours',
  outside_calling_hours: 'outside calling hours',
  no_phone: 'no phone number',
  no_agent: 'no voice agent',
  trial_not_recruiting: 'trial not recruiting',
};

/** A status code in words; an unknown code has its underscores turned to spaces, first letter capital. */
export function candidateStatusWords(status: string): string {
  return (CANDIDATE_STATUS_LABELS as Record<string, string>)[status] ?? humanizeCode(status);
}

/** A reason code in words ("no_call_consent" -> "no consent to calls"). */
export function blockReasonWords(reason: string): string {
  return CONTACT_BLOCK_WORDS[reason] ?? humanizeCode(reason).toLowerCase();
}

export function humanizeCode(code: string): string {
  const spaced = code.replace(/[_-]+/g, ' ').trim();
  return spaced ? spaced[0].toUpperCase() + spaced.slice(1) : code;
}

/** The contact-history line of a status change: "Status changed from New to Prescreen passed". */
export function statusChangeSummary(from: string, to: string): string {
  return `Status changed from ${candidateStatusWords(from)} to ${candidateStatusWords(to)}`;
}

/** A member's role as the users page and the invite form show it; the values sent stay the codes. */
export const MEMBER_ROLE_LABELS: Record<(typeof MEMBER_ROLES)[number], string> = { owner: 'Owner', admin: 'Admin', coordinator: 'Coordinator' };

/** A site-visit booking's status ("· Scheduled ·" on the review page). */
export const BOOKING_STATUS_LABELS: Record<(typeof BOOKING_STATUSES)[number], string> = {
  scheduled: 'Scheduled',
  cancelled: 'Cancelled',
  completed: 'Completed',
  no_show: 'No-show',
};

/** A call's status while it runs or once it is over. */
export const CALL_STATUS_WORDS: Record<(typeof CALL_STATUSES)[number], string> = {
  queued: 'Queued',
  ringing: 'Ringing',
  in_progress: 'In progress',
  ended: 'Ended',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** How a call ended ("Call ended: Completed" rather than "completed"). */
export const CALL_OUTCOME_WORDS: Record<(typeof CALL_OUTCOMES)[number], string> = {
  completed: 'Completed',
  no_answer: 'No answer',
  busy: 'Busy',
  voicemail: 'Voicemail',
  failed: 'Failed',
  hung_up: 'Hung up',
  declined: 'Declined',
};

/** A finished call's line in the contact history ("Call not answered"): the same from the provider and the demo data. */
const CALL_ENDED_SUMMARY: Record<(typeof CALL_OUTCOMES)[number], string> = {
  completed: 'Call completed',
  no_answer: 'Call not answered',
  busy: 'Line busy',
  voicemail: 'Reached voicemail',
  failed: 'Call failed',
  hung_up: 'Candidate hung up',
  declined: 'Candidate declined',
};

export function callEndedSummary(outcome: string): string {
  return (CALL_ENDED_SUMMARY as Record<string, string>)[outcome] ?? 'Call ended';
}

/** A call outcome code in words; an unknown code humanized. */
export function callOutcomeWords(outcome: string): string {
  return (CALL_OUTCOME_WORDS as Record<string, string>)[outcome] ?? humanizeCode(outcome);
}

// ClinicalTrials.gov phase codes ("PHASE1", "EARLY_PHASE1", "NA"), alone or joined ("PHASE2/PHASE3", "PHASE2, PHASE3").
const PHASE_CODE = /^(?:EARLY_PHASE\d|PHASE\d|NA|N\/A)$/i;
const PHASE_CODE_JOINER = /\s*(?:[/,|+&]|\band\b)\s*/i;

/**
 * A trial's phase as a coordinator reads it: "PHASE1" -> "Phase 1", "PHASE2/PHASE3" -> "Phase 2/3",
 * "EARLY_PHASE1" -> "Early Phase 1", "NA" -> "Not applicable". A phase already in words ("Phase 2/Phase 3",
 * typed in the trial form) is shown as written; so is any text with a part that is not a phase code.
 */
export function phaseWords(phase: string): string {
  const codes = phase.trim().split(PHASE_CODE_JOINER).filter(Boolean);
  if (codes.length === 0 || !codes.every((code) => PHASE_CODE.test(code))) return phase;
  const upper = codes.map((code) => code.toUpperCase());
  if (upper.every((code) => code === 'NA' || code === 'N/A')) return 'Not applicable';
  const named = upper.filter((code) => code !== 'NA' && code !== 'N/A');
  if (named.every((code) => code.startsWith('PHASE'))) return `Phase ${named.map((code) => code.slice('PHASE'.length)).join('/')}`;
  return named.map((code) => (code.startsWith('EARLY_') ? `Early Phase ${code.slice('EARLY_PHASE'.length)}` : `Phase ${code.slice('PHASE'.length)}`)).join('/');
}
