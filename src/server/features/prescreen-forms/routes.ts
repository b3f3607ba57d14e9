import { createRoute } from '@hono/zod-openapi';
import {
  ApplyDeduplicationRequestSchema,
  ApplyDeduplicationResponseSchema,
  CreatePrescreenFormSchema,
  DetectDuplicatesRequestSchema,
  DetectDuplicatesResponseSchema,
  GenerateStudyBlocksRequestSchema,
  GenerateStudyBlocksResponseSchema,
  ListPrescreenFormsQuerySchema,
  PrescreenFormListSchema,
  PrescreenFormSchema,
  UpdatePrescreenFormSchema,
} from '../../../contract/prescreen-forms';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Prescreen forms'];
const formParams = pathParams('id');

export const prescreenFormRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listPrescreenForms',
      tags,
      summary: 'Prescreen forms of the organizations in scope (organizationIds/orgs narrow; trialId filters), without their blocks',
      request: { query: ListPrescreenFormsQuerySchema },
      responses: { 200: json(PrescreenFormListSchema, 'Prescreen forms'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await service.listForms(c.get('deps').db, c.get('scope'), [query.organizationIds, query.orgs], query.trialId), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createPrescreenForm',
      tags,
      summary: "Create a prescreen form of a trial, in the trial's organization (version 1; blocks omitted: empty draft)",
      request: jsonBody(CreatePrescreenFormSchema),
      responses: { 201: json(PrescreenFormSchema, 'Created'), ...errors },
    }),
    async (c) => c.json(await service.createForm(c.get('deps').db, c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/generate-study-blocks',
      operationId: 'generatePrescreenStudyBlocks',
      tags,
      summary: "Generate study blocks and linked questions from a trial's criteria (deterministic rules engine); saves nothing",
      request: jsonBody(GenerateStudyBlocksRequestSchema),
      responses: { 200: json(GenerateStudyBlocksResponseSchema, 'Generated blocks, and criteria no question covers'), ...errors },
    }),
    async (c) => c.json(await service.generateStudyBlocks(c.get('deps').db, c.get('scope'), c.req.valid('json').trialId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/detect-duplicates',
      operationId: 'detectPrescreenDuplicates',
      tags,
      summary: "Questions that ask the same thing, with a 0..1 score and the reason; body: { blocks } or { formId } (the form's current version)",
      request: jsonBody(DetectDuplicatesRequestSchema),
      responses: { 200: json(DetectDuplicatesResponseSchema, 'Likely duplicate pairs, best first'), ...errors },
    }),
    async (c) => c.json(await service.detectDuplicates(c.get('deps').db, c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/apply-deduplication',
      operationId: 'applyPrescreenDeduplication',
      tags,
      summary: "Merge chosen pairs in the given blocks: each removed question's criterion links move to the kept one; empty blocks go. Saves nothing",
      request: jsonBody(ApplyDeduplicationRequestSchema),
      responses: { 200: json(ApplyDeduplicationResponseSchema, 'The merged blocks, and notes on links kept as review'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(service.applyDeduplication(c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getPrescreenForm',
      tags,
      summary: 'Get a prescreen form: its current version, versions with result counts, and criteria coverage',
      request: { params: formParams },
      responses: { 200: json(PrescreenFormSchema, 'The prescreen form'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.getForm(c.get('deps').db, c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/{id}',
      operationId: 'replacePrescreenForm',
      tags,
      summary: 'Change name, status or blocks. New blocks of a version with results become a new version; publishing checks the form',
      request: { params: formParams, ...jsonBody(UpdatePrescreenFormSchema) },
      responses: { 200: json(PrescreenFormSchema, 'Updated'), ...errors },
    }),
    async (c) => c.json(await service.updateForm(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  );
