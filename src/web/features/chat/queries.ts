import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChatAgent,
  ChatAgentList,
  ChatTurn,
  ConversationDetail,
  ConversationList,
  CreateChatAgentInput,
  PublicConversation,
  StartedChat,
  UpdateChatAgentInput,
} from '../../../contract/chat';
import type { Language } from '../../../contract/prescreen-forms';
import { api } from '../../lib/api';
import { invalidateOrg, orgQueryOptions, removeOrg } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const chatKeys = {
  agents: (activeId: string | null, params: { search?: string }) => ['org', activeId, 'chat-agents', params] as const,
  conversations: (activeId: string | null, params: ConversationsParams) => ['org', activeId, 'chat-conversations', params] as const,
  conversation: (activeId: string | null, id: string) => ['org', activeId, 'chat-conversation', id] as const,
};

// ---- staff: agents ----

export function useChatAgentsQuery(params: { search?: string } = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: chatKeys.agents(activeOrganizationId, params),
      queryFn: ({ signal }) => api.get<ChatAgentList>('/api/chat-agents/internal/', { query: { search: params.search }, signal }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
    }),
  );
}

function useRefreshChat() {
  const queryClient = useQueryClient();
  return () => invalidateOrg(queryClient, undefined, 'chat-agents', 'chat-conversations', 'chat-conversation');
}

/** Failures show inline in the dialog (the server's message), not as toasts. */
export function useSaveChatAgent() {
  const refresh = useRefreshChat();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: CreateChatAgentInput | UpdateChatAgentInput }) =>
      id ? api.patch<ChatAgent>(`/api/chat-agents/internal/${encodeURIComponent(id)}`, input) : api.post<ChatAgent>('/api/chat-agents/internal/', input),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useDeleteChatAgent() {
  const refresh = useRefreshChat();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/chat-agents/internal/${encodeURIComponent(id)}`),
    onSuccess: () => refresh(),
  });
}

/** Staff try an agent: a test conversation the public page continues (opened with its id and token). */
export function useStartTestChat() {
  const refresh = useRefreshChat();
  return useMutation({
    mutationFn: (input: { chatAgentId: string; language?: Language }) => api.post<StartedChat>('/api/chat-conversations/admin/start', input),
    onSuccess: () => refresh(),
  });
}

// ---- staff: conversations ----

export interface ConversationsParams {
  search?: string;
  status?: string;
  sortBy?: string;
  dateFrom?: string;
  dateTo?: string;
  chatAgentId?: string;
  orgs?: string[];
  limit: number;
  offset: number;
}

export function useConversationsQuery(params: ConversationsParams) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: chatKeys.conversations(activeOrganizationId, params),
      queryFn: ({ signal }) =>
        api.get<ConversationList>('/api/chat-conversations/', {
          query: { ...params },
          signal,
        }),
      enabled: Boolean(activeOrganizationId),
      placeholderData: keepPreviousData,
    }),
  );
}

export function useConversationQuery(id: string) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: chatKeys.conversation(activeOrganizationId, id),
      queryFn: ({ signal }) => api.get<ConversationDetail>(`/api/chat-conversations/${encodeURIComponent(id)}`, { signal }),
      enabled: Boolean(activeOrganizationId && id),
    }),
  );
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/chat-conversations/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => {
      removeOrg(queryClient, undefined, ['chat-conversation', id]);
      return invalidateOrg(queryClient, undefined, 'chat-conversations');
    },
  });
}

// ---- the public page (no session; plain calls, the page keeps its own state) ----

export const publicChatApi = {
  initiate: (organizationId: string, language?: Language) =>
    api.post<StartedChat>('/api/chat-conversations/initiate', { organizationId, ...(language ? { language } : {}) }),
  resume: (conversationId: string, token: string) =>
    api.get<PublicConversation>(`/api/chat-conversations/${encodeURIComponent(conversationId)}/public`, { query: { token } }),
  send: (conversationId: string, token: string, text: string) =>
    api.post<ChatTurn>(`/api/chat-conversations/${encodeURIComponent(conversationId)}/messages`, { token, text }),
  verify: (input: { conversationId: string; token: string; phone?: string; code?: string }) => api.post<ChatTurn>('/api/chat-conversations/verify', input),
  rate: (conversationId: string, token: string, rating: number, comment: string) =>
    api.post<ChatTurn>(`/api/chat-conversations/${encodeURIComponent(conversationId)}/rating`, { token, rating, ...(comment ? { comment } : {}) }),
};

/** The public page's chat link for an organization (absolute, to share). */
export const publicChatUrl = (publicId: string, search?: { conversationId: string; token: string }) => {
  const base = `${window.location.origin}/chat/${encodeURIComponent(publicId)}`;
  return search ? `${base}?conversation-id=${encodeURIComponent(search.conversationId)}&token=${encodeURIComponent(search.token)}` : base;
};
