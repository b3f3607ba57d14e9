import { MapPin, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ORGANIZATION_SITES_MAX, type Onboarding, type OrganizationSite, type OrganizationSiteInput } from '../../../contract/onboarding';
import { Combobox } from '../../components/Combobox';
import { FormError } from '../../components/FormError';
import { Button, Field, Input, SubmitButton } from '../../components/ui';
import { timeZoneOptions } from '../../lib/time-zone-options';
import { apiProblem } from '../../lib/form-errors';
import { Made, StepCard } from './steps';
import { useSaveSites } from './queries';

type SiteText = 'name' | 'address' | 'city' | 'region' | 'postalCode' | 'country' | 'timeZone';
interface Row extends Record<SiteText, string> {
  /** React's key: the site's id, or a new row's own. */
  key: string;
  id?: string;
}

let counter = 0;
const emptyRow = (): Row => ({ key: `new-${++counter}`, name: '', address: '', city: '', region: '', postalCode: '', country: '', timeZone: '' });
const rowOf = (site: OrganizationSite): Row => ({
  key: site.id,
  id: site.id,
  name: site.name,
  address: site.address,
  city: site.city ?? '',
  region: site.region ?? '',
  postalCode: site.postalCode ?? '',
  country: site.country ?? '',
  timeZone: site.timeZone,
});

const TEXT_FIELDS: Array<{ field: Exclude<SiteText, 'timeZone'>; label: string; autoComplete: string; wide?: boolean }> = [
  { field: 'name', label: 'Site name', autoComplete: 'off', wide: true },
  { field: 'address', label: 'Street address', autoComplete: 'street-address', wide: true },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'region', label: 'State or region', autoComplete: 'address-level1' },
  { field: 'postalCode', label: 'Postal code', autoComplete: 'postal-code' },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
];

/**
 * The organization's sites: where its visits happen, and the time zone each is in (visit times and calling
 * hours follow it). Saving replaces the list; the onboarding's trial gets these sites marked as ours.
 */
export function SitesStep({ onboarding }: { onboarding: Onboarding }) {
  const save = useSaveSites(onboarding.id);
  const [rows, setRows] = useState<Row[]>(() => (onboarding.sites.length ? onboarding.sites.map(rowOf) : [emptyRow()]));
  const zones = useMemo(() => timeZoneOptions(), []);
  const problem = save.error ? apiProblem(save.error) : null;
  const errorAt = (index: number, field: SiteText) => problem?.details.find((detail) => detail.path === `sites.${index}.${field}`)?.message;
  const placed = (detail: { path: string }) => /^sites\.\d+\.\w+$/.test(detail.path);
  const formError = problem && !problem.details.some(placed) ? problem.message : problem ? 'Some sites need changes: see the fields marked below.' : undefined;

  const change = (key: string, field: SiteText, value: string) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const optional = (value: string) => value.trim() || undefined;
    const sites: OrganizationSiteInput[] = rows.map((row) => ({
      ...(row.id ? { id: row.id } : {}),
      name: row.name.trim(),
      address: row.address.trim(),
      city: optional(row.city),
      region: optional(row.region),
      postalCode: optional(row.postalCode),
      country: optional(row.country),
      timeZone: row.timeZone,
    }));
    save.mutate(
      { sites },
      {
        onSuccess: (saved) => {
          setRows(saved.sites.map(rowOf));
          toast.success(saved.sites.length === 1 ? 'Site saved' : `${saved.sites.length} sites saved`);
        },
      },
    );
  };

  return (
    <StepCard
      step="sites"
      description="Where the organization sees people, with the time zone of each: visits are booked, and calls and texts are timed, in it."
    >
      {onboarding.sites.length > 0 && (
        <Made>
          {onboarding.sites.length === 1 ? '1 site saved' : `${onboarding.sites.length} sites saved`}
          {onboarding.trial ? `; ${onboarding.trial.ownSiteCount} of the trial's ${onboarding.trial.siteCount} sites are marked as ours.` : '.'}
        </Made>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {rows.map((row, index) => (
          <fieldset key={row.key} className="grid gap-3 rounded-md border border-slate-300 p-4 sm:grid-cols-2">
            <legend className="flex items-center gap-1.5 px-1 text-sm font-semibold text-slate-900">
              <MapPin aria-hidden="true" className="h-4 w-4" />
              <span>
                Site {index + 1}
                {row.name.trim() && <span className="font-normal text-slate-700">: {row.name.trim()}</span>}
              </span>
            </legend>
            {TEXT_FIELDS.map(({ field, label, autoComplete, wide }) => (
              <Field key={field} label={label} error={errorAt(index, field)} className={wide ? 'sm:col-span-2' : undefined}>
                <Input autoComplete={autoComplete} value={row[field]} onChange={(event) => change(row.key, field, event.target.value)} />
              </Field>
            ))}
            <Field label="Time zone" error={errorAt(index, 'timeZone')} className="sm:col-span-2" hint="Visits at this site are shown and booked in it.">
              <Combobox
                options={zones}
                value={row.timeZone}
                onChange={(value) => change(row.key, 'timeZone', value)}
                placeholder="Choose the time zone…"
                searchLabel="Search time zones by city, region or UTC offset"
                searchPlaceholder="City, region or offset, e.g. Chicago"
                listLabel="Time zones"
                noun="time zones"
              />
            </Field>
            {rows.length > 1 && (
              <div className="sm:col-span-2">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    save.reset();
                    setRows((current) => current.filter((item) => item.key !== row.key));
                  }}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                  Remove site {index + 1}
                </Button>
              </div>
            )}
          </fieldset>
        ))}
        <FormError>{formError}</FormError>
        <div className="flex flex-wrap gap-2">
          {rows.length < ORGANIZATION_SITES_MAX && (
            <Button variant="secondary" onClick={() => setRows((current) => [...current, emptyRow()])}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              Add a site
            </Button>
          )}
          <SubmitButton pending={save.isPending}>Save sites</SubmitButton>
        </div>
      </form>
    </StepCard>
  );
}
