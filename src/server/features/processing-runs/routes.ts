import { createRoute } from '@hono/zod-openapi';
import {
  ListProcessingRunsQuerySchema,
  ProcessingRunDataSchema,
  ProcessingRunListSchema,
  ProcessingRunsDataSchema,
  RunItemsQuerySchema,
} from '../../../contract/processing-runs';
import { createRouter, errorResponses as errors, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Processing runs'];

export const processingRunRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listProcessingRuns',
      tags,
      summary: 'Processing runs (imports, later bulk calls) of the organizations in scope, newest first',
      request: { query: ListProcessingRunsQuerySchema },
      responses: { 200: json(ProcessingRunListSchema, 'Runs'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listProcessingRuns(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/data',
      operationId: 'listProcessingRunData',
      tags,
      summary: 'Runs plus summary counts: runs by status, rows by outcome',
      request: { query: ListProcessingRunsQuerySchema },
      responses: { 200: json(ProcessingRunsDataSchema, 'Runs and counts'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.processingRunsData(c.get('deps').db, c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/data',
      operationId: 'getProcessingRunData',
      tags,
      summary: 'One run with its per-row outcomes (paged by limit/offset, filter by outcome)',
      request: { params: pathParams('id'), query: RunItemsQuerySchema },
      responses: { 200: json(ProcessingRunDataSchema, 'The run and its rows'), 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await service.processingRunData(c.get('deps').db, c.get('scope'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
