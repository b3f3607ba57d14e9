import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';

export const SMS_PURPOSES = ['transactional', 'marketing', 'verification', 'reply'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];
export const SMS_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'undelivered', 'received', 'blocked'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const SMS_TEMPLATE_KEYS = ['visit_confirmation', 'visit_reminder', 'prescreen_invitation', 'callback_notice', 'follow_up', 'booking_feedback'] as const;
export type SmsTemplateKey = (typeof SMS_TEMPLATE_KEYS)[number];
export const SMS_TEMPLATE_VARIABLES = ['firstName', 'trialTitle', 'visitTime', 'siteAddress', 'organizationName'] as const;
export type SmsTemplateVariable = (typeof SMS_TEMPLATE_VARIABLES)[number];

/** Why a message was not sent (stored in sms_message.error with status 'blocked'). */
export const SMS_BLOCK_REASONS = ['do_not_contact', 'sms_opted_out', 'no_sms_consent', 'no_call_consent', 'quiet_hours', 'no_phone'] as const;
export type SmsBlockReason = (typeof SMS_BLOCK_REASONS)[number];

/** The longest body accepted (Twilio's limit: 1,600 characters, sent as up to 10 segments). */
export const SMS_MAX_BODY_LENGTH = 1600;

export const SmsMessageSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    candidateId: z.string().nullable(),
    direction: z.enum(['outbound', 'inbound']),
    toPhone: z.string(),
    fromPhone: z.string(),
    body: z.string(),
    status: z.enum(SMS_STATUSES),
    purpose: z.enum(SMS_PURPOSES),
    provider: z.enum(['simulator', 'twilio']),
    providerMessageId: z.string().nullable(),
    templateKey: z.string().nullable(),
    /** The block reason (status blocked) or the provider's error code (failed / undelivered). */
    error: z.string().nullable(),
    sentByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('SmsMessage');
export type SmsMessage = z.infer<typeof SmsMessageSchema>;

export const SmsThreadSchema = z
  .object({
    candidateId: z.string(),
    organizationId: z.string(),
    candidate: z.object({ firstName: z.string(), lastName: z.string() }),
    lastMessage: SmsMessageSchema.pick({ id: true, direction: true, body: true, status: true, createdAt: true }),
    messageCount: z.number().int(),
    inboundCount: z.number().int(),
    /** Inbound messages after the last outbound one: replies nobody has answered yet. */
    unansweredCount: z.number().int(),
  })
  .openapi('SmsThread');

export const ListSmsThreadsQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  candidateId: IdFilterSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const SmsThreadListSchema = z.object({ threads: z.array(SmsThreadSchema) }).openapi('SmsThreadList');

export const SmsConsentStateSchema = z
  .object({
    consentSms: z.boolean(),
    doNotContact: z.boolean(),
    /** When the candidate (or staff on their behalf) last turned SMS off, if that is the current state. */
    smsOptedOutAt: TimestampSchema.nullable(),
    /** Whether a free-text (transactional) message may be sent now, and why not. */
    canSend: z.boolean(),
    blockReason: z.enum(SMS_BLOCK_REASONS).nullable(),
  })
  .openapi('SmsConsentState');

export const SmsThreadDetailSchema = z
  .object({
    candidate: z.object({
      id: z.string(),
      organizationId: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      phone: z.string().nullable(),
      preferredLanguage: z.string(),
    }),
    consent: SmsConsentStateSchema,
    messages: z.array(SmsMessageSchema),
  })
  .openapi('SmsThreadDetail');

/** The longest value of a template variable (a name, a date...). */
export const SMS_VARIABLE_MAX_LENGTH = 300;
const VariablesSchema = z.record(z.string(), z.string().max(SMS_VARIABLE_MAX_LENGTH)).optional();

export const SendSmsSchema = z
  .object({
    candidateId: z.string().min(1),
    body: z.string().trim().min(1).max(SMS_MAX_BODY_LENGTH).optional(),
    templateKey: z.enum(SMS_TEMPLATE_KEYS).optional(),
    variables: VariablesSchema,
  })
  .refine((value) => Boolean(value.body) !== Boolean(value.templateKey), { message: 'Give either body or templateKey (exactly one)', path: ['body'] })
  .openapi('SendSms');
export type SendSmsInput = z.infer<typeof SendSmsSchema>;

export const SmsTemplateSchema = z
  .object({
    key: z.enum(SMS_TEMPLATE_KEYS),
    label: z.string(),
    purpose: z.enum(SMS_PURPOSES),
    variables: z.array(z.enum(SMS_TEMPLATE_VARIABLES)),
    text: z.object({ en: z.string(), es: z.string() }),
  })
  .openapi('SmsTemplate');
export const SmsTemplateListSchema = z.object({ templates: z.array(SmsTemplateSchema) }).openapi('SmsTemplateList');

export const SimulatorInboundSchema = z
  .object({
    candidateId: z.string().optional(),
    /** A phone number (E.164) when the sender is not a candidate, e.g. a chat visitor. */
    from: z.string().trim().min(3).max(20).optional(),
    body: z.string().min(1).max(SMS_MAX_BODY_LENGTH),
  })
  .refine((value) => Boolean(value.candidateId) !== Boolean(value.from), { message: 'Give either candidateId or from (exactly one)', path: ['candidateId'] })
  .openapi('SimulatorInbound');

export const SimulatorInboundResultSchema = z
  .object({
    /** The stored inbound message (null when no organization could be matched). */
    message: SmsMessageSchema.nullable(),
    /** What the keyword handling did: opt_out, opt_in, help, or none (an ordinary reply). */
    action: z.enum(['opt_out', 'opt_in', 'help', 'none']),
    /** The TwiML the webhook answered. */
    twiml: z.string(),
  })
  .openapi('SimulatorInboundResult');

export const SimulatorOutboxQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  candidateId: IdFilterSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const SimulatorOutboxSchema = z.object({ messages: z.array(SmsMessageSchema) }).openapi('SimulatorOutbox');

/** Texts to numbers no organization owns (decision 118), for Cohortly's internal admins. */
export const UnroutedSmsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
export const UnroutedSmsListSchema = z.object({ messages: z.array(SmsMessageSchema) }).openapi('UnroutedSmsList');
export type UnroutedSmsList = z.infer<typeof UnroutedSmsListSchema>;
