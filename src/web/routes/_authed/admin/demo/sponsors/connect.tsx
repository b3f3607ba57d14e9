import { createFileRoute } from '@tanstack/react-router';
import { sponsorFlowSearch } from '../../../../../../contract/search';
import { ConnectPage } from '../../../../../features/demo/sponsor/ConnectPage';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/connect')({
  validateSearch: sponsorFlowSearch,
  staticData: { crumb: 'Connect' },
  component: function SponsorConnectRoute() {
    return <ConnectPage flow={Route.useSearch()} />;
  },
});
