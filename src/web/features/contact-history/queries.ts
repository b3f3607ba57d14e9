import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import { candidateKeys } from '../candidates/queries';
import * as endpoints from '../../lib/api-operations.gen';

export function contactHistoryQueryOptions(activeId: string | null, candidateId: string) {
  return orgQueryOptions({
    // Shares the candidate keys' shape, so candidate changes refresh the history too.
    queryKey: candidateKeys.history(activeId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.listContactHistory, { query: { candidateId, order: 'asc' }, signal }),
  });
}

export function useContactHistoryQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...contactHistoryQueryOptions(activeOrganizationId, candidateId), enabled: Boolean(activeOrganizationId && candidateId), staleTime: 0 });
}
