import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';
import { CALL_FILTERS } from './call-filters';
import { PrescreenAnswerSchema } from './prescreen';

/** Voice agents and calls (server: features/voice-agents, features/calls; provider port: integrations/voice). */

export const VOICE_AGENT_TYPES = ['PRESCREEN', 'SITE_VISIT_SCHEDULING'] as const;
export const VoiceAgentTypeSchema = z.enum(VOICE_AGENT_TYPES);
export type VoiceAgentType = z.infer<typeof VoiceAgentTypeSchema>;

export const CALL_STATUSES = ['queued', 'ringing', 'in_progress', 'ended', 'failed', 'cancelled'] as const;
export const CALL_OUTCOMES = ['completed', 'no_answer', 'busy', 'voicemail', 'failed', 'hung_up', 'declined'] as const;
/** Outcomes where nobody took the call: they count toward unreachable and may earn a callback. */
export const MISSED_OUTCOMES: readonly string[] = ['no_answer', 'busy', 'voicemail'];
export { CALL_FILTERS };
/** Why a call was not placed (409 CALL_BLOCKED). */
export const CALL_BLOCK_REASONS = ['do_not_contact', 'no_call_consent', 'quiet_hours', 'no_phone', 'no_agent', 'trial_not_recruiting'] as const;
export type CallBlockReason = (typeof CALL_BLOCK_REASONS)[number];
/** Simulator only: how the synthetic person behaves ('ring': rings until cancelled). Ignored by Vapi. */
export const CALL_SIMULATIONS = ['answer', 'no_answer', 'busy', 'voicemail', 'hang_up', 'spanish', 'ring'] as const;

const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;
const HourMinuteSchema = z.string().regex(HOUR_MINUTE, 'Use HH:mm (00:00-23:59)');
const MessageSchema = z
  .object({ en: z.string().trim().min(1, 'Enter the English wording').max(1000), es: z.string().trim().max(1000).optional() })
  .openapi('VoiceMessage');
const E164Schema = z.string().regex(/^\+[1-9]\d{7,14}$/, 'Use an E.164 number, e.g. +12125550100');

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * What a SITE_VISIT_SCHEDULING agent may book: visits at these sites of the agent's trial, on these weekdays,
 * starting at these local times (the site's time zone), from minNoticeHours to daysAhead days ahead. The
 * agent offers the earliest free slots; a slot already booked at a site is never offered.
 */
export const VisitScheduleSchema = z
  .object({
    sites: z.array(z.string().trim().min(1).max(200)).min(1, 'Choose at least one site').max(50),
    weekdays: z.array(z.enum(WEEKDAYS)).min(1, 'Choose at least one weekday').default(['mon', 'tue', 'wed', 'thu', 'fri']),
    times: z.array(HourMinuteSchema).min(1, 'Add at least one start time').max(48).default(['09:00', '11:00', '14:00']),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(8 * 60)
      .default(60),
    daysAhead: z.number().int().min(1).max(90).default(14),
    minNoticeHours: z
      .number()
      .int()
      .min(0)
      .max(14 * 24)
      .default(24),
  })
  .openapi('VisitSchedule');
export type VisitSchedule = z.infer<typeof VisitScheduleSchema>;

export const VoiceAgentSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    type: VoiceAgentTypeSchema,
    trialId: z.string().nullable(),
    prescreenFormId: z.string().nullable(),
    schedule: z.record(z.string(), z.unknown()),
    languages: z.array(z.string()),
    voice: z.string(),
    firstMessage: MessageSchema,
    voicemailMessage: MessageSchema,
    callingHoursStart: z.string(),
    callingHoursEnd: z.string(),
    fromNumber: z.string().nullable(),
    providerAssistantId: z.string().nullable(),
    active: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('VoiceAgent');
export type VoiceAgent = z.infer<typeof VoiceAgentSchema>;

export const VoiceAgentListSchema = z.object({ voiceAgents: z.array(VoiceAgentSchema), total: z.number().int() }).openapi('VoiceAgentList');

export const ListVoiceAgentsQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  type: VoiceAgentTypeSchema.optional(),
});
export type ListVoiceAgentsQuery = z.infer<typeof ListVoiceAgentsQuerySchema>;

const agentFields = {
  name: z.string().trim().min(1, 'Name is required').max(100),
  type: VoiceAgentTypeSchema,
  trialId: z.string().min(1).nullable().optional(),
  prescreenFormId: z.string().min(1).nullable().optional(),
  /** SITE_VISIT_SCHEDULING agents: a VisitSchedule (required); PRESCREEN agents: free-form. */
  schedule: z.record(z.string(), z.unknown()).optional(),
  languages: z
    .array(z.enum(['en', 'es']))
    .min(1)
    .max(2)
    .optional(),
  voice: z.string().trim().min(1).max(100).optional(),
  firstMessage: MessageSchema,
  voicemailMessage: MessageSchema,
  callingHoursStart: HourMinuteSchema.optional(),
  callingHoursEnd: HourMinuteSchema.optional(),
  fromNumber: E164Schema.nullable().optional(),
  active: z.boolean().optional(),
};

const hoursInOrder = (value: { callingHoursStart?: string; callingHoursEnd?: string }) =>
  !value.callingHoursStart || !value.callingHoursEnd || value.callingHoursStart < value.callingHoursEnd;

/**
 * A SITE_VISIT_SCHEDULING agent books visits of one trial: it needs the trial and a valid VisitSchedule (its
 * sites being sites of that trial is checked by the server). A PRESCREEN agent's schedule stays a free record.
 */
function schedulingSetup(value: { type?: VoiceAgentType; trialId?: string | null; schedule?: Record<string, unknown> }, ctx: z.RefinementCtx) {
  if (value.type !== 'SITE_VISIT_SCHEDULING') return;
  if (!value.trialId) ctx.addIssue({ code: 'custom', path: ['trialId'], message: 'A scheduling agent needs a trial' });
  const parsed = VisitScheduleSchema.safeParse(value.schedule ?? {});
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({
        code: 'custom',
        path: ['schedule', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
        message: issue.message,
      });
}

export const CreateVoiceAgentSchema = z
  .object({ organizationId: z.string().optional(), ...agentFields })
  .refine(hoursInOrder, { message: 'Calling hours must start before they end', path: ['callingHoursEnd'] })
  .superRefine(schedulingSetup)
  .openapi('CreateVoiceAgent');
export type CreateVoiceAgentInput = z.infer<typeof CreateVoiceAgentSchema>;

export const UpdateVoiceAgentSchema = z
  .object({
    name: agentFields.name.optional(),
    trialId: agentFields.trialId,
    prescreenFormId: agentFields.prescreenFormId,
    schedule: agentFields.schedule,
    languages: agentFields.languages,
    voice: agentFields.voice,
    firstMessage: MessageSchema.optional(),
    voicemailMessage: MessageSchema.optional(),
    callingHoursStart: agentFields.callingHoursStart,
    callingHoursEnd: agentFields.callingHoursEnd,
    fromNumber: agentFields.fromNumber,
    active: agentFields.active,
  })
  .refine(hoursInOrder, { message: 'Calling hours must start before they end', path: ['callingHoursEnd'] })
  .openapi('UpdateVoiceAgent');
export type UpdateVoiceAgentInput = z.infer<typeof UpdateVoiceAgentSchema>;

// ---- calls ----

export const CallSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    candidateId: z.string().nullable(),
    voiceAgentId: z.string().nullable(),
    type: VoiceAgentTypeSchema,
    direction: z.enum(['outbound', 'inbound']),
    status: z.enum(CALL_STATUSES),
    outcome: z.string().nullable(),
    provider: z.enum(['simulator', 'vapi']),
    providerCallId: z.string().nullable(),
    language: z.string(),
    startedAt: TimestampSchema.nullable(),
    endedAt: TimestampSchema.nullable(),
    durationSeconds: z.number().int().nullable(),
    costUsd: z.number().nullable(),
    recordingUrl: z.string().nullable(),
    prescreenResultId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Call');
export type Call = z.infer<typeof CallSchema>;

export const CallEventSummarySchema = z.object({ id: z.string(), type: z.string(), receivedAt: TimestampSchema }).openapi('CallEventSummary');

export const CallDetailSchema = CallSchema.extend({
  transcript: z.array(z.object({ role: z.string(), text: z.string(), at: z.string().optional() })),
  structuredData: z.record(z.string(), z.unknown()),
  events: z.array(CallEventSummarySchema),
  /** The answers the review lists for this call: its prescreen result's, else what the call would record now. */
  answers: z.array(PrescreenAnswerSchema),
}).openapi('CallDetail');
export type CallDetail = z.infer<typeof CallDetailSchema>;

export const CreateCallSchema = z
  .object({
    candidateId: z.string().min(1),
    organizationId: z.string().optional(),
    type: VoiceAgentTypeSchema.default('PRESCREEN'),
    /** Simulator only; ignored with Vapi. Also read from the candidate's customFields.simulate. */
    simulate: z.enum(CALL_SIMULATIONS).optional(),
  })
  .openapi('CreateCall');
export type CreateCallInput = z.infer<typeof CreateCallSchema>;

/** GET /api/calls/pre-check: whether "Call now" may place a call to the candidate, asked before the dialog's button. */
export const CallPreCheckQuerySchema = z.object({
  candidateId: z.string().min(1).max(100),
  type: VoiceAgentTypeSchema.default('PRESCREEN'),
});
export type CallPreCheckQuery = z.infer<typeof CallPreCheckQuerySchema>;

/** Plain words for each reason a call cannot be placed, with what fixes it (the dialog and the 409 say these). */
export const CALL_BLOCK_WORDS: Record<CallBlockReason, string> = {
  no_agent: 'There is no active prescreen voice agent. Create or turn one on under Voice agents.',
  trial_not_recruiting: "The voice agent's trial is not recruiting. Start recruiting on the trial page first.",
  do_not_contact: 'This person is marked do not contact.',
  no_call_consent: 'This person has not agreed to be called. Record their consent on the profile first.',
  no_phone: 'There is no phone number on file.',
  quiet_hours: 'It is outside calling hours (8 am to 9 pm) where this person lives.',
};

export const CallPreCheckSchema = z
  .object({
    /** True when a call may be placed now. */
    canCall: z.boolean(),
    /** Every reason it may not, all at once, in the order a person would fix them. */
    reasons: z.array(z.object({ reason: z.enum(CALL_BLOCK_REASONS), message: z.string() })),
    /** The active agent of the type that would call, if any. */
    agent: z.object({ id: z.string(), name: z.string() }).nullable(),
    /**
     * When the calling hours are the only obstacle: the next moment they allow a call (in every zone the person
     * may be in); a callback can be scheduled for it (POST /api/callbacks/schedule). Null otherwise.
     */
    nextAllowedAt: TimestampSchema.nullable(),
    /** The zone the hours were judged in; null when unknown (then every zone of the phone's country was used). */
    timeZone: z.string().nullable(),
    /** When the zone is unknown because the phone's country has several: the country's name, for the dialog to say so. */
    zoneUnknownCountry: z.string().nullable(),
  })
  .openapi('CallPreCheck');
export type CallPreCheck = z.infer<typeof CallPreCheckSchema>;

export const ListCallsQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  candidateId: IdFilterSchema.optional(),
  status: z.enum(CALL_STATUSES).optional(),
  type: VoiceAgentTypeSchema.optional(),
  filter: z.enum(CALL_FILTERS).default('all'),
  limit: z.coerce.number().int().min(1).max(10000).default(10000),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListCallsQuery = z.infer<typeof ListCallsQuerySchema>;

export const CallListSchema = z.object({ calls: z.array(CallSchema), total: z.number().int() }).openapi('CallList');

export const DeleteCallResultSchema = z.object({ action: z.enum(['cancelled', 'deleted']), call: CallSchema.nullable() }).openapi('DeleteCallResult');

export const ProcessCallResultSchema = z.object({ call: CallSchema, prescreenResultId: z.string(), recommendation: z.string() }).openapi('ProcessCallResult');

export const CallStorageSchema = z
  .object({
    callId: z.string(),
    events: z.array(
      z.object({ id: z.string(), type: z.string(), dedupeKey: z.string(), receivedAt: TimestampSchema, payload: z.record(z.string(), z.unknown()) }),
    ),
  })
  .openapi('CallStorage');

export const CallLogEntrySchema = z
  .object({
    at: TimestampSchema,
    type: z.string(),
    summary: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown(), result: z.unknown() })).optional(),
  })
  .openapi('CallLogEntry');
export const CallLogsSchema = z.object({ callId: z.string(), entries: z.array(CallLogEntrySchema) }).openapi('CallLogs');

// ---- bulk prescreen and reconciliation ----

export const PRESCREEN_CALLS_RUN_KIND = 'prescreen_calls';

export const PrescreenAllSchema = z
  .object({
    organizationId: z.string().optional(),
    /**
     * Only candidates of this trial (default: the agent's trial, plus candidates linked to no trial). With
     * `candidateIds`, the trial the calls are for (it must be recruiting); the people need not be linked to it yet.
     */
    trialId: z.string().optional(),
    /** Only these people (a selection: the trial matcher's), those of them due a prescreen call; 409 when none is. */
    candidateIds: z.array(z.string().uuid()).min(1, 'Choose at least one candidate').max(5000, 'At most 5,000 people at a time').optional(),
    /** Simulator only: how every synthetic person behaves (default: each candidate's customFields.simulate, else answer). */
    simulate: z.enum(CALL_SIMULATIONS).optional(),
  })
  .openapi('PrescreenAll');
export type PrescreenAllInput = z.infer<typeof PrescreenAllSchema>;

export const ProcessVapiSchema = z
  .object({
    organizationId: z.string().optional(),
    organizationIds: z.array(z.string()).optional(),
    /** Open calls older than this are asked for at the provider (default 10 minutes; 0 = every open call). */
    staleAfterMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(10),
  })
  .openapi('ProcessVapi');
export type ProcessVapiInput = z.infer<typeof ProcessVapiSchema>;

export const ProcessVapiResultSchema = z
  .object({
    /** Open calls asked for at the provider. */
    checked: z.number().int(),
    /** Of those, calls the provider reported finished and that are now recorded as ended. */
    finished: z.number().int(),
    /** Calls the provider does not know (or that failed): marked failed. */
    lost: z.number().int(),
    /** Finished prescreen calls without a result that now have one. */
    recorded: z.number().int(),
  })
  .openapi('ProcessVapiResult');
export type ProcessVapiResult = z.infer<typeof ProcessVapiResultSchema>;
