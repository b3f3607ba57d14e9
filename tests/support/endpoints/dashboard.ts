import type { Classification } from './index';

/** The admin dashboard (decision 032): read-only lists over the scope. Probes: tenant-isolation.dashboard.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/dashboard/funnel-breakdown': 'list-scoped',
  'GET /api/dashboard/prescreen-analytics': 'list-scoped',
  'GET /api/dashboard/patient-satisfaction': 'list-scoped',
  'GET /api/dashboard/trial-lifecycle': 'list-scoped',
  'GET /api/dashboard/trial-matcher': 'list-scoped',
  'GET /api/dashboard/costs': 'list-scoped',
  'GET /api/dashboard/customer-overview': 'admin-only',
  'GET /api/dashboard/export': 'list-scoped',
};
