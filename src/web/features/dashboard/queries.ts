import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PRESETS, ACTIVITY_SOURCES, type ActivityPreset, type ActivitySource } from '../../../contract/activity';
import type { DashboardTab } from '../../../contract/dashboard';
import { type ApiResponse, api, type OperationRef, organizationHeader } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/** The dashboard's shared filters, as the URL keeps them (contract/search.ts `dashboardSearch`). */
export interface DashboardFilterValues {
  orgs?: string[];
  from?: string;
  to?: string;
  preset?: ActivityPreset;
  source?: ActivitySource;
}

/** Query keys: ['org', activeId, 'dashboard', tab, filters]. */
export const dashboardKeys = {
  all: (activeId: string | null) => ['org', activeId, 'dashboard'] as const,
  tab: (activeId: string | null, tab: DashboardTab, filters: DashboardFilterValues) => ['org', activeId, 'dashboard', tab, filters] as const,
};

export function filterQuery(filters: DashboardFilterValues) {
  return { orgs: filters.orgs, from: filters.from, to: filters.to, preset: filters.from ? undefined : filters.preset, source: filters.source };
}

/** Each tab's operation (GET /api/dashboard/<tab>), so a tab's data has its route's type. */
const TAB_OPERATIONS = {
  'funnel-breakdown': endpoints.getDashboardFunnelBreakdown,
  'prescreen-analytics': endpoints.getDashboardPrescreenAnalytics,
  'patient-satisfaction': endpoints.getDashboardPatientSatisfaction,
  'trial-lifecycle': endpoints.getDashboardTrialLifecycle,
  'trial-matcher': endpoints.getDashboardTrialMatcher,
  costs: endpoints.getDashboardCosts,
  'customer-overview': endpoints.getDashboardCustomerOverview,
} as const satisfies Record<DashboardTab, OperationRef>;
type TabOperation<T extends DashboardTab> = (typeof TAB_OPERATIONS)[T]['id'];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The URL's values, kept only when the API would accept them (an edited URL shows the defaults). */
export function cleanFilters(
  search: { orgs?: string[]; from?: string; to?: string; preset?: string; source?: string },
  isGlobal: boolean,
): DashboardFilterValues {
  const from = search.from && DAY.test(search.from) ? search.from : undefined;
  const to = search.to && DAY.test(search.to) ? search.to : undefined;
  return {
    orgs: isGlobal && search.orgs?.length ? search.orgs : undefined,
    from: from && to && from > to ? undefined : from,
    to,
    preset: (ACTIVITY_PRESETS as readonly string[]).includes(search.preset ?? '') ? (search.preset as ActivityPreset) : undefined,
    source: (ACTIVITY_SOURCES as readonly string[]).includes(search.source ?? '') ? (search.source as ActivitySource) : undefined,
  };
}

/** One tab's numbers for the filters, asked of the organization the key names (main.tsx may start it: decision 181). */
export function dashboardTabRequest<T extends DashboardTab>(activeId: string | null, tab: T, filters: DashboardFilterValues) {
  return {
    queryKey: dashboardKeys.tab(activeId, tab, filters),
    // One call shape for every tab; the answer's type is the tab's own operation's.
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.call(TAB_OPERATIONS[tab] as typeof endpoints.getDashboardCosts, {
        query: filterQuery(filters),
        signal,
        headers: organizationHeader(activeId),
      }) as Promise<ApiResponse<TabOperation<T>>>,
  };
}

export function useDashboardTab<T extends DashboardTab>(tab: T, filters: DashboardFilterValues) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      ...dashboardTabRequest(activeOrganizationId, tab, filters),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Downloads one tab as CSV with the same filters (a fetch, so the active organization header goes with it). */
export async function downloadCsv(tab: DashboardTab, filters: DashboardFilterValues) {
  const text = await api.call(endpoints.exportDashboard, { query: { tab, ...filterQuery(filters) }, headers: { Accept: 'text/csv' } });
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `cohortly-${tab}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
