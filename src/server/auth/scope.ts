import type { MiddlewareHandler } from 'hono';
import {
  ACTIVE_ORGANIZATION_HEADER,
  DEFAULT_SELECTION_EXCLUDED_NAME_PARTS,
  INTERNAL_ORGANIZATION_SLUG,
} from '../../contract/organizations';
import type { MemberRole } from '../../contract/users';
import type { Database } from '../db/client';
import { withRowSecurity, type Transaction } from '../db/scoped';
import { findOrganizationById, listAllOrganizations, type OrganizationRow } from '../features/organizations/queries';
import { findMembership } from '../features/users/queries';
import { AppError } from '../http/errors';
import type { AppEnv } from '../http/context';

/**
 * The request scope (guide §4): which organizations this request may read or write.
 * - ordinary user: their own organization;
 * - internal admin with an active organization that is not `cohortly`: that organization;
 * - internal admin whose active organization's slug is `cohortly`: global. Every organization is reachable,
 *   and lists default to those whose name contains none of demo/test/cohortly.
 */
export interface RequestScope {
  userId: string;
  isAdmin: boolean;
  /** The user's role in their own organization. */
  role: MemberRole | null;
  homeOrganizationId: string | null;
  activeOrganization: Pick<OrganizationRow, 'id' | 'slug' | 'name' | 'publicId'>;
  global: boolean;
  /** Every organization the request may touch (a single row outside it answers 404). */
  reachableOrganizationIds: string[];
  /** What lists show when the request names no organizations. */
  defaultOrganizationIds: string[];
}

export function isDefaultSelected(name: string): boolean {
  const lower = name.toLowerCase();
  return !DEFAULT_SELECTION_EXCLUDED_NAME_PARTS.some((part) => lower.includes(part));
}

export async function resolveScope(db: Database, user: { id: string; isAdmin: boolean }, requestedActiveId: string | undefined): Promise<RequestScope> {
  const membership = await findMembership(db, user.id);
  let active: OrganizationRow | undefined = membership?.organization;
  if (user.isAdmin && requestedActiveId) {
    active = (await findOrganizationById(db, requestedActiveId)) ?? active;
  }
  if (!active) throw new AppError(403, 'Your account belongs to no organization');

  const global = user.isAdmin && active.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG;
  let reachable = [active.id];
  let defaults = [active.id];
  if (global) {
    const all = await listAllOrganizations(db);
    reachable = all.map((org) => org.id);
    defaults = all.filter((org) => isDefaultSelected(org.name)).map((org) => org.id);
  }
  return {
    userId: user.id,
    isAdmin: user.isAdmin,
    role: membership?.role ?? null,
    homeOrganizationId: membership?.organizationId ?? null,
    activeOrganization: { id: active.id, slug: active.slug, name: active.name, publicId: active.publicId },
    global,
    reachableOrganizationIds: reachable,
    defaultOrganizationIds: defaults,
  };
}

/**
 * The organizations a list request covers: the default selection, or the requested ids narrowed to the
 * reachable ones. A request can narrow its scope but never widen it.
 */
export function selectOrganizations(scope: RequestScope, ...requested: Array<string[] | string | undefined>): string[] {
  const named = requested.flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));
  if (named.length === 0) return scope.defaultOrganizationIds;
  const reachable = new Set(scope.reachableOrganizationIds);
  return [...new Set(named)].filter((id) => reachable.has(id));
}

export const canReach = (scope: RequestScope, organizationId: string) => scope.reachableOrganizationIds.includes(organizationId);

/** Runs tenant queries under row-level security for this scope. */
export function runScoped<T>(db: Database, scope: RequestScope, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return withRowSecurity(db, scope, work);
}

/** Resolves the session and the scope once per request; answers 401 without a session. */
export const requireScope: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { auth, db } = c.get('deps');
  const session = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) throw new AppError(401, 'Sign in to continue');
  const scope = await resolveScope(
    db,
    { id: session.user.id, isAdmin: Boolean(session.isAdmin) },
    c.req.header(ACTIVE_ORGANIZATION_HEADER) ?? undefined,
  );
  c.set('scope', scope);
  await next();
};
