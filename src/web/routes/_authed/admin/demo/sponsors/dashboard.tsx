import { createFileRoute } from '@tanstack/react-router';
import { sponsorDashboardSearch } from '../../../../../../contract/search';
import { SponsorDemoStep } from '../../../../../features/demo/SponsorDemoStep';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/dashboard')({
  validateSearch: sponsorDashboardSearch,
  staticData: { crumb: 'Dashboard' },
  component: () => <SponsorDemoStep step="/admin/demo/sponsors/dashboard" title="Sponsor dashboard" description="The sponsor's view of recruitment (overview, site performance, forecasting and demographics) will be charted here." />,
});
