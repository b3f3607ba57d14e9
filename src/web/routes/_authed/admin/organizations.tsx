import { createFileRoute } from '@tanstack/react-router';
import { OrganizationsPage } from '../../../features/organizations/OrganizationsPage';

export const Route = createFileRoute('/_authed/admin/organizations')({
  staticData: { crumb: 'Organizations' },
  component: OrganizationsPage,
});
