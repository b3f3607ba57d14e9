import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, kept in step as the window is resized or turned. Without `matchMedia` (tests
 * outside a browser) it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  // One subscribe function per query: a new one each render would make React unsubscribe and subscribe again.
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => (typeof window === 'undefined' || !window.matchMedia ? fallback : window.matchMedia(query).matches),
    () => fallback,
  );
}
