import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { SignInFormSchema } from '../../../contract/session';
import { Button, Field, Input } from '../../components/ui';
import { authClient } from '../../lib/auth';
import { refreshSession } from '../../lib/auth-client';
import { errorMessage, safeRedirect } from '../../lib/utils';
import { AuthLayout, FormError } from './AuthLayout';

/**
 * The contract's SignInFormSchema with a looser email rule: zod's z.email() refuses addresses whose top-level
 * domain has a digit (admin@cohortly.e2e), yet such accounts exist. Sign-in only needs something to send;
 * the server answers "Invalid email or password" for the rest.
 */
const SignInSchema = SignInFormSchema.extend({ email: z.string().trim().min(1, 'Enter your email address') });
type SignInForm = z.infer<typeof SignInSchema>;

export function SignInPage({ redirectTo }: { redirectTo?: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SignInForm>({ resolver: zodResolver(SignInSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await authClient.signIn.email({ email: values.email.trim(), password: values.password });
    if (result.error) {
      setFormError(errorMessage(result.error, 'Could not sign you in'));
      return;
    }
    await refreshSession();
    await router.navigate({ href: safeRedirect(redirectTo), replace: true });
  });

  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back to Cohortly."
      footer={
        <>
          New research site?{' '}
          <Link to="/sign-up" search={{ redirect: redirectTo }} className="font-medium text-blue-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormError message={formError} />
        <Field label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </Field>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthLayout>
  );
}
