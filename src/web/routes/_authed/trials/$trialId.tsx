import { createFileRoute } from '@tanstack/react-router';
import { TrialDetailPage } from '../../../features/trials/TrialDetailPage';
import { shortTrialTitle } from '../../../features/trials/title';
import { trialQueryOptions } from '../../../features/trials/keys';
import { getActiveOrganizationId } from '../../../lib/api';

export const Route = createFileRoute('/_authed/trials/$trialId')({
  // The breadcrumb is the trial's title (Trials > title); the page shows its own errors.
  loader: async ({ context, params }) => {
    try {
      const trial = await context.queryClient.ensureQueryData(trialQueryOptions(getActiveOrganizationId(), params.trialId));
      return { crumb: shortTrialTitle(trial) };
    } catch {
      return { crumb: 'Trial' };
    }
  },
  component: function TrialDetailRoute() {
    const { trialId } = Route.useParams();
    return <TrialDetailPage trialId={trialId} />;
  },
});
