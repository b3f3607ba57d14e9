import type { UseFormRegisterReturn } from 'react-hook-form';
import { Options } from './filters';
import { Field, Select } from './ui';

type Organizations = ReadonlyArray<{ id: string; name: string }>;

/** A select's options for choosing an organization (where a new record goes, whose rows to act on): one per organization, by name. */
export function OrganizationOptions({ organizations }: { organizations: Organizations }) {
  return <Options options={organizations.map((org) => ({ value: org.id, label: org.name }))} />;
}

/** A form's "Organization" select (registered as its organizationId): where a global admin puts a new record. */
export function OrganizationField({
  organizations,
  error,
  registration,
  disabled,
}: {
  organizations: Organizations;
  error?: string;
  registration: UseFormRegisterReturn;
  disabled?: boolean;
}) {
  return (
    <Field label="Organization" error={error}>
      <Select disabled={disabled} {...registration}>
        <OrganizationOptions organizations={organizations} />
      </Select>
    </Field>
  );
}
