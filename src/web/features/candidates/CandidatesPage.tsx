import { Link } from '@tanstack/react-router';
import { FileUp } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { CandidateStatus } from '../../../contract/candidates';
import { ListState, NoMatch } from '../../components/ListState';
import { Pager } from '../../components/Pager';
import { buttonClass, EmptyState } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { countWords } from '../../lib/counts';
import { FhirImportDialog } from '../clinical-record/dialogs';
import { DefaultSelectionNote } from '../trials/DefaultSelectionNote';
import { useCreateTargets, useIsGlobal } from '../trials/hooks';
import { useTrialsQuery } from '../trials/queries';
import { trialOption } from '../trials/trial-option';
import { CandidateFilterBar } from './CandidateFilterBar';
import { CandidatesHeading } from './CandidatesHeading';
import { CandidateTable } from './CandidateTable';
import { CandidateFormDialog } from './dialogs';
import { RecordConsentDialog } from './RecordConsentDialog';
import { CANDIDATE_PAGE_SIZE, type CandidateSort, candidateListParams, useCandidatesQuery } from './queries';

// The actions on a selection show only once a box is ticked: their code (pickers, the sequence and consent dialogs)
// is fetched after the list has been drawn, not before its first paint (decision 185).
const CandidateBulkActions = lazy(() => import('./CandidateBulkActions').then((module) => ({ default: module.CandidateBulkActions })));

export const PAGE_SIZE = CANDIDATE_PAGE_SIZE;

export interface CandidateFilters {
  search?: string;
  status?: CandidateStatus;
  trialId?: string;
  sort: CandidateSort;
  orgs?: string[];
}

function ImportLink({ variant = 'secondary' }: { variant?: 'primary' | 'secondary' }) {
  return (
    <Link to="/candidates/import" className={buttonClass(variant)}>
      <FileUp aria-hidden="true" className="h-4 w-4" />
      Import
    </Link>
  );
}

/** Keyset paging: cursors[i] opens page i (page 0 has none). A change of `filterKey` starts again at page 0. */
function useKeysetPaging(filterKey: string) {
  const [state, setState] = useState<{ key: string; cursors: Array<string | undefined>; page: number }>({ key: filterKey, cursors: [undefined], page: 0 });
  const current = state.key === filterKey ? state : { key: filterKey, cursors: [undefined], page: 0 };
  const restart = useMemo(() => () => setState({ key: filterKey, cursors: [undefined], page: 0 }), [filterKey]);
  return {
    page: current.page,
    cursor: current.cursors[current.page],
    restart,
    next: (nextCursor: string | null | undefined) => {
      if (!nextCursor) return;
      setState({ key: filterKey, cursors: [...current.cursors.slice(0, current.page + 1), nextCursor], page: current.page + 1 });
    },
    previous: () => setState({ key: filterKey, cursors: current.cursors, page: Math.max(0, current.page - 1) }),
  };
}

/**
 * The candidate list: a server-paged table (keyset cursors, 50 a page) with search, status, trial and sort,
 * selection and bulk actions. `/admin/candidates` (variant 'admin') always shows the organization column.
 */
export function CandidatesPage({
  filters,
  onFiltersChange,
  variant = 'workspace',
}: {
  filters: CandidateFilters;
  onFiltersChange: (patch: Partial<CandidateFilters>) => void;
  variant?: 'workspace' | 'admin';
}) {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const createTargets = useCreateTargets();
  const orgs = isGlobal ? filters.orgs : undefined;
  const trialsQuery = useTrialsQuery(orgs);
  const trials = useMemo(() => trialsQuery.data?.trials ?? [], [trialsQuery.data]);
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const trialTitles = useMemo(() => new Map(trials.map((trial) => [trial.id, trial.publicTitle || trial.title])), [trials]);
  const organizationNames = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const showOrganization = isGlobal || variant === 'admin';

  const filterKey = JSON.stringify([filters.search, filters.status, filters.trialId, filters.sort, orgs]);
  const paging = useKeysetPaging(filterKey);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  useEffect(() => setSelected(new Set()), [filterKey, paging.page]);

  // The same request main.tsx may have started as the page opened (decision 181).
  const query = useCandidatesQuery(candidateListParams(filters, isGlobal, paging.cursor));
  const rows = query.data?.candidates ?? [];
  const total = query.data?.total ?? 0;
  const hasFilters = Boolean(filters.search || filters.status || filters.trialId);
  const first = paging.page * PAGE_SIZE + 1;
  const last = paging.page * PAGE_SIZE + rows.length;

  // A page emptied by a delete goes back to the first page.
  const pageEmptied = query.isSuccess && !query.isPlaceholderData && rows.length === 0 && paging.page > 0;
  useEffect(() => {
    if (pageEmptied) paging.restart();
  }, [pageEmptied, paging.restart]);

  const actions = (
    <>
      <ImportLink />
      <FhirImportDialog organizations={createTargets} />
      <CandidateFormDialog organizations={createTargets} />
    </>
  );
  const isEmptyOrganization = query.isSuccess && total === 0 && !hasFilters && paging.page === 0;
  // An internal admin's empty list may be the default selection or a chosen organization with no one: the organization
  // filter stays, or the note's "choose one under Organizations above" would point at nothing.
  const showFilterBar = !isEmptyOrganization || isGlobal;

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading candidates"
      errorTitle="Could not load candidates"
      filtered={!isEmptyOrganization}
      empty={
        <EmptyState title={orgs?.length ? 'No candidates in the chosen organizations' : 'No candidates yet'}>
          <p>Add a candidate by hand, import a CSV or JSON file of many, or import one patient’s health record (FHIR).</p>
          {isGlobal && !orgs?.length && <DefaultSelectionNote things="candidates" />}
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            <CandidateFormDialog organizations={createTargets} />
            <ImportLink />
            <FhirImportDialog organizations={createTargets} />
          </div>
        </EmptyState>
      }
      noMatch={<NoMatch title="No candidates match" onClear={() => onFiltersChange({ search: undefined, status: undefined, trialId: undefined })} />}
      above={
        <>
          {selected.size === 0 && !isGlobal && total > 0 && (
            <div className="flex justify-end">
              <RecordConsentDialog
                target={{ filter: { search: filters.search, status: filters.status ? [filters.status] : undefined, trialId: filters.trialId } }}
                count={total}
                label={`Record consent for all ${countWords(total)} ${hasFilters ? 'matching' : ''}`.trim()}
              />
            </div>
          )}
          {selected.size > 0 && (
            <Suspense
              fallback={
                <p role="status" className="text-sm text-slate-700">
                  Loading the actions for the selection…
                </p>
              }
            >
              <CandidateBulkActions
                selection={rows.filter((row) => selected.has(row.id)).map((row) => ({ id: row.id, organizationId: row.organizationId }))}
                trials={trialOptions}
                onDone={() => setSelected(new Set())}
              />
            </Suspense>
          )}
        </>
      }
      pager={
        <Pager
          first={first}
          last={last}
          total={total}
          totalAtLeast={query.data?.totalAtLeast ?? false}
          canPrevious={paging.page !== 0}
          canNext={Boolean(query.data?.nextCursor)}
          onPrevious={paging.previous}
          onNext={() => paging.next(query.data?.nextCursor)}
          busy={query.isFetching}
        />
      }
    >
      <CandidateTable
        rows={rows}
        selected={selected}
        onSelectedChange={setSelected}
        trialTitles={trialTitles}
        showOrganization={showOrganization}
        organizationNames={organizationNames}
      />
    </ListState>
  );

  return (
    <div>
      <CandidatesHeading
        variant={variant}
        // Shown while the list loads too: buttons that arrived with the rows pushed the filters down (a layout shift).
        actions={isEmptyOrganization ? undefined : actions}
      />
      {showFilterBar && (
        <CandidateFilterBar filters={filters} onFiltersChange={onFiltersChange} trials={trials} organizations={organizations} isGlobal={isGlobal} />
      )}
      {body}
    </div>
  );
}
