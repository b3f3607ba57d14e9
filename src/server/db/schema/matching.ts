import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FactKind, FactSource, FactStatus } from '../../../contract/matching';
import { candidate } from './candidates';
import { belongsTo, bytea, createdAtColumn, organizationIdColumn } from './columns';
import { trial, trialCriterion } from './trials';

/** A free-text clinical note on a candidate (typed or pasted by staff), read into facts by the note extractor. */
export const candidateNote = pgTable(
  'candidate_note',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    body: text('body').notNull(),
    authorUserId: text('author_user_id'),
    createdAt: createdAtColumn(),
  },
  (table) => [index('candidate_note_candidate_idx').on(table.candidateId, table.createdAt)],
);

/**
 * What the product knows of a candidate's health, one row per fact, with its source (decision 025). A source
 * re-read (a note edited, a bundle imported again, a prescreen answered again) replaces its own facts only.
 */
export const candidateFact = pgTable(
  'candidate_fact',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    kind: text('kind').$type<FactKind>().notNull(),
    conceptId: text('concept_id'),
    name: text('name').notNull(),
    status: text('status').$type<FactStatus>(),
    value: doublePrecision('value'),
    unit: text('unit'),
    valueText: text('value_text'),
    observedOn: date('observed_on', { mode: 'string' }),
    source: text('source').$type<FactSource>().notNull(),
    sourceRef: text('source_ref'),
    sourceText: text('source_text'),
    spanStart: integer('span_start'),
    spanEnd: integer('span_end'),
    criterionId: text('criterion_id'),
    code: text('code'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('candidate_fact_organization_candidate_idx').on(table.organizationId, table.candidateId),
    index('candidate_fact_candidate_source_idx').on(table.candidateId, table.source, table.sourceRef),
    // "Changed since the last match run?" without reading every fact.
    index('candidate_fact_organization_recorded_idx').on(table.organizationId, table.recordedAt),
  ],
);

/**
 * A candidate's clinical facts packed as bytes (decisions 087, 112): per fact, 17 bytes: its signature's id in
 * `candidate_fact_signature` (int4), its value (float8, 0 when none), its day (int4 days since 1970, the least int4
 * when undated) and whether it has a value (one byte), big-endian, in the evidence screen's order. Kept on write
 * so a run reads one row per person instead of aggregating every fact, and decodes numbers instead of words.
 * Maintained by statement triggers on `candidate_fact` (migrations 0030, 0032: every path that writes or deletes
 * facts, raw SQL included, in the same transaction), with the same SQL function the tests check it against
 * (`candidate_fact_digest_packed`). A candidate with no facts has no row; a run reads a missing row's facts afresh.
 */
export const candidateFactDigest = pgTable('candidate_fact_digest', {
  candidateId: uuid('candidate_id')
    .primaryKey()
    .references(() => candidate.id, { onDelete: 'cascade' }),
  organizationId: organizationIdColumn(),
  facts: bytea('facts').notNull(),
  /** score.ts `completenessOf` of the candidate's facts' sources (0 a note, 1 a health record, 2 else; decision 299). */
  completeness: smallint('completeness').notNull().default(2),
});

/**
 * The words of facts, once per organization (decision 112): a fact's kind, status, concept id, name, unit and
 * value text joined by chr(31) (the value text prefixed with '=', so null and '' stay apart). Everything a
 * criterion asks of a fact's words is decided once per signature in a run (compiled.ts); the digest names a
 * signature by id. Rows are added by the digest's triggers and never changed; one no fact uses any more costs
 * a few bytes and is never read (a run reads only the ids its slices hold).
 */
export const candidateFactSignature = pgTable(
  'candidate_fact_signature',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    organizationId: organizationIdColumn(),
    signature: text('signature').notNull(),
  },
  // md5: a fact's name may be longer than a btree entry allows.
  (table) => [uniqueIndex('candidate_fact_signature_organization_signature_idx').on(table.organizationId, sql`md5(${table.signature})`)],
);

/**
 * One candidate's standing against one trial, from one `trial_match` processing run. The screen reads the
 * trial's latest completed run; once a run has completed, the rows of the runs before it are deleted (decision
 * 113: after the completion, not in it). Evidence per criterion
 * is computed again when one candidate is opened (cheap), so only what lists, filters and gap analysis need
 * is kept here.
 */
export const trialMatch = pgTable(
  'trial_match',
  {
    // No foreign keys (decision 087; 038 and 043 kept two): a slice writes 25,000 rows and the trial's and the
    // candidate's key checks cost 40% of that write (each locks its candidate's row). A finished run deletes the
    // earlier runs' rows; a candidate's or a trial's deletion deletes theirs by statement trigger (migration
    // 0030, `trial_match_forget`); a slice skips a candidate deleted since it was read.
    runId: uuid('run_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    trialId: uuid('trial_id').notNull(),
    candidateId: uuid('candidate_id').notNull(),
    matchClass: text('match_class').$type<'likely' | 'possible' | 'excluded'>().notNull(),
    /** 0 likely, 1 possible, 2 excluded: the list's order, best first. */
    classRank: smallint('class_rank').notNull(),
    score: real('score').notNull(),
    metCount: integer('met_count').notNull(),
    unknownCount: integer('unknown_count').notNull(),
    /** Criteria the candidate does not meet (the deciding ones when excluded). */
    notMetIds: text('not_met_ids').array().notNull().default(sql`'{}'::text[]`),
    /** Criteria nothing known decides: what to ask next. */
    unknownIds: text('unknown_ids').array().notNull().default(sql`'{}'::text[]`),
  },
  // One index, unique (a candidate is written once per run: the run's cursor sees to it, decision 042): a
  // primary key on (run, candidate) served no read and cost a quarter of each slice's write (decision 113).
  (table) => [uniqueIndex('trial_match_run_rank_idx').on(table.runId, table.classRank, table.score.desc(), table.candidateId)],
);

/**
 * A language model's judgement of one criterion against one candidate's clinical notes (decision 097, the
 * TrialGPT approach): asked only for criteria the rules leave unknown, on request, with the sentences it cited.
 * Advice shown as `llm` evidence: it never decides a class (an `llm` "not met" flags the candidate, never
 * excludes). Judging again replaces it; a criterion reworded since is judged afresh (its text is kept).
 */
export const criterionJudgement = pgTable(
  'criterion_judgement',
  {
    organizationId: organizationIdColumn(),
    trialId: belongsTo('trial_id', () => trial.id),
    candidateId: belongsTo('candidate_id', () => candidate.id),
    criterionId: belongsTo('criterion_id', () => trialCriterion.id),
    /** The criterion's words when judged: a reworded criterion's judgement no longer applies. */
    criterionText: text('criterion_text').notNull(),
    verdict: text('verdict').$type<'met' | 'not_met' | 'unknown'>().notNull(),
    explanation: text('explanation').notNull(),
    /** The numbered note sentences it cited, with their words as they were. */
    sentences: jsonb('sentences').$type<Array<{ id: number; noteId: string; text: string }>>().notNull(),
    model: text('model').notNull(),
    judgedAt: timestamp('judged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The candidate's index serves the cascade when a person is deleted.
  (table) => [primaryKey({ columns: [table.trialId, table.candidateId, table.criterionId] }), index('criterion_judgement_candidate_idx').on(table.candidateId)],
);
