import { ChevronDown, Filter } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui';

export interface OrganizationFilterProps {
  organizations: Array<{ id: string; name: string }>;
  selected: string[] | undefined;
  onChange: (next: string[] | undefined) => void;
}

export function organizationFilterLabel(organizations: OrganizationFilterProps['organizations'], selected: string[] | undefined): string {
  const chosen = new Set(selected ?? []);
  if (chosen.size === 0) return 'Default organizations';
  if (chosen.size === 1) return organizations.find((org) => chosen.has(org.id))?.name ?? '1 organization';
  return `${chosen.size} organizations`;
}

// Only a global scope sees the filter, so its menu (radix's dropdown, two more files) is not in the first code of
// every list page (decision 185).
const OrganizationFilterMenu = lazy(() => import('./OrganizationFilterMenu').then((module) => ({ default: module.OrganizationFilterMenu })));

/**
 * Narrows a global admin's list to some organizations (the `orgs` search param); none chosen = the default selection.
 * Until the menu's code has arrived the same button shows, so nothing moves when it does.
 */
export function OrganizationFilter(props: OrganizationFilterProps) {
  const label = organizationFilterLabel(props.organizations, props.selected);
  return (
    <Suspense
      fallback={
        <Button variant="secondary" aria-label={`Filter by organization: ${label}`}>
          <Filter aria-hidden="true" className="h-4 w-4" />
          {label}
          <ChevronDown aria-hidden="true" className="h-4 w-4" />
        </Button>
      }
    >
      <OrganizationFilterMenu {...props} />
    </Suspense>
  );
}
