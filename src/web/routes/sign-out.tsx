import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { FullPageSpinner } from '../components/Spinner';
import { useAuth } from '../lib/auth';

export const Route = createFileRoute('/sign-out')({
  // Not signed in: to sign-in, coming back home afterwards (not to /sign-out, which would sign out again).
  beforeLoad: ({ context }) => {
    if (!context.auth.getSession()) throw redirect({ to: '/sign-in', search: { redirect: '/' } });
  },
  component: SignOutRoute,
});

function SignOutRoute() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut().finally(() => navigate({ to: '/sign-in', replace: true }));
  }, [signOut, navigate]);
  return (
    <main>
      <h1 className="sr-only">Signing out</h1>
      <FullPageSpinner />
    </main>
  );
}
