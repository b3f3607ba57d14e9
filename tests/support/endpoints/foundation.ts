import type { Classification } from './index';

export const ENDPOINTS: Record<string, Classification> = {
  'GET /api/organizations/public/{publicId}': 'public',
  'GET /api/invitations/{token}': 'public',
  'GET /api/organizations': 'list-scoped',
  'POST /api/organizations': 'admin-only',
  'GET /api/organizations/{id}': 'tenant-row',
  'PATCH /api/organizations/{id}': 'tenant-row',
  'DELETE /api/organizations/{id}': 'tenant-row',
  'GET /api/users/me': 'self',
  'GET /api/users': 'list-scoped',
  'POST /api/users': 'tenant-row',
  'DELETE /api/users/invitations/{invitationId}': 'tenant-row',
  'PATCH /api/users/{userId}': 'tenant-row',
  'DELETE /api/users/{userId}': 'tenant-row',
};
