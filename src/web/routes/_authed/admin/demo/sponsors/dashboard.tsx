import { createFileRoute } from '@tanstack/react-router';
import { sponsorDashboardSearch } from '../../../../../../contract/search';
import { DashboardPage } from '../../../../../features/demo/sponsor/DashboardPage';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/dashboard')({
  validateSearch: sponsorDashboardSearch,
  staticData: { crumb: 'Dashboard' },
  component: function SponsorDashboardRoute() {
    const navigate = Route.useNavigate();
    return (
      <DashboardPage
        search={Route.useSearch()}
        onChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: patch.tab === undefined })}
      />
    );
  },
});
