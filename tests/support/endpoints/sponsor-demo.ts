import type { Classification } from './index';

/**
 * The sponsor demo (decision 069): internal admins only (403 to everyone else), reading the demo organization
 * whatever the admin's active organization; a trial of any other organization is not found (404). Probes:
 * tenant-isolation.sponsor-demo.int.test.ts.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/sponsor-demo/trials': 'admin-only',
  'GET /api/sponsor-demo/trials/{id}/sites': 'admin-only',
  'GET /api/sponsor-demo/trials/{id}/dashboard': 'admin-only',
};
