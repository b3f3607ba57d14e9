import { createFileRoute } from '@tanstack/react-router';
import { callsSearch } from '../../../../../contract/search';
import { ComingSoon } from '../../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/admin/calls/')({
  validateSearch: callsSearch,
  component: () => <ComingSoon title="Calls" description="Voice calls to and from candidates, filterable by prescreen and scheduling failures, will be listed here." search={Route.useSearch()} />,
});
