import { createFileRoute } from '@tanstack/react-router';
import { nonEmptyText, searchSchema } from '../../../../contract/search-params';
import { TrialCriteriaPage } from '../../../features/trials/TrialCriteriaPage';

const trialCriteriaSearch = searchSchema({ trialId: nonEmptyText });

/**
 * Criteria of one trial (`trialId`), or a trial picker. Organization staff may open it too: a site fixes its
 * own trials' criteria (the server lets any member of the organization update its trials).
 */
export const Route = createFileRoute('/_authed/admin/trial-criteria')({
  validateSearch: trialCriteriaSearch,
  staticData: { crumb: 'Trial criteria', orgStaffAllowed: true },
  component: function TrialCriteriaRoute() {
    const { trialId } = Route.useSearch();
    return <TrialCriteriaPage trialId={trialId} />;
  },
});
