import { createFileRoute } from '@tanstack/react-router';
import { sponsorFlowSearch } from '../../../../../../contract/search';
import { IntroPage } from '../../../../../features/demo/sponsor/IntroPage';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/intro')({
  validateSearch: sponsorFlowSearch,
  staticData: { crumb: 'Intro' },
  component: function SponsorIntroRoute() {
    return <IntroPage flow={Route.useSearch()} />;
  },
});
