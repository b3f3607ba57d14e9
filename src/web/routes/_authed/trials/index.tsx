import { createFileRoute } from '@tanstack/react-router';
import { orgsSearch } from '../../../../contract/search';
import { TrialsPage } from '../../../features/trials/TrialsPage';

export const Route = createFileRoute('/_authed/trials/')({
  validateSearch: orgsSearch,
  component: function TrialsRoute() {
    const { orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <TrialsPage orgs={orgs} onOrgsChange={(next) => void navigate({ search: { orgs: next }, replace: true })} />;
  },
});
