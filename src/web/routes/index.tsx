import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/')({
  beforeLoad: ({ context }) => {
    if (context.auth.getSession()) throw redirect({ to: '/trials' });
    throw redirect({ to: '/sign-in', search: { redirect: '/' } });
  },
});
