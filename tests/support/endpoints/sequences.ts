import type { Classification } from './index';

/** Outreach sequences. Probes: tenant-isolation.sequences.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/sequences': 'list-scoped',
  'POST /api/sequences': 'tenant-row',
  'POST /api/sequences/preview': 'tenant-row',
  'GET /api/sequences/{id}': 'tenant-row',
  'PATCH /api/sequences/{id}': 'tenant-row',
  'DELETE /api/sequences/{id}': 'tenant-row',
  'POST /api/sequences/{id}/enrollments': 'tenant-row',
  'POST /api/sequences/{id}/enrollments/remove': 'tenant-row',
  'GET /api/sequences/{id}/enrollments': 'tenant-row',
  'GET /api/sequences/{id}/statistics': 'tenant-row',
  'GET /api/sequence-enrollments/{id}': 'tenant-row',
  'POST /api/sequence-enrollments/{id}/action': 'tenant-row',
  'GET /api/candidates/{id}/sequences': 'tenant-row',
};
