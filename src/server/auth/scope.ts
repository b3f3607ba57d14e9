import type { MiddlewareHandler } from 'hono';
import { ACTIVE_ORGANIZATION_HEADER, DEFAULT_SELECTION_EXCLUDED_NAME_PARTS, INTERNAL_ORGANIZATION_SLUG } from '../../contract/organizations';
import type { MemberRole } from '../../contract/users';
import type { Database } from '../db/client';
import { withRowSecurity, type Transaction } from '../db/scoped';
import type { OrganizationRow } from '../tenancy/organizations';
import type { ActiveOrganization, SessionStore } from './sessions';
import { AppError } from '../http/errors';
import type { AppEnv } from '../http/context';

/**
 * The request scope (docs/ARCHITECTURE.md, "The scope rule"): which organizations this request may read or write.
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
  /** A read-only request's abort signal: its transactions are not started once its client has gone (db/scoped.ts). */
  clientGone?: AbortSignal;
}

export function isDefaultSelected(name: string): boolean {
  const lower = name.toLowerCase();
  return !DEFAULT_SELECTION_EXCLUDED_NAME_PARTS.some((part) => lower.includes(part));
}

/** The user as the session knows them: their own organization and role come with the (cached) session. */
export interface ScopeUser {
  id: string;
  isAdmin: boolean;
  organization: ActiveOrganization | null;
  role: MemberRole | null;
}

/**
 * The scope from the session's user. Ordinary users need no query at all; admins read the organization list,
 * which the session store keeps while no process changed an organization. An admin's X-Organization-Id names an
 * organization or answers 404: it never falls back to their own.
 */
export async function resolveScope(sessions: SessionStore, user: ScopeUser, requestedActiveId: string | undefined): Promise<RequestScope> {
  let active: ActiveOrganization | undefined = user.organization ?? undefined;
  let all: ActiveOrganization[] | undefined;
  if (user.isAdmin && (requestedActiveId || active?.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG)) {
    let organizations = await sessions.organizations();
    // An id not in the list as this process knows it is read from the database; one that does not exist is refused,
    // never replaced by the admin's own organization (decision 123).
    if (requestedActiveId && !organizations.byId.has(requestedActiveId)) organizations = await sessions.organizations({ fresh: true });
    all = organizations.rows;
    if (requestedActiveId) {
      active = organizations.byId.get(requestedActiveId);
      if (!active) throw new AppError(404, 'Organization not found');
    }
  }
  if (!active) throw new AppError(403, 'Your account belongs to no organization');

  const global = user.isAdmin && active.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG;
  let reachable = [active.id];
  let defaults = [active.id];
  if (global && all) {
    reachable = all.map((org) => org.id);
    defaults = all.filter((org) => isDefaultSelected(org.name)).map((org) => org.id);
  }
  return {
    userId: user.id,
    isAdmin: user.isAdmin,
    role: user.role,
    homeOrganizationId: user.organization?.id ?? null,
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

/**
 * A request the web app makes on its own (polling, background refresh) sends this header; it does not count
 * as the user's activity, so a screen left open does not keep its session alive (decision 061).
 */
export const PASSIVE_REQUEST_HEADER = 'x-cohortly-passive';
/** Every signed-in answer tells the web app when the session ends without further activity (ISO time). */
export const SESSION_EXPIRES_HEADER = 'x-session-expires-at';

/** Requests that change nothing: their reads may be dropped when the client has gone (db/scoped.ts, decision 106). */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD']);

/** Resolves the session and the scope once per request; answers 401 without a (live) session. */
export const requireScope: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { sessions } = c.get('deps');
  const session = await sessions.resolve(c.req.raw.headers, { activity: c.req.header(PASSIVE_REQUEST_HEADER) === undefined });
  if (!session) throw new AppError(401, 'Sign in to continue');
  const { payload } = session;
  const scope = await resolveScope(
    sessions,
    { id: session.userId, isAdmin: Boolean(payload.isAdmin), organization: payload.organization, role: payload.role },
    c.req.header(ACTIVE_ORGANIZATION_HEADER) ?? undefined,
  );
  if (READ_ONLY_METHODS.has(c.req.method)) scope.clientGone = c.req.raw.signal;
  c.set('scope', scope);
  c.set('session', session);
  await next();
  // On the response's own headers: c.header() after the handler re-wraps the finished body as a stream, which
  // @hono/node-server then materialises and pipes (a tenth of a cheap request's CPU; decision 116).
  c.res.headers.set(SESSION_EXPIRES_HEADER, new Date(session.expiresAt).toISOString());
};
