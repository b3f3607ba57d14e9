import { createRoute } from '@hono/zod-openapi';
import {
  ChatAgentListSchema,
  ChatAgentSchema,
  ChatSendMessageSchema,
  ChatTurnSchema,
  ConversationDetailSchema,
  ConversationListSchema,
  CreateChatAgentSchema,
  ChatPreviewSchema,
  InitiateChatSchema,
  ListChatAgentsQuerySchema,
  ListConversationsQuerySchema,
  PublicConversationQuerySchema,
  PublicConversationSchema,
  StartedChatSchema,
  StartTestChatSchema,
  UpdateChatAgentSchema,
  VerifyChatSchema,
} from '../../../contract/chat';
import { ApiErrorSchema } from '../../../contract/common';
import { RateChatSchema } from '../../../contract/satisfaction';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as agents from './agent-service';
import { resume } from './open-conversation';
import { rateConversation } from './rate-conversation';
import { initiate, preview } from './start-conversation';
import { sendMessage, verify } from './take-turn';
import * as staffConversations from './staff-conversations';
import { clientAddress } from './throttle';

const agentTags = ['Chat agents'];
const conversationTags = ['Chat conversations'];
const idParams = pathParams('id');
const conversationParams = pathParams('conversationId');

const publicErrors = {
  400: json(ApiErrorSchema, 'Invalid input: the message and details name the field'),
  404: json(ApiErrorSchema, 'No such conversation, or the token does not match it'),
  409: json(ApiErrorSchema, 'The conversation has ended, or the step does not fit'),
  429: json(ApiErrorSchema, 'Too many requests from this address or in this conversation'),
} as const;

/**
 * The public chat page's endpoints, mounted at /api/chat-conversations BEFORE the scope middleware: no
 * session, a conversation id plus its resume token. It answers only these paths; the staff router below
 * (mounted after the scope middleware) answers the others.
 */
export const publicChatConversationRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/initiate',
      operationId: 'initiatePublicChat',
      security: [],
      tags: conversationTags,
      summary: "Start a chat on an organization's public chat page (no sign-in): greeting and first prompt, the conversation id and its resume token",
      request: jsonBody(InitiateChatSchema),
      responses: {
        201: json(StartedChatSchema, 'Started'),
        400: publicErrors[400],
        404: json(ApiErrorSchema, 'Unknown organization or agent'),
        409: json(ApiErrorSchema, 'No active chat agent with a published form'),
        429: publicErrors[429],
      },
    }),
    async (c) => c.json(await initiate(c.get('deps'), c.req.valid('json'), clientAddress(c)), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/preview',
      operationId: 'previewPublicChat',
      security: [],
      tags: conversationTags,
      summary: "What an organization's public chat page shows before the visitor writes: greeting and first prompt; nothing is stored (no sign-in)",
      request: jsonBody(InitiateChatSchema),
      responses: {
        200: json(ChatPreviewSchema, 'The greeting and first prompt'),
        400: publicErrors[400],
        404: json(ApiErrorSchema, 'Unknown organization or agent'),
        409: json(ApiErrorSchema, 'No active chat agent with a published form'),
        429: publicErrors[429],
      },
    }),
    async (c) => c.json(await preview(c.get('deps'), c.req.valid('json'), clientAddress(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/verify',
      operationId: 'verifyPublicChat',
      security: [],
      tags: conversationTags,
      summary:
        'Phone verification (no sign-in): { phone } texts a 6-digit code (valid 10 minutes, 5 tries); { code } confirms the phone and links or creates the candidate',
      request: jsonBody(VerifyChatSchema),
      responses: { 200: json(ChatTurnSchema, "The agent's replies; phoneVerified tells whether the code was right"), ...publicErrors },
    }),
    async (c) => c.json(await verify(c.get('deps'), c.req.valid('json'), clientAddress(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{conversationId}/messages',
      operationId: 'sendPublicChatMessage',
      security: [],
      tags: conversationTags,
      summary: "Send the visitor's message (no sign-in; 1-1000 characters); answers the stored message and the agent's replies",
      request: { params: conversationParams, ...jsonBody(ChatSendMessageSchema) },
      responses: { 200: json(ChatTurnSchema, 'The new messages and the conversation status'), ...publicErrors },
    }),
    async (c) => c.json(await sendMessage(c.get('deps'), c.req.valid('param').conversationId, c.req.valid('json'), clientAddress(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{conversationId}/rating',
      operationId: 'ratePublicChat',
      security: [],
      tags: conversationTags,
      summary: 'Rate a finished chat 1-5 with an optional comment (no sign-in; the resume token); once per chat',
      request: { params: conversationParams, ...jsonBody(RateChatSchema) },
      responses: { 200: json(ChatTurnSchema, "The agent's thanks"), ...publicErrors, 409: json(ApiErrorSchema, 'Not finished yet, or already rated') },
    }),
    async (c) => c.json(await rateConversation(c.get('deps'), c.req.valid('param').conversationId, c.req.valid('json'), clientAddress(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{conversationId}/public',
      operationId: 'getPublicChatConversation',
      security: [],
      tags: conversationTags,
      summary: 'Resume a conversation (no sign-in): every message so far and what the page should offer next',
      request: { params: conversationParams, query: PublicConversationQuerySchema },
      responses: { 200: json(PublicConversationSchema, 'The conversation'), 400: publicErrors[400], 404: publicErrors[404], 429: publicErrors[429] },
    }),
    async (c) => c.json(await resume(c.get('deps'), c.req.valid('param').conversationId, c.req.valid('query').token, clientAddress(c)), 200),
  );

/** Staff: conversations of the organizations in scope. Mounted at /api/chat-conversations after the scope middleware. */
export const chatConversationRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listChatConversations',
      tags: conversationTags,
      summary: 'Conversations of the organizations in scope (status, chatAgentId, search by candidate name or phone, dateFrom/dateTo, sortBy, limit/offset)',
      request: { query: ListConversationsQuerySchema },
      responses: { 200: json(ConversationListSchema, 'Conversations'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await staffConversations.listConversations(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/admin/start',
      operationId: 'startChatConversation',
      tags: conversationTags,
      summary: 'Try a chat agent as a visitor would (marked as a test); open the public page with the conversation id and token to continue',
      request: jsonBody(StartTestChatSchema),
      responses: { 201: json(StartedChatSchema, 'Started'), ...errors, 409: json(ApiErrorSchema, 'The agent has no published form') },
    }),
    async (c) => c.json(await staffConversations.startTest(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{conversationId}',
      operationId: 'getChatConversation',
      tags: conversationTags,
      summary: 'A conversation with its transcript and prescreen result id',
      request: { params: conversationParams },
      responses: { 200: json(ConversationDetailSchema, 'The conversation'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await staffConversations.getConversation(c.get('deps'), c.get('scope'), c.req.valid('param').conversationId), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{conversationId}',
      operationId: 'deleteChatConversation',
      tags: conversationTags,
      summary: 'Delete a conversation and its messages (its prescreen result stays)',
      request: { params: conversationParams },
      responses: { 204: { description: 'Deleted' }, 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await staffConversations.deleteConversation(c.get('deps'), c.get('scope'), c.req.valid('param').conversationId);
      return c.body(null, 204);
    },
  );

/** Staff: chat agents. Mounted at /api/chat-agents after the scope middleware. */
export const chatAgentRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/internal',
      operationId: 'listChatAgents',
      tags: agentTags,
      summary: 'Chat agents of the organizations in scope (organizationId/organizationIds/orgs narrow; type; search by name)',
      request: { query: ListChatAgentsQuerySchema },
      responses: { 200: json(ChatAgentListSchema, 'Chat agents'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await agents.listAgents(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/internal',
      operationId: 'createChatAgent',
      tags: agentTags,
      summary: "Create a chat agent for a trial and one of its prescreen forms (in the trial's organization)",
      request: jsonBody(CreateChatAgentSchema),
      responses: { 201: json(ChatAgentSchema, 'Created'), ...errors },
    }),
    async (c) => c.json(await agents.createAgent(c.get('deps').db, c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/internal/{id}',
      operationId: 'getChatAgent',
      tags: agentTags,
      summary: 'Get a chat agent',
      request: { params: idParams },
      responses: { 200: json(ChatAgentSchema, 'The chat agent'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await agents.getAgent(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/internal/{id}',
      operationId: 'updateChatAgent',
      tags: agentTags,
      summary: 'Change a chat agent (any subset of its fields)',
      request: { params: idParams, ...jsonBody(UpdateChatAgentSchema) },
      responses: { 200: json(ChatAgentSchema, 'Updated'), ...errors },
    }),
    async (c) => c.json(await agents.updateAgent(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/internal/{id}',
      operationId: 'deleteChatAgent',
      tags: agentTags,
      summary: 'Delete a chat agent (its conversations stay, without an agent)',
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' }, 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await agents.deleteAgent(c.get('deps').db, c.get('scope'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
