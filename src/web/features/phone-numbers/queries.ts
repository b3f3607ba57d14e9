import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AssignPhoneNumberInput, UpdatePhoneNumberInput } from '../../../contract/phone-numbers';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const phoneNumberKeys = {
  list: (activeId: string | null, organizationId: string | undefined) => ['org', activeId, 'phone-numbers', { organizationId }] as const,
};

/** The numbers in scope; `organizationId` narrows to one organization (the agent dialog's). */
export function usePhoneNumbersQuery(organizationId?: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: phoneNumberKeys.list(activeOrganizationId, organizationId),
      queryFn: ({ signal }) => api.call(endpoints.listPhoneNumbers, { query: { organizationId }, signal }),
      enabled: Boolean(activeOrganizationId),
    }),
  );
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => invalidateOrg(queryClient, undefined, 'phone-numbers', 'voice-agents');
}

/** Failures show inline in the dialogs (the server's message). */
export function useAssignPhoneNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: AssignPhoneNumberInput) => api.call(endpoints.createPhoneNumber, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useUpdatePhoneNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePhoneNumberInput }) => api.call(endpoints.updatePhoneNumber, { params: { id }, body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useReleasePhoneNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deletePhoneNumber, { params: { id } }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}
