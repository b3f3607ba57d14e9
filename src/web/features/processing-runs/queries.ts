import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ProcessingRun, PROCESSING_ITEM_OUTCOMES } from '../../../contract/processing-runs';
import { api } from '../../lib/api';
import { orgQueryOptions } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

export type ItemOutcome = (typeof PROCESSING_ITEM_OUTCOMES)[number];

export interface RunItem {
  rowNumber: number;
  outcome: ItemOutcome;
  errors: Array<{ field: string; message: string }>;
  candidateId: string | null;
  /** The linked candidate's name. */
  candidateName: string | null;
  input: Record<string, unknown> | null;
  processedAt: string | null;
}
export interface RunData {
  run: ProcessingRun;
  items: RunItem[];
  itemTotal: number;
  outcomes: Record<string, number>;
  limit: number;
  offset: number;
}
export interface RunsData {
  runs: ProcessingRun[];
  summary: {
    runs: number;
    byStatus: Record<ProcessingRun['status'], number>;
    rows: { total: number; processed: number; succeeded: number; merged: number; skipped: number; failed: number };
  };
}

export const runKeys = {
  list: (activeId: string | null, params: { search?: string; orgs?: string[] }) => ['org', activeId, 'processing-runs', params] as const,
  detail: (activeId: string | null, id: string, params: { limit: number; offset: number; outcome?: ItemOutcome }) =>
    ['org', activeId, 'processing-run', id, params] as const,
};

export const isRunActive = (run: ProcessingRun | undefined) => run?.status === 'pending' || run?.status === 'running';

/** Runs with their summary; polls every 2 s while one of them is still going. */
export function useRunsQuery(params: { search?: string; orgs?: string[] }, { enabled = true }: { enabled?: boolean } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: runKeys.list(activeOrganizationId, params),
      queryFn: ({ signal }) => api.call(endpoints.listProcessingRunData, { query: { search: params.search, orgs: params.orgs }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (query) => (query.state.data?.runs.some(isRunActive) ? 2000 : false),
    }),
  );
}

/** One run and a page of its rows; polls every second until the run is completed, failed or cancelled. */
export function useRunQuery(id: string | undefined, params: { limit: number; offset: number; outcome?: ItemOutcome }) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: runKeys.detail(activeOrganizationId, id ?? '', params),
      queryFn: ({ signal }) =>
        api.call(endpoints.getProcessingRunData, {
          params: { id: id ?? '' },
          query: { limit: params.limit, offset: params.offset, outcome: params.outcome },
          signal,
        }),
      enabled: Boolean(activeOrganizationId && id),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (query) => (query.state.error ? false : !query.state.data || isRunActive(query.state.data.run) ? 1000 : false),
    }),
  );
}
