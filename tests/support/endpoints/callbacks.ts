import type { Classification } from './index';

/** Callbacks. Probes: tenant-isolation.callbacks.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/callbacks': 'list-scoped',
  'POST /api/callbacks/schedule': 'tenant-row',
  'DELETE /api/callbacks/{candidateId}': 'tenant-row',
};
