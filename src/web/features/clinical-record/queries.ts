import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateCandidateFactInput } from '../../../contract/matching';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, retryUnlessClientError } from '../../lib/query';
import { refreshCandidates } from '../candidates/queries';
import * as endpoints from '../../lib/api-operations.gen';

/** Query keys: the active organization id second, as everywhere; the matcher's answers live under 'trial-matcher'. */
export const clinicalRecordKeys = {
  record: (activeId: string | null, candidateId: string) => ['org', activeId, 'clinical-record', candidateId] as const,
  otherTrials: (activeId: string | null, candidateId: string) => ['org', activeId, 'trial-matcher', 'other-trials', candidateId] as const,
};

export function clinicalRecordQueryOptions(activeId: string | null, candidateId: string) {
  return queryOptions({
    queryKey: clinicalRecordKeys.record(activeId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.getClinicalRecord, { params: { candidateId }, signal }),
    retry: retryUnlessClientError,
    // The card shows its own error with a retry.
    meta: { silent: true },
  });
}

export function useClinicalRecordQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...clinicalRecordQueryOptions(activeOrganizationId, candidateId), enabled: Boolean(activeOrganizationId && candidateId) });
}

export function useOtherTrialsQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: clinicalRecordKeys.otherTrials(activeOrganizationId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.listCandidateOtherTrials, { params: { candidateId }, signal }),
    retry: retryUnlessClientError,
    meta: { silent: true },
    enabled: Boolean(activeOrganizationId && candidateId),
  });
}

/** Facts decide matches: after any change the clinical records and every matcher answer refetch. */
function refreshClinical(queryClient: QueryClient) {
  return invalidateOrg(queryClient, undefined, 'clinical-record', 'trial-matcher');
}

export function useAddClinicalNote(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api.call(endpoints.addClinicalNote, { params: { candidateId }, body: { body } }),
    onSuccess: () => refreshClinical(queryClient),
    // The form shows the server's message under the note.
    meta: { silent: true },
  });
}

export function useDeleteClinicalNote(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noteId: string) => api.call(endpoints.deleteClinicalNote, { params: { candidateId, noteId } }),
    onSuccess: () => refreshClinical(queryClient),
  });
}

export function useAddFact(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCandidateFactInput) => api.call(endpoints.addClinicalFact, { params: { candidateId }, body: input }),
    onSuccess: () => refreshClinical(queryClient),
    // The dialog shows the server's messages inline.
    meta: { silent: true },
  });
}

export function useDeleteFact(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (factId: string) => api.call(endpoints.deleteClinicalFact, { params: { candidateId, factId } }),
    onSuccess: () => refreshClinical(queryClient),
  });
}

/** One patient's FHIR R4 bundle: a new candidate, or new health-record facts of the one with the same phone or email. */
export function useImportFhirBundle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bundle, organizationId }: { bundle: unknown; organizationId?: string }) =>
      // A parsed file: the server checks that it is a FHIR bundle.
      api.call(endpoints.importFhirBundle, { body: bundle as Record<string, unknown>, query: { organizationId } }),
    onSuccess: () => Promise.all([refreshClinical(queryClient), refreshCandidates(queryClient)]),
    meta: { silent: true },
  });
}
