import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';
import { AiRecommendationSchema } from './prescreen';
import { LanguageSchema } from './prescreen-forms';
import { CONVERSATION_SORTS, CONVERSATION_STATUSES } from './search';

/**
 * Chat agents (staff configure them), the public chat page's conversation API (no sign-in, a resume token)
 * and the staff view of conversations. Server: server/features/chat; the dialogue: docs/chat-dialogue.md.
 */

export const CHAT_AGENT_TYPES = ['PRESCREEN'] as const;
export const CHAT_NEXT_STEPS = ['book_call', 'callback', 'visit', 'none'] as const;
export const CHAT_MESSAGE_MAX = 1000;

/** Text in English and, optionally, Spanish (falls back to English). */
const ChatTextSchema = z.object({ en: z.string().trim().min(1, 'Enter the English text').max(2000), es: z.string().trim().max(2000).optional() });

// ---- chat agents (staff) ----

export const ChatAgentSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    type: z.enum(CHAT_AGENT_TYPES),
    trialId: z.string().nullable(),
    /** The trial's short name (the brief title when shorter; contract/trial-name.ts). */
    trialTitle: z.string().nullable(),
    /** The trial's status: the public page offers the agent only while its trial is recruiting. */
    trialStatus: z.enum(['draft', 'recruiting', 'paused', 'closed']).nullable(),
    prescreenFormId: z.string().nullable(),
    prescreenFormName: z.string().nullable(),
    prescreenFormStatus: z.enum(['draft', 'published', 'archived']).nullable(),
    greeting: ChatTextSchema,
    closingMessage: ChatTextSchema,
    languages: z.array(LanguageSchema),
    requirePhoneVerification: z.boolean(),
    nextStep: z.enum(CHAT_NEXT_STEPS),
    active: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('ChatAgent');
export type ChatAgent = z.infer<typeof ChatAgentSchema>;

export const ChatAgentListSchema = z.object({ chatAgents: z.array(ChatAgentSchema), total: z.number().int() }).openapi('ChatAgentList');
export type ChatAgentList = z.infer<typeof ChatAgentListSchema>;

export const ListChatAgentsQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  type: z.enum(CHAT_AGENT_TYPES).optional(),
  /** Part of the agent's name. */
  search: z.string().trim().max(200).optional(),
});
export type ListChatAgentsQuery = z.infer<typeof ListChatAgentsQuerySchema>;

const languagesSchema = z
  .array(LanguageSchema)
  .min(1, 'Choose at least one language')
  .transform((values) => [...new Set(values)]);

const agentFields = {
  name: z.string().trim().min(1, 'Enter a name').max(200),
  type: z.enum(CHAT_AGENT_TYPES).default('PRESCREEN'),
  trialId: z.string().min(1),
  /** A prescreen form of that trial (same organization). */
  prescreenFormId: z.string().min(1),
  greeting: ChatTextSchema,
  closingMessage: ChatTextSchema,
  languages: languagesSchema.default(['en', 'es']),
  requirePhoneVerification: z.boolean().default(true),
  nextStep: z.enum(CHAT_NEXT_STEPS).default('callback'),
  active: z.boolean().default(true),
};

export const CreateChatAgentSchema = z.object(agentFields).openapi('CreateChatAgent');
export type CreateChatAgentInput = z.infer<typeof CreateChatAgentSchema>;

export const UpdateChatAgentSchema = z
  .object({
    name: agentFields.name.optional(),
    trialId: agentFields.trialId.optional(),
    prescreenFormId: agentFields.prescreenFormId.optional(),
    greeting: ChatTextSchema.optional(),
    closingMessage: ChatTextSchema.optional(),
    languages: languagesSchema.optional(),
    requirePhoneVerification: z.boolean().optional(),
    nextStep: z.enum(CHAT_NEXT_STEPS).optional(),
    active: z.boolean().optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: 'Nothing to update' })
  .openapi('UpdateChatAgent');
export type UpdateChatAgentInput = z.infer<typeof UpdateChatAgentSchema>;

// ---- the public conversation ----

export const ConversationStatusSchema = z.enum(CONVERSATION_STATUSES);
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

/**
 * What the page should offer next: `text` a message box, `phone` a phone input (POST verify { phone }),
 * `code` a 6-digit code input (POST verify { code }), `none` the conversation is over. Typing the phone number
 * or the code as a message works too.
 */
export const CHAT_AWAITING = ['text', 'phone', 'code', 'none'] as const;
export const ChatAwaitingSchema = z.enum(CHAT_AWAITING);
export type ChatAwaiting = z.infer<typeof ChatAwaitingSchema>;

export const ChatMessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(['visitor', 'agent', 'system']),
    text: z.string(),
    /** Agent messages: what they are (greeting, question, reask, info, safety, closing, ...). */
    kind: z.string().nullable(),
    /** Agent questions: the question id and its answer type. */
    questionId: z.string().nullable(),
    inputType: z.string().nullable(),
    /** Choice questions: the options to offer as buttons (value, label in the conversation's language). */
    options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('ChatMessage');
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

const publicState = {
  conversationId: z.string(),
  status: ConversationStatusSchema,
  language: LanguageSchema,
  awaiting: ChatAwaitingSchema,
  phoneVerified: z.boolean(),
  /** A finished chat asks the visitor for a 1-5 rating until they give one (POST /{conversationId}/rating). */
  rated: z.boolean(),
};

export const InitiateChatSchema = z
  .object({
    /** The chat page's organization: its public id (what /chat/{organizationId} carries) or its id. */
    organizationId: z.string().trim().min(1).max(100),
    chatAgentId: z.string().trim().min(1).max(100).optional(),
    language: LanguageSchema.optional(),
  })
  .openapi('InitiateChat');
export type InitiateChatInput = z.infer<typeof InitiateChatSchema>;

export const StartedChatSchema = z
  .object({
    ...publicState,
    /** The resume token: keep it (the page's `token` search param); it is shown only once. */
    token: z.string(),
    isTest: z.boolean(),
    agent: z.object({ id: z.string(), name: z.string() }),
    organization: z.object({ id: z.string(), publicId: z.string(), name: z.string() }),
    messages: z.array(ChatMessageSchema),
  })
  .openapi('StartedChat');
export type StartedChat = z.infer<typeof StartedChatSchema>;

/**
 * What the public chat page shows before the visitor writes (issue 32): the greeting and first prompt. Nothing is
 * stored: the conversation starts with the visitor's first message (POST /initiate, then the message).
 */
export const ChatPreviewSchema = z
  .object({
    language: LanguageSchema,
    languages: z.array(LanguageSchema),
    awaiting: ChatAwaitingSchema,
    agent: z.object({ id: z.string(), name: z.string() }),
    organization: z.object({ id: z.string(), publicId: z.string(), name: z.string() }),
    messages: z.array(ChatMessageSchema),
  })
  .openapi('ChatPreview');
export type ChatPreview = z.infer<typeof ChatPreviewSchema>;

export const VerifyChatSchema = z
  .object({
    conversationId: z.string().min(1).max(100),
    token: z.string().min(1).max(200),
    /** Step 1: the visitor's mobile number; a 6-digit code is sent by SMS. */
    phone: z.string().trim().min(1).max(40).optional(),
    /** Step 2: the code received. */
    code: z.string().trim().min(1).max(20).optional(),
  })
  .refine((value) => (value.phone === undefined) !== (value.code === undefined), { message: 'Give either phone or code', path: ['phone'] })
  .openapi('VerifyChat');
export type VerifyChatInput = z.infer<typeof VerifyChatSchema>;

export const ChatSendMessageSchema = z
  .object({
    token: z.string().min(1).max(200),
    text: z.string().trim().min(1, 'Write a message').max(CHAT_MESSAGE_MAX, `A message has at most ${CHAT_MESSAGE_MAX} characters`),
  })
  .openapi('ChatSendMessage');
export type ChatSendMessageInput = z.infer<typeof ChatSendMessageSchema>;

/** The answer to a message or a verify step: the new messages (the visitor's, then the agent's replies). */
export const ChatTurnSchema = z
  .object({
    ...publicState,
    messages: z.array(ChatMessageSchema),
    /**
     * Only while the SMS simulator is the provider (no text leaves the installation): the text message this
     * turn "sent" (the verification code), so the page can show what a real phone would receive. Never present
     * with a real provider.
     */
    simulatedText: z.string().optional(),
  })
  .openapi('ChatTurn');
export type ChatTurn = z.infer<typeof ChatTurnSchema>;

/** Resuming: every message so far. */
export const PublicConversationSchema = z
  .object({ ...publicState, agent: z.object({ id: z.string(), name: z.string() }).nullable(), messages: z.array(ChatMessageSchema) })
  .openapi('PublicChatConversation');
export type PublicConversation = z.infer<typeof PublicConversationSchema>;

export const PublicConversationQuerySchema = z.object({ token: z.string().min(1).max(200) });

// ---- conversations (staff) ----

export const StartTestChatSchema = z.object({ chatAgentId: z.string().min(1), language: LanguageSchema.optional() }).openapi('StartTestChat');

export const ConversationSummarySchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    status: ConversationStatusSchema,
    language: z.string(),
    isTest: z.boolean(),
    agent: z.object({ id: z.string(), name: z.string() }).nullable(),
    candidate: z.object({ id: z.string(), name: z.string() }).nullable(),
    messageCount: z.number().int(),
    prescreenResult: z.object({ id: z.string(), aiRecommendation: AiRecommendationSchema }).nullable(),
    phoneVerified: z.boolean(),
    completedAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('ChatConversationSummary');
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

export const ConversationListSchema = z.object({ conversations: z.array(ConversationSummarySchema), total: z.number().int() }).openapi('ChatConversationList');
export type ConversationList = z.infer<typeof ConversationListSchema>;

export const ConversationDetailSchema = ConversationSummarySchema.extend({
  prescreenResultId: z.string().nullable(),
  trialId: z.string().nullable(),
  messages: z.array(ChatMessageSchema),
}).openapi('ChatConversation');
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

export const CONVERSATION_PAGE_MAX = 200;

export const ListConversationsQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  status: ConversationStatusSchema.optional(),
  sortBy: z.enum(CONVERSATION_SORTS).default('createdAt:desc'),
  /** Candidate name or phone. */
  search: z.string().trim().max(200).optional(),
  /** YYYY-MM-DD (UTC), inclusive. */
  dateFrom: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
    .optional(),
  dateTo: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
    .optional(),
  chatAgentId: IdFilterSchema.optional(),
  isTest: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(CONVERSATION_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListConversationsQuery = z.infer<typeof ListConversationsQuerySchema>;
