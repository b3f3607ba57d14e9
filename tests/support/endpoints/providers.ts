import { AGENT_TOOLS, CALLBACK_TOOLS } from '../../../src/server/integrations/voice/port';
import type { Classification } from './index';

/**
 * Provider webhooks and the voice agent's tools (documented by src/server/http/provider-docs.ts), better-auth's
 * endpoints and the server's own. Provider probes: tenant-isolation.providers.int.test.ts.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'POST /api/inbound/sms': 'provider',
  'POST /api/inbound/sms/status': 'provider',
  'POST /api/inbound': 'provider',
  'POST /api/inbound/vapi': 'provider',
  ...Object.fromEntries(AGENT_TOOLS.map((tool) => [`POST /api/functions/vapi/${tool}`, 'provider'])),
  ...Object.fromEntries(
    CALLBACK_TOOLS.flatMap((tool) => [`GET /api/functions/vapi/${tool}`, `DELETE /api/functions/vapi/${tool}`].map((operation) => [operation, 'provider'])),
  ),
  // better-auth: signing up and in need nothing; the rest act on the caller's own account and sessions.
  'POST /api/auth/sign-up/email': 'public',
  'POST /api/auth/sign-in/email': 'public',
  'GET /api/auth/verify-email': 'public',
  'GET /api/auth/get-session': 'self',
  'GET /api/auth/list-sessions': 'self',
  'POST /api/auth/sign-out': 'self',
  'POST /api/auth/update-user': 'self',
  'POST /api/auth/change-password': 'self',
  'POST /api/auth/change-email': 'self',
  'POST /api/auth/revoke-session': 'self',
  'POST /api/auth/revoke-sessions': 'self',
  'POST /api/auth/revoke-other-sessions': 'self',
  'POST /api/auth/delete-user': 'self',
  // The server itself.
  'GET /api/health': 'public',
  'GET /api/openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/scalar.js': 'public',
};
