import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationInput, Organization, UpdateOrganizationInput } from '../../../contract/organizations';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { invalidateOrg, queryKeys } from '../../lib/query';

export function useOrganizationsQuery() {
  const { session, isAuthenticated } = useAuth();
  return useQuery({
    queryKey: queryKeys.organizations(session?.user.id),
    queryFn: () => api.get<{ organizations: Organization[] }>('/api/organizations/'),
    enabled: isAuthenticated,
    select: (data) => data.organizations,
  });
}

export function useOrganizationQuery(activeId: string | null, id: string | null) {
  return useQuery({
    queryKey: queryKeys.organization(activeId, id ?? ''),
    queryFn: () => api.get<Organization>(`/api/organizations/${encodeURIComponent(id!)}`),
    enabled: Boolean(id),
  });
}

function useInvalidateOrganizations() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['organizations'] }), invalidateOrg(queryClient, undefined, 'organization')]);
}

export function useCreateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: (input: CreateOrganizationInput) => api.post<Organization>('/api/organizations/', input),
    onSuccess: invalidate,
  });
}

export function useUpdateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateOrganizationInput & { id: string }) => api.patch<Organization>(`/api/organizations/${encodeURIComponent(id)}`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/organizations/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  });
}
