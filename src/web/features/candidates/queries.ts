import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Candidate, CandidateListItem, CandidateStatus, CreateCandidateInput, UpdateCandidateInput } from '../../../contract/candidates';
import { type ApiBody, api, getActiveOrganizationId, organizationHeader } from '../../lib/api';
import { invalidateOrg, orgQueryOptions, removeOrg } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

export type CandidateSort = 'createdAt:desc' | 'createdAt:asc' | 'lastName:asc' | 'lastName:desc' | 'updatedAt:desc' | 'status:asc';
export const CANDIDATE_SORT_CHOICES: Array<{ value: CandidateSort; label: string }> = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'lastName:asc', label: 'Last name A–Z' },
  { value: 'lastName:desc', label: 'Last name Z–A' },
  { value: 'updatedAt:desc', label: 'Recently updated' },
  { value: 'status:asc', label: 'Status' },
];

export interface CandidateListParams {
  search?: string;
  status?: CandidateStatus;
  trialId?: string;
  sort: CandidateSort;
  orgs?: string[];
  limit: number;
  cursor?: string;
}

export interface CandidateList {
  candidates: CandidateListItem[];
  total: number;
  /** `total` is a floor: more candidates match (shown as "10,000+"). */
  totalAtLeast?: boolean;
  nextCursor?: string;
}

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const candidateKeys = {
  list: (activeId: string | null, params: CandidateListParams) => ['org', activeId, 'candidates', params] as const,
  detail: (activeId: string | null, id: string) => ['org', activeId, 'candidate', id] as const,
  history: (activeId: string | null, id: string) => ['org', activeId, 'contact-history', id] as const,
};

export function candidatesQueryOptions(activeId: string | null, params: CandidateListParams) {
  const { sort, ...filters } = params;
  const [sortBy, sortDir] = sort.split(':');
  return orgQueryOptions({
    queryKey: candidateKeys.list(activeId, params),
    queryFn: ({ signal }) => api.call(endpoints.listCandidates, { query: { ...filters, sortBy, sortDir }, signal, headers: organizationHeader(activeId) }),
  });
}

/** Candidates a page. */
export const CANDIDATE_PAGE_SIZE = 50;

/** The list's request for the filters (the organizations only in a global scope) and a page's cursor. */
export function candidateListParams(
  filters: { search?: string; status?: CandidateStatus; trialId?: string; sort: CandidateSort; orgs?: string[] },
  isGlobal: boolean,
  cursor?: string,
): CandidateListParams {
  const { search, status, trialId, sort, orgs } = filters;
  return { search, status, trialId, sort, orgs: isGlobal ? orgs : undefined, limit: CANDIDATE_PAGE_SIZE, cursor };
}

export function candidateQueryOptions(activeId: string | null, id: string) {
  return orgQueryOptions({
    queryKey: candidateKeys.detail(activeId, id),
    queryFn: ({ signal }) => api.call(endpoints.getCandidate, { params: { candidateId: id }, signal }),
  });
}

export function useCandidatesQuery(params: CandidateListParams) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...candidatesQueryOptions(activeOrganizationId, params), enabled: Boolean(activeOrganizationId), placeholderData: keepPreviousData });
}

export function useCandidateQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...candidateQueryOptions(activeOrganizationId, id), enabled: Boolean(activeOrganizationId && id) });
}

/** Candidate lists and histories, and trials (whose candidate counts move). */
const CANDIDATE_LISTS = ['candidates', 'contact-history', 'trials', 'trial'] as const;

/** After any change: every candidate list, detail and history (and trials, whose candidate counts move) refetch. */
function refreshCandidates(queryClient: QueryClient) {
  return invalidateOrg(queryClient, undefined, 'candidate', ...CANDIDATE_LISTS);
}

function storeCandidate(queryClient: QueryClient, candidate: Candidate) {
  queryClient.setQueryData(candidateKeys.detail(getActiveOrganizationId(), candidate.id), candidate);
  return invalidateOrg(queryClient, undefined, ...CANDIDATE_LISTS);
}

/** Where a new candidate goes: one organization (global admins choose), or the active organization. */
export function useCreateCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, input }: { organizationId?: string; input: CreateCandidateInput }) =>
      api.call(endpoints.createCandidate, { body: input, query: { organizationId } }),
    onSuccess: (candidate) => storeCandidate(queryClient, candidate),
    // The form shows the server's messages inline.
    meta: { silent: true },
  });
}

export function useUpdateCandidate({ silent = false }: { silent?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateCandidateInput }) =>
      api.call(endpoints.updateCandidate, { params: { candidateId: id }, body: input }),
    onSuccess: (candidate) => storeCandidate(queryClient, candidate),
    meta: { silent },
  });
}

export function useDeleteCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteCandidate, { params: { candidateId: id } }),
    onSuccess: (_answer, id) => {
      removeOrg(queryClient, undefined, ['candidate', id], ['contact-history', id]);
      return refreshCandidates(queryClient);
    },
  });
}

export interface BulkUpdateInput {
  candidateIds: string[];
  status?: CandidateStatus;
  statusReason?: string;
  addTrialId?: string;
  removeTrialId?: string;
}

export function useBulkUpdateCandidates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkUpdateInput) => api.call(endpoints.bulkUpdateCandidates, { body: input }),
    onSuccess: () => refreshCandidates(queryClient),
  });
}

export function useBulkDeleteCandidates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (candidateIds: string[]) => api.call(endpoints.bulkDeleteCandidates, { body: { candidateIds } }),
    onSuccess: () => refreshCandidates(queryClient),
  });
}

export function useResetCandidateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    // The endpoint works on one organization at a time: a global admin's selection goes one organization per call.
    mutationFn: async (candidates: Array<{ id: string; organizationId: string }>) => {
      const byOrganization = new Map<string, string[]>();
      for (const candidate of candidates) byOrganization.set(candidate.organizationId, [...(byOrganization.get(candidate.organizationId) ?? []), candidate.id]);
      const total = { reset: 0, unchanged: [] as string[], skippedDoNotContact: [] as string[] };
      for (const [organizationId, candidateIds] of byOrganization) {
        const result = await api.call(endpoints.resetCandidateStatuses, { body: { candidateIds }, query: { organizationId } });
        total.reset += result.reset;
        total.unchanged.push(...result.unchanged);
        total.skippedDoNotContact.push(...result.skippedDoNotContact);
      }
      return total;
    },
    onSuccess: () => refreshCandidates(queryClient),
  });
}

export function useAddNote(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.call(endpoints.addPrescreenNote, { params: { candidateId }, body: { text } }),
    onSuccess: () => refreshCandidates(queryClient),
  });
}

export function useDeleteNote(candidateId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: number) => api.call(endpoints.deletePrescreenNote, { params: { candidateId, noteIndex: index } }),
    onSuccess: () => refreshCandidates(queryClient),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Import

export interface ImportRequest {
  format: 'csv' | 'json';
  data: string | Array<Record<string, string | number | boolean | null>>;
  mapping?: ApiBody<'importCandidates'>['mapping'];
  duplicates: 'merge' | 'skip';
  defaultCountry: string;
  trialId?: string;
  label?: string;
  organizationId?: string;
  consentSource?: string;
  consentDate?: string;
  previewOffset?: number;
  previewLimit?: number;
}

export function usePreviewImport() {
  return useMutation({
    mutationFn: (input: ImportRequest) => api.call(endpoints.previewCandidateImport, { body: input }),
    meta: { silent: true },
  });
}

export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportRequest) => api.call(endpoints.importCandidates, { body: input }),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'processing-runs'),
    meta: { silent: true },
  });
}

export { refreshCandidates };
