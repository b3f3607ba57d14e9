import type { EnrollmentStatus, SequenceStatus } from '../../../contract/sequences';
import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

/*
 * Every sequence query key is ['org', activeId, 'sequences', ...]: one invalidation refreshes lists, details,
 * enrollments, timelines, statistics and the candidate page's card after any change. A module of its own:
 * the route's loader (in the first page's JavaScript) reads the sequence without the hooks of queries.ts.
 */

export interface SequenceListParams {
  status: SequenceStatus | 'all';
  trialId?: string;
  orgs?: string[];
}
export interface EnrollmentListParams {
  status?: EnrollmentStatus;
  q?: string;
  limit: number;
  offset: number;
}

export const sequenceKeys = {
  all: (activeId: string | null) => ['org', activeId, 'sequences'] as const,
  list: (activeId: string | null, params: SequenceListParams) => ['org', activeId, 'sequences', 'list', params] as const,
  detail: (activeId: string | null, id: string) => ['org', activeId, 'sequences', 'detail', id] as const,
  enrollments: (activeId: string | null, id: string, params: EnrollmentListParams) => ['org', activeId, 'sequences', 'enrollments', id, params] as const,
  enrollment: (activeId: string | null, enrollmentId: string) => ['org', activeId, 'sequences', 'enrollment', enrollmentId] as const,
  statistics: (activeId: string | null, id: string, version: number | undefined) => ['org', activeId, 'sequences', 'statistics', id, version ?? null] as const,
  candidate: (activeId: string | null, candidateId: string) => ['org', activeId, 'sequences', 'candidate', candidateId] as const,
};

export function sequenceQueryOptions(activeId: string | null, id: string) {
  return orgQueryOptions({ queryKey: sequenceKeys.detail(activeId, id), queryFn: ({ signal }) => api.call(endpoints.getSequence, { params: { id }, signal }) });
}
