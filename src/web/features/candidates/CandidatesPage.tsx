import { ChoiceFilter, FilterBar, optionsOf } from '../../components/filters';
import { Pager } from '../../components/Pager';
import { SearchBox } from '../../components/SearchBox';
import { MatchTrialPicker } from '../matching/MatchTrialPicker';
import { Link } from '@tanstack/react-router';
import { FileUp } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CANDIDATE_STATUSES, type CandidateListItem, type CandidateStatus } from '../../../contract/candidates';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { ConfirmDialog } from '../../components/dialogs';
import { ListState, NoMatch } from '../../components/ListState';
import { Button, buttonClass, EmptyState, FilterSelect, Label, PageHeader, Select, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { formatDate } from '../../lib/utils';
import { OrganizationFilter } from '../trials/OrganizationFilter';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';
import { useCreateTargets, useIsGlobal } from '../trials/hooks';
import { FhirImportDialog } from '../clinical-record/dialogs';
import { AddToSequenceButton } from '../sequences/dialogs';
import { CandidateFormDialog } from './dialogs';
import { RecordConsentDialog } from './RecordConsentDialog';
import { CandidateStatusBadge, Checkbox } from './components';
import { CANDIDATE_STATUS_LABELS, candidateName, formatPhone, plural, sourceLabel } from './format';
import {
  CANDIDATE_SORT_CHOICES,
  useBulkDeleteCandidates,
  useBulkUpdateCandidates,
  useCandidatesQuery,
  useResetCandidateStatus,
  type CandidateSort,
} from './queries';

export const PAGE_SIZE = 50;

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

/** The search box: typing waits 300 ms before it writes `search` to the URL. */
function BulkActions({
  selection,
  trials,
  onDone,
}: {
  selection: Array<{ id: string; organizationId: string }>;
  trials: ComboboxOption[];
  onDone: () => void;
}) {
  const [status, setStatus] = useState<CandidateStatus | ''>('');
  const [trialId, setTrialId] = useState('');
  const [resetOpen, setResetOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const bulkUpdate = useBulkUpdateCandidates();
  const bulkDelete = useBulkDeleteCandidates();
  const reset = useResetCandidateStatus();
  const ids = selection.map((candidate) => candidate.id);
  const count = plural(ids.length, 'candidate');
  // A sequence belongs to one organization: offered when the selection is of one organization.
  const organizationIds = [...new Set(selection.map((candidate) => candidate.organizationId))];

  return (
    <section aria-label="Act on selected candidates" className="flex flex-wrap items-end gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3">
      <p className="self-center text-sm font-medium text-blue-900" aria-live="polite">
        {ids.length} selected
      </p>
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!status) return;
          bulkUpdate.mutate(
            { candidateIds: ids, status },
            {
              onSuccess: (result) => {
                toast.success(`${plural(result.updated, 'candidate')} moved to ${CANDIDATE_STATUS_LABELS[status].toLowerCase()}`);
                setStatus('');
                onDone();
              },
            },
          );
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor="bulk-status" className="text-xs">
            Change status
          </Label>
          <Select id="bulk-status" className="h-8 w-44 py-0" value={status} onChange={(event) => setStatus(event.target.value as CandidateStatus | '')}>
            <option value="">Choose a status</option>
            {CANDIDATE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {CANDIDATE_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={!status || bulkUpdate.isPending}>
          Apply status
        </Button>
      </form>
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!trialId) return;
          bulkUpdate.mutate(
            { candidateIds: ids, addTrialId: trialId },
            {
              onSuccess: (result) => {
                toast.success(`${plural(result.updated, 'candidate')} linked to ${trials.find((trial) => trial.value === trialId)?.label ?? 'the trial'}`);
                setTrialId('');
                onDone();
              },
            },
          );
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor="bulk-trial" className="text-xs">
            Link to trial
          </Label>
          <Combobox
            {...TRIAL_PICKER}
            id="bulk-trial"
            compact
            className="w-52"
            options={trials}
            value={trialId}
            onChange={setTrialId}
            emptyText="No trials yet"
            placeholder="Choose a trial"
          />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={!trialId || bulkUpdate.isPending}>
          Link
        </Button>
      </form>
      <div className="ml-auto flex gap-2">
        {organizationIds.length === 1 && <AddToSequenceButton candidateIds={ids} organizationId={organizationIds[0]} source="manual" onDone={onDone} />}
        <RecordConsentDialog target={{ candidateIds: ids }} count={ids.length} label="Record consent" onDone={onDone} />
        <ConfirmDialog
          open={resetOpen}
          onOpenChange={setResetOpen}
          trigger={
            <Button size="sm" variant="secondary">
              Reset status
            </Button>
          }
          title={`Reset ${count} to New?`}
          description="Their status goes back to New; their history is kept. Candidates marked do-not-contact keep that status."
          confirmLabel="Reset status"
          pending={reset.isPending}
          onConfirm={() =>
            reset.mutate(selection, {
              onSuccess: (result) => {
                const extra = result.skippedDoNotContact.length ? ` (${result.skippedDoNotContact.length} do-not-contact kept)` : '';
                toast.success(`${plural(result.reset, 'candidate')} reset to New${extra}`);
                setResetOpen(false);
                onDone();
              },
            })
          }
        />
        <ConfirmDialog
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          trigger={
            <Button size="sm" variant="danger">
              Delete
            </Button>
          }
          title={`Delete ${count}?`}
          description={`${count} and their personal data will be removed for good. This cannot be undone; an audit record that it happened is kept.`}
          confirmLabel={`Delete ${count}`}
          pending={bulkDelete.isPending}
          onConfirm={() =>
            bulkDelete.mutate(ids, {
              onSuccess: (result) => {
                toast.success(`Deleted ${plural(result.deleted, 'candidate')}`);
                setDeleteOpen(false);
                onDone();
              },
            })
          }
        />
      </div>
    </section>
  );
}

function CandidateRow({
  candidate,
  selected,
  onSelect,
  trialTitles,
  showOrganization,
  organizationNames,
}: {
  candidate: CandidateListItem;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  trialTitles: Map<string, string>;
  showOrganization: boolean;
  organizationNames: Map<string, string>;
}) {
  const name = candidateName(candidate);
  usePhoneLibrary();
  return (
    <tr className={selected ? 'bg-blue-50/60' : undefined}>
      <Td className="w-10">
        <Checkbox label={`Select ${name}`} hideLabel checked={selected} onChange={onSelect} />
      </Td>
      <Td className="whitespace-nowrap">
        <Link
          to="/candidates/$id"
          params={{ id: candidate.id }}
          className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {name}
        </Link>
      </Td>
      <Td className="whitespace-nowrap tabular-nums">{formatPhone(candidate.phone)}</Td>
      <Td className="max-w-[14rem] truncate">{candidate.email ?? '—'}</Td>
      <Td>
        <CandidateStatusBadge status={candidate.status} />
      </Td>
      <Td className="max-w-[14rem]">
        {candidate.trialIds.length === 0 ? (
          <span className="text-slate-700">—</span>
        ) : (
          <ul className="grid gap-0.5">
            {candidate.trialIds.map((id) => (
              <li key={id} className="truncate text-xs" title={trialTitles.get(id)}>
                {trialTitles.get(id) ?? 'Trial'}
              </li>
            ))}
          </ul>
        )}
      </Td>
      <Td className="whitespace-nowrap">{sourceLabel(candidate.source)}</Td>
      <Td className="whitespace-nowrap">{formatDate(candidate.createdAt)}</Td>
      {showOrganization && <Td className="whitespace-nowrap">{organizationNames.get(candidate.organizationId) ?? '—'}</Td>}
    </tr>
  );
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
  const { organizations, activeOrganization } = useActiveOrganization();
  const createTargets = useCreateTargets();
  const orgs = isGlobal ? filters.orgs : undefined;
  const trialsQuery = useTrialsQuery(orgs);
  const trials = useMemo(() => trialsQuery.data?.trials ?? [], [trialsQuery.data]);
  const trialOptions = useMemo(() => trials.map(trialOption), [trials]);
  const trialTitles = useMemo(() => new Map(trials.map((trial) => [trial.id, trial.publicTitle || trial.title])), [trials]);
  const organizationNames = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const showOrganization = isGlobal || variant === 'admin';

  // Keyset paging: cursors[i] opens page i (page 0 has none). A filter change starts again at page 0.
  const filterKey = JSON.stringify([filters.search, filters.status, filters.trialId, filters.sort, orgs]);
  const [paging, setPaging] = useState<{ key: string; cursors: Array<string | undefined>; page: number }>({ key: filterKey, cursors: [undefined], page: 0 });
  const current = paging.key === filterKey ? paging : { key: filterKey, cursors: [undefined], page: 0 };
  const [selected, setSelected] = useState<Set<string>>(new Set());
  useEffect(() => setSelected(new Set()), [filterKey, current.page]);

  const query = useCandidatesQuery({
    search: filters.search,
    status: filters.status,
    trialId: filters.trialId,
    sort: filters.sort,
    orgs,
    limit: PAGE_SIZE,
    cursor: current.cursors[current.page],
  });
  const rows = query.data?.candidates ?? [];
  const total = query.data?.total ?? 0;
  const hasFilters = Boolean(filters.search || filters.status || filters.trialId);
  const first = current.page * PAGE_SIZE + 1;
  const last = current.page * PAGE_SIZE + rows.length;
  const allOnPage = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const someOnPage = rows.some((row) => selected.has(row.id));

  // A page emptied by a delete goes back to the first page.
  const pageEmptied = query.isSuccess && !query.isPlaceholderData && rows.length === 0 && current.page > 0;
  useEffect(() => {
    if (pageEmptied) setPaging({ key: filterKey, cursors: [undefined], page: 0 });
  }, [pageEmptied, filterKey]);

  const goNext = () => {
    const next = query.data?.nextCursor;
    if (!next) return;
    const cursors = current.cursors.slice(0, current.page + 1);
    cursors.push(next);
    setPaging({ key: filterKey, cursors, page: current.page + 1 });
  };
  const goPrevious = () => setPaging({ key: filterKey, cursors: current.cursors, page: Math.max(0, current.page - 1) });

  const actions = (
    <>
      <ImportLink />
      <FhirImportDialog organizations={createTargets} />
      <CandidateFormDialog organizations={createTargets} />
    </>
  );
  const isEmptyOrganization = query.isSuccess && total === 0 && !hasFilters && current.page === 0;

  const body = (
    <ListState
      query={query}
      rowCount={rows.length}
      loadingLabel="Loading candidates"
      errorTitle="Could not load candidates"
      filtered={!isEmptyOrganization}
      empty={
        <EmptyState title="No candidates yet">
          <p>Add a candidate by hand, import a CSV or JSON file of many, or import one patient’s health record (FHIR).</p>
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
                label={`Record consent for all ${total.toLocaleString('en-US')} ${hasFilters ? 'matching' : ''}`.trim()}
              />
            </div>
          )}
          {selected.size > 0 && (
            <BulkActions
              selection={rows.filter((row) => selected.has(row.id)).map((row) => ({ id: row.id, organizationId: row.organizationId }))}
              trials={trialOptions}
              onDone={() => setSelected(new Set())}
            />
          )}
        </>
      }
      pager={
        <Pager
          first={first}
          last={last}
          total={total}
          totalAtLeast={query.data?.totalAtLeast ?? false}
          canPrevious={current.page !== 0}
          canNext={Boolean(query.data?.nextCursor)}
          onPrevious={goPrevious}
          onNext={goNext}
          busy={query.isFetching}
        />
      }
    >
      <Table caption="Candidates">
        <thead>
          <tr>
            <Th className="w-10">
              <Checkbox
                label="Select all on this page"
                hideLabel
                checked={allOnPage}
                indeterminate={someOnPage && !allOnPage}
                onChange={(checked) => setSelected(checked ? new Set(rows.map((row) => row.id)) : new Set())}
              />
            </Th>
            <Th>Name</Th>
            <Th>Phone</Th>
            <Th>Email</Th>
            <Th>Status</Th>
            <Th>Trials</Th>
            <Th>Source</Th>
            <Th>Created</Th>
            {showOrganization && <Th>Organization</Th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((candidate) => (
            <CandidateRow
              key={candidate.id}
              candidate={candidate}
              selected={selected.has(candidate.id)}
              onSelect={(checked) =>
                setSelected((previous) => {
                  const next = new Set(previous);
                  if (checked) next.add(candidate.id);
                  else next.delete(candidate.id);
                  return next;
                })
              }
              trialTitles={trialTitles}
              showOrganization={showOrganization}
              organizationNames={organizationNames}
            />
          ))}
        </tbody>
      </Table>
    </ListState>
  );

  const description =
    variant === 'admin'
      ? isGlobal
        ? 'Candidates across customer organizations. Narrow the list by organization.'
        : `Candidates of ${activeOrganization?.name ?? 'the active organization'}. Choose the Cohortly organization above to see every organization.`
      : isGlobal
        ? 'Candidates across organizations (by default all customer organizations).'
        : `Prospective participants of ${activeOrganization?.name ?? 'your organization'} and where they are in the funnel.`;

  return (
    <div>
      <PageHeader
        title={variant === 'admin' ? 'Candidates (all organizations)' : 'Candidates'}
        description={description}
        actions={(query.isSuccess && !isEmptyOrganization) || query.isError ? actions : undefined}
      />
      {!isEmptyOrganization && (
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
      )}
      {body}
    </div>
  );
}
