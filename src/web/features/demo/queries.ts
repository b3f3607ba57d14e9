import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DemoVoiceCallInput } from '../../../contract/demo';
import type { PrescreenResult } from '../../../contract/prescreen';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { orgQueryOptions, retryUnlessClientError } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/** Query keys: the active organization id second, like every organization query. */
export const demoKeys = {
  status: (activeId: string | null) => ['org', activeId, 'demo', 'status'] as const,
  samples: (activeId: string | null) => ['org', activeId, 'demo', 'samples'] as const,
};

export function useDemoStatusQuery() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: demoKeys.status(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.getDemoStatus, { signal }),
      enabled: Boolean(activeOrganizationId),
      staleTime: 0,
      // While a reset runs, its progress is read every second.
      refetchInterval: (query) => (['pending', 'running'].includes(query.state.data?.reset?.status ?? '') ? 1000 : false),
    }),
  );
}

export function useDemoSamplesQuery() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: demoKeys.samples(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.listDemoSamples, { signal }),
      enabled: Boolean(activeOrganizationId),
      staleTime: 0,
    }),
  );
}

/**
 * Starts a reset (a processing run): the answer is the status with the run going, which the status query then
 * polls; the organization queries are refetched once it ends (DemoHubPage). A new demo organization is listed at once.
 */
export function useResetDemo() {
  const queryClient = useQueryClient();
  const { activeOrganizationId } = useActiveOrganization();
  return useMutation({
    mutationFn: () => api.call(endpoints.resetDemo),
    onSuccess: (status) => {
      queryClient.setQueryData(demoKeys.status(activeOrganizationId), status);
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
    },
    meta: { silent: true },
  });
}

export function useStartDemoCall() {
  return useMutation({
    mutationFn: (input: DemoVoiceCallInput) => api.call(endpoints.startDemoVoiceCall, { body: input }),
    meta: { silent: true },
  });
}

export function useCreateSampleCandidate() {
  return useMutation({
    mutationFn: (trialId: string) => api.call(endpoints.addDemoSampleCandidate, { body: { trialId } }),
    meta: { silent: true },
  });
}

/** The newest prescreen result of a demo candidate (global admins' lists leave demo organizations out unless named). */
export function useDemoResultQuery(
  candidateId: string | null,
  organizationId: string | null,
  { enabled = true, poll = false }: { enabled?: boolean; poll?: boolean } = {},
) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery<PrescreenResult | null>({
    queryKey: ['org', activeOrganizationId, 'demo', 'result', candidateId],
    queryFn: ({ signal }) =>
      api
        .call(endpoints.listPrescreenResults, { query: { candidateId: candidateId!, orgs: organizationId ? [organizationId] : undefined, limit: 1 }, signal })
        .then((list) => list.results[0] ?? null),
    enabled: Boolean(activeOrganizationId && candidateId && organizationId && enabled),
    refetchInterval: (query) => (poll && !query.state.data ? 1500 : false),
    staleTime: 0,
    retry: retryUnlessClientError,
    meta: { silent: true },
  });
}
