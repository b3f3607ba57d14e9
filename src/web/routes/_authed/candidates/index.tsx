import { createFileRoute } from '@tanstack/react-router';
import { CandidatesPage } from '../../../features/candidates/CandidatesPage';
import { applyFilters, candidatesListSearch, filtersOf } from '../../../features/candidates/search';

export const Route = createFileRoute('/_authed/candidates/')({
  validateSearch: candidatesListSearch,
  component: function CandidatesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CandidatesPage
        filters={filtersOf(search)}
        onFiltersChange={(patch) => void navigate({ search: (previous) => applyFilters(previous, patch), replace: true })}
      />
    );
  },
});
