import { z } from '@hono/zod-openapi';
import { OrganizationIdListSchema, TimestampSchema } from './common';

export const PROCESSING_RUN_KINDS = ['candidate_import', 'prescreen_calls', 'trial_match', 'sequence_enrollment', 'note_reread', 'demo_reset'] as const;
export const PROCESSING_RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
/**
 * pending until processed. Imports: created, merged, skipped (a duplicate kept as it was) or invalid.
 * Bulk prescreen calls: called, deferred (outside calling hours: a callback was scheduled), skipped (consent,
 * do-not-contact, no phone: the reason is in errors) or failed (the provider refused).
 */
export const PROCESSING_ITEM_OUTCOMES = ['pending', 'created', 'merged', 'skipped', 'invalid', 'failed', 'called', 'deferred'] as const;

/** A run's rows by what became of them; a dashboard sums them over runs. */
const RunCountsSchema = z.object({
  total: z.number().int(),
  processed: z.number().int(),
  /** Imports: rows that created a candidate. Prescreen calls: candidates called. */
  succeeded: z.number().int(),
  /** Imports: rows merged into an existing candidate. Prescreen calls: candidates outside calling hours given a callback. */
  merged: z.number().int(),
  /** Imports: duplicates kept as they were. Prescreen calls: not callable (consent, do-not-contact, no phone, no longer due). */
  skipped: z.number().int(),
  /** Imports: rows that could not be used (invalid input). Prescreen calls: the provider refused the call. */
  failed: z.number().int(),
});

export const ProcessingRunSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    kind: z.string(),
    label: z.string(),
    status: z.enum(PROCESSING_RUN_STATUSES),
    ...RunCountsSchema.shape,
    /** processed / total, 0..1. */
    progress: z.number(),
    options: z.record(z.string(), z.unknown()),
    createdByUserId: z.string().nullable(),
    createdAt: TimestampSchema,
    startedAt: TimestampSchema.nullable(),
    finishedAt: TimestampSchema.nullable(),
    error: z.string().nullable(),
  })
  .openapi('ProcessingRun');
export type ProcessingRun = z.infer<typeof ProcessingRunSchema>;

export const ProcessingRunItemSchema = z
  .object({
    rowNumber: z.number().int(),
    outcome: z.enum(PROCESSING_ITEM_OUTCOMES),
    errors: z.array(z.object({ field: z.string(), message: z.string() })),
    candidateId: z.string().nullable(),
    /** The linked candidate's name ("First Last"), for the outcomes list. */
    candidateName: z.string().nullable(),
    /** The row as mapped onto fields: kept for invalid rows so they can be fixed; cleared once a row is used. */
    input: z.record(z.string(), z.unknown()).nullable(),
    processedAt: TimestampSchema.nullable(),
  })
  .openapi('ProcessingRunItem');

export const ListProcessingRunsQuerySchema = z.object({
  organizationIds: OrganizationIdListSchema,
  orgs: OrganizationIdListSchema,
  kind: z.enum(PROCESSING_RUN_KINDS).optional(),
  /** Part of the label or the run id. */
  search: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const ProcessingRunListSchema = z.object({ runs: z.array(ProcessingRunSchema) });

const CountsByStatusSchema = z.object(
  Object.fromEntries(PROCESSING_RUN_STATUSES.map((status) => [status, z.number().int()])) as Record<(typeof PROCESSING_RUN_STATUSES)[number], z.ZodNumber>,
);

/** Runs plus what a dashboard shows at a glance: runs by status and rows by outcome over the listed runs. */
export const ProcessingRunsDataSchema = z
  .object({
    runs: z.array(ProcessingRunSchema),
    summary: z.object({
      runs: z.number().int(),
      byStatus: CountsByStatusSchema,
      rows: RunCountsSchema,
    }),
  })
  .openapi('ProcessingRunsData');

export const RunItemsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  outcome: z.enum(PROCESSING_ITEM_OUTCOMES).optional(),
});

export const ProcessingRunDataSchema = z
  .object({
    run: ProcessingRunSchema,
    /** Per-row outcomes in row order, paged by limit/offset. */
    items: z.array(ProcessingRunItemSchema),
    /** Items matching the outcome filter. */
    itemTotal: z.number().int(),
    /** Items by outcome over the whole run. */
    outcomes: z.record(z.string(), z.number().int()),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('ProcessingRunData');
