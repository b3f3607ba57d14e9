import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/admin')({
  staticData: { crumb: 'Admin', adminOnly: true },
});
