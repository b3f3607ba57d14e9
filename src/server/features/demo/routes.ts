import { createRoute } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../../contract/common';
import { DemoSampleCandidateResultSchema, DemoSampleCandidateSchema, DemoSamplesSchema, DemoStatusSchema, DemoVoiceCallSchema } from '../../../contract/demo';
import { CallSchema } from '../../../contract/voice';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json } from '../../http/openapi';
import * as service from './service';

const tags = ['Demo'];
const conflict = {
  409: json(ApiErrorSchema, 'Not possible now: no demo data yet, a reset already running, or the call is blocked (the reason is in the message)'),
};

/** /api/demo: the demo organization's status and reset, and the voice and prescreen demos (internal admins only; decision 068). */
export const demoRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'getDemoStatus',
      tags,
      summary: 'The demo organization: whether it exists, when it was last reset, what it holds',
      responses: { 200: json(DemoStatusSchema, 'Status'), 401: errors[401], 403: errors[403] },
    }),
    async (c) => c.json(await service.getDemoStatus(c.get('deps'), c.get('scope')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/reset',
      operationId: 'resetDemo',
      tags,
      summary:
        'Start deleting the demo data and seeding it again under the same organization (creates it when missing): a demo_reset processing run; joins the one already going',
      responses: { 202: json(DemoStatusSchema, 'Status with the reset run going (status.reset)'), 401: errors[401], 403: errors[403], ...conflict },
    }),
    async (c) => {
      const status = await service.resetDemo(c.get('deps'), c.get('scope'));
      // A reset may create the demo organization: cached scopes (global admins' reach) must see it at once.
      c.get('deps').sessions.clear();
      return c.json(status, 202);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/samples',
      operationId: 'listDemoSamples',
      tags,
      summary: 'Demo trials (published form, prescreen voice agent) and a few callable candidates',
      responses: { 200: json(DemoSamplesSchema, 'Samples'), 401: errors[401], 403: errors[403], ...conflict },
    }),
    async (c) => c.json(await service.getDemoSamples(c.get('deps'), c.get('scope')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/sample-candidate',
      operationId: 'addDemoSampleCandidate',
      tags,
      summary: 'A new sample person linked to a demo trial',
      request: jsonBody(DemoSampleCandidateSchema),
      responses: { 201: json(DemoSampleCandidateResultSchema, 'The sample person'), ...errors, ...conflict },
    }),
    async (c) => c.json(await service.createSampleCandidate(c.get('deps'), c.get('scope'), c.req.valid('json').trialId), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/voice-call',
      operationId: 'startDemoVoiceCall',
      tags,
      summary: 'A simulated prescreen call to a demo candidate or a new sample person',
      request: jsonBody(DemoVoiceCallSchema),
      responses: { 201: json(CallSchema, 'The call, queued'), ...errors, ...conflict, 502: json(ApiErrorSchema, 'The voice provider refused') },
    }),
    async (c) => c.json(await service.startDemoCall(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  );
