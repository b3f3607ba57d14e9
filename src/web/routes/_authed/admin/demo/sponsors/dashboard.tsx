import { createFileRoute } from '@tanstack/react-router';
import { sponsorDashboardSearch } from '../../../../../../contract/search';
import { DashboardPage } from '../../../../../features/demo/sponsor/DashboardPage';
import { prefetchSponsorDashboard } from '../../../../../features/demo/sponsor/queries';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/dashboard')({
  validateSearch: sponsorDashboardSearch,
  staticData: { crumb: 'Dashboard' },
  // The answer is asked for as the route loads, not after the shell and the page have drawn (decision 186).
  loaderDeps: ({ search }) => ({ trial: search.trial, sites: search.sites, deadline: search.deadline }),
  loader: ({ context, deps }) => prefetchSponsorDashboard(context.queryClient, context.auth.getSession(), deps),
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
