import type { Classification } from './index';

/** Prescreen results, review, decisions and bookings. Probes: tenant-isolation.prescreen.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/prescreen/results': 'list-scoped',
  'POST /api/prescreen/results': 'tenant-row',
  'GET /api/prescreen/review': 'tenant-row',
  'POST /api/prescreen/review/decision': 'tenant-row',
  'POST /api/prescreen/bookings': 'tenant-row',
  'POST /api/prescreen/bookings/{id}/outcome': 'tenant-row',
};
