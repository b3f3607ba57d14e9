import { createRoute, z } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import {
  CandidateEnrollmentsSchema,
  CreateSequenceSchema,
  EnrollmentActionSchema,
  EnrollmentDetailSchema,
  EnrollmentListSchema,
  EnrollmentSchema,
  EnrollResultSchema,
  EnrollSchema,
  ListEnrollmentsQuerySchema,
  ListSequencesQuerySchema,
  PreviewResultSchema,
  PreviewSchema,
  SequenceListSchema,
  SequenceSaveResultSchema,
  SequenceSchema,
  SequenceStatisticsSchema,
  StatisticsQuerySchema,
  UnenrollSchema,
  UpdateSequenceSchema,
} from '../../../contract/sequences';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as enrollments from './enrollments';
import { preview } from './preview';
import * as service from './service';
import { statistics } from './statistics';

const tags = ['Sequences'];
const idParams = pathParams('id');
const conflictResponse = { 409: json(ApiErrorSchema, 'Not possible in the current state: the reason is in the message') };

/** /api/sequences: outreach sequences, their enrollments, timelines and statistics (decision 026). */
export const sequenceRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listSequences',
      tags,
      summary: 'Sequences in scope (organizationIds, organizationId, trialId, status active|archived|all)',
      request: { query: ListSequencesQuerySchema },
      responses: { 200: json(SequenceListSchema, 'Sequences'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listSequences(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createSequence',
      tags,
      summary: 'Create a sequence (version 1 of its steps)',
      request: jsonBody(CreateSequenceSchema),
      responses: { 201: json(SequenceSchema, 'The sequence'), ...errors },
    }),
    async (c) => c.json(await service.createSequence(c.get('deps').db, c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/preview',
      operationId: 'previewSequence',
      tags,
      summary: "A message step rendered in English and Spanish with a real candidate's values",
      request: jsonBody(PreviewSchema),
      responses: { 200: json(PreviewResultSchema, 'The rendered message'), ...errors },
    }),
    async (c) => c.json(await preview(c.get('deps').db, c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getSequence',
      tags,
      summary: 'A sequence with its current steps and enrollment counts',
      request: { params: idParams },
      responses: { 200: json(SequenceSchema, 'The sequence'), ...errors },
    }),
    async (c) => c.json(await service.getSequence(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateSequence',
      tags,
      summary: 'Change a sequence; new steps while people are enrolled make a new version (they finish on theirs); status archived ends live enrollments',
      request: { params: idParams, ...jsonBody(UpdateSequenceSchema) },
      responses: { 200: json(SequenceSaveResultSchema, 'The sequence, and whether a new version was made'), ...errors },
    }),
    async (c) => c.json(await service.updateSequence(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteSequence',
      tags,
      summary: 'Archive a sequence (its live enrollments end; history is kept)',
      request: { params: idParams },
      responses: { 200: json(SequenceSchema, 'The archived sequence'), ...errors },
    }),
    async (c) => c.json(await service.archiveSequence(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/enrollments',
      operationId: 'enrollCandidates',
      tags,
      summary: 'Enroll candidates by id or by a saved filter; people who cannot be reached on a channel the sequence uses are refused with the reason',
      request: { params: idParams, ...jsonBody(EnrollSchema) },
      responses: {
        200: json(EnrollResultSchema, 'Who was enrolled, who already was, who was refused and why'),
        202: json(EnrollResultSchema, 'A large filter: enrolling in the background as a processing run (`run`)'),
        ...errors,
        ...conflictResponse,
      },
    }),
    async (c) => {
      const result = await enrollments.enroll(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json'));
      return result.run ? c.json(result, 202) : c.json(result, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/enrollments/remove',
      operationId: 'unenrollCandidates',
      tags,
      summary: 'Stop the live enrollments of these candidates',
      request: { params: idParams, ...jsonBody(UnenrollSchema) },
      responses: { 200: json(z.object({ stopped: z.number().int() }), 'How many were stopped'), ...errors },
    }),
    async (c) => c.json(await enrollments.unenroll(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json').candidateIds), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/enrollments',
      operationId: 'listEnrollments',
      tags,
      summary: 'Enrollments of a sequence, live ones first (status, q, limit, offset)',
      request: { params: idParams, query: ListEnrollmentsQuerySchema },
      responses: { 200: json(EnrollmentListSchema, 'A page of enrollments'), ...errors },
    }),
    async (c) => c.json(await enrollments.listEnrollments(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/statistics',
      operationId: 'getSequenceStatistics',
      tags,
      summary: 'Per-step funnel of one version (the current by default): reached, sent, delivered, answered, replied, booked, opted out',
      request: { params: idParams, query: StatisticsQuerySchema },
      responses: { 200: json(SequenceStatisticsSchema, 'Statistics'), ...errors },
    }),
    async (c) => c.json(await statistics(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('query').version), 200),
  );

/**
 * /api/sequence-enrollments: one enrollment, apart from /api/sequences/{id} so no path reads as both an
 * enrollment and a sequence (decision 146).
 */
export const sequenceEnrollmentRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getEnrollment',
      tags,
      summary: "An enrollment with its version's steps and its timeline",
      request: { params: idParams },
      responses: { 200: json(EnrollmentDetailSchema, 'The enrollment'), ...errors },
    }),
    async (c) => c.json(await enrollments.getEnrollment(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/action',
      operationId: 'actOnEnrollment',
      tags,
      summary: 'Pause, resume or stop one enrollment',
      request: { params: idParams, ...jsonBody(EnrollmentActionSchema) },
      responses: { 200: json(EnrollmentSchema, 'The enrollment'), ...errors, ...conflictResponse },
    }),
    async (c) => c.json(await enrollments.enrollmentAction(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json').action), 200),
  );

/** GET /api/candidates/{id}/sequences: a candidate's enrollments (mounted with the candidate routes). */
export const candidateSequenceRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/{id}/sequences',
    operationId: 'listCandidateSequences',
    tags,
    summary: "A candidate's sequence enrollments, newest first",
    request: { params: idParams },
    responses: { 200: json(CandidateEnrollmentsSchema, 'Enrollments'), ...errors },
  }),
  async (c) => c.json(await enrollments.candidateEnrollments(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
);
