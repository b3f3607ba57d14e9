import { createRoute } from '@hono/zod-openapi';
import { Hono, type Context } from 'hono';
import { ApiErrorSchema } from '../../../contract/common';
import {
  ListSmsThreadsQuerySchema,
  SendSmsSchema,
  SimulatorInboundResultSchema,
  SimulatorInboundSchema,
  SimulatorOutboxQuerySchema,
  SimulatorOutboxSchema,
  SmsMessageSchema,
  SmsTemplateListSchema,
  SmsThreadDetailSchema,
  SmsThreadListSchema,
  UnroutedSmsListSchema,
  UnroutedSmsQuerySchema,
} from '../../../contract/sms';
import type { AppEnv } from '../../http/context';
import { twilioForm, twilioSignatureAccepted } from '../../http/twilio-webhook';
import { errorBody } from '../../http/errors';
import { createRouter, errorResponses as errors, jsonBody, jsonContent as json, pathParams } from '../../http/openapi';
import { mapProviderStatus } from '../../integrations/sms/port';
import * as service from './service';

const tags = ['SMS'];

/** Staff API (session required): threads, sending, templates, and the simulator's phone and outbox. */
export const smsRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/threads',
      operationId: 'listSmsThreads',
      tags,
      summary: 'SMS conversations by candidate, newest first (organizationId, organizationIds, orgs, candidateId)',
      request: { query: ListSmsThreadsQuerySchema },
      responses: { 200: json(SmsThreadListSchema, 'One row per candidate with messages'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => c.json(await service.listThreads(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/threads/{candidateId}',
      operationId: 'getSmsThread',
      tags,
      summary: "One candidate's messages, oldest first, with their SMS consent state",
      request: { params: pathParams('candidateId') },
      responses: { 200: json(SmsThreadDetailSchema, 'The thread'), ...errors },
    }),
    async (c) => c.json(await service.getThread(c.get('deps'), c.get('scope'), c.req.valid('param').candidateId), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/send',
      operationId: 'sendSms',
      tags,
      summary: 'Send an SMS to a candidate: free text (transactional) or a template with variables; 409 when consent forbids it (stored as blocked)',
      request: jsonBody(SendSmsSchema),
      responses: {
        201: json(SmsMessageSchema, 'The stored message and its delivery status'),
        ...errors,
        409: json(ApiErrorSchema, 'Blocked by consent: the reason is in the message and details'),
      },
    }),
    async (c) => c.json(await service.staffSend(c.get('deps'), c.get('scope'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/templates',
      operationId: 'listSmsTemplates',
      tags,
      summary: 'The SMS templates, their purpose and variables, in English and Spanish',
      responses: { 200: json(SmsTemplateListSchema, 'Templates'), 401: errors[401] },
    }),
    (c) => c.json(service.templates(), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/unrouted',
      operationId: 'listUnroutedSms',
      tags,
      summary: "Texts to numbers no organization owns, newest first (Cohortly's internal admins with the Cohortly organization active)",
      request: { query: UnroutedSmsQuerySchema },
      responses: { 200: json(UnroutedSmsListSchema, 'Inbound messages no organization was sent'), 400: errors[400], 401: errors[401], 403: errors[403] },
    }),
    async (c) => c.json(await service.listUnroutedInbound(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/simulator/inbound',
      operationId: 'simulateInboundSms',
      tags,
      summary: 'Simulator only (404 with Twilio): a reply from a candidate or a number, through the same handler as the inbound webhook',
      request: jsonBody(SimulatorInboundSchema),
      responses: { 200: json(SimulatorInboundResultSchema, 'The stored message, the keyword action and the TwiML answer'), ...errors },
    }),
    async (c) => c.json(await service.simulateInbound(c.get('deps'), c.get('scope'), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/simulator/outbox',
      operationId: 'getSimulatedSmsOutbox',
      tags,
      summary: 'Simulator only (404 with Twilio): recent outbound messages in scope',
      request: { query: SimulatorOutboxQuerySchema },
      responses: { 200: json(SimulatorOutboxSchema, 'Outbound messages, newest first'), ...errors },
    }),
    async (c) => c.json(await service.simulatorOutbox(c.get('deps'), c.get('scope'), c.req.valid('query')), 200),
  );

// ---- provider webhooks (no session; mounted before requireScope) ----

const xml = (c: Context<AppEnv>, body: string) => c.body(body, 200, { 'content-type': 'text/xml; charset=utf-8' });
const rejected = (c: Context<AppEnv>) => c.json(errorBody(403, 'Invalid or missing request signature'), 403);

export const smsWebhookRoutes = new Hono<AppEnv>()
  .post('/status', async (c) => {
    const params = await twilioForm(c);
    if (!twilioSignatureAccepted(c, params)) return rejected(c);
    const status = mapProviderStatus(params.MessageStatus ?? params.SmsStatus);
    if (params.MessageSid && status) {
      await service.receiveStatusCallback(c.get('deps'), { messageSid: params.MessageSid, status, errorCode: params.ErrorCode || undefined });
    }
    return xml(c, service.twiml());
  })
  .post('/', async (c) => {
    const params = await twilioForm(c);
    if (!twilioSignatureAccepted(c, params)) return rejected(c);
    if (!params.From || !params.MessageSid) return c.json(errorBody(400, 'From and MessageSid are required'), 400);
    const result = await service.receiveInboundSms(c.get('deps'), {
      from: params.From,
      to: params.To ?? '',
      body: params.Body ?? '',
      messageSid: params.MessageSid,
    });
    return xml(c, result.twiml);
  });
