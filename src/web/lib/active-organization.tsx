import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ACTIVE_ORGANIZATION_STORAGE_KEY } from '../../contract/headers';
import type { Organization } from '../../contract/organizations';
import { can, canGrantOwner, isGlobalScope, type PermissionSubject } from '../../contract/permissions';
import type { SessionPayload } from '../../contract/session';
import { api, setActiveOrganizationId } from './api';
import { useAuth } from './auth';
import { queryKeys } from './query';
import * as endpoints from './api-operations.gen';

export interface ActiveOrganization {
  id: string;
  slug: string;
  publicId: string;
  name: string;
}

export interface ActiveOrganizationState {
  /** The organization the user works in now (null while unknown or for a user without one). */
  activeOrganization: ActiveOrganization | null;
  activeOrganizationId: string | null;
  /** Organizations the user can see (every organization for an internal admin). */
  organizations: Organization[];
  /** Only admins may pick (docs/product-spec.md §6). */
  canSwitch: boolean;
  setActiveOrganization: (id: string) => void;
  /** The organization list is loading (the active organization may already be known: decision 181). */
  isLoading: boolean;
  /**
   * The page may be shown: the list has loaded, or the active organization is known without it and is a single
   * organization (a global scope's reach and default selection are the list itself).
   */
  isReady: boolean;
  error: Error | null;
  refetch: () => void;
}

const ActiveOrganizationContext = createContext<ActiveOrganizationState | null>(null);

function readStored(): string | null {
  try {
    return window.localStorage.getItem(ACTIVE_ORGANIZATION_STORAGE_KEY);
  } catch {
    return null;
  }
}
function writeStored(id: string) {
  try {
    window.localStorage.setItem(ACTIVE_ORGANIZATION_STORAGE_KEY, id);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

/** The organizations the user can see (every organization for an internal admin); main.tsx asks early with the same key. */
export function organizationsQueryOptions(userId: string | undefined) {
  return { queryKey: queryKeys.organizations(userId), queryFn: () => api.call(endpoints.listOrganizations) };
}

/**
 * An admin's active organization while the list loads, when the session already names it (decision 181): nothing
 * stored means the first organization of the list, which the session carries (`defaultOrganization`); a stored choice
 * that is that one or the admin's own is in the list too. Any other stored choice waits for the list, which says
 * whether it still exists. Either way the request carries that organization and the server checks it.
 */
function knownBeforeTheList(session: SessionPayload, storedId: string | null): ActiveOrganization | null {
  const known = [session.defaultOrganization, session.organization];
  const chosen = storedId ? known.find((org) => org?.id === storedId) : session.defaultOrganization;
  return chosen ? { id: chosen.id, slug: chosen.slug, publicId: chosen.publicId, name: chosen.name } : null;
}

/** The active organization as the session alone tells it, before the organization list arrives (null: wait for it). */
export function activeOrganizationFromSession(session: SessionPayload): ActiveOrganization | null {
  return session.isAdmin ? knownBeforeTheList(session, readStored()) : session.organization;
}

export function ActiveOrganizationProvider({ children }: { children: ReactNode }) {
  const { session, isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const isAdmin = Boolean(session?.isAdmin);
  const [storedId, setStoredId] = useState<string | null>(() => readStored());

  // The list loads only when authenticated (docs/product-spec.md §4).
  const organizationsQuery = useQuery({ ...organizationsQueryOptions(session?.user.id), enabled: isAuthenticated });
  const organizations = useMemo(() => organizationsQuery.data?.organizations ?? [], [organizationsQuery.data]);

  let activeOrganization: ActiveOrganization | null = null;
  if (isAuthenticated && session) {
    if (isAdmin && organizationsQuery.isPending) {
      activeOrganization = knownBeforeTheList(session, storedId);
    } else if (isAdmin) {
      // A stored id missing from the list, or nothing stored: the first organization of the list.
      const chosen = organizations.find((org) => org.id === storedId) ?? organizations[0];
      activeOrganization = chosen ? { id: chosen.id, slug: chosen.slug, publicId: chosen.publicId, name: chosen.name } : null;
    } else if (session.organization) {
      const own = organizations.find((org) => org.id === session.organization?.id);
      activeOrganization = own ? { id: own.id, slug: own.slug, publicId: own.publicId, name: own.name } : session.organization;
    }
  }
  const activeOrganizationId = activeOrganization?.id ?? null;

  // Keep the API client's header in step before children fire their queries in this render.
  setActiveOrganizationId(activeOrganizationId);
  useEffect(() => {
    setActiveOrganizationId(activeOrganizationId);
  }, [activeOrganizationId]);

  const setActiveOrganization = useCallback(
    (id: string) => {
      if (!isAdmin) return;
      writeStored(id);
      setStoredId(id);
      setActiveOrganizationId(id);
      // Every organization-scoped query refetches under the new organization.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'organizations' });
    },
    [isAdmin, queryClient],
  );

  // Another tab changed the choice.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === ACTIVE_ORGANIZATION_STORAGE_KEY) setStoredId(event.newValue);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value: ActiveOrganizationState = {
    activeOrganization,
    activeOrganizationId,
    organizations,
    canSwitch: isAdmin,
    setActiveOrganization,
    isLoading: isAuthenticated && organizationsQuery.isPending,
    isReady: !isAuthenticated || !organizationsQuery.isPending || (activeOrganization !== null && !isGlobalScope(isAdmin, activeOrganization.slug)),
    error: organizationsQuery.error,
    refetch: () => void organizationsQuery.refetch(),
  };
  return <ActiveOrganizationContext.Provider value={value}>{children}</ActiveOrganizationContext.Provider>;
}

export function useActiveOrganization(): ActiveOrganizationState {
  const context = useContext(ActiveOrganizationContext);
  if (!context) throw new Error('useActiveOrganization must be used within an ActiveOrganizationProvider');
  return context;
}

/**
 * The signed-in user as the permission rule sees them: the same subject the server builds from the request
 * scope, so the web hides what the server would refuse (src/contract/permissions.ts).
 */
export function usePermissionSubject(): PermissionSubject {
  const { session } = useAuth();
  const { activeOrganization, organizations } = useActiveOrganization();
  const isAdmin = Boolean(session?.isAdmin);
  const global = isGlobalScope(isAdmin, activeOrganization?.slug);
  return {
    isAdmin,
    role: session?.role ?? null,
    homeOrganizationId: session?.organization?.id ?? null,
    global,
    reachableOrganizationIds: global ? organizations.map((org) => org.id) : activeOrganization ? [activeOrganization.id] : [],
  };
}

/** What the signed-in user may do in the active organization. */
export function usePermissions() {
  const subject = usePermissionSubject();
  const { activeOrganizationId } = useActiveOrganization();
  return {
    isAdmin: subject.isAdmin,
    role: subject.role,
    /** Manage users and edit the active organization. */
    canManage: activeOrganizationId !== null && can(subject, 'user:manage', activeOrganizationId),
    canGrantOwner: canGrantOwner(subject),
  };
}
