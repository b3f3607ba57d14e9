import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DemoSampleCandidate, DemoSamples, DemoStatus, DemoVoiceCallInput } from '../../../contract/demo';
import type { PrescreenResult, PrescreenResultList } from '../../../contract/prescreen';
import type { Call } from '../../../contract/voice';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions, retryUnlessClientError } from '../../lib/query';

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
      queryFn: ({ signal }) => api.get<DemoStatus>('/api/demo/', { signal }),
      enabled: Boolean(activeOrganizationId),
      staleTime: 0,
    }),
  );
}

export function useDemoSamplesQuery() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: demoKeys.samples(activeOrganizationId),
      queryFn: ({ signal }) => api.get<DemoSamples>('/api/demo/samples', { signal }),
      enabled: Boolean(activeOrganizationId),
      staleTime: 0,
    }),
  );
}

/** Resetting changes every demo row: every organization query is refetched. */
export function useResetDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<DemoStatus>('/api/demo/reset'),
    onSuccess: (status) => {
      void invalidateOrg(queryClient, undefined);
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      return status;
    },
    meta: { silent: true },
  });
}

export function useStartDemoCall() {
  return useMutation({
    mutationFn: (input: DemoVoiceCallInput) => api.post<Call>('/api/demo/voice-call', input),
    meta: { silent: true },
  });
}

export function useCreateSampleCandidate() {
  return useMutation({
    mutationFn: (trialId: string) => api.post<DemoSampleCandidate>('/api/demo/sample-candidate', { trialId }),
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
        .get<PrescreenResultList>('/api/prescreen/results', {
          query: { candidateId: candidateId!, orgs: organizationId ? [organizationId] : undefined, limit: 1 },
          signal,
        })
        .then((list) => list.results[0] ?? null),
    enabled: Boolean(activeOrganizationId && candidateId && organizationId && enabled),
    refetchInterval: (query) => (poll && !query.state.data ? 1500 : false),
    staleTime: 0,
    retry: retryUnlessClientError,
    meta: { silent: true },
  });
}
