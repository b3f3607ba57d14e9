import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { AnyRouter } from '@tanstack/react-router';
import type { SessionPayload } from '../../contract/session';
import { authClient, currentSession, refreshSession } from './auth-client';
import { queryClient } from './query';

export { authClient } from './auth-client';

export interface AuthState {
  /** True while the session loads for the first time. */
  isPending: boolean;
  /** A user exists and loading is done (docs/product-spec.md §4). */
  isAuthenticated: boolean;
  session: SessionPayload | null;
  /** Calls sign-out, then refreshes route data (docs/product-spec.md §4). */
  signOut: () => Promise<void>;
  /** Refetches the session now. */
  refresh: () => Promise<SessionPayload | null>;
  /** The latest session straight from the auth client's store, never stale (route guards use it). */
  getSession: () => SessionPayload | null;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children, router }: { children: ReactNode; router: AnyRouter }) {
  const { data, isPending } = authClient.useSession();
  const session = data && (data as unknown as SessionPayload).user ? (data as unknown as SessionPayload) : null;

  const signOut = useCallback(async () => {
    try {
      await authClient.signOut();
    } finally {
      await refreshSession();
      queryClient.clear();
      await router.invalidate();
    }
  }, [router]);

  const value = useMemo<AuthState>(
    () => ({
      isPending,
      isAuthenticated: !isPending && session !== null,
      session,
      signOut,
      refresh: refreshSession,
      getSession: currentSession,
    }),
    [isPending, session, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
