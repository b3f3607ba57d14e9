import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/trial-matcher/$id')({
  staticData: { crumb: 'Trial matching' },
  component: function TrialMatchingRoute() {
    return (
      <ComingSoon
        title="Trial matching"
        description="Candidates matched against this trial's criteria, with a gap analysis of what each one is missing, will be shown here."
      />
    );
  },
});
