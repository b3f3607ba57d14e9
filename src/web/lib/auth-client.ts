import { createAuthClient } from 'better-auth/react';
import type { SessionPayload } from '../../contract/session';
import { fetchTakingEarlySession } from './early-session';

export const AUTH_BASE_PATH = '/api/auth';

/**
 * better-auth's client. It rejects an unparseable or non-http base URL itself (docs/product-spec.md §5), so a bad
 * origin fails loudly at start-up.
 */
export function makeAuthClient(baseURL: string, customFetchImpl?: typeof fetch) {
  return createAuthClient({ baseURL, basePath: AUTH_BASE_PATH, fetchOptions: customFetchImpl ? { customFetchImpl } : undefined });
}

export const authClient = makeAuthClient(window.location.origin, fetchTakingEarlySession(window, window.location.origin, `${AUTH_BASE_PATH}/get-session`));

interface SessionAtomValue {
  data: unknown;
  isPending: boolean;
  refetch: () => Promise<unknown>;
}
const sessionAtom = authClient.$store.atoms.session as unknown as { get(): SessionAtomValue; listen(listener: (value: SessionAtomValue) => void): () => void };

/** The latest session known to the auth client, read synchronously (route guards use it). */
export function currentSession(): SessionPayload | null {
  const value = sessionAtom.get();
  const data = value?.data as SessionPayload | null | undefined;
  return data?.user ? data : null;
}

/** Refetches the session now and answers it (used right after sign-in, sign-up and sign-out). */
export async function refreshSession(): Promise<SessionPayload | null> {
  await sessionAtom.get().refetch();
  return currentSession();
}

/**
 * Asks for the session now (the auth client fetches it when its store is first watched) instead of at React's first
 * render, and calls `onSignedIn` once, when a signed-in session first arrives: on a phone's link the page's first
 * requests then start one step earlier (decision 167).
 */
export function loadSessionEarly(onSignedIn: (session: SessionPayload) => void) {
  let told = false;
  sessionAtom.listen(() => {
    const session = currentSession();
    if (told || !session) return;
    told = true;
    onSignedIn(session);
  });
}
