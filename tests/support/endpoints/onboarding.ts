import type { Classification } from './index';

/**
 * Onboarding (decision 027). Probes: tenant-isolation.onboarding.int.test.ts. Listing and starting are for
 * internal admins in global scope (403 to anyone else); an onboarding belongs to the organization it set up,
 * so one outside the request's scope answers 404 before the 403 of a caller who may not onboard.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/onboarding': 'admin-only',
  'POST /api/onboarding': 'admin-only',
  'GET /api/onboarding/{id}': 'tenant-row',
  'PATCH /api/onboarding/{id}': 'tenant-row',
  'POST /api/onboarding/{id}/owner': 'tenant-row',
  'PUT /api/onboarding/{id}/sites': 'tenant-row',
  'POST /api/onboarding/{id}/trial': 'tenant-row',
  'POST /api/onboarding/{id}/agents': 'tenant-row',
  'POST /api/onboarding/{id}/sequence': 'tenant-row',
  'GET /api/onboarding/{id}/checklist': 'tenant-row',
  'POST /api/onboarding/{id}/complete': 'tenant-row',
};
