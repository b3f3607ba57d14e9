import { createAuthClient } from 'better-auth/react';
import type { SessionPayload } from '../../contract/session';

export const AUTH_BASE_PATH = '/api/auth';

/**
 * better-auth's client. It rejects an unparseable or non-http base URL itself (docs/product-spec.md §5), so a bad
 * origin fails loudly at start-up.
 */
export function makeAuthClient(baseURL: string) {
  return createAuthClient({ baseURL, basePath: AUTH_BASE_PATH });
}

export const authClient = makeAuthClient(window.location.origin);

interface SessionAtomValue {
  data: unknown;
  isPending: boolean;
  refetch: () => Promise<unknown>;
}
const sessionAtom = authClient.$store.atoms.session as unknown as { get(): SessionAtomValue };

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
