/**
 * The browser's 'libphonenumber-js' (aliased in vite.config.ts): the library and its metadata (~29 kB gz) load
 * only where a number is typed or read closely (a form or a profile calls usePhoneLibrary()), never with a list
 * page's first JavaScript: the candidate list shows the server's formatted `phoneDisplay` (issue 32), other
 * lists North American numbers in their national form and others in E.164 without it (issue 32: phone speed; the
 * bundle budget, scripts/check-bundle-budget.ts).
 *
 * Until it has arrived, numbers already in E.164 are read as they are and anything else is not accepted yet;
 * the server validates every phone number again with the full library.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js';
import { useSyncExternalStore } from 'react';

type Library = typeof import('libphonenumber-js/min');
let library: Library | undefined;
let loading: Promise<Library> | undefined;
const arrivals = new Set<() => void>();

/** Starts loading the library once; answers it when it has arrived. */
export function loadPhoneLibrary(): Promise<Library> {
  loading ??= import('libphonenumber-js/min').then((module) => {
    library = module;
    for (const notify of arrivals) notify();
    return module;
  });
  return loading;
}

const E164 = /^\+[1-9]\d{7,14}$/;

function e164Only(text: string): PhoneNumber | undefined {
  const compact = text.replace(/[\s().-]/g, '');
  if (!E164.test(compact)) return undefined;
  // North American numbers (+1 and ten digits) have one layout; others stay in E.164 until the library arrives.
  const northAmerican = compact.startsWith('+1') && compact.length === 12;
  const [area, exchange, line] = [compact.slice(2, 5), compact.slice(5, 8), compact.slice(8)];
  return {
    number: compact,
    country: undefined,
    countryCallingCode: northAmerican ? '1' : undefined,
    isValid: () => true,
    formatNational: () => (northAmerican ? `(${area}) ${exchange}-${line}` : compact),
    formatInternational: () => (northAmerican ? `+1 ${area} ${exchange} ${line}` : compact),
  } as unknown as PhoneNumber;
}

export function parsePhoneNumberFromString(text: string, defaultCountry?: CountryCode): PhoneNumber | undefined {
  if (library) return library.parsePhoneNumberFromString(text, defaultCountry);
  return e164Only(text);
}

export type { CountryCode, PhoneNumber };

/**
 * Whether the library has arrived; a component that shows formatted numbers calls it to render again when it
 * does (a dialog opened in the page's first moment would otherwise keep showing the E.164 stand-in).
 */
export function usePhoneLibrary(): boolean {
  return useSyncExternalStore(
    (notify) => {
      arrivals.add(notify);
      void loadPhoneLibrary();
      return () => arrivals.delete(notify);
    },
    () => library !== undefined,
  );
}
