import { createFileRoute } from '@tanstack/react-router';
import { sponsorDashboardSearch } from '../../../contract/search';
import { ComingSoon } from '../../components/ComingSoon';

export const Route = createFileRoute('/_authed/dashboard')({
  validateSearch: sponsorDashboardSearch,
  staticData: { crumb: "Sponsor dashboard", adminOnly: true },
  component: () => <ComingSoon title="Sponsor dashboard" description="The sponsor's view of recruitment (overview, site performance, forecasting and demographics) will be charted here." search={Route.useSearch()} />,
});
