import { createFileRoute } from '@tanstack/react-router';
import { sponsorFlowSearch } from '../../../../../../contract/search';
import { SiteSelectionPage } from '../../../../../features/demo/sponsor/SiteSelectionPage';

export const Route = createFileRoute('/_authed/admin/demo/sponsors/site-selection')({
  validateSearch: sponsorFlowSearch,
  staticData: { crumb: 'Site selection' },
  component: function SponsorSiteSelectionRoute() {
    const navigate = Route.useNavigate();
    return (
      <SiteSelectionPage
        flow={Route.useSearch()}
        onChange={(flow) => void navigate({ search: { trial: flow.trial, sites: flow.sites?.length ? flow.sites : undefined }, replace: true })}
      />
    );
  },
});
