import type { SmsBlockReason, SmsPurpose } from '../../../contract/sms';

import { withinContactHours } from '../../calling-hours';

/**
 * What the consent rules need to know of a person. For a candidate: their row plus `smsOptedOutAt`
 * (loaded by `smsOptOutState` in queries.ts); for a phone number with no candidate (a chat visitor):
 * everything false/null except `smsOptedOutAt` read from that number's own STOP/START messages.
 */
export interface ConsentSubject {
  doNotContact: boolean;
  consentSms: boolean;
  consentCalls: boolean;
  timeZone: string | null;
  /**
   * Set when SMS was turned off by an opt-out (a STOP reply, or staff recording the person's request) and
   * not turned on again. consentSms false with this null means "never consented".
   */
  smsOptedOutAt: Date | null;
}

export type ContactChannel = 'sms' | 'call';
export type ContactPermission = { allowed: true } | { allowed: false; reason: SmsBlockReason };

/**
 * Whether `subject` may be contacted on `channel` for `purpose` at `now`. The one rule every message, call
 * and sequence step goes through:
 * - do-not-contact: never, whatever the channel or purpose;
 * - SMS opted out (STOP, or SMS turned off after having been on): never by SMS, any purpose. Only the
 *   person re-subscribes (START) or staff turn SMS consent back on;
 * - SMS never consented: transactional messages (about something the person is already doing: a visit
 *   they booked, a callback they asked for), verification codes (they typed the number) and replies are
 *   allowed; marketing is not;
 * - calls: marketing calls need call consent; other calls are allowed unless do-not-contact;
 * - marketing (SMS or calls) only inside the legal contact window (src/server/calling-hours.ts: 08:00-21:00 in
 *   the person's time zone, else the organization default).
 */
export function contactPermission(subject: ConsentSubject, channel: ContactChannel, purpose: SmsPurpose, now: Date = new Date()): ContactPermission {
  if (subject.doNotContact) return { allowed: false, reason: 'do_not_contact' };
  if (channel === 'sms') {
    if (!subject.consentSms && subject.smsOptedOutAt) return { allowed: false, reason: 'sms_opted_out' };
    if (purpose === 'marketing' && !subject.consentSms) return { allowed: false, reason: 'no_sms_consent' };
  } else if (purpose === 'marketing' && !subject.consentCalls) {
    return { allowed: false, reason: 'no_call_consent' };
  }
  if (purpose === 'marketing' && !withinContactHours(now, subject.timeZone)) return { allowed: false, reason: 'quiet_hours' };
  return { allowed: true };
}
