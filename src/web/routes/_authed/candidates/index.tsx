import { createFileRoute } from '@tanstack/react-router';
import { ErrorCard } from '../../../components/ErrorCard';
import { CandidatesHeading } from '../../../features/candidates/CandidatesHeading';
import { applyFilters, candidatesListSearch, filtersOf } from '../../../features/candidates/search';
import { moduleLoader, useLoadedModule } from '../../../lib/loaded-module';

// The list's code (table, filters, dialogs) follows the heading, which is drawn as soon as this route's small chunk
// has run: the page's largest text no longer waits for it on a slow phone (decision 190). Drawn from the loaded
// module, so the list shows the moment its code is here (no Suspense hold).
const candidatesPage = moduleLoader(() => import('../../../features/candidates/CandidatesPage').then((module) => module.CandidatesPage));

export const Route = createFileRoute('/_authed/candidates/')({
  validateSearch: candidatesListSearch,
  component: function CandidatesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const { value: CandidatesPage, error, retry } = useLoadedModule(candidatesPage);
    if (error) {
      return (
        <div>
          <CandidatesHeading />
          <ErrorCard title="The candidate list could not be loaded" error={error} onRetry={retry} />
        </div>
      );
    }
    if (!CandidatesPage) return <CandidatesHeading />;
    return (
      <CandidatesPage
        filters={filtersOf(search)}
        onFiltersChange={(patch) => void navigate({ search: (previous) => applyFilters(previous, patch), replace: true })}
      />
    );
  },
});
