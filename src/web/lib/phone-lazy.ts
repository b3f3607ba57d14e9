/**
 * The browser's 'libphonenumber-js' (aliased in vite.config.ts): the library and its metadata (~29 kB gz)
 * load in the background as soon as a page that handles phone numbers loads, instead of being part of
 * that page's first JavaScript (the bundle budget, scripts/check-bundle-budget.ts).
 *
 * Until it has arrived (a moment after the page starts, before its data usually), numbers already in
 * E.164 are read as they are and anything else is not accepted yet; the server validates every phone
 * number again with the full library.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js';
import { useSyncExternalStore } from 'react';

type Library = typeof import('libphonenumber-js/min');
let library: Library | undefined;

export const phoneLibrary: Promise<Library> = import('libphonenumber-js/min').then((module) => {
  library = module;
  return module;
});

const E164 = /^\+[1-9]\d{7,14}$/;

function e164Only(text: string): PhoneNumber | undefined {
  const compact = text.replace(/[\s().-]/g, '');
  if (!E164.test(compact)) return undefined;
  const grouped = compact.startsWith('+1') && compact.length === 12 ? `+1 ${compact.slice(2, 5)} ${compact.slice(5, 8)} ${compact.slice(8)}` : compact;
  return {
    number: compact,
    country: undefined,
    isValid: () => true,
    formatNational: () => grouped,
    formatInternational: () => grouped,
  } as unknown as PhoneNumber;
}

export function parsePhoneNumberFromString(text: string, defaultCountry?: CountryCode): PhoneNumber | undefined {
  if (library) return library.parsePhoneNumberFromString(text, defaultCountry);
  return e164Only(text);
}

export type { CountryCode, PhoneNumber };

const arrivals = new Set<() => void>();
void phoneLibrary.then(() => {
  for (const notify of arrivals) notify();
});

/**
 * Whether the library has arrived; a component that shows formatted numbers calls it to render again when it
 * does (a dialog opened in the page's first moment would otherwise keep showing the E.164 stand-in).
 */
export function usePhoneLibrary(): boolean {
  return useSyncExternalStore(
    (notify) => {
      arrivals.add(notify);
      return () => arrivals.delete(notify);
    },
    () => library !== undefined,
  );
}
