import { createFileRoute } from '@tanstack/react-router';
import { prescreenResultsSearch } from '../../../../contract/search';
import { ResultsPage, type ResultsFilters } from '../../../features/prescreen/ResultsPage';
import { ReviewPage } from '../../../features/prescreen/ReviewPage';
import { candidateName } from '../../../features/candidates/name';
import { candidateQueryOptions } from '../../../features/candidates/queries';
import { getActiveOrganizationId } from '../../../lib/api';

/** The results list; with `candidateId`, that candidate's review. Filters live in the URL (they survive a reload). */
export const Route = createFileRoute('/_authed/prescreen/results')({
  validateSearch: prescreenResultsSearch,
  staticData: { crumb: 'Results' },
  // With a candidate, the review: Prescreen > Results > the candidate's name.
  loaderDeps: ({ search }) => ({ candidateId: search.candidateId }),
  loader: async ({ context, deps }) => {
    if (!deps.candidateId) return {};
    try {
      const candidate = await context.queryClient.ensureQueryData(candidateQueryOptions(getActiveOrganizationId(), deps.candidateId));
      return { trailingCrumb: candidateName(candidate) };
    } catch {
      return { trailingCrumb: 'Review' };
    }
  },
  component: function PrescreenResultsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    if (search.candidateId) return <ReviewPage key={search.candidateId} candidateId={search.candidateId} />;
    const filters: ResultsFilters = { search: search.search, sourceType: search.sourceType, aiRecommendation: search.aiRecommendation, orgs: search.orgs };
    return <ResultsPage filters={filters} onFiltersChange={(patch) => void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true })} />;
  },
});
