import { z } from '@hono/zod-openapi';
import { CLINICAL_NOTE_MAX } from './clinical-note';
import { TimestampSchema } from './common';
import { ProcessingRunSchema } from './processing-runs';
import { CriterionRuleSchema } from './trials';

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
    observedOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable(),
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

// ---- clinical notes ----

export { CLINICAL_NOTE_MAX };

export const CreateClinicalNoteSchema = z
  .object({
    body: z
      .string()
      .trim()
      .min(1, 'Write or paste the note')
      .max(CLINICAL_NOTE_MAX, `At most ${CLINICAL_NOTE_MAX.toLocaleString('en-US')} characters`),
  })
  .openapi('CreateClinicalNote');
export type CreateClinicalNoteInput = z.infer<typeof CreateClinicalNoteSchema>;

export const ClinicalNoteSchema = z
  .object({
    id: z.string(),
    candidateId: z.string(),
    body: z.string(),
    authorName: z.string().nullable(),
    createdAt: TimestampSchema,
    /** The facts the extractor read from this note. */
    factCount: z.number().int(),
  })
  .openapi('ClinicalNote');
export type ClinicalNote = z.infer<typeof ClinicalNoteSchema>;

export const CandidateClinicalRecordSchema = z
  .object({ notes: z.array(ClinicalNoteSchema), facts: z.array(CandidateFactSchema) })
  .openapi('CandidateClinicalRecord');
export type CandidateClinicalRecord = z.infer<typeof CandidateClinicalRecordSchema>;

/** A fact typed by staff: the source is 'manual'. */
export const CreateCandidateFactSchema = CandidateFactInputSchema.pick({
  kind: true,
  name: true,
  status: true,
  value: true,
  unit: true,
  valueText: true,
  observedOn: true,
})
  .extend({
    status: z.enum(FACT_STATUSES).nullable().default(null),
    value: z.number().finite().nullable().default(null),
    unit: z.string().trim().max(40).nullable().default(null),
    valueText: z.string().trim().max(300).nullable().default(null),
    observedOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
      .nullable()
      .default(null),
  })
  .superRefine((fact, context) => {
    const needsStatus = fact.kind === 'condition' || fact.kind === 'medication' || fact.kind === 'pregnancy' || fact.kind === 'smoking';
    if (needsStatus && !fact.status) context.addIssue({ code: 'custom', path: ['status'], message: 'Say whether it is present, past or absent' });
    if ((fact.kind === 'lab' || fact.kind === 'age' || fact.kind === 'performance_status') && fact.value == null)
      context.addIssue({ code: 'custom', path: ['value'], message: 'A value is needed' });
  })
  .openapi('CreateCandidateFact');
export type CreateCandidateFactInput = z.infer<typeof CreateCandidateFactSchema>;

// ---- FHIR import ----

export const FHIR_BUNDLE_MAX_BYTES = 10 * 1024 * 1024;

export const FhirImportResultSchema = z
  .object({
    candidateId: z.string(),
    /** created: a new candidate; merged: the bundle's patient matched an existing candidate by phone or email. */
    outcome: z.enum(['created', 'merged']),
    factCount: z.number().int(),
    warnings: z.array(z.string()),
  })
  .openapi('FhirImportResult');
export type FhirImportResult = z.infer<typeof FhirImportResultSchema>;

// ---- the trial matcher ----

export const MATCH_CLASSES = ['likely', 'possible', 'excluded'] as const;
export const MatchClassSchema = z.enum(MATCH_CLASSES);
export type MatchClass = (typeof MATCH_CLASSES)[number];
/** In eligibility terms: met = the person meets what the trial asks on this criterion (an exclusion does not apply to them). */
export const MATCH_OUTCOMES = ['met', 'not_met', 'unknown', 'not_applicable'] as const;
export type MatchOutcome = (typeof MATCH_OUTCOMES)[number];

export const MatchCountsSchema = z
  .object({ likely: z.number().int(), possible: z.number().int(), excluded: z.number().int(), total: z.number().int() })
  .openapi('MatchCounts');
export type MatchCounts = z.infer<typeof MatchCountsSchema>;

export const MatchCriterionSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['inclusion', 'exclusion']),
    text: z.string(),
    hasRule: z.boolean(),
    rule: CriterionRuleSchema.nullable(),
    population: z.string().nullable(),
    /** A key fact (who the trial is for): unknown, it keeps a candidate "possibly" eligible. */
    key: z.boolean(),
  })
  .openapi('MatchCriterion');

const MatchRunSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']),
  total: z.number().int(),
  processed: z.number().int(),
  progress: z.number(),
  createdAt: TimestampSchema,
  finishedAt: TimestampSchema.nullable(),
  error: z.string().nullable(),
});

export const TrialMatchOverviewSchema = z
  .object({
    trial: z.object({ id: z.string(), title: z.string(), status: z.string(), targetEnrollment: z.number().int().nullable(), organizationId: z.string() }),
    criteria: z.array(MatchCriterionSchema),
    /** The newest run, whatever its state (progress while it runs). */
    latestRun: MatchRunSchema.nullable(),
    /** The run the results below come from. */
    resultsRun: MatchRunSchema.nullable(),
    counts: MatchCountsSchema,
    /** Criteria, candidates or their facts changed since the results were computed. */
    stale: z.boolean(),
    /** Whether a language model may judge unknown criteria against a candidate's notes (LLM_JUDGE_NOTES, decision 097). */
    llmJudge: z.boolean(),
  })
  .openapi('TrialMatchOverview');
export type TrialMatchOverview = z.infer<typeof TrialMatchOverviewSchema>;

export const MATCH_PAGE_MAX = 200;
export const ListMatchesQuerySchema = z.object({
  class: MatchClassSchema.optional(),
  /** Only this candidate's row (decision 133): where a person stands in the trial's ranking. */
  candidateId: z.string().uuid().optional(),
  /** Only candidates this criterion excludes (with class=excluded) or leaves unknown. */
  criterionId: z.string().max(100).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MATCH_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListMatchesQuery = z.input<typeof ListMatchesQuerySchema>;

export const TrialMatchRowSchema = z
  .object({
    candidate: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), status: z.string() }),
    /** Already linked to the trial. */
    inTrial: z.boolean(),
    matchClass: MatchClassSchema,
    score: z.number(),
    metCount: z.number().int(),
    notMetIds: z.array(z.string()),
    unknownIds: z.array(z.string()),
    /** Unknown criteria a language model judged "not met" from the notes (decision 097): flagged, never excluded. */
    llmFlagged: z.number().int(),
  })
  .openapi('TrialMatchRow');
export type TrialMatchRow = z.infer<typeof TrialMatchRowSchema>;

export const TrialMatchListSchema = z.object({ matches: z.array(TrialMatchRowSchema), total: z.number().int() }).openapi('TrialMatchList');
export type TrialMatchList = z.infer<typeof TrialMatchListSchema>;

/**
 * A language model's judgement of a criterion the rules left unknown, against the candidate's notes (decision
 * 097, TrialGPT): advice with the sentences it cited. It never decides the class: a "not met" flags the
 * candidate for a person to check, it never excludes.
 */
export const LlmJudgementSchema = z
  .object({
    verdict: z.enum(['met', 'not_met', 'unknown']),
    explanation: z.string(),
    /** The note sentences it relied on, numbered as sent, with their words as they were. */
    sentences: z.array(z.object({ id: z.number().int(), noteId: z.string(), text: z.string() })),
    model: z.string(),
    judgedAt: TimestampSchema,
  })
  .openapi('LlmJudgement');
export type LlmJudgement = z.infer<typeof LlmJudgementSchema>;

export const CriterionEvidenceSchema = z
  .object({
    criterionId: z.string(),
    kind: z.enum(['inclusion', 'exclusion']),
    text: z.string(),
    outcome: z.enum(MATCH_OUTCOMES),
    key: z.boolean(),
    reason: z.string(),
    /** The fact that decided it, with its source (a note's words, an answer, a record). */
    fact: CandidateFactSchema.nullable(),
    /** `llm` evidence: the language model's judgement, for a criterion the rules leave unknown (null when none). */
    llm: z.union([LlmJudgementSchema, z.null()]),
  })
  .openapi('CriterionEvidence');
export type CriterionEvidence = z.infer<typeof CriterionEvidenceSchema>;

export const CandidateMatchSchema = z
  .object({
    trialId: z.string(),
    trialTitle: z.string(),
    candidate: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), status: z.string() }),
    inTrial: z.boolean(),
    matchClass: MatchClassSchema,
    /** The chance the candidate is eligible given the evidence, 0-1 (decision 131). */
    score: z.number(),
    /** The class and score in plain words: what decided it, and what is not known ("6 exclusions not mentioned in a full clinical note"). */
    summary: z.string(),
    evidence: z.array(CriterionEvidenceSchema),
    /** Criteria a language model judged "not met" from the notes: the candidate stays in their class, flagged for a person to check. */
    llmFlagged: z.number().int(),
  })
  .openapi('CandidateMatch');
export type CandidateMatch = z.infer<typeof CandidateMatchSchema>;

export const GapAnalysisSchema = z
  .object({
    counts: MatchCountsSchema,
    targetEnrollment: z.number().int().nullable(),
    /** Criteria by how many candidates they exclude; `onlyBlocker`: for how many it is the only one not met (what relaxing it would admit). */
    excluding: z.array(
      z.object({
        criterionId: z.string(),
        kind: z.enum(['inclusion', 'exclusion']),
        text: z.string(),
        excluded: z.number().int(),
        onlyBlocker: z.number().int(),
      }),
    ),
    /** Criteria by how many not-excluded candidates nothing known decides: what to ask next. */
    unknown: z.array(
      z.object({ criterionId: z.string(), kind: z.enum(['inclusion', 'exclusion']), text: z.string(), unknown: z.number().int(), key: z.boolean() }),
    ),
  })
  .openapi('GapAnalysis');
export type GapAnalysis = z.infer<typeof GapAnalysisSchema>;

/** What if one criterion's rule were different (or dropped: `rule` null)? Counted over the latest results. */
export const WhatIfSchema = z.object({ criterionId: z.string().min(1).max(100), rule: CriterionRuleSchema.nullable() }).openapi('WhatIf');
export type WhatIfInput = z.infer<typeof WhatIfSchema>;

export const WhatIfResultSchema = z
  .object({
    criterionId: z.string(),
    before: MatchCountsSchema,
    after: MatchCountsSchema,
    /** Excluded today, not excluded with the change. */
    admitted: z.number().int(),
    /** Not excluded today, excluded with the change. */
    newlyExcluded: z.number().int(),
  })
  .openapi('WhatIfResult');
export type WhatIfResult = z.infer<typeof WhatIfResultSchema>;

export const AddMatchesToTrialSchema = z
  .object({ candidateIds: z.array(z.string().uuid()).min(1, 'Choose at least one candidate').max(1000) })
  .openapi('AddMatchesToTrial');
export const AddMatchesToTrialResultSchema = z.object({ added: z.number().int(), alreadyInTrial: z.number().int() }).openapi('AddMatchesToTrialResult');

/** Screen-fail re-matching: the organization's other recruiting trials this candidate may fit. */
export const OtherTrialMatchesSchema = z
  .object({
    candidateId: z.string(),
    trials: z.array(
      z.object({
        trialId: z.string(),
        title: z.string(),
        matchClass: MatchClassSchema,
        score: z.number(),
        inTrial: z.boolean(),
        metCount: z.number().int(),
        unknownCount: z.number().int(),
        reasons: z.array(z.string()),
        /** Criteria the rules leave unknown that a language model judged not met from the notes: "Check notes" (decision 097). */
        llmFlagged: z.number().int(),
      }),
    ),
  })
  .openapi('OtherTrialMatches');
export type OtherTrialMatches = z.infer<typeof OtherTrialMatchesSchema>;

/**
 * Per-person matching (decision 133): one candidate against every recruiting trial of their organization, computed
 * now from their facts, ranked (likely, possible, excluded; by score within a class), each trial with the same
 * criterion-by-criterion evidence as a trial's results.
 */
export const CandidateTrialsQuerySchema = z.object({
  /** Only trials where the person is in this class. */
  class: MatchClassSchema.optional(),
  /**
   * `full`: each trial with its criterion-by-criterion evidence (as `GET /{trialId}/candidates/{candidateId}`); by
   * default the criteria ids not met and unknown, as a trial's results list them (the evidence read per trial on demand).
   */
  evidence: z.enum(['none', 'full']).default('none'),
});
export type CandidateTrialsQuery = z.input<typeof CandidateTrialsQuerySchema>;

export const CandidateTrialMatchSchema = z
  .object({
    trialId: z.string(),
    title: z.string(),
    matchClass: MatchClassSchema,
    score: z.number(),
    /** Already linked to the trial. */
    inTrial: z.boolean(),
    metCount: z.number().int(),
    notMetCount: z.number().int(),
    unknownCount: z.number().int(),
    /** The key criteria met, in words: why the trial fits. */
    reasons: z.array(z.string()),
    /** The criteria not met, in words: why the trial does not. */
    blockers: z.array(z.string()),
    notMetIds: z.array(z.string()),
    unknownIds: z.array(z.string()),
    /** Unknown criteria a language model judged "not met" from the notes (decision 097): flagged, never excluded. */
    llmFlagged: z.number().int(),
    /** With `evidence=full`: every criterion, its outcome, reason and the fact and source that decided it. */
    evidence: z.array(CriterionEvidenceSchema).optional(),
  })
  .openapi('CandidateTrialMatch');
export type CandidateTrialMatch = z.infer<typeof CandidateTrialMatchSchema>;

export const CandidateTrialMatchesSchema = z
  .object({
    candidate: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), status: z.string() }),
    /** Recruiting trials by the person's class in each (before the class filter). */
    counts: MatchCountsSchema,
    trials: z.array(CandidateTrialMatchSchema),
  })
  .openapi('CandidateTrialMatches');
export type CandidateTrialMatches = z.infer<typeof CandidateTrialMatchesSchema>;

/** Re-reading every clinical note of an organization (decision 132): who it is for (an internal admin acting globally names it). */
export const StartNoteRereadSchema = z.object({ organizationId: z.string().uuid().optional() }).openapi('StartNoteReread');
export const NoteRereadStatusSchema = z
  .object({
    /** The organization's clinical notes. */
    notes: z.number().int(),
    /** The latest re-reading run (its progress while it goes), or none yet. */
    latest: ProcessingRunSchema.nullable(),
  })
  .openapi('NoteRereadStatus');
export type NoteRereadStatus = z.infer<typeof NoteRereadStatusSchema>;

/** Gap analysis in one click: prescreen questions for these criteria (those nothing on record decides). */
export const NextQuestionsSchema = z
  .object({
    criterionIds: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one criterion').max(200),
    /** A draft form of the trial to add the questions to (issue 32); without it, the "questions to ask next" form. */
    formId: z.string().min(1).max(100).optional(),
  })
  .openapi('NextQuestions');
export const NextQuestionsResultSchema = z
  .object({
    formId: z.string(),
    formName: z.string(),
    /** created: a new form; replaced: the "questions to ask next" form's questions; added: appended to the draft chosen. */
    outcome: z.enum(['created', 'replaced', 'added']),
    created: z.boolean(),
    questionCount: z.number().int(),
  })
  .openapi('NextQuestionsResult');
export type NextQuestionsResult = z.infer<typeof NextQuestionsResultSchema>;
