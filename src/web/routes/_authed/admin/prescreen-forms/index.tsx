import { createFileRoute } from '@tanstack/react-router';
import { orgsSearch } from '../../../../../contract/search';
import { PrescreenFormsPage } from '../../../../features/prescreen-forms/PrescreenFormsPage';

export const Route = createFileRoute('/_authed/admin/prescreen-forms/')({
  validateSearch: orgsSearch,
  component: function PrescreenFormsRoute() {
    const { orgs } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <PrescreenFormsPage orgs={orgs} onOrgsChange={(next) => void navigate({ search: { orgs: next }, replace: true })} />;
  },
});
