import { createRoute } from '@hono/zod-openapi';
import {
  CallbackListSchema,
  CancelCallbackResultSchema,
  ListCallbacksQuerySchema,
  ScheduleCallbackResultSchema,
  ScheduleCallbackSchema,
} from '../../../contract/callbacks';
import { ApiErrorSchema } from '../../../contract/common';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Callbacks'];

/** Callbacks (staff): one open callback per candidate, placed by a background job at its time. Mounted at /api/callbacks. */
export const callbackRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listCallbacks',
      tags,
      summary: 'Callbacks in scope, open ones first (organizationIds, orgs, candidateId, status, filter all|failedPrescreen|failedScheduling, limit, offset)',
      request: { query: ListCallbacksQuerySchema },
      responses: { 200: json(CallbackListSchema, 'A page of callbacks, the total and counts by status'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listCallbacks(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/schedule',
      operationId: 'scheduleCallback',
      tags,
      summary:
        "Schedule a callback for a candidate at a time (moved into 08:00-21:00 and the agent's hours in the candidate's time zone when needed); a candidate's pending callback is moved instead (200). 409 CALLBACK_BLOCKED: do-not-contact, no phone, no call consent (prescreen)",
      request: jsonBody(ScheduleCallbackSchema),
      responses: {
        201: json(ScheduleCallbackResultSchema, 'A new callback'),
        200: json(ScheduleCallbackResultSchema, "The candidate's pending callback, moved"),
        ...errors,
        409: json(ApiErrorSchema, 'Not scheduled: the reason is in the message'),
      },
    }),
    async (c) => {
      const result = await service.scheduleCallback(c.get('deps'), c.get('scope'), c.req.valid('json'));
      return result.rescheduled ? c.json(result, 200) : c.json(result, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{candidateId}',
      operationId: 'cancelCallback',
      tags,
      summary: "Cancel the candidate's pending callback; 404 when there is none, 409 while its call is being placed",
      request: { params: pathParams('candidateId') },
      responses: { 200: json(CancelCallbackResultSchema, 'The cancelled callback'), ...errors, 409: json(ApiErrorSchema, 'Its call is being placed') },
    }),
    async (c) => c.json(await service.cancelCallback(c.get('deps'), c.get('scope'), c.req.valid('param').candidateId), 200),
  );
