import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CandidateStatus } from '../../../contract/candidates';
import { countWords } from '../../lib/counts';

export { CANDIDATE_STATUS_LABELS } from '../../../contract/words';

export const CANDIDATE_STATUS_TONES: Record<CandidateStatus, 'slate' | 'blue' | 'green' | 'amber'> = {
  new: 'blue',
  contacted: 'blue',
  prescreening: 'blue',
  prescreen_passed: 'green',
  prescreen_failed: 'amber',
  visit_scheduled: 'green',
  enrolled: 'green',
  not_interested: 'slate',
  unreachable: 'amber',
  do_not_contact: 'slate',
};

export const SOURCE_LABELS: Record<string, string> = {
  manual: 'Manual',
  referral: 'Referral',
  campaign: 'Campaign',
  import: 'Import',
  web_chat: 'Web chat',
  inbound_call: 'Inbound call',
  ehr: 'EHR',
};
export const sourceLabel = (source: string) => SOURCE_LABELS[source] ?? source;

export const SEX_LABELS: Record<string, string> = { female: 'Female', male: 'Male', other: 'Other', unknown: 'Unknown' };

export const LANGUAGE_CHOICES = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'fr', label: 'French' },
  { value: 'de', label: 'German' },
  { value: 'pt', label: 'Portuguese' },
  { value: 'zh', label: 'Chinese' },
  { value: 'vi', label: 'Vietnamese' },
  { value: 'ar', label: 'Arabic' },
] as const;
export const languageLabel = (code: string) => LANGUAGE_CHOICES.find((choice) => choice.value === code)?.label ?? code;

/** E.164 for display: "+12125550101" -> "(212) 555-0101" (national format for North American numbers), "+61 2 9123 4567". */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return '—';
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed) return phone;
  return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
}

export { candidateName } from './name';

export const plural = (count: number, one: string, many = `${one}s`) => `${countWords(count)} ${count === 1 ? one : many}`;

/** A calendar date ("1989-01-24") in words ("Jan 24, 1989"), read as a date, not as a UTC midnight. */
export function formatBirthDate(date: string | null | undefined): string {
  if (!date) return '—';
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** An imported column's key as a label: "siteId" or "site_id" -> "Site id"; acronyms stay ("patientMRN" -> "Patient MRN"). */
export function customFieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  const label = words.join(' ');
  return label ? label[0]!.toUpperCase() + label.slice(1) : key;
}
