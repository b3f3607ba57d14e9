import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/admin/calls')({
  staticData: { crumb: 'Calls' },
});
