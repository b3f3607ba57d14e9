import { useMemo } from 'react';
import { INTERNAL_ORGANIZATION_SLUG } from '../../../contract/organizations';
import { useActiveOrganization } from '../../lib/active-organization';
import { useAuth } from '../../lib/auth';

/** Whether the user sees several organizations at once (internal admin with the Cohortly organization active). */
export function useIsGlobal() {
  const { session } = useAuth();
  const { activeOrganization } = useActiveOrganization();
  return Boolean(session?.isAdmin) && activeOrganization?.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG;
}

/** Where a global admin's new trial goes: the organizations they can pick, customer organizations first. */
export function useCreateTargets() {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  return useMemo(() => {
    if (!isGlobal) return undefined;
    const customers = organizations.filter((org) => org.slug.toLowerCase() !== INTERNAL_ORGANIZATION_SLUG);
    const internal = organizations.filter((org) => org.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG);
    return [...customers, ...internal].map((org) => ({ id: org.id, name: org.name }));
  }, [isGlobal, organizations]);
}
