import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  SimulatorInboundResultSchema,
  SmsTemplateKey,
  SmsTemplateListSchema,
  SmsThreadDetailSchema,
  SmsThreadListSchema,
  SmsThreadSchema,
} from '../../../contract/sms';
import { api, ApiRequestError } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

export type SmsThread = z.infer<typeof SmsThreadSchema>;
export type SmsThreadList = z.infer<typeof SmsThreadListSchema>;
export type SmsThreadDetail = z.infer<typeof SmsThreadDetailSchema>;
export type SmsTemplate = z.infer<typeof SmsTemplateListSchema>['templates'][number];
export type SimulatorInboundResult = z.infer<typeof SimulatorInboundResultSchema>;

/** How often an open thread (and the thread list) is fetched again while the page is visible. */
export const THREAD_REFRESH_MS = 5_000;
export const THREAD_LIST_REFRESH_MS = 15_000;

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const smsKeys = {
  all: (activeId: string | null) => ['org', activeId, 'sms'] as const,
  threads: (activeId: string | null, params: { orgs?: string[]; limit: number }) => ['org', activeId, 'sms', 'threads', params] as const,
  thread: (activeId: string | null, candidateId: string) => ['org', activeId, 'sms', 'thread', candidateId] as const,
  templates: (activeId: string | null) => ['org', activeId, 'sms', 'templates'] as const,
  simulator: (activeId: string | null) => ['org', activeId, 'sms', 'simulator'] as const,
};

export function threadsQueryOptions(activeId: string | null, params: { orgs?: string[]; limit: number }) {
  return orgQueryOptions({
    queryKey: smsKeys.threads(activeId, params),
    queryFn: ({ signal }) => api.call(endpoints.listSmsThreads, { query: { orgs: params.orgs, limit: params.limit }, signal }),
  });
}

export function threadQueryOptions(activeId: string | null, candidateId: string) {
  return orgQueryOptions({
    queryKey: smsKeys.thread(activeId, candidateId),
    queryFn: ({ signal }) => api.call(endpoints.getSmsThread, { params: { candidateId }, signal }),
  });
}

export function useSmsThreadsQuery(params: { orgs?: string[]; limit: number }) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    ...threadsQueryOptions(activeOrganizationId, params),
    enabled: Boolean(activeOrganizationId),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: THREAD_LIST_REFRESH_MS,
  });
}

/** One thread, fetched again every few seconds while it is open (replies and delivery updates land on their own). */
export function useSmsThreadQuery(candidateId: string | undefined) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    ...threadQueryOptions(activeOrganizationId, candidateId ?? ''),
    enabled: Boolean(activeOrganizationId && candidateId),
    staleTime: 0,
    // A missing candidate stays missing: stop asking. Other failures try again at the next tick.
    refetchInterval: (query) => (query.state.error instanceof ApiRequestError && query.state.error.status === 404 ? false : THREAD_REFRESH_MS),
  });
}

export function useSmsTemplatesQuery() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: smsKeys.templates(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.listSmsTemplates, { signal }),
      enabled: Boolean(activeOrganizationId),
      staleTime: Infinity,
    }),
  );
}

/** Whether the SMS simulator is on: its outbox answers (it is a 404 when Twilio is configured). */
export function useSimulatorActive() {
  const { activeOrganizationId } = useActiveOrganization();
  const query = useQuery(
    orgQueryOptions({
      queryKey: smsKeys.simulator(activeOrganizationId),
      queryFn: ({ signal }) => api.call(endpoints.getSimulatedSmsOutbox, { query: { limit: 1 }, signal }).then(() => true),
      enabled: Boolean(activeOrganizationId),
      staleTime: Infinity,
      retry: false,
    }),
  );
  return query.data === true;
}

function refreshSms(queryClient: QueryClient) {
  // Threads, and the candidate's contact history (every SMS is written there too).
  return invalidateOrg(queryClient, undefined, ['sms', 'threads'], ['sms', 'thread'], 'contact-history');
}

export type SendSmsRequest = { candidateId: string; body: string } | { candidateId: string; templateKey: SmsTemplateKey; variables: Record<string, string> };

export function useSendSms() {
  const queryClient = useQueryClient();
  const { activeOrganizationId } = useActiveOrganization();
  return useMutation({
    mutationFn: (input: SendSmsRequest) => api.call(endpoints.sendSms, { body: input }),
    onSuccess: (message, input) => {
      // Show the new message at once; the refetch below brings the final state.
      queryClient.setQueryData<SmsThreadDetail>(smsKeys.thread(activeOrganizationId, input.candidateId), (thread) =>
        thread && !thread.messages.some((existing) => existing.id === message.id) ? { ...thread, messages: [...thread.messages, message] } : thread,
      );
    },
    // A refusal (409) is stored as a blocked message, so the thread refreshes either way.
    onSettled: () => void refreshSms(queryClient),
    // The composer shows the server's reason inline.
    meta: { silent: true },
  });
}

export function useSimulateReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { candidateId: string; body: string }) => api.call(endpoints.simulateInboundSms, { body: input }),
    onSettled: () => void refreshSms(queryClient),
    meta: { silent: true },
  });
}

/** The server's own message of a failed call (e.g. a 409's "SMS not sent: the candidate opted out of SMS"). */
export function serverReason(error: unknown): string {
  if (error instanceof ApiRequestError) {
    const body = error.body as { error?: { message?: unknown } } | undefined;
    if (body && typeof body === 'object' && typeof body.error?.message === 'string' && body.error.message) return body.error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong';
}

/** Texts to numbers no organization owns (decision 118): internal admins with the Cohortly organization active only. */
export function useUnmatchedTextsQuery(enabled: boolean) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: [...smsKeys.all(activeOrganizationId), 'unrouted'] as const,
      queryFn: ({ signal }) => api.call(endpoints.listUnroutedSms, { query: { limit: 100 }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
      refetchInterval: THREAD_LIST_REFRESH_MS,
    }),
  );
}
