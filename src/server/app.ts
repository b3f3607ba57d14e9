import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { requireScope } from './auth/scope';
import { callbackRoutes } from './features/callbacks/routes';
import { callProcessRoutes, callRoutes, vapiCallRoutes } from './features/calls/routes';
import { twilioVoiceRoutes } from './features/calls/inbound-twilio';
import { vapiToolRoutes } from './features/calls/tools';
import { vapiWebhookRoutes } from './features/calls/webhook';
import { candidateRoutes } from './features/candidates/routes';
import { chatAgentRoutes, chatConversationRoutes, publicChatConversationRoutes } from './features/chat/routes';
import { contactHistoryRoutes } from './features/contact-history/routes';
import { organizationRoutes, publicOrganizationRoutes } from './features/organizations/routes';
import { prescreenRoutes } from './features/prescreen/routes';
import { prescreenFormRoutes } from './features/prescreen-forms/routes';
import { processingRunRoutes } from './features/processing-runs/routes';
import { smsRoutes, smsWebhookRoutes } from './features/sms/routes';
import { publicInvitationRoutes, userRoutes } from './features/users/routes';
import { trialRoutes } from './features/trials/routes';
import { voiceAgentRoutes } from './features/voice-agents/routes';
import { VAPI_WEBHOOK_PATH } from './integrations/voice/port';
import type { AppDeps, AppEnv } from './http/context';
import { AppError, errorBody, validationError } from './http/errors';

export const API_VERSION = '1.0.0';

export interface CreateAppOptions {
  /** Folder of the built web app (vite build); served with an SPA fallback when present. */
  webDist?: string;
}

/** Builds the whole HTTP app: the API, auth, the OpenAPI document and the web app. No listen(). */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) return validationError(c, result.error);
    },
  });

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const started = performance.now();
    await next();
    // Path only: query strings can carry search terms (names, phone numbers).
    deps.logger.debug({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  app.use('*', secureHeaders({ contentSecurityPolicy: undefined, crossOriginEmbedderPolicy: false }));

  app.get('/api/health', (c) => c.json({ status: 'ok', version: API_VERSION }));

  // better-auth answers its own endpoints; its errors are reshaped into the API's one error shape.
  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    const response = await deps.auth.handler(c.req.raw);
    if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json')) return response;
    const body = (await response.clone().json().catch(() => null)) as { message?: string; code?: string; error?: unknown } | null;
    if (!body || body.error) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(errorBody(response.status, body.message, body.code)), { status: response.status, headers });
  });

  // Public API: no sign-in. Registered before the scope middleware below, so it answers first.
  app.route('/api/organizations/public', publicOrganizationRoutes);
  app.route('/api/invitations', publicInvitationRoutes);
  app.route('/api/chat-conversations', publicChatConversationRoutes);
  // Provider webhooks (Twilio inbound SMS and status callbacks): no session, a request signature instead.
  app.route('/api/inbound/sms', smsWebhookRoutes);
  // Vapi server messages and the agent's tools: no session, the shared secret instead (fail closed in production).
  app.route('/api/inbound/vapi', vapiWebhookRoutes);
  app.route('/api/functions/vapi', vapiToolRoutes);
  // Twilio's voice webhook for inbound calls: signed like the SMS webhooks, answered with TwiML.
  app.route('/api/inbound', twilioVoiceRoutes);

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Cohortly API', version: API_VERSION, description: 'Clinical-trial recruitment. Auth endpoints live under /api/auth (better-auth).' },
  });
  // The reference page's script is served from our own package, so /api/docs works without internet access.
  const scalarBundle = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');
  app.get('/api/docs/scalar.js', (c) => {
    c.header('content-type', 'application/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=86400');
    return c.body(readFileSync(scalarBundle));
  });
  app.get('/api/docs', Scalar({ url: '/api/openapi.json', pageTitle: 'Cohortly API reference', cdn: '/api/docs/scalar.js' }));

  // Everything else under /api needs a session and runs in the request's organization scope.
  app.use('/api/*', requireScope);
  app.route('/api/organizations', organizationRoutes);
  app.route('/api/users', userRoutes);
  app.route('/api/candidates', candidateRoutes);
  app.route('/api/processing-runs', processingRunRoutes);
  app.route('/api/contact-history', contactHistoryRoutes);
  app.route('/api/trials', trialRoutes);
  app.route('/api/prescreen-forms', prescreenFormRoutes);
  app.route('/api/prescreen', prescreenRoutes);
  app.route('/api/chat-agents', chatAgentRoutes);
  app.route('/api/chat-conversations', chatConversationRoutes);
  app.route('/api/sms', smsRoutes);
  app.route('/api/voice-agents', voiceAgentRoutes);
  app.route('/api/calls', callRoutes);
  app.route('/api/callbacks', callbackRoutes);
  app.route('/api/process', callProcessRoutes);
  app.route('/api/vapi', vapiCallRoutes);

  if (options.webDist && existsSync(path.join(options.webDist, 'index.html'))) {
    const root = path.relative(process.cwd(), options.webDist);
    const indexHtml = readFileSync(path.join(options.webDist, 'index.html'), 'utf8');
    app.use('/assets/*', serveStatic({ root }));
    app.use('*', serveStatic({ root }));
    // Client-side routes: every other GET outside /api gets the app shell.
    app.get('*', (c) => (c.req.path.startsWith('/api/') ? c.json(errorBody(404), 404) : c.html(indexHtml)));
  }

  app.notFound((c) => c.json(errorBody(404, `No such endpoint: ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    if (error instanceof AppError) return c.json(errorBody(error.status, error.message, error.code, error.details), error.status);
    if (error instanceof HTTPException) return c.json(errorBody(error.status, error.message || undefined), error.status);
    // Never echo internals: SQL errors carry query text and parameters. Log the database code only.
    const cause = (error as { cause?: { code?: string } }).cause;
    deps.logger.error({ errorName: error.name, dbCode: cause?.code, path: c.req.path }, 'unhandled error');
    return c.json(errorBody(500), 500);
  });

  // The simulator's way back in: it posts its server messages to our own webhook, with the configured secret,
  // through the same app (no network), so simulated and real calls share one code path.
  deps.voice.attach(async (payload) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (deps.config.voice.vapiServerSecret) headers['x-vapi-secret'] = deps.config.voice.vapiServerSecret;
    const response = await app.request(VAPI_WEBHOOK_PATH, { method: 'POST', headers, body: JSON.stringify(payload) });
    return { status: response.status, body: await response.json().catch(() => null) };
  });

  return app;
}
export type App = ReturnType<typeof createApp>;
