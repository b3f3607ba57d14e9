import { Link, useRouter } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { Field, Input, SubmitButton } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { authClient } from '../../lib/auth';
import { refreshSession } from '../../lib/auth-client';
import { errorMessage, safeRedirect } from '../../lib/utils';
import { AuthLayout } from './AuthLayout';

/**
 * Sign-in checks only that both fields are filled (the server answers "Invalid email or password" for the
 * rest). No react-hook-form or zod here: this is the first page most people load, and it must stay within
 * its JavaScript budget (scripts/check-bundle-budget.ts). A looser email rule than z.email() on purpose:
 * accounts whose top-level domain has a digit (admin@cohortly.e2e) exist.
 */
export function validateSignIn(values: { email: string; password: string }): { email?: string; password?: string } {
  const errors: { email?: string; password?: string } = {};
  if (!values.email.trim()) errors.email = 'Enter your email address';
  if (!values.password) errors.password = 'Enter your password';
  return errors;
}

export function SignInPage({ redirectTo }: { redirectTo?: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = { email: emailRef.current?.value ?? '', password: passwordRef.current?.value ?? '' };
    const found = validateSignIn(values);
    setErrors(found);
    if (found.email || found.password) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setFormError(null);
    setSubmitting(true);
    try {
      const result = await authClient.signIn.email({ email: values.email.trim(), password: values.password });
      if (result.error) {
        setFormError(errorMessage(result.error, 'Could not sign you in'));
        return;
      }
      await refreshSession();
      await router.navigate({ href: safeRedirect(redirectTo), replace: true });
    } finally {
      setSubmitting(false);
    }
  };

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
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        <FormError>{formError}</FormError>
        <Field label="Email" error={errors.email}>
          <Input ref={emailRef} name="email" type="email" autoComplete="email" defaultValue="" />
        </Field>
        <Field label="Password" error={errors.password}>
          <Input ref={passwordRef} name="password" type="password" autoComplete="current-password" defaultValue="" />
        </Field>
        <SubmitButton pending={isSubmitting} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
