/**
 * The permission rule, shared by the server (which enforces it) and the web (which only hides what the server
 * would refuse). A plain module, no zod: the web's first page uses it.
 */
import type { MemberRole } from './users';

/** Slug of the provider's own internal organization (docs/product-spec.md §3): an internal admin acting from it is global. */
export const INTERNAL_ORGANIZATION_SLUG = 'cohortly';

/** The permission vocabulary. */
export type Permission =
  | 'organization:create'
  | 'organization:delete'
  | 'organization:update'
  | 'organization:list-all'
  /** Onboarding a new customer organization (decision 027): global work, like creating one. */
  | 'organization:onboard'
  | 'user:manage'
  | 'trial:delete';

/** Owners and admins manage their own organization; coordinators work the funnel only. */
export const MANAGER_ROLES: readonly MemberRole[] = ['owner', 'admin'];

/** Who asks: the server's request scope has this shape, and the web builds it from the session. */
export interface PermissionSubject {
  isAdmin: boolean;
  /** The user's role in their own organization. */
  role: MemberRole | null;
  homeOrganizationId: string | null;
  /** An internal admin whose active organization is Cohortly's own: every organization is reachable. */
  global: boolean;
  reachableOrganizationIds: readonly string[];
}

/** Whether an internal admin with this active organization acts globally (docs/ARCHITECTURE.md, "The scope rule"). */
export const isGlobalScope = (isAdmin: boolean, activeOrganizationSlug: string | undefined) =>
  isAdmin && activeOrganizationSlug?.toLowerCase() === INTERNAL_ORGANIZATION_SLUG;

/**
 * Whether the subject may do `permission` in `organizationId` (when the permission is about one). Internal
 * admins may do everything within their reach; owners and admins manage their own organization.
 */
export function can(subject: PermissionSubject, permission: Permission, organizationId?: string): boolean {
  if (subject.isAdmin) {
    // The switcher lists every organization; anything else follows the scope rule: an admin whose active
    // organization is B acts on B only, and creating or deleting organizations needs the global scope.
    if (permission === 'organization:list-all') return true;
    if (permission === 'organization:create' || permission === 'organization:delete' || permission === 'organization:onboard') return subject.global;
    return organizationId === undefined ? subject.global : subject.reachableOrganizationIds.includes(organizationId);
  }
  switch (permission) {
    case 'organization:create':
    case 'organization:delete':
    case 'organization:list-all':
    case 'organization:onboard':
      return false;
    case 'organization:update':
    case 'user:manage':
    case 'trial:delete':
      return organizationId === subject.homeOrganizationId && subject.role !== null && MANAGER_ROLES.includes(subject.role);
  }
}

/** Only owners (and internal admins) may hand out or take away the owner role. */
export const canGrantOwner = (subject: Pick<PermissionSubject, 'isAdmin' | 'role'>) => subject.isAdmin || subject.role === 'owner';
