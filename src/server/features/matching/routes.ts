import { createRoute, z } from '@hono/zod-openapi';
import { OrganizationIdQuerySchema } from '../../../contract/candidates';
import { ApiErrorSchema } from '../../../contract/common';
import {
  AddMatchesToTrialResultSchema,
  AddMatchesToTrialSchema,
  CandidateClinicalRecordSchema,
  CandidateFactSchema,
  CandidateMatchSchema,
  CandidateTrialMatchesSchema,
  CandidateTrialsQuerySchema,
  ClinicalNoteSchema,
  NoteRereadStatusSchema,
  StartNoteRereadSchema,
  CreateCandidateFactSchema,
  CreateClinicalNoteSchema,
  FHIR_BUNDLE_MAX_BYTES,
  FhirImportResultSchema,
  GapAnalysisSchema,
  NextQuestionsResultSchema,
  NextQuestionsSchema,
  ListMatchesQuerySchema,
  OtherTrialMatchesSchema,
  TrialMatchListSchema,
  TrialMatchOverviewSchema,
  WhatIfResultSchema,
  WhatIfSchema,
} from '../../../contract/matching';
import { ProcessingRunSchema } from '../../../contract/processing-runs';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as facts from './facts';
import * as matcher from './matcher';
import { noteRereadStatus, startNoteReread } from './note-reread';
import { candidateTrialMatches } from './person-matches';

const matcherTags = ['Trial matcher'];
const clinicalTags = ['Candidate clinical record'];
const trialParams = pathParams('trialId');

/** /api/trial-matcher: match a trial's organization's candidates, read the ranked results, evidence, gaps and what-ifs. */
export const trialMatcherRoutes = createRouter()
  // Before '/{trialId}': a static path registered first answers first.
  .openapi(
    createRoute({
      method: 'post',
      path: '/note-rereads',
      operationId: 'startNoteRereads',
      tags: matcherTags,
      summary:
        "Re-read every clinical note of the organization with today's note reader (a note_reread processing run; joins the one already going): each note's facts replaced by its new reading",
      request: jsonBody(StartNoteRereadSchema),
      responses: { 202: json(ProcessingRunSchema, 'The run, going on in the background'), ...errors },
    }),
    async (c) => c.json(await startNoteReread(c.get('deps'), c.get('scope'), c.req.valid('json').organizationId), 202),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/note-rereads',
      operationId: 'getNoteRereads',
      tags: matcherTags,
      summary: 'How many clinical notes the organization has, and its latest re-reading run with its progress',
      request: { query: OrganizationIdQuerySchema },
      responses: { 200: json(NoteRereadStatusSchema, 'Notes and the latest run'), ...errors },
    }),
    async (c) => c.json(await noteRereadStatus(c.get('deps'), c.get('scope'), c.req.valid('query').organizationId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/runs',
      operationId: 'startMatchRun',
      tags: matcherTags,
      summary: 'Start matching every candidate of the organization against the trial (a trial_match processing run; joins the one already going)',
      request: { params: trialParams },
      responses: { 202: json(ProcessingRunSchema, 'The run, going on in the background'), ...errors },
    }),
    async (c) => c.json(await matcher.startMatch(c.get('deps'), c.get('scope'), c.req.valid('param').trialId), 202),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}',
      operationId: 'getTrialMatcher',
      tags: matcherTags,
      summary: "The trial's matching: counts by class, the latest run's progress, whether results are stale",
      request: { params: trialParams },
      responses: { 200: json(TrialMatchOverviewSchema, 'Overview'), ...errors },
    }),
    async (c) => c.json(await matcher.matchOverview(c.get('deps'), c.get('scope'), c.req.valid('param').trialId), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}/matches',
      operationId: 'listTrialMatches',
      tags: matcherTags,
      summary: 'Ranked candidates (likely, possible, excluded), filtered by class, criterion, candidate id or name; paged',
      request: { params: trialParams, query: ListMatchesQuerySchema },
      responses: { 200: json(TrialMatchListSchema, 'A page of matches'), ...errors },
    }),
    async (c) => c.json(await matcher.listMatches(c.get('deps'), c.get('scope'), c.req.valid('param').trialId, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}/candidates/{candidateId}',
      operationId: 'getCandidateMatch',
      tags: matcherTags,
      summary: 'One candidate against the trial, criterion by criterion, with the fact and source that decided each',
      request: { params: pathParams('trialId', 'candidateId') },
      responses: { 200: json(CandidateMatchSchema, 'Evidence'), ...errors },
    }),
    async (c) => {
      const { trialId, candidateId } = c.req.valid('param');
      return c.json(await matcher.candidateMatch(c.get('deps'), c.get('scope'), trialId, candidateId), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/candidates/{candidateId}/llm-judgements',
      operationId: 'judgeCandidateMatch',
      tags: matcherTags,
      summary:
        "Optional (LLM_JUDGE_NOTES): a language model judges the criteria the rules leave unknown against the candidate's clinical notes (met / not met / unknown, an explanation, the sentences used); stored as `llm` evidence, never a reason to exclude",
      request: { params: pathParams('trialId', 'candidateId') },
      responses: {
        200: json(CandidateMatchSchema, 'The evidence with the `llm` judgements'),
        ...errors,
        409: json(ApiErrorSchema, 'No language model may read notes (LLM_NOT_CONFIGURED), or the candidate has no clinical notes (NO_CLINICAL_NOTES)'),
        502: json(ApiErrorSchema, 'The language model failed or answered outside the expected shape (LLM_ERROR)'),
      },
    }),
    async (c) => {
      const { trialId, candidateId } = c.req.valid('param');
      return c.json(await matcher.judgeCandidate(c.get('deps'), c.get('scope'), trialId, candidateId), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{trialId}/gaps',
      operationId: 'listTrialMatchGaps',
      tags: matcherTags,
      summary: 'Gap analysis: the criteria that exclude most candidates, and the facts most often unknown',
      request: { params: trialParams },
      responses: { 200: json(GapAnalysisSchema, 'Gap analysis'), ...errors },
    }),
    async (c) => c.json(await matcher.gapAnalysis(c.get('deps'), c.get('scope'), c.req.valid('param').trialId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/what-if',
      operationId: 'simulateTrialMatch',
      tags: matcherTags,
      summary: "What if a criterion's rule changed (or it were dropped: rule null)? How many candidates it would admit or exclude",
      request: { params: trialParams, ...jsonBody(WhatIfSchema) },
      responses: { 200: json(WhatIfResultSchema, 'Counts before and after'), ...errors },
    }),
    async (c) => c.json(await matcher.whatIf(c.get('deps'), c.get('scope'), c.req.valid('param').trialId, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/add-to-trial',
      operationId: 'addMatchesToTrial',
      tags: matcherTags,
      summary: 'Link matched candidates to the trial',
      request: { params: trialParams, ...jsonBody(AddMatchesToTrialSchema) },
      responses: { 200: json(AddMatchesToTrialResultSchema, 'How many were added'), ...errors },
    }),
    async (c) => c.json(await matcher.addToTrial(c.get('deps'), c.get('scope'), c.req.valid('param').trialId, c.req.valid('json').candidateIds), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{trialId}/prescreen-form',
      operationId: 'createMatchPrescreenForm',
      tags: matcherTags,
      summary:
        'Prescreen questions for the criteria nothing on record decides: into the trial\'s "questions to ask next" draft form (created, or its questions replaced)',
      request: { params: trialParams, ...jsonBody(NextQuestionsSchema) },
      responses: { 200: json(NextQuestionsResultSchema, 'The form'), ...errors },
    }),
    async (c) =>
      c.json(
        await matcher.prescreenFormForUnknowns(
          c.get('deps'),
          c.get('scope'),
          c.req.valid('param').trialId,
          c.req.valid('json').criterionIds,
          c.req.valid('json').formId,
        ),
        200,
      ),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/candidates/{candidateId}/other-trials',
      operationId: 'listCandidateOtherTrials',
      tags: matcherTags,
      summary: "Re-matching: the organization's recruiting trials this candidate may also fit, with the evidence",
      request: { params: pathParams('candidateId') },
      responses: { 200: json(OtherTrialMatchesSchema, 'Trials that do not exclude the candidate'), ...errors },
    }),
    async (c) => c.json(await matcher.otherTrialMatches(c.get('deps'), c.get('scope'), c.req.valid('param').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/candidates/{candidateId}/trials',
      operationId: 'listCandidateTrials',
      tags: matcherTags,
      summary:
        'Per-person matching: the candidate against every recruiting trial of their organization, computed now, ranked (likely, possible, excluded; by score), each with the criterion-by-criterion evidence',
      request: { params: pathParams('candidateId'), query: CandidateTrialsQuerySchema },
      responses: { 200: json(CandidateTrialMatchesSchema, 'The ranked trials with their evidence'), ...errors },
    }),
    async (c) => c.json(await candidateTrialMatches(c.get('deps'), c.get('scope'), c.req.valid('param').candidateId, c.req.valid('query')), 200),
  );

const candidateParams = pathParams('candidateId');

/** /api/candidates/{candidateId}/clinical and /api/candidates/fhir: a candidate's clinical notes and facts. */
export const clinicalRecordRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/fhir',
      operationId: 'importFhirBundle',
      tags: clinicalTags,
      summary: `Import one patient's FHIR R4 bundle (Patient, Condition, MedicationStatement/Request, Observation): a new candidate, or the facts of the one with the same phone or email. Up to ${FHIR_BUNDLE_MAX_BYTES / 1024 / 1024} MB.`,
      request: {
        query: OrganizationIdQuerySchema,
        body: { content: { 'application/json': { schema: z.record(z.string(), z.unknown()).openapi({ description: 'A FHIR R4 Bundle' }) } }, required: true },
      },
      responses: {
        201: json(FhirImportResultSchema, 'Imported'),
        ...errors,
        409: json(ApiErrorSchema, 'A candidate with this phone or email exists'),
        413: json(ApiErrorSchema, 'Too large'),
      },
    }),
    async (c) => c.json(await facts.importFhirBundle(c.get('deps').db, c.get('scope'), c.req.valid('query').organizationId, c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{candidateId}/clinical',
      operationId: 'getClinicalRecord',
      tags: clinicalTags,
      summary: "The candidate's clinical notes and the facts known about them, each with its source",
      request: { params: candidateParams },
      responses: { 200: json(CandidateClinicalRecordSchema, 'Notes and facts'), ...errors },
    }),
    async (c) => c.json(await facts.clinicalRecord(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{candidateId}/clinical/notes',
      operationId: 'addClinicalNote',
      tags: clinicalTags,
      summary: 'Add a clinical note; it is read into facts (age, sex, conditions, medications, with negation and history)',
      request: { params: candidateParams, ...jsonBody(CreateClinicalNoteSchema) },
      responses: { 201: json(z.object({ note: ClinicalNoteSchema, facts: z.array(CandidateFactSchema) }), 'The note and the facts read from it'), ...errors },
    }),
    async (c) => c.json(await facts.addClinicalNote(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId, c.req.valid('json').body), 201),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{candidateId}/clinical/notes/{noteId}',
      operationId: 'deleteClinicalNote',
      tags: clinicalTags,
      summary: 'Delete a clinical note and the facts read from it',
      request: { params: pathParams('candidateId', 'noteId') },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      const { candidateId, noteId } = c.req.valid('param');
      await facts.deleteClinicalNote(c.get('deps').db, c.get('scope'), candidateId, noteId);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{candidateId}/clinical/facts',
      operationId: 'addClinicalFact',
      tags: clinicalTags,
      summary: 'Add a fact by hand (a condition, medication, lab value...)',
      request: { params: candidateParams, ...jsonBody(CreateCandidateFactSchema) },
      responses: { 201: json(CandidateFactSchema, 'The fact'), ...errors },
    }),
    async (c) => c.json(await facts.addManualFact(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId, c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{candidateId}/clinical/facts/{factId}',
      operationId: 'deleteClinicalFact',
      tags: clinicalTags,
      summary: 'Delete one fact',
      request: { params: pathParams('candidateId', 'factId') },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      const { candidateId, factId } = c.req.valid('param');
      await facts.deleteFact(c.get('deps').db, c.get('scope'), candidateId, factId);
      return c.body(null, 204);
    },
  );
