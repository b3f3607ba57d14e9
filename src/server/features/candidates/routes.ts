import { createRoute, z } from '@hono/zod-openapi';
import {
  BulkConsentResultSchema,
  BulkConsentSchema,
  BulkDeleteCandidatesSchema,
  BulkDeleteResultSchema,
  BulkUpdateCandidatesSchema,
  BulkUpdateResultSchema,
  CandidateListSchema,
  CandidateSchema,
  CreateCandidateSchema,
  CreatePrescreenNoteSchema,
  ImportCandidatesSchema,
  ImportPreviewSchema,
  ImportStreamQuerySchema,
  IndexedPrescreenNoteSchema,
  ListCandidatesQuerySchema,
  OrganizationIdQuerySchema,
  PrescreenNoteListSchema,
  ResetStatusResultSchema,
  ResetStatusSchema,
  UpdateCandidateSchema,
} from '../../../contract/candidates';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_STREAM_MAX_BYTES } from '../../../contract/candidates';
import { ApiErrorSchema } from '../../../contract/common';
import { ProcessingRunSchema } from '../../../contract/processing-runs';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import { parseInput, previewImport } from './import';
import { startImport, startStreamedImport } from './import-runner';
import * as service from './service';

/** The import's limits, as the OpenAPI document states them. */
const IMPORT_LIMITS_TEXT = `Up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows, and a request body of at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB (413 above it; every other JSON endpoint takes 1 MB). A larger CSV file goes to POST /api/candidates/bulk/stream.`;
const STREAM_LIMITS_TEXT = `The body is the CSV file itself (Content-Type text/csv, a header line first), read and stored as it arrives; the options are in the query string (mapping as JSON text). Up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows and ${IMPORT_STREAM_MAX_BYTES / 1024 / 1024} MB (413 above it). A malformed line, a row over the limit or a body over the limit is refused and nothing is stored.`;

const tags = ['Candidates'];
const candidateParams = pathParams('candidateId');
const conflictResponse = { 409: json(ApiErrorSchema, 'A candidate with this phone or email exists') };

export const candidateRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listCandidates',
      tags,
      summary: 'List candidates: search by name, phone or email; filter by status and trial; sort; keyset paging',
      request: { query: ListCandidatesQuerySchema },
      responses: { 200: json(CandidateListSchema, 'A page of candidates'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listCandidates(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createCandidate',
      tags,
      summary: 'Add a candidate (query organizationId; default the active organization)',
      request: { query: OrganizationIdQuerySchema, ...jsonBody(CreateCandidateSchema) },
      responses: { 201: json(CandidateSchema, 'Created'), ...errors, ...conflictResponse },
    }),
    async (c) => c.json(await service.createCandidate(c.get('deps').db, c.get('scope'), c.req.valid('query').organizationId, c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk',
      operationId: 'importCandidates',
      tags,
      summary: `Import candidates from CSV or JSON (up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows within ${IMPORT_MAX_BYTES / 1024 / 1024} MB) as a processing run; answers 202 with the run`,
      description: IMPORT_LIMITS_TEXT,
      request: jsonBody(ImportCandidatesSchema),
      responses: { 202: json(z.object({ run: ProcessingRunSchema }), 'The run, processing in the background'), ...errors },
    }),
    async (c) => c.json({ run: await startImport(c.get('deps'), c.get('scope'), c.req.valid('json')) }, 202),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk/stream',
      operationId: 'importCandidatesStream',
      tags,
      summary: `Import candidates from a CSV file sent as the body (up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows) as a processing run; answers 202 with the run`,
      description: STREAM_LIMITS_TEXT,
      request: {
        query: ImportStreamQuerySchema,
        body: { content: { 'text/csv': { schema: z.string().openapi({ description: 'The CSV file, header line first' }) } }, required: true },
      },
      responses: {
        202: json(z.object({ run: ProcessingRunSchema }), 'The run, processing in the background'),
        ...errors,
        413: json(ApiErrorSchema, 'The body is larger than the limit'),
        415: json(ApiErrorSchema, 'The body is not text/csv'),
      },
    }),
    async (c) =>
      c.json({ run: await startStreamedImport(c.get('deps'), c.get('scope'), c.req.valid('query'), c.req.header('content-type'), c.req.raw.body) }, 202),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk/preview',
      operationId: 'previewCandidateImport',
      tags,
      summary: 'Preview an import: guessed column mapping, the first rows mapped and a validated sample; writes nothing',
      description: IMPORT_LIMITS_TEXT,
      request: jsonBody(ImportCandidatesSchema),
      responses: { 200: json(ImportPreviewSchema, 'The preview'), ...errors },
    }),
    async (c) => {
      const input = c.req.valid('json');
      service.targetOrganization(c.get('scope'), input.organizationId);
      const preview = previewImport(parseInput(input.format, input.data as never), input.mapping, input.defaultCountry, {
        // Rows are checked as if the import's source were given: the wizard asks for it when consent is mapped.
        consentSource: input.consentSource ?? 'import source',
        consentDate: input.consentDate,
        offset: input.previewOffset,
        limit: input.previewLimit,
      });
      return c.json(preview, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/reset-status',
      operationId: 'resetCandidateStatuses',
      tags,
      summary: 'Return the chosen candidates to status new, keeping their history (query organizationId)',
      request: { query: OrganizationIdQuerySchema, ...jsonBody(ResetStatusSchema) },
      responses: { 200: json(ResetStatusResultSchema, 'Reset'), ...errors },
    }),
    async (c) =>
      c.json(await service.resetStatus(c.get('deps').db, c.get('scope'), c.req.valid('query').organizationId, c.req.valid('json').candidateIds), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk-update',
      operationId: 'bulkUpdateCandidates',
      tags,
      summary: 'Change the status of many candidates and/or link or unlink a trial (all ids in scope, or 404 and nothing changes)',
      request: jsonBody(BulkUpdateCandidatesSchema),
      responses: { 200: json(BulkUpdateResultSchema, 'Updated'), ...errors },
    }),
    async (c) => c.json(await service.bulkUpdate(c.get('deps').db, c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk-consent',
      operationId: 'bulkUpdateCandidateConsent',
      tags,
      summary:
        'Record documented SMS and/or call consent (source required, date default today) for the chosen candidates or all matching a filter; do-not-contact candidates are skipped',
      request: jsonBody(BulkConsentSchema),
      responses: { 200: json(BulkConsentResultSchema, 'Recorded'), ...errors },
    }),
    async (c) => c.json(await service.bulkConsent(c.get('deps').db, c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/bulk-delete',
      operationId: 'bulkDeleteCandidates',
      tags,
      summary: 'Delete many candidates for good (all ids in scope, or 404 and nothing changes)',
      request: jsonBody(BulkDeleteCandidatesSchema),
      responses: { 200: json(BulkDeleteResultSchema, 'Deleted'), ...errors },
    }),
    async (c) => c.json(await service.bulkDelete(c.get('deps').db, c.get('scope'), c.req.valid('json').candidateIds), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{candidateId}',
      operationId: 'getCandidate',
      tags,
      summary: 'A candidate with notes, consent and trials',
      request: { params: candidateParams },
      responses: { 200: json(CandidateSchema, 'The candidate'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.getCandidate(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{candidateId}',
      operationId: 'updateCandidate',
      tags,
      summary: 'Edit a candidate; a status or consent change is kept in the contact history',
      request: { params: candidateParams, ...jsonBody(UpdateCandidateSchema) },
      responses: { 200: json(CandidateSchema, 'Updated'), ...errors, ...conflictResponse },
    }),
    async (c) => c.json(await service.updateCandidate(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{candidateId}',
      operationId: 'deleteCandidate',
      tags,
      summary: 'Delete a candidate: their personal data goes for good; an audit record that it happened stays',
      request: { params: candidateParams },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      await service.deleteCandidate(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{candidateId}/prescreen-notes',
      operationId: 'listPrescreenNotes',
      tags,
      summary: "A candidate's prescreen notes, with their index",
      request: { params: candidateParams },
      responses: { 200: json(PrescreenNoteListSchema, 'Notes'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.listNotes(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{candidateId}/prescreen-notes',
      operationId: 'addPrescreenNote',
      tags,
      summary: 'Add a prescreen note (the author is the signed-in user)',
      request: { params: candidateParams, ...jsonBody(CreatePrescreenNoteSchema) },
      responses: { 201: json(IndexedPrescreenNoteSchema, 'Added'), ...errors },
    }),
    async (c) => c.json(await service.addNote(c.get('deps').db, c.get('scope'), c.req.valid('param').candidateId, c.req.valid('json').text), 201),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{candidateId}/prescreen-notes/{noteIndex}',
      operationId: 'deletePrescreenNote',
      tags,
      summary: 'Delete a prescreen note by its index (out of range: 404)',
      request: { params: pathParams('candidateId', 'noteIndex') },
      responses: { 204: { description: 'Deleted' }, ...errors },
    }),
    async (c) => {
      const { candidateId, noteIndex } = c.req.valid('param');
      await service.deleteNote(c.get('deps').db, c.get('scope'), candidateId, noteIndex);
      return c.body(null, 204);
    },
  );
