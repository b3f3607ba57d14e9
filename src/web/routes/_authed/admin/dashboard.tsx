import { createFileRoute } from '@tanstack/react-router';
import { dashboardSearch } from '../../../../contract/search';
import { DashboardPage } from '../../../features/dashboard/DashboardPage';

/**
 * The admin dashboard (decision 032). Organization staff may open it too: they see their own organization's
 * numbers (the server scopes every tab); the customer overview is for Cohortly's global admins.
 */
export const Route = createFileRoute('/_authed/admin/dashboard')({
  validateSearch: dashboardSearch,
  staticData: { crumb: 'Dashboard', orgStaffAllowed: true },
  component: function DashboardRoute() {
    return <DashboardPage search={Route.useSearch()} />;
  },
});
