import type { Classification } from './index';

/**
 * Voice agents and calls. Probes: tenant-isolation.voice.int.test.ts. The provider endpoints
 * (POST /api/inbound/vapi, /api/functions/vapi/<tool>) take Vapi's shared secret instead of a session:
 * classified in providers.ts.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/voice-agents': 'list-scoped',
  'POST /api/voice-agents': 'tenant-row',
  'GET /api/voice-agents/{id}': 'tenant-row',
  'PATCH /api/voice-agents/{id}': 'tenant-row',
  'DELETE /api/voice-agents/{id}': 'tenant-row',
  'POST /api/calls': 'tenant-row',
  'GET /api/calls/pre-check': 'tenant-row',
  'GET /api/calls': 'list-scoped',
  'GET /api/calls/{callId}': 'tenant-row',
  'DELETE /api/calls/{callId}': 'tenant-row',
  'POST /api/process/calls/{callId}': 'tenant-row',
  'GET /api/vapi/calls/{callId}/storage': 'tenant-row',
  'GET /api/vapi/calls/{callId}/logs': 'tenant-row',
};
