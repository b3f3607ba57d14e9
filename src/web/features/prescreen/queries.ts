import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateBookingInput, DecisionBody, RunManualPrescreenInput } from '../../../contract/prescreen';
import { api } from '../../lib/api';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

export interface ResultsParams {
  search?: string;
  candidateId?: string;
  sourceType?: string;
  aiRecommendation?: string;
  orgs?: string[];
  limit: number;
  offset: number;
}

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const prescreenKeys = {
  results: (activeId: string | null, params: ResultsParams) => ['org', activeId, 'prescreen-results', params] as const,
  review: (activeId: string | null, candidateId: string) => ['org', activeId, 'prescreen-review', candidateId] as const,
};

export function prescreenResultsQueryOptions(activeId: string | null, params: ResultsParams) {
  return orgQueryOptions({
    queryKey: prescreenKeys.results(activeId, params),
    queryFn: ({ signal }) => api.call(endpoints.listPrescreenResults, { query: { ...params }, signal }),
  });
}

export function prescreenReviewQueryOptions(activeId: string | null, candidateId: string) {
  return orgQueryOptions({
    queryKey: prescreenKeys.review(activeId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.listPrescreenReview, { query: { candidateId }, signal }),
  });
}

export function usePrescreenResultsQuery(params: ResultsParams) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...prescreenResultsQueryOptions(activeOrganizationId, params), enabled: Boolean(activeOrganizationId), placeholderData: keepPreviousData });
}

export function usePrescreenReviewQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...prescreenReviewQueryOptions(activeOrganizationId, candidateId), enabled: Boolean(activeOrganizationId && candidateId) });
}

/** Results, reviews, candidates (status) and their contact history all move after a run, decision or booking. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    invalidateOrg(
      queryClient,
      undefined,
      'prescreen-results',
      'prescreen-review',
      'candidate',
      'candidates',
      'contact-history',
      'prescreen-forms',
      'prescreen-form',
    );
}

export function useRunPrescreen() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: RunManualPrescreenInput) => api.call(endpoints.recordPrescreenResult, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useDecide() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: DecisionBody) => api.call(endpoints.decidePrescreenReview, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useBook() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: CreateBookingInput) => api.call(endpoints.bookPrescreenVisit, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}
