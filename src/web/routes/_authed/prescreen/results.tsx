import { createFileRoute } from '@tanstack/react-router';
import { prescreenResultsSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/prescreen/results')({
  validateSearch: prescreenResultsSearch,
  staticData: { crumb: "Results" },
  component: () => <ComingSoon title="Prescreen results" description="AI prescreen results from calls and chats, with each candidate's recommendation and a review of their answers, will be shown here." search={Route.useSearch()} />,
});
