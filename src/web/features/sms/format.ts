import type { SmsBlockReason, SmsStatus, SmsTemplateVariable } from '../../../contract/sms';

/** Why a message cannot be sent, as a sentence for the banner and the disabled composer. */
export const BLOCK_REASON_TEXT: Record<SmsBlockReason, string> = {
  do_not_contact: 'This candidate is marked do not contact.',
  sms_opted_out: 'This candidate opted out of text messages.',
  no_sms_consent: 'This candidate has not consented to marketing text messages.',
  no_call_consent: 'This candidate has not consented to calls.',
  quiet_hours: 'Marketing messages only go out 8:00–21:00 in the candidate’s time zone.',
  no_phone: 'This candidate has no phone number.',
};
export const blockReasonText = (reason: string | null | undefined) =>
  (reason && (BLOCK_REASON_TEXT as Record<string, string>)[reason]) || (reason ? `Blocked (${reason.replace(/_/g, ' ')}).` : 'Sending is blocked.');

export const STATUS_LABELS: Record<SmsStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  undelivered: 'Undelivered',
  received: 'Received',
  blocked: 'Blocked',
};

export const STATUS_TONES: Record<SmsStatus, string> = {
  queued: 'bg-slate-100 text-slate-800',
  sent: 'bg-blue-100 text-blue-900',
  delivered: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
  undelivered: 'bg-red-100 text-red-900',
  received: 'bg-slate-100 text-slate-800',
  blocked: 'bg-red-100 text-red-900',
};

export const VARIABLE_LABELS: Record<SmsTemplateVariable, string> = {
  firstName: 'First name',
  trialTitle: 'Trial',
  visitTime: 'Visit time',
  siteAddress: 'Site address',
  organizationName: 'Organization name',
};
export const VARIABLE_HINTS: Partial<Record<SmsTemplateVariable, string>> = {
  visitTime: 'In words, in the candidate’s language and time, e.g. “Tuesday 12 May at 9:30 am” or “martes 12 de mayo a las 9:30”.',
  trialTitle: 'Its short name, as the candidate knows it (not the official title).',
  siteAddress: 'e.g. “200 Main St, Suite 4, Springfield”.',
};

const PLACEHOLDER = /\{([a-zA-Z]+)\}/g;

/** The template's text with the filled variables; an empty one stays as its {placeholder}. */
export function renderPreview(text: string, variables: Record<string, string | undefined>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => variables[name]?.trim() || whole);
}

/** The template language the server uses for a candidate: Spanish for es*, otherwise English. */
export const templateLanguage = (preferredLanguage: string | null | undefined): 'en' | 'es' =>
  preferredLanguage?.toLowerCase().startsWith('es') ? 'es' : 'en';

export { smsSegments } from '../../../contract/sms-segments';

/** "Today 14:05", "Yesterday 09:12" or a short date and time. */
export function formatMessageTime(value: string, now = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (date.getTime() >= startOfToday) return time;
  if (date.getTime() >= startOfToday - 86_400_000) return `Yesterday ${time}`;
  return date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/**
 * A phone number with all but its last four digits hidden ("••• 0147"): enough to tell messages apart on a list
 * that internal admins scan, not enough to identify the person (HIPAA minimum necessary, decision 119).
 */
export function maskedPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length > 4 ? `••• ${digits.slice(-4)}` : '•••';
}

/** How long ago, in words: "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function timeAgo(value: string, now = new Date()): string {
  const minutes = Math.floor((now.getTime() - new Date(value).getTime()) / 60_000);
  if (Number.isNaN(minutes)) return '';
  if (minutes < 1) return 'just now';
  const [count, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 60 * 24 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}
