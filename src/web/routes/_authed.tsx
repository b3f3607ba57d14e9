import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppShell } from '../components/AppShell';
import { IdleGuard } from '../components/IdleGuard';

/** Every signed-in screen: signed-out users go to sign-in and come back afterwards. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: ({ context, location }) => {
    if (!context.auth.getSession()) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: () => (
    <>
      <AppShell />
      <IdleGuard />
    </>
  ),
});
