import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema } from './common';

/**
 * The phone-number registry (server: features/phone-numbers; decision 016). Each number belongs to one
 * organization; voice agents call from their organization's numbers only, and inbound calls are routed to the
 * owner. Only Cohortly's internal admins (the Cohortly organization active) assign, change or release numbers.
 */

export const PHONE_NUMBER_PROVIDERS = ['simulator', 'twilio', 'vapi'] as const;
export const PhoneNumberProviderSchema = z.enum(PHONE_NUMBER_PROVIDERS);
export type PhoneNumberProvider = z.infer<typeof PhoneNumberProviderSchema>;

export const PHONE_NUMBER_PURPOSES = ['voice', 'sms', 'both'] as const;
export const PhoneNumberPurposeSchema = z.enum(PHONE_NUMBER_PURPOSES);
export type PhoneNumberPurpose = z.infer<typeof PhoneNumberPurposeSchema>;

/** Purposes a voice agent may call from. */
export const VOICE_PURPOSES: readonly PhoneNumberPurpose[] = ['voice', 'both'];

/** E.164 after removing spaces, dashes, dots and parentheses: "+1 (212) 555-0100" is +12125550100. */
export const E164InputSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/[\s\-().]/g, ''))
  .pipe(z.string().regex(/^\+[1-9]\d{7,14}$/, 'Use an E.164 number, e.g. +12125550100'));

const LabelSchema = z.string().trim().max(100, 'At most 100 characters');

export const PhoneNumberSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    number: z.string(),
    provider: PhoneNumberProviderSchema,
    purpose: PhoneNumberPurposeSchema,
    label: z.string().nullable(),
    providerId: z.string().nullable(),
    /** The organization's voice agents calling from this number. */
    agents: z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() })),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('PhoneNumber');
export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;

export const PhoneNumberListSchema = z.object({ phoneNumbers: z.array(PhoneNumberSchema), total: z.number().int() }).openapi('PhoneNumberList');
export type PhoneNumberList = z.infer<typeof PhoneNumberListSchema>;

export const ListPhoneNumbersQuerySchema = z.object({
  organizationId: z.string().optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  purpose: PhoneNumberPurposeSchema.optional(),
});
export type ListPhoneNumbersQuery = z.infer<typeof ListPhoneNumbersQuerySchema>;

export const AssignPhoneNumberSchema = z
  .object({
    number: E164InputSchema,
    organizationId: z.string().min(1, 'Choose an organization'),
    /** Default: the configured voice provider (vapi), else twilio when a Twilio account is configured, else simulator. */
    provider: PhoneNumberProviderSchema.optional(),
    purpose: PhoneNumberPurposeSchema.default('voice'),
    label: LabelSchema.optional(),
  })
  .openapi('AssignPhoneNumber');
export type AssignPhoneNumberInput = z.infer<typeof AssignPhoneNumberSchema>;

export const UpdatePhoneNumberSchema = z
  .object({
    label: LabelSchema.nullable().optional(),
    purpose: PhoneNumberPurposeSchema.optional(),
    /** Reassign to another organization (refused while an active agent of the owner uses the number). */
    organizationId: z.string().min(1).optional(),
  })
  .openapi('UpdatePhoneNumber');
export type UpdatePhoneNumberInput = z.infer<typeof UpdatePhoneNumberSchema>;
