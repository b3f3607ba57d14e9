import { type QueryClient, keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SessionPayload } from '../../../../contract/session';
import { activeOrganizationFromSession, useActiveOrganization } from '../../../lib/active-organization';
import { sponsorDashboardOptions, sponsorSitesOptions, sponsorTrialsOptions } from './keys';

export function useSponsorTrials() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...sponsorTrialsOptions(activeOrganizationId), enabled: Boolean(activeOrganizationId) });
}

export function useSponsorSites(trialId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...sponsorSitesOptions(activeOrganizationId, trialId ?? ''), enabled: Boolean(activeOrganizationId && trialId) });
}

/** A deadline the dashboard asks with: a day (YYYY-MM-DD), else none (the server's default, a year from now). */
export const dashboardDeadline = (deadline: string | undefined) => (deadline && /^\d{4}-\d{2}-\d{2}$/.test(deadline) ? deadline : undefined);

export function useSponsorDashboard(trialId: string | undefined, siteIds: string[], deadline: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    ...sponsorDashboardOptions(activeOrganizationId, trialId ?? '', siteIds, deadline),
    enabled: Boolean(activeOrganizationId && trialId),
    placeholderData: keepPreviousData,
  });
}

/**
 * Starts the dashboard's answer as its route loads, right after the session (decision 186): an internal admin's
 * active organization is usually Cohortly's, a global scope, so the shell draws the page only after the organization
 * list, and the page would ask only then. The key is the page's own, with the organization the session names (decision
 * 181); when the session names none, the page asks as before.
 */
export function prefetchSponsorDashboard(
  queryClient: QueryClient,
  session: SessionPayload | null,
  search: { trial?: string; sites?: string[]; deadline?: string },
): void {
  const active = session ? activeOrganizationFromSession(session) : null;
  if (!active || !search.trial) return;
  void queryClient.prefetchQuery(sponsorDashboardOptions(active.id, search.trial, search.sites ?? [], dashboardDeadline(search.deadline)));
}
