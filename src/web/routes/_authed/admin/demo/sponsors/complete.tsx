import { createFileRoute } from '@tanstack/react-router';
import { sponsorFlowSearch } from '../../../../../../contract/search';
import { CompletePage } from '../../../../../features/demo/sponsor/CompletePage';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/complete')({
  validateSearch: sponsorFlowSearch,
  staticData: { crumb: 'Complete' },
  component: function SponsorCompleteRoute() {
    return <CompletePage flow={Route.useSearch()} />;
  },
});
