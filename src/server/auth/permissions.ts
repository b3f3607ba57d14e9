import { canReach, type RequestScope } from './scope';

/**
 * The permission vocabulary, checked in one place. Internal admins may do everything within their scope's reach;
 * organization owners and admins manage their own organization; coordinators work the funnel only.
 */
export type Permission =
  | 'organization:create'
  | 'organization:delete'
  | 'organization:update'
  | 'organization:list-all'
  | 'user:manage'
  | 'trial:delete';

const MANAGER_ROLES = new Set(['owner', 'admin']);

/** Whether the scope's user may do `permission` in `organizationId` (when the permission is about one). */
export function can(scope: RequestScope, permission: Permission, organizationId?: string): boolean {
  if (scope.isAdmin) {
    // The switcher lists every organization; anything else follows the scope rule: an admin whose active
    // organization is B acts on B only, and creating or deleting organizations needs the global scope.
    if (permission === 'organization:list-all') return true;
    if (permission === 'organization:create' || permission === 'organization:delete') return scope.global;
    return organizationId === undefined ? scope.global : canReach(scope, organizationId);
  }
  switch (permission) {
    case 'organization:create':
    case 'organization:delete':
    case 'organization:list-all':
      return false;
    case 'organization:update':
    case 'user:manage':
    case 'trial:delete':
      return organizationId === scope.homeOrganizationId && scope.role !== null && MANAGER_ROLES.has(scope.role);
  }
}

/** Only owners (and internal admins) may hand out or take away the owner role. */
export const canGrantOwner = (scope: RequestScope) => scope.isAdmin || scope.role === 'owner';
