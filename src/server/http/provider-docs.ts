import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../contract/common';
import { AGENT_TOOLS, CALLBACK_TOOLS, VAPI_TOOLS_PATH, VAPI_WEBHOOK_PATH } from '../integrations/voice/port';
import { BODY_LIMITS } from './body-limit';
import type { AppEnv } from './context';
import { jsonContent as json } from './openapi';

/**
 * The OpenAPI entries of the routes that are not zod-openapi routes: provider webhooks and the agent's tools
 * (they read raw bodies: Twilio signs form fields, Vapi's messages are stored raw), better-auth's endpoints,
 * health and the reference itself. Documentation only: each handler keeps its own checks. With these, the
 * document lists every HTTP endpoint the server answers, so the endpoint inventory and the bad-input suite
 * cover them too.
 */

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

const TwilioSmsFormSchema = z
  .object({
    MessageSid: z.string().openapi({ example: 'SM0123456789abcdef0123456789abcdef' }),
    From: z.string().openapi({ example: '+15555550123', description: 'The sender, E.164' }),
    To: z.string().optional().openapi({ example: '+15555550100' }),
    Body: z.string().optional(),
    AccountSid: z.string().optional(),
  })
  .openapi('TwilioInboundSms');
const TwilioStatusFormSchema = z
  .object({
    MessageSid: z.string(),
    MessageStatus: z.string().optional().openapi({ example: 'delivered' }),
    SmsStatus: z.string().optional(),
    ErrorCode: z.string().optional(),
  })
  .openapi('TwilioSmsStatus');
const TwilioVoiceFormSchema = z
  .object({
    CallSid: z.string().openapi({ example: 'CA0123456789abcdef0123456789abcdef' }),
    From: z.string().optional().openapi({ example: '+15555550123', description: 'The caller, E.164 (or "anonymous")' }),
    To: z.string().openapi({ example: '+15555550100', description: "The called number: an active voice agent's fromNumber" }),
    AccountSid: z.string().optional(),
  })
  .openapi('TwilioInboundCall');
const VapiServerMessageSchema = z
  .object({
    message: z
      .object({
        type: z.string().openapi({
          example: 'status-update',
          description: 'status-update, transcript, tool-calls, end-of-call-report, assistant-request, or another (stored, ignored)',
        }),
        call: z
          .object({ id: z.string().optional(), metadata: z.record(z.string(), z.unknown()).optional() })
          .passthrough()
          .optional(),
      })
      .passthrough(),
  })
  .openapi('VapiServerMessage');
const ToolArgumentsSchema = z
  .object({
    callId: z.string().optional().openapi({ description: 'Our call id (locates the call and its organization)' }),
    candidateId: z.string().optional(),
    candidatePhoneNumber: z.string().optional().openapi({ description: 'E.164; with agentPhoneNumber when several organizations have the number' }),
    agentPhoneNumber: z.string().optional(),
  })
  .passthrough()
  .openapi('VapiToolArguments');
const ToolAnswerSchema = z
  .object({ ok: z.boolean(), tool: z.string(), callId: z.string().nullable().optional(), result: z.string().optional(), error: z.string().optional() })
  .openapi('VapiToolAnswer');

const twiml = (description: string) => ({ content: { 'text/xml': { schema: z.string() } }, description });
const form = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/x-www-form-urlencoded': { schema } }, required: true } });
const refused = (status: 401 | 403, description: string) => ({ [status]: json(ApiErrorSchema, description) });

/** `kebab-case` -> `KebabCase`, for operation ids built from tool and endpoint names. */
const pascal = (name: string) => name.replace(/(^|[-_/])(\w)/g, (_, _separator, letter: string) => letter.toUpperCase());
/** better-auth's endpoint `sign-in/email` is the operation `signInEmail`; update-user changes the signed-in person only. */
const authOperationId = (path: string) => (path === 'update-user' ? 'updateCurrentUser' : pascal(path).replace(/^\w/, (letter) => letter.toLowerCase()));
/** Auth endpoints one calls without a session. */
const PUBLIC_AUTH_PATHS = ['sign-up/email', 'sign-in/email'];

const TWILIO: Array<Record<string, string[]>> = [{ twilioSignature: [] }];
const VAPI: Array<Record<string, string[]>> = [{ vapiSecret: [] }, { vapiBearer: [] }];

/** One `registerPath` entry, typed as the registry takes it. */
type PathEntry = Parameters<OpenAPIHono<AppEnv>['openAPIRegistry']['registerPath']>[0];

const TWILIO_WEBHOOKS: PathEntry[] = [
  {
    method: 'post',
    path: '/api/inbound/sms',
    operationId: 'receiveTwilioSms',
    tags: ['Provider webhooks'],
    summary: `Twilio inbound SMS: stored on the sender's thread, STOP/START/HELP keywords applied; answers TwiML (body up to ${kb(BODY_LIMITS.twilio)})`,
    security: TWILIO,
    request: form(TwilioSmsFormSchema),
    responses: {
      200: twiml('TwiML (an auto-reply for keywords, else empty)'),
      400: json(ApiErrorSchema, 'From or MessageSid missing'),
      ...refused(403, 'Invalid or missing signature'),
      413: json(ApiErrorSchema, 'Body too large'),
    },
  },
  {
    method: 'post',
    path: '/api/inbound/sms/status',
    operationId: 'receiveTwilioSmsStatus',
    tags: ['Provider webhooks'],
    summary: "Twilio SMS delivery status callback: updates the message's delivery status",
    security: TWILIO,
    request: form(TwilioStatusFormSchema),
    responses: { 200: twiml('Empty TwiML'), ...refused(403, 'Invalid or missing signature'), 413: json(ApiErrorSchema, 'Body too large') },
  },
  {
    method: 'post',
    path: '/api/inbound',
    operationId: 'receiveTwilioCall',
    tags: ['Provider webhooks'],
    summary: 'Twilio voice webhook for a call to one of our numbers: the active agent with that fromNumber answers (TwiML that joins the caller to it)',
    security: TWILIO,
    request: form(TwilioVoiceFormSchema),
    responses: {
      200: twiml('TwiML: the agent, or "not in service"'),
      403: twiml('Invalid or missing signature: <Reject/>'),
      413: json(ApiErrorSchema, 'Body too large'),
      500: twiml('The call could not be answered: an apology and <Hangup/>'),
    },
  },
];

const VAPI_WEBHOOK: PathEntry = {
  method: 'post',
  path: VAPI_WEBHOOK_PATH,
  operationId: 'receiveVapiMessage',
  tags: ['Provider webhooks'],
  summary: `Vapi server messages (status, transcript, tool calls, end-of-call report, assistant request); each stored once per call, redeliveries change nothing (body up to ${kb(BODY_LIMITS.vapiWebhook)})`,
  security: VAPI,
  request: { body: { content: { 'application/json': { schema: VapiServerMessageSchema } }, required: true } },
  responses: {
    200: json(z.object({}).passthrough(), '{ ok } / { results } for tool calls / the assistant for an assistant request'),
    400: json(ApiErrorSchema, 'Not JSON, or a known message type with a missing field'),
    ...refused(401, 'Invalid or missing secret'),
    413: json(ApiErrorSchema, 'Body too large'),
  },
};

const queryParam = (name: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: 'query' } });
const ToolParamsQuery = z.object({
  callId: queryParam('callId'),
  candidateId: queryParam('candidateId'),
  candidatePhoneNumber: queryParam('candidatePhoneNumber'),
  agentPhoneNumber: queryParam('agentPhoneNumber'),
});
const toolResponses = {
  200: json(ToolAnswerSchema, 'Done: a sentence the agent may read (or { results } for a tool-calls message)'),
  400: json(ToolAnswerSchema, 'The tool could not do it: the reason'),
  ...refused(401, 'Invalid or missing secret'),
  404: json(ApiErrorSchema, 'No such call or candidate'),
  409: json(ApiErrorSchema, 'The phone number belongs to candidates of several organizations'),
  413: json(ApiErrorSchema, 'Body too large'),
};

/** Each agent tool takes a POST; the callback tools can also be read (GET) and cancelled (DELETE). */
const AGENT_TOOL_ROUTES: PathEntry[] = AGENT_TOOLS.flatMap((tool): PathEntry[] => {
  const isCallback = (CALLBACK_TOOLS as readonly string[]).includes(tool);
  const run: PathEntry = {
    method: 'post',
    path: `${VAPI_TOOLS_PATH}/${tool}`,
    operationId: `runAgentTool${pascal(tool)}`,
    tags: ['Agent tools'],
    summary: `Agent tool ${tool}${isCallback ? ' (schedules or moves the callback)' : ''}: the arguments as JSON, or a Vapi tool-calls message`,
    security: VAPI,
    request: { query: ToolParamsQuery, body: { content: { 'application/json': { schema: ToolArgumentsSchema } }, required: false } },
    responses: toolResponses,
  };
  if (!isCallback) return [run];
  return [
    run,
    ...(['get', 'delete'] as const).map(
      (method): PathEntry => ({
        method,
        path: `${VAPI_TOOLS_PATH}/${tool}`,
        operationId: `${method === 'get' ? 'readAgentTool' : 'cancelAgentTool'}${pascal(tool)}`,
        tags: ['Agent tools'],
        summary: `Agent tool ${tool}: ${method === 'get' ? "reads the candidate's open callback" : 'cancels it'} (arguments in the query string)`,
        security: VAPI,
        request: { query: ToolParamsQuery },
        responses: toolResponses,
      }),
    ),
  ];
});

// ---- better-auth (its own endpoints, errors reshaped into ApiError) ----
const AuthAnswer = json(z.object({}).passthrough(), 'better-auth answer');
const authErrors = {
  400: json(ApiErrorSchema, 'Invalid input'),
  401: json(ApiErrorSchema, 'Not signed in or wrong credentials'),
  403: json(ApiErrorSchema, 'Refused'),
  429: json(ApiErrorSchema, 'Too many attempts'),
};
const email = z.string().openapi({ format: 'email', example: 'coordinator@site.example' });
const password = z.string().openapi({ example: 'correct-horse-battery' });
const authPost = (path: string, summary: string, body: z.ZodType): PathEntry => ({
  method: 'post',
  path: `/api/auth/${path}`,
  operationId: authOperationId(path),
  ...(PUBLIC_AUTH_PATHS.includes(path) ? { security: [] } : {}),
  tags: ['Auth'],
  summary,
  request: { body: { content: { 'application/json': { schema: body } }, required: true } },
  responses: { 200: AuthAnswer, ...authErrors },
});
const authGet = (path: string, summary: string): PathEntry => ({
  method: 'get',
  path: `/api/auth/${path}`,
  operationId: authOperationId(path),
  tags: ['Auth'],
  summary,
  responses: { 200: AuthAnswer, ...authErrors },
});

const AUTH_ROUTES: PathEntry[] = [
  authPost(
    'sign-up/email',
    'Sign up: a new person with their own research site (organizationName)',
    z.object({ name: z.string(), email, password, organizationName: z.string() }),
  ),
  authPost('sign-in/email', 'Sign in with email and password (rate-limited per address)', z.object({ email, password, rememberMe: z.boolean().optional() })),
  authPost('sign-out', 'Sign out (ends this session)', z.object({})),
  authPost('update-user', "Change the signed-in person's name", z.object({ name: z.string() })),
  authPost(
    'change-password',
    "Change the signed-in person's password",
    z.object({ currentPassword: password, newPassword: password, revokeOtherSessions: z.boolean().optional() }),
  ),
  authPost('change-email', "Change the signed-in person's email", z.object({ newEmail: email })),
  authPost('revoke-session', 'End one of my sessions', z.object({ token: z.string() })),
  authPost('revoke-sessions', 'End all my sessions', z.object({})),
  authPost('revoke-other-sessions', 'End my other sessions', z.object({})),
  authPost('delete-user', 'Delete my account (password required)', z.object({ password })),
  authGet('get-session', 'The session, with the organization and isAdmin (null when signed out)'),
  authGet('list-sessions', "The signed-in person's sessions"),
  {
    method: 'get',
    path: '/api/auth/verify-email',
    operationId: 'verifyEmail',
    security: [],
    tags: ['Auth'],
    summary: 'Confirm an email address from the emailed link',
    request: {
      query: z.object({
        token: z.string().openapi({ param: { name: 'token', in: 'query' } }),
        callbackURL: z
          .string()
          .optional()
          .openapi({ param: { name: 'callbackURL', in: 'query' } }),
      }),
    },
    responses: { 200: AuthAnswer, 302: { description: 'Redirect to callbackURL' }, ...authErrors },
  },
];

// ---- the server itself ----
// Like every /api request, refused before routing when its path or query carries a control character (input-guard.ts).
const refusedInput = { 400: json(ApiErrorSchema, 'A control character in the path or query string') };
const serverGet = (path: string, operationId: string, summary: string, ok: PathEntry['responses'][number]): PathEntry => ({
  method: 'get',
  path,
  operationId,
  security: [],
  tags: ['Server'],
  summary,
  responses: { 200: ok, ...refusedInput },
});
const SERVER_ROUTES: PathEntry[] = [
  serverGet('/api/health', 'getHealth', 'Liveness: { status: "ok", version }', json(z.object({ status: z.literal('ok'), version: z.string() }), 'Up')),
  serverGet('/api/openapi.json', 'getOpenApiDocument', 'This document', json(z.object({}).passthrough(), 'OpenAPI 3.1')),
  serverGet('/api/docs', 'getApiReference', 'The API reference page', { content: { 'text/html': { schema: z.string() } }, description: 'HTML' }),
  serverGet('/api/docs/scalar.js', 'getApiReferenceScript', "The reference page's script (served locally)", {
    content: { 'application/javascript': { schema: z.string() } },
    description: 'JavaScript',
  }),
];

/** Every route this file documents, in the document's order. */
const UNVALIDATED_ROUTES: readonly PathEntry[] = [...TWILIO_WEBHOOKS, VAPI_WEBHOOK, ...AGENT_TOOL_ROUTES, ...AUTH_ROUTES, ...SERVER_ROUTES];

export function documentUnvalidatedRoutes(app: OpenAPIHono<AppEnv>) {
  const registry = app.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'twilioSignature', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Twilio-Signature',
    description:
      "Twilio's HMAC-SHA1 request signature over PUBLIC_BASE_URL + path and the form fields, checked with TWILIO_AUTH_TOKEN. Without a token: refused in production, accepted elsewhere (simulators).",
  });
  registry.registerComponent('securitySchemes', 'vapiSecret', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Vapi-Secret',
    description: 'The server secret (VAPI_SERVER_SECRET), compared in constant time. Without one: refused in production, accepted elsewhere (the simulator).',
  });
  registry.registerComponent('securitySchemes', 'vapiBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'The Vapi server secret as a bearer token (same check as X-Vapi-Secret)',
  });
  for (const route of UNVALIDATED_ROUTES) registry.registerPath(route);
}
