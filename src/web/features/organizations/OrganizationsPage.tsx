import { ActionsTh } from '../../components/ListState';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CreateOrganizationSchema, INTERNAL_ORGANIZATION_SLUG, type Organization } from '../../../contract/organizations';
import { ConfirmDialog, Dialog, DialogFooter } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, EmptyState, Field, Input, PageHeader, Table, Td, Th } from '../../components/ui';
import { formatDate } from '../../lib/utils';
import { useCreateOrganization, useDeleteOrganization, useOrganizationsQuery, useUpdateOrganization } from './api';

const nameSchema = CreateOrganizationSchema.shape.name;
const slugSchema = CreateOrganizationSchema.shape.slug.unwrap();
const CreateFormSchema = z.object({ name: nameSchema, slug: z.union([z.literal(''), slugSchema]) });
type CreateForm = z.input<typeof CreateFormSchema>;
const RenameFormSchema = z.object({ name: nameSchema });
type RenameForm = z.input<typeof RenameFormSchema>;

const isInternal = (org: Organization) => org.slug.toLowerCase() === INTERNAL_ORGANIZATION_SLUG;

function CreateOrganizationDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreateOrganization();
  const form = useForm<CreateForm>({ resolver: zodResolver(CreateFormSchema), defaultValues: { name: '', slug: '' } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    const created = await create.mutateAsync({ name: values.name.trim(), slug: values.slug ? values.slug.trim().toLowerCase() : undefined });
    toast.success(`Created ${created.name}`);
    form.reset();
    setOpen(false);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
      title="Create organization"
      description="A new research site. Add its staff from Users afterwards."
      trigger={
        <Button>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Create organization
        </Button>
      }
    >
      <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-4">
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="organization" {...form.register('name')} />
        </Field>
        <Field label="Slug (optional)" error={errors.slug?.message} hint="Lowercase letters, digits and dashes. Derived from the name when left empty.">
          <Input {...form.register('slug')} />
        </Field>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel="Create" pending={create.isPending} pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

function RenameOrganizationDialog({ organization }: { organization: Organization }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateOrganization();
  const form = useForm<RenameForm>({ resolver: zodResolver(RenameFormSchema), defaultValues: { name: organization.name } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await update.mutateAsync({ id: organization.id, name: values.name.trim() });
    toast.success(`Renamed to ${values.name.trim()}`);
    setOpen(false);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset({ name: organization.name });
      }}
      title={`Rename ${organization.name}`}
      trigger={
        <Button variant="secondary" size="sm" aria-describedby={`org-name-${organization.id}`}>
          <Pencil aria-hidden="true" className="h-4 w-4" />
          Rename
        </Button>
      }
    >
      <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-4">
        <Field label="Name" error={errors.name?.message}>
          <Input {...form.register('name')} />
        </Field>
        <DialogFooter onCancel={() => setOpen(false)} submitLabel="Save" pending={update.isPending} />
      </form>
    </Dialog>
  );
}

function DeleteOrganizationDialog({ organization }: { organization: Organization }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteOrganization();
  if (isInternal(organization)) {
    return (
      <Button variant="secondary" size="sm" disabled title="The Cohortly organization cannot be deleted" aria-describedby="internal-org-note">
        <Trash2 aria-hidden="true" className="h-4 w-4" />
        Delete
      </Button>
    );
  }
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setTyped('');
      }}
      trigger={
        <Button variant="secondary" size="sm" aria-describedby={`org-name-${organization.id}`}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      }
      title={`Delete ${organization.name}?`}
      description="This deletes the organization, its data and its staff accounts. It cannot be undone."
      confirmLabel="Delete organization"
      confirmDisabled={typed.trim() !== organization.name}
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(organization.id, {
          onSuccess: () => {
            toast.success(`Deleted ${organization.name}`);
            setOpen(false);
          },
        })
      }
    >
      <Field label={`Type "${organization.name}" to confirm`}>
        <Input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
      </Field>
    </ConfirmDialog>
  );
}

export function OrganizationsPage() {
  const organizations = useOrganizationsQuery();
  return (
    <div>
      <PageHeader title="Organizations" description="Every research site using Cohortly." actions={<CreateOrganizationDialog />} />
      {organizations.isPending ? (
        <Spinner />
      ) : organizations.error ? (
        <ErrorCard title="Could not load organizations" error={organizations.error} onRetry={() => void organizations.refetch()} />
      ) : organizations.data.length === 0 ? (
        <EmptyState title="No organizations yet">Create the first one with "Create organization".</EmptyState>
      ) : (
        <Table caption="Organizations">
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Slug</Th>
              <Th>Public id</Th>
              <Th className="text-right">Members</Th>
              <Th>Created</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody>
            {organizations.data.map((org) => (
              <tr key={org.id}>
                <Td className="font-medium text-slate-900" id={`org-name-${org.id}`}>
                  {org.name}
                </Td>
                <Td className="font-mono">
                  <code>{org.slug}</code>
                </Td>
                <Td className="font-mono">
                  <code>{org.publicId}</code>
                </Td>
                <Td className="text-right">{org.memberCount ?? '—'}</Td>
                <Td>{formatDate(org.createdAt)}</Td>
                <Td>
                  <div className="flex justify-end gap-2">
                    <RenameOrganizationDialog organization={org} />
                    <DeleteOrganizationDialog organization={org} />
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {organizations.data?.some(isInternal) && (
        <p id="internal-org-note" className="mt-3 text-sm text-slate-700">
          The Cohortly organization holds Cohortly's own staff and cannot be deleted.
        </p>
      )}
    </div>
  );
}
