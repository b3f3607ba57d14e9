import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useActiveOrganization } from '../../../lib/active-organization';
import { sponsorDashboardOptions, sponsorSitesOptions, sponsorTrialsOptions } from './keys';

export function useSponsorTrials() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...sponsorTrialsOptions(activeOrganizationId), enabled: Boolean(activeOrganizationId) });
}

export function useSponsorSites(trialId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...sponsorSitesOptions(activeOrganizationId, trialId ?? ''), enabled: Boolean(activeOrganizationId && trialId) });
}

export function useSponsorDashboard(trialId: string | undefined, siteIds: string[], deadline: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    ...sponsorDashboardOptions(activeOrganizationId, trialId ?? '', siteIds, deadline),
    enabled: Boolean(activeOrganizationId && trialId),
    placeholderData: keepPreviousData,
  });
}
