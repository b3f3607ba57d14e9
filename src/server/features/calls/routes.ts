import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import { ProcessingRunSchema } from '../../../contract/processing-runs';
import {
  CallDetailSchema,
  CallListSchema,
  CallPreCheckQuerySchema,
  CallPreCheckSchema,
  CallLogsSchema,
  CallSchema,
  CallStorageSchema,
  CreateCallSchema,
  DeleteCallResultSchema,
  ListCallsQuerySchema,
  PrescreenAllSchema,
  ProcessCallResultSchema,
  ProcessVapiResultSchema,
  ProcessVapiSchema,
} from '../../../contract/voice';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import { startPrescreenAll } from './prescreen-all';
import { processVapi } from './reconcile';
import { callPreCheck } from './pre-check';
import * as service from './service';

const tags = ['Calls'];
const callParams = pathParams('callId');
const providerError = json(ApiErrorSchema, 'The voice provider refused or could not be reached');

/** Calls (staff): place, list, read, cancel or delete. Mounted at /api/calls. */
export const callRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'startCall',
      tags,
      summary:
        "Call a candidate now with the organization's active agent of the type; 409 CALL_BLOCKED (do-not-contact, no call consent, no phone, outside 08:00-21:00 in the candidate's time zone, no agent)",
      request: jsonBody(CreateCallSchema),
      responses: {
        201: json(CallSchema, 'The call, queued with the provider'),
        ...errors,
        409: json(ApiErrorSchema, 'Not placed: the reason is in the message and details'),
        502: providerError,
      },
    }),
    async (c) => c.json(await service.createCall(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pre-check',
      operationId: 'preCheckCall',
      tags,
      summary:
        'Before "Call now": every reason a call to the candidate cannot be placed now (no active agent, no consent, outside 08:00-21:00 in their time zone, ...), and the next allowed time when only the hours stand in the way',
      request: { query: CallPreCheckQuerySchema },
      responses: { 200: json(CallPreCheckSchema, 'What placing the call would meet'), ...errors },
    }),
    async (c) => c.json(await callPreCheck(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/prescreen-all',
      operationId: 'prescreenAllByCall',
      tags,
      summary:
        'Queue a prescreen call to every candidate due one (new or contacted, with a phone, no result yet, no open call or callback) as a processing run: consent and do-not-contact are respected, candidates outside 08:00-21:00 in their time zone get a callback at the next window, and at most VOICE_MAX_CONCURRENT_CALLS calls per organization are open at once',
      request: jsonBody(PrescreenAllSchema),
      responses: {
        202: json(ProcessingRunSchema, 'The run, started; follow it at /api/processing-runs/{id}/data'),
        ...errors,
        409: json(ApiErrorSchema, 'No active prescreen agent with a form, or a run is already going'),
      },
    }),
    async (c) => c.json(await startPrescreenAll(c.get('deps'), c.get('scope'), c.req.valid('json')), 202),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listCalls',
      tags,
      summary:
        'Calls in scope, newest first (organizationIds, candidateId, status, type, filter all|failedPrescreen|failedScheduling, limit default 10000, offset)',
      request: { query: ListCallsQuerySchema },
      responses: { 200: json(CallListSchema, 'A page of calls and the total'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listCalls(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{callId}',
      operationId: 'getCall',
      tags,
      summary: 'One call with its transcript, structured data (answers, tool results), events and prescreen result id',
      request: { params: callParams },
      responses: { 200: json(CallDetailSchema, 'The call'), ...errors },
    }),
    async (c) => c.json(await service.getCall(c.get('deps'), c.get('scope'), c.req.valid('param').callId), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{callId}',
      operationId: 'deleteCall',
      tags,
      summary: 'Cancel a queued or ringing call (through the provider), or delete a finished one; 409 while in progress',
      request: { params: callParams },
      responses: { 200: json(DeleteCallResultSchema, 'What was done'), ...errors, 409: json(ApiErrorSchema, 'The call is in progress'), 502: providerError },
    }),
    async (c) => c.json(await service.removeCall(c.get('deps'), c.get('scope'), c.req.valid('param').callId), 200),
  );

/** Mounted at /api/process: re-reading finished calls. */
export const callProcessRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/vapi',
      operationId: 'processVapiCalls',
      tags,
      summary:
        'Reconcile with the voice provider: open calls whose messages never came are read back from the provider and finished (or marked failed when it does not know them); finished prescreen calls without a result get one',
      request: jsonBody(ProcessVapiSchema),
      responses: { 200: json(ProcessVapiResultSchema, 'What was found and done'), ...errors, 502: providerError },
    }),
    async (c) => c.json(await processVapi(c.get('deps'), c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/calls/{callId}',
      operationId: 'processCall',
      tags,
      summary: "Re-read a finished prescreen call's structured data and transcript into a new prescreen result",
      request: { params: callParams },
      responses: {
        200: json(ProcessCallResultSchema, 'The new result'),
        ...errors,
        409: json(ApiErrorSchema, 'Not finished, not a prescreen call, or nothing to record'),
      },
    }),
    async (c) => c.json(await service.processCall(c.get('deps'), c.get('scope'), c.req.valid('param').callId), 200),
  );

/** Mounted at /api/vapi: what the provider sent about a call. */
export const vapiCallRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/calls/{callId}/storage',
      operationId: 'getVapiCallStorage',
      tags,
      summary: 'The raw server messages stored for a call, oldest first',
      request: { params: callParams },
      responses: { 200: json(CallStorageSchema, 'Stored messages'), ...errors },
    }),
    async (c) => c.json(await service.callStorage(c.get('deps'), c.get('scope'), c.req.valid('param').callId), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/calls/{callId}/logs',
      operationId: 'getVapiCallLogs',
      tags,
      summary: 'A readable log of a call: messages with times and types, tool calls and their results',
      request: { params: callParams },
      responses: { 200: json(CallLogsSchema, 'Log entries, oldest first'), ...errors },
    }),
    async (c) => c.json(await service.callLogs(c.get('deps'), c.get('scope'), c.req.valid('param').callId), 200),
  );
