import type { Classification } from './index';

/**
 * The mail outbox (issue 32): mail of every organization kept when no mail server is configured, for internal
 * admins with the Cohortly organization active only (403 to everyone else). Probes: tenant-isolation.mail-outbox.int.test.ts.
 */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/mail-outbox': 'admin-only',
  'GET /api/mail-outbox/{id}': 'admin-only',
};
