import { createFileRoute } from '@tanstack/react-router';
import { dashboardSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/dashboard')({
  validateSearch: dashboardSearch,
  staticData: { crumb: "Dashboard" },
  component: () => <ComingSoon title="Admin dashboard" description="Funnel, prescreen, satisfaction, trial lifecycle, matcher, cost and customer analytics across organizations will be charted here." />,
});
