import { createFileRoute } from '@tanstack/react-router';
import { sequencesSearch } from '../../../../../contract/search';
import { SequencesPage } from '../../../../features/sequences/SequencesPage';

export const Route = createFileRoute('/_authed/admin/sequences/')({
  validateSearch: sequencesSearch,
  component: function SequencesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <SequencesPage search={search} onChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }) })} />;
  },
});
