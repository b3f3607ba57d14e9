import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/admin/')({
  beforeLoad: () => {
    // Not the spec's /admin/dashboard: it is a placeholder, and admins come here to work (decision 017).
    throw redirect({ to: '/admin/organizations', replace: true });
  },
});
