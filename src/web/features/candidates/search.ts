import { CANDIDATE_STATUSES } from '../../../contract/candidate-status';
import { candidatesSearch } from '../../../contract/search';
import { extendSearch, oneOf, uuid, type InferSearch } from '../../../contract/search-params';
import type { CandidateFilters } from './CandidatesPage';
import { CANDIDATE_SORT_CHOICES, type CandidateSort } from './queries';

const SORTS = CANDIDATE_SORT_CHOICES.map((choice) => choice.value) as [CandidateSort, ...CandidateSort[]];
export const DEFAULT_SORT: CandidateSort = 'createdAt:desc';

/** The spec's `search` and `orgs`, plus the list's own filters; a bad value falls back to the default. */
export const candidatesListSearch = extendSearch(candidatesSearch, {
  status: oneOf(CANDIDATE_STATUSES),
  trialId: uuid,
  sort: oneOf(SORTS),
});
export type CandidatesListSearch = InferSearch<typeof candidatesListSearch>;

export function filtersOf(search: CandidatesListSearch): CandidateFilters {
  return { search: search.search, status: search.status, trialId: search.trialId, sort: search.sort ?? DEFAULT_SORT, orgs: search.orgs };
}

/** The next search params after a filter change (the default sort is left out of the URL). */
export function applyFilters(previous: CandidatesListSearch, patch: Partial<CandidateFilters>): CandidatesListSearch {
  const next = { ...previous, ...patch };
  if (next.sort === DEFAULT_SORT) next.sort = undefined;
  return next;
}
