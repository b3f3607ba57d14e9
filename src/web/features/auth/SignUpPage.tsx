import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type SignUpAnswer, SignUpFormSchema, SiteSignUpFormSchema, type SignUpForm } from '../../../contract/session';
import { PASSWORD_RULE } from '../../../contract/users';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Field, Input, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { api, ApiRequestError } from '../../lib/api';
import { authClient } from '../../lib/auth';
import { refreshSession } from '../../lib/auth-client';
import { queryKeys } from '../../lib/query';
import { errorMessage, safeRedirect } from '../../lib/utils';
import { AuthLayout } from './AuthLayout';
import * as endpoints from '../../lib/api-operations.gen';

/** The server's refusal of a weak password, told at the password field (decision 121). */
function weakPasswordMessage(error: unknown): string | undefined {
  const value = error as { code?: string; error?: { code?: string; message?: string } } | null;
  if (value?.error?.code === 'WEAK_PASSWORD' || value?.code === 'WEAK_PASSWORD') return errorMessage(error);
  return undefined;
}

/**
 * After a sign-up: the address must be confirmed by its link (decision 121). Without an email server the mail never
 * leaves the server, so its link is shown here; the screen reads the same whether or not the email had an account.
 */
function CheckYourEmail({ email, simulatedMailLink }: { email: string; simulatedMailLink?: string }) {
  return (
    <AuthLayout
      title="Check your email"
      footer={
        <Link to="/sign-in" className="font-medium text-blue-700 hover:underline">
          Go to sign in
        </Link>
      }
    >
      <div className="grid gap-4 text-sm text-slate-700">
        <p>
          We sent a message to <span className="font-medium break-all text-slate-900">{email}</span>. Open the link in it to confirm your address and continue.
        </p>
        {simulatedMailLink && (
          <div className="rounded-md border border-amber-300 bg-amber-50 p-3" role="note">
            <p className="text-amber-900">This server has no email service set up, so the message was kept here instead of being sent.</p>
            <a href={simulatedMailLink} className="mt-2 inline-block font-medium text-blue-700 underline">
              Open the link from the message
            </a>
          </div>
        )}
      </div>
    </AuthLayout>
  );
}

export function SignUpPage({ redirectTo, invitation }: { redirectTo?: string; invitation?: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; simulatedMailLink?: string } | null>(null);
  const invitationQuery = useQuery({
    queryKey: queryKeys.invitation(invitation ?? ''),
    queryFn: () => api.call(endpoints.getInvitation, { params: { token: invitation! } }),
    enabled: Boolean(invitation),
    retry: (count, error) => !(error instanceof ApiRequestError && error.status === 404) && count < 1,
    // Shown on the page itself; no toast.
    meta: { silent: true },
  });
  const preview = invitationQuery.data;

  const form = useForm<SignUpForm>({
    // Every empty field is flagged on the first submit, the research site's name included.
    resolver: zodResolver(invitation ? SignUpFormSchema : SiteSignUpFormSchema),
    defaultValues: { name: '', email: '', password: '', organizationName: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (preview) form.setValue('email', preview.email);
  }, [preview, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const body = invitation
      ? { name: values.name, email: preview?.email ?? values.email, password: values.password, invitationToken: invitation }
      : { name: values.name, email: values.email, password: values.password, organizationName: values.organizationName!.trim() };
    const result = await authClient.signUp.email({ ...body, callbackURL: safeRedirect(redirectTo) });
    if (result.error) {
      const weak = weakPasswordMessage(result.error);
      if (weak) form.setError('password', { message: weak }, { shouldFocus: true });
      else setFormError(errorMessage(result.error, 'Could not create your account'));
      return;
    }
    if (!invitation) {
      const answer = result.data as unknown as SignUpAnswer;
      setSent({ email: body.email, simulatedMailLink: answer?.simulatedMailLink });
      return;
    }
    await refreshSession();
    await router.navigate({ href: safeRedirect(redirectTo), replace: true });
  });

  if (sent) return <CheckYourEmail email={sent.email} simulatedMailLink={sent.simulatedMailLink} />;
  if (invitation && invitationQuery.isPending) {
    return (
      <AuthLayout title="Join Cohortly">
        <Spinner />
      </AuthLayout>
    );
  }
  if (invitation && invitationQuery.error) {
    const missing = invitationQuery.error instanceof ApiRequestError && invitationQuery.error.status === 404;
    return (
      <AuthLayout
        title="Invitation not found"
        footer={
          <Link to="/sign-in" className="font-medium text-blue-700 hover:underline">
            Go to sign in
          </Link>
        }
      >
        {missing ? (
          <p className="text-sm text-slate-700">This invitation link is invalid, already used or expired. Ask your organization to send a new one.</p>
        ) : (
          <ErrorCard title="Could not load the invitation" error={invitationQuery.error} onRetry={() => void invitationQuery.refetch()} />
        )}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={preview ? `Join ${preview.organizationName}` : 'Create your account'}
      description={preview ? `You were invited as ${preview.role}. Choose your name and password.` : 'Set up Cohortly for your research site.'}
      footer={
        <>
          Already have an account?{' '}
          <Link to="/sign-in" search={{ redirect: redirectTo }} className="font-medium text-blue-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormError>{formError}</FormError>
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="name" {...form.register('name')} />
        </Field>
        <Field label="Email" error={errors.email?.message} hint={preview ? 'The invitation was sent to this address.' : undefined}>
          <Input type="email" autoComplete="email" readOnly={Boolean(preview)} className={preview ? 'bg-slate-100' : undefined} {...form.register('email')} />
        </Field>
        <Field label="Password" error={errors.password?.message} hint={PASSWORD_RULE}>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        {!invitation && (
          <Field label="Research site name" error={errors.organizationName?.message}>
            <Input autoComplete="organization" {...form.register('organizationName')} />
          </Field>
        )}
        <SubmitButton pending={isSubmitting} pendingLabel="Creating account…">
          Create account
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
