import { OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiErrorSchema } from '../../contract/common';
import type { AppEnv } from './context';
import { validationError } from './errors';

/** A feature router: zod-validated routes whose schemas also feed the OpenAPI document. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) return validationError(c, result.error, result.target);
    },
  });
}

/** A JSON response entry of a route contract. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A required JSON request body of a route contract. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

/** A path parameter schema, documented as such. */
export const pathParams = <K extends string>(...names: K[]) =>
  z.object(
    Object.fromEntries(
      names.map((name) => [
        name,
        z
          .string()
          .min(1)
          .openapi({ param: { name, in: 'path' } }),
      ]),
    ) as Record<K, z.ZodString>,
  );

/** The error answers an authenticated, tenant-scoped route may give. */
export const errorResponses = {
  400: jsonContent(ApiErrorSchema, 'Invalid input: the message and details name the field'),
  401: jsonContent(ApiErrorSchema, 'Not signed in'),
  403: jsonContent(ApiErrorSchema, 'Signed in, but the role does not allow it'),
  404: jsonContent(ApiErrorSchema, 'Not found, or outside the organizations in scope'),
} as const;

/** The session cookie better-auth sets at sign-in (`__Secure-` prefixed over HTTPS); every operation needs it unless it says `security: []`. */
export const SESSION_COOKIE_SCHEME = 'sessionCookie';

/** Each tag of the document, described, in the order the reference lists them. */
const API_TAGS = [
  ['Auth', 'Sign-up, sign-in, sessions and the account itself (better-auth endpoints, errors in the API shape)'],
  ['Organizations', 'Research sites and the public lookup of one by its public id'],
  ['Users', 'Staff of an organization: invitations, roles, removal'],
  ['Onboarding', "An internal admin's guided set-up of a new organization"],
  ['Candidates', 'People considered for trials: import, edit, status, consent, prescreen notes'],
  ['Candidate clinical record', "A candidate's clinical notes and structured facts (FHIR import)"],
  ['Trials', 'Trials, their criteria and their sites'],
  ['Trial matcher', "Matching candidates against a trial's criteria: runs, matches, gaps, what-if"],
  ['Prescreen forms', 'Question forms a prescreen follows, built from trial criteria'],
  ['Prescreen', 'Prescreen results, the review queue and booked visits'],
  ['Sequences', 'Outreach sequences (SMS, calls, email steps) and their enrollments'],
  ['SMS', 'Text-message threads, sending, templates and the simulator'],
  ['Calls', 'Voice calls placed by agents, and their processing'],
  ['Callbacks', 'Callbacks candidates asked for'],
  ['Voice agents', 'Voice agents and their settings'],
  ['Phone numbers', "The organization's numbers for texts and calls"],
  ['Chat agents', 'Chat agents that prescreen on the web'],
  ['Chat conversations', 'Web chats: the public side (no sign-in) and the staff side'],
  ['Contact history', 'Every contact with a candidate, across channels'],
  ['Processing runs', 'Background processing runs and what they produced'],
  ['Dashboard', 'The admin dashboard tabs and their CSV export'],
  ['Demo', 'The demo organization: status, reset, samples'],
  ['Sponsor demo', "A sponsor's read-only view of trials across sites"],
  ['Mail outbox', 'Mail kept instead of sent when no mail server is configured (internal admins)'],
  ['Provider webhooks', 'Inbound calls from providers (Twilio, Vapi): signed requests, no session'],
  ['Agent tools', "Tools a voice agent calls during a call (Vapi's shared secret, no session)"],
  ['Server', 'Health and this reference'],
] as const;

/** The document's top level: servers, the session security applied to every operation, declared tags. */
export function apiDocumentConfig(version: string, publicBaseUrl?: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cohortly API',
      version,
      description: 'Clinical-trial recruitment. Auth endpoints live under /api/auth (better-auth).',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: publicBaseUrl ?? '/', description: publicBaseUrl ? 'This server' : 'The server that serves this document' }],
    security: [{ [SESSION_COOKIE_SCHEME]: [] }],
    tags: API_TAGS.map(([name, description]) => ({ name, description })),
  };
}

/** Registers the session cookie scheme the document's global security names. */
export function registerSessionScheme(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', SESSION_COOKIE_SCHEME, {
    type: 'apiKey',
    in: 'cookie',
    name: 'better-auth.session_token',
    description:
      'The session cookie set by sign-in (named __Secure-better-auth.session_token over HTTPS). Writes must also come from our own pages (same origin).',
  });
}

/**
 * The OpenAPI document of an app. Provider callbacks are real inbound paths (tag "Provider webhooks"), so the
 * 3.1 `webhooks` map, empty, is left out rather than published empty.
 */
export function buildApiDocument(app: OpenAPIHono<AppEnv>, version: string, publicBaseUrl?: string) {
  const document = app.getOpenAPI31Document(apiDocumentConfig(version, publicBaseUrl));
  if (document.webhooks && Object.keys(document.webhooks).length === 0) delete document.webhooks;
  return document;
}
