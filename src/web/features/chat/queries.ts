import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateChatAgentInput, UpdateChatAgentInput } from '../../../contract/chat';
import type { Language } from '../../../contract/prescreen-forms';
import { api } from '../../lib/api';
import { invalidateOrg, orgQueryOptions, removeOrg } from '../../lib/query';
import { useActiveOrganization } from '../../lib/active-organization';
import * as endpoints from '../../lib/api-operations.gen';

/** Query keys: the active organization id is always the second part, so a switch never shows another's data. */
export const chatKeys = {
  agents: (activeId: string | null, params: ChatAgentListParams) => ['org', activeId, 'chat-agents', params] as const,
  conversations: (activeId: string | null, params: ConversationsParams) => ['org', activeId, 'chat-conversations', params] as const,
  conversation: (activeId: string | null, id: string) => ['org', activeId, 'chat-conversation', id] as const,
};

// ---- staff: agents ----

/** `orgs` narrows a global admin's list (none: the server's default selection); the server drops any out of reach. */
export interface ChatAgentListParams {
  search?: string;
  orgs?: string[];
}

export function useChatAgentsQuery(params: ChatAgentListParams = {}) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: chatKeys.agents(activeOrganizationId, params),
      queryFn: ({ signal }) => api.call(endpoints.listChatAgents, { query: { search: params.search, orgs: params.orgs }, signal }),
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
      // A new agent's form gives every field the create operation requires.
      id ? api.call(endpoints.updateChatAgent, { params: { id }, body: input }) : api.call(endpoints.createChatAgent, { body: input as CreateChatAgentInput }),
    onSuccess: () => refresh(),
    meta: { silent: true },
  });
}

export function useDeleteChatAgent() {
  const refresh = useRefreshChat();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteChatAgent, { params: { id } }),
    onSuccess: () => refresh(),
  });
}

/** Staff try an agent: a test conversation the public page continues (opened with its id and token). */
export function useStartTestChat() {
  const refresh = useRefreshChat();
  return useMutation({
    mutationFn: (input: { chatAgentId: string; language?: Language }) => api.call(endpoints.startChatConversation, { body: input }),
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
      queryFn: ({ signal }) => api.call(endpoints.listChatConversations, { query: { ...params }, signal }),
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
      queryFn: ({ signal }) => api.call(endpoints.getChatConversation, { params: { conversationId: id }, signal }),
      enabled: Boolean(activeOrganizationId && id),
    }),
  );
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.deleteChatConversation, { params: { conversationId: id } }),
    onSuccess: (_answer, id) => {
      removeOrg(queryClient, undefined, ['chat-conversation', id]);
      return invalidateOrg(queryClient, undefined, 'chat-conversations');
    },
  });
}

// ---- the public page (no session; plain calls, the page keeps its own state) ----

export const publicChatApi = {
  preview: (organizationId: string, language?: Language) =>
    api.call(endpoints.previewPublicChat, { body: { organizationId, ...(language ? { language } : {}) } }),
  initiate: (organizationId: string, language?: Language) =>
    api.call(endpoints.initiatePublicChat, { body: { organizationId, ...(language ? { language } : {}) } }),
  resume: (conversationId: string, token: string) => api.call(endpoints.getPublicChatConversation, { params: { conversationId }, query: { token } }),
  send: (conversationId: string, token: string, text: string) =>
    api.call(endpoints.sendPublicChatMessage, { params: { conversationId }, body: { token, text } }),
  verify: (input: { conversationId: string; token: string; phone?: string; code?: string }) => api.call(endpoints.verifyPublicChat, { body: input }),
  rate: (conversationId: string, token: string, rating: number, comment: string) =>
    api.call(endpoints.ratePublicChat, { params: { conversationId }, body: { token, rating, ...(comment ? { comment } : {}) } }),
};

/** The public page's chat link for an organization (absolute, to share). */
export const publicChatUrl = (publicId: string, search?: { conversationId: string; token: string }) => {
  const base = `${window.location.origin}/chat/${encodeURIComponent(publicId)}`;
  return search ? `${base}?conversation-id=${encodeURIComponent(search.conversationId)}&token=${encodeURIComponent(search.token)}` : base;
};
