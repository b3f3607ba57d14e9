import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';

/**
 * Patient satisfaction (decision 067): a 1-5 rating, with an optional comment, at the end of a chat (buttons),
 * as the last question of a prescreen call, and by SMS ("reply 1-5") after a visit is booked.
 */
export const SATISFACTION_CHANNELS = ['chat', 'call', 'sms'] as const;
export type SatisfactionChannel = (typeof SATISFACTION_CHANNELS)[number];
export const SATISFACTION_COMMENT_MAX = 1000;

export const RatingSchema = z.number().int().min(1).max(5).openapi({ description: '1 (very poor) to 5 (excellent)' });

/** POST /api/chat-conversations/{conversationId}/rating: the visitor rates a finished chat (no sign-in; the resume token). */
export const RateChatSchema = z
  .object({
    token: z.string().min(16).max(200),
    rating: RatingSchema,
    comment: z.string().trim().max(SATISFACTION_COMMENT_MAX).optional(),
  })
  .openapi('RateChat');
export type RateChatInput = z.infer<typeof RateChatSchema>;

export const SatisfactionResponseSchema = z
  .object({
    id: z.string().uuid(),
    organizationId: z.string().uuid(),
    channel: z.enum(SATISFACTION_CHANNELS),
    agentId: z.string().uuid().nullable(),
    rating: RatingSchema,
    comment: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('SatisfactionResponse');
export type SatisfactionResponse = z.infer<typeof SatisfactionResponseSchema>;
