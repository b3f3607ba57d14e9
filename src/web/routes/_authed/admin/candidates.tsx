import { createFileRoute } from '@tanstack/react-router';
import { CandidatesPage } from '../../../features/candidates/CandidatesPage';
import { applyFilters, candidatesListSearch, filtersOf } from '../../../features/candidates/search';

/** Candidates across organizations for internal admins (admin only, as the whole /admin area). */
export const Route = createFileRoute('/_authed/admin/candidates')({
  validateSearch: candidatesListSearch,
  staticData: { crumb: 'Candidates' },
  component: function AdminCandidatesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CandidatesPage
        variant="admin"
        filters={filtersOf(search)}
        onFiltersChange={(patch) => void navigate({ search: (previous) => applyFilters(previous, patch), replace: true })}
      />
    );
  },
});
