import { useMemo } from 'react';
import { INTERNAL_ORGANIZATION_SLUG } from '../../../contract/permissions';
import { useActiveOrganization, usePermissionSubject } from '../../lib/active-organization';

/** Whether the user sees several organizations at once (internal admin with the Cohortly organization active). */
export function useIsGlobal() {
  return usePermissionSubject().global;
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
