import { createFileRoute } from '@tanstack/react-router';
import { candidatesSearch } from '../../../../contract/search';
import { ComingSoon } from '../../../components/ComingSoon';

export const Route = createFileRoute('/_authed/candidates/')({
  validateSearch: candidatesSearch,
  component: () => <ComingSoon title="Candidates" description="Prospective participants, their status in the funnel and their contact details will be listed and searchable here." search={Route.useSearch()} />,
});
