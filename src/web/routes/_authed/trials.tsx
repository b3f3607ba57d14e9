import { createFileRoute } from '@tanstack/react-router';
import { orgsSearch } from '../../../contract/search';
import { ComingSoon } from '../../components/ComingSoon';

export const Route = createFileRoute('/_authed/trials')({
  validateSearch: orgsSearch,
  staticData: { crumb: "Trials" },
  component: () => <ComingSoon title="Trials" description="The trials of your organization, with their recruitment funnel from referral to enrolment, will be listed here." search={Route.useSearch()} />,
});
