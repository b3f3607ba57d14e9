import { ChoiceFilter, FilterBar, optionsOf } from '../../components/filters';
import { SearchBox } from '../../components/SearchBox';
import { CANDIDATE_STATUSES } from '../../../contract/candidate-status';
import { FilterSelect } from '../../components/ui';
import type { Organization } from '../../../contract/organizations';
import { MatchTrialPicker } from '../matching/MatchTrialPicker';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import type { CandidateFilters } from './CandidatesPage';
import { CANDIDATE_STATUS_LABELS } from './format';
import { CANDIDATE_SORT_CHOICES } from './queries';

/** The list's filters (search, status, trial, sort, and organizations for a global admin), kept in the URL. */
export function CandidateFilterBar({
  filters,
  onFiltersChange,
  trials,
  organizations,
  isGlobal,
}: {
  filters: CandidateFilters;
  onFiltersChange: (patch: Partial<CandidateFilters>) => void;
  trials: Array<{ id: string; title: string; publicTitle?: string | null }>;
  organizations: Organization[];
  isGlobal: boolean;
}) {
  return (
    <FilterBar label="Filter candidates">
      <SearchBox
        id="candidate-search"
        placeholder="Name, phone or email"
        className="w-64"
        value={filters.search}
        onChange={(search) => onFiltersChange({ search })}
      />
      <FilterSelect
        id="candidate-status"
        label="Status"
        anyLabel="Any status"
        className="w-44"
        value={filters.status}
        options={optionsOf(CANDIDATE_STATUSES, CANDIDATE_STATUS_LABELS)}
        onChange={(status) => onFiltersChange({ status })}
      />
      <FilterSelect
        id="candidate-trial"
        label="Trial"
        anyLabel="Any trial"
        className="w-56"
        value={filters.trialId}
        options={trials.map((trial) => ({ value: trial.id, label: trial.publicTitle || trial.title }))}
        onChange={(trialId) => onFiltersChange({ trialId })}
      />
      <ChoiceFilter
        id="candidate-sort"
        label="Sort by"
        className="w-44"
        value={filters.sort}
        options={CANDIDATE_SORT_CHOICES}
        onChange={(sort) => onFiltersChange({ sort })}
      />
      {isGlobal && (
        <OrganizationFilter
          organizations={organizations.map((org) => ({ id: org.id, name: org.name }))}
          selected={filters.orgs}
          onChange={(next) => onFiltersChange({ orgs: next })}
        />
      )}
      {!isGlobal && (
        <div className="ml-auto">
          <MatchTrialPicker />
        </div>
      )}
    </FilterBar>
  );
}
