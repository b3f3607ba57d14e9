import { useMemo } from 'react';
import { ownSitesFirst, siteLabel, type TrialSite } from '../../contract/trials';
import { Combobox, type ComboboxOption } from './Combobox';

type PickerSite = Pick<TrialSite, 'id' | 'name' | 'city' | 'region' | 'postalCode' | 'country' | 'timeZone' | 'isOwnSite'>;

/**
 * A searchable site picker: the Combobox over a trial's sites, our sites first, each with facility, city,
 * state and country and its time zone. The filter matches every typed word against facility, city, state,
 * postal code and country.
 */
export function SitePicker({
  sites,
  value,
  onChange,
  id,
  invalid,
  placeholder = 'Choose a site',
  isDisabled,
  'aria-describedby': describedBy,
}: {
  sites: readonly PickerSite[];
  value: string | undefined;
  onChange: (siteId: string) => void;
  id?: string;
  invalid?: boolean;
  placeholder?: string;
  /** A site that cannot be chosen here, with why (shown under its name). */
  isDisabled?: (site: PickerSite) => string | null;
  'aria-describedby'?: string;
}) {
  const options = useMemo<ComboboxOption[]>(
    () =>
      ownSitesFirst(sites).map((site) => ({
        value: site.id,
        label: site.name,
        chosenLabel: siteLabel(site),
        description: `${[site.city, site.region, site.country].filter(Boolean).join(', ') || 'No address'} · ${site.timeZone ? site.timeZone.replace(/_/g, ' ') : 'time zone needed'}`,
        // The label and chosenLabel (facility, city, state, country) are searched; so is the postal code.
        keywords: site.postalCode,
        badge: site.isOwnSite ? 'Ours' : undefined,
        badgeTone: 'green',
        disabledReason: isDisabled?.(site) ?? null,
      })),
    [sites, isDisabled],
  );
  return (
    <Combobox
      options={options}
      value={value}
      onChange={onChange}
      id={id}
      invalid={invalid}
      aria-describedby={describedBy}
      placeholder={placeholder}
      searchLabel="Search sites by facility, city, state or country"
      searchPlaceholder="Search facility, city, state, country"
      listLabel="Sites"
      noun="sites"
      data-testid="site-picker"
    />
  );
}
