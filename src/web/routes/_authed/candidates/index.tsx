import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { CandidatesHeading } from '../../../features/candidates/CandidatesHeading';
import { applyFilters, candidatesListSearch, filtersOf } from '../../../features/candidates/search';

// The list's code (table, filters, dialogs) follows the heading, which is drawn as soon as this route's small chunk
// has run: the page's largest text no longer waits for it on a slow phone (decision 190).
const CandidatesPage = lazy(() => import('../../../features/candidates/CandidatesPage').then((module) => ({ default: module.CandidatesPage })));

export const Route = createFileRoute('/_authed/candidates/')({
  validateSearch: candidatesListSearch,
  component: function CandidatesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <Suspense fallback={<CandidatesHeading />}>
        <CandidatesPage
          filters={filtersOf(search)}
          onFiltersChange={(patch) => void navigate({ search: (previous) => applyFilters(previous, patch), replace: true })}
        />
      </Suspense>
    );
  },
});
