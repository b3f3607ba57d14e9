import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import { CreateVoiceAgentSchema, ListVoiceAgentsQuerySchema, UpdateVoiceAgentSchema, VoiceAgentListSchema, VoiceAgentSchema } from '../../../contract/voice';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import * as service from './service';

const tags = ['Voice agents'];
const idParams = pathParams('id');
const providerError = json(ApiErrorSchema, 'The voice provider (Vapi) refused or could not be reached; nothing was saved');

/** Voice agents (staff): the trial and form a PRESCREEN agent asks, messages, calling hours, the number it calls from. */
export const voiceAgentRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'listVoiceAgents',
      tags,
      summary: 'Voice agents in scope (organizationId, organizationIds, orgs, type)',
      request: { query: ListVoiceAgentsQuerySchema },
      responses: { 200: json(VoiceAgentListSchema, 'Agents, newest first'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listVoiceAgents(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createVoiceAgent',
      tags,
      summary: 'Create a voice agent (PRESCREEN agents need a published prescreen form of their trial); with Vapi, creates its assistant',
      request: jsonBody(CreateVoiceAgentSchema),
      responses: { 201: json(VoiceAgentSchema, 'Created'), ...errors, 409: json(ApiErrorSchema, 'The prescreen form is not published'), 502: providerError },
    }),
    async (c) => c.json(await service.createVoiceAgent(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getVoiceAgent',
      tags,
      summary: 'One voice agent',
      request: { params: idParams },
      responses: { 200: json(VoiceAgentSchema, 'The agent'), ...errors },
    }),
    async (c) => c.json(await service.getVoiceAgent(c.get('deps'), c.get('scope'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateVoiceAgent',
      tags,
      summary: 'Change a voice agent; with Vapi, updates its assistant',
      request: { params: idParams, ...jsonBody(UpdateVoiceAgentSchema) },
      responses: { 200: json(VoiceAgentSchema, 'Updated'), ...errors, 409: json(ApiErrorSchema, 'The prescreen form is not published'), 502: providerError },
    }),
    async (c) => c.json(await service.updateVoiceAgentById(c.get('deps'), c.get('scope'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteVoiceAgent',
      tags,
      summary: 'Delete a voice agent (its calls stay)',
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' }, 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await service.deleteVoiceAgentById(c.get('deps'), c.get('scope'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
