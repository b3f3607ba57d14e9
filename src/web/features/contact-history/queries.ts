import { useQuery } from '@tanstack/react-query';
import type { ContactEvent } from '../../../contract/candidates';
import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import { candidateKeys } from '../candidates/queries';

export function contactHistoryQueryOptions(activeId: string | null, candidateId: string) {
  return orgQueryOptions({
    // Shares the candidate keys' shape, so candidate changes refresh the history too.
    queryKey: candidateKeys.history(activeId, candidateId),
    queryFn: ({ signal }) => api.get<{ candidateId: string; events: ContactEvent[] }>('/api/contact-history', { query: { candidateId, order: 'asc' }, signal }),
  });
}

export function useContactHistoryQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...contactHistoryQueryOptions(activeOrganizationId, candidateId), enabled: Boolean(activeOrganizationId && candidateId), staleTime: 0 });
}
