import { createFileRoute } from '@tanstack/react-router';
import { OrganizationPage } from '../../../features/organizations/OrganizationPage';

export const Route = createFileRoute('/_authed/admin/organization')({
  staticData: { crumb: 'Organization', orgStaffAllowed: true },
  component: OrganizationPage,
});
