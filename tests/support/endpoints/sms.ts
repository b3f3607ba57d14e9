import type { Classification } from './index';

/** SMS staff API. Probes: tenant-isolation.sms.int.test.ts. The provider webhooks (/api/inbound/sms) are in providers.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/sms/threads': 'list-scoped',
  'GET /api/sms/threads/{candidateId}': 'tenant-row',
  'POST /api/sms/send': 'tenant-row',
  'GET /api/sms/templates': 'list-scoped',
  'GET /api/sms/unrouted': 'admin-only',
  'POST /api/sms/simulator/inbound': 'tenant-row',
  'GET /api/sms/simulator/outbox': 'list-scoped',
};
