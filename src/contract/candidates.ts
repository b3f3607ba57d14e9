import { z } from '@hono/zod-openapi';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { OrganizationIdListSchema, TimestampSchema, IdFilterSchema } from './common';

import { CANDIDATE_STATUSES } from './candidate-status';

export { CANDIDATE_STATUSES };
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

export const CONTACT_EVENT_KINDS = [
  'status_change',
  'note',
  'created',
  'updated',
  'import',
  'consent',
  'prescreen',
  'decision',
  'call',
  'sms',
  'chat',
  'callback',
  'booking',
  'email',
  'sequence',
] as const;
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
  return parsed?.isValid() ? parsed.number : null;
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

export const INVALID_DATE_MESSAGE = 'Not a valid date: enter it as YYYY-MM-DD';

/** One error per problem: a value that is not a date is only that, not also "in the future". */
export const DateOfBirthSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (!isIsoDate(value)) ctx.addIssue({ code: 'custom', message: INVALID_DATE_MESSAGE });
    else if (value > new Date().toISOString().slice(0, 10)) ctx.addIssue({ code: 'custom', message: 'Date of birth cannot be in the future' });
    else if (value < '1900-01-01') ctx.addIssue({ code: 'custom', message: 'Date of birth must be after 1900-01-01' });
  });

/** Words an import or a form may use for consent: yes/no, true/false, 1/0, Y/N (and a blank: not stated). */
export function parseConsentFlag(value: unknown): boolean | null | 'invalid' {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'invalid';
  const text = value === null || value === undefined ? '' : String(value).trim().toLowerCase();
  if (!text) return null;
  if (['yes', 'y', 'true', 't', '1', 'si', 'sí', 'x', 'opted in', 'opt in', 'consented'].includes(text)) return true;
  if (['no', 'n', 'false', 'f', '0', 'opted out', 'opt out', 'declined'].includes(text)) return false;
  return 'invalid';
}

/** A consent date: YYYY-MM-DD (or a full ISO timestamp), not in the future. */
export const ConsentDateSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const day = value.slice(0, 10);
    if (!isIsoDate(day) || (value.length > 10 && Number.isNaN(Date.parse(value)))) ctx.addIssue({ code: 'custom', message: INVALID_DATE_MESSAGE });
    else if (day > new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
      ctx.addIssue({ code: 'custom', message: 'Consent date cannot be in the future' });
  });
export const ConsentSourceSchema = z.string().trim().min(1, 'Say where the consent was given (e.g. "paper form at clinic")').max(200);

const optionalText = (max: number) => z.string().trim().max(max);
const CustomFieldsSchema = z.record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]));

export const ConsentInputSchema = z
  .object({
    sms: z.boolean().optional(),
    calls: z.boolean().optional(),
    doNotContact: z.boolean().optional(),
    /** Kept with the do-not-contact flag; defaults to "Requested by candidate". */
    doNotContactReason: z.string().trim().min(1).max(500).optional(),
    /** Where consent given here was documented (kept with sms/calls turned on); defaults to "Recorded by staff". */
    source: ConsentSourceSchema.optional(),
    /** When it was given (YYYY-MM-DD); defaults to now. */
    date: ConsentDateSchema.optional(),
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
    /** Where and when SMS / call consent was given (documented consent), when it is on. */
    smsSource: z.string().nullable(),
    smsAt: TimestampSchema.nullable(),
    callsSource: z.string().nullable(),
    callsAt: TimestampSchema.nullable(),
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

export const CandidateSchema = z.object({ ...candidateShape, prescreenNotes: z.array(IndexedPrescreenNoteSchema) }).openapi('Candidate');
export type Candidate = z.infer<typeof CandidateSchema>;

/**
 * A row of the candidate list: what the list screen and the candidate pickers show (name, phone and its display form, email, status,
 * trials, source, created; do-not-contact and consent as flags), read as those columns only (decision 114). The
 * rest of a candidate (address, date of birth, custom fields, consent's sources and dates, notes) is the detail's
 * (GET /api/candidates/{candidateId}). The server selects exactly these fields (`CANDIDATE_LIST_FIELDS`).
 */
export const CandidateListItemSchema = z
  .object({
    id: candidateShape.id,
    organizationId: candidateShape.organizationId,
    firstName: candidateShape.firstName,
    lastName: candidateShape.lastName,
    phone: candidateShape.phone,
    /** The phone as a person reads it: national form for a number of the person's own country, else international (decision 157). */
    phoneDisplay: z.string().nullable().openapi({ example: '(212) 555-0101' }),
    email: candidateShape.email,
    status: candidateShape.status,
    source: candidateShape.source,
    consent: CandidateConsentSchema.pick({ sms: true, calls: true, doNotContact: true }).openapi('CandidateListConsent'),
    trialIds: candidateShape.trialIds,
    createdAt: candidateShape.createdAt,
    updatedAt: candidateShape.updatedAt,
  })
  .openapi('CandidateListItem');
export type CandidateListItem = z.infer<typeof CandidateListItemSchema>;
/** The list row's fields, in the schema's order (the server's select and the tests follow it). */
export const CANDIDATE_LIST_FIELDS = Object.keys(CandidateListItemSchema.shape) as Array<keyof CandidateListItem>;

// ---------------------------------------------------------------------------------------------------------
// The list

export const CANDIDATE_SORTS = ['createdAt', 'updatedAt', 'lastName', 'status'] as const;
export const CANDIDATE_PAGE_DEFAULT = 50;
export const CANDIDATE_PAGE_MAX = 500;

const StatusListSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) =>
    value === undefined
      ? undefined
      : (Array.isArray(value) ? value : [value])
          .flatMap((item) => item.split(','))
          .map((item) => item.trim())
          .filter(Boolean),
  )
  .pipe(z.array(CandidateStatusSchema).optional());

/**
 * Paging is keyset (`cursor`), not offset: the cursor holds the last row's sort key and id, so page 50 costs
 * the same index walk as page 1 at 100,000 candidates (an offset makes the database read and drop every
 * earlier row). `nextCursor` is absent on the last page.
 */
export const ListCandidatesQuerySchema = z.object({
  organizationId: IdFilterSchema.optional(),
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

/** Counting a search or trial filter stops here: an exact count of a large organization would cost more than the page itself. */
export const CANDIDATE_COUNT_LIMIT = 10_000;

export const CandidateListSchema = z
  .object({
    candidates: z.array(CandidateListItemSchema),
    /**
     * How many candidates match the filters (all pages). Exact at any size for a list by organization and status alone
     * (kept counts, decision 115); a search or a trial filter is counted exactly up to CANDIDATE_COUNT_LIMIT, and past
     * it `total` is that limit and `totalAtLeast` is true (the web shows "10,000+").
     */
    total: z.number().int(),
    totalAtLeast: z.boolean(),
    nextCursor: z.string().optional(),
  })
  .openapi('CandidateList');

export const OrganizationIdQuerySchema = z.object({ organizationId: IdFilterSchema.optional() });

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

/**
 * Record documented consent for many candidates: the chosen ids, or every candidate matching the list's
 * filters (`filter`, the same fields as GET /api/candidates). Do-not-contact candidates are skipped and counted.
 */
export const BulkConsentSchema = z
  .object({
    candidateIds: CandidateIdsSchema.optional(),
    filter: z
      .object({
        organizationId: z.string().optional(),
        search: z.string().trim().max(100).optional(),
        status: z.array(CandidateStatusSchema).optional(),
        trialId: z.string().uuid().optional(),
      })
      .optional(),
    sms: z.boolean().default(false),
    calls: z.boolean().default(false),
    source: ConsentSourceSchema,
    /** YYYY-MM-DD; defaults to today. */
    date: ConsentDateSchema.optional(),
  })
  .refine((value) => value.sms || value.calls, { message: 'Choose SMS, calls or both', path: ['sms'] })
  .refine((value) => (value.candidateIds === undefined) !== (value.filter === undefined), {
    message: 'Give candidateIds or filter (not both)',
    path: ['candidateIds'],
  })
  .openapi('BulkConsent');
export type BulkConsentInput = z.infer<typeof BulkConsentSchema>;
export const BulkConsentResultSchema = z
  .object({
    /** Candidates whose consent was recorded (turned on, or its source and date documented). */
    updated: z.number().int(),
    /** Already had that consent with a documented source: unchanged. */
    unchanged: z.number().int(),
    /** Do-not-contact: never changed by a bulk action. */
    skippedDoNotContact: z.number().int(),
  })
  .openapi('BulkConsentResult');

export const BulkDeleteCandidatesSchema = z.object({ candidateIds: CandidateIdsSchema }).openapi('BulkDeleteCandidates');
export const BulkDeleteResultSchema = z.object({ deleted: z.number().int() });

// ---------------------------------------------------------------------------------------------------------
// Import

/** Rows one import takes (decision 046: measured peak memory of a streamed 1,000,000-row import stays under 500 MB). */
export const IMPORT_MAX_ROWS = 1_000_000;
/** The largest JSON import request body (the whole body is parsed at once: about 100,000 rows; 413 above it). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The largest streamed CSV body (POST /bulk/stream, read incrementally): 1,000,000 rows at up to ~500 bytes each. */
export const IMPORT_STREAM_MAX_BYTES = 500 * 1024 * 1024;

/** The candidate fields an import column can fill; `custom` keeps the column in customFields, `ignore` drops it. */
/** A candidate's profile: the fields staff write and an import maps, in the order forms show them. */
export const CANDIDATE_PROFILE_FIELDS = [
  'firstName',
  'lastName',
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
] as const;

export const IMPORT_FIELDS = [
  'firstName',
  'lastName',
  'fullName',
  ...CANDIDATE_PROFILE_FIELDS.slice(2),
  'consentSms',
  'consentCalls',
  'consentSource',
  'consentDate',
  'conditions',
  'medications',
  'lab',
  'clinicalDate',
  'notes',
  'custom',
  'ignore',
] as const;
/**
 * Columns read into clinical facts (decision 079), not candidate fields: `conditions` and `medications` hold
 * `;`-separated names or codes, `lab` a value of the measure its header names ("HbA1c", "eGFR (mL/min/1.73m2)"),
 * `clinicalDate` the date of the row's lab values, `notes` free text (a referral letter's words) stored as the
 * candidate's clinical note and read by the note reader like one typed on their page (decision 132). Several columns
 * may take `conditions`, `medications`, `lab` or `notes`.
 */
export const IMPORT_CLINICAL_FIELDS = ['conditions', 'medications', 'lab', 'clinicalDate', 'notes'] as const;
export type ImportClinicalField = (typeof IMPORT_CLINICAL_FIELDS)[number];
export const IMPORT_CONSENT_FLAGS = ['consentSms', 'consentCalls'] as const;
export const ImportFieldSchema = z.enum(IMPORT_FIELDS);
export type ImportField = z.infer<typeof ImportFieldSchema>;

const ImportRowValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What an import does with its rows, the same for the JSON form and the streamed file (decision 046). */
const ImportOptionsSchema = z.object({
  organizationId: z.string().optional(),
  /** What to do with a row whose phone or email already belongs to a candidate of the organization. */
  duplicates: z.enum(['merge', 'skip']).default('merge'),
  /** Country for phone numbers written without +country code (ISO 3166 alpha-2). */
  defaultCountry: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Use a two-letter country code, e.g. US')
    .default('US'),
  trialId: z.string().uuid().optional(),
  /** Shown in the processing runs list; defaults to "Candidate import (N rows)". */
  label: z.string().trim().min(1).max(200).optional(),
  /**
   * Where the file's consent was documented (e.g. "paper form at clinic"): required when a consent column
   * is mapped; used for rows that say yes without a source of their own.
   */
  consentSource: ConsentSourceSchema.optional(),
  /** When, for rows without a consent date of their own (YYYY-MM-DD); defaults to the import's day. */
  consentDate: ConsentDateSchema.optional(),
});

export const ImportCandidatesSchema = ImportOptionsSchema.extend({
  format: z.enum(['csv', 'json']),
  /** CSV text with a header line, or an array of JSON objects (one per row). */
  data: z.union([z.string().max(IMPORT_MAX_BYTES), z.array(z.record(z.string(), ImportRowValueSchema))]),
  /** Column (CSV header or JSON key) -> field. Columns left out are guessed from their names. */
  mapping: z.record(z.string(), ImportFieldSchema).optional(),
  /** Preview only: which page of rows (invalid rows first) to show, and how many per page. */
  previewOffset: z.number().int().min(0).optional(),
  previewLimit: z.number().int().min(1).max(500).optional(),
})
  .refine((value) => (value.format === 'csv' ? typeof value.data === 'string' : Array.isArray(value.data)), {
    message: 'format csv takes data as CSV text; format json takes data as an array of objects',
    path: ['data'],
  })
  .openapi('ImportCandidates');
export type ImportCandidatesInput = z.infer<typeof ImportCandidatesSchema>;

/** The mapping as JSON text in the query string (the body of a streamed import is the file itself). */
const MappingQuerySchema = z
  .string()
  .max(20_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Give the mapping as a JSON object: {"Column": "field"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), ImportFieldSchema));

/**
 * POST /api/candidates/bulk/stream: the same options as the JSON import, in the query string; the body is the
 * CSV file as `text/csv`, read as a stream (decision 046).
 */
export const ImportStreamQuerySchema = ImportOptionsSchema.extend({
  mapping: MappingQuerySchema.optional().openapi({ type: 'string', description: 'JSON object: column -> field; columns left out are guessed' }),
}).openapi('ImportStreamQuery');
export type ImportStreamQuery = z.infer<typeof ImportStreamQuerySchema>;

export const ImportPreviewSchema = z.object({
  columns: z.array(z.string()),
  /** The guessed (or given) field of each column. */
  mapping: z.record(z.string(), ImportFieldSchema),
  totalRows: z.number().int(),
  /** A page of rows, mapped onto candidate fields and validated: every invalid row first, then valid ones. */
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
  /** The page of `rows`: its offset into (invalid rows, then valid rows) and how many such rows there are. */
  page: z.object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int() }),
  /** Whether a consent column is mapped (then consentSource must be given). */
  consentMapped: z.boolean(),
  /**
   * What the clinical columns give over the sample: facts read, the lab measure each `lab` column names, and
   * the values not recognized (kept by name when they are conditions or medications, left out when a lab value
   * cannot be read), most frequent first.
   */
  clinical: z.object({
    facts: z.number().int(),
    /** Rows of the sample with a note (a `notes` column), stored as clinical notes and read into facts on import. */
    notes: z.number().int(),
    labColumns: z.array(z.object({ column: z.string(), measure: z.string(), unit: z.string().nullable() })),
    unrecognised: z.array(z.object({ column: z.string(), value: z.string(), rows: z.number().int(), problem: z.string(), kept: z.boolean() })),
  }),
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
  candidateId: IdFilterSchema,
  /** Oldest first (the default, a timeline) or newest first. */
  order: z.enum(['asc', 'desc']).default('asc'),
  kind: z.enum(CONTACT_EVENT_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

export const ContactHistorySchema = z.object({ candidateId: z.string(), events: z.array(ContactEventSchema) }).openapi('ContactHistory');
