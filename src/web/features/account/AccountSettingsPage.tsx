import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Monitor } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { ChangePasswordFormSchema, SignUpFormSchema } from '../../../contract/session';
import { PASSWORD_RULE } from '../../../contract/users';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, PageHeader, SubmitButton } from '../../components/ui';
import { authClient, useAuth } from '../../lib/auth';
import { refreshSession } from '../../lib/auth-client';
import { queryKeys } from '../../lib/query';
import { errorMessage, formatDateTime } from '../../lib/utils';

/** better-auth answers `{ data, error }`; turn an error into a thrown Error with the server's message. */
async function unwrap<T>(call: Promise<{ data: T; error: unknown }>): Promise<T> {
  const result = await call;
  if (result.error) throw new Error(errorMessage(result.error));
  return result.data;
}

interface SessionRow {
  id: string;
  token: string;
  createdAt: string | Date;
  expiresAt: string | Date;
  ipAddress?: string | null;
  userAgent?: string | null;
}

const NameSchema = z.object({ name: SignUpFormSchema.shape.name });
const EmailSchema = z.object({ newEmail: z.email('Enter a valid email address') });
type PasswordForm = z.input<typeof ChangePasswordFormSchema>;

function describeAgent(agent: string | null | undefined) {
  if (!agent) return 'Unknown device';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Chrome\//.test(agent)
      ? 'Chrome'
      : /Firefox\//.test(agent)
        ? 'Firefox'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'Browser';
  const os = /Windows/.test(agent)
    ? 'Windows'
    : /Mac OS X/.test(agent)
      ? 'macOS'
      : /Android/.test(agent)
        ? 'Android'
        : /iPhone|iPad/.test(agent)
          ? 'iOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function ProfileCard() {
  const { session } = useAuth();
  const form = useForm<z.input<typeof NameSchema>>({ resolver: zodResolver(NameSchema), values: { name: session?.user.name ?? '' } });
  const save = useMutation({
    mutationFn: (name: string) => unwrap(authClient.updateUser({ name })),
    onSuccess: async () => {
      await refreshSession();
      toast.success('Name saved');
    },
  });
  const onSubmit = form.handleSubmit((values) => save.mutate(values.name.trim()));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How colleagues see you in Cohortly.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:max-w-md">
          <Field label="Name" error={form.formState.errors.name?.message}>
            <Input autoComplete="name" {...form.register('name')} />
          </Field>
          <div>
            <SubmitButton pending={save.isPending}>Save name</SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function EmailCard() {
  const { session } = useAuth();
  const form = useForm<z.input<typeof EmailSchema>>({ resolver: zodResolver(EmailSchema), defaultValues: { newEmail: '' } });
  const change = useMutation({
    mutationFn: (newEmail: string) => unwrap(authClient.changeEmail({ newEmail })),
    onSuccess: async () => {
      await refreshSession();
      form.reset({ newEmail: '' });
      toast.success('Email changed');
    },
  });
  const onSubmit = form.handleSubmit((values) => change.mutate(values.newEmail));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email</CardTitle>
        <CardDescription>
          You sign in with <span className="font-medium text-slate-900">{session?.user.email}</span>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:max-w-md">
          <Field label="New email" error={form.formState.errors.newEmail?.message}>
            <Input type="email" autoComplete="email" {...form.register('newEmail')} />
          </Field>
          <div>
            <SubmitButton pending={change.isPending}>Change email</SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function PasswordCard() {
  const queryClient = useQueryClient();
  const { session } = useAuth();
  const [revokeOthers, setRevokeOthers] = useState(true);
  const form = useForm<PasswordForm>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const change = useMutation({
    mutationFn: (values: PasswordForm) =>
      unwrap(authClient.changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword, revokeOtherSessions: revokeOthers })),
    onSuccess: () => {
      form.reset();
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions(session?.user.id) });
      toast.success(revokeOthers ? 'Password changed; other sessions were signed out' : 'Password changed');
    },
  });
  const onSubmit = form.handleSubmit((values) => change.mutate(values));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:max-w-md">
          <Field label="Current password" error={errors.currentPassword?.message}>
            <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
          </Field>
          <Field label="New password" error={errors.newPassword?.message} hint={PASSWORD_RULE}>
            <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
          </Field>
          <Field label="Confirm new password" error={errors.confirmPassword?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
          </Field>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" className="h-4 w-4 accent-blue-700" checked={revokeOthers} onChange={(event) => setRevokeOthers(event.target.checked)} />
            Sign out my other sessions
          </label>
          <div>
            <SubmitButton pending={change.isPending}>Change password</SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function SessionsCard() {
  const { session, signOut } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const key = queryKeys.sessions(session?.user.id);
  const sessions = useQuery({
    queryKey: key,
    queryFn: () => unwrap(authClient.listSessions()) as Promise<SessionRow[]>,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const revokeOne = useMutation({
    mutationFn: (token: string) => unwrap(authClient.revokeSession({ token })),
    onSuccess: () => {
      toast.success('Session signed out');
      void refresh();
    },
  });
  const revokeOthers = useMutation({
    mutationFn: () => unwrap(authClient.revokeOtherSessions()),
    onSuccess: () => {
      toast.success('Other sessions signed out');
      void refresh();
    },
  });
  const revokeAll = useMutation({
    mutationFn: () => unwrap(authClient.revokeSessions()),
    onSuccess: async () => {
      toast.success('Signed out everywhere');
      await signOut().catch(() => undefined);
      await navigate({ to: '/sign-in', replace: true });
    },
  });
  const currentId = session?.session.id;

  let body;
  if (sessions.isPending) body = <Spinner />;
  else if (sessions.error) body = <ErrorCard title="Could not load your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />;
  else if (sessions.data.length === 0) body = <p className="text-sm text-slate-700">No active sessions.</p>;
  else
    body = (
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {sessions.data.map((row) => {
          const current = row.id === currentId;
          return (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="flex min-w-0 items-start gap-3">
                <Monitor aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-slate-700" />
                <div className="min-w-0 [overflow-wrap:anywhere]">
                  <p className="text-sm font-medium text-slate-900">
                    {describeAgent(row.userAgent)} {current && <Badge tone="blue">This session</Badge>}
                  </p>
                  <p className="text-xs text-slate-700">
                    {row.ipAddress ? `${row.ipAddress} · ` : ''}signed in {formatDateTime(row.createdAt)} · expires {formatDateTime(row.expiresAt)}
                  </p>
                </div>
              </div>
              {!current && (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={revokeOne.isPending}
                  onClick={() => revokeOne.mutate(row.token)}
                  aria-label={`Revoke session ${describeAgent(row.userAgent)} signed in ${formatDateTime(row.createdAt)}`}
                >
                  Revoke
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>Where you are signed in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {body}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
            Sign out other sessions
          </Button>
          <Button variant="secondary" disabled={revokeAll.isPending} onClick={() => revokeAll.mutate()}>
            Sign out everywhere
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function DeleteAccountCard() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useMutation({
    mutationFn: () => unwrap(authClient.deleteUser({ password })),
    onSuccess: async () => {
      setOpen(false);
      toast.success('Your account was deleted');
      await signOut().catch(() => undefined);
      await navigate({ to: '/sign-in', replace: true });
    },
  });
  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>Deletes your account and signs you out everywhere. It cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            setPassword('');
          }}
          trigger={<Button variant="danger">Delete account</Button>}
          title="Delete your account?"
          description="Enter your password to confirm. Your account and sessions are deleted for good."
          confirmLabel="Delete my account"
          confirmDisabled={password.length === 0}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        >
          <Field label="Password">
            <Input type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </Field>
        </ConfirmDialog>
      </CardContent>
    </Card>
  );
}

export function AccountSettingsPage() {
  return (
    <div className="grid max-w-3xl gap-6 [&>*]:min-w-0">
      <PageHeader title="Account settings" description="Your profile, sign-in details and sessions." />
      <ProfileCard />
      <EmailCard />
      <PasswordCard />
      <SessionsCard />
      <DeleteAccountCard />
    </div>
  );
}
