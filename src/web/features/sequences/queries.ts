import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateSequenceInput, Enrollment, Sequence, SequenceStep, TimelineEntry, UpdateSequenceInput } from '../../../contract/sequences';
import { type ApiBody, api, getActiveOrganizationId } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import { sequenceKeys, sequenceQueryOptions, type EnrollmentListParams, type SequenceListParams } from './keys';
import * as endpoints from '../../lib/api-operations.gen';

export { sequenceKeys, sequenceQueryOptions, type EnrollmentListParams, type SequenceListParams };

export interface SequenceList {
  sequences: Sequence[];
  total: number;
}
export interface EnrollmentList {
  enrollments: Enrollment[];
  total: number;
}
export interface EnrollmentDetail {
  enrollment: Enrollment;
  steps: SequenceStep[];
  timeline: TimelineEntry[];
}
export type CandidateEnrollment = Enrollment & { sequenceName: string };
export interface SaveResult {
  sequence: Sequence;
  newVersion: boolean;
}

/** While people are moving through a sequence, its enrollments and timelines refresh this often. */
export const ENROLLMENTS_REFRESH_MS = 5_000;

export function useSequencesQuery(params: SequenceListParams, enabled = true) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: sequenceKeys.list(activeOrganizationId, params),
      queryFn: ({ signal }) =>
        api.call(endpoints.listSequences, { query: { status: params.status, trialId: params.trialId, organizationIds: params.orgs }, signal }),
      enabled: Boolean(activeOrganizationId) && enabled,
      placeholderData: keepPreviousData,
    }),
  );
}

export function useSequenceQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({ ...sequenceQueryOptions(activeOrganizationId, id), enabled: Boolean(activeOrganizationId && id) });
}

const hasMoving = (rows: Enrollment[] | undefined) => Boolean(rows?.some((row) => row.status === 'active'));

export function useEnrollmentsQuery(sequenceId: string, params: EnrollmentListParams) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: sequenceKeys.enrollments(activeOrganizationId, sequenceId, params),
      queryFn: ({ signal }) =>
        api.call(endpoints.listEnrollments, {
          params: { id: sequenceId },
          query: { status: params.status, q: params.q, limit: params.limit, offset: params.offset },
          signal,
        }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (query) => (query.state.error ? false : hasMoving(query.state.data?.enrollments) ? ENROLLMENTS_REFRESH_MS : false),
    }),
  );
}

export function useEnrollmentQuery(enrollmentId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: sequenceKeys.enrollment(activeOrganizationId, enrollmentId ?? ''),
      queryFn: ({ signal }) => api.call(endpoints.getEnrollment, { params: { id: enrollmentId ?? '' }, signal }),
      enabled: Boolean(activeOrganizationId && enrollmentId),
      staleTime: 0,
      refetchInterval: (query) => (query.state.error ? false : query.state.data?.enrollment.status === 'active' ? ENROLLMENTS_REFRESH_MS : false),
    }),
  );
}

export function useStatisticsQuery(sequenceId: string, version: number | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: sequenceKeys.statistics(activeOrganizationId, sequenceId, version),
      queryFn: ({ signal }) => api.call(endpoints.getSequenceStatistics, { params: { id: sequenceId }, query: { version }, signal }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
}

export function useCandidateEnrollmentsQuery(candidateId: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: sequenceKeys.candidate(activeOrganizationId, candidateId),
      queryFn: ({ signal }) => api.call(endpoints.listCandidateSequences, { params: { id: candidateId }, signal }),
      enabled: Boolean(activeOrganizationId && candidateId),
      staleTime: 0,
      refetchInterval: (query) => (query.state.error ? false : hasMoving(query.state.data?.enrollments) ? ENROLLMENTS_REFRESH_MS * 2 : false),
    }),
  );
}

/** After any change: every sequence query (and the contact history, which enrollments write to). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => invalidateOrg(queryClient, undefined, 'sequences', 'contact-history');
}

/** The builder shows failures inline (silent). */
export function useCreateSequence() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: CreateSequenceInput) => api.call(endpoints.createSequence, { body: input }),
    onSuccess: (sequence) => {
      queryClient.setQueryData(sequenceKeys.detail(getActiveOrganizationId(), sequence.id), sequence);
      return refresh();
    },
    meta: { silent: true },
  });
}

export function useUpdateSequence() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateSequenceInput }) => api.call(endpoints.updateSequence, { params: { id }, body: input }),
    onSuccess: (result) => {
      queryClient.setQueryData(sequenceKeys.detail(getActiveOrganizationId(), result.sequence.id), result.sequence);
      return refresh();
    },
    meta: { silent: true },
  });
}

/** DELETE archives the sequence and exits its live enrollments. */
export function useArchiveSequence() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteSequence, { params: { id } }),
    onSuccess: (sequence) => {
      queryClient.setQueryData(sequenceKeys.detail(getActiveOrganizationId(), sequence.id), sequence);
      return refresh();
    },
    meta: { silent: true },
  });
}

export function usePreviewStep() {
  return useMutation({
    mutationFn: (input: { step: SequenceStep; candidateId?: string; trialId?: string | null; organizationId?: string }) =>
      api.call(endpoints.previewSequence, { body: input }),
    meta: { silent: true },
  });
}

/** Who to enroll: ids, or a saved filter of the candidate list (the operation's body). */
export type EnrollRequest = ApiBody<'enrollCandidates'>;

export function useEnroll() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ sequenceId, request }: { sequenceId: string; request: EnrollRequest }) =>
      api.call(endpoints.enrollCandidates, { params: { id: sequenceId }, body: request }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useEnrollmentAction() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ enrollmentId, action }: { enrollmentId: string; action: 'pause' | 'resume' | 'stop' }) =>
      api.call(endpoints.actOnEnrollment, { params: { id: enrollmentId }, body: { action } }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}
