import { api, organizationHeader } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/*
 * Query keys and the read queries, in a module of their own: the trial route's loader (in the first page's
 * JavaScript) reads the trial without the hooks of queries.ts. The active organization id is always the
 * second part of a key, so a switch never shows another's data.
 */
export const trialKeys = {
  list: (activeId: string | null, orgs: string[] | undefined) => ['org', activeId, 'trials', { orgs: orgs ?? null }] as const,
  detail: (activeId: string | null, trialId: string) => ['org', activeId, 'trial', trialId] as const,
  sites: (activeId: string | null, trialId: string, page: { q?: string; offset: number; limit: number }) =>
    ['org', activeId, 'trial', trialId, 'sites', page] as const,
};

export function trialsQueryOptions(activeId: string | null, orgs: string[] | undefined) {
  return orgQueryOptions({
    queryKey: trialKeys.list(activeId, orgs),
    queryFn: ({ signal }) => api.call(endpoints.listTrials, { query: { orgs }, signal, headers: organizationHeader(activeId) }),
    // Toasted: pickers and filters use the list without an error of their own.
    meta: { silent: false },
  });
}

export function trialQueryOptions(activeId: string | null, trialId: string) {
  return orgQueryOptions({
    queryKey: trialKeys.detail(activeId, trialId),
    queryFn: ({ signal }) => api.call(endpoints.getTrial, { params: { trialId }, signal }),
  });
}
