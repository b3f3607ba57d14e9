import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationInput, UpdateOrganizationInput } from '../../../contract/organizations';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { invalidateOrg, queryKeys } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

export function useOrganizationsQuery() {
  const { session, isAuthenticated } = useAuth();
  return useQuery({
    queryKey: queryKeys.organizations(session?.user.id),
    queryFn: () => api.call(endpoints.listOrganizations),
    enabled: isAuthenticated,
    select: (data) => data.organizations,
  });
}

export function useOrganizationQuery(activeId: string | null, id: string | null) {
  return useQuery({
    queryKey: queryKeys.organization(activeId, id ?? ''),
    queryFn: () => api.call(endpoints.getOrganization, { params: { id: id! } }),
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
    mutationFn: (input: CreateOrganizationInput) => api.call(endpoints.createOrganization, { body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateOrganizationInput & { id: string }) => api.call(endpoints.updateOrganization, { params: { id }, body: input }),
    onSuccess: invalidate,
  });
}

export function useDeleteOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteOrganization, { params: { id } }),
    onSuccess: invalidate,
  });
}
