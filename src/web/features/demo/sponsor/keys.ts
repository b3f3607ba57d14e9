import { api } from '../../../lib/api';
import { orgQueryOptions } from '../../../lib/query';
import * as endpoints from '../../../lib/api-operations.gen';

/*
 * The sponsor demo's queries. Keys carry the active organization like every organization query (switching
 * organizations drops them), though the data is always the demo organization's. No zod here: types only.
 */
export const sponsorDemoKeys = {
  all: (activeId: string | null) => ['org', activeId, 'sponsor-demo'] as const,
  trials: (activeId: string | null) => ['org', activeId, 'sponsor-demo', 'trials'] as const,
  sites: (activeId: string | null, trialId: string) => ['org', activeId, 'sponsor-demo', 'sites', trialId] as const,
  dashboard: (activeId: string | null, trialId: string, siteIds: string[], deadline: string | undefined) =>
    ['org', activeId, 'sponsor-demo', 'dashboard', trialId, siteIds, deadline ?? null] as const,
};

export const sponsorTrialsOptions = (activeId: string | null) =>
  orgQueryOptions({ queryKey: sponsorDemoKeys.trials(activeId), queryFn: ({ signal }) => api.call(endpoints.listSponsorDemoTrials, { signal }) });

export const sponsorSitesOptions = (activeId: string | null, trialId: string) =>
  orgQueryOptions({
    queryKey: sponsorDemoKeys.sites(activeId, trialId),
    queryFn: ({ signal }) => api.call(endpoints.listSponsorDemoTrialSites, { params: { id: trialId }, signal }),
  });

export const sponsorDashboardOptions = (activeId: string | null, trialId: string, siteIds: string[], deadline: string | undefined) =>
  orgQueryOptions({
    queryKey: sponsorDemoKeys.dashboard(activeId, trialId, siteIds, deadline),
    queryFn: ({ signal }) => api.call(endpoints.getSponsorDemoTrialDashboard, { params: { id: trialId }, query: { siteIds, deadline }, signal }),
  });
