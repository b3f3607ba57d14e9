import type { Classification } from './index';

/** Prescreen forms. Probes: tenant-isolation.prescreen-forms.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/prescreen-forms': 'list-scoped',
  'POST /api/prescreen-forms': 'tenant-row',
  'GET /api/prescreen-forms/{id}': 'tenant-row',
  'PUT /api/prescreen-forms/{id}': 'tenant-row',
  'POST /api/prescreen-forms/generate-study-blocks': 'tenant-row',
  'POST /api/prescreen-forms/detect-duplicates': 'tenant-row',
  // Pure computation on the request body: reads and writes no stored row of any organization.
  'POST /api/prescreen-forms/apply-deduplication': 'self',
};
