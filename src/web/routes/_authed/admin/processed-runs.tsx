import { createFileRoute } from '@tanstack/react-router';
import { processedRunsSearch } from '../../../../contract/search';
import { ProcessedRunsPage } from '../../../features/processing-runs/ProcessedRunsPage';

/**
 * Processing runs and one run's outcomes (`id`). Organization staff may open it too: a site follows its own
 * imports (the server scopes runs to the organizations the user may reach).
 */
export const Route = createFileRoute('/_authed/admin/processed-runs')({
  validateSearch: processedRunsSearch,
  staticData: { crumb: 'Processed runs', orgStaffAllowed: true },
  component: function ProcessedRunsRoute() {
    const { search, orgs, id } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ProcessedRunsPage
        search={search}
        orgs={orgs}
        id={id}
        onSearchChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true })}
      />
    );
  },
});
