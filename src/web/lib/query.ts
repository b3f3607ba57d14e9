import { MutationCache, QueryCache, QueryClient, queryOptions, type QueryKey, type UndefinedInitialDataOptions } from '@tanstack/react-query';
import { ApiRequestError } from './api';
import { errorMessage } from './utils';

function report(error: unknown, silent?: unknown) {
  // A refusal (4xx) is the answer to what the person typed or may do, shown in the toast or inline: not a fault.
  if (error instanceof ApiRequestError && error.status < 500) console.warn(error);
  else console.error(error);
  // sonner loads lazily (it is not part of the first page's JavaScript; see main.tsx).
  if (!silent) void import('sonner').then(({ toast }) => toast.error(errorMessage(error)));
}

/** Fresh for 5 minutes, one retry (docs/product-spec.md §9); failures are logged and toasted (docs/product-spec.md §8). */
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
export const retryUnlessClientError = (failureCount: number, error: unknown) =>
  !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failureCount < 1;

/**
 * A query of organization data (its key `['org', activeId, kind, ...]`): no retry on a 4xx, and silent, since
 * the page shows the failure itself (an error card, an inline message). `options` may override either.
 */
export function orgQueryOptions<TQueryFnData, TQueryKey extends QueryKey, TData = TQueryFnData>(
  options: UndefinedInitialDataOptions<TQueryFnData, Error, TData, TQueryKey>,
) {
  return queryOptions<TQueryFnData, Error, TData, TQueryKey>({ retry: retryUnlessClientError, meta: { silent: true }, ...options });
}

/** What follows the active id in an organization query key: a kind (`'trials'`), or a kind and more (`['trial', id]`). */
export type OrgKeyPrefix = string | readonly unknown[];

/** Whether `queryKey` is an organization query (under `activeId`, when given) that starts with one of `prefixes` (any, when none). */
export function isOrgQuery(queryKey: QueryKey, activeId: string | null | undefined, prefixes: readonly OrgKeyPrefix[]): boolean {
  if (queryKey[0] !== 'org' || (activeId !== undefined && queryKey[1] !== activeId)) return false;
  return (
    prefixes.length === 0 || prefixes.some((prefix) => (typeof prefix === 'string' ? [prefix] : prefix).every((part, index) => queryKey[index + 2] === part))
  );
}

/**
 * Refetches organization queries after a change: those starting with one of `prefixes`, under every active
 * organization (`organizationId` undefined: an admin's other organizations may show the same rows) or one.
 */
export function invalidateOrg(queryClient: QueryClient, organizationId: string | null | undefined, ...prefixes: OrgKeyPrefix[]) {
  return queryClient.invalidateQueries({ predicate: (query) => isOrgQuery(query.queryKey, organizationId, prefixes) });
}

/** Drops organization queries of a deleted record (e.g. `['trial', id]`), so nothing shows it again. */
export function removeOrg(queryClient: QueryClient, organizationId: string | null | undefined, ...prefixes: OrgKeyPrefix[]) {
  queryClient.removeQueries({ predicate: (query) => isOrgQuery(query.queryKey, organizationId, prefixes) });
}

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
