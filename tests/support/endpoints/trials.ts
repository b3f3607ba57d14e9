import type { Classification } from './index';

export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/trials': 'list-scoped',
  'POST /api/trials': 'tenant-row',
  'POST /api/trials/auto-gen': 'tenant-row',
  'GET /api/trials/{trialId}': 'tenant-row',
  'PATCH /api/trials/{trialId}': 'tenant-row',
  'POST /api/trials/{trialId}/reparse': 'tenant-row',
  'POST /api/trials/{trialId}/suggestions': 'tenant-row',
  'DELETE /api/trials/{trialId}': 'tenant-row',
  'GET /api/trials/{trialId}/sites': 'tenant-row',
  'PATCH /api/trials/{trialId}/sites/{siteId}': 'tenant-row',
};
