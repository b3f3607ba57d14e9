import { z } from '@hono/zod-openapi';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { OrganizationIdListSchema, TimestampSchema } from './common';

/** The recruitment funnel (guide §1). A candidate's status and its history are the truth dashboards use. */
export const CANDIDATE_STATUSES = [
  'new',
  'contacted',
  'prescreening',
  'prescreen_passed',
  'prescreen_failed',
  'visit_scheduled',
  'enrolled',
  'not_interested',
  'unreachable',
  'do_not_contact',
] as const;
export const CandidateStatusSchema = z.enum(CANDIDATE_STATUSES);
export type CandidateStatus = z.infer<typeof CandidateStatusSchema>;

export const CANDIDATE_SOURCES = ['manual', 'referral', 'campaign', 'import', 'web_chat', 'inbound_call', 'ehr'] as const;
export const CANDIDATE_SEXES = ['female', 'male', 'other', 'unknown'] as const;
export const CandidateSexSchema = z.enum(CANDIDATE_SEXES);

export const PrescreenNoteSchema = z
  .object({
    text: z.string(),
    authorUserId: z.string().nullable(),
    authorName: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .openapi('PrescreenNote');
export type PrescreenNote = z.infer<typeof PrescreenNoteSchema>;

export const CONTACT_EVENT_KINDS = ['status_change', 'note', 'created', 'updated', 'import', 'consent', 'prescreen', 'decision', 'call', 'sms', 'chat', 'callback', 'booking'] as const;
export type ContactEventKind = (typeof CONTACT_EVENT_KINDS)[number];

/** Reason stored when do-not-contact is set without one. */
export const DEFAULT_DO_NOT_CONTACT_REASON = 'Requested by candidate';

// ---------------------------------------------------------------------------------------------------------
// Field validation shared by the create form, the API and the import (one set of rules).

/** Normalizes a phone number to E.164, or returns null when libphonenumber does not accept it. */
export function normalizePhone(raw: string, defaultCountry: string = 'US'): string | null {
  const text = raw.trim();
  if (!text) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry.toUpperCase() as CountryCode);
  return parsed && parsed.isValid() ? parsed.number : null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const PhoneInputSchema = (defaultCountry = 'US') =>
  z
    .string()
    .max(40)
    .transform((value, ctx) => {
      const phone = normalizePhone(value, defaultCountry);
      if (!phone) {
        ctx.addIssue({ code: 'custom', message: `Enter a valid phone number (e.g. +1 212 555 0123); "${value.length > 20 ? 'the value' : value}" is not one` });
        return z.NEVER;
      }
      return phone;
    });

export const EmailInputSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email('Enter a valid email address'))
  .transform((value) => value.toLowerCase());

export const DateOfBirthSchema = z
  .string()
  .trim()
  .refine(isIsoDate, 'Enter a date as YYYY-MM-DD')
  .refine((value) => value <= new Date().toISOString().slice(0, 10), 'Date of birth cannot be in the future')
  .refine((value) => value >= '1900-01-01', 'Date of birth must be after 1900-01-01');

const optionalText = (max: number) => z.string().trim().max(max);
const CustomFieldsSchema = z.record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]));

export const ConsentInputSchema = z
  .object({
    sms: z.boolean().optional(),
    calls: z.boolean().optional(),
    doNotContact: z.boolean().optional(),
    /** Kept with the do-not-contact flag; defaults to "Requested by candidate". */
    doNotContactReason: z.string().trim().min(1).max(500).optional(),
  })
  .openapi('CandidateConsentInput');

/** The writable fields of a candidate, with the phone's default country as a parameter (imports choose it). */
export const candidateFieldsSchema = (defaultCountry = 'US') =>
  z.object({
    firstName: z.string().trim().min(1, 'First name is required').max(100),
    lastName: optionalText(100).optional(),
    phone: PhoneInputSchema(defaultCountry).nullable().optional(),
    email: EmailInputSchema.nullable().optional(),
    dateOfBirth: DateOfBirthSchema.nullable().optional(),
    sex: CandidateSexSchema.optional(),
    addressLine: optionalText(300).nullable().optional(),
    city: optionalText(120).nullable().optional(),
    region: optionalText(120).nullable().optional(),
    postalCode: optionalText(20).nullable().optional(),
    country: optionalText(56).nullable().optional(),
    /** IANA time zone, e.g. America/New_York. */
    timeZone: optionalText(64).nullable().optional(),
    preferredLanguage: z.string().trim().min(2).max(35).optional(),
    source: z.string().trim().min(1).max(60).optional(),
    customFields: CustomFieldsSchema.optional(),
  });

export const CreateCandidateSchema = candidateFieldsSchema('US')
  .extend({
    status: CandidateStatusSchema.optional(),
    consent: ConsentInputSchema.optional(),
    trialIds: z.array(z.string().uuid()).max(50).optional(),
  })
  .openapi('CreateCandidate');
export type CreateCandidateInput = z.infer<typeof CreateCandidateSchema>;

/** A partial update. A status change goes through the funnel history (a contact event with the reason). */
export const UpdateCandidateSchema = candidateFieldsSchema('US')
  .partial()
  .extend({
    status: CandidateStatusSchema.optional(),
    /** Why the status changed; kept in the contact history. */
    statusReason: z.string().trim().min(1).max(500).optional(),
    consent: ConsentInputSchema.optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: 'Nothing to update' })
  .openapi('UpdateCandidate');
export type UpdateCandidateInput = z.infer<typeof UpdateCandidateSchema>;

// ---------------------------------------------------------------------------------------------------------
// Responses

export const CandidateConsentSchema = z
  .object({
    sms: z.boolean(),
    calls: z.boolean(),
    doNotContact: z.boolean(),
    doNotContactAt: TimestampSchema.nullable(),
    doNotContactReason: z.string().nullable(),
  })
  .openapi('CandidateConsent');

export const IndexedPrescreenNoteSchema = PrescreenNoteSchema.extend({ index: z.number().int() }).openapi('IndexedPrescreenNote');
export type IndexedPrescreenNote = z.infer<typeof IndexedPrescreenNoteSchema>;

const candidateShape = {
  id: z.string(),
  organizationId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  sex: CandidateSexSchema,
  addressLine: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  timeZone: z.string().nullable(),
  preferredLanguage: z.string(),
  source: z.string(),
  customFields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  consent: CandidateConsentSchema,
  status: CandidateStatusSchema,
  trialIds: z.array(z.string()),
  importRunId: z.string().nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
};

export const CandidateSchema = z
  .object({ ...candidateShape, prescreenNotes: z.array(IndexedPrescreenNoteSchema) })
  .openapi('Candidate');
export type Candidate = z.infer<typeof CandidateSchema>;

/** A row of the candidate list: the candidate without note texts (the count only). */
export const CandidateListItemSchema = z.object({ ...candidateShape, noteCount: z.number().int() }).openapi('CandidateListItem');
export type CandidateListItem = z.infer<typeof CandidateListItemSchema>;

// ---------------------------------------------------------------------------------------------------------
// The list

export const CANDIDATE_SORTS = ['createdAt', 'updatedAt', 'lastName', 'status'] as const;
export const CANDIDATE_PAGE_DEFAULT = 50;
export const CANDIDATE_PAGE_MAX = 500;

const StatusListSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean)))
  .pipe(z.array(CandidateStatusSchema).optional());

/**
 * Paging is keyset (`cursor`), not offset: the cursor holds the last row's sort key and id, so page 50 costs
 * the same index walk as page 1 at 100,000 candidates (an offset makes the database read and drop every
 * earlier row). `nextCursor` is absent on the last page.
 */
export const ListCandidatesQuerySchema = z.object({
  organizationId: z.string().optional(),
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  /** Part of the name, the email, or the phone's digits. */
  search: z.string().trim().max(100).optional(),
  /** One status, several (repeat the parameter or separate with commas). */
  status: StatusListSchema,
  trialId: z.string().uuid().optional(),
  sortBy: z.enum(CANDIDATE_SORTS).default('createdAt'),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(CANDIDATE_PAGE_MAX).default(CANDIDATE_PAGE_DEFAULT),
  cursor: z.string().max(500).optional(),
});
export type ListCandidatesQuery = z.infer<typeof ListCandidatesQuerySchema>;

export const CandidateListSchema = z
  .object({
    candidates: z.array(CandidateListItemSchema),
    /** How many candidates match the filters (all pages). */
    total: z.number().int(),
    nextCursor: z.string().optional(),
  })
  .openapi('CandidateList');

export const OrganizationIdQuerySchema = z.object({ organizationId: z.string().optional() });

// ---------------------------------------------------------------------------------------------------------
// Notes, bulk actions

export const CreatePrescreenNoteSchema = z.object({ text: z.string().trim().min(1, 'Note text is required').max(5000) }).openapi('CreatePrescreenNote');
export const PrescreenNoteListSchema = z.object({ notes: z.array(IndexedPrescreenNoteSchema) });

const CandidateIdsSchema = z.array(z.string().min(1)).min(1, 'Give at least one candidate id').max(5000);

export const ResetStatusSchema = z.object({ candidateIds: CandidateIdsSchema }).openapi('ResetCandidateStatus');
export const ResetStatusResultSchema = z.object({
  /** How many went back to `new`. */
  reset: z.number().int(),
  /** Already `new`: unchanged. */
  unchanged: z.array(z.string()),
  /** Do-not-contact candidates keep that status: the candidate asked for it. */
  skippedDoNotContact: z.array(z.string()),
});

export const BulkUpdateCandidatesSchema = z
  .object({
    candidateIds: CandidateIdsSchema,
    status: CandidateStatusSchema.optional(),
    statusReason: z.string().trim().min(1).max(500).optional(),
    addTrialId: z.string().uuid().optional(),
    removeTrialId: z.string().uuid().optional(),
  })
  .refine((value) => value.status !== undefined || value.addTrialId !== undefined || value.removeTrialId !== undefined, {
    message: 'Give status, addTrialId or removeTrialId',
  })
  .openapi('BulkUpdateCandidates');
export const BulkUpdateResultSchema = z.object({ updated: z.number().int() });

export const BulkDeleteCandidatesSchema = z.object({ candidateIds: CandidateIdsSchema }).openapi('BulkDeleteCandidates');
export const BulkDeleteResultSchema = z.object({ deleted: z.number().int() });

// ---------------------------------------------------------------------------------------------------------
// Import

export const IMPORT_MAX_ROWS = 100_000;

/** The candidate fields an import column can fill; `custom` keeps the column in customFields, `ignore` drops it. */
export const IMPORT_FIELDS = [
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'email',
  'dateOfBirth',
  'sex',
  'addressLine',
  'city',
  'region',
  'postalCode',
  'country',
  'timeZone',
  'preferredLanguage',
  'source',
  'custom',
  'ignore',
] as const;
export const ImportFieldSchema = z.enum(IMPORT_FIELDS);
export type ImportField = z.infer<typeof ImportFieldSchema>;

const ImportRowValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ImportCandidatesSchema = z
  .object({
    organizationId: z.string().optional(),
    format: z.enum(['csv', 'json']),
    /** CSV text with a header line, or an array of JSON objects (one per row). */
    data: z.union([z.string().max(100_000_000), z.array(z.record(z.string(), ImportRowValueSchema))]),
    /** Column (CSV header or JSON key) -> field. Columns left out are guessed from their names. */
    mapping: z.record(z.string(), ImportFieldSchema).optional(),
    /** What to do with a row whose phone or email already belongs to a candidate of the organization. */
    duplicates: z.enum(['merge', 'skip']).default('merge'),
    /** Country for phone numbers written without +country code (ISO 3166 alpha-2). */
    defaultCountry: z.string().regex(/^[A-Za-z]{2}$/, 'Use a two-letter country code, e.g. US').default('US'),
    trialId: z.string().uuid().optional(),
    /** Shown in the processing runs list; defaults to "Candidate import (N rows)". */
    label: z.string().trim().min(1).max(200).optional(),
  })
  .refine((value) => (value.format === 'csv' ? typeof value.data === 'string' : Array.isArray(value.data)), {
    message: 'format csv takes data as CSV text; format json takes data as an array of objects',
    path: ['data'],
  })
  .openapi('ImportCandidates');
export type ImportCandidatesInput = z.infer<typeof ImportCandidatesSchema>;

export const ImportPreviewSchema = z.object({
  columns: z.array(z.string()),
  /** The guessed (or given) field of each column. */
  mapping: z.record(z.string(), ImportFieldSchema),
  totalRows: z.number().int(),
  /** The first rows, mapped onto candidate fields and validated. */
  rows: z.array(
    z.object({
      rowNumber: z.number().int(),
      values: z.record(z.string(), z.unknown()),
      valid: z.boolean(),
      errors: z.array(z.object({ field: z.string(), message: z.string() })),
    }),
  ),
  /** Over the sample: how many rows are valid and invalid. */
  sample: z.object({ size: z.number().int(), valid: z.number().int(), invalid: z.number().int() }),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

// ---------------------------------------------------------------------------------------------------------
// Contact history

export const ContactEventSchema = z
  .object({
    id: z.string(),
    candidateId: z.string(),
    kind: z.string(),
    summary: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
    referenceId: z.string().nullable(),
    /** Who: a staff member (their name), or 'Import' / 'System'. */
    actor: z.object({ userId: z.string().nullable(), label: z.string() }),
    occurredAt: TimestampSchema,
  })
  .openapi('ContactEvent');
export type ContactEvent = z.infer<typeof ContactEventSchema>;

export const ContactHistoryQuerySchema = z.object({
  candidateId: z.string().min(1),
  /** Oldest first (the default, a timeline) or newest first. */
  order: z.enum(['asc', 'desc']).default('asc'),
  kind: z.enum(CONTACT_EVENT_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

export const ContactHistorySchema = z.object({ candidateId: z.string(), events: z.array(ContactEventSchema) }).openapi('ContactHistory');
