import type { Classification } from './index';

/**
 * Chat agents and conversations. The public chat page's endpoints need no sign-in: they take a conversation
 * id with its secret resume token (404 for any mismatch). Probes: tenant-isolation.chat.int.test.ts.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'POST /api/chat-conversations/initiate': 'public',
  'POST /api/chat-conversations/preview': 'public',
  'POST /api/chat-conversations/verify': 'public',
  'POST /api/chat-conversations/{conversationId}/messages': 'public',
  'GET /api/chat-conversations/{conversationId}/public': 'public',
  'POST /api/chat-conversations/{conversationId}/rating': 'public',
  'GET /api/chat-agents/internal': 'list-scoped',
  'POST /api/chat-agents/internal': 'tenant-row',
  'GET /api/chat-agents/internal/{id}': 'tenant-row',
  'PATCH /api/chat-agents/internal/{id}': 'tenant-row',
  'DELETE /api/chat-agents/internal/{id}': 'tenant-row',
  'GET /api/chat-conversations': 'list-scoped',
  'POST /api/chat-conversations/admin/start': 'tenant-row',
  'GET /api/chat-conversations/{conversationId}': 'tenant-row',
  'DELETE /api/chat-conversations/{conversationId}': 'tenant-row',
};
