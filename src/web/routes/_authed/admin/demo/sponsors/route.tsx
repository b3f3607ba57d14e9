import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/admin/demo/sponsors')({
  staticData: { crumb: 'Sponsors', presentation: { label: 'Sponsor demo', exitTo: '/admin/demo' } },
});
