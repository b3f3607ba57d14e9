import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';
import { CALL_FILTERS, VoiceAgentTypeSchema } from './voice';
import { CALLBACK_STATUSES } from './callback-status';

/**
 * Callbacks (server: features/callbacks): a call we owe a candidate at a time, placed by a background job.
 * One open callback (pending or calling) per candidate.
 */

export { CALLBACK_STATUSES };
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number];
/** Why it exists: the person asked (staff or the voice agent recorded it), a call was missed, or a bulk run reached them outside calling hours. */
export const CALLBACK_REASONS = ['requested', 'missed_call', 'outside_calling_hours'] as const;
export type CallbackReason = (typeof CALLBACK_REASONS)[number];
/** Calls placed for one callback at most; after that it is failed. */
export const CALLBACK_MAX_ATTEMPTS = 3;

export const CallbackSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    candidateId: z.string(),
    /** First and last name, for the list (staff only). */
    candidateName: z.string(),
    voiceAgentId: z.string().nullable(),
    type: VoiceAgentTypeSchema,
    status: z.enum(CALLBACK_STATUSES),
    reason: z.enum(CALLBACK_REASONS),
    /** The time asked for. */
    requestedFor: TimestampSchema,
    /** When it will be placed: the time asked, moved into calling hours in the candidate's time zone. */
    scheduledFor: TimestampSchema,
    /** The candidate's time zone the calling hours were applied in. */
    timeZone: z.string(),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    lastCallId: z.string().nullable(),
    lastOutcome: z.string().nullable(),
    lastError: z.string().nullable(),
    note: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Callback');
export type Callback = z.infer<typeof CallbackSchema>;

export const ListCallbacksQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  candidateId: IdFilterSchema.optional(),
  status: z.enum(CALLBACK_STATUSES).optional(),
  /** failedPrescreen / failedScheduling: callbacks of that type that failed, or that follow a missed call. */
  filter: z.enum(CALL_FILTERS).default('all'),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListCallbacksQuery = z.infer<typeof ListCallbacksQuerySchema>;

export const CallbackListSchema = z
  .object({
    callbacks: z.array(CallbackSchema),
    total: z.number().int(),
    /** Counts over the whole selection (ignoring filter and status), for the tabs. */
    counts: z.object(Object.fromEntries(CALLBACK_STATUSES.map((status) => [status, z.number().int()])) as Record<CallbackStatus, z.ZodNumber>),
  })
  .openapi('CallbackList');

export const ScheduleCallbackSchema = z
  .object({
    candidateId: z.string().min(1),
    organizationId: z.string().optional(),
    type: VoiceAgentTypeSchema.default('PRESCREEN'),
    /** When to call (ISO 8601 with an offset or Z). Moved into calling hours in the candidate's time zone when needed. */
    at: z.string().datetime({ offset: true, message: 'Use an ISO 8601 date and time with a zone, e.g. 2026-11-23T15:00:00Z' }),
    note: z.string().trim().max(500).optional(),
  })
  .openapi('ScheduleCallback');
export type ScheduleCallbackInput = z.infer<typeof ScheduleCallbackSchema>;

export const ScheduleCallbackResultSchema = z
  .object({
    callback: CallbackSchema,
    /** True when the candidate's open callback was moved instead of a new one created. */
    rescheduled: z.boolean(),
    /** True when the time asked fell outside calling hours and was moved. */
    moved: z.boolean(),
  })
  .openapi('ScheduleCallbackResult');

export const CancelCallbackResultSchema = z.object({ callback: CallbackSchema }).openapi('CancelCallbackResult');
