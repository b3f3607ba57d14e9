import { OrganizationField } from '../../components/OrganizationOptions';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { AddUserSchema, MEMBER_ROLES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RULE } from '../../../contract/users';
import { MEMBER_ROLE_LABELS } from '../../../contract/words';
import { CopyField } from '../../components/CopyButton';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { Button, Field, Input, Select } from '../../components/ui';
import { useActiveOrganization, usePermissions } from '../../lib/active-organization';
import { useAuth } from '../../lib/auth';
import { textUpTo } from '../../lib/limits';
import { useAddUser, type AddUserResult } from './api';

const AddUserFormSchema = z
  .object({
    organizationId: z.string().min(1, 'Choose an organization'),
    email: z.email('Enter a valid email address'),
    role: z.enum(MEMBER_ROLES),
    mode: z.enum(['invite', 'add']),
    name: textUpTo(AddUserSchema.shape.name, 'Name'),
    password: z.string().max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  })
  .superRefine((value, ctx) => {
    if (value.mode !== 'add') return;
    if (!value.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Enter their name' });
    if (value.password.length < PASSWORD_MIN_LENGTH)
      ctx.addIssue({ code: 'custom', path: ['password'], message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` });
  });
type AddUserForm = z.infer<typeof AddUserFormSchema>;

export function AddUserDialog() {
  const { session } = useAuth();
  const { organizations, activeOrganization } = useActiveOrganization();
  const { isAdmin, canGrantOwner } = usePermissions();
  const addUser = useAddUser();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<AddUserResult | null>(null);

  const choices = isAdmin
    ? organizations.map((org) => ({ id: org.id, name: org.name }))
    : session?.organization
      ? [{ id: session.organization.id, name: session.organization.name }]
      : [];
  const defaults: AddUserForm = {
    organizationId: (isAdmin ? activeOrganization?.id : session?.organization?.id) ?? choices[0]?.id ?? '',
    email: '',
    role: 'coordinator',
    mode: 'invite',
    name: '',
    password: '',
  };
  const form = useForm<AddUserForm>({ resolver: zodResolver(AddUserFormSchema), defaultValues: defaults });
  const { errors } = form.formState;
  const mode = form.watch('mode');

  const onSubmit = form.handleSubmit(async (values) => {
    const answer = await addUser.mutateAsync({
      organizationId: values.organizationId,
      email: values.email.toLowerCase(),
      role: values.role,
      mode: values.mode,
      name: values.name || undefined,
      password: values.mode === 'add' ? values.password : undefined,
    });
    if (values.mode === 'add') {
      toast.success(`Added ${values.email}`);
      setOpen(false);
    } else {
      toast.success(`Invitation created for ${values.email}`);
      setResult(answer);
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          form.reset(defaults);
          setResult(null);
        }
      }}
      title={result ? 'Invitation created' : 'Add user'}
      description={
        result
          ? 'Send this link to the person you invited: they choose their own password.'
          : 'Invite someone by email, or add them at once with a first password.'
      }
      trigger={
        <Button>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Add user
        </Button>
      }
    >
      {result ? (
        <div className="grid gap-4">
          {result.invitationUrl ? (
            <CopyField id="invitation-url" label="Invitation link" value={result.invitationUrl} />
          ) : (
            <p className="text-sm text-slate-700">The invitation was created.</p>
          )}
          <div className="flex justify-end">
            <Button onClick={() => setOpen(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(event) => void onSubmit(event).catch(() => undefined)} noValidate className="grid gap-4">
          <OrganizationField
            organizations={choices}
            error={errors.organizationId?.message}
            registration={form.register('organizationId')}
            disabled={!isAdmin}
          />
          <Field label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="off" {...form.register('email')} />
          </Field>
          <Field label="Role" error={errors.role?.message}>
            <Select {...form.register('role')}>
              {MEMBER_ROLES.map((role) => (
                <option key={role} value={role} disabled={role === 'owner' && !canGrantOwner}>
                  {MEMBER_ROLE_LABELS[role]}
                </option>
              ))}
            </Select>
          </Field>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium text-slate-800">How</legend>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" value="invite" className="h-4 w-4 accent-blue-700" {...form.register('mode')} />
              Send an invitation link (they choose their password)
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" value="add" className="h-4 w-4 accent-blue-700" {...form.register('mode')} />
              Add now with a first password
            </label>
          </fieldset>
          <Field label={mode === 'add' ? 'Name' : 'Name (optional)'} error={errors.name?.message}>
            <Input autoComplete="off" {...form.register('name')} />
          </Field>
          {mode === 'add' && (
            <Field label="First password" error={errors.password?.message} hint={`${PASSWORD_RULE} Share it safely; they can change it in account settings.`}>
              <Input type="password" autoComplete="new-password" {...form.register('password')} />
            </Field>
          )}
          <DialogFooter onCancel={() => setOpen(false)} submitLabel={mode === 'add' ? 'Add user' : 'Send invitation'} pending={addUser.isPending} />
        </form>
      )}
    </Dialog>
  );
}
