import type { Classification } from './index';

/**
 * The demo area (decision 068). Probes: tenant-isolation.demo.int.test.ts. Internal admins only, with global scope
 * or the demo organization active: a customer's owner, or an internal admin with another organization active,
 * gets 403 and nothing of the demo organization.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/demo': 'admin-only',
  'POST /api/demo/reset': 'admin-only',
  'GET /api/demo/samples': 'admin-only',
  'POST /api/demo/sample-candidate': 'admin-only',
  'POST /api/demo/voice-call': 'admin-only',
};
