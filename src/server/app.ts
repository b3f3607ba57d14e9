import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { StatusCode } from 'hono/utils/http-status';
import { secureHeaders } from 'hono/secure-headers';
import { handleAuthRequest } from './auth/http';
import { requireScope } from './auth/scope';
import { callbackRoutes } from './features/callbacks/routes';
import { candidateSequenceRoutes, sequenceEnrollmentRoutes, sequenceRoutes } from './features/sequences/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { callProcessRoutes, callRoutes, vapiCallRoutes } from './features/calls/routes';
import { twilioVoiceRoutes } from './features/calls/inbound-twilio';
import { vapiToolRoutes, vapiWebhookRoutes } from './features/calls/vapi-routes';
import { handleVapiMessage } from './features/calls/webhook';
import { candidateRoutes } from './features/candidates/routes';
import { clinicalRecordRoutes, trialMatcherRoutes } from './features/matching/routes';
import { chatAgentRoutes, chatConversationRoutes, publicChatConversationRoutes } from './features/chat/routes';
import { contactHistoryRoutes } from './features/contact-history/routes';
import { demoRoutes } from './features/demo/routes';
import { onboardingRoutes } from './features/onboarding/routes';
import { organizationRoutes, publicOrganizationRoutes } from './features/organizations/routes';
import { phoneNumberRoutes } from './features/phone-numbers/routes';
import { prescreenRoutes } from './features/prescreen/routes';
import { prescreenFormRoutes } from './features/prescreen-forms/routes';
import { processingRunRoutes } from './features/processing-runs/routes';
import { smsRoutes, smsWebhookRoutes } from './features/sms/routes';
import { sponsorDemoRoutes } from './features/sponsor-demo/routes';
import { mailOutboxRoutes } from './features/mail-outbox/routes';
import { publicInvitationRoutes, userRoutes } from './features/users/routes';
import { trialRoutes } from './features/trials/routes';
import { voiceAgentRoutes } from './features/voice-agents/routes';
import type { AppDeps, AppEnv } from './http/context';
import { compressResponses } from './http/compress';
import { requestBodyLimit } from './http/body-limit';
import { AppError, databaseInputErrorCode, errorBody, validationError } from './http/errors';
import { refuseControlCharacters } from './http/input-guard';
import { sameOriginWrites } from './http/same-origin-writes';
import { documentUnvalidatedRoutes } from './http/provider-docs';
import { buildApiDocument, registerSessionScheme } from './http/openapi';
import { ClientGoneError } from './db/scoped';
import { wireFeatures } from './wiring';

export const API_VERSION = '1.0.0';

export interface CreateAppOptions {
  /** Folder of the built web app (vite build); served with an SPA fallback when present. */
  webDist?: string;
}

/** Builds the whole HTTP app: the API, auth, the OpenAPI document and the web app. No listen(). */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}) {
  wireFeatures();
  const app = new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) return validationError(c, result.error, result.target);
    },
  });

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const started = performance.now();
    await next();
    // Path only: query strings can carry search terms (names, phone numbers).
    deps.logger.debug({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  // br or gzip for API JSON and the web app's text assets; fingerprinted assets keep their compressed bytes.
  app.use('*', compressResponses({ isImmutable: (requestPath) => requestPath.startsWith('/assets/') }));
  app.use('*', secureHeaders({ contentSecurityPolicy: undefined, crossOriginEmbedderPolicy: false }));

  // Before anything reads a body: its size (413), then NUL bytes and control characters anywhere in the input.
  app.use('/api/*', requestBodyLimit);
  app.use('/api/*', refuseControlCharacters);

  app.get('/api/health', (c) => c.json({ status: 'ok', version: API_VERSION }));
  // A private app: no crawler should index it. Plain text, before the web app's HTML catches every other path.
  app.get('/robots.txt', (c) => {
    c.header('cache-control', 'public, max-age=86400');
    return c.text('User-agent: *\nDisallow: /\n');
  });

  // better-auth answers its own endpoints (auth/http.ts: client address, sign-in limits, cached get-session);
  // its errors are reshaped into the API's one error shape.
  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    // better-auth redirects to callbackURL after e.g. verify-email and throws (a 500) on one it cannot parse.
    const callbackURL = c.req.query('callbackURL');
    if (callbackURL !== undefined && !isRedirectTarget(callbackURL)) {
      const message = 'must be a path starting with / or an absolute URL';
      return c.json(errorBody(400, `callbackURL: ${message}`, 'VALIDATION_FAILED', [{ path: 'callbackURL', message }]), 400);
    }
    return handleAuthRequest(c);
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

  documentUnvalidatedRoutes(app);
  registerSessionScheme(app);
  // Built on first request, once every router below is registered (the document does not change afterwards).
  let apiDocument: ReturnType<typeof buildApiDocument> | undefined;
  app.get('/api/openapi.json', (c) => c.json((apiDocument ??= buildApiDocument(app, API_VERSION, deps.config.publicBaseUrl))));
  // The reference page's script is served from our own package, so /api/docs works without internet access.
  const scalarBundle = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');
  app.get('/api/docs/scalar.js', (c) => {
    c.header('content-type', 'application/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=86400');
    return c.body(readFileSync(scalarBundle));
  });
  // A plain page rather than @scalar/hono-api-reference, whose releases that fit need Node 22 (engines: 20).
  app.get('/api/docs', (c) => c.html(API_REFERENCE_PAGE));

  // Everything else under /api needs a session and runs in the request's organization scope; a write must come
  // from our own pages (decision 120).
  app.use('/api/*', sameOriginWrites);
  app.use('/api/*', requireScope);
  app.route('/api/organizations', organizationRoutes);
  app.route('/api/users', userRoutes);
  app.route('/api/mail-outbox', mailOutboxRoutes);
  app.route('/api/onboarding', onboardingRoutes);
  app.route('/api/candidates', clinicalRecordRoutes);
  app.route('/api/candidates', candidateSequenceRoutes);
  app.route('/api/candidates', candidateRoutes);
  app.route('/api/trial-matcher', trialMatcherRoutes);
  app.route('/api/processing-runs', processingRunRoutes);
  app.route('/api/contact-history', contactHistoryRoutes);
  app.route('/api/demo', demoRoutes);
  app.route('/api/trials', trialRoutes);
  app.route('/api/prescreen-forms', prescreenFormRoutes);
  app.route('/api/prescreen', prescreenRoutes);
  app.route('/api/chat-agents', chatAgentRoutes);
  app.route('/api/chat-conversations', chatConversationRoutes);
  app.route('/api/sms', smsRoutes);
  app.route('/api/voice-agents', voiceAgentRoutes);
  app.route('/api/phone-numbers', phoneNumberRoutes);
  app.route('/api/calls', callRoutes);
  app.route('/api/callbacks', callbackRoutes);
  app.route('/api/sequences', sequenceRoutes);
  app.route('/api/sequence-enrollments', sequenceEnrollmentRoutes);
  app.route('/api/dashboard', dashboardRoutes);
  app.route('/api/process', callProcessRoutes);
  app.route('/api/vapi', vapiCallRoutes);
  app.route('/api/sponsor-demo', sponsorDemoRoutes);

  if (options.webDist && existsSync(path.join(options.webDist, 'index.html'))) {
    const root = path.relative(process.cwd(), options.webDist);
    const indexHtml = readFileSync(path.join(options.webDist, 'index.html'), 'utf8');
    // Vite fingerprints everything under /assets (the name changes with the content): cache it for a year.
    // A missing asset is a 404, never the app shell (a stale tab asking for an old chunk must fail clearly).
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('cache-control', 'public, max-age=31536000, immutable');
    });
    app.use('/assets/*', serveStatic({ root }));
    app.get('/assets/*', (c) => {
      c.header('cache-control', 'no-cache');
      return c.json(errorBody(404), 404);
    });
    // index.html and other unversioned files: revalidate every time, so a deploy reaches open browsers.
    app.use('*', async (c, next) => {
      await next();
      if (!c.req.path.startsWith('/api/') && !c.res.headers.has('cache-control')) c.header('cache-control', 'no-cache');
    });
    app.use('*', serveStatic({ root }));
    app.get('*', (c) => (c.req.path.startsWith('/api/') ? c.json(errorBody(404), 404) : c.html(indexHtml)));
  }

  app.notFound((c) => c.json(errorBody(404, `No such endpoint: ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    // Nobody reads this answer; 499 is what proxies log for a request its client closed.
    if (error instanceof ClientGoneError) return c.body(null, 499 as StatusCode);
    if (error instanceof AppError) return c.json(errorBody(error.status, error.message, error.code, error.details), error.status, error.headers);
    if (error instanceof HTTPException) return c.json(errorBody(error.status, error.message || undefined), error.status);
    const dbInputCode = databaseInputErrorCode(error);
    if (dbInputCode) {
      // A value the contracts should have refused: still the caller's input, so a 400. Logged to be fixed.
      deps.logger.warn({ dbCode: dbInputCode, method: c.req.method, path: c.req.path }, 'database refused an input value');
      return c.json(errorBody(400, 'An input value is not valid'), 400);
    }
    // Never echo internals: SQL errors carry query text and parameters. Log the database code only.
    const cause = (error as { cause?: { code?: string } }).cause;
    deps.logger.error({ errorName: error.name, dbCode: cause?.code, path: c.req.path }, 'unhandled error');
    return c.json(errorBody(500), 500);
  });

  // The simulator's way back in: its server messages go straight to the webhook's handler in this process
  // (no HTTP hop, so no secret to present and none to weaken), the same code path real Vapi messages take
  // after their secret is checked. An error is answered like the route would (500), never thrown back.
  deps.voice.attach(async (payload) => {
    try {
      return await handleVapiMessage(deps, JSON.stringify(payload));
    } catch (error) {
      deps.logger.error({ errorName: (error as Error).name }, 'simulated voice message failed');
      return { status: 500, body: null };
    }
  });

  return app;
}
export type App = ReturnType<typeof createApp>;

/** A redirect target better-auth can use: a root-relative path, or an absolute URL (its origin check judges which). */
function isRedirectTarget(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\') && URL.canParse(value, 'http://localhost');
  return URL.canParse(value);
}

/** The API reference: Scalar's standalone script (from @scalar/api-reference, served by us) over our OpenAPI document. */
const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <title>Cohortly API reference</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/api/docs/scalar.js"></script>
    <script>Scalar.createApiReference('#app', { url: '/api/openapi.json' });</script>
  </body>
</html>
`;
