import { FilterBar, optionsOf } from '../../components/filters';
import { OffsetPager } from '../../components/Pager';
import { SearchBox } from '../../components/SearchBox';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { AI_RECOMMENDATIONS, SOURCE_TYPES } from '../../../contract/search';
import { ListState, NoMatch } from '../../components/ListState';
import { EmptyState, FilterSelect, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { useOffsetPaging } from '../../lib/paging';
import { formatDateTime } from '../../lib/utils';
import { candidateName } from '../candidates/format';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { useIsGlobal } from '../trials/hooks';
import { RecommendationBadge, ReviewStatusBadge } from './components';
import { RECOMMENDATION_LABELS, SOURCE_TYPE_LABELS } from './format';
import { usePrescreenResultsQuery } from './queries';

export const RESULTS_PAGE_SIZE = 25;

export interface ResultsFilters {
  search?: string;
  sourceType?: (typeof SOURCE_TYPES)[number];
  aiRecommendation?: (typeof AI_RECOMMENDATIONS)[number];
  orgs?: string[];
}

/** /prescreen/results without a candidate: every result, newest first, filtered by the URL's search params. */
export function ResultsPage({ filters, onFiltersChange }: { filters: ResultsFilters; onFiltersChange: (patch: Partial<ResultsFilters>) => void }) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const orgs = isGlobal ? filters.orgs : undefined;
  const filterKey = JSON.stringify([filters.search, filters.sourceType, filters.aiRecommendation, orgs]);
  const paging = useOffsetPaging(RESULTS_PAGE_SIZE, { filterKey });
  const query = usePrescreenResultsQuery({
    search: filters.search,
    sourceType: filters.sourceType,
    aiRecommendation: filters.aiRecommendation,
    orgs,
    limit: paging.pageSize,
    offset: paging.offset,
  });
  const rows = query.data?.results ?? [];
  const total = query.data?.total ?? 0;
  const hasFilters = Boolean(filters.search || filters.sourceType || filters.aiRecommendation);

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading prescreen results"
      errorTitle="Could not load prescreen results"
      filtered={hasFilters || paging.offset > 0}
      empty={
        <EmptyState title="No prescreen results yet">
          <p>Results appear here after a call, a chat, or a prescreen run from a candidate’s page.</p>
          <Link to="/candidates" className="mt-3 inline-block text-sm font-medium text-blue-800 underline underline-offset-4">
            Go to candidates
          </Link>
        </EmptyState>
      }
      noMatch={<NoMatch title="No results match" onClear={() => onFiltersChange({ search: undefined, sourceType: undefined, aiRecommendation: undefined })} />}
      pager={<OffsetPager {...paging} shown={rows.length} total={total} busy={query.isFetching} />}
    >
      <Table caption="Prescreen results">
        <thead>
          <tr>
            <Th>Candidate</Th>
            <Th>Trial</Th>
            <Th>Source</Th>
            <Th>AI recommendation</Th>
            <Th>Review</Th>
            <Th>Date</Th>
            {isGlobal && <Th>Organization</Th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((result) => (
            <tr key={result.id}>
              <Td className="whitespace-nowrap">
                <Link
                  to="/prescreen/results"
                  search={{ candidateId: result.candidate.id }}
                  className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  {candidateName(result.candidate)}
                </Link>
              </Td>
              <Td className="max-w-sm">{result.trial.shortTitle}</Td>
              <Td>{SOURCE_TYPE_LABELS[result.sourceType]}</Td>
              <Td>
                <RecommendationBadge recommendation={result.aiRecommendation} />
                {result.decision?.overrideRecommendation && (
                  <span className="ml-2 text-xs text-slate-700">→ {RECOMMENDATION_LABELS[result.decision.overrideRecommendation]} (override)</span>
                )}
              </Td>
              <Td>
                <ReviewStatusBadge status={result.reviewStatus} />
              </Td>
              <Td className="whitespace-nowrap">{formatDateTime(result.createdAt)}</Td>
              {isGlobal && <Td>{names.get(result.organizationId) ?? '—'}</Td>}
            </tr>
          ))}
        </tbody>
      </Table>
    </ListState>
  );

  return (
    <div>
      <PageHeader
        title="Prescreen results"
        description="AI recommendations from calls, chats and manual prescreens. Open a candidate to review their answers and decide."
      />
      <FilterBar label="Filter prescreen results">
        <SearchBox
          id="results-search"
          placeholder="Candidate name, phone or email"
          className="w-72"
          value={filters.search}
          onChange={(search) => onFiltersChange({ search })}
        />
        <FilterSelect
          id="results-source"
          label="Source"
          anyLabel="Any source"
          className="w-40"
          value={filters.sourceType}
          options={optionsOf(SOURCE_TYPES, SOURCE_TYPE_LABELS)}
          onChange={(sourceType) => onFiltersChange({ sourceType })}
        />
        <FilterSelect
          id="results-recommendation"
          label="AI recommendation"
          anyLabel="Any recommendation"
          className="w-52"
          value={filters.aiRecommendation}
          options={AI_RECOMMENDATIONS.map((value) => ({ value, label: RECOMMENDATION_LABELS[value] }))}
          onChange={(aiRecommendation) => onFiltersChange({ aiRecommendation })}
        />
        {isGlobal && <OrganizationFilter organizations={organizations} selected={filters.orgs} onChange={(next) => onFiltersChange({ orgs: next })} />}
      </FilterBar>
      {body}
    </div>
  );
}
