import { createFileRoute } from '@tanstack/react-router';
import { trialMatchSearch } from '../../../../contract/search';
import { TrialMatcherPage } from '../../../features/matching/TrialMatcherPage';

export const Route = createFileRoute('/_authed/trial-matcher/$id')({
  staticData: { crumb: 'Trial matching' },
  validateSearch: trialMatchSearch,
  component: function TrialMatchingRoute() {
    const { id } = Route.useParams();
    return <TrialMatcherPage trialId={id} search={Route.useSearch()} />;
  },
});
