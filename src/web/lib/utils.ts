import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** The message of anything thrown, in plain words: an API refusal's userMessage, Error, better-auth's `{ error: { message } }`, or a string. */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  if (!error) return fallback;
  if (typeof error === 'string') return error;
  const value = error as { error?: { message?: string } | null; message?: string; userMessage?: string };
  return value.userMessage || value.error?.message || value.message || fallback;
}

// One Intl formatter each, made on first use: `toLocaleDateString(locale, options)` builds a new one on every call,
// which a 50-row list pays 50 times (issue 32: phone speed). Same output: the browser's locale and time zone.
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return dateFormat.format(date);
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return dateTimeFormat.format(date);
}

/** A same-site path to return to after sign-in: must start with one '/' (not '//' or '/\'). */
export function safeRedirect(target: string | undefined | null): string {
  if (!target || typeof target !== 'string') return '/';
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  return target;
}
