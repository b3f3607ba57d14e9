import { localTimeToUtc, toLocalTime } from '../../../contract/time-zones';
import type { CallbackReason, CallbackStatus } from '../../../contract/callbacks';

export const CALLBACK_STATUS_LABELS: Record<CallbackStatus, string> = {
  pending: 'Pending',
  calling: 'Calling',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const CALLBACK_STATUS_TONES: Record<CallbackStatus, 'slate' | 'blue' | 'green' | 'amber'> = {
  pending: 'blue',
  calling: 'blue',
  done: 'green',
  failed: 'amber',
  cancelled: 'slate',
};

export const CALLBACK_REASON_LABELS: Record<CallbackReason, string> = {
  requested: 'Requested',
  missed_call: 'Missed call',
  outside_calling_hours: 'Outside calling hours',
};

export const CALLBACK_FILTER_LABELS = {
  all: 'All',
  failedPrescreen: 'Failed prescreens',
  failedScheduling: 'Failed scheduling',
} as const;

/** The zone the server applies calling hours in when a candidate has none (features/sms/consent.ts). */
export const DEFAULT_CANDIDATE_TIME_ZONE = 'America/New_York';

export const isOpenCallback = (status: CallbackStatus) => status === 'pending' || status === 'calling';

/** The browser's IANA zone (UTC when the browser does not say). */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A zone the browser knows, else the default. */
export function knownTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return DEFAULT_CANDIDATE_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return DEFAULT_CANDIDATE_TIME_ZONE;
  }
}

export const zoneLabel = (timeZone: string) => timeZone.replace(/_/g, ' ');

/** "Nov 23, 2026, 3:00 PM" in `timeZone` (the viewer's when omitted). */
export function formatInZone(value: string | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  try {
    return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
  } catch {
    return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
}

/** The instant a datetime-local value ("2026-11-23T15:00") names in `timeZone`; null when it is not one (or the clocks skip it). */
export function wallTimeToInstant(value: string, timeZone: string): Date | null {
  const converted = localTimeToUtc(value.slice(0, 16), timeZone);
  return converted.ok ? converted.instant : null;
}

/** The datetime-local value ("2026-11-23T15:00") of `date` on the clocks of `timeZone`. */
export const instantToWallTime = (date: Date, timeZone: string): string => toLocalTime(date, timeZone);

/** Tomorrow at `hour`:00 on the clocks of `timeZone`, as a datetime-local value. */
export function tomorrowAt(hour: number, timeZone: string, now = new Date()): string {
  const today = instantToWallTime(now, timeZone).slice(0, 10);
  const next = new Date(`${today}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`;
}
