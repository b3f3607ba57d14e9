import type { Classification } from './index';

/** Bulk prescreen calls and reconciliation with the voice provider. Probes: tenant-isolation.bulk-calls.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'POST /api/calls/prescreen-all': 'tenant-row',
  'POST /api/process/vapi': 'list-scoped',
};
