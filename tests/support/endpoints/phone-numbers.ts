import type { Classification } from './index';

/**
 * The phone-number registry. Probes: tenant-isolation.phone-numbers.int.test.ts. Assigning, changing and
 * releasing are for internal admins in global scope (403 to anyone else within their own organization), but
 * a number or organization outside the scope answers 404 first, so they are probed as tenant rows.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/phone-numbers': 'list-scoped',
  'POST /api/phone-numbers': 'tenant-row',
  'PATCH /api/phone-numbers/{id}': 'tenant-row',
  'DELETE /api/phone-numbers/{id}': 'tenant-row',
};
