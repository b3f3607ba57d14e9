import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api';
import { errorMessage } from './utils';

function report(error: unknown, silent?: unknown) {
  console.error(error);
  // sonner loads lazily (it is not part of the first page's JavaScript; see main.tsx).
  if (!silent) void import('sonner').then(({ toast }) => toast.error(errorMessage(error)));
}

/** Fresh for 5 minutes, one retry (spec §9); failures are logged and toasted (spec §8). */
export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta?.silent) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => report(error, mutation.meta?.silent) }),
    defaultOptions: {
      queries: { staleTime: 5 * 60_000, retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: 0 },
    },
  });
}

export const queryClient = createQueryClient();

/** The spec's one retry, except for a 4xx: a missing or refused record will not appear by asking again. */
export const retryUnlessClientError = (failureCount: number, error: unknown) => !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failureCount < 1;

/** Query keys carry the active organization id, so switching organization never shows another's data. */
export const queryKeys = {
  organizations: (userId: string | undefined) => ['organizations', 'list', userId ?? 'anonymous'] as const,
  organization: (activeId: string | null, id: string) => ['org', activeId, 'organization', id] as const,
  users: (activeId: string | null) => ['org', activeId, 'users'] as const,
  me: (activeId: string | null) => ['org', activeId, 'me'] as const,
  sessions: (userId: string | undefined) => ['sessions', userId ?? 'anonymous'] as const,
  publicOrganization: (publicId: string) => ['public-organization', publicId] as const,
  invitation: (token: string) => ['invitation', token] as const,
};
