import type { QueryClient } from '@tanstack/react-query';
import { isGlobalScope } from '../contract/permissions';
import { DASHBOARD_TABS } from '../contract/search';
import type { SessionPayload } from '../contract/session';
import { candidateListParams, candidatesQueryOptions } from './features/candidates/queries';
import { filtersOf } from './features/candidates/search';
import { cleanFilters, dashboardTabRequest } from './features/dashboard/queries';
import { trialsQueryOptions } from './features/trials/keys';
import { activeOrganizationFromSession } from './lib/active-organization';
import { orgQueryOptions } from './lib/query';
import type { router as appRouter } from './router';

type FirstData = (queryClient: QueryClient, activeId: string, search: Record<string, unknown>) => void;

/**
 * What each measured page asks for first, by route id. Its query options are the page's own (same key, same request),
 * so the page finds the answer in the cache or on its way. Imported statically: these small modules are in the first
 * JavaScript anyway (the routes' search validation and loaders use them), and an `await import()` here resolved only
 * after React had drawn the page, which is the wait this saves.
 */
const FIRST_DATA: Record<string, FirstData> = {
  '/_authed/candidates/': (queryClient, activeId, search) => {
    void queryClient.prefetchQuery(candidatesQueryOptions(activeId, candidateListParams(filtersOf(search), false)));
    void queryClient.prefetchQuery(trialsQueryOptions(activeId, undefined));
  },
  '/_authed/trials/': (queryClient, activeId) => void queryClient.prefetchQuery(trialsQueryOptions(activeId, undefined)),
  '/_authed/admin/dashboard': (queryClient, activeId, search) => {
    // The customers tab is a global scope's only.
    const tab = DASHBOARD_TABS.find((id) => id === search.tab && id !== 'customer-overview');
    if (tab) void queryClient.prefetchQuery(orgQueryOptions(dashboardTabRequest(activeId, tab, cleanFilters(search, false))));
  },
};

/**
 * Starts the opened page's data as soon as the session names the active organization (decision 181), instead of
 * after React has drawn the shell and the page: on a phone that render is a few hundred milliseconds. Only for a single
 * organization: a global scope's defaults come from the organization list. The request names the organization its
 * cache entry is filed under; the server refuses one the user may not act for.
 */
export function prefetchOpenedPage(router: typeof appRouter, queryClient: QueryClient, session: SessionPayload) {
  const active = activeOrganizationFromSession(session);
  if (!active || isGlobalScope(session.isAdmin, active.slug)) return;
  const { pathname, search } = router.state.location;
  for (const match of router.matchRoutes(pathname, search)) {
    FIRST_DATA[match.routeId]?.(queryClient, active.id, match.search as Record<string, unknown>);
  }
}
