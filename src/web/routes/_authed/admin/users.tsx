import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../../features/users/UsersPage';

export const Route = createFileRoute('/_authed/admin/users')({
  staticData: { crumb: 'Users', orgStaffAllowed: true },
  component: UsersPage,
});
