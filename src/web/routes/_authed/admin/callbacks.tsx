import { createFileRoute } from '@tanstack/react-router';
import { callsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/callbacks')({
  validateSearch: callsSearch,
  staticData: { crumb: "Callbacks" },
  component: () => <ComingSoon title="Callbacks" description="Scheduled callbacks to candidates, filterable by outcome, will be listed and managed here." search={Route.useSearch()} />,
});
