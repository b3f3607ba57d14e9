import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MatchClass, NoteRereadStatus, TrialMatchOverview, WhatIfInput } from '../../../contract/matching';
import { useActiveOrganization } from '../../lib/active-organization';
import { api } from '../../lib/api';
import { invalidateOrg, retryUnlessClientError } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

export const MATCH_PAGE_SIZE = 50;

/** Every matcher query of a trial lives under one prefix, so a new run refreshes them all. */
export const matchKeys = {
  all: (activeId: string | null) => ['org', activeId, 'trial-matcher'] as const,
  trial: (activeId: string | null, trialId: string) => ['org', activeId, 'trial-matcher', trialId] as const,
  overview: (activeId: string | null, trialId: string) => ['org', activeId, 'trial-matcher', trialId, 'overview'] as const,
  matches: (activeId: string | null, trialId: string, params: MatchListParams) => ['org', activeId, 'trial-matcher', trialId, 'matches', params] as const,
  candidate: (activeId: string | null, trialId: string, candidateId: string) => ['org', activeId, 'trial-matcher', trialId, 'candidate', candidateId] as const,
  gaps: (activeId: string | null, trialId: string) => ['org', activeId, 'trial-matcher', trialId, 'gaps'] as const,
  candidateTrials: (activeId: string | null, candidateId: string) => ['org', activeId, 'trial-matcher', 'candidate-trials', candidateId] as const,
  noteRereads: (activeId: string | null) => ['org', activeId, 'trial-matcher', 'note-rereads'] as const,
};

export interface MatchListParams {
  matchClass?: MatchClass;
  criterionId?: string;
  q?: string;
  offset: number;
}

const isGoing = (overview: TrialMatchOverview | undefined) => overview?.latestRun?.status === 'pending' || overview?.latestRun?.status === 'running';

/** The trial's matching overview; polls every second while a run is going. */
export function useMatchOverview(trialId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.overview(activeOrganizationId, trialId),
    queryFn: ({ signal }) => api.call(endpoints.getTrialMatcher, { params: { trialId }, signal }),
    enabled: Boolean(activeOrganizationId),
    retry: retryUnlessClientError,
    staleTime: 0,
    refetchInterval: (query) => (isGoing(query.state.data) ? 1000 : false),
    meta: { silent: true },
  });
}

export function useMatches(trialId: string, params: MatchListParams, { enabled = true }: { enabled?: boolean } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.matches(activeOrganizationId, trialId, params),
    queryFn: ({ signal }) =>
      api.call(endpoints.listTrialMatches, {
        params: { trialId },
        query: { class: params.matchClass, criterionId: params.criterionId, q: params.q, limit: MATCH_PAGE_SIZE, offset: params.offset },
        signal,
      }),
    enabled: enabled && Boolean(activeOrganizationId),
    retry: retryUnlessClientError,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { silent: true },
  });
}

export function useCandidateMatch(trialId: string, candidateId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.candidate(activeOrganizationId, trialId, candidateId ?? ''),
    queryFn: ({ signal }) => api.call(endpoints.getCandidateMatch, { params: { trialId, candidateId: candidateId ?? '' }, signal }),
    enabled: Boolean(activeOrganizationId && candidateId),
    retry: retryUnlessClientError,
    staleTime: 0,
    meta: { silent: true },
  });
}

/**
 * The optional language-model judge (decision 097): the candidate's unknown criteria judged against their notes.
 * The answer is the candidate's evidence; the list's flags change with it.
 */
export function useLlmJudge(trialId: string) {
  const queryClient = useQueryClient();
  const { activeOrganizationId } = useActiveOrganization();
  return useMutation({
    mutationFn: (candidateId: string) => api.call(endpoints.judgeCandidateMatch, { params: { trialId, candidateId } }),
    onSuccess: (match) => {
      queryClient.setQueryData(matchKeys.candidate(activeOrganizationId, trialId, match.candidate.id), match);
      void queryClient.invalidateQueries({ queryKey: [...matchKeys.trial(activeOrganizationId, trialId), 'matches'] });
    },
    meta: { silent: true },
  });
}

export function useGapAnalysis(trialId: string, { enabled = true }: { enabled?: boolean } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.gaps(activeOrganizationId, trialId),
    queryFn: ({ signal }) => api.call(endpoints.listTrialMatchGaps, { params: { trialId }, signal }),
    enabled: enabled && Boolean(activeOrganizationId),
    retry: retryUnlessClientError,
    staleTime: 30_000,
    meta: { silent: true },
  });
}

export function useStartMatch(trialId: string) {
  const queryClient = useQueryClient();
  const { activeOrganizationId } = useActiveOrganization();
  return useMutation({
    mutationFn: () => api.call(endpoints.startMatchRun, { params: { trialId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: matchKeys.trial(activeOrganizationId, trialId) }),
  });
}

export function useWhatIf(trialId: string) {
  return useMutation({
    mutationFn: (input: WhatIfInput) => api.call(endpoints.simulateTrialMatch, { params: { trialId }, body: input }),
  });
}

/** Links candidates to a trial (from the matcher or a candidate's "also fits"): matches, candidates, trials and clinical records change. */
export function useAddToTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trialId, candidateIds }: { trialId: string; candidateIds: string[] }) =>
      api.call(endpoints.addMatchesToTrial, { params: { trialId }, body: { candidateIds } }),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'trial-matcher', 'clinical-record', 'candidates', 'candidate', 'trials', 'trial'),
  });
}

/** "What to ask next" as prescreen questions: the trial's matcher form is created or updated. */
export function useNextQuestionsForm(trialId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { criterionIds: string[]; formId?: string }) => api.call(endpoints.createMatchPrescreenForm, { params: { trialId }, body }),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'prescreen-forms', 'prescreen-form'),
  });
}

/** Per-person matching (decision 133): the candidate against every recruiting trial, ranked, with the evidence; asked for on demand. */
export function useCandidateTrials(candidateId: string, { enabled }: { enabled: boolean }) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.candidateTrials(activeOrganizationId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.listCandidateTrials, { params: { candidateId }, signal }),
    enabled: enabled && Boolean(activeOrganizationId && candidateId),
    retry: retryUnlessClientError,
    meta: { silent: true },
  });
}

const rereadGoing = (status: NoteRereadStatus | undefined) => status?.latest?.status === 'pending' || status?.latest?.status === 'running';

/** The organization's clinical notes and latest re-reading run (decision 132); polls every second while one goes. */
export function useNoteRereads() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: matchKeys.noteRereads(activeOrganizationId),
    queryFn: ({ signal }) => api.call(endpoints.getNoteRereads, { signal }),
    enabled: Boolean(activeOrganizationId),
    retry: retryUnlessClientError,
    refetchInterval: (query) => (rereadGoing(query.state.data) ? 1000 : false),
    meta: { silent: true },
  });
}

/** Starts re-reading every note (or joins the run going); every matcher answer and clinical record refetches. */
export function useStartNoteReread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(endpoints.startNoteRereads),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'trial-matcher', 'clinical-record'),
  });
}
