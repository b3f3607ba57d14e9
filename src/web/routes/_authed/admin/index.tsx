import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/admin/')({
  beforeLoad: () => {
    // The spec's /admin -> /admin/dashboard (decision 134): the dashboard is open to organization staff too (their
    // own organization's numbers), so no one who follows an "Admin" breadcrumb lands on a page they may not see.
    throw redirect({ to: '/admin/dashboard', replace: true });
  },
});
