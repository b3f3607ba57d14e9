import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';

/**
 * Candidate clinical facts: what the product knows about a person's health, each with where it came from
 * (docs/decisions/025-candidate-facts-and-matching.md). The trial matcher evaluates criteria rules against them.
 */
export const FACT_KINDS = ['condition', 'medication', 'lab', 'pregnancy', 'smoking', 'performance_status', 'age', 'sex'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/**
 * present: has it now (a condition), takes it (a medication), is pregnant, smokes.
 * history: had it / took it / smoked before, not now. absent: stated not to have it ("denies chest pain").
 */
export const FACT_STATUSES = ['present', 'history', 'absent'] as const;
export type FactStatus = (typeof FACT_STATUSES)[number];

/** prescreen: an answer to a question linked to a criterion; import: a file column; fhir: a FHIR R4 bundle; note: a clinical note read by the extractor; manual: typed by staff. */
export const FACT_SOURCES = ['prescreen', 'import', 'fhir', 'note', 'manual'] as const;
export type FactSource = (typeof FACT_SOURCES)[number];

const NoteSpanSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });

/** A fact as a reader (FHIR bundle, note extractor, import column, prescreen answer) produces it, before it is stored. */
export const CandidateFactInputSchema = z
  .object({
    kind: z.enum(FACT_KINDS),
    /** The vocabulary concept ("mesh:D001249", "cohortly:copd") of a condition or medication; null when none is known. */
    conceptId: z.string().max(200).nullable(),
    /** What it is, in words: "asthma", "metformin", "HbA1c" (a lab's measure name as criteria rules name it). */
    name: z.string().trim().min(1).max(300),
    /** Conditions, medications, pregnancy, smoking; null for labs, age and sex. */
    status: z.enum(FACT_STATUSES).nullable(),
    /** Labs and vitals (in `unit`), age in years, ECOG/Karnofsky score. */
    value: z.number().finite().nullable(),
    unit: z.string().max(40).nullable(),
    /** Sex ('female' | 'male'), a performance status scale ('ECOG' | 'Karnofsky'), or a coded answer. */
    valueText: z.string().max(300).nullable(),
    /** When it was observed or began (onset of a condition, date of a lab), YYYY-MM-DD; null when unknown. */
    observedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
    source: z.enum(FACT_SOURCES),
    /** The source's own id: a FHIR resource id, a note id, a prescreen result id, an import run id. */
    sourceRef: z.string().max(200).nullable(),
    /** The words it was read from (a note's sentence, an answer), shown as evidence. */
    sourceText: z.string().max(2000).nullable(),
    /** Where in the note those words are: character offsets [start, end) into the note's text. */
    span: NoteSpanSchema.nullable(),
    /** A prescreen answer's criterion, when the fact is the answer to one. */
    criterionId: z.string().max(100).nullable(),
    /** Codes the source gave (SNOMED, RxNorm, LOINC), "system|code". */
    code: z.string().max(200).nullable(),
  })
  .openapi('CandidateFactInput');
export type CandidateFactInput = z.infer<typeof CandidateFactInputSchema>;

export const CandidateFactSchema = CandidateFactInputSchema.extend({
  id: z.string(),
  candidateId: z.string(),
  recordedAt: TimestampSchema,
}).openapi('CandidateFact');
export type CandidateFact = z.infer<typeof CandidateFactSchema>;
