import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CreateOrganizationSchema, type Organization } from '../../../contract/organizations';
import { CopyField } from '../../components/CopyButton';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, EmptyState, Field, Input, PageHeader, SubmitButton } from '../../components/ui';
import { useActiveOrganization, usePermissions } from '../../lib/active-organization';
import { formatDate } from '../../lib/utils';
import { useOrganizationQuery, useUpdateOrganization } from './api';

const NameFormSchema = z.object({ name: CreateOrganizationSchema.shape.name });
type NameForm = z.input<typeof NameFormSchema>;

function NameForm({ organization, canEdit }: { organization: Organization; canEdit: boolean }) {
  const update = useUpdateOrganization();
  const form = useForm<NameForm>({ resolver: zodResolver(NameFormSchema), values: { name: organization.name } });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await update.mutateAsync({ id: organization.id, name: values.name.trim() });
    toast.success('Organization name saved');
  });
  return (
    <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-3 sm:max-w-md">
      <Field label="Organization name" error={errors.name?.message} hint={canEdit ? undefined : 'Only owners and admins of the organization can rename it.'}>
        <Input readOnly={!canEdit} className={canEdit ? undefined : 'bg-slate-100'} {...form.register('name')} />
      </Field>
      {canEdit && (
        <div>
          <SubmitButton pending={update.isPending} disabled={!isDirty}>
            Save name
          </SubmitButton>
        </div>
      )}
    </form>
  );
}

export function OrganizationPage() {
  const { activeOrganizationId } = useActiveOrganization();
  const { canManage } = usePermissions();
  const query = useOrganizationQuery(activeOrganizationId, activeOrganizationId);

  let body;
  if (!activeOrganizationId) body = <EmptyState title="No organization">Your account does not belong to an organization.</EmptyState>;
  else if (query.isPending) body = <Spinner />;
  else if (query.error) body = <ErrorCard title="Could not load the organization" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const organization = query.data;
    const chatUrl = `${window.location.origin}/chat/${organization.publicId}`;
    body = (
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            <NameForm organization={organization} canEdit={canManage} />
            <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-slate-700">Slug</dt>
              {/* Identifiers as typed, in <code>: a random public id may look like a code word, and is one. */}
              <dd className="text-slate-900">
                <code className="font-mono">{organization.slug}</code>
              </dd>
              <dt className="text-slate-700">Public id</dt>
              <dd className="text-slate-900">
                <code className="font-mono">{organization.publicId}</code>
              </dd>
              <dt className="text-slate-700">Members</dt>
              <dd className="text-slate-900">{organization.memberCount ?? '—'}</dd>
              <dt className="text-slate-700">Created</dt>
              <dd className="text-slate-900">{formatDate(organization.createdAt)}</dd>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Public chat link</CardTitle>
            <CardDescription>Share this link with prospective participants: it needs no sign-in.</CardDescription>
          </CardHeader>
          <CardContent>
            <CopyField id="public-chat-link" label="Chat link" value={chatUrl} />
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <div>
      <PageHeader title="Organization" description="The organization you are working in." />
      {body}
    </div>
  );
}
