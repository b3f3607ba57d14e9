import { createFileRoute } from '@tanstack/react-router';
import { orgsSearch } from '../../../../contract/search';
import { TrialsPage } from '../../../features/trials/TrialsPage';

/** Internal admins: every organization's trials (the /trials table with its organization column). */
export const Route = createFileRoute('/_authed/admin/trials')({
  validateSearch: orgsSearch,
  staticData: { crumb: 'Trials' },
  component: function AdminTrialsRoute() {
    const { orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <TrialsPage variant="admin" orgs={orgs} onOrgsChange={(next) => void navigate({ search: { orgs: next }, replace: true })} />;
  },
});
