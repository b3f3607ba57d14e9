import { Check, ChevronDown, Filter } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Button } from '../../components/ui';
import { cn } from '../../lib/utils';
import { organizationFilterLabel, type OrganizationFilterProps } from './OrganizationFilter';

/** The organization filter's menu (radix's dropdown), loaded when a global scope's page draws the filter (OrganizationFilter.tsx). */
export function OrganizationFilterMenu({ organizations, selected, onChange }: OrganizationFilterProps) {
  const chosen = new Set(selected ?? []);
  const label = organizationFilterLabel(organizations, selected);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button variant="secondary" aria-label={`Filter by organization: ${label}`}>
          <Filter aria-hidden="true" className="h-4 w-4" />
          {label}
          <ChevronDown aria-hidden="true" className="h-4 w-4" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-80 min-w-[14rem] overflow-y-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-700">Organizations</DropdownMenu.Label>
          <DropdownMenu.Item
            onSelect={() => onChange(undefined)}
            className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-900 outline-none data-[highlighted]:bg-blue-50"
          >
            <span className="w-4">{chosen.size === 0 && <Check aria-hidden="true" className="h-4 w-4" />}</span>
            Default selection
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          {organizations.map((org) => (
            <DropdownMenu.CheckboxItem
              key={org.id}
              checked={chosen.has(org.id)}
              onSelect={(event) => event.preventDefault()}
              onCheckedChange={(checked) => {
                const next = new Set(chosen);
                if (checked) next.add(org.id);
                else next.delete(org.id);
                onChange(next.size ? [...next] : undefined);
              }}
              className={cn('flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-900 outline-none data-[highlighted]:bg-blue-50')}
            >
              <span className="w-4">
                <DropdownMenu.ItemIndicator>
                  <Check aria-hidden="true" className="h-4 w-4" />
                </DropdownMenu.ItemIndicator>
              </span>
              {org.name}
            </DropdownMenu.CheckboxItem>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
