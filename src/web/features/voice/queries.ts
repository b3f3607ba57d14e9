import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProcessingRun } from '../../../contract/processing-runs';
import type { Call, CreateCallInput, CreateVoiceAgentInput, PrescreenAllInput, UpdateVoiceAgentInput, VoiceAgentType } from '../../../contract/voice';

/** A call's provider log, as the API answers it. */
export type CallLogs = ApiResponse<'getVapiCallLogs'>;
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import { type ApiResponse, api } from '../../lib/api';
import { apiProblem } from '../../lib/form-errors';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const voiceKeys = {
  agents: (activeId: string | null, type: VoiceAgentType | undefined, orgs?: string) => ['org', activeId, 'voice-agents', { type, orgs }] as const,
  calls: (activeId: string | null, params: CallsParams) => ['org', activeId, 'calls', params] as const,
  call: (activeId: string | null, id: string) => ['org', activeId, 'call', id] as const,
  logs: (activeId: string | null, id: string) => ['org', activeId, 'call-logs', id] as const,
  prescreenRuns: (activeId: string | null) => ['org', activeId, 'prescreen-runs'] as const,
};

/** Call storage data (stored provider messages, logs): fresh for 5 minutes, kept 30 (spec). */
export const CALL_STORAGE_STALE_MS = 5 * 60_000;
export const CALL_STORAGE_GC_MS = 30 * 60_000;

/**
 * The agents of the active organization's default selection, or of the organizations named (`organizationIds`): a
 * call's agent is looked up in the call's own organization, which an internal admin's default selection leaves out
 * for the demo organization (its calls read "Deleted agent" otherwise; issue 32).
 */
export function useVoiceAgentsQuery(type?: VoiceAgentType, organizationIds?: readonly string[]) {
  const { activeOrganizationId } = useActiveOrganization();
  const orgs = organizationIds?.length ? [...new Set(organizationIds)].sort().join(',') : undefined;
  return useQuery(
    orgQueryOptions({
      queryKey: voiceKeys.agents(activeOrganizationId, type, orgs),
      queryFn: ({ signal }) => api.call(endpoints.listVoiceAgents, { query: { type, orgs }, signal }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
    }),
  );
}

function useRefreshVoice() {
  const queryClient = useQueryClient();
  return () => invalidateOrg(queryClient, undefined, 'voice-agents', 'calls', 'call');
}

/** Failures show inline in the dialog (the server's message), not as toasts. */
export function useSaveVoiceAgent() {
  const refresh = useRefreshVoice();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: CreateVoiceAgentInput | UpdateVoiceAgentInput }) =>
      // A new agent's form gives every field the create operation requires.
      id
        ? api.call(endpoints.updateVoiceAgent, { params: { id }, body: input })
        : api.call(endpoints.createVoiceAgent, { body: input as CreateVoiceAgentInput }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useDeleteVoiceAgent() {
  const refresh = useRefreshVoice();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteVoiceAgent, { params: { id } }),
    onSuccess: () => refresh(),
  });
}

export interface CallsParams {
  filter: 'all' | 'failedPrescreen' | 'failedScheduling';
  candidateId?: string;
  limit: number;
  offset: number;
}

/** `refreshMs`: poll while something is going (a bulk run); calls still in progress refresh every 5 s anyway. */
export function useCallsQuery(params: CallsParams, { refreshMs }: { refreshMs?: number | false } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: voiceKeys.calls(activeOrganizationId, params),
      queryFn: ({ signal }) => api.call(endpoints.listCalls, { query: { ...params }, signal }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
      refetchInterval: (query) => {
        if (query.state.error) return false;
        if (refreshMs) return refreshMs;
        return query.state.data?.calls.some((call) => !isFinal(call.status)) ? 5000 : false;
      },
    }),
  );
}

export const isFinal = (status: Call['status']) => status === 'ended' || status === 'failed' || status === 'cancelled';

/** A call that is still open after this long is waiting on the provider (or the server's sweep settles it). */
const QUIET_CALL_MS = 3 * 60_000;

/** How often an open call is refetched: every 2 s while it is young, every 15 s once it went quiet, never once final. */
export function callRefreshMs(call: Pick<Call, 'status' | 'createdAt'> | undefined): number | false {
  if (!call) return 2000;
  if (isFinal(call.status)) return false;
  return Date.now() - new Date(call.createdAt).getTime() > QUIET_CALL_MS ? 15_000 : 2000;
}

/** Why a failed call failed, in a coordinator's words (structuredData.error). */
export function callFailureReason(error: unknown): string {
  switch (error) {
    case 'lost':
      return 'The voice provider has no record of this call.';
    case 'no_progress':
      return 'The call never got going and was stopped. Try calling again.';
    case undefined:
    case null:
      return 'The call could not be completed.';
    default:
      return 'The voice provider could not place the call.';
  }
}

/** One call; refetched while it is open (see callRefreshMs). */
export function useCallQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: voiceKeys.call(activeOrganizationId, id),
      queryFn: ({ signal }) => api.call(endpoints.getCall, { params: { callId: id }, signal }),
      enabled: Boolean(activeOrganizationId && id),
      refetchInterval: (query) => callRefreshMs(query.state.data),
    }),
  );
}

/** Calls a candidate now; a 409 CALL_BLOCKED is shown inline by the caller (silent). */
/** What "Call now" would meet, asked each time its dialog opens (never cached: consent and the hours change). */
export function useCallPreCheck(candidateId: string, enabled: boolean, type: VoiceAgentType = 'PRESCREEN') {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: ['org', activeOrganizationId, 'call-pre-check', candidateId, type] as const,
      queryFn: ({ signal }) => api.call(endpoints.preCheckCall, { query: { candidateId, type }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

export function usePlaceCall() {
  const refresh = useRefreshVoice();
  return useMutation({
    mutationFn: (input: CreateCallInput) => api.call(endpoints.startCall, { body: input }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useDeleteCall() {
  const refresh = useRefreshVoice();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteCall, { params: { callId: id } }),
    onSuccess: () => refresh(),
  });
}

/** A call's readable log (messages, tool calls and results). Refetched every 3 s while the call is going. */
export function useCallLogsQuery(callId: string, { live }: { live: boolean }) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: voiceKeys.logs(activeOrganizationId, callId),
      queryFn: ({ signal }) => api.call(endpoints.getVapiCallLogs, { params: { callId }, signal }),
      enabled: Boolean(activeOrganizationId && callId),
      staleTime: CALL_STORAGE_STALE_MS,
      gcTime: CALL_STORAGE_GC_MS,
      refetchInterval: (query) => (live && !query.state.error ? 3000 : false),
    }),
  );
}

/** The newest bulk prescreen run of the organization (to pick up one still going after a reload). */
export function useLatestPrescreenRunQuery({ enabled = true }: { enabled?: boolean } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: voiceKeys.prescreenRuns(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.listProcessingRuns, { query: { kind: 'prescreen_calls', limit: 1 }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
      staleTime: 0,
      select: (data) => data.runs[0] ?? null,
    }),
  );
}

/** POST /api/calls/prescreen-all: 202 with the run; a 409 (no agent, a run already going) is shown inline (silent). */
export function usePrescreenAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PrescreenAllInput) => api.call(endpoints.prescreenAllByCall, { body: input }),
    onSuccess: () => invalidateOrg(queryClient, undefined, 'calls', 'prescreen-runs', 'processing-runs', 'callbacks'),
    meta: { silent: true },
  });
}

/**
 * A "start prescreen calls" confirmation (the calls page's "Prescreen all", the trial matcher's selection): its
 * open state, the run's mutation, and the server's refusal (no agent, a run going, nobody due) shown inside it.
 */
export function usePrescreenCallsConfirmation() {
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const start = usePrescreenAll();
  return {
    open,
    problem,
    pending: start.isPending,
    onOpenChange: (next: boolean) => {
      setOpen(next);
      if (next) {
        setProblem(null);
        start.reset();
      }
    },
    confirm: (input: PrescreenAllInput, onStarted: (run: ProcessingRun) => void) => {
      setProblem(null);
      start.mutate(input, {
        onSuccess: (run) => {
          setOpen(false);
          onStarted(run);
        },
        onError: (error) => setProblem(apiProblem(error).message),
      });
    },
  };
}
