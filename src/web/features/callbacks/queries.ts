import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CallbackListSchema, CallbackStatus, CancelCallbackResultSchema, ScheduleCallbackResultSchema } from '../../../contract/callbacks';
import type { VoiceAgentType } from '../../../contract/voice';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

export type CallbackList = z.infer<typeof CallbackListSchema>;
export type ScheduleCallbackResult = z.infer<typeof ScheduleCallbackResultSchema>;
export type CancelCallbackResult = z.infer<typeof CancelCallbackResultSchema>;
export type CallbackFilter = 'all' | 'failedPrescreen' | 'failedScheduling';

export interface CallbacksParams {
  filter: CallbackFilter;
  status?: CallbackStatus;
  candidateId?: string;
  orgs?: string[];
  limit: number;
  offset: number;
}

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const callbackKeys = {
  list: (activeId: string | null, params: CallbacksParams) => ['org', activeId, 'callbacks', params] as const,
};

/** While a callback is waiting or being placed, lists refresh this often. */
export const CALLBACKS_REFRESH_MS = 15_000;

const hasOpen = (data: CallbackList | undefined) =>
  Boolean(
    data &&
      (data.callbacks.some((callback) => callback.status === 'pending' || callback.status === 'calling') ||
        (data.counts?.pending ?? 0) + (data.counts?.calling ?? 0) > 0),
  );

/** A page of callbacks with the counts by status; refetched every 15 s while any is pending or calling. */
export function useCallbacksQuery(params: CallbacksParams) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: callbackKeys.list(activeOrganizationId, params),
      queryFn: ({ signal }) => api.call(endpoints.listCallbacks, { query: { ...params }, signal }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (query) => (query.state.error ? false : hasOpen(query.state.data) ? CALLBACKS_REFRESH_MS : false),
    }),
  );
}

/** The candidate's open (pending) callback, if any. */
export function useCandidateCallbackQuery(candidateId: string) {
  const query = useCallbacksQuery({ filter: 'all', status: 'pending', candidateId, limit: 1, offset: 0 });
  return { ...query, callback: query.data?.callbacks[0] ?? null };
}

function useRefreshCallbacks() {
  const queryClient = useQueryClient();
  return () => invalidateOrg(queryClient, undefined, 'callbacks', 'calls', 'contact-history');
}

export interface ScheduleInput {
  candidateId: string;
  organizationId?: string;
  type: VoiceAgentType;
  /** ISO 8601 with a zone. */
  at: string;
  note?: string;
}

/** Schedules (or moves) a candidate's callback. Failures show inline in the dialog (silent). */
export function useScheduleCallback() {
  const refresh = useRefreshCallbacks();
  return useMutation({
    mutationFn: (input: ScheduleInput) => api.call(endpoints.scheduleCallback, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

/** Cancels the candidate's open callback. Failures show inline in the confirmation (silent). */
export function useCancelCallback() {
  const refresh = useRefreshCallbacks();
  return useMutation({
    mutationFn: (candidateId: string) => api.call(endpoints.cancelCallback, { params: { candidateId } }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}
