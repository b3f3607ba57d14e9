import type { CANDIDATE_STATUSES } from './candidate-status';

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
