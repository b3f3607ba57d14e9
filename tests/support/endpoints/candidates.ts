import type { Classification } from './index';

/** Candidates, their import (processing runs) and contact history. Probes: tenant-isolation.candidates.int.test.ts. */
export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/candidates': 'list-scoped',
  'POST /api/candidates': 'tenant-row',
  'POST /api/candidates/bulk': 'tenant-row',
  'POST /api/candidates/bulk/preview': 'tenant-row',
  'POST /api/candidates/bulk/stream': 'tenant-row',
  'PATCH /api/candidates/reset-status': 'tenant-row',
  'POST /api/candidates/bulk-update': 'tenant-row',
  'POST /api/candidates/bulk-delete': 'tenant-row',
  'POST /api/candidates/bulk-consent': 'tenant-row',
  'GET /api/candidates/{candidateId}': 'tenant-row',
  'PATCH /api/candidates/{candidateId}': 'tenant-row',
  'DELETE /api/candidates/{candidateId}': 'tenant-row',
  'GET /api/candidates/{candidateId}/prescreen-notes': 'tenant-row',
  'POST /api/candidates/{candidateId}/prescreen-notes': 'tenant-row',
  'DELETE /api/candidates/{candidateId}/prescreen-notes/{noteIndex}': 'tenant-row',
  'GET /api/processing-runs': 'list-scoped',
  'GET /api/processing-runs/data': 'list-scoped',
  'GET /api/processing-runs/{id}/data': 'tenant-row',
  'GET /api/contact-history': 'tenant-row',
};
